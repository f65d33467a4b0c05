import { describe, expect, it } from 'vitest';
import { normalizeText, tokenize } from '../../server/clinical-nlp/lexicon.js';
import { structure } from '../../server/clinical-nlp/structure.js';
import { COMMON_WORD_BRANDS, FORMULARY, parseStrength, usualStrengthUnit, type Drug } from '../../server/clinical-nlp/vocab/formulary.js';
import { classMemberNamed } from '../../server/clinical-nlp/vocab/drug-knowledge.js';
import CLASSES from '../../server/clinical-nlp/vocab/drug-classes.json' with { type: 'json' };
import US_UK from '../../server/clinical-nlp/vocab/drugs-us-uk.json' with { type: 'json' };

// The key the structurer's phrase index files a name under (lexicon.ts PhraseIndex.add).
const key = (name: string): string =>
  tokenize(normalizeText(name))
    .map((t) => t.text)
    .filter((w) => !/^[,;:?]$/.test(w))
    .join(' ');

const namesOf = (d: Drug): string[] => [d.name, ...(d.us ? [d.us] : []), ...d.aliases, ...d.brands, ...d.contextBrands];

describe('formulary data', () => {
  it('is large enough for Indian and US outpatient practice', () => {
    const keys = new Set(FORMULARY.flatMap(namesOf).map(key));
    const singles = FORMULARY.filter((d) => d.parts.length === 1);
    const brands = new Set(FORMULARY.flatMap((d) => d.brands).map(key));
    expect(keys.size).toBeGreaterThanOrEqual(2500);
    expect(singles.length).toBeGreaterThanOrEqual(700);
    expect(brands.size).toBeGreaterThanOrEqual(1500);
    expect(FORMULARY.length - singles.length).toBeGreaterThanOrEqual(150);
  });

  it('maps no name or brand to two different drugs', () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const d of FORMULARY) {
      for (const n of namesOf(d)) {
        const k = key(n);
        const other = owner.get(k);
        if (other !== undefined && other !== d.name) clashes.push(`"${k}": ${other} / ${d.name}`);
        else owner.set(k, d.name);
      }
    }
    expect(clashes).toEqual([]);
    expect(new Set(FORMULARY.map((d) => d.name)).size).toBe(FORMULARY.length);
  });

  it('lists no combination twice under its parts in another order', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const d of FORMULARY.filter((x) => x.parts.length > 1)) {
      const set = [...d.parts].sort().join(' + ');
      if (seen.has(set)) twice.push(`${seen.get(set)} / ${d.name}`);
      seen.set(set, d.name);
    }
    expect(twice).toEqual([]);
  });

  it('makes every part of a combination a drug of its own', () => {
    const single = new Set(FORMULARY.filter((d) => d.parts.length === 1).flatMap((d) => [d.name, ...(d.us ? [d.us] : []), ...d.aliases]));
    const orphans = FORMULARY.flatMap((d) => (d.parts.length > 1 ? d.parts.filter((p) => !single.has(p)).map((p) => `${d.name}: ${p}`) : []));
    expect(orphans).toEqual([]);
  });

  it('writes every strength with a known unit', () => {
    const bad = FORMULARY.flatMap((d) => [...d.strengths, ...d.concentrations].filter((s) => !parseStrength(s)).map((s) => `${d.name}: ${s}`));
    expect(bad).toEqual([]);
    expect(FORMULARY.every((d) => d.concentrations.every((c) => parseStrength(c)?.per))).toBe(true);
    expect(FORMULARY.every((d) => d.strengths.every((s) => !parseStrength(s)?.per))).toBe(true);
  });

  it('gives every drug a form and writes names in lower case', () => {
    expect(FORMULARY.filter((d) => !d.forms.length).map((d) => d.name)).toEqual([]);
    expect(FORMULARY.flatMap(namesOf).filter((n) => n !== n.toLowerCase() || n !== n.trim())).toEqual([]);
  });

  it("never ends a single drug's brand with one of its strengths (the number said after a brand is the strength)", () => {
    const bad = FORMULARY.filter((d) => d.parts.length === 1).flatMap((d) =>
      d.brands.filter((b) => {
        const last = /\s([\d.]+)$/.exec(b)?.[1];
        return last !== undefined && usualStrengthUnit(d, Number(last)) !== undefined;
      }),
    );
    expect(bad).toEqual([]);
  });

  it('knows every controlled drug the class table names (a prescription it cannot read cannot be flagged)', () => {
    const known = new Set(FORMULARY.flatMap((d) => [d.name, ...(d.us ? [d.us] : []), ...d.aliases]));
    const controlled = CLASSES.classes.filter((c) => c.id === 'opioid' || c.id === 'benzodiazepine').flatMap((c) => c.members);
    expect(controlled.length).toBeGreaterThan(20);
    expect(controlled.filter((m) => !known.has(m))).toEqual([]);
    expect(structure("Doctor: hmm sure i'll prescribe demerol", { locale: 'en-US' }).medications.map((m) => m.name)).toEqual(['meperidine']);
  });

  it('knows older drugs a history still names: quinine for cramps, propoxyphene (Darvon, Darvocet)', () => {
    const named = (text: string) => structure(text, { locale: 'en-US' }).medications.map((m) => m.name);
    expect(named('PLAN: Quinine 324 mg at bedtime for leg cramps.')).toEqual(['quinine']);
    expect(named('PLAN: Darvocet one tablet every 6 hours as needed.')).toEqual(['propoxyphene + acetaminophen']);
    expect(CLASSES.classes.find((c) => c.id === 'opioid')!.members).toContain('propoxyphene');
  });

  it('keeps brands that are ordinary English words apart', () => {
    expect([...COMMON_WORD_BRANDS]).toEqual(expect.arrayContaining(['pause', 'tide']));
    const indexed = new Set(FORMULARY.flatMap((d) => [d.name, ...(d.us ? [d.us] : []), ...d.aliases, ...d.brands]).map(key));
    expect([...COMMON_WORD_BRANDS].filter((b) => indexed.has(key(b)))).toEqual([]);
  });
});

