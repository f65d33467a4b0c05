import { describe, expect, it } from 'vitest';
import { STATUS_UNCLEAR_RULE, type ClinicalFacts, type Medication } from '../../server/clinical-nlp/facts.js';
import { checkSafety, type SafetyOptions } from '../../server/clinical-nlp/safety.js';
import { extractFacts, structure } from '../../server/clinical-nlp/structure.js';
import { allergyConflict, CLASSES, DOSE_TABLE, doseKnowledge } from '../../server/clinical-nlp/vocab/drug-knowledge.js';

const check = (text: string, opts: SafetyOptions = {}, locale = 'en-IN') => {
  const facts = extractFacts(text, { locale });
  return { facts, ...checkSafety(facts, opts) };
};
const codes = (r: { flags: { code: string }[] }) => r.flags.map((f) => f.code);

/** Facts holding only the given medications, for the checks that do not depend on the extractor. */
function factsWith(medications: Medication[], allergies: string[] = []): ClinicalFacts {
  return {
    locale: 'en-IN',
    complaints: [],
    history: { past: [], family: [], allergies },
    vitals: {},
    examination: [],
    diagnoses: [],
    medications,
    investigations: [],
    advice: [],
    evidence: { vitals: {}, advice: [], allergies: [] },
    flags: [],
  };
}

