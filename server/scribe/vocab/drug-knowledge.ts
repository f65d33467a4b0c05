/**
 * Drug knowledge for the safety checks: pharmacological classes (allergy cross-reactivity, duplicate therapy) keyed
 * by generic name. A drug missing here is simply not checked; a wrong entry is a false alarm or a missed one, so
 * only what is textbook-certain is listed.
 */
import { normalizeText, PhraseIndex, tokenize } from '../structure/lexicon.js';
import { FORMULARY } from './formulary.js';

export interface DrugClass {
  id: string;
  /** For the doctor: "penicillin", "proton pump inhibitor". */
  label: string;
  /** An allergy to one member is an allergy to the class (cross-reactivity the doctor must weigh). */
  allergy: boolean;
  /** Two members prescribed together are duplicate therapy. */
  duplicate: boolean;
  /** Names of the class as an allergy may be stated ("sulfa drugs", "nsaids"). */
  names: string[];
  members: string[];
}

const words = (s: string): string[] => s.trim().split(/\s*,\s*/).filter(Boolean);

function cls(id: string, label: string, flags: 'allergy' | 'duplicate' | 'both', names: string, members: string): DrugClass {
  return { id, label, allergy: flags !== 'duplicate', duplicate: flags !== 'allergy', names: words(names), members: words(members) };
}