describe('strengths', () => {
  it.each([
    ['500', { value: 500, unit: 'mg' }],
    ['0.25mcg', { value: 0.25, unit: 'mcg' }],
    ['60000IU', { value: 60000, unit: 'IU' }],
    ['0.05%', { value: 0.05, unit: '%' }],
    ['125mg/5ml', { value: 125, unit: 'mg', per: { value: 5, unit: 'ml' } }],
    ['100units/ml', { value: 100, unit: 'units', per: { value: 1, unit: 'ml' } }],
    ['10mEq', { value: 10, unit: 'mEq' }],
  ])('%s', (text, parsed) => {
    expect(parseStrength(text)).toEqual(parsed);
  });

  it('refuses what is not a strength', () => {
    expect(parseStrength('500 mg')).toBeUndefined();
    expect(parseStrength('two')).toBeUndefined();
    expect(parseStrength('5kg')).toBeUndefined();
  });

  it('knows the unit of a usual strength', () => {
    const drug = (name: string) => FORMULARY.find((d) => d.name === name)!;
    expect(usualStrengthUnit(drug('levothyroxine'), 50)).toBe('mcg');
    expect(usualStrengthUnit(drug('cholecalciferol'), 60000)).toBe('IU');
    expect(usualStrengthUnit(drug('tamsulosin'), 0.4)).toBe('mg');
    expect(usualStrengthUnit(drug('fosfomycin'), 3)).toBe('g');
    expect(usualStrengthUnit(drug('levothyroxine'), 5)).toBeUndefined();
  });
});

describe('combination names', () => {
  const drug = (name: string) => FORMULARY.find((d) => d.name === name)!;

  it('finds a combination by its parts in another order and without "plus"', () => {
    expect(drug('budesonide + formoterol').aliases).toEqual(expect.arrayContaining(['formoterol + budesonide', 'budesonide formoterol']));
    expect(drug('magnesium sulphate + glycerin').aliases).toContain('magnesium sulphate glycerine');
  });

  it("gives a combination its parts' US names", () => {
    expect(drug('ibuprofen + paracetamol').us).toBe('ibuprofen + acetaminophen');
    expect(drug('clotrimazole + lignocaine').us).toBe('clotrimazole + lidocaine');
    expect(drug('metformin + glimepiride').us).toBeUndefined();
  });
});