describe('dose unit and range', () => {
  it('structure() applies the checks, with the age and weight the note states', () => {
    const f = structure('Four year old boy, weight 12 kg. Fever. Syrup paracetamol two fifty mg per five ml, ten ml four times a day for three days.', { locale: 'en-IN' });
    expect(f.flags.map((x) => [x.code, x.pointer])).toEqual([['DAILY_MAX', '/medications/0']]);
    const g = structure('Viral fever. Tab paracetamol six fifty grams thrice daily for three days.', { locale: 'en-IN' });
    expect(g.medications[0]!.strength).toEqual({ value: 650, unit: 'mg' });
    expect(g.flags.map((x) => x.code)).toEqual(['DOSE_UNIT']);
  });

  it('corrects 650 g paracetamol to 650 mg and says so', () => {
    const r = check('Impression viral fever. Tab paracetamol six fifty grams one tablet thrice daily for three days.');
    const i = r.medications.findIndex((m) => m.name === 'paracetamol');
    expect(r.facts.medications[i]!.strength).toEqual({ value: 650, unit: 'g' });
    expect(r.medications[i]!.strength).toEqual({ value: 650, unit: 'mg' });
    const flag = r.flags.find((f) => f.code === 'DOSE_UNIT');
    expect(flag?.pointer).toBe(`/medications/${i}/strength`);
    expect(flag?.message).toContain('650 g');
    expect(flag?.message).toContain('changed to 650 mg');
  });

  it('keeps 0.25 mg spoken as "point two five" without a flag', () => {
    const r = check('Generalised anxiety. Tab alprazolam point two five mg at bedtime for ten days.');
    expect(r.medications.find((m) => m.name === 'alprazolam')?.strength).toEqual({ value: 0.25, unit: 'mg' });
    expect(r.flags).toEqual([]);
  });

  it('flags a budesonide inhaler in mg, and leaves mcg inhalers alone', () => {
    const wrong = check('Asthma. Budesonide inhaler two hundred mg, two puffs twice a day.');
    const i = wrong.medications.findIndex((m) => m.name === 'budesonide');
    expect(wrong.flags.map((f) => [f.code, f.pointer])).toEqual([['DOSE_UNIT', `/medications/${i}/strength`]]);
    expect(wrong.medications[i]!.strength).toEqual({ value: 200, unit: 'mcg' });

    for (const text of ['Asthma. Budesonide inhaler four hundred mcg, two puffs twice a day.', 'Asthma. Fluticasone inhaler one twenty five mcg, one puff at night.']) {
      const right = check(text);
      expect(right.medications.map((m) => m.strength?.unit)).toEqual(['mcg']);
      expect(right.flags).toEqual([]);
    }
  });

  it('flags rosuvastatin 120 mg as out of range and keeps what was said', () => {
    const r = check('Dyslipidaemia. Tab rosuvastatin one hundred and twenty mg at night.');
    const i = r.medications.findIndex((m) => m.name === 'rosuvastatin');
    expect(r.medications[i]!.strength).toEqual({ value: 120, unit: 'mg' });
    expect(codes(r)).toEqual(['DOSE_RANGE']);
    expect(r.flags[0]!.pointer).toBe(`/medications/${i}/strength`);
    expect(r.flags[0]!.message).toMatch(/120 mg is far above the usual for rosuvastatin \(5, 10, 20, 40 mg\)/);
  });

  it('flags a strength in range that the drug does not come in, nor a few tablets of, for an adult (a misheard number)', () => {
    const heard = checkSafety(factsWith([{ name: 'paracetamol', form: 'tablet', strength: { value: 320, unit: 'mg' } }]));
    expect(codes(heard)).toEqual(['DOSE_RANGE']);
    expect(heard.flags[0]!.pointer).toBe('/medications/0/strength');
    expect(heard.flags[0]!.message).toMatch(/320 mg is not one paracetamol comes in \(325, 500, 650, 1000 mg\)/);
    for (const value of [325, 650, 1000, 1300]) {
      expect(checkSafety(factsWith([{ name: 'paracetamol', form: 'tablet', strength: { value, unit: 'mg' } }])).flags).toEqual([]);
    }
    // Half a tablet, and a child's dose by weight, are doses.
    expect(checkSafety(factsWith([{ name: 'hydrochlorothiazide', form: 'tablet', strength: { value: 6.25, unit: 'mg' } }])).flags).toEqual([]);
    expect(checkSafety(factsWith([{ name: 'paracetamol', strength: { value: 180, unit: 'mg' } }]), { weightKg: 12 }).flags).toEqual([]);
  });

  it('corrects levothyroxine 100 mg to 100 mcg, and reads 0.1 mg as the same dose', () => {
    const mg = checkSafety(factsWith([{ name: 'levothyroxine', form: 'tablet', strength: { value: 100, unit: 'mg' } }]));
    expect(mg.medications[0]!.strength).toEqual({ value: 100, unit: 'mcg' });
    expect(codes(mg)).toEqual(['DOSE_UNIT']);
    const us = checkSafety(factsWith([{ name: 'levothyroxine', form: 'tablet', strength: { value: 0.1, unit: 'mg' } }]));
    expect(us.flags).toEqual([]);
  });

  it('keeps an ambiguous unit and flags it: insulin in mg', () => {
    const r = checkSafety(factsWith([{ name: 'insulin glargine', form: 'injection', strength: { value: 14, unit: 'mg' } }]));
    expect(r.medications[0]!.strength).toEqual({ value: 14, unit: 'mg' });
    expect(codes(r)).toEqual(['DOSE_UNIT']);
    expect(r.flags[0]!.message).toContain('units');
    const units = checkSafety(factsWith([{ name: 'insulin glargine', form: 'injection', strength: { value: 14, unit: 'unit' } }]));
    expect(units.flags).toEqual([]);
  });

  it('flags more insulin at once than a pen gives (100 units/ml read as the dose)', () => {
    const r = check('Type 2 diabetes. Inj insulin glargine hundred units at bedtime.');
    expect(r.flags.map((f) => f.code)).toEqual(['DOSE_RANGE']);
    expect(r.flags[0]!.pointer).toMatch(/^\/medications\/0\/(?:strength|dose)$/);
    expect(check('Type 2 diabetes. Inj insulin glargine thirty units at bedtime.').flags).toEqual([]);
  });

  it('writes units of vitamin D as IU', () => {
    const r = checkSafety(factsWith([{ name: 'cholecalciferol', form: 'sachet', strength: { value: 60000, unit: 'unit' } }]));
    expect(r.medications[0]!.strength).toEqual({ value: 60000, unit: 'IU' });
    expect(r.flags).toEqual([]);
  });
});

describe('daily maximum', () => {
  it('flags paracetamol 1 g every four hours (6 g a day)', () => {
    const r = check('Myalgia. Tab paracetamol one gram every four hours for two days.');
    expect(codes(r)).toEqual(['DAILY_MAX']);
    expect(r.flags[0]!.message).toContain('6 g');
    const ok = check('Myalgia. Tab paracetamol one gram three times a day for two days.');
    expect(ok.flags).toEqual([]);
  });

  it('counts tablets per dose', () => {
    const r = check('Type 2 diabetes. Tab metformin five hundred mg, two tablets three times a day after food.');
    expect(codes(r)).toEqual(['DAILY_MAX']);
  });

  it("checks a child's syrup per kg when the weight is known", () => {
    const text = 'Four year old girl with fever. Syrup paracetamol two fifty mg per five ml, ten ml four times a day for three days.';
    const r = check(text, { weightKg: 12, ageYears: 4 });
    expect(codes(r)).toEqual(['DAILY_MAX']);
    expect(r.flags[0]!.message).toMatch(/mg\/kg\/day for 12 kg/);
    // The same prescription for an adult is within the maximum.
    expect(check(text, { weightKg: 60, ageYears: 30 }).flags).toEqual([]);
  });

  it('flags methotrexate given daily (a weekly drug)', () => {
    const daily = checkSafety(factsWith([{ name: 'methotrexate', strength: { value: 7.5, unit: 'mg' }, frequency: { per_day: 1, as_needed: false, text: 'once daily' } }]));
    expect(codes(daily)).toEqual(['DAILY_MAX']);
    const weekly = checkSafety(factsWith([{ name: 'methotrexate', strength: { value: 7.5, unit: 'mg' }, frequency: { per_day: null, as_needed: false, text: 'once a week' } }]));
    expect(weekly.flags).toEqual([]);
  });
});

