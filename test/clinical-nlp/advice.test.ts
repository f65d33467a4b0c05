/** Advice: the instructions of the plan, each complete, at most six; never the talk around them. Sentences of our own. */
import { describe, expect, it } from 'vitest';
import { ADVICE_CUES, extractAdvice, MAX_ITEMS } from '../../server/clinical-nlp/advice.js';
import type { Span } from '../../server/clinical-nlp/facts.js';
import { buildDoc, type Sentence } from '../../server/clinical-nlp/sections.js';
import { structure } from '../../server/clinical-nlp/structure.js';

/** Advice read from a transcript whose other facts took no words; `drugs` are the drug names the drug index would find. */
function advice(text: string, opts: { mode?: string; used?: (t: string) => Span[]; drugs?: string[] } = {}): string[] {
  const doc = buildDoc(text, { mode: opts.mode });
  const named = (s: Sentence): { start: number; end: number }[] =>
    (opts.drugs ?? []).flatMap((d) => [...s.text.matchAll(new RegExp(`\\b${d}\\b`, 'g'))].map((m) => ({ start: m.index, end: m.index + d.length })));
  return extractAdvice(doc, opts.used?.(text) ?? [], { lines: [], attributes: [] }, named).advice;
}

const consultation = (...turns: string[]): string => turns.map((t, i) => `${i % 2 ? 'Patient' : 'Doctor'}: ${t}`).join('\n');

describe('advice cue data', () => {
  it('names its source and licence and compiles every pattern', () => {
    expect(ADVICE_CUES.source).toMatch(/written for this project/i);
    expect(ADVICE_CUES.licence).toBeTruthy();
    const lists = [ADVICE_CUES.leadIns, ADVICE_CUES.negativeLeadIns, ADVICE_CUES.referrals, ADVICE_CUES.notInstructions, ADVICE_CUES.notPlanItems, ADVICE_CUES.planOnsets, ADVICE_CUES.advisableAfter, ADVICE_CUES.softPrefixes];
    for (const p of lists.flatMap((l) => l.patterns)) expect(() => new RegExp(p), p).not.toThrow();
  });
});

describe('instructions in a report plan', () => {
  it.each([
    ['imperatives and a plan item without a verb', 'ASSESSMENT: Ankle sprain. PLAN: Ice packs to the ankle. Keep the foot raised on a pillow. Call if the swelling gets worse.',
      ['ice packs to the ankle', 'keep the foot raised on a pillow', 'call if the swelling gets worse']],
    ['a report lead-in is dropped from the item', 'ASSESSMENT: Bronchitis. PLAN: She is to drink extra water. He was advised to stop smoking.',
      ['drink extra water', 'stop smoking']],
    ['a recommended gerund is written as the imperative', 'ASSESSMENT: Obesity. PLAN: I recommended increasing her daily walking.',
      ['increase her daily walking']],
    ['a statement, a record of what was done and the assessment are not advice', 'ASSESSMENT: Otitis media. PLAN: Samples provided. He denies any allergies. Mother signed the consent.',
      []],
    ['a procedure and the consent talk of it are not advice', 'ASSESSMENT: Gallstones. PLAN: Laparoscopic cholecystectomy. Risks and complications discussed with the patient. No guarantees were given. We also discussed bleeding and blood transfusions. Of note, she is diabetic. Further recommendations to follow.',
      []],
    ['hospital care, a finding, a drug line and a condition without its instruction are not advice', 'ASSESSMENT: Renal colic. PLAN: Ureteroscopy with lithotripsy. IV fluids. No documented stone on the film. Naprosyn 500 mg bid. Should he develop a fever. Hospital preregistration. Push fluids.',
      ['push fluids']],
    ['an instruction cut before its object or its end is not written', 'ASSESSMENT: Gastritis. PLAN: Alcohol is something you should cut down on if you can. Drink plenty of fluids.',
      ['drink plenty of fluids']],
    ['a finding is no instruction, nor one cut at its condition', 'ASSESSMENT: Cough. PLAN: No significant recent travel. Get in touch with a medical professional if. Rest.',
      ['rest']],
    ['answers and reassurance are not advice, a thing to go without is', 'Doctor: No recent travel? No allergies?\nPatient: No.\nDoctor: Do not panic. Drink plenty of fluids. No heavy lifting for a week.',
      ['drink plenty of fluids', 'no heavy lifting for a week']],
    ['narrative about the patient and report cross-references are not advice', 'ASSESSMENT: Cholelithiasis. PLAN: In terms of the plan, see above. Discussed with the patient regarding surgery; he fully understands and consents for the same. In view of his age, walk daily. Call me or message me in the patient portal if you have any concerns.',
      ['walk daily', 'call me or message me in the patient portal if you have any concerns']],
    ['a numbered plan item that is an instruction', 'ASSESSMENT: Cellulitis. PLAN:,1.  Warm compresses to the area.,2.  Return if fever develops.',
      ['warm compresses to the area', 'return if fever develops']],
  ])('%s', (_, text, expected) => {
    expect(advice(text)).toEqual(expected);
  });
});

describe('instructions cut out of a consultation', () => {
  it.each([
    ['a lead-in and the condition said before it',
      consultation('how long has it been sore', 'about a week', 'so it sounds like a muscle strain. If the pain gets worse or you get numbness in the leg, I want you to come back and see me straight away.', 'okay'),
      ['come back straight away if the pain gets worse or you get numbness in the leg']],
    ['several instructions in one run-on recogniser turn, each ended at the next clause',
      consultation('any other symptoms', 'no', 'alright so for your back pain it sounds like you strained it so i want you to rest it for a few days and then i want you to avoid heavy lifting okay and i do not want you to drive until the pain settles down because that can make it worse', 'okay'),
      ['rest it for a few days', 'avoid heavy lifting', 'do not drive until the pain settles down']],
    ['a referral said as the doctor\'s own act',
      consultation('it keeps clicking', 'right', 'so what I think is going on is a torn cartilage. I am going to refer you to an orthopaedic surgeon.', 'okay'),
      ['referral to an orthopaedic surgeon']],
    ['care said as what will help',
      consultation('my throat is sore', 'right', 'I think this is a viral sore throat. Warm salt water gargles will help.', 'thanks'),
      ['warm salt water gargles']],
    ['examination commands, small talk and questions are not advice',
      consultation('it hurts here', 'okay', 'take a deep breath for me. Lie back on the couch. So this looks like a chest infection. Do you have any questions? Take care, bye.', 'bye'),
      []],
    ['examination manoeuvres, the doctor\'s own checks, paperwork and "don\'t they" questions are not advice',
      consultation('it hurts at the back of the heel', 'okay', 'go ahead and pull your toes up towards you. dangle your feet over the edge. I will finish off the note. so this is achilles tendinitis. i want you to check you in two weeks. do not they make maple syrup up there', 'they do'),
      []],
    ['an exercise to do at home is advice though it names a body part',
      consultation('my ankle is stiff', 'okay', 'so this is a sprain. i want you to pull your toes up towards you ten times a day.', 'okay'),
      ['pull your toes up towards you 10 times a day']],
    ['the patient\'s words and the doctor\'s intentions are not advice',
      consultation('I feel dizzy when I stand', 'right', 'I think this is low blood pressure. We will start you on a new tablet and I will check your bloods.', 'I will drink more water and rest'),
      []],
  ])('%s', (_, text, expected) => {
    expect(advice(text, { mode: 'consultation' })).toEqual(expected);
  });
});