describe('brands through the structurer', () => {
  const meds = (text: string, locale = 'en-IN') => structure(text, { locale }).medications.map((m) => [m.name, m.brand ?? null]);

  it.each([
    ['tab glycomet gp 2 one tablet twice daily before meals', 'metformin + glimepiride', 'glycomet gp 2'],
    ['tab telma am one tablet every morning', 'telmisartan + amlodipine', 'telma am'],
    ['tab montair lc at bedtime for two weeks', 'montelukast + levocetirizine', 'montair lc'],
    ['tab zerodol sp one tablet twice daily after food for three days', 'aceclofenac + paracetamol + serratiopeptidase', 'zerodol sp'],
    ['syrup augmentin duo six ml twice daily for five days', 'amoxicillin + clavulanic acid', 'augmentin duo'],
    ['tab cetzine ten mg at night for a week', 'cetirizine', 'cetzine'],
    ['cap pan d before breakfast for a month', 'pantoprazole + domperidone', 'pan d'],
    ['tab rosuvas twenty at night', 'rosuvastatin', 'rosuvas'],
    ['cap uprise d3 60k once a week for eight weeks', 'cholecalciferol', 'uprise d3 60k'],
  ])('%s', (text, name, brand) => {
    expect(meds(text)).toContainEqual([name, brand]);
  });

  it.each([
    ['Start Eliquis 5 mg twice daily.', 'apixaban', 'eliquis'],
    ['Januvia 100 mg once a day with breakfast.', 'sitagliptin', 'januvia'],
    ['Symbicort 160 two puffs twice a day.', 'budesonide + formoterol', 'symbicort'],
    ['Synthroid 88 micrograms every morning.', 'levothyroxine', 'synthroid'],
    ['Tylenol 500 mg every six hours as needed.', 'acetaminophen', 'tylenol'],
    ['Ozempic 0.5 mg once weekly.', 'semaglutide', 'ozempic'],
  ])('%s (en-US)', (text, name, brand) => {
    expect(meds(text, 'en-US')).toContainEqual([name, brand]);
  });

  it('reads a combination said by its generic parts in either order', () => {
    expect(meds('formoterol plus budesonide inhaler two puffs twice daily')).toContainEqual(['budesonide + formoterol', null]);
    expect(meds('amoxicillin with clavulanic acid 625 mg twice daily for five days')).toContainEqual(['amoxicillin + clavulanic acid', null]);
  });

  it('does not read a brand that is an ordinary word as a drug', () => {
    expect(meds('she wants a pause from work and walks by the tide twice daily')).toEqual([]);
  });
});