describe('allergies', () => {
  it('flags amoxicillin for a patient allergic to penicillin', () => {
    const r = check('Allergic to penicillin. Acute tonsillitis. Cap amoxicillin five hundred mg three times a day for five days.');
    const i = r.medications.findIndex((m) => m.name === 'amoxicillin');
    expect(r.flags.map((f) => [f.code, f.pointer])).toEqual([['ALLERGY_CONFLICT', `/medications/${i}`]]);
    expect(r.flags[0]!.message).toContain('penicillin class');
  });

  it('cautions on cefixime after a penicillin allergy', () => {
    const r = check('Known penicillin allergy. Enteric fever. Tab cefixime two hundred mg twice daily for ten days.');
    expect(codes(r)).toEqual(['ALLERGY_CONFLICT']);
    expect(r.flags[0]!.message).toMatch(/cross-reactivity possible/);
  });

  it("uses the patient's record, brands and classes", () => {
    const r = checkSafety(factsWith([{ name: 'sulfamethoxazole + trimethoprim', brand: 'septran', strength: { value: 960, unit: 'mg' } }]), { patientAllergies: ['Sulfa drugs (rash)'] });
    expect(codes(r)).toEqual(['ALLERGY_CONFLICT']);
    expect(r.flags[0]!.message).toContain("the patient's record");
    expect(allergyConflict('augmentin', 'amoxicillin')).toBe('same drug');
    expect(allergyConflict('brufen', 'diclofenac')).toBe('NSAID class');
    expect(allergyConflict('codeine', 'tramadol')).toBe('opioid class');
    expect(allergyConflict('erythromycin', 'clarithromycin')).toBe('macrolide class');
  });

  it('does not flag unrelated drugs', () => {
    expect(allergyConflict('penicillin', 'azithromycin')).toBeNull();
    expect(allergyConflict('ibuprofen', 'acetaminophen')).toBeNull();
    expect(allergyConflict('sulfa', 'furosemide')).toBeNull();
    expect(allergyConflict('rash', 'amoxicillin')).toBeNull();
    // The alternative the doctor chose is not part of the allergy.
    expect(allergyConflict('penicillin so we will use azithromycin', 'azithromycin')).toBeNull();
    const r = check('Allergic to penicillin. Pharyngitis. Tab azithromycin five hundred mg once a day for three days.');
    expect(r.flags).toEqual([]);
  });
});

describe('duplicate therapy', () => {
  it('flags two proton pump inhibitors, pointing at each', () => {
    const r = check('Gastritis. Tab pantoprazole forty mg before breakfast for two weeks. Cap omeprazole twenty mg at night for two weeks.');
    expect(r.flags.map((f) => [f.code, f.pointer])).toEqual([
      ['DUPLICATE_THERAPY', '/medications/0'],
      ['DUPLICATE_THERAPY', '/medications/1'],
    ]);
    expect(r.flags[0]!.message).toContain('pantoprazole and omeprazole are both proton pump inhibitors');
  });

  it('flags the same ingredient in two products', () => {
    const r = checkSafety(factsWith([{ name: 'paracetamol', strength: { value: 650, unit: 'mg' } }, { name: 'ibuprofen + paracetamol', brand: 'combiflam' }]));
    expect(codes(r)).toEqual(['DUPLICATE_THERAPY', 'DUPLICATE_THERAPY']);
    expect(r.flags[0]!.message).toContain('both contain paracetamol');
  });

  it('leaves alternatives alone: the patient takes one or the other', () => {
    const r = checkSafety(factsWith([
      { name: 'paracetamol', alternatives: ['codeine + paracetamol'] },
      { name: 'codeine + paracetamol', alternatives: ['paracetamol'] },
    ]));
    expect(r.flags.filter((f) => f.code === 'DUPLICATE_THERAPY')).toEqual([]);
  });

  it('leaves a taper, dual antiplatelets and an inhaled with an oral steroid alone', () => {
    const taper = checkSafety(factsWith([
      { name: 'prednisolone', strength: { value: 40, unit: 'mg' } },
      { name: 'prednisolone', strength: { value: 20, unit: 'mg' } },
    ]));
    expect(taper.flags).toEqual([]);
    const dapt = checkSafety(factsWith([{ name: 'aspirin', strength: { value: 75, unit: 'mg' } }, { name: 'clopidogrel', strength: { value: 75, unit: 'mg' } }]));
    expect(dapt.flags).toEqual([]);
    const steroids = checkSafety(factsWith([
      { name: 'budesonide', form: 'inhaler', strength: { value: 200, unit: 'mcg' } },
      { name: 'prednisolone', form: 'tablet', strength: { value: 20, unit: 'mg' } },
    ]));
    expect(steroids.flags).toEqual([]);
  });
});