describe('instructions said in other ways', () => {
  it.each([
    ['each thing said to help is an item', consultation('my chest is tight', 'right', 'I think this is a chest cold. Honey in warm water and a humidifier at night will help.', 'thanks'),
      ['honey in warm water', 'a humidifier at night']],
    ['an imperative that is a whole instruction alone', consultation('it hurts when I bend', 'okay', 'so it sounds like a pulled muscle. For now I want you to rest.', 'okay'),
      ['rest']],
    ['a leaflet given is care named', consultation('my skin is dry', 'okay', 'I think this is eczema. I can give you an information leaflet about eczema.', 'thanks'),
      ['information leaflet about eczema']],
    ['the same return with a second condition is one item', consultation('it itches', 'okay', 'I think this is eczema. Come back if it is not better in a week. Also, come back if it spreads to your face.', 'fine'),
      ['come back if it is not better in a week or if it spreads to your face']],
    ['a return sooner on a second condition is the same return', consultation('it itches', 'okay', 'I think this is eczema. Come back if it is not better in two weeks. If it is spreading, come back and see me sooner.', 'fine'),
      ['come back if it is not better in 2 weeks or sooner if it is spreading']],
    ['being seen is an instruction, also where the follow-up was read', consultation('my ear is buzzing', 'okay', 'I think this is labyrinthitis. However, I would like you to be assessed in a clinic today.', 'fine'),
      ['be assessed in a clinic today']],
    ['being seen the same day or straight away says how soon', consultation('I have a cough', 'okay', 'I think this is a chest infection. If you get more breathless, you need to be seen the same day.', 'okay', 'And if the rash spreads you should be seen straight away.', 'fine'),
      ['be seen the same day if you get more breathless', 'be seen straight away if the rash spreads']],
    ['said without punctuation, a condition at the clause\'s end is the next instruction\'s', consultation('it burns when I pee', 'okay', 'i think you have a urinary tract infection drink plenty of water and if you get a fever or back pain call us right away', 'okay'),
      ['drink plenty of water', 'call us right away if you get a fever or back pain']],
    ['two instructions that share a condition are two items', consultation('I have chest pain', 'okay', 'I think this is muscular. Rest it if it gets worse. Call us if it gets worse.', 'okay'),
      ['rest it if it gets worse', 'call us if it gets worse']],
    ['"straight after" or "right after" stays whole at the end', consultation('I have a cough', 'okay', 'I think this is a chest infection. Do not lie down straight after. Rinse your mouth right after.', 'fine'),
      ['do not lie down straight after', 'rinse your mouth right after']],
    ['being seen without by whom, where or when is no instruction', consultation('my ear is buzzing', 'okay', 'I think this is labyrinthitis. I would like you to be seen by them if it goes on.', 'fine'),
      []],
    ['a referral named as a noun or said in the passive', consultation('my child repeats things', 'okay', 'I think this is obsessive compulsive disorder. I will call the school regarding the referral to psychologists for a behavioural analysis. He will be referred to paediatrics as well.', 'okay'),
      ['referral to psychologists for a behavioural analysis', 'referral to paediatrics']],
    ['the plan starts where the doctor says what might be best, before a later "what I would suggest"',
      consultation('I had a caesarean two weeks ago', 'okay', 'and how is your breathing?', 'worse since yesterday', 'and any pain in the legs?', 'no', 'any cough?', 'no', 'Given that you have had a C-section and you are short of breath, it might be worth you going into the hospital to get checked out. You can take yourself to the hospital with the baby.', 'okay', 'What I would suggest is, go fairly quickly.', 'okay'),
      ['take yourself to the hospital with the baby']],
    ['"for the first problem" starts the plan of a run-on turn; "depending on" ends the instruction',
      consultation('how long have you had the cough', 'about two weeks', 'any fevers', 'no', "okay let me listen your lungs sound crackly so let's talk about what we should do so for the first problem the cough with blood i'm gonna refer you to the emergency department and depending on what they find we may start treatment", 'okay', 'for the second problem your sugars once we get this diagnosed we will increase the metformin', 'okay'),
      ['go to the emergency department']],
    ['going to hospital, said as what the patient can do', consultation('I feel breathless', 'okay', 'I think this could be a clot. You can take yourself to the hospital with the baby.', 'okay'),
      ['take yourself to the hospital with the baby']],
    ['a safety net ends on whom to call', consultation('my ear hurts', 'okay', 'I think this is an ear infection. If the pain gets worse, call me.', 'fine'),
      ['call me if the pain gets worse']],
    ['a safety net lists what to come back for', consultation('my head hurts', 'okay', 'I think this is a tension headache. If your headache keeps getting worse, not easing with the tablets, or your neck gets stiffer, or you notice any weakness in your arms or legs, or changes in your eyesight, come back and see me straight away.', 'okay'),
      ['come back straight away if your headache keeps getting worse, not easing with the tablets, or your neck gets stiffer, or you notice any weakness in your arms or legs, or changes in your eyesight']],
    ['a listed condition that runs into another clause is no condition', consultation('my chest hurts', 'okay', 'i think this is angina so put one under your tongue if you get the pain if it does not settle after one or two of them i want you to go to the hospital call nine one one and go to the hospital', 'okay'),
      ['go to the hospital if it does not settle after 1 or 2 of them']],
    ['a drug kept on by a pronoun is the medication\'s, not advice', consultation('my ankle hurts', 'okay', 'I think this is a sprain. Keep taking that every day. Keep the dose the same for now. Keep your foot elevated.', 'okay'),
      ['keep your foot elevated']],
    ['a condition that the patient feels better is no well-wishing', consultation('my throat hurts', 'okay', 'I think this is a strep throat. It is important that you finish the whole course even if you feel better. Feel better soon.', 'thanks'),
      ['finish the whole course even if you feel better']],
    ['"aim for" starts an instruction', consultation('my pressure is high', 'okay', 'I think this is hypertension. Try to cut down on the salt, and aim for about 30 minutes of walking most days.', 'okay'),
      ['cut down on the salt', 'aim for about 30 minutes of walking most days']],
    ['a long condition said without a list has run on', consultation('can i ski this weekend', 'okay', 'i think this is a knee sprain. i would say my worry is that if you go skiing again and you fall over on the slope you might hurt your knee even more badly than you did last week but i do not want you to injure it anymore', 'okay'),
      ['do not injure it anymore']],
  ])('%s', (_, text, expected) => {
    expect(advice(text, { mode: 'consultation' })).toEqual(expected);
  });

  it.each([
    ['a return to school or work after a lead-in', 'ASSESSMENT: Chickenpox. PLAN: He can go back to school once the spots have crusted.',
      ['go back to school once the spots have crusted']],
    ['get, cut and give us a call start instructions', 'ASSESSMENT: Gingivitis. PLAN: Get a soft toothbrush. Cut sugary drinks down to one a day. If the gums bleed, give us a call.',
      ['get a soft toothbrush', 'cut sugary drinks down to 1 a day', 'give us a call if the gums bleed']],
    ['a plan item without a verb that names care may say how much', 'ASSESSMENT: Heart failure. PLAN: Less than 1.5 litres of fluid and 2 grams of salt a day.',
      ['less than 1.5 litres of fluid and 2 grams of salt a day']],
    ['a reading in the condition is what to watch for', 'ASSESSMENT: Heart failure. PLAN: Weigh daily. Call if the weight goes up by 2 kg in a week.',
      ['weigh daily', 'call if the weight goes up by 2 kg in a week']],
    ['a dose\'s condition is not taken by the next instruction', 'ASSESSMENT: Vertigo. PLAN: Tab prochlorperazine 5 mg when there is nausea. Sleep with the head raised.',
      ['sleep with the head raised']],
    ['a condition that had its instruction is not taken again', 'ASSESSMENT: Dengue. PLAN: If you get any bleeding, go to the emergency room. Keep her home from school tomorrow.',
      ['go to the emergency room if you get any bleeding', 'keep her home from school tomorrow']],
    ['a run-on plan line splits before a return', 'ASSESSMENT: Gastritis. PLAN: avoid fried food review in a week',
      ['avoid fried food']],
    ['someone else to be checked keeps who', 'ASSESSMENT: Scabies. PLAN: Her partner should also come and get checked.',
      ['her partner to come and get checked']],
    ['an adjective before a word that is also a verb does not split the item', 'ASSESSMENT: Insomnia. PLAN: keep regular sleep times avoid coffee after noon',
      ['keep regular sleep times', 'avoid coffee after noon']],
    ['a recogniser\'s plan line ends an instruction at "in the meantime"', 'ASSESSMENT: Sinusitis. PLAN: push fluids and drink warm soups in the meantime we will see how it goes',
      ['push fluids', 'drink warm soups']],
    ['as much as one can ends an instruction', 'ASSESSMENT: Eye strain. PLAN: avoid screens as much as you can wear the glasses for reading',
      ['avoid screens as much as you can', 'wear the glasses for reading']],
    ['what the patient should notice, a finding and what is left of "no vaping … use at all" are no instructions', 'ASSESSMENT: Knee sprain. PLAN: You should see a difference within a month. No overlying erythema. No vaping or e-cigarette use at all. Keep the knee elevated.',
      ['no vaping or e cigarette', 'keep the knee elevated']],
  ])('%s', (_, text, expected) => {
    expect(advice(text)).toEqual(expected);
  });
});