export const CLASSES: readonly DrugClass[] = [
  cls('penicillin', 'penicillin', 'both', 'penicillin, penicillins, pencillin',
    'amoxicillin, ampicillin, cloxacillin, dicloxacillin, flucloxacillin, oxacillin, nafcillin, benzylpenicillin, benzathine penicillin, procaine penicillin, phenoxymethylpenicillin, penicillin v, penicillin g, piperacillin, ticarcillin, bacampicillin, pivmecillinam, mecillinam, sultamicillin'),
  cls('cephalosporin', 'cephalosporin', 'both', 'cephalosporin, cephalosporins',
    'cephalexin, cefadroxil, cefaclor, cefuroxime, cefprozil, cefpodoxime, cefixime, cefdinir, cefditoren, ceftibuten, ceftriaxone, cefotaxime, ceftazidime, cefepime, cefoperazone, cefazolin, cefoxitin, ceftaroline, cefradine'),
  cls('carbapenem', 'carbapenem', 'both', 'carbapenem, carbapenems', 'meropenem, imipenem, ertapenem, doripenem, faropenem'),
  cls('sulfonamide', 'sulfonamide antibiotic', 'allergy',
    'sulfa, sulpha, sulfa drugs, sulpha drugs, sulfa drug, sulpha drug, sulfonamide, sulfonamides, sulphonamide, sulphonamides, sulfa antibiotics',
    'sulfamethoxazole, sulfadiazine, silver sulfadiazine, sulfacetamide, sulfasalazine, sulfadoxine, sulfisoxazole'),
  cls('macrolide', 'macrolide', 'both', 'macrolide, macrolides', 'azithromycin, clarithromycin, erythromycin, roxithromycin'),
  cls('fluoroquinolone', 'fluoroquinolone', 'both', 'quinolone, quinolones, fluoroquinolone, fluoroquinolones',
    'ciprofloxacin, ofloxacin, levofloxacin, moxifloxacin, norfloxacin, gatifloxacin, gemifloxacin, prulifloxacin, nadifloxacin, besifloxacin, delafloxacin, sparfloxacin'),
  cls('tetracycline', 'tetracycline', 'both', 'tetracyclines', 'doxycycline, minocycline, tetracycline, oxytetracycline, demeclocycline, omadacycline, sarecycline'),
  cls('aminoglycoside', 'aminoglycoside', 'allergy', 'aminoglycoside, aminoglycosides', 'gentamicin, amikacin, tobramycin, neomycin, streptomycin, netilmicin, framycetin'),
  cls('nitroimidazole', 'nitroimidazole', 'duplicate', '', 'metronidazole, tinidazole, ornidazole, secnidazole'),
  cls('nsaid', 'NSAID', 'both',
    'nsaid, nsaids, non steroidal anti inflammatory drugs, non steroidal anti inflammatories, anti inflammatory drugs, anti inflammatories, painkillers nsaids',
    'ibuprofen, dexibuprofen, diclofenac, aceclofenac, naproxen, ketoprofen, dexketoprofen, flurbiprofen, ketorolac, indomethacin, mefenamic acid, tolfenamic acid, nimesulide, piroxicam, meloxicam, lornoxicam, tenoxicam, etodolac, nabumetone, sulindac, diflunisal, oxaprozin, fenoprofen, aspirin, celecoxib, etoricoxib, parecoxib, metamizole'),
  cls('opioid', 'opioid', 'both', 'opioid, opioids, opiate, opiates, narcotics',
    'morphine, codeine, tramadol, tapentadol, oxycodone, hydrocodone, hydromorphone, oxymorphone, fentanyl, buprenorphine, methadone, pethidine, dihydrocodeine, pentazocine, butorphanol, nalbuphine'),
  cls('ppi', 'proton pump inhibitor', 'duplicate', 'ppi, ppis, proton pump inhibitors',
    'omeprazole, esomeprazole, pantoprazole, rabeprazole, lansoprazole, dexlansoprazole, ilaprazole, dexrabeprazole'),
  cls('h2', 'H2 blocker', 'duplicate', '', 'ranitidine, famotidine, nizatidine, cimetidine, roxatidine'),
  cls('statin', 'statin', 'duplicate', 'statin, statins', 'atorvastatin, rosuvastatin, simvastatin, pravastatin, lovastatin, pitavastatin, fluvastatin'),
  cls('acei', 'ACE inhibitor', 'duplicate', 'ace inhibitor, ace inhibitors',
    'enalapril, ramipril, lisinopril, perindopril, captopril, benazepril, quinapril, fosinopril, trandolapril, moexipril, imidapril'),
  cls('arb', 'angiotensin receptor blocker', 'duplicate', '',
    'losartan, telmisartan, olmesartan, valsartan, irbesartan, candesartan, azilsartan, eprosartan'),
  // An ACE inhibitor with an ARB (or aliskiren) is dual renin-angiotensin blockade, flagged like a duplicate.
  cls('ras', 'renin-angiotensin blocker', 'duplicate', '',
    'enalapril, ramipril, lisinopril, perindopril, captopril, benazepril, quinapril, fosinopril, trandolapril, moexipril, imidapril, losartan, telmisartan, olmesartan, valsartan, irbesartan, candesartan, azilsartan, eprosartan, aliskiren'),
  cls('beta_blocker', 'beta blocker', 'duplicate', 'beta blocker, beta blockers',
    'atenolol, metoprolol, bisoprolol, nebivolol, carvedilol, propranolol, labetalol, nadolol, sotalol, esmolol, metoprolol succinate, metoprolol tartrate'),
  cls('ccb', 'calcium channel blocker', 'duplicate', 'calcium channel blockers',
    'amlodipine, s amlodipine, cilnidipine, nifedipine, felodipine, lercanidipine, benidipine, azelnidipine, nicardipine, isradipine, nitrendipine, diltiazem, verapamil'),
  cls('thiazide', 'thiazide diuretic', 'duplicate', '', 'hydrochlorothiazide, chlorthalidone, indapamide, metolazone, chlorothiazide'),
  cls('loop', 'loop diuretic', 'duplicate', '', 'furosemide, torsemide, bumetanide'),
  cls('mra', 'aldosterone antagonist', 'duplicate', '', 'spironolactone, eplerenone, finerenone'),
  cls('alpha_blocker', 'alpha blocker', 'duplicate', '', 'tamsulosin, silodosin, alfuzosin, doxazosin, prazosin, terazosin'),
  cls('5ari', '5-alpha reductase inhibitor', 'duplicate', '', 'finasteride, dutasteride'),
  cls('sglt2', 'SGLT2 inhibitor', 'duplicate', '', 'empagliflozin, dapagliflozin, canagliflozin, ertugliflozin, remogliflozin, sotagliflozin'),
  cls('dpp4', 'DPP-4 inhibitor', 'duplicate', 'gliptins',
    'sitagliptin, vildagliptin, linagliptin, saxagliptin, alogliptin, teneligliptin, evogliptin, gemigliptin'),
  cls('glp1', 'GLP-1 agonist', 'duplicate', '', 'liraglutide, semaglutide, dulaglutide, exenatide, lixisenatide, tirzepatide'),
  cls('sulfonylurea', 'sulfonylurea', 'duplicate', 'sulfonylureas', 'glimepiride, gliclazide, glipizide, glibenclamide, tolbutamide, chlorpropamide'),
  cls('biguanide', 'biguanide', 'duplicate', '', 'metformin'),
  cls('tzd', 'thiazolidinedione', 'duplicate', '', 'pioglitazone, rosiglitazone'),
  cls('basal_insulin', 'basal insulin', 'duplicate', '', 'insulin glargine, insulin detemir, insulin degludec, isophane insulin'),
  cls('rapid_insulin', 'mealtime insulin', 'duplicate', '', 'insulin aspart, insulin lispro, insulin glulisine, human regular insulin'),
  cls('benzodiazepine', 'benzodiazepine', 'both', 'benzodiazepine, benzodiazepines',
    'alprazolam, clonazepam, lorazepam, diazepam, chlordiazepoxide, etizolam, clobazam, midazolam, nitrazepam, oxazepam, temazepam, triazolam, clorazepate'),
  cls('ssri', 'SSRI', 'duplicate', 'ssri, ssris', 'sertraline, escitalopram, fluoxetine, paroxetine, citalopram, fluvoxamine'),
  cls('snri', 'SNRI', 'duplicate', 'snri, snris', 'venlafaxine, desvenlafaxine, duloxetine, milnacipran, levomilnacipran'),
  // Two serotonin reuptake inhibitors of either kind add up to serotonin toxicity.
  cls('sri', 'serotonin reuptake inhibitor', 'duplicate', '',
    'sertraline, escitalopram, fluoxetine, paroxetine, citalopram, fluvoxamine, venlafaxine, desvenlafaxine, duloxetine, milnacipran, levomilnacipran'),
  cls('tca', 'tricyclic antidepressant', 'duplicate', '', 'amitriptyline, nortriptyline, imipramine, clomipramine, dosulepin, doxepin, desipramine, trimipramine'),
  cls('antihistamine', 'antihistamine', 'duplicate', 'antihistamines',
    'cetirizine, levocetirizine, fexofenadine, loratadine, desloratadine, bilastine, rupatadine, ebastine, chlorpheniramine, pheniramine, hydroxyzine, diphenhydramine, cyproheptadine, promethazine'),
  cls('leukotriene', 'leukotriene antagonist', 'duplicate', '', 'montelukast, zafirlukast'),
  cls('corticosteroid', 'corticosteroid', 'duplicate', 'steroids, corticosteroids',
    'prednisolone, prednisone, methylprednisolone, deflazacort, dexamethasone, betamethasone, hydrocortisone, budesonide, fluticasone, beclomethasone, mometasone, ciclesonide, triamcinolone, clobetasol propionate, clobetasol, clobetasone, halobetasol, desonide, fluocinolone, fluocinonide'),
  cls('saba', 'short-acting bronchodilator', 'duplicate', '', 'salbutamol, levosalbutamol, terbutaline'),
  cls('laba', 'long-acting beta agonist', 'duplicate', '', 'formoterol, salmeterol, vilanterol, indacaterol, olodaterol, arformoterol'),
  cls('lama', 'long-acting antimuscarinic', 'duplicate', '', 'tiotropium, glycopyrronium, umeclidinium, aclidinium'),
  cls('anticoagulant', 'anticoagulant', 'duplicate', 'blood thinners',
    'warfarin, acenocoumarol, rivaroxaban, apixaban, dabigatran, edoxaban, heparin, enoxaparin, dalteparin, fondaparinux'),
  cls('p2y12', 'P2Y12 antiplatelet', 'duplicate', '', 'clopidogrel, prasugrel, ticagrelor, ticlopidine'),
  cls('triptan', 'triptan', 'duplicate', 'triptans', 'sumatriptan, rizatriptan, zolmitriptan, naratriptan, eletriptan, almotriptan, frovatriptan'),
  cls('azole', 'azole antifungal', 'duplicate', '', 'fluconazole, itraconazole, ketoconazole, voriconazole, posaconazole'),
  cls('xoi', 'xanthine oxidase inhibitor', 'duplicate', '', 'allopurinol, febuxostat'),
  cls('bisphosphonate', 'bisphosphonate', 'duplicate', '', 'alendronate, risedronate, ibandronate'),
];