describe('how the name was recognised', () => {
  it('flags a fuzzy match with what was heard, and an unrecognised drug', () => {
    const r = checkSafety(factsWith([
      { name: 'rosuvastatin', match: 'fuzzy', heard: 'rosuvastin', strength: { value: 10, unit: 'mg' } },
      { name: 'zorbafen', match: 'unrecognised', heard: 'zorbafen', strength: { value: 50, unit: 'mg' } },
    ]));
    expect(r.flags).toEqual([
      { code: 'FUZZY_MATCH', message: "Heard 'rosuvastin'; matched to rosuvastatin by sound — check.", pointer: '/medications/0' },
      { code: 'UNRECOGNISED_DRUG', message: "'zorbafen' is not in the formulary — check the name.", pointer: '/medications/1' },
    ]);
  });

  it('does not change its input', () => {
    const facts = factsWith([{ name: 'paracetamol', form: 'tablet', strength: { value: 650, unit: 'g' } }]);
    const copy = structuredClone(facts);
    const r = checkSafety(facts);
    expect(r.medications[0]!.strength).toEqual({ value: 650, unit: 'mg' });
    expect(facts).toEqual(copy);
  });
});

describe('drug knowledge table', () => {
  it('covers the common outpatient generics', () => {
    expect(DOSE_TABLE.size).toBeGreaterThanOrEqual(300);
    for (const name of ['paracetamol', 'acetaminophen', 'amoxicillin + clavulanic acid', 'albuterol', 'rosuvastatin', 'levothyroxine', 'metformin']) {
      expect(doseKnowledge(name), name).toBeDefined();
    }
  });

  it('has no maximum a day below a usual strength it applies to', () => {
    const mg = (a: { value: number; unit: string }) => a.value * ({ g: 1000, mg: 1, mcg: 0.001 }[a.unit] ?? NaN);
    const wrong: string[] = [];
    for (const [name, k] of DOSE_TABLE) {
      for (const [group, max] of Object.entries(k.maxDaily)) {
        const groups = group === 'all' ? ['oral', 'liquid', 'drops', 'inj'] : [group];
        const sizes = groups.flatMap((g) => k.strengths[g as keyof typeof k.strengths] ?? []).map(mg).filter((v) => !Number.isNaN(v));
        if (!sizes.length || sizes.some((v) => v > mg(max))) wrong.push(name);
      }
      if (k.childMgPerKgDay && k.childMgPerKgDay.min > k.childMgPerKgDay.max) wrong.push(name);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps each class member under one spelling', () => {
    const members = CLASSES.flatMap((c) => c.members);
    expect(members.filter((m) => /sulph|amoxycillin|frusemide|acetaminophen|albuterol/.test(m))).toEqual([]);
  });
});

describe('status and unit flags', () => {
  it('flags a prescription kept although its status was unclear', () => {
    const r = checkSafety(factsWith([{ name: 'paracetamol', rules: ['med.default-new', STATUS_UNCLEAR_RULE] }]));
    expect(r.flags).toEqual([expect.objectContaining({ code: 'STATUS_UNCLEAR', pointer: '/medications/0' })]);
  });

  it('flags a strength whose unit the structurer supplied', () => {
    const r = checkSafety(factsWith([{ name: 'cetirizine', strength: { value: 7, unit: 'mg' }, inferred: ['strength'] }]));
    expect(r.flags.map((f) => [f.code, f.pointer])).toContainEqual(['UNIT_NOT_SAID', '/medications/0/strength']);
  });

  it('asks for the strength of a new antibiotic, not of a continued one or an eye drop', () => {
    expect(codes(checkSafety(factsWith([{ name: 'cefuroxime', status: 'new' }])))).toEqual(['STRENGTH_MISSING']);
    expect(codes(checkSafety(factsWith([{ name: 'cefuroxime', status: 'continued' }])))).toEqual([]);
    expect(codes(checkSafety(factsWith([{ name: 'moxifloxacin', form: 'eye drops' }])))).toEqual([]);
  });

  it('asks for the new strength of any changed dose that has none, not of a change of how often', () => {
    expect(codes(checkSafety(factsWith([{ name: 'sertraline', status: 'changed' }])))).toEqual(['STRENGTH_MISSING']);
    expect(codes(checkSafety(factsWith([{ name: 'sertraline', status: 'changed', strength: { value: 100, unit: 'mg' } }])))).toEqual([]);
    expect(codes(checkSafety(factsWith([{ name: 'bethanechol', status: 'changed', frequency: { per_day: 2, as_needed: false, text: 'twice daily' } }])))).toEqual([]);
  });

  it('asks for the strength of every anti-infective and opioid whose class says so, not of paracetamol', () => {
    for (const name of ['nitrofurantoin', 'trimethoprim', 'clindamycin', 'valacyclovir', 'oseltamivir', 'fluconazole', 'codeine', 'rifampicin']) {
      expect([name, codes(checkSafety(factsWith([{ name, status: 'new' }])))]).toEqual([name, ['STRENGTH_MISSING']]);
    }
    expect(codes(checkSafety(factsWith([{ name: 'paracetamol', status: 'new' }])))).toEqual([]);
  });

  it('flags a strength the recording also gives otherwise, not a change, a step or a second dose prescribed now', () => {
    const flagged = (text: string) => structure(text, { locale: 'en-US' }).flags.filter((f) => f.code === 'STRENGTH_CONFLICT').map((f) => f.pointer);
    expect(flagged('HISTORY: At her last visit she was prescribed lisinopril 20 mg daily. ASSESSMENT AND PLAN: Hypertension. Continue lisinopril 10 mg daily.')).toEqual(['/medications/0/strength']);
    expect(flagged('MEDICATIONS: Lisinopril 10 mg daily. PLAN: Increase lisinopril to 20 mg daily.')).toEqual([]);
    expect(flagged('PLAN: Metformin 1000 mg in the morning and metformin 500 mg in the evening.')).toEqual([]);
    expect(flagged('PLAN: Continue lisinopril 10 mg daily.')).toEqual([]);
  });
});


describe('the most taken at one time', () => {
  it('a daily total read as one dose is flagged ("3 grams per day" as 3 g once daily); a usual dose is not', () => {
    expect(codes(check('Tylenol 3 g once daily.', {}, 'en-US'))).toContain('DOSE_RANGE');
    expect(codes(check('Paracetamol 500 mg three tablets four times a day.'))).toContain('DOSE_RANGE');
    expect(codes(check('Paracetamol 500 mg two tablets four times a day.'))).not.toContain('DOSE_RANGE');
    expect(codes(check('Paracetamol 1 g four times a day.'))).not.toContain('DOSE_RANGE');
  });

  it('triazolam 5 mg (ten times the usual) is flagged', () => {
    expect(codes(check('Halcion 5 mg at bedtime.', {}, 'en-US'))).toContain('DOSE_RANGE');
    expect(codes(check('Halcion 0.25 mg at bedtime.', {}, 'en-US'))).not.toContain('DOSE_RANGE');
  });
});

describe('numbers a recogniser ran together', () => {
  it('a count nobody takes at once is flagged ("advair one hundred over fifty one inhalation", "qvar forty two puffs")', () => {
    expect(codes(check('qvar forty two puffs twice daily', {}, 'en-US'))).toContain('DOSE_RANGE');
    expect(codes(check('Qvar 40 mcg two puffs twice daily.', {}, 'en-US'))).not.toContain('DOSE_RANGE');
  });

  it('a percent strength for a drug that comes in no cream, drops or spray is flagged', () => {
    const text = 'he will take inderal ten mg twice daily and we will gradually increase his dose until his heart rate will drop to twenty five percent';
    expect(codes(check(text, {}, 'en-US'))).toContain('DOSE_UNIT');
    expect(codes(check('Hydrocortisone 1% cream twice daily.', {}, 'en-US'))).not.toContain('DOSE_UNIT');
  });
});