describe('US and UK names (drugs-us-uk.json)', () => {
  const owner = new Map<string, Drug>();
  for (const d of FORMULARY) for (const n of namesOf(d)) if (!owner.has(key(n))) owner.set(key(n), d);
  const drugOf = (name: string): string | undefined => owner.get(key(name))?.name;

  it('names its source', () => {
    expect(US_UK.source).toMatch(/labelling/);
  });

  it.each([
    ['zantac', 'ranitidine'], ['duricef', 'cefadroxil'], ['keflex', 'cephalexin'], ['tylenol', 'paracetamol'],
    ['benadryl', 'diphenhydramine'], ['claritin', 'loratadine'], ['zyrtec', 'cetirizine'], ['singulair', 'montelukast'],
    ['piriton', 'chlorpheniramine'], ['nurofen', 'ibuprofen'], ['calpol', 'paracetamol'], ['sudafed', 'pseudoephedrine'],
    ['solu-medrol', 'methylprednisolone'], ['depo-medrol', 'methylprednisolone'], ['k-dur', 'potassium chloride'],
    ['hctz', 'hydrochlorothiazide'], ['maxzide', 'triamterene + hydrochlorothiazide'],
    ['lemsip', 'paracetamol + phenylephrine'], ['co-codamol', 'paracetamol + codeine'], ['co-dydramol', 'paracetamol + dihydrocodeine'],
    ['gaviscon', 'sodium alginate + sodium bicarbonate + calcium carbonate'], ['aquaphor', 'white soft paraffin'],
    ['sanctura xr', 'trospium'], ['micronor', 'norethisterone'], ['proctofoam hc', 'hydrocortisone + pramocaine'],
    ['levall', 'carbetapentane + guaifenesin + phenylephrine'], ['advil cold & sinus', 'ibuprofen + pseudoephedrine'],
    ['dioralyte', 'oral rehydration salts'], ['clarityn', 'loratadine'], ['zirtek', 'cetirizine'], ['eumovate', 'clobetasone butyrate'],
    ['daktacort', 'hydrocortisone + miconazole'], ['movicol', 'polyethylene glycol'], ['beclometasone', 'beclomethasone'],
    ['colecalciferol', 'cholecalciferol'], ['lustral', 'sertraline'], ['tritace', 'ramipril'], ['dilaudid', 'hydromorphone'],
    ['restoril', 'temazepam'], ['bendroflumethiazide', 'bendroflumethiazide'], ['tylenol with codeine', 'paracetamol + codeine'],
    ['steroid creams', 'topical steroid (steroid cream)'], ['antihistamines', 'antihistamine'], ['emollients', 'emollient'],
    ['a little cough syrup', undefined], ['cough syrup', 'cough syrup'], ['anti-inflammatories', 'anti inflammatory'],
    // A class, not one product: "her oral contraceptive" does not say which pill she takes.
    ['oral contraceptive', 'oral contraceptive pill'], ['birth control pills', 'oral contraceptive pill'], ['microgynon', 'levonorgestrel + ethinylestradiol'],
    // Short names said in UK and US surgeries.
    ['fluclox', 'flucloxacillin'], ['co-amox', 'amoxicillin + clavulanic acid'], ['doxy', 'doxycycline'],
  ])('%s is %s', (name, generic) => {
    expect(drugOf(name)).toBe(generic);
  });

  it('adds to a drug the tables already have rather than listing it twice', () => {
    const paraffin = FORMULARY.filter((d) => d.name === 'white soft paraffin');
    expect(paraffin).toHaveLength(1);
    expect(paraffin[0]!.us).toBe('petrolatum');
    expect(paraffin[0]!.brands).toEqual(expect.arrayContaining(['vaseline', 'aquaphor']));
  });

  it('marks the classes prescribed without a named drug', () => {
    const classes = FORMULARY.filter((d) => d.kind === 'class').map((d) => d.name);
    expect(classes).toEqual(expect.arrayContaining(['antihistamine', 'topical steroid (steroid cream)', 'cough syrup', 'anti inflammatory']));
    expect(FORMULARY.find((d) => d.name === 'cetirizine')?.kind).toBeUndefined();
  });

  it.each([
    ['antihistamine', 'chlorpheniramine', true],
    ['antihistamine', 'loratadine', true],
    ['topical steroid (steroid cream)', 'chlorpheniramine', false],
    ['topical steroid (steroid cream)', 'hydrocortisone', true],
    ['anti inflammatory', 'ibuprofen', true],
    ['anti inflammatory', 'acetaminophen', false],
    ['cough syrup', 'dextromethorphan', false],
    ['cetirizine', 'loratadine', false],
  ])('a %s is named by %s: %s', (entry, generic, named) => {
    expect(classMemberNamed(FORMULARY.find((d) => d.name === entry)!, generic)).toBe(named);
  });

  it('gives British names only to drugs it has, and gives them to them', () => {
    expect(Object.keys(US_UK.ukNames).filter((n) => !FORMULARY.some((d) => d.name === n))).toEqual([]);
    expect(Object.keys(US_UK.classMembers).filter((n) => FORMULARY.find((d) => d.name === n)?.kind !== 'class')).toEqual([]);
    expect(FORMULARY.find((d) => d.name === 'chlorpheniramine')?.uk).toBe('chlorphenamine');
    expect(FORMULARY.find((d) => d.name === 'nitroglycerin')?.uk).toBe('glyceryl trinitrate');
  });

  // A brand that is an everyday word would turn a sentence into a prescription; these need a drug context ("~").
  it.each(['bandy', 'sonata', 'ivy', 'bid', 'pause', 'tide', 'night nurse', 'plan b', 'deep heat', 'commit', 'halls', 'blink', 'one a day', 'may', 'will', 'iron', 'steroid', 'cream', 'inhaler'])(
    '"%s" is not a drug name without context',
    (word) => {
      expect(drugOf(word) === undefined || COMMON_WORD_BRANDS.has(word)).toBe(true);
      expect(FORMULARY.some((d) => [d.name, ...(d.us ? [d.us] : []), ...d.aliases, ...d.brands].map(key).includes(key(word)))).toBe(false);
    },
  );
});