describe('what other facts and drugs take', () => {
  it('leaves out an instruction whose words another fact was read from', () => {
    const text = 'ASSESSMENT: Cough. PLAN: Get a chest x-ray today. Drink plenty of fluids.';
    const at = (t: string): Span[] => [{ start: t.indexOf('chest x-ray'), end: t.indexOf('chest x-ray') + 11 }];
    expect(advice(text, { used: at })).toEqual(['drink plenty of fluids']);
  });

  it('keeps self-monitoring and a diet that name a test, not the test ordered', () => {
    const text = 'ASSESSMENT: Diabetes. PLAN: Check your blood sugar every morning. Low sodium diet. Blood sugar fasting today.';
    const at = (t: string): Span[] => [['blood sugar every', 11], ['sodium', 6], ['blood sugar fasting', 11]].map(([w, n]) => ({ start: t.toLowerCase().indexOf(w as string), end: t.toLowerCase().indexOf(w as string) + (n as number) }));
    expect(advice(text, { used: at })).toEqual(['check your blood sugar every morning', 'low sodium diet']);
  });

  it('keeps a return said with its condition, though the follow-up was read from its words', () => {
    const text = 'ASSESSMENT: Otitis externa. PLAN: If it is not better, come back in a week.';
    const at = (t: string): Span[] => [{ start: t.indexOf('come back in a week'), end: t.indexOf('come back in a week') + 19 }];
    expect(advice(text, { used: at })).toEqual(['come back in a week if it is not better']);
  });

  it('keeps a drug not to be given, and the instruction said before a drug', () => {
    const text = 'ASSESSMENT: Cold. PLAN: Do not give the cough syrup. He\'ll continue his stretching exercises as well as the gabapentin.';
    expect(advice(text, { drugs: ['cough syrup', 'gabapentin'] })).toEqual(['do not give the cough syrup', 'continue his stretching exercises']);
  });

  it('keeps a drug held or not to be taken, not one the instruction gives', () => {
    const text = 'ASSESSMENT: Dizziness. PLAN: Hold the amlodipine for now. Use the amlodipine cream twice a day.';
    expect(advice(text, { drugs: ['amlodipine'] })).toEqual(['hold the amlodipine for now']);
  });
});

