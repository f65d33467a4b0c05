/**
 * Drug knowledge for the safety checks, keyed by generic name: pharmacological classes (allergy cross-reactivity,
 * duplicate therapy), usual strengths per form, adult maximum daily dose and children's mg/kg/day. A drug or a
 * number missing here is simply not checked; a wrong entry is a false alarm or a missed one, so only label and
 * textbook figures are listed, and where labels differ (US, BNF, Indian practice) the higher maximum.
 */
import { normalizeText, PhraseIndex, tokenize } from '../lexicon.js';
import { FORMULARY, type Drug } from './formulary.js';

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
  cls('tetracycline', 'tetracycline', 'both', 'tetracyclines', 'doxycycline, minocycline, tetracycline, oxytetracycline, demeclocycline, omadacycline, sarecycline, lymecycline'),
  cls('aminoglycoside', 'aminoglycoside', 'allergy', 'aminoglycoside, aminoglycosides', 'gentamicin, amikacin, tobramycin, neomycin, streptomycin, netilmicin, framycetin'),
  cls('nitroimidazole', 'nitroimidazole', 'duplicate', '', 'metronidazole, tinidazole, ornidazole, secnidazole'),
  cls('nsaid', 'NSAID', 'both',
    'nsaid, nsaids, non steroidal anti inflammatory drugs, non steroidal anti inflammatories, anti inflammatory drugs, anti inflammatories, painkillers nsaids',
    'ibuprofen, dexibuprofen, diclofenac, aceclofenac, naproxen, ketoprofen, dexketoprofen, flurbiprofen, ketorolac, indomethacin, mefenamic acid, tolfenamic acid, nimesulide, piroxicam, meloxicam, lornoxicam, tenoxicam, etodolac, nabumetone, sulindac, diflunisal, oxaprozin, fenoprofen, aspirin, celecoxib, etoricoxib, parecoxib, metamizole'),
  cls('opioid', 'opioid', 'both', 'opioid, opioids, opiate, opiates, narcotics',
    'morphine, codeine, tramadol, tapentadol, oxycodone, hydrocodone, hydromorphone, oxymorphone, fentanyl, buprenorphine, methadone, pethidine, dihydrocodeine, pentazocine, butorphanol, nalbuphine'),
  cls('ppi', 'proton pump inhibitor', 'duplicate', 'ppi, ppis, proton pump inhibitors',
    'omeprazole, esomeprazole, pantoprazole, rabeprazole, lansoprazole, dexlansoprazole, ilaprazole, dexrabeprazole'),
  // Vonoprazan blocks the same pump by another mechanism: with a PPI it is still double acid suppression.
  cls('acid_pump', 'acid pump blocker', 'duplicate', '',
    'omeprazole, esomeprazole, pantoprazole, rabeprazole, lansoprazole, dexlansoprazole, ilaprazole, dexrabeprazole, vonoprazan'),
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
  cls('thiazide', 'thiazide diuretic', 'duplicate', '', 'hydrochlorothiazide, chlorthalidone, indapamide, metolazone, chlorothiazide, bendroflumethiazide'),
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
    'sertraline, escitalopram, fluoxetine, paroxetine, citalopram, fluvoxamine, venlafaxine, desvenlafaxine, duloxetine, milnacipran, levomilnacipran, vortioxetine'),
  cls('tca', 'tricyclic antidepressant', 'duplicate', '', 'amitriptyline, nortriptyline, imipramine, clomipramine, dosulepin, doxepin, desipramine, trimipramine'),
  cls('antihistamine', 'antihistamine', 'duplicate', 'antihistamines',
    'cetirizine, levocetirizine, fexofenadine, loratadine, desloratadine, bilastine, rupatadine, ebastine, chlorpheniramine, pheniramine, hydroxyzine, diphenhydramine, cyproheptadine, promethazine, brompheniramine, triprolidine, acrivastine'),
  cls('leukotriene', 'leukotriene antagonist', 'duplicate', '', 'montelukast, zafirlukast'),
  cls('corticosteroid', 'corticosteroid', 'duplicate', 'steroids, corticosteroids',
    'prednisolone, prednisone, methylprednisolone, deflazacort, dexamethasone, betamethasone, hydrocortisone, budesonide, fluticasone, beclomethasone, mometasone, ciclesonide, triamcinolone, clobetasol propionate, clobetasol, clobetasone, halobetasol, desonide, fluocinolone, fluocinonide, loteprednol, fluorometholone, difluprednate, desoximetasone'),
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
  'ferrous sulfate': 'ferrous sulphate', 'zinc sulfate': 'zinc', 'zinc sulphate': 'zinc', 'acetylsalicylic acid': 'aspirin',
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

// Salts and esters named after the molecule ("fluticasone propionate", "losartan potassium"): the same drug for
// allergies, classes and strengths, when the molecule alone is known here.
const SALT = /\s+(?:propionate|dipropionate|furoate|valerate|acetate|butyrate|sodium|potassium|magnesium|calcium|hydrochloride|hcl|hydrobromide|succinate|tartrate|maleate|besylate|besilate|mesylate|fumarate|citrate|bromide|phosphate|monohydrate|hyclate|axetil|proxetil|medoxomil|cilexetil|erbumine|arginine|trihydrate|xinafoate)$/;

/** One molecule's name as this table keys it. */
function molecule(name: string): string {
  const n = name.trim().toLowerCase().replace(/\s+/g, ' ').replace(FORM_SUFFIX, '');
  const spelled = SPELLING[n] ?? n;
  const bare = spelled.replace(SALT, '');
  return bare !== spelled && (CLASSES_OF.has(bare) || DOSE_TABLE.has(bare)) ? bare : spelled;
}

// Names are few (the formulary's) and asked for again and again (every pair of a prescription), so each is resolved once.
const COMPONENTS = new Map<string, string[]>();