/** Spellings folded to the name this table uses (US names, British spellings, older names). */
const SPELLING: Record<string, string> = {
  acetaminophen: 'paracetamol', albuterol: 'salbutamol', levalbuterol: 'levosalbutamol', glyburide: 'glibenclamide',
  meperidine: 'pethidine', lidocaine: 'lignocaine', adrenaline: 'epinephrine', frusemide: 'furosemide',
  cefalexin: 'cephalexin', aciclovir: 'acyclovir', valaciclovir: 'valacyclovir', thyroxine: 'levothyroxine',
  'ferrous sulfate': 'ferrous sulphate', 'zinc sulfate': 'zinc sulphate', 'acetylsalicylic acid': 'aspirin',
  'glyceryl trinitrate': 'nitroglycerin', dothiepin: 'dosulepin', chlorphenamine: 'chlorpheniramine',
  amoxycillin: 'amoxicillin', sulphamethoxazole: 'sulfamethoxazole', sulphasalazine: 'sulfasalazine',
  'valproic acid': 'sodium valproate', divalproex: 'sodium valproate', 'divalproex sodium': 'sodium valproate',
  'clavulanate': 'clavulanic acid', 'potassium clavulanate': 'clavulanic acid', 'salicylic acid': 'salicylic acid',
  'metoprolol succinate': 'metoprolol', 'metoprolol tartrate': 'metoprolol', 'clobetasol': 'clobetasol propionate',
  'co trimoxazole': 'sulfamethoxazole + trimethoprim', cotrimoxazole: 'sulfamethoxazole + trimethoprim',
  'insulin nph': 'isophane insulin', 'nph insulin': 'isophane insulin', 'regular insulin': 'human regular insulin',
};