describe('a short list', () => {
  it(`keeps at most ${MAX_ITEMS}, the firmest first, in the order said`, () => {
    const text = consultation(
      'what should I do',
      'okay',
      'I think this is a migraine. Drink more water. Avoid bright screens. Sleep at regular times. Keep a headache diary. Cut down on coffee. ' +
        'Walk every day. I want you to come back if the headaches get more frequent. You should avoid skipping meals.',
      'thanks',
    );
    const out = advice(text, { mode: 'consultation' });
    expect(out).toHaveLength(MAX_ITEMS);
    expect(out).toContain('come back if the headaches get more frequent');
    expect(out).toContain('avoid skipping meals');
    expect(out.indexOf('come back if the headaches get more frequent')).toBeLessThan(out.indexOf('avoid skipping meals'));
  });

  it('ends an instruction where the doctor goes on to what we will do, and drops one cut off mid-phrase', () => {
    const text = consultation('what brings you in', 'my knee hurts', "okay so my plan is to rest it, and i want you to make an appointment we're gonna relook at it and determine if that swelling got any worse", 'okay');
    expect(advice(text)).toEqual(['make an appointment']);
    expect(advice(consultation('what brings you in', 'my knee hurts', 'okay so my plan is, i want you to check your temperature make sure all those parameters are', 'okay'))).toEqual([]);
  });

  it('writes one item once, however often it is said', () => {
    expect(advice('ASSESSMENT: Gastroenteritis. PLAN: Drink plenty of fluids. Make sure you drink plenty of fluids.')).toEqual(['drink plenty of fluids']);
  });

  it("reads a condition's own verb as the condition's, and drops a condition that lost its verb", () => {
    const cond = consultation('what brings you in', 'my shoulder hurts', "you may also continue to take tylenol now if your symptoms don't improve we can consider a steroid injection for your shoulder", 'okay');
    expect(advice(cond)).toEqual([]);
    // A condition without a subject keeps its instruction apart from the next one ("when sleepy | return visit …").
    expect(advice('assessment hypertension plan low salt diet walk after every meal and no driving when sleepy return visit in six weeks', { mode: 'dictation' }).some((a) => a.endsWith('no driving when sleepy'))).toBe(true);
    expect(advice(consultation('what brings you in', 'my ankle hurts', 'keep the leg raised and call me if the pain, you know', 'okay'))).toEqual(['keep the leg raised']);
  });

  it("keeps a verb with the doctor who says it: after 'gon na', an adverb, or 'what we need to do is'", () => {
    const talk = (line: string): string[] => advice(consultation('what brings you in', 'my wrist hurts', line, 'okay'));
    expect(talk("okay alright i'm gon na use this little needle here and i'm gon na poke here")).toEqual([]);
    expect(talk('we will monitor you but we usually do not do more than four times a year')).toEqual([]);
    expect(talk('what we need to do is get your wrist straight and then put screws in')).toEqual([]);
    expect(talk('what i need you to do is keep your wrist in the splint')).toEqual(['keep your wrist in the splint']);
  });

  it('reads an instruction ending on a tag ("…, OK?") and none that the doctor denies ("I don\'t think you need to …")', () => {
    const tagged = consultation('what brings you in', 'my ears hurt', "you'll see one of my doctors in the next few days. Just make sure you call support to book that appointment, OK?", 'I will.');
    expect(advice(tagged)).toEqual(['call support to book that appointment']);
    expect(advice(consultation('what brings you in', 'i feel low', 'Do you want to call support to book an appointment?', 'maybe'))).toEqual([]);
    expect(advice(consultation('what brings you in', 'i feel low', "i don't think you need to start on any medication at this time, okay?", 'yes'))).toEqual([]);
  });

  it('"I don\'t think you can/should …" is an instruction not to', () => {
    expect(advice(consultation('what brings you in', 'a fever', "so my plan is some blood tests. I don't think you should drive until the dizziness settles.", 'okay'))).toEqual(['do not drive until the dizziness settles']);
  });

  it('"you can self-refer / ring / book …" points the patient to a service: an instruction', () => {
    const text = consultation('what brings you in', 'anxiety', 'so my plan is some therapy. You can self-refer to the local talking therapy service. You can ring the support team to book a face-to-face appointment.', 'okay');
    expect(advice(text)).toEqual(['self refer to the local talking therapy service', 'ring the support team to book a face to face appointment']);
    expect(advice(consultation('what brings you in', 'a sprain', 'so my plan is an x-ray. You can call it a sprain, really.', 'okay'))).toEqual([]);
  });

  it('a referral to the emergency department or A&E says to go there; one to a specialty stays a referral', () => {
    expect(advice(consultation('what brings you in', 'a cough', "so my plan is a chest x-ray. so i'm gonna go ahead and refer you to the emergency department i'll call them", 'okay'))).toEqual(['go to the emergency department']);
    expect(advice(consultation('what brings you in', 'a cough', "so my plan is a chest x-ray. i'm going to refer you to cardiology", 'okay'))).toEqual(['referral to cardiology']);
  });

  it("a report's label before a colon is no instruction of its own: a heading is dropped, another label stays with its value", () => {
    expect(advice('DISCHARGE PLAN: Physical activity: with assistance. Diet: no restriction.')).toEqual(['physical activity with assistance', 'diet no restriction']);
  });

  it('a plan item that is only a hedge is no instruction', () => {
    expect(advice('PLAN:\n1. Most likely, the kidney function is chronic.\n2. Drink plenty of fluids.')).toEqual(['drink plenty of fluids']);
  });

  it('"it\'s important for you to …", "it would be good to …", "what I would suggest is, …" lead an instruction in', () => {
    expect(advice(consultation('what brings you in', 'a cough', "so my plan is rest. Then it's important for you to give us a call back if it gets worse.", 'okay'))).toEqual(['rest', 'give us a call back if it gets worse']);
    expect(advice(consultation('what brings you in', 'a cough', 'so my plan is rest. It would be good to drink plenty of fluids.', 'okay'))).toEqual(['rest', 'drink plenty of fluids']);
    expect(advice(consultation('what brings you in', 'a cough', 'so my plan is rest. What I would suggest is, go to the hospital straight away.', 'okay'))).toEqual(['rest', 'go to the hospital straight away']);
    expect(advice(consultation('what brings you in', 'a cough', "so my plan is rest. It's worth trying some honey and lemon.", 'okay'))).toEqual(['rest', 'try some honey and lemon']);
    expect(advice(consultation('what brings you in', 'a cough', "so my plan is rest. If it gets worse you'd need to come back and see us.", 'okay'))).toEqual(['rest', 'come back if it gets worse']);
    expect(advice(consultation('what brings you in', 'a cough', 'so my plan is rest. The main thing is to drink plenty of fluids.', 'okay'))).toEqual(['rest', 'drink plenty of fluids']);
    expect(advice(consultation('what brings you in', 'my back', "so my plan is rest. What I'd suggest is that you avoid lifting anything heavy.", 'okay'))).toEqual(['rest', 'avoid lifting anything heavy']);
  });

  it('a safety net said without a comma keeps its condition: "if he gets worse bring him back", "take him to A&E", "ring the surgery"', () => {
    const said = (line: string) => advice(consultation('what brings you in', 'my boy has diarrhoea', `so my plan is rest. ${line}`, 'okay'));
    expect(said('if he gets worse bring him back')).toEqual(['rest', 'bring him back if he gets worse']);
    expect(said('if he gets worse, take him to A&E.')).toEqual(['rest', 'take him to a&e if he gets worse']);
    expect(said("if he's still unwell after 3 days ring the surgery")).toEqual(['rest', "ring the surgery if he's unwell after 3 days"]);
    // The condition's own verb after a subject of several words is not an instruction.
    expect(said('come back if the pain in your leg gets worse')).toEqual(['rest', 'come back if the pain in your leg gets worse']);
  });

  it('"let me know if …" is a safety net; "let me have a look" is not advice', () => {
    expect(advice(consultation('what brings you in', 'headaches', "so my plan is rest. let me know if they're not better in a month.", 'okay'))).toEqual(['rest', 'let me know if they are not better in a month']);
    expect(advice(consultation('what brings you in', 'headaches', 'so my plan is rest. let me have a look at your eyes.', 'okay'))).toEqual(['rest']);
    expect(advice(consultation('what brings you in', 'headaches', 'so my plan is rest. let me know how that goes, and let me know if you have any questions.', 'okay'))).toEqual(['rest']);
    expect(advice(consultation('what brings you in', 'headaches', "so my plan is rest. let me know if you'd like me to send a new prescription.", 'okay'))).toEqual(['rest']);
  });

  it('a condition said after a drug, then ", and" another instruction, is the drug\'s', () => {
    expect(advice(consultation('what brings you in', 'a cough', 'so my plan is rest. take paracetamol if you have a temperature, and drink plenty of fluids.', 'okay'), { drugs: ['paracetamol'] }))
      .toEqual(['rest', 'drink plenty of fluids']);
  });

  it('"…, in which case he should …": the clause before is the condition; one that cannot be read leaves no instruction', () => {
    expect(advice('ASSESSMENT: Back pain.\nPLAN:\n1. Rest.\n2. Warning signs such as numbness in the saddle area were discussed, in which case he should go to the emergency department.'))
      .toEqual(['rest', 'go to the emergency department if warning signs such as numbness in the saddle area']);
    expect(advice('ASSESSMENT: Shingles.\nPLAN:\n1. Rest.\n2. We discussed that the rash may spread over the next few days and that he may develop a fever and joint pains and swelling of the glands in his neck, in which case he should return.'))
      .toEqual(['rest']);
  });

  it('a report\'s "she knows to call if …", "return to the ER for any chest pain" are safety nets; "return in 2 weeks" is the follow-up', () => {
    expect(advice('ASSESSMENT: Bronchitis.\nPLAN:\n1. Rest.\n2. She knows to call if her symptoms worsen.')).toEqual(['rest', 'call if her symptoms worsen']);
    expect(advice('ASSESSMENT: Bronchitis.\nPLAN:\n1. Rest.\n2. She knows to call me if she needs anything.')).toEqual(['rest']);
    expect(advice('ASSESSMENT: Chest wall pain.\nPLAN:\n1. Rest.\n2. He was told to return to the ER for any chest pain or shortness of breath.\n3. Return in 2 weeks for recheck.'))
      .toEqual(['rest', 'return to the er for any chest pain or shortness of breath']);
  });

  it("in talk, the plan said after the diagnosis in one unpunctuated line is read from the clause after it; a report's assessment is no plan", () => {
    expect(advice(consultation('what brings you in', 'i feel low', "it sounds like you're depressed i'll refer you to talking therapies you can also self refer online", 'okay')))
      .toEqual(['referral to talking therapies', 'self refer online']);
    expect(advice(consultation('what brings you in', 'i feel low', 'it sounds like you are depressed and need some rest', 'okay'))).toEqual([]);
    expect(advice('IMPRESSION: My overall impression is that we should treat his sleep disruption with measures to decrease apnea.')).toEqual([]);
  });

  it('a condition keeps the words that say when to act ("again", "too"), and "feel like", "foods like" keep their "like"', () => {
    const said = (line: string) => advice(consultation('what brings you in', 'my back', `so my plan is rest. ${line}`, 'okay'));
    expect(said('come back if it happens again.')).toEqual(['rest', 'come back if it happens again']);
    expect(said('if it gets too painful, you should call us.')).toEqual(['rest', 'call us if it gets too painful']);
    expect(said('if you ever feel like harming yourself, call the crisis line.')).toEqual(['rest', 'call the crisis line if you ever feel like harming yourself']);
    expect(said('um, just try foods like rice and bananas too.')).toEqual(['rest', 'try foods like rice and bananas']);
  });

  it('"call 999" is a whole instruction, and "if you get any …" its condition, not a question', () => {
    expect(advice(consultation('what brings you in', 'a cough', 'so my plan is rest. If you get any chest pain, call 999.', 'okay'))).toEqual(['rest', 'call 999 if you get any chest pain']);
  });
});

describe('where an instruction in run-on speech ends', () => {
  const talk = (said: string) => advice(consultation('what brings you in', 'my arm hurts', `so my plan is an x-ray. ${said}`, 'okay'));

  it('at a question, at what the nurse will do, at "and so …" and at "that may be easier"', () => {
    expect(talk('i would recommend a brace for your right forearm and my nurse will give this to you before you leave')).toEqual(['use a brace for your right forearm']);
    expect(talk('i want you to keep improving your diet and exercise how are things going with that')).toEqual(['keep improving your diet and exercise']);
    expect(talk('i am going to give you a referral to physical therapy for approximately 8 weeks and so they can help you strengthen those muscles')).toEqual([
      'referral to physical therapy for approximately 8 weeks']);
  });

  it('without the words a speaker said twice, or a word left hanging', () => {
    expect(talk("i'm going to put in a referral to referral to urology")).toEqual(['referral to urology']);
    expect(talk('i want you to stay active as best you can do not over')).toEqual(['stay active as best you can']);
    expect(talk('what i want you to do is just have you continue to push fluids and hopefully we can pass the stone')).toEqual(['push fluids']);
    expect(talk("if you have any trouble swallowing come back and see me sooner otherwise i'll see you in four weeks")).toEqual(['come back sooner if you have any trouble swallowing']);
  });

  it('one item for an instruction said again with other determiners', () => {
    expect(talk("we'll have you use a breathing treatments and see if that helps i want you to use the breathing treatments")).toEqual([
      'use a breathing treatments']);
  });

  it('what the patient need not do is no instruction', () => {
    expect(talk('i want you to not have to consistently be on pain medication')).toEqual([]);
    expect(talk("you don't have to wear the brace at night")).toEqual([]);
  });
});

