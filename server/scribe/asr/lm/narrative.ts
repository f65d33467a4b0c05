/**
 * Narrative and conversational phrasing for the domain language model: how a history is told ("she has been
 * having pain in the left knee for the past two weeks, worse on climbing stairs"), results read out, plans
 * explained, and the doctor–patient exchanges of a consultation. phrases.ts covers the terse dictated note;
 * this covers the ordinary English around it (pronouns, relatives, body parts, time phrases), which a purely
 * clinical corpus leaves out-of-vocabulary. Written for this project; not taken from any test dictation.
 */
import { integerToWords } from '../text.js';
import { seededRandom, spokenNumber, type PhraseVocabulary } from './phrases.js';

const w = integerToWords;

const PEOPLE = [
  { subj: 'he', obj: 'him', poss: 'his' },
  { subj: 'she', obj: 'her', poss: 'her' },
  { subj: 'the patient', obj: 'the patient', poss: "the patient's" },
  { subj: 'the child', obj: 'the child', poss: "the child's" },
  { subj: 'the baby', obj: 'the baby', poss: "the baby's" },
];
const SPEAKERS = ['doctor', 'patient', 'mother', 'father', 'wife', 'husband', 'son', 'daughter', 'attendant', 'nurse'];
const EVERYDAY_VERBS = ['know', 'think so', 'remember', 'feel like eating', 'sleep well', 'have any problem', 'take it regularly', 'go to work',
  'eat anything', 'want to', 'need it', 'like the taste', 'get up at night', 'play', 'go to school', 'drink enough water', 'come back',
  'take the medicine', 'stop the tablets', 'get the tests done', 'wait', 'worry', 'rest at home', 'smoke', 'drink', 'look well', 'feel better'];
const RELATIVES = ['mother', 'father', 'brother', 'sister', 'wife', 'husband', 'son', 'daughter', 'grandmother', 'grandfather', 'parents', 'uncle', 'aunt'];
const SIDES = ['left', 'right', 'both', ''];
const BODY = ['head', 'forehead', 'face', 'eye', 'eyes', 'ear', 'ears', 'nose', 'throat', 'tongue', 'tooth', 'teeth', 'gums', 'jaw', 'neck',
  'shoulder', 'arm', 'elbow', 'wrist', 'hand', 'fingers', 'chest', 'breast', 'back', 'lower back', 'upper back', 'abdomen', 'stomach',
  'side', 'flank', 'groin', 'hip', 'thigh', 'knee', 'leg', 'calf', 'ankle', 'foot', 'feet', 'heel', 'toe', 'skin', 'scalp', 'joints',
  'upper abdomen', 'lower abdomen', 'right upper quadrant', 'left iliac fossa', 'private parts', 'nails'];
const QUALITY = ['mild', 'moderate', 'severe', 'sharp', 'dull', 'burning', 'throbbing', 'pricking', 'stabbing', 'cramping', 'squeezing',
  'dragging', 'colicky', 'aching', 'heavy', 'constant', 'intermittent', 'on and off', 'continuous', 'sudden', 'gradual', 'worsening', 'better'];
const TRIGGERS = ['on walking', 'on standing', 'on climbing stairs', 'on exertion', 'at rest', 'after eating', 'after meals', 'on an empty stomach',
  'when lying down', 'at night', 'in the morning', 'in the evening', 'on bending', 'on coughing', 'on deep breathing', 'while passing urine',
  'in cold weather', 'after waking up', 'with movement', 'after work', 'when sitting for long'];
const WHEN = ['since yesterday', 'since this morning', 'since last night', 'for the past week', 'for the past two weeks', 'for the last few days',
  'for about a month', 'for the past three months', 'for six months', 'for one year', 'for many years', 'since childhood', 'since last sunday',
  'since monday', 'for two to three days', 'after the last visit', 'after starting the new medicine', 'two days ago', 'a week ago', 'last month',
  'this afternoon', 'yesterday evening'];
