import { describe, expect, it } from 'vitest';
import { Mapped } from '../../server/clinical-nlp/mapped.js';
import { buildDoc } from '../../server/clinical-nlp/sections.js';
import { structure } from '../../server/clinical-nlp/structure.js';

const texts = (raw: string, mode?: string) => buildDoc(raw, { mode }).sentences.map((s) => s.text);
const said = (raw: string, span: { start: number; end: number } | undefined) => (span ? raw.slice(span.start, span.end) : undefined);

describe('mapped text', () => {
  it('maps a rewritten phrase back to the words it replaced', () => {
    const m = Mapped.of('Tab Dolo six fifty twice daily').lower().replace(/six fifty/g, '650');
    expect(m.text).toBe('tab dolo 650 twice daily');
    const at = m.text.indexOf('650');
    expect(m.source(at, at + 3)).toEqual({ start: 9, end: 18 });
    expect(m.source(0, 8)).toEqual({ start: 0, end: 8 });
  });
});

describe('sentences without punctuation', () => {
  it('turns voice commands into punctuation and never keeps them as words', () => {
    const raw = 'sixty year old man comma retired clerk full stop next line cough since one week full stop new paragraph diagnosis colon acute bronchitis full stop';
    const s = texts(raw);
    expect(s).toEqual(['60 year old man, retired clerk', 'cough since 1 week', 'diagnosis: acute bronchitis']);
    expect(s.join(' ')).not.toMatch(/\b(?:comma|full stop|next line|new paragraph|colon)\b/);
  });

  it('does not start an instruction after a negated auxiliary ("don\'t | keep taking …"), which would turn a stop into a continue', () => {
    expect(texts("okay don't keep taking the naproxen", 'consultation')).toEqual(["okay don't keep taking the naproxen"]);
    expect(texts("i wouldn't keep taking the tramadol", 'consultation')).toEqual(["i wouldn't keep taking the tramadol"]);
    expect(texts('take it with food keep taking it for a week')).toEqual(['take it with food', 'keep taking it for a week']);
    const out = structure("Doctor: how is the knee\nPatient: still sore\nDoctor: don't keep taking the naproxen, it upsets your stomach",
      { locale: 'en-US', mode: 'consultation' });
    expect(out.medications.map((m) => m.name)).toEqual([]);
  });

  it('keeps "colon" the bowel and "period" the menstrual one', () => {
    expect(texts('polyp in the sigmoid colon biopsy sent')).toEqual(['polyp in the sigmoid colon biopsy sent']);
    expect(texts('last menstrual period was two weeks ago')[0]).toContain('period');
  });

  it('starts a sentence at a section word and at a prescription line with its verb', () => {
    const s = texts('painful swallowing since two days throat congested impression acute pharyngitis continue tab azee five hundred once daily stop tab brufen advice warm saline gargles');
    expect(s).toEqual([
      'painful swallowing since 2 days throat congested',
      'impression acute pharyngitis',
      'continue tab azee 500 once daily',
      'stop tab brufen',
      'advice warm saline gargles',
    ]);
  });

  it('does not split where the word before makes a phrase', () => {
    expect(texts('no past history of asthma')).toEqual(['no past history of asthma']);
    expect(texts('take one tablet at night')).toEqual(['take 1 tablet at night']);
    expect(texts('stool examination for ova and cyst')).toEqual(['stool examination for ova and cyst']);
  });

  it('reads an unlabelled consultation as turns, questions answered by the patient', () => {
    const doc = buildDoc('what brings you here doctor my knee hurts since a month any swelling no doctor any fever yes a little at night', { mode: 'consultation' });
    const turns = doc.sentences.map((s) => [s.speaker, s.text]);
    expect(turns).toContainEqual(['doctor', 'any swelling?']);
    expect(turns).toContainEqual(['patient', 'no doctor']);
    expect(doc.consultation).toBe(true);
  });

  it('cuts the opening question from the patient\'s first words, and a temperature the patient has is no reading the doctor took', () => {
    const doc = buildDoc("hello how can i help today hi doctor i've had this sore throat for 5 days and i've got a temperature on and off okay any cough a little", { mode: 'consultation' });
    expect(doc.sentences.slice(0, 2).map((s) => [s.speaker, s.text])).toEqual([
      ['doctor', 'hello how can i help today?'],
      ['patient', "hi doctor i've had this sore throat for 5 days and i've got a temperature on and off okay"],
    ]);
    expect(buildDoc("let me check your temperature it's 37.8 okay", { mode: 'consultation' }).sentences[0]!.speaker).toBe('doctor');
  });

  it('reads "i want you to …", "i\'m going to start you on …" in an unlabelled consultation as the doctor\'s, though said in the first person', () => {
    const who = (raw: string) => buildDoc(raw, { mode: 'consultation' }).sentences.map((s) => s.speaker);
    expect(who('i want you to take ibuprofen 400 mg three times a day')).toEqual(['doctor']);
    expect(who("i'm going to start you on amlodipine 5 mg once a day")).toEqual(['doctor']);
    expect(who("i'd recommend you take paracetamol 1 g four times a day")).toEqual(['doctor']);
    expect(who("i'm taking ibuprofen 400 mg three times a day")).toEqual(['patient']);
    // After the patient's "yeah", the doctor's plan said in the first person is still the doctor's.
    const plan = (said: string) => who(`do you have any pain? yeah. ${said}`).at(-1);
    expect(plan("so i'm gonna go ahead and start you on some lasix 40 milligrams once a day")).toBe('doctor');
    expect(plan('so i wanna go ahead and continue with the lisinopril 20 mg a day')).toBe('doctor');
    // A recogniser writes "wanna" as "wan na"; "just" may come between; a tag question ("…, okay?") before it asks nothing.
    expect(who('it looks like you\'re managing it well at this time, okay? so, i wan na go ahead and continue with the lisinopril 20 mg a day').at(-1)).toBe('doctor');
    expect(who('everything looks fine here now, okay? i wan na just continue on the lisinopril, 20 milligrams a day').at(-1)).toBe('doctor');
    expect(plan('so i would, uh, suggest you continue using the pain reliever, 600 milligrams of ibuprofen 3 times a day')).toBe('doctor');
    expect(plan('and something called emollients, which can help with the dry skin')).toBe('doctor');
    expect(plan('you can also try antihistamines, piriton, loratadine')).toBe('doctor');
    expect(plan('so for your first problem, this newly diagnosed diabetes, we will continue metformin')).toBe('doctor');
    expect(plan('hey dragon, order amoxicillin 500 milligrams 3 times a day for 10 days')).toBe('doctor');
    expect(plan("i've been taking lasix 40 milligrams once a day")).toBe('patient');
    expect(plan("sometimes if i'm really having a hard time sleeping i'll take xanax")).toBe('patient');
    expect(plan("so i'll take a look at your elbow")).toBe('doctor');
    // "lie down", "sit down" ask for an examination; said of the speaker's own symptom they are the patient's.
    expect(plan('okay can you lie down on the couch for me')).toBe('doctor');
    expect(plan("i've been getting this burning in my chest after meals it's worse when i lie down at night")).toBe('patient');
    expect(plan('the pain comes on when i sit down for too long')).toBe('patient');
    // A yes or a no after a question is its answer, whatever words follow.
    expect(who("okay how about the januvia did you ever start that\nno the insurance wouldn't cover it").at(-1)).toBe('patient');
    // A safety net said to the patient is the doctor's, though "me" is in it.
    expect(who('so the plan is rest\ncall me back if things get worse before your appointment')).toEqual(['doctor', 'doctor']);
    expect(plan("that's too much i'm going to step up your preventer stop the beclometasone and start fostair")).toBe('doctor');
    expect(plan("what i'd like to do is increase your dose of lasix from 20 milligrams to 60 milligrams")).toBe('doctor');
    expect(plan("so for you i'd like to start with buspirone 5 milligrams twice a day")).toBe('doctor');
    expect(plan("i'm going to refill your albuterol inhaler two puffs every four hours as needed")).toBe('doctor');
    expect(plan("you're on levothyroxine 50 micrograms i'm going to go up to 75 micrograms daily")).toBe('doctor');
    expect(plan("the ibuprofen you've been taking can make your reflux worse so i'd stop that and just use paracetamol")).toBe('doctor');
    expect(plan("hey gregory good to see you today so i take a look at my notes and i see you've had a foot ulcer")).toBe('doctor');
    expect(plan("that sounds fun but i'm sad you hurt your knee doing it so for your knee pain")).toBe('doctor');
    // The examination told aloud, though in the first person.
    expect(plan("your heart, i hear a slight systolic murmur, and you don't have any lower extremity edema")).toBe('doctor');
    expect(plan('okay, so on exam, everything seems to be good')).toBe('doctor');
    // Told to the patient, with no word of the speaker's own; "you know" is anyone's.
    expect(who('no\nit hurts when i walk\nokay so looking at your ankle there is swelling over the outside').at(-1)).toBe('doctor');
    expect(who('no\nit hurts when i walk\nand it just swells up by the evening you know').at(-1)).toBe('patient');
    expect(plan("now for the pain you may continue taking ibuprofen as needed but i'm also going to recommend physical therapy")).toBe('doctor');
    // A history question without its "?" is the doctor's, and what follows it the patient's answer.
    expect(who('no pain at all\ndo you ever notice a rash with any of this\nno').slice(1)).toEqual(['doctor', 'patient']);
    expect(who('it hurts\nokay and so does the pain move anywhere like your upper back\nno it just stays there').slice(1)).toEqual(['doctor', 'patient']);
    expect(new Set(who('yep\num and if you are having vomiting and diarrhoea i would say drink plenty of fluids').slice(1))).toEqual(new Set(['doctor']));
    expect(who('yeah it just burns\nokay and have you had any fever or chills\ni have not at this point\nany body aches or anything like that\nno just kind of a headache').slice(1)).toEqual(['doctor', 'patient', 'doctor', 'patient']);
    // A bare topic asked after the patient's answer, and answered, is the doctor's question; so is "how old is she".
    const asked = buildDoc('any pain\nno chest pain\nshortness of breath\nno shortness of breath\nhow old is she now\nsix years', { mode: 'consultation' }).sentences;
    expect(asked.map((x) => [x.speaker, x.text])).toEqual([
      ['doctor', 'any pain?'], ['patient', 'no chest pain'], ['doctor', 'shortness of breath?'], ['patient', 'no shortness of breath'],
      ['doctor', 'how old is she now?'], ['patient', '6 years'],
    ]);
    expect(new Set(asked.map((x) => x.turn)).size).toBe(6);
    // After the patient's bare "no", "okay coughing headache" opens the doctor's next topics, whatever the answer.
    expect(who('any fever or chills\nno\nokay coughing headache\nmaam').slice(1)).toEqual(['patient', 'doctor', 'patient']);
    // "when i …", "where it …" tell; "when did …", "where is …" ask.
    expect(who('any fever\nno\nwhen i put on tight shoes i felt some burning and i never had any nausea').slice(1)).toEqual(['patient', 'patient']);
    // "when you need it" is no question: the instruction stays one sentence.
    expect(buildDoc('use two puffs of the inhaler when you need it', { mode: 'consultation' }).sentences).toHaveLength(1);
    expect(who('any fever\nno\nwhen did the pain start').at(-1)).toBe('doctor');
    // "now how are you doing with the crestor" is one question, the doctor's.
    expect(buildDoc('any pain\nno\nnow how are you doing with the crestor you were worried about muscle aches', { mode: 'consultation' }).sentences.map((x) => [x.speaker, x.text]).at(-1))
      .toEqual(['doctor', 'now how are you doing with the crestor you were worried about muscle aches']);
    // "I think" is the doctor's opinion unless it goes on about the speaker ("i think i", "i think it's been").
    expect(plan("i think it's been about the same, not getting better or worse")).toBe('patient');
    expect(plan("i think my stomach is a bit bloated")).toBe('patient');
    expect(plan('i think it is a simple bladder infection')).toBe('doctor');
    // A question cut off at its "did you" is answered next, unless the next asks again.
    expect(who('any pain\nyes\nwhat kind of pain meds did you\nibuprofen 800 milligrams a day').at(-1)).toBe('patient');
    expect(who('any pain\nyes\nwhat kind of pain meds do you\ndo you take them daily').at(-1)).toBe('doctor');
    // The one labelled line of an otherwise unlabelled transcript keeps its label.
    expect(who("Doctor: I'd like you to take amoxicillin 500 mg three times a day.")).toEqual(['doctor']);
  });

  it('does not start a question at a causative "have you" or at "any" that is a verb\'s object; "is she allergic …" is asked', () => {
    expect(texts("Doctor: so i'm going to have you check your weight every day and we'll have you use the inhaler")).toHaveLength(1);
    expect(texts('Doctor: i would recommend not running or doing any sport for now')).toHaveLength(1);
    const who = (raw: string) => buildDoc(raw, { mode: 'consultation' }).sentences.map((s) => [s.speaker, s.text]);
    expect(who('any cough\nno not really\nis she allergic to any medicines\nyes to penicillin').slice(2)).toEqual([
      ['doctor', 'is she allergic to any medicines?'], ['patient', 'yes to penicillin']]);
  });

  it('reads the doctor saying what they want done as a statement, not a question, even without punctuation', () => {
    const sentences = texts('Doctor: what i want you to do is rest the knee and use ice\nPatient: okay\nDoctor: what brings you in today\nPatient: my knee');
    expect(sentences).toContain('what i want you to do is rest the knee and use ice');
    expect(sentences).toContain('what brings you in today?');
  });

  it('does not start the plan at a patient introduced by age ("this is a 58 year old …")', () => {
    const doc = buildDoc('this is a 58 year old man with a cough for three days. chest is clear. i think this is acute bronchitis. start azithromycin 500 mg once daily.');
    expect(doc.planStart).toBe(2);
  });

  it("reads a turn the recogniser labelled as the patient's as the doctor's when it says what only a doctor says", () => {
    const f = structure('Doctor: how is the shoulder\nPatient: okay so i\'m going to refer you to physiotherapy and in the meantime you can take paracetamol for the pain\nDoctor: alright', { locale: 'en-GB', mode: 'consultation' });
    expect(f.medications.map((m) => m.name)).toEqual(['paracetamol']);
    const named = structure('Doctor: okay\nPatient: so this is what we call plantar fasciitis and we give you a drug called naproxen you take it twice a day\nDoctor: okay', { locale: 'en-US', mode: 'consultation' });
    expect(named.medications.map((m) => m.name)).toEqual(['naproxen']);
    const doc = buildDoc('Doctor: any pain\nPatient: yes my knee hurts when i walk', { mode: 'consultation' });
    expect(doc.sentences.map((x) => x.speaker)).toEqual(['doctor', 'patient']);
  });

  it('reads a consultation whose two speakers the recogniser labelled the wrong way round by what each says', () => {
    // The lines labelled the patient's ask the questions and give the plan; those labelled the doctor's tell the story.
    const swapped = 'Patient: hi good morning what brings you in today\nDoctor: well my right knee has been hurting for about two weeks\nPatient: okay how did it start\nDoctor: i fell off my bike and hit it on the curb\nPatient: does it swell up\nDoctor: yeah it swells up by the evening\nPatient: any fever or chills\nDoctor: no nothing like that\nPatient: have you taken anything for it\nDoctor: i took some ibuprofen and it helped a bit\nPatient: are you able to walk on it\nDoctor: yes but it hurts going down stairs\nPatient: any numbness or tingling\nDoctor: no\nPatient: okay let me examine your knee\nDoctor: okay\nPatient: i think you have a sprain of the medial collateral ligament so i want you to take naproxen 500 mg twice a day for ten days\nDoctor: okay thank you';
    const doc = buildDoc(swapped, { mode: 'consultation' });
    expect(doc.sentences[0]!.speaker).toBe('doctor');
    expect(doc.sentences.find((x) => x.text.startsWith('well my right knee'))!.speaker).toBe('patient');
    const f = structure(swapped, { locale: 'en-US', mode: 'consultation' });
    expect(f.complaints.map((c) => c.name)).toEqual(['right knee pain', 'swelling']);
    // Labelled the right way round, the same words read the same; a doctor who asks little is not a reason to swap.
    const right = swapped.replace(/^(Doctor|Patient):/gm, (_m, w: string) => (w === 'Doctor' ? 'Patient:' : 'Doctor:'));
    expect(structure(right, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => c.name)).toEqual(['right knee pain', 'swelling']);
  });

  it('replaces the amount said just before a self-correction, and only the amount', () => {
    const f = structure('continue tab amlodipine five mg daily start tab atorvastatin twenty sorry make that forty mg at bedtime', { locale: 'en-IN' });
    expect(f.medications.map((m) => [m.name, m.strength?.value])).toEqual([['amlodipine', 5], ['atorvastatin', 40]]);
  });

  it('a frequency said with the corrected amount replaces the one said with the old', () => {
    const f = structure('take amoxicillin 500 mg three times a day, actually make that 875 mg twice a day', { locale: 'en-US' });
    expect(f.medications.map((m) => [m.name, m.strength?.value, m.frequency?.per_day])).toEqual([['amoxicillin', 875, 2]]);
    const kept = structure('amoxicillin 500 mg three times a day sorry make that 250 mg', { locale: 'en-US' });
    expect(kept.medications.map((m) => [m.name, m.strength?.value, m.frequency?.per_day])).toEqual([['amoxicillin', 250, 3]]);
  });

  it('"let\'s change it to X" in an unlabelled consultation is the doctor switching a drug, not a correction', () => {
    const text = "i wonder if the cough is from the ramipril let's change it to candesartan eight mg once a day";
    const doc = buildDoc(text, { mode: 'consultation' });
    expect(doc.sentences.at(-1)).toMatchObject({ speaker: 'doctor', text: expect.stringMatching(/let's change it to candesartan 8 mg once a day$/) });
    expect(structure(text, { locale: 'en-US', mode: 'consultation' }).medications.map((m) => [m.name, m.strength?.value])).toEqual([['candesartan', 8]]);
  });
});

describe('vitals and follow-up in varied wording', () => {
  it('takes words between label and value, not home readings or reports', () => {
    const raw = 'His home readings were one sixty over one hundred. Reports from last month show fasting sugar one forty. BP in the clinic today, after resting for five minutes, was one forty four over ninety two. Sats are ninety seven percent on room air.';
    const f = structure(raw, { locale: 'en-IN' });
    expect(f.vitals).toEqual({ bp: { systolic: 144, diastolic: 92 }, spo2_percent: 97 });
    expect(said(raw, f.evidence.vitals.bp)).toMatch(/^BP in the clinic today.*ninety two$/);
  });

  it('reads follow-up said as show me, see back, hours and fortnights', () => {
    const fu = (t: string) => structure(t, { locale: 'en-IN' }).follow_up?.after;
    expect(fu('Show me the wound again after ten days.')).toEqual({ value: 10, unit: 'day' });
    expect(fu("Let's see him back in a fortnight.")).toEqual({ value: 2, unit: 'week' });
    expect(fu('Recheck in 72 hours.')).toEqual({ value: 3, unit: 'day' });
    expect(fu('Review the day after tomorrow.')).toEqual({ value: 2, unit: 'day' });
    expect(fu('Come back if the pain gets worse.')).toBeUndefined();
  });
});

describe('advice', () => {
  it('keeps instructions, not prescriptions, tests, explanations or the doctor\'s intentions', () => {
    const f = structure(
      'Impression gastritis. Tab pantoprazole forty mg before breakfast for two weeks. We will do an H pylori test if it persists. It can take a week to settle. Avoid spicy food, eat small frequent meals, and do not lie down after dinner. Come back if you vomit blood.',
      { locale: 'en-IN' },
    );
    expect(f.advice).toEqual(['avoid spicy food', 'eat small frequent meals', 'do not lie down after dinner', 'come back if you vomit blood']);
  });

  it('splits instructions said without punctuation at their verbs', () => {
    const f = structure('impression tension headache tab paracetamol five hundred mg sos drink enough water avoid skipping meals no screens after ten at night', { locale: 'en-IN' });
    expect(f.advice).toEqual(['drink enough water', 'avoid skipping meals', 'no screens after 10 at night']);
  });

  it('takes a care instruction said on a prescription line, but not the drug\'s own attributes', () => {
    const f = structure(
      'Diagnosis allergic conjunctivitis. Olopatadine eye drops one drop twice daily for two weeks, keep a gap of five minutes between the two drops. Budesonide inhaler two puffs twice daily, rinse the mouth after each use.',
      { locale: 'en-IN' },
    );
    expect(f.medications.map((m) => m.name)).toEqual(['olopatadine', 'budesonide']);
    expect(f.advice).toEqual(['keep a gap of 5 minutes between the 2 drops', 'rinse the mouth after each use']);
  });

  it('ends a clause at counselling reported as done, and at "see me" without punctuation', () => {
    const f = structure('impression hypertension continue tab amlodipine five mg once daily advice salt restriction discussed home bp log explained do not stop the tablets suddenly see me after four weeks', { locale: 'en-IN' });
    expect(f.advice).toEqual(['salt restriction discussed', 'home bp log explained', 'do not stop the tablets suddenly']);
  });
});

describe('report headings and numbered lists', () => {
  const sections = (raw: string) => buildDoc(raw).sentences.map((s) => [s.section, s.text]);

  it.each([
    ['a report export with its stray commas', 'SUBJECTIVE:,  Cough for a week.,PAST MEDICAL HISTORY:,  Asthma.,CURRENT MEDICATIONS:,  Albuterol.,OBJECTIVE:,Lungs:  Clear.,ASSESSMENT AND ,PLAN:,  Bronchitis.',
      [['history', 'subjective: cough for a week'], ['past_history', 'past medical history: asthma'], ['medications', 'current medications: albuterol'],
        ['exam', 'objective:'], ['exam', 'lungs: clear'], ['assessment', 'assessment and ,plan: bronchitis']]],
    ['a body system inside a review of systems stays there', 'REVIEW OF SYSTEMS: Skin: no rash. Neck: no stiffness. EXAM: Skin: warm.',
      [['review', 'review of systems:'], ['review', 'skin: no rash'], ['review', 'neck: no stiffness'], ['exam', 'exam:'], ['exam', 'skin: warm']]],
    ['a family of history headings', 'Tobacco history: quit in 2010. Plan: stop smoking.',
      [['past_history', 'tobacco history: quit in 2010'], ['plan', 'plan: stop smoking']]],
    ['a dictated heading after a paragraph command', 'he is better. paragraph, plan. continue the inhaler.',
      [[null, 'he is better'], [null, 'paragraph'], ['plan', 'plan'], ['plan', 'continue the inhaler']]],
    ['a heading word without its command is not a heading', 'came for follow up. cough is better.',
      [[null, 'came for follow up'], [null, 'cough is better']]],
  ])('%s', (_, raw, expected) => {
    expect(sections(raw)).toEqual(expected);
  });

  it('makes each numbered item a sentence, but keeps decimals and report vitals whole', () => {
    expect(texts('PLAN:,1.  Duricef 1 g daily for seven days.,2.  Cold packs to the area.')).toEqual(['plan:', 'duricef 1 g daily for 7 days', 'cold packs to the area']);
    expect(texts('Vitals: T: 98. P: 90. Temperature ninety eight point six full stop warm.')).toEqual(['vitals: t: 98', 'p: 90', 'temperature 98.6', 'warm']);
  });

  it('reads a label on the only labelled line as a speaker only when it names one: a report may open on a heading we do not know', () => {
    const report = buildDoc('IDENTIFYING DATA: , A 41-year-old man.,PLAN: , He will be restarted on Depakote.');
    expect(report.sentences.every((s) => s.speaker === null)).toBe(true);
    expect(report.sentences.map((s) => s.section)).toContain('plan');
    expect(buildDoc('Score ten. PLAN: restart Depakote.').sentences.map((s) => s.section)).toContain('plan');
    expect(buildDoc('Patient: my throat hurts.').sentences[0]!.speaker).toBe('patient');
    expect(buildDoc('Dr. Shah: your throat is red.').sentences[0]!.speaker).toBe('doctor');
  });

  it('reads the discharge summary and consult headings MTSamples reports use', () => {
    expect(sections('HOSPITAL COURSE: She improved. DISCHARGE DIAGNOSES: 1. Urinary tract infection. DIAGNOSTIC DATA: EKG normal. AXIS I: Bipolar disorder.').map(([k]) => k)).toEqual([
      'history', 'assessment', 'assessment', 'results', 'assessment']);
    expect(sections('PLAN: Rest. Diet: regular. Activity: as tolerated.').map(([k]) => k)).toEqual(['plan', 'plan', 'plan']);
    expect(sections('SOCIAL HISTORY: Lives alone. Diet: regular.').map(([k]) => k)).toEqual(['social', 'social']);    expect(sections('EXAM: Gait slow. PROBLEMS/DIAGNOSES: 1. Hydrocephalus. SECONDARY DIAGNOSES: 1. Hypertension. AFTERCARE AND DISPOSITION: Home.').map(([k]) => k)).toEqual([
      'exam', 'assessment', 'assessment', 'assessment', 'assessment', 'plan']);
  });

  it('"her history includes a presumed diagnosis of …" is history: it neither splits the sentence nor starts the plan', () => {
    const doc = buildDoc('Her past medical history includes a presumed diagnosis of connective tissue disorder.  She has otherwise, good health. She underwent a shoulder ligament repair.', { mode: 'dictation' });
    expect(doc.sentences.length).toBe(3);
    expect(doc.planStart).toBe(3);
    expect(buildDoc('The diagnosis is otitis media. Give plenty of fluids.', { mode: 'dictation' }).planStart).toBe(0);
  });

  it('reads history headings written with "Hx" ("PAST SURGICAL HX:", "SOCIAL HX:")', () => {
    expect(sections('PAST MEDICAL HX: , Pneumonia.,PAST SURGICAL HX: , Plastic surgery on her ear.,SOCIAL HX: , Lives alone.,FAMILY HX: , Diabetes.').map(([k]) => k)).toEqual([
      'past_history', 'past_history', 'social', 'family']);
  });

  it('reads joined assessment and plan headings ("ASSESSMENT & PLAN:", "RECOMMENDATIONS/PLAN:")', () => {
    expect(sections('EXAM: Tender. ASSESSMENT & PLAN: , Lumbar radiculitis. RECOMMENDATIONS/PLAN: , Start Lyrica.').map(([k]) => k)).toEqual(['exam', 'assessment', 'plan']);
  });

  it("takes a plain 'Medications:' under a plan heading as the plan's list, and a current list anywhere as history", () => {
    expect(sections('DISCHARGE PLAN: Diet: no restriction. Medications: Lasix 40 mg daily.')).toEqual([
      ['plan', 'discharge plan:'], ['plan', 'diet: no restriction'], ['plan', 'medications: lasix 40 mg daily']]);
    expect(sections('PLAN: Fluids. Current medications: Lasix 40 mg daily.')).toEqual([['plan', 'plan: fluids'], ['medications', 'current medications: lasix 40 mg daily']]);
    expect(sections('HPI: Cough. Medications: Lasix 40 mg daily.')).toEqual([['history', 'hpi: cough'], ['medications', 'medications: lasix 40 mg daily']]);
  });

  it('starts a recogniser\'s section at its qualifier ("… in their forties discharge medications one aspirin …")', () => {
    expect(texts('she has had chest pain in the men in their forties discharge medications one aspirin 81 mg daily')).toEqual([
      'she has had chest pain in the men in their forties', 'discharge medications 1 aspirin 81 mg daily']);
    expect(texts('follow up with me in the office to resume all pre admission medications')).toHaveLength(1);
  });

  it('says a short word or two repeated in speech once, and keeps a longer word said twice as list items', () => {
    expect(texts('Doctor: And then you can ring the, the support team number. I, I think so.')).toEqual(['and then you can ring the support team number', 'i think so']);
    expect(texts('PLAN: 24-hour urine for protein/creatinine, creatinine clearance.')).toEqual(['plan: 24 hour urine for protein/creatinine, creatinine clearance']);
    expect(texts("Doctor: What you're, what you're describing might be Bell's palsy.")).toEqual(["what you're describing might be bell's palsy"]);
  });

  it('ends findings dictated aloud in a consultation where the examination is said to be over or a prescription told', () => {
    const kinds = (raw: string) => buildDoc(raw, { mode: 'consultation' }).sentences.map((s) => s.section);
    expect(kinds('Doctor: Physical exam: lungs are clear.\nPatient: Okay.\nDoctor: Mild edema. Okay, we\'re done with your exam. I want you to increase the metformin.\nPatient: Sure.'))
      .toEqual(['exam', 'exam', 'exam', null, null, null]);
    expect(kinds('Doctor: Physical exam: lungs are clear.\nPatient: Okay.\nDoctor: I\'m going to prescribe you some amoxicillin.'))
      .toEqual(['exam', 'exam', null]);
    expect(kinds('Doctor: Physical exam: lungs are clear.\nPatient: Okay.\nDoctor: Heart sounds normal.')).toEqual(['exam', 'exam', 'exam']);
    expect(buildDoc('EXAM: Lungs clear. You can sit up. PLAN: Rest.').sentences.map((s) => s.section)).toEqual(['exam', 'exam', 'plan']);
  });

  it('does not read a heading as a speaker, so a report is not a consultation', () => {
    const doc = buildDoc('SUBJECTIVE: Sore throat.\nOBJECTIVE: Red throat.\nPLAN: Fluids.');
    expect(doc.consultation).toBe(false);
    expect(doc.sentences.every((s) => s.speaker === null)).toBe(true);
  });
});

describe('a unit\'s period before the dose said next', () => {
  it('ends no sentence ("Lisinopril 20 mg. one p.o. twice per day"); before other words it does', () => {
    const texts = (t: string) => buildDoc(t, { mode: 'dictation' }).sentences.map((s) => s.text);
    expect(texts('Lisinopril 20 mg. one p.o. twice per day, digoxin 0.125 mg one p.o. q.d.')).toEqual(['lisinopril 20 mg. 1 po twice per day, digoxin 0.125 mg 1 po daily']);
    expect(texts('Start lisinopril 20 mg. Return in two weeks.')).toEqual(['start lisinopril 20 mg', 'return in 2 weeks']);
  });
});

describe('an unlabelled consultation\'s questions and answers (session 56)', () => {
  const unl = (text: string) => structure(text, { locale: 'en-GB', mode: 'consultation' });
  const lines = [
    "i've been feeling really tired and i'm always thirsty",
    'have you lost any weight',
    'about half a stone i think',
    'anyone in the family with diabetes',
    'my mum has type 2 diabetes',
    "okay your sugar was eighteen point two which is high your urine has glucose in it but no ketones i'm fairly sure you've got type 2 diabetes",
  ];
  it('"have you lost any weight" – "about half a stone i think" is a weight loss; "which is high" asks nothing; no ketones does not deny the diabetes', () => {
    const f = unl(lines.join('\n'));
    expect([f.complaints.map((c) => c.name), f.diagnoses.map((d) => d.icd10?.code)]).toEqual([['tiredness', 'excessive thirst', 'weight loss'], ['E11.9']]);
  });
  it('"anyone in the family with diabetes" is the doctor\'s question, "about half a stone i think" the answer', () => {
    const speakers = buildDoc(lines.join('\n'), { mode: 'consultation' }).sentences.map((s) => s.speaker);
    expect(speakers.slice(1, 5)).toEqual(['doctor', 'patient', 'doctor', 'patient']);
  });
});

describe('the doctor\'s plan in an unlabelled turn (session 56)', () => {
  const lines = [
    'okay her right eardrum is red and bulging so she has a middle ear infection',
    "what i'd suggest is giving her regular calpol i'll give you a prescription for amoxicillin two hundred and fifty mg three times a day for five days but only start it if she's not improving in two days",
    'is she allergic to penicillin',
    'not that we know of',
    "good if she becomes floppy has a stiff neck or a rash that doesn't fade bring her straight to a and e",
  ];
  it('"what i\'d suggest is …" is no question cut at its "only", and the amoxicillin waits on its condition', () => {
    const f = structure(lines.join('\n'), { locale: 'en-GB', mode: 'consultation' });
    expect([f.medications.map((m) => m.name), f.conditional_medications?.map((m) => m.name)]).toEqual([['paracetamol'], ['amoxicillin']]);
  });
  it('"… bring her straight to a and e" after the parent\'s answer is the doctor\'s safety net', () => {
    const f = structure(lines.join('\n'), { locale: 'en-GB', mode: 'consultation' });
    expect(f.advice).toContain('bring her straight to a and e if she becomes floppy has a stiff neck or a rash that does not fade');
    expect(buildDoc('i thought to bring him to the hospital\nno he is better now', { mode: 'consultation' }).sentences[0]!.speaker).not.toBe('doctor');
  });
});