describe('talk around the plan that reads like an instruction', () => {
  const talk = (said: string) => advice(consultation('what brings you in', 'my side hurts', `so my plan is an ultrasound. ${said}`, 'okay'));

  it('a subject said before "don\'t" keeps the verb its own', () => {
    expect(talk('you have probably had this for years most patients do not get any symptoms until much later')).toEqual([]);
    expect(talk('it can take a while and somebody can kinda check your wound at the practice')).toEqual([]);
  });

  it('topics talked about before, the doctor\'s acts on the patient and predictions are not advice', () => {
    expect(talk('for the other problems that we talked about briefly your knee is doing fine')).toEqual([]);
    expect(talk('the nurse will keep an eye on you and then i want you to drink plenty of water')).toEqual(['drink plenty of water']);
    expect(talk('after the tablet you should feel calm enough to have the scan done')).toEqual([]);
    expect(talk('please feel free to call the office if it is not getting better')).toEqual(['feel free to call the office if it is not getting better']);
  });

  it('a subject keeps its "also don\'t"; a lead-in in a relative clause or before a preposition leads nothing in', () => {
    const turn = (said: string) => advice(`Doctor: so my plan is an x-ray. ${said}`, { mode: 'consultation' });
    expect(turn('we also don\'t like strokes so we will not do that')).toEqual([]);
    expect(turn('do you have a job where you can elevate your ankle during the day')).toEqual([]);
    expect(turn('i recommend after the operation that you see the nurse')).toEqual([]);
    // A recogniser's "we got ta try to …", "I'm gon na try to …" is the doctor's own aim.
    expect(turn('we got ta try to get this under control and i will talk to your pcp')).toEqual([]);
    expect(turn("okay so i'm just gon na try to take off some of that dead skin here in the office")).toEqual([]);
    expect(turn('you got ta drink more water every day')).toEqual(['drink more water every day']);
  });

  it('reads the doctor\'s "gon na have you", "the best treatment is to", "I would avoid", "recommend not …ing" as instructions', () => {
    expect(talk("i'm gon na have you check your weights every day")).toEqual(['check your weights every day']);
    expect(talk('the best treatment at this point for your sprain is to keep your leg raised when you are sitting')).toEqual(['keep your leg raised when you are sitting']);
    expect(talk('i would avoid doing it and i would avoid the contact sports for a few months')).toEqual(['avoid the contact sports for a few months']);
    expect(talk('i would recommend not running or doing any sport for now')).toEqual(['do not run or do any sport for now']);
  });

  it('what the doctor has the patient do on the couch, an "even if" and a "when" told in the past lead no instruction in', () => {
    const turn = (said: string) => advice(`Doctor: so my plan is an x-ray. ${said}`, { mode: 'consultation' });
    expect(turn("now i'm gon na have you lie on your back and i'll press on your tummy")).toEqual([]);
    expect(turn("i'm gon na have you even if you pass the stone tomorrow i want you to go anyway")).toEqual(['go anyway if you pass the stone tomorrow']);
    expect(turn('the tendon got stretched when you fell the best treatment for the sprain is to keep your leg raised')).toEqual(['keep your leg raised']);
  });

  it('what the treatment is for ("to get the swelling down", "have this fracture healed") is no instruction; getting a reading checked is', () => {
    const turn = (said: string) => advice(`Doctor: so my plan is an x-ray. ${said}`, { mode: 'consultation' });
    expect(turn('i want you to keep that ankle elevated and try to get some of the swelling down')).toEqual(['keep that ankle elevated']);
    expect(turn('you can not play football for a while you have to have this fracture healed')).toEqual([]);
    expect(turn('the hope is to reduce some of the inflammation that you are seeing here')).toEqual([]);
    expect(turn('i want you to get your blood pressure checked at the pharmacy every week')).toEqual(['get your blood pressure checked at the pharmacy every week']);
    expect(turn('i want you to reduce activity until symptoms subside')).toEqual(['reduce activity until symptoms subside']);
  });

  it('a short command "for me" is the examination\'s; a gerund after "consider" is a possibility, one recommended an imperative', () => {
    expect(advice('PLAN: Rest for me. Keep a headache diary for me.')).toEqual(['keep a headache diary for me']);
    expect(advice('PLAN: The surgeon may consider taking the gallbladder out, that could help. Taking the stairs every day would be helpful.')).toEqual(['take the stairs every day']);
  });
});

describe('report plan items that are no instruction', () => {
  it('history headings, a finding\'s label, care someone else gives, talk of a discussion, a purpose', () => {
    expect(advice('PLAN: The patient will remain at rest. Family history, social history, and psychosocial needs per the social worker. Pathology: mullerian adenosarcoma.')).toEqual(['rest']);
    expect(advice('RECOMMENDATIONS: 1. After extensive discussion, no further testing. 2. At some point in time; however, I would recommend a job change.')).toEqual([]);
    expect(advice(consultation('what brings you in', 'a cough', "so my plan is a covid test, just to make sure that you don't have covid. Make sure you don't smoke.", 'okay'))).toEqual(['do not smoke']);
    expect(advice(consultation('what brings you in', 'a fall', "so my plan is an mri, i just wanna make sure that you you're not suffering from a concussion", 'okay'))).toEqual([]);    expect(advice('PLAN: The base of the digit tip was prepped with Betadine, and just distal to the DIP joint, a digital block was applied. Return if redness.')).toEqual(['return if redness']);
  });

  it('a finding said absent is no instruction to go without ("no rebound", "no chest pain", "no high blood pressure"); an activity is', () => {
    const talk = (line: string): string[] => advice(consultation('what brings you in', 'my stomach hurts', line, 'okay'));
    expect(talk('alright no rebound no guarding that is great')).toEqual([]);
    expect(talk('and no chest pain no high blood pressure anything like that')).toEqual([]);
    expect(talk('so my plan is rest. no heavy lifting for two weeks')).toEqual(['rest', 'no heavy lifting for 2 weeks']);
    expect(talk('so my plan is rest. no smoking, no alcohol')).toEqual(['rest', 'no smoking', 'no alcohol']);
  });

  it('a verb after a subject or "help" says what happens or what a treatment does, not what to do', () => {
    const talk = (line: string): string[] => advice(consultation('what brings you in', 'my knee is swollen', line, 'okay'));
    expect(talk("so my plan is some naproxen and that's going to help reduce the swelling")).toEqual([]);
    expect(talk('i want you to chew your food slowly as things get stuck and they stop halfway').some((a) => /^(?:get|stop)\b/.test(a))).toBe(false);
    expect(talk("so my plan is a prescription i'll have my nurse come in with that prescription")).toEqual([]);
  });

  it('a cue said negated, asked, or told of an earlier visit gives no instruction', () => {
    const talk = (line: string): string[] => advice(consultation('what brings you in', 'my back hurts', line, 'okay'));
    expect(talk("so my plan is physio i don't necessarily recommend taking gummies at the same time")).toEqual([]);
    expect(talk('so my plan is physio do you need to make an appointment for that')).toEqual([]);
    expect(talk('so my plan is physio last time we talked about you getting a back brace and wearing it at work')).toEqual([]);
  });

  it('a question or a purpose left hanging at the end of a run-on instruction is not written', () => {
    const talk = (line: string): string[] => advice(consultation('what brings you in', 'my chest hurts', line, 'okay'));
    expect(talk('so my plan is an ecg i want you to drink plenty of water just to see if')).toEqual(['drink plenty of water']);
    expect(talk('so my plan is an ecg i want you to keep a diary of the pain are you having any pain now')).toEqual(['keep a diary of the pain']);
    expect(talk('so my plan is an ecg i want you to follow up with your cardiologist and make sure that')).toEqual(['follow up with your cardiologist']);
  });

  it('"I would probably advise you to …" and "you can drink / elevate / wear …" are instructions; "that would help" ends one', () => {
    const talk = (line: string): string[] => advice(consultation('what brings you in', 'a tummy bug', line, 'okay'));
    expect(talk('so my plan is rest. I would probably advise you to stay off work for a day or two.')).toEqual(['rest', 'stay off work for a day or 2']);
    expect(talk('so my plan is rest. the things you can do are you can drink plenty of fluids.')).toEqual(['rest', 'drink plenty of fluids']);
    expect(talk('so my plan is rest. if you can drink plenty of water that would help')).toEqual(['rest', 'drink plenty of water']);
  });

  it('a report\'s "I also suggested that he …", "I have advised her to …" and "getting him set up with …"', () => {
    expect(advice('ASSESSMENT: Back pain. PLAN: I also suggested that he reestablish contact with his rheumatologist.')).toEqual(['reestablish contact with his rheumatologist']);
    expect(advice('ASSESSMENT: Back pain. PLAN: I have advised her to avoid heavy lifting.')).toEqual(['avoid heavy lifting']);
    expect(advice('ASSESSMENT: Back pain. PLAN: We will see about getting him set up with physical therapy for his back pain.')).toEqual(['physical therapy for his back pain']);
  });

  it('a letter without headings: its plan opens where the doctor says what was advised or given', () => {
    const letter = 'Dear Dr Shah, thank you for referring this lady with palpitations. She drinks five cups of coffee a day. On examination her pulse was 72 and regular. '
      + 'In the meantime I have advised her to cut down on caffeine. I will see her again in 6 weeks.';
    expect(advice(letter)).toEqual(['cut down on caffeine']);
  });
});