// Form words a formulary entry may carry ("ciprofloxacin eye drops", "clindamycin topical"): not part of the molecule.
const FORM_SUFFIX = /\s+(?:eye drops|ear drops|nasal drops|nasal spray|drops|topical|gel|nasal|cream|ointment|inhaler|injection)$/;

function byFormulary(): Map<string, string> {
  const m = new Map<string, string>();
  for (const d of FORMULARY) for (const n of [d.name, ...(d.us ? [d.us] : []), ...d.aliases]) if (!m.has(n)) m.set(n, d.name);
  return m;
}
const FORMULARY_NAME = byFormulary();

/** One molecule's name as this table keys it. */
function molecule(name: string): string {
  const n = name.trim().toLowerCase().replace(/\s+/g, ' ').replace(FORM_SUFFIX, '');
  return SPELLING[n] ?? n;
}

/** The molecules of a generic (or US, or other) name: "amoxicillin + clavulanic acid" → both components. */
export function components(generic: string): string[] {
  const n = generic.trim().toLowerCase().replace(/\s+/g, ' ');
  const name = SPELLING[n] ?? FORMULARY_NAME.get(n) ?? FORMULARY_NAME.get(n.replace(FORM_SUFFIX, '')) ?? n;
  return [...new Set(name.split(/\s+\+\s+/).flatMap((c) => (SPELLING[c]?.includes(' + ') ? SPELLING[c]!.split(' + ') : [molecule(c)])))];
}

const CLASSES_OF = new Map<string, DrugClass[]>();
for (const c of CLASSES) for (const m of c.members) CLASSES_OF.set(m, [...(CLASSES_OF.get(m) ?? []), c]);

/** The classes of one molecule (component). */
export function classesOf(component: string): DrugClass[] {
  return CLASSES_OF.get(molecule(component)) ?? [];
}

// Aminopenicillins share their side chain with these cephalosporins: the one penicillin–cephalosporin pair whose
// cross-reactivity is well documented, so it is flagged in both directions.
const AMINO_PENICILLINS = new Set(['amoxicillin', 'ampicillin', 'bacampicillin']);
const SAME_SIDE_CHAIN_CEPHALOSPORINS = new Set(['cephalexin', 'cefadroxil', 'cefaclor', 'cefprozil', 'cefradine']);