/** The molecules of a generic (or US, or other) name: "amoxicillin + clavulanic acid" → both components. */
export function components(generic: string): readonly string[] {
  let out = COMPONENTS.get(generic);
  if (!out) {
    const n = generic.trim().toLowerCase().replace(/\s+/g, ' ');
    const name = SPELLING[n] ?? FORMULARY_NAME.get(n) ?? FORMULARY_NAME.get(n.replace(FORM_SUFFIX, '')) ?? n;
    out = [...new Set(name.split(/\s+\+\s+/).flatMap((c) => (SPELLING[c]?.includes(' + ') ? SPELLING[c]!.split(' + ') : [molecule(c)])))];
    // Unrecognised names come from transcripts too: a long-running server must not keep them all.
    if (COMPONENTS.size >= 10_000) COMPONENTS.clear();
    COMPONENTS.set(generic, out);
  }
  return out;
}

const CLASSES_OF = new Map<string, DrugClass[]>();
for (const c of CLASSES) for (const m of c.members) CLASSES_OF.set(m, [...(CLASSES_OF.get(m) ?? []), c]);

/** The classes of one molecule (component). */
export function classesOf(component: string): DrugClass[] {
  return CLASSES_OF.get(component) ?? CLASSES_OF.get(molecule(component)) ?? [];
}

/**
 * Whether a drug (generic, US name or "a + b") is one the class entry stands for: "take antihistamines … Piriton,
 * loratadine" names the antihistamine meant, while a steroid cream followed by Piriton still needs its own entry.
 * False for a class entry that stands for no listed class ("cough syrup") and for an entry that is no class.
 */
export function classMemberNamed(classEntry: Drug, generic: string): boolean {
  const id = classEntry.classOf;
  return !!id && components(generic).some((c) => classesOf(c).some((k) => k.id === id));
}

/**
 * How a form is dosed, for strengths: oral = tablets, capsules, sachets (per unit); liquid = syrups and suspensions
 * (per 5 ml); drops = oral drops (per ml); inhaler and nasal per puff or spray; neb per respule; topical, eye and
 * ear in percent; inj per vial or ampoule; patch per patch; vaginal per pessary.
 */
export type FormGroup = 'oral' | 'liquid' | 'drops' | 'inhaler' | 'neb' | 'nasal' | 'topical' | 'eye' | 'ear' | 'inj' | 'patch' | 'vaginal';
export const FORM_GROUPS: readonly FormGroup[] = ['oral', 'liquid', 'drops', 'inhaler', 'neb', 'nasal', 'topical', 'eye', 'ear', 'inj', 'patch', 'vaginal'];

/** Units as the structurer writes them: mg, mcg, g, %, IU, unit. */
export interface Strength {
  value: number;
  unit: string;
}

export interface DoseKnowledge {
  /** Usual strengths per form group. */
  strengths: Partial<Record<FormGroup, Strength[]>>;
  /** The units each form group comes in, also where no usual numbers are listed (insulin: units). */
  units: Partial<Record<FormGroup, string[]>>;
  /** Adult maximum a day, for every systemic form ('all') or for one form group. */
  maxDaily: Partial<Record<FormGroup | 'all', Strength>>;
  /** Most given at one time (insulin: what a pen delivers in one injection). */
  maxDose?: Strength;
  /** Children's usual mg/kg/day. */
  childMgPerKgDay?: { min: number; max: number };
  /** Taken once a week: a daily schedule is an error (methotrexate). */
  weekly: boolean;
}

/**
 * One generic a line: name | strengths per form group ("oral 5,10 mg; liquid 125 mg") | adult maximum a day
 * ("4 g", or per group "oral 40 mg, inj 120 mg", and "dose 80 units" for the most at one time) | children's
 * mg/kg/day ("60-75") | "weekly".
 */