describe('statements of an assessment read as instructions (unseen MTSamples reports, session 38)', () => {
  const items = (text: string) => structure(text, { locale: 'en-US' }).advice;
  it('"Increasing back and joint pain" is a finding and "no clear-cut etiology" a statement, not advice', () => {
    expect(items('IMPRESSION: 1. Lupus. 2. Increasing back and joint pain, possibly related to lupus.')).toEqual([]);
    expect(items('IMPRESSION AND PLAN: Accelerated hypertension. No clear-cut etiology for recent worsening.')).toEqual([]);
    expect(items('PLAN: Increase fluids and rest.')).toEqual(['increase fluids', 'rest']);
  });
  it('"avoid lifting, driving, stairs, or intercourse": the list after a verb is one instruction, to its last item', () => {
    expect(items('PLAN: She will avoid lifting, driving, stairs, or intercourse.')).toEqual(['avoid lifting, driving, stairs, or intercourse']);
    expect(items('PLAN: Avoid dairy, spicy food, and alcohol.')).toEqual(['avoid dairy, spicy food, and alcohol']);
    // Instructions of their own stay apart, and so do nouns after a one-word instruction.
    expect(items('PLAN: Rest, drink fluids, and take paracetamol.')).toEqual(['rest', 'drink fluids']);
    expect(items('PLAN: Rest, fluids, and paracetamol.')).toEqual(['rest']);
  });
  it('what was done at the visit ("Gave … handout", "Completed …"), a "well-child check" and a test ordered are no advice', () => {
    expect(items('PLAN: Gave 5-year well-child check handout to mom. Completed school pre-participation physical.')).toEqual([]);
    expect(items('PLAN:,1.  CBC, complete metabolic profile, UA for hypertension.')).toEqual([]);
    expect(items('PLAN: Give the child rest and fluids.')).toEqual(['give the child rest and fluids']);
  });
});

describe('counselling and condition names in a report plan (unseen MTSamples reports, session 39)', () => {
  const items = (text: string): string[] => structure(text, { locale: 'en-US', mode: 'dictation' }).advice;
  it('counselling on a subject told about is no instruction; counselling on care is', () => {
    expect(items('PLAN: We talked about her menarche. We talked about the side effects.')).toEqual([]);
    expect(items('PLAN: I talked about ways to improve her potty training.')).toEqual(['ways to improve her potty training']);
  });

  it('a plan item that only names a condition is the assessment\'s, not advice', () => {
    expect(items('PLAN: 1. Discussed vasomotor rhinitis. 2. Mucosal candidiasis. 3. Exam with Pap annually.')).toEqual(['exam with pap annually']);
  });
});

describe('a report plan sentence led by words before its own subject (unseen MTSamples reports, session 39)', () => {
  const items = (text: string): string[] => structure(text, { locale: 'en-US', mode: 'dictation' }).advice;
  it('"After-hours, he can go …", "At present, we are going to …" lead their clause; they are no plan item', () => {
    expect(items('PLAN: After-hours, he can go to the emergency room. At present, we are going to add digoxin.')).toEqual([]);
    expect(items('PLAN: I gave him a prescription for Neurontin. We discussed different options.')).toEqual([]);
  });

  it('the colon of a time ("at 8:15 in the morning") ends no clause', () => {
    expect(items('PLAN: His appointment is at 8:15 in the morning. He is going to have a scan.')).toEqual([]);
  });

  it('an e-prescription\'s "Refills: 2 Allow Generic: No" and an "including …" aside are no advice', () => {
    expect(items('PRESCRIPTIONS: Vioxx Dosage: 12.5 mg tablet Sig: BID Dispense: 30 Refills: 2 Allow Generic: No. PLAN: Rest.')).toEqual(['rest']);
    expect(items('PLAN: He has had multiple stressors, including a bankruptcy in 2000, as well as his wife\'s illness.')).toEqual([]);
  });

  it('care said before another clause stays an item', () => {
    expect(items('PLAN: Low salt diet, she should walk daily.')).toEqual(['low salt diet', 'walk daily']);
    expect(items('PLAN: Reviewed inhaler technique with him.')).toEqual(['inhaler technique with him']);
  });
});

