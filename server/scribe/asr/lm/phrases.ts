/**
 * Generic outpatient dictation phrasing for the domain language model, written for this project from common
 * clinical usage (Indian and US styles: "tab … b d after food", "BP one thirty over eighty", "follow up in two
 * weeks"). The slots are filled from the project vocabulary (drugs, diagnoses, investigations) and from small
 * lists here. Nothing here is taken from the dev or test dictations; a test checks that no dev dictation sentence
 * ends up in the generated corpus.
 *
 * Generation is deterministic (seeded), so the same vocabulary gives the same model and the same cache key.
 */
import { integerToWords } from '../text.js';

export interface PhraseVocabulary {
  drugs: readonly string[];
  diagnoses: readonly string[];
  investigations: readonly string[];
  symptoms?: readonly string[];
}

/** mulberry32: small, fast, seeded. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const w = integerToWords;

/** How clinicians say numbers: 650 → "six fifty", 110 → "one ten", 102 → "one oh two", "one hundred two" or "one hundred and two". */
export function spokenNumber(n: number, rnd: () => number): string {
  if (n >= 101 && n <= 999 && n % 100 !== 0 && rnd() < 0.6) {
    const h = Math.floor(n / 100);
    const rest = n % 100;
    return `${w(h)} ${rest < 10 ? `oh ${w(rest)}` : w(rest)}`;
  }
  if (n >= 100 && n < 200 && n % 100 === 0 && rnd() < 0.5) return 'hundred';
  // British and Indian usage: "one hundred and four".
  if (n > 100 && n % 100 !== 0 && rnd() < 0.3) return w(n).replace(/ hundred /, ' hundred and ');
  return w(n);
}

const COMPLAINTS = [
  'fever', 'high grade fever', 'low grade fever', 'cough', 'dry cough', 'productive cough', 'cold', 'running nose', 'sore throat',
  'headache', 'body ache', 'joint pain', 'back pain', 'low back pain', 'neck pain', 'knee pain', 'chest pain', 'abdominal pain',
  'pain in abdomen', 'burning in the stomach', 'acidity', 'vomiting', 'nausea', 'loose stools', 'diarrhoea', 'constipation',
  'breathlessness', 'shortness of breath', 'wheezing', 'giddiness', 'dizziness', 'weakness', 'fatigue', 'tiredness',
  'loss of appetite', 'weight loss', 'burning micturition', 'increased frequency of urination', 'itching', 'rash', 'skin rash',
  'swelling of feet', 'palpitations', 'ear pain', 'eye redness', 'toothache', 'chills', 'rigors', 'sneezing', 'blocked nose',
  'painful swallowing', 'heartburn', 'bloating', 'blood in stool', 'white discharge', 'painful periods', 'irregular periods',
  'sleeplessness', 'anxiety', 'numbness in hands', 'tingling in feet', 'excessive thirst', 'blurred vision',
];
const DURATION_UNITS = ['days', 'weeks', 'months'];
const SEX = ['male', 'female', 'man', 'woman', 'boy', 'girl', 'gentleman', 'lady', 'child'];
const FREQUENCIES = [
  'once daily', 'twice daily', 'thrice daily', 'once a day', 'twice a day', 'three times a day', 'four times a day',
  'o d', 'b d', 'b i d', 't d s', 't i d', 'q i d', 'h s', 'at bedtime', 'at night', 'in the morning', 'every eight hours',
  'every six hours', 'every twelve hours', 's o s', 'as needed', 'when required', 'once weekly', 'one zero one', 'one one one',
  'one zero zero', 'zero zero one',
];
const TIMING = ['after food', 'before food', 'after meals', 'before meals', 'before breakfast', 'after breakfast', 'after dinner',
  'on empty stomach', 'with milk', 'with water', ''];