const DOSES = `
paracetamol | oral 325,500,650,1000 mg; liquid 120,125,150,160,240,250 mg; drops 100 mg; inj 500,1000 mg | 4 g | 60-75
ibuprofen | oral 200,400,600,800 mg; liquid 100 mg; drops 40 mg; topical 5,10 % | 3200 mg | 20-40
diclofenac | oral 25,50,75,100 mg; inj 75 mg; topical 1,1.16,2,3 % | oral 200 mg
aceclofenac | oral 100,200 mg | 200 mg
naproxen | oral 220,250,275,375,500,550 mg; liquid 125 mg | 1500 mg
mefenamic acid | oral 250,500 mg; liquid 100 mg | 1500 mg
etodolac | oral 200,300,400,500,600 mg | 1200 mg
nimesulide | oral 100 mg | 200 mg
ketorolac | oral 10 mg; inj 15,30,60 mg; eye 0.4,0.5 % | oral 40 mg, inj 120 mg
etoricoxib | oral 30,60,90,120 mg | 120 mg
celecoxib | oral 50,100,200,400 mg | 400 mg
meloxicam | oral 7.5,15 mg | 15 mg
piroxicam | oral 10,20 mg; topical 0.5 % | 20 mg
lornoxicam | oral 4,8 mg | 16 mg
indomethacin | oral 25,50,75 mg | 200 mg
ketoprofen | oral 50,100,200 mg; topical 2.5 %
aspirin | oral 75,81,150,300,325,500 mg | 4 g
tramadol | oral 50,100,150,200 mg; inj 50,100 mg | 400 mg
tapentadol | oral 50,75,100,150,200,250 mg | 700 mg
codeine | oral 15,30,60 mg | 360 mg
morphine | oral 10,15,30,60,100 mg
oxycodone | oral 5,10,15,20,30,40,80 mg
thiocolchicoside | oral 4,8 mg | 16 mg
cyclobenzaprine | oral 5,7.5,10,15,30 mg | 30 mg
methocarbamol | oral 500,750 mg
tizanidine | oral 2,4,6 mg | 36 mg
baclofen | oral 5,10,20 mg | 100 mg
pregabalin | oral 25,50,75,82.5,150,300,330 mg | 600 mg
gabapentin | oral 100,300,400,600,800 mg | 3600 mg
methylcobalamin | oral 500,750,1500 mcg; inj 500,1000,1500 mcg
cyanocobalamin | oral 500,1000 mcg; inj 1000 mcg
amitriptyline | oral 10,25,50,75 mg | 300 mg
nortriptyline | oral 10,25,50,75 mg | 150 mg
duloxetine | oral 20,30,40,60 mg | 120 mg
amoxicillin | oral 125,250,500,875,1000 mg; liquid 125,200,250,400 mg; drops 100 mg | | 25-90
amoxicillin + clavulanic acid | oral 375,625,875,1000 mg; liquid 156,228,312,457,642 mg
ampicillin | oral 250,500 mg; inj 500,1000 mg
cloxacillin | oral 250,500 mg
phenoxymethylpenicillin | oral 125,250,500 mg
cephalexin | oral 125,250,500,750 mg; liquid 125,250 mg | 4 g | 25-100
cefadroxil | oral 500,1000 mg; liquid 125,250,500 mg | 2 g
cefuroxime | oral 125,250,500 mg; liquid 125,250 mg; inj 750,1500 mg | oral 1000 mg | 20-30
cefixime | oral 100,200,400 mg; liquid 50,100 mg | | 8-20
cefpodoxime | oral 50,100,200 mg; liquid 50,100 mg | 800 mg | 8-10
cefdinir | oral 300 mg; liquid 125,250 mg | 600 mg | 14-14
cefaclor | oral 250,375,500 mg; liquid 125,250 mg | | 20-40
ceftriaxone | inj 250,500,1000,2000 mg | 4 g | 50-100
azithromycin | oral 250,500,600 mg; liquid 100,200 mg; eye 1 %
clarithromycin | oral 250,500 mg; liquid 125,250 mg | 1000 mg | 15-15
erythromycin | oral 250,400,500 mg; liquid 125,200,250,400 mg | 4 g | 30-50
roxithromycin | oral 50,150,300 mg | 300 mg
doxycycline | oral 50,100 mg | 200 mg
minocycline | oral 50,100 mg | 200 mg
tetracycline | oral 250,500 mg
ciprofloxacin | oral 250,500,750 mg; inj 200,400 mg; eye 0.3 %; ear 0.2,0.3 % | oral 1500 mg
ofloxacin | oral 100,200,400 mg; liquid 50 mg; eye 0.3 %; ear 0.3 % | oral 800 mg
levofloxacin | oral 250,500,750 mg; eye 0.5,1.5 % | oral 750 mg
moxifloxacin | oral 400 mg; eye 0.5 % | oral 400 mg
norfloxacin | oral 400 mg | 800 mg
nitrofurantoin | oral 50,100 mg | 400 mg
fosfomycin | oral 3 g
metronidazole | oral 200,250,375,400,500 mg; liquid 100,200 mg; topical 0.75,1 % | oral 4 g
tinidazole | oral 300,500,1000 mg | 2 g
ornidazole | oral 500 mg
secnidazole | oral 1,2 g
sulfamethoxazole + trimethoprim | oral 480,960 mg; liquid 240 mg
linezolid | oral 600 mg; liquid 100 mg | 1200 mg
clindamycin | oral 75,150,300 mg; topical 1 % | oral 1800 mg
rifaximin | oral 200,400,550 mg | 1650 mg
fluconazole | oral 50,100,150,200,400 mg | 800 mg
itraconazole | oral 65,100,130,200 mg | 600 mg
terbinafine | oral 250 mg; topical 1 % | oral 250 mg
griseofulvin | oral 125,250,375,500 mg | 1000 mg | 10-25
clotrimazole | topical 1,2 %; vaginal 100,200,500 mg; oral 10 mg
ketoconazole | topical 2 %; oral 200 mg | oral 400 mg
luliconazole | topical 1 %
miconazole | topical 2 %
sertaconazole | topical 2 %
mupirocin | topical 2 %
fusidic acid | topical 2 %
silver sulfadiazine | topical 1 %
acyclovir | oral 200,400,800 mg; topical 5 %; eye 3 % | oral 4 g | 40-80
valacyclovir | oral 500,1000 mg | 4 g
famciclovir | oral 125,250,500 mg | 1500 mg
oseltamivir | oral 30,45,75 mg | 150 mg
albendazole | oral 200,400 mg; liquid 200 mg | 800 mg
mebendazole | oral 100,500 mg
ivermectin | oral 3,6,12 mg
hydroxychloroquine | oral 200,300,400 mg
permethrin | topical 1,5 %
omeprazole | oral 10,20,40 mg
esomeprazole | oral 20,40 mg; inj 40 mg
pantoprazole | oral 20,40 mg; inj 40 mg
rabeprazole | oral 10,20 mg
lansoprazole | oral 15,30 mg
dexlansoprazole | oral 30,60 mg
famotidine | oral 10,20,40 mg
ranitidine | oral 75,150,300 mg
domperidone | oral 10 mg; liquid 5 mg | 30 mg
ondansetron | oral 2,4,8 mg; liquid 2,4 mg; inj 2,4,8 mg | 24 mg
metoclopramide | oral 5,10 mg; liquid 5 mg; inj 10 mg | 40 mg
itopride | oral 50,150 mg | 150 mg
drotaverine | oral 40,80 mg | 240 mg
dicyclomine | oral 10,20 mg | 160 mg
hyoscine butylbromide | oral 10,20 mg; inj 20 mg | oral 80 mg
mebeverine | oral 135,200 mg | 405 mg
loperamide | oral 2 mg | 16 mg
racecadotril | oral 10,30,100 mg | 300 mg
bisacodyl | oral 5,10 mg; vaginal 10 mg
ursodeoxycholic acid | oral 150,250,300,450,500,600 mg
simethicone | oral 40,80,125 mg
amlodipine | oral 2.5,5,10 mg | 10 mg
s amlodipine | oral 1.25,2.5,5 mg | 5 mg
cilnidipine | oral 5,10,20 mg | 20 mg
nifedipine | oral 5,10,20,30,60,90 mg | 180 mg
felodipine | oral 2.5,5,10 mg | 10 mg
lercanidipine | oral 10,20 mg | 20 mg
diltiazem | oral 30,60,90,120,180,240,300,360 mg
verapamil | oral 40,80,120,180,240 mg | 480 mg
telmisartan | oral 20,40,80 mg | 80 mg
losartan | oral 25,50,100 mg | 150 mg
olmesartan | oral 10,20,40 mg | 40 mg
valsartan | oral 40,80,160,320 mg | 320 mg
irbesartan | oral 75,150,300 mg | 300 mg
candesartan | oral 4,8,16,32 mg | 32 mg
azilsartan | oral 20,40,80 mg | 80 mg
enalapril | oral 2.5,5,10,20 mg | 40 mg
ramipril | oral 1.25,2.5,5,10 mg | 20 mg
lisinopril | oral 2.5,5,10,20,30,40 mg | 80 mg
perindopril | oral 2,2.5,4,5,8,10 mg | 16 mg
captopril | oral 12.5,25,50,100 mg | 450 mg
benazepril | oral 5,10,20,40 mg | 80 mg
quinapril | oral 5,10,20,40 mg | 80 mg
atenolol | oral 25,50,100 mg | 200 mg
metoprolol | oral 12.5,23.75,25,47.5,50,95,100,190,200 mg | 450 mg
bisoprolol | oral 1.25,2.5,5,10 mg | 20 mg
nebivolol | oral 2.5,5,10,20 mg | 40 mg
carvedilol | oral 3.125,6.25,12.5,25 mg | 100 mg
propranolol | oral 10,20,40,80,160 mg | 640 mg
labetalol | oral 100,200,300 mg | 2400 mg
hydrochlorothiazide | oral 12.5,25,50 mg
chlorthalidone | oral 6.25,12.5,25,50 mg
indapamide | oral 1.25,1.5,2.5 mg | 5 mg
furosemide | oral 20,40,80 mg; inj 20,40 mg | oral 600 mg
torsemide | oral 5,10,20,40,100 mg | 200 mg
bumetanide | oral 0.5,1,2 mg | 10 mg
spironolactone | oral 25,50,100 mg | 400 mg
eplerenone | oral 25,50 mg | 100 mg
prazosin | oral 1,2,2.5,5 mg | 40 mg
doxazosin | oral 1,2,4,8 mg | 16 mg
terazosin | oral 1,2,5,10 mg | 20 mg
clonidine | oral 0.1,0.15,0.2,0.3 mg | 2.4 mg
hydralazine | oral 10,25,50,100 mg | 300 mg
methyldopa | oral 250,500 mg | 3 g
isosorbide mononitrate | oral 10,20,30,40,60,120 mg
isosorbide dinitrate | oral 5,10,20,30,40 mg
nitroglycerin | oral 0.3,0.4,0.5,0.6,2.6,6.4 mg
ranolazine | oral 500,1000 mg | 2 g
trimetazidine | oral 20,35,80 mg | 80 mg
ivabradine | oral 5,7.5 mg | 15 mg
digoxin | oral 0.0625,0.125,0.25 mg
amiodarone | oral 100,200,400 mg | 1600 mg
sacubitril + valsartan | oral 50,100,200 mg | 400 mg
clopidogrel | oral 75,300 mg
prasugrel | oral 5,10 mg
ticagrelor | oral 60,90 mg | 180 mg
rivaroxaban | oral 2.5,10,15,20 mg | 30 mg
apixaban | oral 2.5,5 mg | 20 mg
dabigatran | oral 75,110,150 mg | 300 mg
warfarin | oral 1,2,2.5,3,4,5,6,7.5,10 mg
acenocoumarol | oral 0.5,1,2,3,4 mg
atorvastatin | oral 10,20,40,80 mg | 80 mg
rosuvastatin | oral 5,10,20,40 mg | 40 mg
simvastatin | oral 5,10,20,40,80 mg | 80 mg
pravastatin | oral 10,20,40,80 mg | 80 mg
lovastatin | oral 10,20,40 mg | 80 mg
pitavastatin | oral 1,2,4 mg | 4 mg
fenofibrate | oral 48,54,67,145,160,200 mg
gemfibrozil | oral 300,600 mg | 1200 mg
ezetimibe | oral 10 mg | 10 mg
metformin | oral 250,500,750,850,1000 mg | 2550 mg
glimepiride | oral 0.5,1,2,3,4 mg | 8 mg
gliclazide | oral 30,40,60,80 mg | 320 mg
glipizide | oral 2.5,5,10 mg | 40 mg
glibenclamide | oral 1.25,2.5,5 mg | 20 mg
sitagliptin | oral 25,50,100 mg | 100 mg
vildagliptin | oral 50 mg | 100 mg
linagliptin | oral 5 mg | 5 mg
saxagliptin | oral 2.5,5 mg | 5 mg
teneligliptin | oral 20,40 mg | 40 mg
empagliflozin | oral 10,25 mg | 25 mg
dapagliflozin | oral 5,10 mg | 10 mg
canagliflozin | oral 100,300 mg | 300 mg
pioglitazone | oral 7.5,15,30,45 mg | 45 mg
voglibose | oral 0.2,0.3 mg | 0.9 mg
acarbose | oral 25,50,100 mg | 300 mg
semaglutide | oral 3,7,14 mg; inj 0.25,0.5,1,1.7,2,2.4 mg
liraglutide | inj 0.6,1.2,1.8,2.4,3 mg | 3 mg
dulaglutide | inj 0.75,1.5,3,4.5 mg
insulin glargine | inj units | dose 80 units
insulin detemir | inj units | dose 80 units
insulin degludec | inj units | dose 80 units
insulin aspart | inj units | dose 80 units
insulin lispro | inj units | dose 80 units
insulin glulisine | inj units | dose 80 units
human regular insulin | inj units | dose 80 units
isophane insulin | inj units | dose 80 units
premixed insulin 30/70 | inj units | dose 80 units
levothyroxine | oral 12.5,25,50,62.5,75,88,100,112,125,137,150,175,200,300 mcg
carbimazole | oral 5,10,20 mg | 60 mg
methimazole | oral 5,10,20 mg | 60 mg
propylthiouracil | oral 50 mg
prednisolone | oral 5,10,20,40 mg; liquid 5,15 mg; eye 1 % | | 1-2
prednisone | oral 1,2.5,5,10,20,50 mg
methylprednisolone | oral 4,8,16,32 mg; inj 40,125,500,1000 mg
deflazacort | oral 1,6,12,18,24,30 mg
dexamethasone | oral 0.5,0.75,1,1.5,2,4,6,8 mg; inj 4,8 mg; eye 0.1 %
betamethasone | oral 0.5,0.6 mg; topical 0.05,0.1 %
hydrocortisone | oral 5,10,20 mg; topical 0.5,1,2.5 %; inj 100 mg
budesonide | inhaler 100,200,400 mcg; neb 0.25,0.5,1 mg; nasal 32,64,100 mcg; oral 3,9 mg
fluticasone | inhaler 44,50,100,110,125,220,250,500 mcg; nasal 27.5,50 mcg; topical 0.005,0.05 %
beclomethasone | inhaler 40,50,80,100,200,250,400 mcg; nasal 42,50 mcg; topical 0.025 %
mometasone | inhaler 100,110,200,220 mcg; nasal 50 mcg; topical 0.1 %
ciclesonide | inhaler 80,160 mcg; nasal 37,50 mcg
triamcinolone | inj 10,40 mg; topical 0.025,0.1,0.5 %; nasal 55 mcg
clobetasol propionate | topical 0.05 %
halobetasol | topical 0.05 %
desonide | topical 0.05 %
fluocinolone | topical 0.01,0.025 %
formoterol + budesonide | inhaler 80,100,160,200,400 mcg
salmeterol + fluticasone | inhaler 45,50,100,115,125,230,250,500 mcg
salbutamol | inhaler 90,100 mcg; neb 2.5,5 mg; oral 2,4,8 mg; liquid 2 mg
levosalbutamol | inhaler 45,50 mcg; neb 0.31,0.63,1.25 mg; oral 1 mg; liquid 1 mg
ipratropium | inhaler 17,20 mcg; neb 250,500 mcg
tiotropium | inhaler 2.5,9,18 mcg
formoterol | inhaler 6,12 mcg; neb 20 mcg
salmeterol | inhaler 25,50 mcg
montelukast | oral 4,5,10 mg | 10 mg
doxofylline | oral 200,400,650 mg | 1200 mg
theophylline | oral 100,200,300,400,450,600 mg
acebrophylline | oral 100,200 mg
guaifenesin | oral 100,200,400,600,1200 mg; liquid 100,200 mg | 2400 mg
dextromethorphan | oral 10,15,30 mg; liquid 5,10,15 mg | 120 mg
benzonatate | oral 100,150,200 mg | 600 mg
ambroxol | oral 30,75 mg; liquid 15,30 mg
cetirizine | oral 5,10 mg; liquid 5 mg
levocetirizine | oral 5 mg; liquid 2.5 mg
fexofenadine | oral 30,60,120,180 mg; liquid 30 mg
loratadine | oral 10 mg; liquid 5 mg
desloratadine | oral 5 mg; liquid 2.5 mg
bilastine | oral 10,20 mg
rupatadine | oral 10 mg
ebastine | oral 10,20 mg
chlorpheniramine | oral 2,4,8,12 mg; liquid 2 mg | 24 mg
pheniramine | oral 25,50 mg
hydroxyzine | oral 10,25,50 mg; liquid 10 mg
diphenhydramine | oral 25,50 mg; liquid 12.5 mg | 300 mg
cyproheptadine | oral 4 mg; liquid 2 mg | 32 mg
promethazine | oral 10,12.5,25,50 mg; liquid 5,6.25 mg
olopatadine | eye 0.1,0.2,0.7 %; nasal 665 mcg
azelastine | nasal 137,140 mcg; eye 0.05 %
sertraline | oral 25,50,100 mg | 200 mg
escitalopram | oral 5,10,20 mg | 20 mg
fluoxetine | oral 10,20,40,60 mg | 80 mg
paroxetine | oral 10,12.5,20,25,30,37.5,40 mg | 75 mg
citalopram | oral 10,20,40 mg | 40 mg
fluvoxamine | oral 50,100 mg | 300 mg
vortioxetine | oral 5,10,20 mg | 20 mg
venlafaxine | oral 37.5,75,150,225 mg | 375 mg
desvenlafaxine | oral 25,50,100 mg
bupropion | oral 75,100,150,200,300,450 mg | 450 mg
mirtazapine | oral 7.5,15,30,45 mg | 45 mg
trazodone | oral 25,50,100,150,300 mg | 600 mg
buspirone | oral 5,7.5,10,15,30 mg | 60 mg
alprazolam | oral 0.25,0.5,1,2,3 mg | 10 mg
clonazepam | oral 0.125,0.25,0.5,1,2 mg | 20 mg
lorazepam | oral 0.5,1,2 mg; inj 2,4 mg | 10 mg
diazepam | oral 2,5,10 mg; liquid 2 mg; inj 10 mg | oral 40 mg
chlordiazepoxide | oral 5,10,25 mg
etizolam | oral 0.25,0.5,1 mg | 3 mg
clobazam | oral 5,10,20 mg
zolpidem | oral 5,6.25,10,12.5 mg | 12.5 mg
zopiclone | oral 3.75,7.5 mg | 7.5 mg
eszopiclone | oral 1,2,3 mg | 3 mg
olanzapine | oral 2.5,5,7.5,10,15,20 mg | 20 mg
quetiapine | oral 25,50,100,200,300,400 mg | 800 mg
risperidone | oral 0.25,0.5,1,2,3,4 mg | 16 mg
aripiprazole | oral 2,5,10,15,20,30 mg | 30 mg
haloperidol | oral 0.25,0.5,1.5,2,5,10,20 mg
lithium carbonate | oral 150,300,400,450,600 mg
sodium valproate | oral 200,250,300,500,750,1000 mg; liquid 200,250 mg | | 10-60
levetiracetam | oral 250,500,750,1000 mg; liquid 500 mg | 3 g | 20-60
phenytoin | oral 50,100,300 mg; liquid 30,125 mg
carbamazepine | oral 100,200,300,400 mg; liquid 100 mg | 1600 mg
oxcarbazepine | oral 150,300,450,600 mg; liquid 300 mg | 2400 mg
lamotrigine | oral 2,5,25,50,100,150,200 mg
topiramate | oral 25,50,100,200 mg | 400 mg
methylphenidate | oral 5,10,18,20,27,36,54 mg | 72 mg
atomoxetine | oral 10,18,25,40,60,80,100 mg | 100 mg
donepezil | oral 5,10,23 mg | 23 mg
memantine | oral 5,10,28 mg | 28 mg
rivastigmine | oral 1.5,3,4.5,6 mg; patch 4.6,9.5,13.3 mg | oral 12 mg
pramipexole | oral 0.125,0.25,0.5,1,1.5 mg | 4.5 mg
ropinirole | oral 0.25,0.5,1,2,3,4,5,8 mg | 24 mg
betahistine | oral 8,16,24 mg | 48 mg
cinnarizine | oral 25,75 mg | 225 mg
flunarizine | oral 5,10 mg | 10 mg
dimenhydrinate | oral 50 mg | 400 mg
meclizine | oral 12.5,25,50 mg | 100 mg
sumatriptan | oral 25,50,100 mg; nasal 5,20 mg; inj 6 mg | oral 200 mg
rizatriptan | oral 5,10 mg | 30 mg
zolmitriptan | oral 2.5,5 mg | 10 mg
naltrexone | oral 50 mg
disulfiram | oral 250,500 mg | 500 mg
acamprosate | oral 333 mg | 1998 mg
varenicline | oral 0.5,1 mg | 2 mg
cholecalciferol | oral 400,800,1000,2000,5000,50000,60000 IU; oral 10,25,50,125,1250 mcg
ergocalciferol | oral 50000 IU
calcitriol | oral 0.25,0.5 mcg
folic acid | oral 0.4,1,5 mg
thiamine | oral 50,75,100 mg; inj 100 mg
pyridoxine | oral 10,25,50,100 mg
ascorbic acid | oral 100,250,500,1000 mg
allopurinol | oral 100,300 mg | 900 mg
febuxostat | oral 40,80,120 mg | 120 mg
colchicine | oral 0.5,0.6 mg | 2.4 mg
methotrexate | oral 2.5,5,7.5,10,15 mg; inj 7.5,10,15,20,25 mg | | | weekly
sulfasalazine | oral 500,1000 mg | 4 g
leflunomide | oral 10,20,100 mg
alendronate | oral 5,10,35,70 mg
finasteride | oral 1,5 mg | 5 mg
dutasteride | oral 0.5 mg | 0.5 mg
tamsulosin | oral 0.2,0.4 mg | 0.8 mg
silodosin | oral 4,8 mg | 8 mg
alfuzosin | oral 10 mg | 10 mg
tolterodine | oral 1,2,4 mg | 4 mg
solifenacin | oral 5,10 mg | 10 mg
mirabegron | oral 25,50 mg | 50 mg
oxybutynin | oral 2.5,5,10,15 mg | 30 mg
flavoxate | oral 200 mg | 800 mg
phenazopyridine | oral 100,200 mg | 600 mg
sildenafil | oral 20,25,50,100 mg | 100 mg
tadalafil | oral 2.5,5,10,20 mg | 40 mg
tranexamic acid | oral 250,500,650,1000 mg; inj 500 mg | oral 4 g
misoprostol | oral 25,100,200 mcg
medroxyprogesterone | oral 2.5,5,10 mg; inj 150 mg
norethisterone | oral 0.35,5 mg
dydrogesterone | oral 10 mg
progesterone | oral 100,200,300,400 mg; vaginal 100,200,400 mg
estradiol | oral 0.5,1,2 mg
levonorgestrel | oral 0.75,1.5 mg
letrozole | oral 2.5 mg
clomiphene | oral 25,50,100 mg
cabergoline | oral 0.25,0.5 mg
raloxifene | oral 60 mg | 60 mg
epinephrine | inj 0.15,0.3,0.5 mg
lignocaine | topical 2,4,5 %
chlorhexidine | topical 0.12,0.2 %
povidone iodine | topical 2,5,7.5,10 %
xylometazoline | nasal 0.05,0.1 %
oxymetazoline | nasal 0.025,0.05 %
timolol | eye 0.25,0.5 %
latanoprost | eye 0.005 %
carboxymethylcellulose | eye 0.5,1 %
tobramycin | eye 0.3 %
minoxidil | topical 2,5 %; oral 2.5,5,10 mg
benzoyl peroxide | topical 2.5,4,5,10 %
adapalene | topical 0.1,0.3 %
tretinoin | topical 0.025,0.05,0.1 %
isotretinoin | oral 5,10,20,30,40 mg
azelaic acid | topical 10,15,20 %
hydroquinone | topical 2,4 %
tacrolimus | topical 0.03,0.1 %
rifampicin | oral 150,300,450,600 mg | 600 mg
isoniazid | oral 100,300 mg | 300 mg
pyrazinamide | oral 500,750,1000,1500 mg | 2 g
ethambutol | oral 200,400,600,800,1000 mg
flucloxacillin | oral 250,500 mg; liquid 125,250 mg | 4 g
dicloxacillin | oral 250,500 mg
cefprozil | oral 250,500 mg; liquid 125,250 mg | 1000 mg
meropenem | inj 500,1000 mg
gentamicin | eye 0.3 %; topical 0.1 %
trimethoprim | oral 100,200 mg | 400 mg
nitazoxanide | oral 500 mg; liquid 100 mg | 1000 mg
tenofovir | oral 300 mg | 300 mg
entecavir | oral 0.5,1 mg | 1 mg
mefloquine | oral 250 mg
vonoprazan | oral 10,20 mg | 40 mg
cimetidine | oral 200,400,800 mg
prochlorperazine | oral 5,10 mg
docusate | oral 100,250 mg
prucalopride | oral 1,2 mg | 2 mg
linaclotide | oral 72,145,290 mcg | 290 mcg
lubiprostone | oral 8,24 mcg | 48 mcg
mesalazine | oral 400,500,800,1000,1200 mg | 4.8 g
orlistat | oral 60,120 mg | 360 mg
amiloride | oral 5 mg | 20 mg
acetazolamide | oral 125,250,500 mg | 1000 mg
cilostazol | oral 50,100 mg | 200 mg
edoxaban | oral 15,30,60 mg | 60 mg
enoxaparin | inj 20,40,60,80,100 mg
nicorandil | oral 5,10,20 mg | 60 mg
flecainide | oral 50,100,150 mg | 400 mg
propafenone | oral 150,225,300 mg | 900 mg
sotalol | oral 40,80,120,160 mg | 640 mg
dronedarone | oral 400 mg | 800 mg
alogliptin | oral 6.25,12.5,25 mg | 25 mg
ertugliflozin | oral 5,15 mg | 15 mg
repaglinide | oral 0.5,1,2 mg | 16 mg
tirzepatide | inj 2.5,5,7.5,10,12.5,15 mg | dose 15 mg
liothyronine | oral 5,20,25,50 mcg
fludrocortisone | oral 0.1 mg
bromocriptine | oral 1.25,2.5,5 mg
ketotifen | oral 1 mg; eye 0.025 %
glycopyrronium | inhaler 50 mcg
umeclidinium | inhaler 62.5 mcg
vilanterol | inhaler 25 mcg
olodaterol | inhaler 2.5 mcg
roflumilast | oral 250,500 mcg | 500 mcg
bromhexine | oral 4,8 mg; liquid 4 mg | 48 mg
terbutaline | oral 2.5,5 mg; liquid 1.5 mg | 15 mg
levodropropizine | oral 60 mg; liquid 30 mg | 180 mg
pseudoephedrine | oral 30,60,120 mg | 240 mg
phenylephrine | oral 5,10 mg | 60 mg
calcipotriol | topical 0.005 %
pimecrolimus | topical 1 %
crisaborole | topical 2 %
dapsone | oral 25,50,100 mg; topical 5,7.5 %
imiquimod | topical 5 %
benzyl benzoate | topical 25 %
crotamiton | topical 10 %
capsaicin | topical 0.025,0.075,8 %
loteprednol | eye 0.2,0.5 %
fluorometholone | eye 0.1 %
bimatoprost | eye 0.01,0.03 %
travoprost | eye 0.004 %
brimonidine | eye 0.1,0.15,0.2 %
dorzolamide | eye 2 %
brinzolamide | eye 1 %
pilocarpine | eye 1,1.25,2,4 %
cyclopentolate | eye 0.5,1 %
tropicamide | eye 0.5,1 %
atropine | eye 0.01,0.5,1 %; inj 0.6 mg
homatropine | eye 2,5 %
nepafenac | eye 0.1,0.3 %
bromfenac | eye 0.07,0.09 %
naphazoline | eye 0.012,0.1 %
cyclosporine | eye 0.05,0.09,0.1 %; oral 25,50,100 mg
imipramine | oral 10,25,50,75 mg | 300 mg
clomipramine | oral 10,25,50,75 mg | 250 mg
dosulepin | oral 25,75 mg | 225 mg
melatonin | oral 1,3,5,10 mg
ramelteon | oral 8 mg | 8 mg
suvorexant | oral 5,10,15,20 mg | 20 mg
paliperidone | oral 1.5,3,6,9 mg | 12 mg
clozapine | oral 25,50,100,200 mg | 900 mg
ziprasidone | oral 20,40,60,80 mg | 160 mg
lurasidone | oral 20,40,60,80,120 mg | 160 mg
amisulpride | oral 50,100,200,400 mg | 1200 mg
lacosamide | oral 50,100,150,200 mg | 600 mg
zonisamide | oral 25,50,100 mg | 600 mg
brivaracetam | oral 10,25,50,75,100 mg | 200 mg
lisdexamfetamine | oral 10,20,30,40,50,60,70 mg | 70 mg
dextroamphetamine | oral 5,10,15,20,30 mg | 60 mg
guanfacine | oral 1,2,3,4 mg | 7 mg
galantamine | oral 4,8,12,16,24 mg | 24 mg
rasagiline | oral 0.5,1 mg | 1 mg
amantadine | oral 100 mg | 400 mg
naratriptan | oral 1,2.5 mg | 5 mg
rimegepant | oral 75 mg | 75 mg
ubrogepant | oral 50,100 mg | 200 mg
darifenacin | oral 7.5,15 mg | 15 mg
trospium | oral 20,60 mg | 60 mg
vardenafil | oral 2.5,5,10,20 mg | 20 mg
dapoxetine | oral 30,60 mg | 60 mg
desogestrel | oral 0.075 mg
ulipristal | oral 30 mg | 30 mg
dienogest | oral 2 mg
conjugated estrogens | oral 0.3,0.45,0.625,0.9,1.25 mg
tibolone | oral 2.5 mg
anastrozole | oral 1 mg | 1 mg
tamoxifen | oral 10,20 mg | 40 mg
methylergometrine | oral 0.125 mg; inj 0.2 mg
calcium carbonate | oral 500,600,1250,1500 mg
alfacalcidol | oral 0.25,0.5,1 mcg
ferrous sulphate | oral 150,200,300,325 mg
ferrous fumarate | oral 200,210,300,322,324,325 mg
ferric carboxymaltose | inj 500,1000 mg | dose 1000 mg
vitamin a | oral 25000,100000,200000 IU
phytonadione | oral 1,5,10 mg; inj 1,10 mg
fentanyl | patch 12,25,37.5,50,62.5,75,87.5,100 mcg
carisoprodol | oral 250,350 mg | 1400 mg
metaxalone | oral 400,800 mg | 3200 mg
orphenadrine | oral 100 mg | 200 mg
probenecid | oral 500 mg | 2 g
tofacitinib | oral 5,10,11 mg | 20 mg
apremilast | oral 10,20,30 mg | 60 mg
diacerein | oral 50 mg | 100 mg
risedronate | oral 5,35,150 mg
teriparatide | inj 20 mcg
zinc | oral 10,20 mg; liquid 10,20 mg
pyrantel pamoate | oral 250 mg; liquid 250 mg
glucagon | inj 0.5,1 mg; nasal 3 mg
`;