describe('words to the scribe and findings dictated in a consultation', () => {
  // Said after the diagnosis, where a consultation's plan is read.
  const told = (words: string): string[] => advice(consultation('Hello.', 'My knee hurts.', `So you have osteoarthritis of the knee. ${words} Drink plenty of fluids.`, 'Okay.'), { mode: 'consultation' });

  it('a command to the scribe or the dictation system is no advice', () => {
    expect(told('Use my general physical exam template. Use the short PE. Please insert the procedure paragraph in the plan.')).toEqual(['drink plenty of fluids']);
  });

  it('a finding said absent after its site ("no calf tenderness", "no ankle edema is noted") is no advice, an activity with its condition is', () => {
    expect(told('No ankle edema is noted. No calf tenderness. No focal sensory deficit noted. Make sure you\'re not nauseated.')).toEqual(['drink plenty of fluids']);
    expect(told('No driving when drowsy.')).toEqual(['no driving when drowsy', 'drink plenty of fluids']);
  });

  it('talk with its subject left out ("… don\'t really see any abnormalities", "the first thing i\'d try is …", "stay put for me") is no advice', () => {
    expect(told('Okay, perfect. So, stay put for me now. I don\'t see any fractures, uh, don\'t really see any abnormalities at all. So the first thing i\'d try is changing your diet.')).toEqual(['drink plenty of fluids']);
  });

  it('the clinician\'s own act cut from its subject by a hesitation ("I\'ll um, book another appointment") is no advice', () => {
    expect(told('I\'ll um, book another appointment, to see you soon.')).toEqual(['drink plenty of fluids']);
    expect(told('Um, book another appointment to see us soon.')).toEqual(['book another appointment to see us soon', 'drink plenty of fluids']);
  });

  it('a condition whose words all dangle ("if it\'s not") is left off rather than printed as "… if"', () => {
    expect(advice(consultation('Hello.', 'My throat hurts.', 'So you have a sore throat. I expect this to be getting better in four or five days. Um, if it\'s not, please get in touch with a medical professional again.', 'Okay.'), { mode: 'consultation' }))
      .toEqual(['get in touch with a medical professional']);
  });

  it('findings said absent without a symptom word ("no loss of muscle tone", "no abnormal masses", "no egophony", "no complications"), a noun before a modal ("aspirin use can …"), sleep-study results and history questions without their question mark are no advice', () => {
    expect(told('So your strength is good, no loss of muscle tone there. No abnormal masses present. No egophony or tactile fremitus. No bluish discoloration, no sign of any infection. So no complications.')).toEqual(['drink plenty of fluids']);
    expect(told('Aspirin use can cause stomach upset. We now have added obstructive sleep apnea. And no periodic limb movements during sleep, with less than one episode per hour.')).toEqual(['drink plenty of fluids']);
    expect(told('No heavy lifting for two weeks.')).toEqual(['no heavy lifting for 2 weeks', 'drink plenty of fluids']);
    expect(told('No drug allergies. How about food allergies. Any sudden weight loss. No one else suffers from heart problems. You do not have history of skin disease, never been on any antidepressants. No side effects. No pus cells or blood present. Those do not look good.')).toEqual(['drink plenty of fluids']);
  });

  it('a verb after "still", "already" or "frequent" is not an imperative ("I still see your white cells high", "more frequent check ins")', () => {
    expect(told('After all this I still see your white blood cells high. We will have more frequent check ins because of that.')).toEqual(['drink plenty of fluids']);
  });

  it('an examination command ("kick it out straight", "keep it loose") is no advice', () => {
    expect(told('Bring it back and kick it out straight. Keep it loose.')).toEqual(['drink plenty of fluids']);
  });
});

describe('report statements and denials that are no instruction (screens, session 47)', () => {
  it.each([
    ['a history said in the plan', 'PLAN: No previous history of heart disease. No immediate indication for anticoagulation. No orders left.'],
    ['the patient described', 'PLAN: She primarily appears to need counseling. He currently appears stable. She normally gets her care through the county clinic.'],
    ['a time ago, a denial\'s reason', 'PLAN: You stopping smoking 2 years ago. No because you are having this vision loss from the mass.'],
    ['a finding denied', 'PLAN: No distress. Not better.'],
    ['a list of conditions (risks told)', 'PLAN: Gynecomastia, hot flashes and impotency. Stricture formation, incontinence and impotency.'],
  ])('%s', (_, text) => {
    expect(advice(text)).toEqual([]);
  });
  it('an instruction beside them is still one', () => {
    expect(advice('PLAN: No previous history of heart disease. No driving for 3 weeks. Walk 30 minutes a day.')).toEqual(['no driving for 3 weeks', 'walk 30 minutes a day']);
    expect(advice('PLAN: Ice and elevation.')).toEqual(['ice and elevation']);
  });
});

describe('where a consultation turns to its plan (session 48)', () => {
  it('"I think you\'re probably suffering from what we call …" and "the things you can do" open it', () => {
    const text = consultation(
      'Hello, what brings you in today?',
      "I've had diarrhoea for three days.",
      'Any blood in it?',
      'No.',
      'Any vomiting?',
      'No.',
      'Having listened to your story, I think you\'re probably suffering from what we call gastroenteritis, a tummy bug.',
      'OK.',
      'The things you can do to help yourself get better soon are you can drink plenty of fluids.',
      'OK.',
      'Do you have any questions?',
      'No.',
      'Did you come by car today?',
      'Yes, my wife drove me.',
      'Is she waiting outside?',
      'Yes, she is.',
      'Alright, take care.',
      'Thanks.',
    );
    expect(structure(text, { locale: 'en-GB', mode: 'consultation' }).advice).toContain('drink plenty of fluids');
  });
});

describe('things given to wear or use (session 49)', () => {
  const talk = (...lines: string[]): string[] => advice(consultation('what brings you in', 'i twisted my ankle', 'here is my plan', 'okay', ...lines.flatMap((l) => [l, 'okay'])));

  it('an order of a splint, cast, crutches or boot is the item, written as using it', () => {
    expect(talk("i'm gonna give you an air cast to help you stabilize the ankle")).toEqual(['use an air cast to help you stabilize the ankle']);
    expect(talk("we'll get you some crutches")).toEqual(['use some crutches']);
    expect(talk("i'm gon na put you in a boot for two weeks")).toEqual(['use a boot for 2 weeks']);
    expect(talk("you're going to be given a knee immobilizer")).toEqual(['use a knee immobilizer']);
    expect(talk("i'm going to put you on a low salt diet")).toEqual(['low salt diet']);
  });

  it('the next instruction that wears it names it, one item', () => {
    expect(talk("i'd like to put you in a splint and it's kind of a wrist splint i would like you to wear that at night")).toEqual(['wear the splint at night']);
  });

  it('an instruction said after the care ends it, and a lead-in after "if" is the condition\'s', () => {
    expect(talk("i'm gon na order a sling for your right arm and you can wear this while you're awake")).toEqual(['wear the sling while you are awake']);
    expect(talk('i can give you another refill if you need to help with the breathing')).toEqual([]);
  });
});

describe('courtesies that are no instruction (session 49)', () => {
  const talk = (line: string): string[] => advice(consultation('what brings you in', 'my knee hurts', `here is my plan, rest the knee. ${line}.`, 'okay'));
  it('"call me if you need anything" and "call with any questions" are not advice; a worry said is', () => {
    expect(talk('call me if you need anything')).toEqual(['rest the knee']);
    expect(talk('give us a call if you have any questions')).toEqual(['rest the knee']);
    expect(talk('call me if anything happens')).toEqual(['rest the knee', 'call me if anything happens']);
    expect(talk('call me if the pain gets worse')).toEqual(['rest the knee', 'call me if the pain gets worse']);
  });
});

describe('an instruction whose only object is a pronoun (session 49)', () => {
  const talk = (line: string): string[] => advice(consultation('what brings you in', 'my knee hurts', `here is my plan, rest the knee. ${line}.`, 'okay'));
  it('"take those daily", "bring those back" say nothing to the note; "take it easy" does', () => {
    const line = "we have to keep track of your sugars alright so i want you to take those daily we'll get a log book so you can keep track of those and bring those back and we can see how we adjust your medicine";
    expect(advice(consultation('what brings you in', 'my sugars are high', line, 'okay'))).toEqual([]);
    expect(talk('take it easy for a few days')).toEqual(['rest the knee', 'take it easy for a few days']);
  });
});

describe('a diet amount and a courtesy (session 50)', () => {
  const talk = (line: string): string[] => advice(consultation('what brings you in', 'my ankles swell', `here is my plan, rest the knee. ${line}.`, 'okay'));
  it('a thousands separator ends no clause, and an amount of a nutrient is a diet, not a dose', () => {
    expect(talk('you should consume less than 1,000 milligrams of sodium a day')).toEqual(['rest the knee', 'consume less than 1,000 milligrams of sodium a day']);
    expect(talk('take 2 tablets of paracetamol')).toEqual(['rest the knee']);
  });
  it('"please call if you think of any questions" is a courtesy', () => {
    expect(talk('please call if you think of any questions')).toEqual(['rest the knee']);
  });
});

describe('"continue for now" says nothing to continue (session 53)', () => {
  const talk = (line: string): string[] => advice(consultation('what brings you in', 'my ankles swell', `here is my plan, rest the knee. ${line}.`, 'okay'));
  it('a continue without its object is no instruction; one with it still is', () => {
    expect(talk('just continue as before')).toEqual(['rest the knee']);
    expect(talk('he will continue for now')).toEqual(['rest the knee']);
    expect(talk('carry on with your exercises')).toEqual(['rest the knee', 'carry on with your exercises']);
  });
  it('"don\'t restart it", "keep taking it": a drug\'s verb whose object was a pronoun says nothing on its own', () => {
    expect(talk("they stopped your diltiazem, so don't restart it")).toEqual(['rest the knee']);
    expect(talk('keep taking it')).toEqual(['rest the knee']);
  });
});