const VERBS_HAVE = ['has been having', 'has had', 'has', 'complains of', 'reports', 'noticed', 'is having', 'developed', 'presented with', 'came with', 'gives history of'];
const STATES = ['comfortable', 'unwell', 'pale', 'dehydrated', 'anxious', 'tired', 'well', 'alert', 'drowsy', 'in pain', 'afebrile', 'febrile', 'breathless'];
const LABS = ['hemoglobin', 'hb', 'total count', 'white cell count', 'platelet count', 'platelets', 'esr', 'crp', 'serum creatinine', 'creatinine',
  'blood urea', 'urea', 'sodium', 'potassium', 'fasting blood sugar', 'post prandial sugar', 'random sugar', 'hba one c', 'tsh', 't three', 't four',
  'cholesterol', 'ldl', 'triglycerides', 'sgpt', 'sgot', 'bilirubin', 'uric acid', 'vitamin d', 'vitamin b twelve', 'ferritin', 'urine sugar',
  'urine albumin', 'pus cells', 'ecg', 'x ray', 'ultrasound', 'echo', 'the report', 'the scan'];
const RESULTS = ['normal', 'within normal limits', 'high', 'low', 'slightly raised', 'borderline', 'negative', 'positive', 'not done yet', 'pending'];
const ACTIVITIES = ['walk', 'climb stairs', 'eat', 'lie down', 'bend', 'cough', 'breathe deeply', 'pass urine', 'work', 'sleep', 'swallow', 'lift weights', 'stand up'];
const ADVICE_VERBS = ['drink more water', 'avoid spicy food', 'take rest', 'walk every day', 'reduce salt', 'check the sugar at home', 'keep the area clean',
  'stop smoking', 'avoid alcohol', 'sleep on time', 'eat small frequent meals', 'do the exercises', 'use warm compresses', 'keep the leg elevated',
  'wear loose clothes', 'avoid oily food', 'gargle with warm salt water', 'take steam', 'come fasting for the blood test', 'bring the old reports'];