const UNITS: Record<string, string> = { mg: 'mg', mcg: 'mcg', g: 'g', '%': '%', iu: 'IU', units: 'unit' };

function parseAmount(text: string): Strength {
  const [value = '', unit = ''] = text.trim().split(/\s+/);
  const u = UNITS[unit.toLowerCase()];
  if (!u || !Number.isFinite(Number(value))) throw new Error(`drug-knowledge: bad amount '${text}'`);
  return { value: Number(value), unit: u };
}

function parseGroup(word: string): FormGroup {
  if (!FORM_GROUPS.includes(word as FormGroup)) throw new Error(`drug-knowledge: unknown form group '${word}'`);
  return word as FormGroup;
}

function parseDoses(table: string): Map<string, DoseKnowledge> {
  const out = new Map<string, DoseKnowledge>();
  for (const line of table.trim().split('\n')) {
    const [name = '', strengths = '', max = '', child = '', note = ''] = line.split('|').map((f) => f.trim());
    const k: DoseKnowledge = { strengths: {}, units: {}, maxDaily: {}, weekly: note === 'weekly' };
    for (const part of strengths.split(';').map((p) => p.trim()).filter(Boolean)) {
      const [group = '', ...rest] = part.split(/\s+/);
      const g = parseGroup(group);
      const unit = UNITS[rest.pop()?.toLowerCase() ?? ''];
      if (!unit) throw new Error(`drug-knowledge: bad unit in '${line}'`);
      const values = rest.join('').split(',').filter(Boolean).map(Number);
      if (values.length) k.strengths[g] = [...(k.strengths[g] ?? []), ...values.map((value) => ({ value, unit }))];
      k.units[g] = [...new Set([...(k.units[g] ?? []), unit])];
    }
    for (const part of max.split(',').map((p) => p.trim()).filter(Boolean)) {
      const m = /^([a-z]+)\s+(.*)$/.exec(part);
      if (m?.[1] === 'dose') k.maxDose = parseAmount(m[2]!);
      else if (m && m[1] !== undefined && FORM_GROUPS.includes(m[1] as FormGroup)) k.maxDaily[parseGroup(m[1])] = parseAmount(m[2]!);
      else k.maxDaily.all = parseAmount(part);
    }
    const c = /^([\d.]+)-([\d.]+)$/.exec(child);
    if (c) k.childMgPerKgDay = { min: Number(c[1]), max: Number(c[2]) };
    out.set(comboKey(name.split(' + ')), k);
  }
  return out;
}