// Enantiomers and metabolites: an allergy to one is an allergy to the other.
const SAME_MOIETY: string[][] = [
  ['cetirizine', 'levocetirizine'], ['loratadine', 'desloratadine'], ['ofloxacin', 'levofloxacin'],
  ['citalopram', 'escitalopram'], ['omeprazole', 'esomeprazole'], ['lansoprazole', 'dexlansoprazole'],
  ['rabeprazole', 'dexrabeprazole'], ['salbutamol', 'levosalbutamol'], ['amlodipine', 's amlodipine'],
  ['venlafaxine', 'desvenlafaxine'], ['ibuprofen', 'dexibuprofen'], ['ketoprofen', 'dexketoprofen'],
  ['prednisone', 'prednisolone'], ['hydroxyzine', 'cetirizine'], ['codeine', 'morphine'],
];
const MOIETY = new Map<string, Set<string>>();
for (const group of SAME_MOIETY) for (const a of group) MOIETY.set(a, new Set([...(MOIETY.get(a) ?? []), ...group]));

interface Allergen {
  molecules: string[];
  classes: DrugClass[];
}

const ALLERGEN_INDEX = new PhraseIndex<Allergen>();
for (const c of CLASSES) for (const n of c.names) ALLERGEN_INDEX.add(n, { molecules: [], classes: [c] });
for (const d of FORMULARY) {
  const ref = { molecules: components(d.name), classes: [] };
  for (const n of [d.name, ...(d.us ? [d.us] : []), ...d.aliases, ...d.brands]) ALLERGEN_INDEX.add(n, ref);
}
for (const c of CLASSES) for (const m of c.members) ALLERGEN_INDEX.add(m, { molecules: [m], classes: [] });
for (const [spelling, name] of Object.entries(SPELLING)) ALLERGEN_INDEX.add(spelling, { molecules: components(name), classes: [] });

/** What an allergy as stated ("sulfa drugs", "augmentin, gets a rash") names: molecules and classes. */
export function allergens(allergy: string): Allergen {
  const found = ALLERGEN_INDEX.findAll(tokenize(normalizeText(allergy)));
  return { molecules: [...new Set(found.flatMap((f) => f.payload.molecules))], classes: [...new Set(found.flatMap((f) => f.payload.classes))] };
}

export interface AllergyHit {
  /** Short reason: "penicillin class", "same drug". */
  reason: string;
  /** A caution rather than a contraindication (cross-reactivity is possible, not expected). */
  caution: boolean;
}

/** Whether a drug (generic, US name, or "a + b") conflicts with an allergy as stated; the first conflict found. */
export function allergyHit(allergy: string, generic: string): AllergyHit | null {
  const named = allergens(allergy);
  if (!named.molecules.length && !named.classes.length) return null;
  const allergicClasses = new Set(named.classes.filter((c) => c.allergy));
  for (const m of named.molecules) for (const c of classesOf(m)) if (c.allergy) allergicClasses.add(c);
  for (const comp of components(generic)) {
    if (named.molecules.includes(comp)) return { reason: 'same drug', caution: false };
    if (named.molecules.some((m) => MOIETY.get(m)?.has(comp))) return { reason: 'same active substance', caution: false };
    const own = classesOf(comp);
    const shared = own.find((c) => allergicClasses.has(c));
    if (shared) return { reason: `${shared.label} class`, caution: false };
    const sideChain =
      (AMINO_PENICILLINS.has(comp) && named.molecules.some((m) => SAME_SIDE_CHAIN_CEPHALOSPORINS.has(m))) ||
      (SAME_SIDE_CHAIN_CEPHALOSPORINS.has(comp) && named.molecules.some((m) => AMINO_PENICILLINS.has(m)));
    if (sideChain) return { reason: 'shares its side chain with the allergen: cross-reactivity likely', caution: false };
    const ids = new Set(own.map((c) => c.id));
    const allergicIds = new Set([...allergicClasses].map((c) => c.id));
    if (ids.has('cephalosporin') && allergicIds.has('penicillin')) return { reason: 'cephalosporin after a penicillin allergy: cross-reactivity possible', caution: true };
    if (ids.has('carbapenem') && allergicIds.has('penicillin')) return { reason: 'carbapenem after a penicillin allergy: cross-reactivity possible', caution: true };
  }
  return null;
}

/** A short reason ("penicillin class") when the drug conflicts with the stated allergy, else null. */
export function allergyConflict(allergy: string, generic: string): string | null {
  return allergyHit(allergy, generic)?.reason ?? null;
}