const FORMS = ['tab', 'tablet', 'cap', 'capsule', 'syrup', 'syp', 'injection', 'inj', 'drops', 'ointment', 'cream', 'gel', 'inhaler', 'sachet', 'suspension'];
const UNITS = ['mg', 'milligrams', 'milligram', 'ml', 'mcg', 'micrograms', 'gram', 'grams', 'units', 'i u', 'percent'];
const STRENGTHS = [2.5, 5, 10, 20, 25, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 625, 650, 750, 1000];
const FINDINGS = [
  'chest is clear', 'chest clear', 'bilateral air entry equal', 'crepitations heard at the right base', 'wheeze present',
  'throat congested', 'tonsils enlarged', 'abdomen soft', 'abdomen soft and non tender', 'tenderness in the epigastrium',
  'mild tenderness in the right iliac fossa', 'no organomegaly', 'liver just palpable', 'spleen not palpable', 'pallor present',
  'no pallor', 'no icterus', 'no pedal edema', 'pedal edema present', 'patient is conscious and oriented', 'vitals stable',
  'heart sounds normal', 's one s two heard', 'no murmur', 'cns no focal deficit', 'mild dehydration', 'tympanic membrane congested',
];
const ADVICE = [
  'plenty of oral fluids', 'drink plenty of water', 'avoid oily and spicy food', 'soft diet', 'salt restricted diet',
  'low salt diet', 'diabetic diet', 'regular exercise', 'walk thirty minutes daily', 'steam inhalation', 'warm saline gargles',
  'take rest', 'avoid cold drinks', 'avoid heavy lifting', 'hot fomentation', 'stop smoking', 'avoid alcohol', 'check sugar at home',
  'monitor blood pressure at home', 'keep the wound clean and dry', 'sponging for fever', 'oral rehydration solution after every loose stool',
  'come back immediately if symptoms worsen', 'return if fever persists', 'bring all old reports',
];
const ESCORTS = ['wife', 'husband', 'mother', 'father', 'son', 'daughter', 'parents', 'relatives', 'family', 'a neighbour', 'a friend', 'the school teacher', 'the local doctor', 'the general physician'];
const VISITS = ['review', 'follow up', 'routine check up', 'three monthly review', 'monthly review', 'repeat prescription', 'report review',
  'a second opinion', 'vaccination', 'a fitness certificate', 'blood pressure check', 'sugar check', 'dressing'];
const REFERRALS = ['physician', 'surgeon', 'cardiologist', 'neurologist', 'dermatologist', 'e n t', 'orthopaedics', 'gynaecologist',
  'ophthalmologist', 'psychiatrist', 'physiotherapy', 'de addiction centre', 'higher centre', 'counselling', 'dietician', 'pulmonologist',
  'nephrologist', 'gastroenterologist', 'urologist', 'endocrinologist', 'the district hospital', 'the emergency department'];
const SECTION_WORDS = ['chief complaints', 'complaints', 'history', 'past history', 'family history', 'allergies', 'examination',
  'on examination', 'vitals', 'diagnosis', 'provisional diagnosis', 'impression', 'assessment', 'plan', 'advice', 'investigations',
  'medications', 'prescription', 'treatment', 'follow up', 'next visit'];