describe('a noun after an adjective is no instruction of its own (session 56)', () => {
  it('"if you feel shaky, sweaty or confused, have some sugary drink straight away" is not cut at "drink"', () => {
    for (const text of ['Doctor: Gliclazide can make your sugar go too low, so if you feel shaky, sweaty or confused, have some sugary drink straight away.', 'Doctor: if you feel shaky or sweaty have some sugary drink straight away']) {
      const advice = structure(text, { locale: 'en-GB', mode: 'consultation' }).advice;
      expect(advice.filter((a) => /sugary$|^drink straight/.test(a))).toEqual([]);
    }
  });
});

describe('a limit on alcohol in units is advice, not a dose (session 56)', () => {
  it('"cut down the alcohol to under 14 units a week"', () => {
    const advice = (t: string) => structure(`Doctor: ${t}`, { locale: 'en-GB', mode: 'consultation' }).advice;
    expect(advice("I'd also like you to cut down the alcohol to under 14 units a week and try to reduce the salt in your food."))
      .toEqual(['cut down the alcohol to under 14 units a week', 'reduce the salt in your food']);
    expect(advice('drink no more than 14 units of alcohol a week.')).toEqual(['drink no more than 14 units of alcohol a week']);
  });
});

describe('a condition goes with the instruction it is said for (session 56)', () => {
  const advice = (t: string) => structure(t, { locale: 'en-GB', mode: 'consultation' }).advice;
  it('"let me know if that happens." keeps its condition: the next sentence\'s instruction does not take it', () => {
    expect(advice("Doctor: It can cause ankle swelling, so let me know if that happens. I'd also like you to cut down the alcohol to under 14 units a week."))
      .toEqual(['cut down the alcohol to under 14 units a week']);
    expect(advice("Doctor: it can cause ankle swelling so let me know if that happens i'd also like you to cut down the alcohol to under fourteen units a week"))
      .toEqual(['cut down the alcohol to under 14 units a week']);
  });
  it('said without a break, a condition at an instruction\'s end is the next one\'s; a call keeps its own', () => {
    expect(advice('Doctor: drink plenty of fluids if you get a fever or back pain see a doctor the same day'))
      .toEqual(['drink plenty of fluids', 'see a doctor the same day if you get a fever or back pain']);
    expect(advice("Doctor: raise the head of the bed a little if the cough isn't better in six weeks we'll get a chest x-ray")).toEqual(['raise the head of the bed a little']);
    expect(advice('Doctor: call us if it gets worse we will see you in a week')).toEqual(['call us if it gets worse']);
    expect(advice('Doctor: Drink plenty of fluids if you get a fever.')).toEqual(['drink plenty of fluids if you get a fever']);
  });
});

describe("a clinic letter's close is no advice (session 57)", () => {
  it('"Yours sincerely," after the plan\'s numbered items is not an item', () => {
    const text = 'Plan:\n1. Start ramipril 2.5 mg once daily.\n2. Please avoid NSAIDs.\nI will see him again in 3 months.\n\nYours sincerely,\n';
    expect(structure(text, { locale: 'en-GB', mode: 'dictation' }).advice).toEqual(['avoid nsaids']);
  });
});

describe('heart failure safety-netting (session 57)', () => {
  const advice = (t: string) => structure(t, { locale: 'en-GB', mode: 'consultation' }).advice;
  it('"weigh yourself every morning and if your weight goes up …, ring us": the condition before the comma is the call\'s', () => {
    expect(advice('Doctor: Weigh yourself every morning and if your weight goes up by more than two kilos in three days, ring us.'))
      .toEqual(['weigh yourself every morning', 'ring us if your weight goes up by more than 2 kilos in 3 days']);
  });
  it('"breathless at rest": "rest" after "at" is no instruction to rest', () => {
    expect(advice("Doctor: If you get breathless at rest or can't lie flat, call 999.")).toEqual(['call 999 if you get breathless at rest or cannot lie flat']);
    expect(advice('Doctor: if you get chest pain at rest call nine nine nine')).toEqual(['call 999 if you get chest pain at rest']);
  });
});

describe('sleep advice (session 57)', () => {
  const advice = (t: string) => structure(t, { locale: 'en-GB', mode: 'consultation' }).advice;
  it('"I\'d like you to cut out caffeine …" opens the plan: the advice before a drug talked about later is read', () => {
    expect(advice("Doctor: I'd like you to cut out caffeine after midday and stop the wine in the evenings. I'm not keen on sleeping tablets, but if you're no better in three weeks, we could think about a short course of zopiclone."))
      .toEqual(['cut out caffeine after midday', 'stop the wine in the evenings']);
  });
  it('"alcohol makes sleep worse …" says what alcohol does: no instruction to sleep, no plan item', () => {
    expect(advice("Doctor: That's probably not helping. Alcohol makes sleep worse in the second half of the night. I'd like you to cut out caffeine after midday."))
      .toEqual(['cut out caffeine after midday']);
  });
  it('"i think this is angina so …" said in under forty words still gives the instructions after the diagnosis', () => {
    expect(advice('Doctor: i think this is angina so if the pain does not settle after two puffs i want you to go to the hospital'))
      .toEqual(['go to the hospital if the pain does not settle after 2 puffs']);
  });
});

describe('a condition the sentence before settled or answered is not the next instruction\'s (session 57)', () => {
  const advice = (t: string) => structure(t, { locale: 'en-GB', mode: 'consultation' }).advice;
  it('"If you can\'t get hold of that, cefalexin would do instead. Drink plenty of fluids." gives the fluids no condition', () => {
    expect(advice("Doctor: I'll switch you to nitrofurantoin 100 mg twice a day for three days. If you can't get hold of that, cefalexin would do instead. Drink plenty of fluids."))
      .toEqual(['drink plenty of fluids']);
  });
  it('"… montelukast if things hadn\'t improved, but we don\'t need that now. See the nurse …" gives the nurse no condition', () => {
    expect(advice("Doctor: Stay on Fostair two puffs twice a day. I was going to suggest montelukast if things hadn't improved, but we don't need that now. See the nurse for an inhaler check."))
      .toEqual(['see the nurse for an inhaler check']);
  });
  it('"We could think about reducing the propranolol … if things stay settled. Keep your headache diary going." gives the diary no condition', () => {
    expect(advice('Doctor: We could think about reducing the propranolol in six months if things stay settled. Keep your headache diary going.'))
      .toEqual(['keep your headache diary going']);
    // A return or a call after it is what such a condition is said for, also where a recogniser split the line there.
    expect(advice('Doctor: We will review you in a month if the swelling gets worse. Come back sooner.')).toEqual(['come back sooner if the swelling gets worse']);
  });
  it('a condition left open at a sentence\'s end is still the next instruction\'s', () => {
    expect(advice("Doctor: The rash should settle in a few days. If it spreads or you get a fever. Come back and see me.")).toEqual(['come back if it spreads or you get a fever']);
  });
});

describe('"get hold of" is no instruction to hold (session 57)', () => {
  it('"if you can\'t get hold of that cefalexin would do instead drink plenty of fluids" gives only the fluids', () => {
    expect(structure("Doctor: if you can't get hold of that cefalexin would do instead drink plenty of fluids", { locale: 'en-GB', mode: 'consultation' }).advice)
      .toEqual(['drink plenty of fluids']);
  });
});

describe('"or you have …" in a safety net (session 58)', () => {
  it('"If you can\'t swallow fluids or you have trouble breathing, go to A&E." is advice, not a diagnosis told', () => {
    expect(structure("Doctor: This looks like tonsillitis. If you can't swallow fluids or you have trouble breathing, go to A&E.", { locale: 'en-GB', mode: 'consultation' }).advice)
      .toEqual(['go to a&e if you cannot swallow fluids or you have trouble breathing']);
  });
});