export function generateNarrativePhrases(vocab: PhraseVocabulary, count = 6000, seed = 8675309): string[] {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const drugs = vocab.drugs.length ? vocab.drugs : ['paracetamol'];
  const diagnoses = vocab.diagnoses.length ? vocab.diagnoses : ['diabetes'];
  const investigations = vocab.investigations.length ? vocab.investigations : ['blood test'];
  const symptoms = vocab.symptoms?.length ? vocab.symptoms : ['pain', 'fever', 'cough'];
  const part = () => `${pick(SIDES)} ${pick(BODY)}`.trim();
  const symptom = () => (rnd() < 0.35 ? `pain in the ${part()}` : rnd() < 0.5 ? `${pick(['swelling', 'itching', 'redness', 'numbness', 'weakness', 'stiffness'])} of the ${part()}` : pick(symptoms));
  const dur = () => (rnd() < 0.5 ? pick(WHEN) : `for ${w(int(2, 12))} ${pick(['days', 'weeks', 'months', 'years'])}`);
  const value = () => (rnd() < 0.5 ? `${w(int(1, 15))} point ${w(int(0, 9))}` : spokenNumber(int(4, 400), rnd));
  const p = () => pick(PEOPLE);

  const templates: (() => string)[] = [
    () => { const x = p(); return `${x.subj} ${pick(VERBS_HAVE)} ${symptom()} ${dur()}`; },
    () => { const x = p(); return `${x.subj} also ${pick(['complains of', 'has', 'mentions', 'reports'])} ${symptom()} ${pick(TRIGGERS)}`; },
    () => `the ${pick(['pain', 'swelling', 'cough', 'fever', 'itching', 'headache', 'discomfort', 'burning'])} is ${pick(QUALITY)}${rnd() < 0.5 ? ` and ${pick(QUALITY)}` : ''}${rnd() < 0.5 ? ` ${pick(TRIGGERS)}` : ''}`,
    () => `it is ${pick(['worse', 'better', 'relieved', 'aggravated'])} ${pick(TRIGGERS)}${rnd() < 0.4 ? ` and ${pick(['relieved by rest', 'relieved by medicines', 'not relieved by painkillers', 'better after sleep'])}` : ''}`,
    () => `there is no history of ${pick(symptoms)}${rnd() < 0.6 ? ` or ${pick(symptoms)}` : ''}`,
    () => `${p().subj} ${pick(['denies', 'does not have', 'has no'])} ${pick(symptoms)}${rnd() < 0.5 ? ` or ${pick(symptoms)}` : ''}`,
    () => { const x = p(); return `${x.poss} ${pick(RELATIVES)} ${pick(['has', 'had', 'is a known case of', 'died of'])} ${pick(diagnoses)}`; },
    () => `family history of ${pick(diagnoses)} in the ${pick(RELATIVES)}`,
    () => { const x = p(); return `${x.subj} was diagnosed with ${pick(diagnoses)} ${w(int(1, 15))} years ago and is on ${pick(drugs)}`; },
    () => `${p().subj} is a known ${pick(diagnoses)} patient on ${pick(drugs)} ${spokenNumber(pick([5, 10, 20, 25, 40, 50, 500, 1000]), rnd)} mg ${pick(['once a day', 'twice a day', 'at night', 'in the morning'])}`,
    () => `${p().subj} ${pick(['stopped taking', 'ran out of', 'is taking', 'was taking', 'is not taking', 'was started on', 'was given'])} ${pick(drugs)} ${pick(['last week', 'a month ago', 'regularly', 'irregularly', 'since two days', 'by another doctor', ''])}`.trim(),
    () => `${p().subj} was ${pick(['admitted', 'treated', 'operated', 'seen'])} ${pick(['in the hospital', 'elsewhere', 'last year', 'for the same complaint', 'two years ago'])}${rnd() < 0.5 ? ` for ${pick(diagnoses)}` : ''}`,
    () => `${pick(LABS)} ${pick(['is', 'was', 'came back'])} ${rnd() < 0.6 ? value() : pick(RESULTS)}${rnd() < 0.3 ? ` ${pick(['last month', 'last week', 'three months ago', 'today'])}` : ''}`,
    () => `${pick(['the', 'her', 'his', 'old', 'previous'])} ${pick(['reports', 'report', 'scan', 'x ray', 'ultrasound', 'blood tests'])} ${pick(['show', 'shows', 'showed', 'are', 'is'])} ${pick(RESULTS)}`,
    () => { const x = p(); return `on examination ${x.subj} ${pick(['looks', 'is', 'appears'])} ${pick(STATES)}`; },
    () => { const x = p(); return `${x.poss} ${pick(['blood pressure is', 'bp is', 'pulse is', 'temperature is', 'weight is', 'sugar is', 'oxygen saturation is'])} ${value()}`; },
    () => `${pick(['there is', 'there was', 'i can see', 'i noticed', 'no'])} ${pick(['tenderness', 'swelling', 'redness', 'a small wound', 'a rash', 'discharge', 'a lump', 'bruising', 'wax'])} ${pick(['over the', 'on the', 'in the', 'near the'])} ${part()}`,
    () => `we will ${pick(['start', 'continue', 'stop', 'change', 'add', 'increase', 'reduce'])} ${pick(drugs)}${rnd() < 0.5 ? ` and ${pick(['check', 'repeat', 'do'])} ${pick(investigations)}` : ''}`,
    () => `i will ${pick(['see', 'review', 'check'])} ${p().obj} again ${pick(['after', 'in'])} ${w(int(2, 14))} ${pick(['days', 'weeks'])}${rnd() < 0.5 ? ' with the reports' : ''}`,
    () => `${p().subj} should ${pick(['come back', 'return', 'call', 'go to the emergency'])} if ${pick(['the fever', 'the pain', 'the bleeding', 'the swelling', 'the breathing difficulty', 'the vomiting'])} ${pick(['does not settle', 'gets worse', 'comes back', 'continues'])}`,
    () => `${pick(['ask', 'tell', 'advised'])} ${p().obj} to ${pick(ADVICE_VERBS)}`,
    () => `${pick(['continue', 'repeat', 'same'])} ${pick(['the same medicines', 'all other medicines', 'the old prescription', 'treatment'])}`,
    () => `reduce the dose of ${pick(drugs)} to ${spokenNumber(pick([5, 10, 20, 250, 500]), rnd)} mg`,
    () => `${pick(drugs)} ${spokenNumber(pick([5, 10, 20, 40, 50, 100, 250, 500, 650]), rnd)} mg one tablet in the morning and one at night`,
    () => `apply ${pick(drugs)} ${pick(['cream', 'ointment', 'gel', 'lotion'])} on the ${pick(['affected area', 'rash', 'wound', part()])} ${pick(['twice a day', 'at night', 'three times a day'])}${rnd() < 0.5 ? ` for ${w(int(5, 21))} days` : ''}`,
    () => `${pick(drugs)} ${pick(['nasal spray', 'inhaler', 'eye drops', 'ear drops'])} ${pick(['one puff', 'two puffs', 'one drop', 'two drops'])} ${pick(['in each nostril', 'in each eye', 'in the left ear', 'in the right ear', 'twice a day'])}${rnd() < 0.5 ? ` ${pick(['twice a day', 'three times a day', 'at bedtime'])}` : ''}`,
    () => `${pick(['doctor', '', 'sir', 'madam'])} i ${pick(['have', 'am having', 'have had', 'get'])} ${symptom()} ${dur()}`.trim(),
    () => `how long have you ${pick(['had', 'been having'])} ${pick(['this', 'the pain', 'the fever', 'the cough', 'these symptoms', 'the swelling'])}`,
    () => `${pick(['since about', 'about', 'almost', 'maybe', 'around', 'more than'])} ${w(int(2, 10))} ${pick(['days', 'weeks', 'months'])}${rnd() < 0.3 ? ' doctor' : ''}`,
    () => `does it ${pick(['get worse', 'hurt', 'pain', 'get better'])} when you ${pick(ACTIVITIES)}`,
    () => pick(['yes', 'no', 'okay', 'alright', 'sometimes', 'only at night', 'not really', 'yes doctor', 'no doctor', 'a little', 'i am not sure',
      'thank you doctor', 'fine', 'okay doctor', 'i see', 'right', 'good', 'very good', 'hmm', 'yes sometimes', 'no not at all']),
    () => `${pick(['is there any', 'any', 'do you have any', 'have you had any'])} ${pick(symptoms)}${rnd() < 0.4 ? ` or ${pick(symptoms)}` : ''}`,
    () => `${pick(['have you taken', 'did you take', 'are you taking'])} any ${pick(['medicine', 'tablets', 'treatment', 'painkillers'])} for this`,
    () => `i ${pick(['took', 'was taking', 'tried'])} ${pick(drugs)} but it ${pick(['did not help', 'helped a little', 'helped for some time', 'gave me acidity'])}`,
    () => `${pick(['any allergies to medicines', 'are you allergic to any medicine', 'i am allergic to', 'she is allergic to', 'he is allergic to'])}${rnd() < 0.5 ? ` ${pick(drugs)}` : ''}`,
    () => pick(['do you smoke or drink', 'how is your appetite', 'how is your sleep', 'are your periods regular', 'when was your last period',
      'how many times do you pass urine at night', 'is there any blood in the stool', 'do you feel breathless on walking',
      'let me check your blood pressure', 'please lie down on the bed', 'open your mouth', 'take a deep breath', 'breathe in and out',
      'i will write some tests', 'please get these tests done', 'do not worry', 'it is nothing serious', 'show me where it hurts',
      'can you walk', 'can you bend your knee', 'any problem with your eyes', 'how much water do you drink in a day', 'do you exercise']),
    () => `take ${pick(['these medicines', 'this tablet', 'this syrup', 'the antibiotic'])} ${pick(['and come back after', 'for'])} ${w(int(2, 14))} ${pick(['days', 'weeks'])}`,
    () => `${pick(['my', 'her', 'his'])} ${pick(['sugar', 'blood pressure', 'weight', 'hemoglobin'])} ${pick(['was', 'is', 'has been'])} ${pick(['high', 'low', 'normal', 'around', 'about'])} ${rnd() < 0.5 ? value() : ''}`.trim(),
    () => `${p().subj} ${pick(['works as a', 'is a'])} ${pick(['farmer', 'teacher', 'driver', 'student', 'housewife', 'shopkeeper', 'software engineer', 'labourer', 'retired officer'])}`,
    () => `${pick(['the problem started', 'it started', 'the symptoms began', 'it began'])} ${pick(WHEN)}${rnd() < 0.5 ? ` ${pick(['after a cold', 'after a fall', 'after eating outside', 'after a journey', 'suddenly', 'slowly'])}` : ''}`,
    () => `${pick(['urine', 'stool', 'sputum'])} ${pick(['is', 'was'])} ${pick(['yellow', 'red', 'dark', 'clear', 'thick', 'white', 'green', 'normal', 'foul smelling'])}`,
    () => `${p().subj} ${pick(['walks', 'sleeps', 'eats', 'drinks water'])} ${pick(['well', 'poorly', 'less', 'more than usual', 'only a little'])}`,
    // Everyday spoken English of a consultation: contractions, fillers and linking words.
    () => `${pick(["i don't", "she doesn't", "he doesn't", "we don't", "i didn't", "it doesn't"])} ${pick(EVERYDAY_VERBS)}`,
    () => `${pick(["it's", "it has", "that's", "this is"])} ${pick(['been going on', 'getting worse', 'getting better', 'not serious', 'nothing to worry about', 'a common problem', 'because of the weather', 'due to the infection', 'the same as before', 'much better now'])}${rnd() < 0.4 ? ` ${dur()}` : ''}`,
    () => `${pick(["i'm", 'i am', "she's", "he's", 'we are'])} ${pick(['feeling better', 'not feeling well', 'worried about', 'fine now', 'a bit tired', 'still having', 'taking', 'not sure about', 'going to'])} ${pick(['it', 'this', 'the pain', 'the tablets', 'the reports', pick(symptoms), pick(drugs), 'work'])}`,
    () => `${pick(["what's", "how's", 'how is', 'what is', 'where is', 'when did'])} ${pick(['the problem', 'the pain', 'the fever', 'your sleep', 'your appetite', 'the swelling', 'the child', 'your mood', 'your work', 'it start', 'it hurt'])}${rnd() < 0.3 ? ' now' : ''}`,
    () => `${pick(['so', 'and', 'but', 'then', 'also', 'because', 'if', 'until'])} ${p().subj} ${pick(['has', 'had', 'should', 'can', 'will', 'may', 'must', 'needs to'])} ${pick(EVERYDAY_VERBS)}`,
    () => `${pick(['make sure', 'please make sure', 'see that', 'remember that'])} ${p().subj} ${pick(['takes', 'drinks', 'eats', 'gets', 'finishes', 'avoids'])} ${pick(['the full course', 'enough water', 'the medicines on time', 'proper rest', 'plenty of fluids', 'light food', 'the first dose today', 'most of the food'])}`,
    () => `${pick(["i'll", 'i will', "we'll", 'let me'])} ${pick(['write', 'give', 'put', 'send', 'start', 'refer', 'check', 'explain'])} ${pick(['you', p().obj, 'the medicines', 'a note', 'some tests', 'the details', 'a letter', 'the plan'])}${rnd() < 0.4 ? ` ${pick(['today', 'now', 'first', 'for a couple of days', 'at least for a week', 'to the specialist', 'along with the reports'])}` : ''}`,
    () => `${pick(['take', 'use', 'apply', 'put', 'keep'])} ${pick(['half a tablet', 'one tablet', 'a teaspoon', 'two drops', 'a small amount', 'a cold cloth', 'ice', 'a pillow', 'a glass of water', 'a hot water bottle'])} ${pick(['at night', 'in the morning', 'after lunch', 'after dinner', 'on the area', 'under the legs', 'every four hours', 'when needed', 'with each meal'])}`,
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    // A consultation transcript names who speaks each turn ("doctor: …", "mother: …").
    const speaker = rnd() < 0.2 ? `${pick(SPEAKERS)} ` : '';
    out.push(`${speaker}${pick(templates)()}`.replace(/\s+/g, ' ').trim());
  }
  return out;
}