export function generateDictationPhrases(vocab: PhraseVocabulary, count = 6000, seed = 20240917): string[] {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const drugs = vocab.drugs.length ? vocab.drugs : ['paracetamol'];
  const diagnoses = vocab.diagnoses.length ? vocab.diagnoses : ['viral fever'];
  const investigations = vocab.investigations.length ? vocab.investigations : ['complete blood count'];
  const complaints = [...new Set([...COMPLAINTS, ...(vocab.symptoms ?? [])])];

  const duration = () => {
    const r = rnd();
    if (r < 0.1) return pick(['yesterday', 'morning', 'last night', 'one week', 'one month', 'two weeks', 'childhood']);
    const u = pick(DURATION_UNITS);
    return `${w(int(2, u === 'days' ? 15 : 6))} ${u}`;
  };
  const strength = () => {
    const s = pick(STRENGTHS);
    return s % 1 ? `${w(Math.floor(s))} point ${w(Math.round((s % 1) * 10))}` : spokenNumber(s, rnd);
  };
  const med = () => {
    const r = rnd();
    const d = pick(drugs);
    const f = pick(FREQUENCIES);
    const t = pick(TIMING);
    const dur = `for ${w(int(3, 14))} ${rnd() < 0.8 ? 'days' : 'weeks'}`;
    if (r < 0.45) return `${pick(FORMS)} ${d} ${strength()} ${pick(UNITS)} ${f} ${t} ${dur}`;
    if (r < 0.6) return `${pick(['prescribe', 'start', 'give', 'add'])} ${d} ${strength()} ${pick(UNITS)} ${f} ${dur}`;
    if (r < 0.7) return `${pick(['continue', 'stop', 'hold', 'increase', 'reduce'])} ${d}`;
    if (r < 0.8) return `${pick(FORMS)} ${d} ${f} ${t}`;
    if (r < 0.9) return `syrup ${d} ${w(int(2, 10))} ml ${f} ${dur}`;
    return `${pick(FORMS)} ${d} one tablet ${f} ${t} ${dur}`;
  };
  const vitals = () => {
    const r = rnd();
    const bp = `${spokenNumber(int(9, 18) * 10, rnd)} over ${w(int(6, 11) * 10 + pick([0, 0, 4, 6, 5]))}`;
    if (r < 0.2) return `${pick(['bp', 'blood pressure', 'b p'])} ${bp}`;
    if (r < 0.35) return `${pick(['pulse', 'pulse rate', 'heart rate'])} ${w(int(60, 120))}${rnd() < 0.4 ? ' per minute' : ''}`;
    if (r < 0.5) {
      const t = rnd() < 0.5 ? `${w(int(97, 99))} point ${w(int(0, 9))}` : `${rnd() < 0.5 ? 'one oh' : 'hundred'} ${w(int(0, 3))} point ${w(int(0, 9))}`;
      return `${pick(['temperature', 'temp'])} ${t}${rnd() < 0.5 ? ' f' : ' degrees'}`;
    }
    if (r < 0.6) return `${pick(['spo two', 'saturation', 'oxygen saturation'])} ${w(int(88, 100))} percent${rnd() < 0.5 ? ' on room air' : ''}`;
    if (r < 0.7) return `${pick(['respiratory rate', 'r r'])} ${w(int(14, 32))}`;
    if (r < 0.8) return `weight ${w(int(8, 95))} ${pick(['kg', 'kilograms', 'kilos'])}`;
    if (r < 0.9) return `${pick(['random blood sugar', 'blood sugar', 'fasting sugar', 'r b s'])} ${spokenNumber(int(80, 320), rnd)}`;
    return `height ${w(int(100, 185))} ${pick(['centimeters', 'cm'])}`;
  };
  const templates: (() => string)[] = [
    () => `${w(int(2, 85))} year old ${pick(SEX)} ${pick(['with', 'presents with', 'complaining of', 'came with', 'c o', 'complaints of'])} ${pick(complaints)} ${pick(['since', 'for'])} ${duration()}`,
    () => `${pick(complaints)} since ${duration()}`,
    () => `${pick(complaints)} for ${duration()}${rnd() < 0.5 ? `, ${pick(['gradually increasing', 'on and off', 'intermittent', 'continuous', 'worse at night'])}` : ''}`,
    () => `no ${pick(complaints)}, no ${pick(complaints)}${rnd() < 0.5 ? `, no ${pick(complaints)}` : ''}`,
    () => `${pick(['known case of', 'k c o', 'history of', 'h o', 'known', 'a case of'])} ${pick(diagnoses)}${rnd() < 0.4 ? ` for ${duration()}` : ''}${rnd() < 0.3 ? ` on ${pick(drugs)}` : ''}`,
    () => `${pick(['diagnosis', 'impression', 'provisional diagnosis', 'assessment', 'likely', 'rule out', 'suspected', 'final diagnosis'])} ${pick(diagnoses)}`,
    () => `${pick(diagnoses)}${rnd() < 0.5 ? ` with ${pick(diagnoses)}` : ''}`,
    () => `${pick(['advise', 'advised', 'order', 'get', 'send', 'do', 'investigations'])} ${pick(investigations)}${rnd() < 0.6 ? ` and ${pick(investigations)}` : ''}${rnd() < 0.3 ? ' done' : ''}`,
    () => `${pick(investigations)}${rnd() < 0.5 ? ` ${pick(['normal', 'report awaited', 'shows mild changes', 'is normal'])}` : ''}`,
    med, med, med, med,
    vitals, vitals, vitals,
    () => `${pick(['on examination', 'o e', 'examination'])} ${pick(FINDINGS)}${rnd() < 0.5 ? `, ${pick(FINDINGS)}` : ''}`,
    () => pick(ADVICE),
    () => `${pick(['advice', 'advised', 'advise'])} ${pick(ADVICE)}`,
    () => `${pick(['review after', 'follow up after', 'follow up in', 'come back after', 'revisit after', 'see me after'])} ${duration()}${rnd() < 0.5 ? ' with reports' : ''}`,
    () => `${pick(['allergic to', 'allergy to', 'no known allergies', 'no drug allergies'])}${rnd() < 0.6 ? ` ${pick(drugs)}` : ''}`,
    () => `${pick(SECTION_WORDS)} ${pick(complaints)}`,
    () => `${pick(['what brings you here today', 'how long have you had this', 'any fever', 'any cough', 'do you have any allergies',
      'are you taking any medicines', 'any other complaints', 'let me examine you', 'take a deep breath', 'how are you feeling now',
      'since when', 'is the pain continuous', 'does it radiate', 'any history of diabetes or hypertension'])}`,
    () => `${pick(['i have', 'i am having', 'he has', 'she has', 'my child has', 'doctor i have'])} ${pick(complaints)}${rnd() < 0.6 ? ` since ${duration()}` : ''}`,
    () => `${pick(['take', 'you should take', 'please take'])} ${pick(drugs)} ${pick(FREQUENCIES)} ${pick(TIMING)}`,
    () => `${pick(['brought by', 'accompanied by', 'came with', 'came alone', 'referred by'])} ${pick(ESCORTS)}${rnd() < 0.4 ? ` ${pick(['for', 'with'])} ${pick(complaints)}` : ''}`,
    () => `came for ${pick(VISITS)}${rnd() < 0.4 ? ` of ${pick(diagnoses)}` : ''}`,
    () => `${pick(['refer to', 'referred to', 'refer for', 'opinion from'])} ${pick(REFERRALS)}${rnd() < 0.3 ? ` for ${pick(diagnoses)}` : ''}`,
    () => `if ${pick(['', 'there is', 'any', 'more'])} ${pick(complaints)}${rnd() < 0.3 ? ` or ${pick(complaints)}` : ''} ${pick(['come immediately', 'come back immediately', 'go to the emergency', 'return at once', 'report immediately', 'call the clinic'])}`,
    () => `then ${strength()} ${pick(UNITS)} ${pick(FREQUENCIES)} for ${w(int(2, 14))} ${pick(['days', 'weeks'])}${rnd() < 0.5 ? ' then stop' : ''}`,
    () => `${pick(investigations)} ${pick(['shows', 'showed', 'suggestive of', 'consistent with', 'confirms', 'ruled out'])} ${pick(diagnoses)}`,
    () => `${pick(['last', 'previous'])} ${pick(['dose', 'episode', 'period', 'visit', 'drink', 'meal', 'attack'])} ${pick(['was', 'on'])} ${pick(['yesterday', 'today morning', 'last week', 'two days ago', 'a month ago', 'yesterday afternoon', 'last night'])}`,
    () => `${pick(['left', 'right', 'both'])} ${pick(['side', 'knee', 'ankle', 'calf', 'ear', 'eye', 'leg', 'hand', 'shoulder', 'foot'])} ${pick(['is', 'looks', 'appears'])} ${pick(['swollen', 'tender', 'red', 'normal', 'warm', 'larger than the other side'])}`,
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(pick(templates)().replace(/\s+/g, ' ').trim());
  return out;
}