// A combination is the same product whichever part is named first ("budesonide + formoterol").
const comboKey = (parts: readonly string[]): string => [...parts].sort().join(' + ');

/** Dose knowledge by generic name. */
export const DOSE_TABLE: ReadonlyMap<string, DoseKnowledge> = parseDoses(DOSES);

/**
 * Dose knowledge of a prescribed drug (generic, US or other name, or a combination listed as one product); undefined
 * when none, which means no dose check.
 */
export function doseKnowledge(generic: string): DoseKnowledge | undefined {
  const parts = components(generic);
  return DOSE_TABLE.get(comboKey(parts)) ?? (parts.length === 1 ? DOSE_TABLE.get(parts[0]!) : undefined);
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
  molecules: readonly string[];
  classes: readonly DrugClass[];
}

const ALLERGEN_INDEX = new PhraseIndex<Allergen>();
for (const c of CLASSES) for (const n of c.names) ALLERGEN_INDEX.add(n, { molecules: [], classes: [c] });
for (const d of FORMULARY) {
  const ref = { molecules: components(d.name), classes: [] };
  for (const n of [d.name, ...(d.us ? [d.us] : []), ...d.aliases, ...d.brands]) ALLERGEN_INDEX.add(n, ref);
}
for (const c of CLASSES) for (const m of c.members) ALLERGEN_INDEX.add(m, { molecules: [m], classes: [] });
for (const [spelling, name] of Object.entries(SPELLING)) ALLERGEN_INDEX.add(spelling, { molecules: components(name), classes: [] });

// Where an allergy as extracted runs on into the plan ("penicillin we will use azithromycin"): what follows is the
// alternative, not the allergen.
const PLAN_CUE = /\b(?:we will|we'll|i will|i'll|will|so|use|using|give|giving|start|starting|prescrib\w*|instead|switch\w*|hence|therefore|better)\b/;

/** What an allergy as stated ("sulfa drugs", "augmentin, gets a rash") names: molecules and classes. */
export function allergens(allergy: string): Allergen {
  const text = normalizeText(allergy);
  const cue = PLAN_CUE.exec(text);
  const found = ALLERGEN_INDEX.findAll(tokenize(cue ? text.slice(0, cue.index) : text));
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
