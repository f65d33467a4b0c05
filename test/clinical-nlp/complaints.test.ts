import { describe, expect, it } from 'vitest';
import { findDurations } from '../../server/clinical-nlp/durations.js';
import { durationDays } from '../../server/clinical-nlp/facts.js';
import { normalizeText } from '../../server/clinical-nlp/lexicon.js';
import { structure } from '../../server/clinical-nlp/structure.js';

const complaints = (text: string) => structure(text, { locale: 'en-IN' }).complaints;
const names = (text: string) => complaints(text).map((c) => c.name);
const days = (text: string, name: string) => {
  const c = complaints(text).find((x) => x.name === name);
  return c?.duration ? durationDays(c.duration) : null;
};

describe('lay phrases become the note’s complaint', () => {
  it.each([
    ['Patient: my chest feels so tight when I climb the stairs.', 'chest tightness on climbing stairs'],
    ['Mother: since last night he keeps pulling at his ear and crying.', 'ear pain'],
    ['Patient: since morning she is throwing up everything.', 'vomiting'],
    ['Patient: when I turn over it feels like the room is spinning.', 'vertigo'],
    ['Patient: by evening my ankles swell up.', 'ankle swelling'],
    ['Patient: my knee has swelled.', 'swelling of knee'],
    ['Patient: my ankles are swollen.', 'ankle swelling'],
    ['Patient: I am passing water again and again, even at work.', 'urinary frequency'],
    ['Patient: there is burning when I pee.', 'burning micturition'],
    ['Patient: I keep needing to wee, day and night.', 'urinary frequency'],
    ['Patient: it stings when I go to the toilet.', 'burning micturition'],
    ['Doctor: burning when you pass urine?\nPatient: yes, it stings.', 'burning micturition'],
    ['Father: he hasn’t pooped in four days.', 'constipation'],
    ['Patient: I get winded walking to the bus stop.', 'breathlessness on exertion'],
    ['Patient: I get puffed out walking up hills.', 'breathlessness on exertion'],
    ['Patient: my left knee is killing me.', 'left knee pain'],
    ['Patient: I was raking leaves and then my back started tightening up.', 'back tightness'],
    ["Patient: I'm getting really stressed out because, like, my heart, it's really going.", 'palpitations'],
    ['Patient: I can feel my heart beating in my chest at night.', 'palpitations'],
    ['Patient: my head is pounding all the time.', 'headache'],
    ['Patient: I have to sleep propped up on three pillows.', 'orthopnoea'],
    ["Patient: I woke up this morning and I couldn't move my left arm any more.", 'unable to move left arm'],
    ['Patient: my speech is slurred since this morning.', 'difficulty speaking'],
    ["Patient: it's harder to speak, I need to think more about the words.", 'difficulty speaking'],
    ['Patient: the skin on my hands is cracked and sore.', 'cracked skin'],
    ['Patient: my mouth is dry all the time.', 'dry mouth'],
    ["Patient: I've lost my sense of smell since the cold.", 'loss of smell'],
    ['Patient: I bruise easily these days.', 'easy bruising'],
    ['Patient: my nails are brittle.', 'brittle nails'],
    ['Mother: his skin looks yellow.', 'jaundice'],
    ['Patient: I get this burning in my stomach after I eat.', 'epigastric burning'],
  ])('%s → %s', (text, name) => {
    expect(names(text)).toContain(name);
  });

  it('finds a phrase with filler words inside it', () => {
    expect(names('Patient: my chest really feels so tight these days.')).toEqual(['chest tightness']);
  });

  it('names a site and a kind said apart, and shares a site across a list', () => {
    expect(names('sixty year old man with painful redness and swelling of the right foot since two days.')).toEqual([
      'right foot pain',
      'redness of right foot',
      'swelling of right foot',
    ]);
    expect(names('Patient: I twisted my right ankle. By night it was swollen and it hurts when I walk.')).toEqual(
      expect.arrayContaining(['swelling of right ankle', 'right ankle pain']),
    );
  });

  it('keeps what was said when it is already a clinical name', () => {
    expect(names('thirty year old man with runny nose and throat pain since two days.')).toEqual(['runny nose', 'throat pain']);
  });

  it('names a burning in the chest heartburn, and acidity only when it is said', () => {
    expect(names('Patient: There is burning in my chest after eating, and sour water comes up into my mouth.')).toEqual(['heartburn', 'acid regurgitation']);
    expect(names('Patient: I have acidity at night for a week.')).toEqual(['acidity']);
  });

  it('names thoughts of suicide told in plain words, and feeling flat low mood; a denial of them is none', () => {
    const told = (answer: string) => names(`Doctor: Have you had any thoughts of harming yourself?\nPatient: ${answer}`);
    expect(told("Sometimes I think everyone would be better off without me, but I wouldn't do anything.")).toEqual(['suicidal thoughts (better off without)']);
    expect(told("I've thought about killing myself.")).toEqual(['suicidal thoughts']);
    expect(told("No, I've never wanted to kill myself.")).toEqual([]);
    expect(told("I don't want to harm myself.")).toEqual([]);
    expect(names('Patient: I hurt myself playing football, and my knee is killing me.')).toEqual(['knee pain']);
    expect(names('Patient: I feel flat most days.')).toEqual(['low mood']);
  });
});

describe('consultations', () => {
  it('a no to the doctor’s question is a denial, a yes a complaint', () => {
    const text = [
      'Doctor: what brings you here?',
      'Patient: cough since one week.',
      'Doctor: any fever?',
      'Patient: no, not really.',
      'Doctor: do you have chest pain?',
      'Patient: yes, sometimes.',
      'Patient: no vomiting, no loose motions.',
    ].join('\n');
    expect(names(text)).toEqual(['cough', 'chest pain']);
  });

  it('a symptom said back to the question and then denied is denied ("diarrhea no", "chest pain no not really")', () => {
    expect(names('Doctor: how about any tummy trouble\nPatient: diarrhea no\nDoctor: any chest pain\nPatient: chest pain no not really\nDoctor: any cough\nPatient: cough yes')).toEqual(['cough']);
  });

  it('a kind asked about "with it" is at the site of the complaint told before', () => {
    const text = 'Patient: my left knee has been swelling up.\nDoctor: and do you get any pain with it?\nPatient: some pain, mostly on the stairs.';
    expect(names(text)).toEqual(['swelling of left knee', 'left knee pain']);
  });

  it('a short answer that says the kind again takes the site the question named', () => {
    expect(names("Doctor: any itching in your palms?\nPatient: Yeah, it's itchy.")).toEqual(['itching of palms']);
    // A longer answer may tell of another time: "it did … but right now it's not swollen".
    expect(names("Doctor: does the knee look swollen?\nPatient: Um, well it did, the first time I ran, it was a little bit swollen, but right now it's not swollen.")).not.toContain('swelling of knee');
  });

  it('a duration answering the question takes the symptom asked about', () => {
    const text = 'Doctor: any headache?\nPatient: since two days, yes.';
    expect(days(text, 'headache')).toBe(2);
  });

  it('a question naming a diagnosis, asked without its question mark, does not end the story', () => {
    const talk = 'Doctor: hi how are you doing today\nPatient: my blood work said i have hepatitis c\nDoctor: okay so were you ever told in the past that you have hepatitis c\nPatient: no never but i do feel really tired at the end of the day';
    expect(names(talk)).toEqual(['tiredness']);
  });

  it.each([
    'Doctor: good morning, this is Doctor Patel from the surgery',
    'Doctor: this is Sam calling from the practice',
    'Doctor: i know you have a history of asthma',
    'Doctor: you mentioned that you have tried some creams already',
    'Doctor: i see here that you have a history of high blood pressure',
    'Doctor: it sounds like you were playing football when it happened',
    "Doctor: i think it's a good idea to go through a few more questions",
    'Doctor: we need to work out whether this is an emergency',
    'Doctor: this is not a place of judgement',
  ])('the doctor saying "%s" in the history does not end the patient\'s story', (line) => {
    const talk = `Patient: hello\n${line}\nPatient: my knee is swollen\nDoctor: any fever\nPatient: yes since yesterday`;
    expect(names(talk)).toEqual(['swelling of knee', 'fever']);
  });

  it('records how each complaint was told: said, a yes to the question, or the doctor\'s recap', () => {
    const f = structure('Patient: my knee is swollen\nDoctor: any fever\nPatient: yes since yesterday', { locale: 'en-GB', mode: 'consultation' });
    expect(f.complaints.map((c) => [c.name, c.rules])).toEqual([
      ['swelling of knee', ['complaint.told']],
      ['fever', ['complaint.asked-yes']],
    ]);
  });

  it('an answer that says how often ("two or three nights a week", "most days") is a yes', () => {
    expect(names('Doctor: any waking at night with coughing or wheeze?\nPatient: two or three nights a week.')).toEqual(['cough', 'wheeze']);
    expect(names('Doctor: do you get headaches?\nPatient: most days.')).toEqual(['headache']);
  });

  it("symptoms the patient repeats after the doctor's diagnosis are not complaints", () => {
    const talk = 'Patient: there is burning when i pee\nDoctor: it sounds like you have a bladder infection\nDoctor: if you get back pain or vomiting call us\nPatient: back pain or vomiting, okay';
    expect(names(talk)).toEqual(['burning micturition']);
  });

  it('an answer that gives an amount without denying is a yes; one that denies is not', () => {
    expect(names('Patient: i keep getting headaches.\nDoctor: any vomiting\nPatient: i was sick once yesterday.')).toEqual(['headache', 'vomiting']);
    expect(names("Patient: i keep getting headaches.\nDoctor: any vomiting\nPatient: i haven't been sick once.")).toEqual(['headache']);
  });

  it('an unlabelled question and its yes', () => {
    expect(names('any fever\nyes since yesterday')).toEqual(['fever']);
  });

  it('a relative speaking for the patient is not family history; the relative’s own trouble is not a complaint', () => {
    const f = structure('Doctor: what happened?\nMother: he has been coughing since three days. my husband also has a cough.', {
      locale: 'en-IN',
    });
    expect(f.complaints.map((c) => [c.name, c.duration && durationDays(c.duration)])).toEqual([['cough', 3]]);
    expect(f.history.family).toEqual([]);
  });

  it("a friend of the patient's being unwell is the friend's", () => {
    expect(names('Doctor: any fever?\nPatient: yes since yesterday, and a friend of mine has also been a bit unwell.')).toEqual(['fever']);
  });

  it("the answer to a question about contacts tells of them, not of the patient", () => {
    const text = (q: string) => `Patient: i've had a sore throat for three days.\nDoctor: ${q}\nPatient: my son had a cough last week.`;
    expect(structure(text('anyone at home unwell?'), { locale: 'en-GB' }).complaints.map((c) => c.name)).toEqual(['sore throat']);
    expect(structure(text('what else?'), { locale: 'en-GB' }).complaints.map((c) => c.name)).toEqual(['sore throat', 'cough']);
  });

  it('a reaction told in answer to the allergy question is not a complaint', () => {
    const text = 'Patient: my throat hurts.\nDoctor: any allergy to medicines?\nPatient: yes, once my face swelled up with a tablet.';
    expect(names(text)).toEqual(['sore throat']);
  });

  it('the review of systems tells a complaint only where it reports one present', () => {
    const report = (review: string) => names(`HISTORY OF PRESENT ILLNESS: Cough for 3 days. REVIEW OF SYSTEMS: ${review}`);
    expect(report('The patient does note some pressure in her sinuses. She denies any skin rash.')).toEqual(['cough', 'sinus pressure']);
    expect(report('Positive for fatigue and sweats. Negative for chest pain.')).toEqual(['cough', 'fatigue', 'sweating']);
    expect(report('Constitutional: No fever. Respiratory: Cough. Cardiovascular: No chest pain.')).toEqual(['cough']);
    expect(report('Reports no fever, chills, or night sweats.')).toEqual(['cough']);
  });
});

describe('notes that open with demographics, referral or reports', () => {
  it('finds the complaint after "referred ... for"', () => {
    const text =
      'sixty one year old gentleman, retired bus conductor, referred by his family doctor with a letter for breathlessness, came with reports. breathless on walking since two weeks. swelling of both feet since five days. bp one fifty over ninety.';
    const cs = complaints(text);
    expect(cs.map((c) => c.name)).toEqual(['breathlessness on exertion', 'swelling of both feet']);
    expect(cs.map((c) => c.duration && durationDays(c.duration))).toEqual([14, 5]);
  });

  it('the reason a drug was stopped is its side effect, no complaint; a reason for stopping anything else still is', () => {
    const told = (t: string) => complaints(`Complains of cough for 2 days. ${t}`).map((c) => c.name);
    expect(told('She stopped her digoxin last year because of nausea.')).toEqual(['cough']);
    expect(told('She stopped the trazodone on her own because it made her groggy in the mornings.')).toEqual(['cough']);
    expect(told('Metformin was stopped two years ago due to diarrhoea.')).toEqual(['cough']);
    expect(told('I stopped going to the gym because of the pain in my knee.')).toEqual(['cough', 'knee pain']);
  });

  it('"from discharge", "since discharge" is leaving hospital, no complaint of discharge (session 58)', () => {
    const told = (t: string) => complaints(`Complains of cough for 2 days. ${t}`).map((c) => c.name);
    expect(told('Weight today is 4 pounds down from discharge. He has felt better since his discharge.')).toEqual(['cough']);
    expect(told('She has a green discharge from the left ear.')).toEqual(['cough', 'green left ear discharge']);
  });

  it('what a drug once caused is its side effect, told as history; what it has caused, still going on, and what anything else caused, are complaints', () => {
    const told = (t: string) => complaints(`Complains of cough for 2 days. ${t}`).map((c) => c.name);
    expect(told('He was previously on amlodipine but this caused ankle swelling and was discontinued last year.')).toEqual(['cough']);
    expect(told('She was on ramipril, which gave her a dry cough.')).toEqual(['cough']);
    expect(told('Amlodipine caused ankle swelling.')).toEqual(['cough']);
    expect(told('The metformin has caused some diarrhoea.')).toEqual(['cough', 'diarrhoea']);
    expect(told('Lifting the boxes caused back pain.')).toEqual(['cough', 'back pain']);
    expect(told('I was taking ibuprofen three times a day but my stomach started hurting so I stopped that a week ago.')).toEqual(['cough']);
    expect(told('I went for a run but my knee started hurting so I stopped running.')).toEqual(['cough', 'knee pain']);
  });

  it('"this is a dictation for …" opens no assessment: the complaints told after it in a recogniser\'s run-on line are found', () => {
    expect(complaints('this is a dictation for mrs agnes clarke she reports palpitations on and off for two weeks').map((c) => c.name)).toEqual(['palpitations']);
  });

  it('a complaint told after the vitals of an unpunctuated note is still found, the vitals are not', () => {
    expect(names('four year old boy weight sixteen kg brought by mother with fever since two days and ear pain since one day')).toEqual([
      'fever',
      'ear pain',
    ]);
  });
});

describe('negation', () => {
  it('runs over a list of findings', () => {
    expect(names('forty year old man with headache. no fever, vomiting or giddiness.')).toEqual(['headache']);
  });

  it('runs over a body system qualifying the list', () => {
    expect(names('Patient: a little heaviness in my chest and i do not have any respiratory or breathing difficulty')).toEqual(['chest heaviness']);
  });

  it('ends where the words are no longer a list, or where the finding has a duration', () => {
    expect(names('twenty year old man no fever at home passing less urine than usual')).toEqual(['decreased urine output']);
    expect(names('two year old boy watery stools no blood vomiting since yesterday')).toEqual(['loose stools', 'vomiting']);
  });

  it('runs over a word the vocabulary lacks when "or" follows it', () => {
    expect(names('HISTORY: Headache for two days. He denies any drainage or discharge from the ear. Family denies trauma or dysuria.')).toEqual(['headache']);
  });

  it('runs over "difficulty with", "any type of", a word before the list\'s comma and a describing word', () => {
    expect(names('HISTORY: Headache for a week. She denies difficulty with chest pain, palpitations, orthopnea, or edema.')).toEqual(['headache']);
    expect(names('HISTORY: Headache for a week. He denies any type of chest pain or heaviness.')).toEqual(['headache']);
    expect(names('HISTORY: Cough for two days. Denied any urinary disturbances, burning micturition, or hematuria.')).toEqual(['cough']);
    expect(names('HISTORY: Chest pain since morning. Denies hematuria, dysuria, or bright red blood per rectum.')).toEqual(['chest pain']);
    expect(names('Doctor: Are you breathless?\nPatient: No, I feel, you know, generally tired.')).toEqual(['tiredness']);
  });

  it('a symptom named as a risk is not a complaint', () => {
    expect(names('HISTORY: Cough for a week. She knows the risks of bleeding, perforation and infection with a bronchoscopy.')).toEqual(['cough']);
  });

  it('a cue inside a phrase negates nothing after it', () => {
    expect(names('Mother: she is not eating well, vomited twice.')).toEqual(['poor appetite', 'vomiting']);
  });

  it('leaves out an allergic reaction and an earlier episode', () => {
    expect(names('thirty year old lady with sore throat. allergic to penicillin, she broke out in hives.')).toEqual(['sore throat']);
    expect(names('fifty year old man with knee pain since one month. had a similar episode of gout in the past.')).toEqual(['knee pain']);
    expect(names('HISTORY: He feels lightheaded on standing. It is not a spinning like he has had in the past with vertigo.')).toEqual(['lightheadedness']);
  });
});

describe('recogniser form: items without commas', () => {
  it('splits a list on and, with, also and durations', () => {
    const text = 'thirty year old male cough and cold with body ache since two days also headache since one day no fever';
    const cs = complaints(text);
    expect(cs.map((c) => [c.name, c.duration && durationDays(c.duration)])).toEqual([
      ['cough', 2],
      ['cold', 2],
      ['body aches', 2],
      ['headache', 1],
    ]);
  });
});

describe('durations', () => {
  it.each([
    ['since three weeks', 21],
    ['for the past 10 days', 10],
    ['x 2 days', 2],
    ['since yesterday', 1],
    ['for a couple of months', 60],
    ['on and off for a year', 365],
    ['since two to three weeks', 21],
    ['for a fortnight', 14],
    ['over the past month', 30],
    ['the last two nights', 2],
    ['with a sudden onset just yesterday', 1],
    ['presents with 3 days of sore throat', 3],
    ['reports two weeks of cough', 14],
    ['my cough started last week', 7],
    ['he developed a cough last week', 7],
  ])('%s → %d days', (spoken, n) => {
    const hits = findDurations(normalizeText(spoken));
    expect(hits).toHaveLength(1);
    expect(durationDays(hits[0]!.duration!)).toBe(n);
  });

  it('an age, "3 times in a day" and "three nights a week" are not durations; minutes are not days', () => {
    expect(findDurations(normalizeText('eighteen month old child'))).toEqual([]);
    expect(findDurations(normalizeText('three times in a day'))).toEqual([]);
    expect(findDurations(normalizeText('stiffness for ten minutes'))[0]!.duration).toBeUndefined();
    expect(findDurations(normalizeText('he completed 5 days of antibiotics'))).toEqual([]);
    // How often, not how long.
    expect(findDurations(normalizeText('heartburn maybe three nights a week'))).toEqual([]);
    expect(findDurations(normalizeText('headaches about 2 days per week'))).toEqual([]);
  });

  it('when an episode was, said without "since", "for" or an onset, is not how long anything has lasted', () => {
    expect(findDurations(normalizeText('i had chest pain last year'))).toEqual([]);
    expect(names('Doctor: any headaches?\nPatient: only when i had covid last year.')).toEqual([]);
  });

  it('a complaint does not take a duration another complaint said before it took, nor how long it has been worse', () => {
    const text = 'fifty year old man, pain in both knees since two years, morning stiffness for ten minutes. cough since a month, worse since one week.';
    expect(days(text, 'both knee pain')).toBe(730);
    expect(days(text, 'morning stiffness')).toBeNull();
    expect(days(text, 'cough')).toBe(30);
  });

  it('"it\'s been four days now", "for about three days now" answer how long; "it\'s been two days since I stopped …" does not (session 51)', () => {
    const answer = (line: string) => days(`Doctor: what brings you in today?\nPatient: I've got a pain in my stomach.\nDoctor: when did it start?\nPatient: ${line}\nDoctor: okay.`, 'abdominal pain');
    expect(answer("it's been four days now.")).toBe(4);
    expect(answer("it's been happening for about three days now.")).toBe(3);
    expect(answer('it has been a week.')).toBe(7);
    expect(answer("it's been two days since I stopped the tablets.")).toBeNull();
  });

  it('the length of a course of treatment, or when an earlier episode was, is not how long the complaint has lasted', () => {
    // Session 51: "it's been three weeks now" is the sore throat's.
    expect(days("Patient: I was on antibiotics for ten days but the sore throat is still there, it's been three weeks now.", 'sore throat')).toBe(21);
    expect(days('Patient: I took some painkillers for two days but the headache is still there.', 'headache')).toBeNull();
    expect(complaints('Patient: I had a similar rash five years ago, and this one came up on Monday.').map((c) => c.duration)).toEqual([undefined]);
    expect(days('Patient: I had a rash five days ago.', 'rash')).toBe(5);
  });
});

describe('evidence', () => {
  it('each complaint carries the span of the words it came from', () => {
    const text = 'Doctor: what is the trouble?\nPatient: my left ear is paining since two days, and I feel dizzy.';
    const cs = complaints(text);
    expect(cs.map((c) => c.name)).toEqual(['left ear pain', 'dizziness']);
    for (const c of cs) expect(c.evidence).toBeDefined();
    expect(text.slice(cs[0]!.evidence!.start, cs[0]!.evidence!.end)).toMatch(/ear/);
    expect(text.slice(cs[1]!.evidence!.start, cs[1]!.evidence!.end)).toMatch(/dizzy/);
  });
});

describe('a complaint named by its own words', () => {
  it('keeps only the words that describe it', () => {
    expect(names('HISTORY: He did have a little bit of bleeding when he woke up.')).toEqual(['bleeding']);
    expect(names('Patient: I get this thick white vaginal discharge.')).toEqual(['thick white vaginal discharge']);
  });
});

describe('words of a complaint that say something else', () => {
  it.each([
    ['a season', 'Patient: we moved house in the fall and it has been busy'],
    ['an idiom', 'Patient: i fell off a little bit with the diet over the holidays'],
    ['the weather', 'Patient: it gets worse when it is so cold out'],
    ['forgetting a detail', "Patient: i can't remember if we did that test before"],
    ['a game', 'Patient: i totally missed the ball and hit the pole'],
    ['a missed step', 'Patient: i was carrying the basket and i missed a step.'],
    ['what makes another complaint worse', 'Patient: standing, walking, coughing, sneezing seem to make it worse'],
    ['missing something', 'Patient: i think i missed it.'],
    ['a lifestyle that fits', 'Patient: yes that would fit your schedule better'],
    ['nerves about one event', 'Patient: i had chest pain for a minute and got a little nervous about that'],
    ['a diet habit', "Patient: I have chest pain and my husband says I'm not eating my vegetables like I should"],
    ['nerves about a result', "Patient: i have chest pain and i'm just really anxious about my recent blood work"],
    ['being healthy', "Patient: I've got chest pain. Otherwise I'm fit and well."],
    ['worry about the symptom', "Patient: the chest pain is starting to worry me, I don't need to worry, do I?"],
    ['not knowing what to do', "Patient: chest pain on and off, I'm a bit confused as to what to do."],
    ['not remembering a reading', "Patient: chest pain this morning, I can't remember off the top of my head what the reading was."],
    ['a disease named by a symptom word', 'HISTORY: Chest pain. He takes doxycycline for Q fever endocarditis.'],
    ['a number that fell, a pain that radiates, a cold that makes it worse', 'HISTORY: Chest pain. His hemoglobin fell to 9. It radiates to the back. It is worse when he gets a cold.'],
    ['the growth of a child', 'HISTORY: Chest pain. Growth and development: normal for age.'],
    ['a name that fits', "Patient: I've got chest pain. We're still deciding which name fits the baby."],
    ['stopping smoking at once, and a nicotine patch', 'Patient: I have chest pain. I went cold turkey last time, and my friends told me to try a patch.'],
    ['a test\'s result told in the story', 'HISTORY: Chest pain. A CT scan showed a small lesion in the liver. The ultrasound found a lump that could represent a cyst.'],
  ])('%s', (_, text) => {
    expect(names(text).filter((n) => n !== 'chest pain')).toEqual([]);
  });

  it('a fit and a dry patch of skin the patient has are still complaints', () => {
    expect(names('Patient: he had a fit last night.')).toEqual(['seizure']);
    expect(names('Patient: I have a dry patch on my arm.')).toEqual(['dry patches on arm']);
  });

  it('a report names urge incontinence, erectile dysfunction, a depressed appetite and abdominal cramping', () => {
    expect(names('HISTORY: She has stress incontinence as well as urge incontinence. His erections have been dysfunctional.')).toEqual(['urinary incontinence', 'urge incontinence', 'erectile dysfunction']);
    expect(names('HISTORY: Appetite has been depressed and he has abdominal cramping.')).toEqual(['decreased appetite', 'abdominal cramps']);
    expect(names('HISTORY: Voiding every hour, nocturia time 0.')).not.toContain('nocturia');
  });

  it("the doctor's opening 'you're coming in today for some …' gives the complaint; the fall it came after and a patch of ice are none", () => {
    const text = "Doctor: so you're coming in today for some right ankle pain after a fall. Tell me what happened.\nPatient: I slipped on a patch of ice.\nDoctor: okay";
    expect(names(text)).toEqual(['right ankle pain']);
  });

  it("the doctor's 'I heard you have …', 'I see here you had …' in a recogniser's words opens on the complaint", () => {
    expect(names('Doctor: hi there nice to see you i heard you that you have some neck pain\nPatient: yes it has been a while')).toEqual(['neck pain']);
    expect(names('Doctor: good to see you so i see here you\'re coming in you had some left wrist pain also you have high blood pressure\nPatient: yes i fell on it')).toEqual(['left wrist pain']);
    expect(names('Doctor: alright so i understand that you you had some left ankle injury can you tell me what happened\nPatient: i twisted it')).toEqual(['left ankle injury']);
  });

  it("an event's time is that of the complaints told after it in its sentence, not of those merely listed with another's", () => {
    const text = 'HISTORY: She also fell about three days ago and is complaining of hip pain and knee pain.';
    expect(complaints(text).map((c) => [c.name, c.duration?.value, c.duration?.unit])).toEqual([
      ['falls', 3, 'day'], ['hip pain', 3, 'day'], ['knee pain', 3, 'day']]);
    expect(complaints('HISTORY: He has had a cough for 3 days and a sore throat.').find((c) => c.name === 'sore throat')?.duration).toBeUndefined();
  });

  it('a pain told without its site takes where the patient goes on to say "it" starts; difficulty urinating is a complaint', () => {
    const text = "Doctor: what's been happening\nPatient: i've been having pains for about two weeks\nDoctor: okay\nPatient: it starts up in the left flank and goes down to my groin";
    expect(names(text)).toEqual(['left flank pain']);
    expect(names("Doctor: the nurse told me that you're having some difficulty urinating\nPatient: yes")).toEqual(['difficulty urinating']);
    expect(names('Doctor: any trouble urinating\nPatient: no')).toEqual([]);
  });

  it('names breathing difficulties and shallow breathing, energy the patient lacks, and feeling down', () => {
    expect(names('Doctor: how can I help\nPatient: I have had breathing difficulties since this morning.')).toEqual(['breathlessness']);
    expect(names('Doctor: how can I help\nPatient: my breathing is quite shallow, shallow breaths.')).toEqual(['breathlessness']);
    expect(names("Doctor: how can I help\nPatient: I just don't have much energy these days.").map((n) => n.split(' (')[0])).toEqual(['fatigue']);
    expect(names("Doctor: how can I help\nPatient: I've been feeling down since the winter.")).toEqual(['low mood']);
    expect(names('Doctor: any breathing problems\nPatient: no')).toEqual([]);
  });

  it("names a twitch of the eye; 'don't really have' denies; 'on my feet all day' is standing, not a site", () => {
    expect(names('Doctor: what brings her in\nPatient: she has had a twitch in her left eye for two weeks')).toEqual(['left eye twitching']);
    expect(names('Doctor: any headaches\nPatient: no i don\'t really have headaches')).toEqual([]);
    expect(names("Doctor: and your back\nPatient: once i'm on my feet all day it starts to ache")).not.toContain('feet pain');
  });

  it("a symptom the patient's next sentence says went away, or that was there at the beginning 'but now I feel fine', has gone", () => {
    const text = [
      "Doctor: what's been going on?",
      'Patient: I have had a cough for a week. It started with a headache, I had a headache for two days. But then, that went away.',
      'Doctor: any fever?',
      'Patient: I had a bit of a temperature at first, but now I feel, I feel kind of fine.',
      'Doctor: okay',
    ].join('\n');
    expect(names(text)).toEqual(['cough']);
  });

  it('the answer to how long a condition or a drug has been had is no complaint\'s length', () => {
    const text = ["Doctor: what's brought you in?", 'Patient: I have a cough.', 'Doctor: and how long have you been a diabetic for?', 'Patient: maybe five or six years.', 'Doctor: okay'].join('\n');
    expect(days(text, 'cough')).toBeNull();
  });

  it('a missed period at the end of a turn is the period, not a full stop said aloud', () => {
    expect(names("Doctor: what brings you in?\nPatient: I've had a missed period\nDoctor: okay")).toEqual(['missed periods']);
  });

  it('"Symptoms started three weeks ago" after the complaints are told gives them their length', () => {
    const text = 'HISTORY: She comes to the clinic with complaint of left ear pain and headache. Symptoms started approximately three weeks ago and she has had some jaw pain.';
    expect(days(text, 'headache')).toBe(21);
    expect(days(text, 'left ear pain')).toBe(21);
  });

  it("a length told of someone else's illness is not the complaint's", () => {
    const text = 'HISTORY: Over the past couple of days he has had a sore throat (his wife has had a cold for about 2 weeks).';
    expect(days(text, 'sore throat')).toBe(2);
  });

  it('diarrhoea and haematuria are named as said, loose stools and blood in urine as said, and both said are one complaint', () => {
    expect(names("Doctor: what's been going on?\nPatient: I've had diarrhoea since Monday.\nDoctor: okay")).toEqual(['diarrhoea']);
    expect(names('two year old boy loose motions since yesterday')).toEqual(['loose stools']);
    expect(names("Doctor: what's been going on?\nPatient: diarrhoea, really watery loose stools.\nDoctor: okay")).toEqual(['diarrhoea']);
    expect(names('HISTORY: He once again developed gross hematuria.')).toEqual(['haematuria (gross hematuria)']);
    expect(names("Doctor: what's been going on?\nPatient: there's blood in my urine.\nDoctor: okay")).toEqual(['blood in urine']);
  });

  it('going to the toilet often, told of diarrhoea, is the bowels, not urinary frequency', () => {
    expect(names("Doctor: what's been going on?\nPatient: I've had really bad diarrhoea, I keep going to the toilet very often.\nDoctor: okay")).toEqual(['diarrhoea']);
    expect(names("Doctor: what's been going on?\nPatient: I keep going to the toilet very often, day and night.\nDoctor: okay")).toEqual(['urinary frequency (going to the toilet)']);
  });

  it('nervousness said as a habit is a complaint', () => {
    expect(names('Patient: i get really nervous every morning about leaving the house')).toEqual(['anxiety']);
  });

  it('"it" in a later clause of the sentence is the site said alone before; "back" and "head" in idioms are no sites', () => {
    expect(names("Doctor: does it go anywhere?\nPatient: it's mainly in my left arm, it's feeling a little bit painful.\nDoctor: okay")).toEqual(['left arm pain']);
    expect(names("Patient: I got back into the game and it's been bothering me. I can't lift anything over my head, it really hurts.")).toEqual([]);
  });

  it('a place on the body named by "the back of" is that place', () => {
    expect(names('Patient: the back of my heel hurts after running')).toEqual(['heel pain']);
  });
});

describe('reports with headings: only the history tells complaints', () => {
  it('past history, examination and family history are not complaints', () => {
    const text = [
      'HISTORY OF PRESENT ILLNESS:, A 40-year-old man with a sore throat for 2 days.',
      'PAST MEDICAL HISTORY:, Asthma as a child, hay fever, a heart attack in 2015.',
      'FAMILY HISTORY:, Father had chest pain and diabetes.',
      'PHYSICAL EXAMINATION:, Nasal mucosa swollen. Tender cervical nodes. Erythema of the pharynx.',
    ].join(' ');
    expect(names(text)).toEqual(['sore throat']);
  });

  it('a tender red area told in the history is the complaint', () => {
    expect(names('SUBJECTIVE:, She noticed a tender red lump on her left forearm 3 days ago.')).toEqual([
      expect.stringMatching(/lump/),
    ]);
  });
});

describe('negated lists and symptoms that have gone', () => {
  it.each([
    ['She denies fever, chills, orthopnea, wheeze, or nausea.', []],
    ['No gross hematuria, dysuria or frequency.', []],
    ['Nausea, vomiting, diarrhea times zero. He has a cough.', ['cough']],
    ['He has not been particularly constipated.', []],
    ['Patient: I haven’t had any more pain in my knee.', []],
    ['She does not appear anxious or depressed.', []],
    ['Patient: the cough has gone away but my nose is still blocked.', ['nasal blockage']],
    ['Patient: the vomiting stopped yesterday but i still have diarrhoea.', ['diarrhoea']],
    ['Patient: I was sick at the start but now I’ve stopped vomiting. My belly hurts.', ['abdominal pain']],
    ['He had a fever only on the first day; he still has a runny nose.', ['runny nose']],
    ['Patient: I have had some chills but no documented fevers.', ['chills']],
    ['She denies any objective fevers. No recorded temperatures at home.', []],
  ])('%s → %j', (text, want) => {
    expect(names(text)).toEqual(want);
  });

  it('a denial about now removes a symptom told of the time before a hospital stay', () => {
    const text = [
      'Patient: before I went in my legs were swollen and I got short of breath.',
      'Doctor: any shortness of breath since you have been home?',
      'Patient: no shortness of breath now.',
    ].join('\n');
    expect(names(text)).not.toContain('shortness of breath');
  });
});

describe('a patient’s own words beside the clinical name', () => {
  it.each([
    ['Patient: my ears are buzzing all day.', 'ringing in ears (ears are buzzing)'],
    ['Patient: it stings when I pee.', 'dysuria (stings when i pee)'],
    ['Patient: I keep coughing up blood.', 'haemoptysis (coughing up blood)'],
    ['Patient: I just don’t feel well.', "feeling unwell (don't feel well)"],
  ])('%s → %s', (text, name) => {
    expect(names(`Doctor: what brings you in?\n${text}`)).toContain(name);
  });

  it('keeps the plain name when the words say the same', () => {
    expect(names('Patient: my throat hurts.')).toEqual(['sore throat']);
    const said = structure('Doctor: how can I help?\nPatient: I feel like um, uh, dizzy sometimes.', { locale: 'en-GB', mode: 'consultation' });
    expect(said.complaints.map((c) => c.name)).toEqual(['dizziness']);
  });
});

describe('durations in real speech', () => {
  it.each([
    ['for three to four days', 4],
    ['three, four months ago', 120],
    ['for a couple of weeks', 14],
    ['a five-day history of', 5],
    ['probably 3 weeks or so', 21],
    ['since the day before yesterday', 2],
    ['for a week and a half', 11],
    ['for two and a half months', 75],
  ])('%s → %d days', (spoken, n) => {
    const hits = findDurations(normalizeText(spoken));
    expect(hits).toHaveLength(1);
    expect(durationDays(hits[0]!.duration!)).toBe(n);
  });

  it('"started the day before yesterday" is two days, not the one of its "yesterday"', () => {
    const f = structure('Patient: the fever started the day before yesterday.\nDoctor: okay', { locale: 'en-GB', mode: 'consultation' });
    expect(f.complaints.map((c) => [c.name, c.duration])).toEqual([['fever', { value: 2, unit: 'day' }]]);
  });

  it('hours are days to three places; vague amounts and story times have no value', () => {
    expect(findDurations(normalizeText('for the last couple of hours'))[0]!.duration).toEqual({ value: 0.083, unit: 'day' });
    expect(findDurations(normalizeText('in the last hour'))[0]!.duration).toEqual({ value: 0.042, unit: 'day' });
    expect(findDurations(normalizeText('for a few days'))[0]!.duration).toBeUndefined();
    expect(findDurations(normalizeText('several months ago'))[0]!.duration).toBeUndefined();
    expect(findDurations(normalizeText('about two hours later'))).toEqual([]);
    expect(findDurations(normalizeText('up 6 kg from the last year'))).toEqual([]);
  });

  it('"since the bite" takes the bite’s duration', () => {
    const text = [
      'Patient: I got a tick bite on my ankle about a week ago.',
      'Patient: and I have had a headache since the bite.',
    ].join('\n');
    expect(days(text, 'headache')).toBe(7);
  });

  it('the doctor’s summary gives its duration to the symptoms it lists', () => {
    const text = [
      'Doctor: what brings you in?',
      'Patient: I have diarrhoea and my tummy cramps.',
      'Doctor: so just to recap, for the last 4 days you have been having diarrhoea and tummy cramps.',
    ].join('\n');
    expect(days(text, 'diarrhoea')).toBe(4);
  });

  it('the doctor who says what the patient came in with, or asks how long it has lasted, names a complaint; the patient corrects its side', () => {
    expect(names('Doctor: hi frank i heard the nurse told me that you are having some shortness of breath\nPatient: i am not great')).toEqual(['shortness of breath']);
    expect(names('Doctor: how long have you had the headaches?\nPatient: about two weeks')).toEqual(['headache']);
    expect(names('Doctor: how long have you had the headaches?\nPatient: no, i have not had any')).toEqual([]);
    expect(names('Doctor: i understand you have come in with some right knee pain, can you tell me about it\nPatient: it is not the right knee, it is the left knee')).toEqual(['left knee pain']);
    expect(names("Doctor: i understand you've come in with some right knee pain\nPatient: it's the left knee actually")).toEqual(['left knee pain']);
    const later = ['Doctor: i see you coming in with some right elbow pain, can you tell me what happened', 'Patient: i just woke up one day and it was hurting', 'Doctor: how long ago was that', 'Patient: since yesterday. it is actually my left elbow'];
    expect(names(later.join('\n'))).toEqual(['left elbow pain']);
    expect(names('Doctor: you have come in with some right knee pain\nPatient: yes, and my left knee is fine')).toEqual(['right knee pain']);
  });

  it('the reason for the visit the doctor opens with is a complaint; the history said with it is not', () => {
    const text = [
      'Doctor: mister jackson is a 45 -year-old male who has a history of diabetes and migraines and he is here today with right elbow pain so hey there mark',
      'Patient: yeah it has been bad',
    ].join('\n');
    expect(names(text)).toEqual(['right elbow pain']);
    const then = 'Doctor: so stephanie is a 36 -year-old female today complaining of her ankle pain and she also has a history of back pain\nPatient: yes';
    expect(names(then)).toEqual(['ankle pain']);
  });

  it('a fall told as how an injury happened is not a complaint of its own; a fall on its own is', () => {
    expect(names('Patient: i was skiing and when i fell i heard a pop and my knee has hurt ever since')).toEqual(['knee pain']);
    expect(names('Doctor: how did you fall\nPatient: i slipped on the ice')).toEqual([]);
    expect(names('Patient: last week he fell in the bathroom, luckily no injury.')).toEqual(['falls']);
    expect(names('Patient: i was playing with my son and i fell and i think i twisted my ankle and now my ankle hurts')).toEqual(['ankle pain']);
    expect(names('Patient: i slipped and fell down on my driveway and my wrist hurts')).toEqual(['wrist pain']);
    expect(names('Patient: this happened yesterday after falling on the ice and my hip hurts')).toEqual(['hip pain']);
  });

  it('the doctor’s summary reads past words that only hold a complaint’s word', () => {
    expect(names('Patient: hello\nDoctor: you said during the pandemic you fell off a little bit with the diet')).toEqual([]);
  });

  it('an injury told with its site is a complaint, without one it is none; the doctor saying "you hurt your ankle" opens the story', () => {
    expect(names('Doctor: hi\nPatient: i injured my right shoulder four days ago')).toEqual(['right shoulder injury']);
    expect(names("Doctor: any specific injury?\nPatient: i've been trying to recall if i had any specific injury")).toEqual([]);
    expect(names('Doctor: i see in the notes it looks like you hurt your left ankle\nPatient: yeah i did')).toEqual(['left ankle pain']);
    const explained = 'Patient: my shoulder hurts\nDoctor: i think this is a rotator cuff tendinopathy so this means that you injured the tendons of the muscles';
    expect(names(explained)).toEqual(['shoulder pain']);
  });

  it('a burn, a cut or a sprain told with its site is a complaint; the same words without a site are none', () => {
    expect(names('Doctor: hi, how are you?\nPatient: I burned my hand on the stove.')).toEqual(['burn of hand (burned my hand)']);
    expect(names('Patient: I was walking along the rocks, my foot slipped and I cut my foot.')).toEqual(['cut on foot']);
    expect(names('Patient: He slipped and got a deep laceration on his left thigh.')).toEqual(['cut on left thigh']);
    expect(names('Patient: I sprained my right ankle playing football.')).toEqual(['right ankle sprain']);
    expect(names('Doctor: cut the tablet in half.\nPatient: I have cut down on salt.')).toEqual([]);
    expect(names('Doctor: any cuts or burns on your hands?\nPatient: No.')).toEqual([]);
    expect(names('Patient: my ankle swelled up.\nDoctor: my diagnosis for your ankle is an ankle sprain.')).toEqual(['swelling of ankle']);
  });

  it('the site the doctor asks after is the one the answer\'s "it" names', () => {
    expect(names('Doctor: How is your knee?\nPatient: It still hurts when I climb stairs.')).toEqual(['knee pain']);
    expect(names("Doctor: How's your jaw doing?\nPatient: It seems to hurt more.")).toEqual(['jaw pain']);
    expect(names('Doctor: What happened to your right leg?\nPatient: It hurts a lot.')).toEqual(['right leg pain']);
    expect(names("Doctor: Any pain in your chest?\nPatient: No, it doesn't hurt.")).toEqual([]);
    expect(names('Doctor: do you sleep on your back?\nPatient: yes, it hurts otherwise')).toEqual([]);
    expect(names('Doctor: any chest pain?\nPatient: no. I have had the pain in my stomach for two days.')).toEqual(['abdominal pain']);
  });

  it('not being able to pass urine is a complaint of its own, however it is said', () => {
    expect(names("Patient: Hi! I have not been able to go pee, and I have this sharp pain in my left side.")).toEqual(['urinary retention', 'left flank pain']);
    expect(names('Patient: I am unable to urinate since this morning.')).toEqual(['urinary retention']);
    expect(names("Doctor: any trouble passing urine?\nPatient: no, I can pee fine.")).toEqual([]);
    expect(names('Patient: I keep getting abscesses on my thigh.')).toEqual(['boils on thigh']);
    expect(names("Doctor: And you've had recurring abscesses for the past two years, correct?\nPatient: Unfortunately, yes.")).toEqual(['recurring boils']);
  });

  it('a side said after a list without commas goes to the complaint with a site only', () => {
    const text = 'Doctor: so just to recap for the last three days you have been having loose stool a bit of tummy pain mainly on the left hand side\nPatient: yes';
    const said = names(text);
    expect(said).toContain('loose stools');
    expect(said.some((n) => /^left .*abdominal pain$/.test(n))).toBe(true);
  });

  it('a companion "here with you" is no reason for the visit', () => {
    const text = ['Doctor: so your partner is here with you today and reports that he is also having back pain', 'Patient: yes'].join('\n');
    expect(names(text)).toEqual([]);
  });

  it('how long before anything is named goes to what is told next; an earlier episode’s time goes nowhere', () => {
    const text = [
      'Doctor: how long have you been feeling like this?',
      'Patient: about 10 days.',
      'Doctor: tell me what is going on.',
      'Patient: I wake up with a cough.',
      'Doctor: have you ever had this before?',
      'Patient: once, about 2 years ago.',
    ].join('\n');
    expect(days(text, 'cough')).toBe(10);
  });

  it('a pain told without its site takes the site the answer to "where" gives', () => {
    const text = [
      'Patient: I was lifting boxes at work and I have had some pain ever since.',
      'Doctor: how long ago was that?',
      'Patient: about 5 days ago.',
      'Doctor: where exactly is it?',
      'Patient: in my right shoulder.',
    ].join('\n');
    expect(names(text)).toEqual(['right shoulder pain']);
    expect(days(text, 'right shoulder pain')).toBe(5);
  });
});

describe('round two: how real notes word complaints', () => {
  const hpi = (body: string) => `HISTORY OF PRESENT ILLNESS: ${body}`;

  it.each([
    ['He has had burning and tingling in both feet for a month.', 'burning and tingling in both feet'],
    ['She reports numbness and tingling in her left hand.', 'numbness and tingling in left hand'],
    ['For a week he feels weak and shaky.', 'weakness and shakiness (weak and shaky)'],
  ])('sensations said together are one complaint: %s', (text, name) => {
    expect(names(hpi(text))).toEqual([name]);
  });

  it('keeps pain and swelling of one site as two complaints', () => {
    expect(names(hpi('She has pain and swelling of the right knee.'))).toHaveLength(2);
  });

  it.each([
    ['He gets a little pain with his bowel movements.', 'pain with bowel movements'],
    ['She describes wrist pain when she is typing.', 'wrist pain when typing'],
    ['He has a sore chest on deep breathing.', 'chest pain on deep breathing'],
  ])('keeps what brings a pain on: %s', (text, name) => {
    expect(names(hpi(text))).toEqual([name]);
  });

  it('a symptom word in a remedy’s name is no complaint', () => {
    expect(names(hpi('She took Benadryl allergy and some cough syrup, and has a sore throat.'))).toEqual(['sore throat']);
    expect(names(hpi('He tried Tylenol cough and cold, but his headache persists.'))).toEqual(['headache']);
  });

  it('one complaint told twice in other words is kept once, as first told', () => {
    expect(names(hpi('He feels worn out and is very tired.'))).toEqual(['fatigue (worn out)']);
  });

  it('a complaint told again with a describing word is the same complaint', () => {
    expect(names(hpi('She has a vaginal discharge for 2 weeks. The discharge is thin. Persistent discharge bothers her.'))).toEqual([
      'vaginal discharge',
    ]);
  });

  it('a report keeps the patient’s own words beside the vocabulary name', () => {
    expect(names(hpi('His eyes have been very puffy.'))).toEqual(['swelling of eyes (eyes have been very puffy)']);
  });

  it('a region said as an adjective goes before the kind', () => {
    expect(names(hpi('She has pelvic pain and rectal itching.'))).toEqual(['pelvic pain', 'rectal itching']);
  });

  it('a description runs from the last verb of telling, not from the whole clause', () => {
    expect(names(hpi('Now and then she notices some bright red bleeding.'))).toEqual(['bright red bleeding']);
    expect(names(hpi('He has been applying cortisone cream on the areas of the rash.'))).toEqual(['rash']);
  });

  it('an umbrella the complaints are listed under, a test finding and a symptom gone since a comma are not complaints', () => {
    expect(names(hpi('Three days of flu symptoms consisting of runny nose and sore throat.'))).toEqual(['runny nose', 'sore throat']);
    expect(names(hpi('She was noted to have microscopic hematuria.'))).toEqual([]);
    expect(names(hpi('He had a fever of 101, but it has not been there since yesterday, and a cough.'))).toEqual(['cough']);
  });

  it('without colons a report’s story ends at its next heading', () => {
    const text = 'history of present illness he has had a cough for two weeks past medical history significant for migraine headaches';
    expect(names(text)).toEqual(['cough']);
  });

  it('the doctor’s summary does not bring back a symptom the patient said had gone', () => {
    const text = [
      'Patient: I have had diarrhoea for three days.',
      'Doctor: any vomiting?',
      'Patient: I have stopped vomiting now.',
      'Doctor: so to recap, for the last three days you have had diarrhoea and vomiting.',
    ].join('\n');
    expect(names(text)).toEqual(['diarrhoea']);
  });

  it('"the left-hand side" is a side of the complaint, not the hand', () => {
    const text = ['Patient: I have tummy pain mainly on the left-hand side.', 'Doctor: okay.'].join('\n');
    expect(names(text)).toEqual(['left abdominal pain']);
  });
});

describe('a report read without its colons (recogniser form): spoken headings', () => {
  it.each([
    [
      'a review of systems and the examination said later are not complaints',
      'history of present illness she has had a sore throat for four days review of systems positive for fatigue negative for rash physical examination tonsils swollen',
      ['sore throat'],
    ],
    [
      'the section a heading opens runs on into the next sentences',
      'chief complaint earache history of present illness his left ear hurts since yesterday. past medical history eczema. he gets hay fever every spring.',
      ['left ear pain'],
    ],
    [
      'the heading words are no part of a complaint',
      'chief complaint rash history of present illness an itchy rash on her back for ten days',
      ['itchy rash on back'],
    ],
    [
      'a one-word heading that starts a sentence closes the story',
      'subjective he reports a dry cough for a week. allergies codeine causes a rash and itching.',
      ['dry cough'],
    ],
  ])('%s', (_, text, want) => {
    expect(names(text)).toEqual(want);
  });

  it('"this is a 58 year old" introduces the patient, it is no diagnosis that ends the story', () => {
    expect(names('subjective this is a 58 year old man with a headache for 2 weeks')).toEqual(['headache']);
  });

  it('a history heading that names a symptom tells the complaint', () => {
    const text = 'REASON FOR VISIT:, Knee pain.,KNEE PAIN HISTORY:, The pain began 6 months ago and is worse on stairs.,PAST MEDICAL HISTORY:, Gout.';
    expect(days(text, 'knee pain')).toBe(180);
  });
});

describe('an earlier time closes its clause without punctuation', () => {
  it('an episode in the past is not now, the symptom said after it is', () => {
    expect(names('he had a chest infection in the past mild wheeze since yesterday')).toEqual(['wheeze']);
  });
});

describe('a denied or gone symptom in an answer', () => {
  it('a duration in the answer does not make it a yes', () => {
    const text = ['Doctor: any fever?', 'Patient: i had a temperature last week but it has gone'].join('\n');
    expect(names(text)).toEqual([]);
  });

  it('a duration times only the last complaint before it, so a denial before stays a denial', () => {
    const text = ['Doctor: what brings you in?', 'Patient: no fever i had a runny nose for three days'].join('\n');
    expect(names(text)).toEqual(['runny nose']);
  });
});

describe('complaints said twice and hedged words', () => {
  it('the complaint named again with more words is one complaint, named the fuller way', () => {
    expect(names('CHIEF COMPLAINT:, Rash.,HISTORY OF PRESENT ILLNESS:, She has an itchy rash on both legs for 5 days.')).toEqual([
      'itchy rash on both legs',
    ]);
  });

  it('dizziness and the room spinning are one complaint', () => {
    const text = ['Doctor: what is wrong?', 'Patient: i feel dizzy and the room is spinning around'].join('\n');
    expect(names(text)).toHaveLength(1);
  });

  it('"kind of" and "sort of" do not break a phrase', () => {
    expect(names('Patient: my nose is sort of blocked.')).toEqual(['nasal blockage']);
  });
});

describe('durations told in an answer', () => {
  it('an onset said before "yesterday" is one day', () => {
    const text = ['Doctor: anything else?', 'Patient: i started with a sore throat yesterday'].join('\n');
    expect(days(text, 'sore throat')).toBe(1);
  });

  it('a later length in the same answer corrects the first, an earlier episode does not', () => {
    const asked = ['Patient: my hands are itchy.', 'Doctor: when did this start?'];
    expect(days([...asked, 'Patient: a couple of months ago. i got it four months ago.'].join('\n'), 'itching of hands')).toBe(120);
    expect(days([...asked, 'Patient: two weeks ago. i had a similar thing about a year ago.'].join('\n'), 'itching of hands')).toBe(14);
  });
});

describe('consultations: the doctor’s words', () => {
  it('"you’ve been experiencing" tells the story back like "you’ve been having"', () => {
    const text = ['Doctor: so i hear you have been experiencing some back pain for two weeks', 'Patient: yes'].join('\n');
    expect(days(text, 'back pain')).toBe(14);
  });

  it('the doctor examining, and the answers to it, tell findings, not complaints', () => {
    const text = [
      'Patient: my wrist has been sore for a month.',
      'Doctor: okay when i press here and you said you had some tingling in your fingers does that hurt?',
      'Patient: yes it does.',
    ].join('\n');
    expect(names(text)).toEqual(['wrist pain']);
  });

  it('a pain put down to an old injury is background', () => {
    const text = ['Doctor: any joint pain?', 'Patient: some pain in my hip but that is from an old fracture.'].join('\n');
    expect(names(text)).toEqual([]);
  });

  it('a denial inside an unpunctuated answer starts its own clause', () => {
    expect(names('Patient: my skin is red i don’t have any spots')).toEqual([expect.stringMatching(/^redness of skin/)]);
  });

  it('"short of breath" is named shortness of breath', () => {
    expect(names('Patient: i get short of breath.')).toEqual(['shortness of breath']);
  });
});

describe('a length that describes a visit', () => {
  it('"her 3 week postpartum checkup" is not how long the complaint has lasted', () => {
    expect(days('she comes for her 3 week postpartum checkup complaining of a runny nose', 'runny nose')).toBeNull();
  });
});

describe('a speaker’s restart', () => {
  it('says the complaint once, as finished', () => {
    expect(names('Patient: my my chest my chest feels tight')).toEqual(['chest tightness']);
    expect(names("Patient: i've been vomiting i've been vomiting blood")).toHaveLength(1);
  });
});

describe('words that sound like a complaint and are not one', () => {
  const visit = (...answers: string[]) => ['Doctor: what brings you in today?', 'Patient: I have a cough.', ...answers.flatMap((a) => ['Doctor: anything else?', `Patient: ${a}`])].join('\n');

  it('a throat irritated by coughing is no irritability, a fever "not too worrying" no worry', () => {
    expect(names(visit('My throat is irritated from coughing.'))).toEqual(['cough']);
    expect(names(visit('Maybe a little bit of a temperature, it has not been too worrying.'))).not.toContain('excessive worry');
    expect(names(visit("I've been so irritable with my kids."))).toContain('irritability');
    expect(names(visit('I worry too much about everything.'))).toContain('excessive worry');
  });

  it("a symptom the patient says is fine now is gone", () => {
    expect(names(visit("The first day I had a wee bit of diarrhoea, but that's fine now."))).toEqual(['cough']);
  });
});

describe('a fall told as how an injury happened', () => {
  const visit = (...answers: string[]) => ['Doctor: what brings you in today?', 'Patient: my knee hurts.', ...answers.flatMap((a) => ['Doctor: tell me more.', `Patient: ${a}`])].join('\n');

  it('is no complaint, nor is a limb "falling asleep on me"; falls the patient has are', () => {
    expect(names(visit('when i first fell it was pretty bad but now it is a six.'))).toEqual(['knee pain']);
    expect(names(visit('i did fall to the ground.'))).toEqual(['knee pain']);
    expect(names(visit("i can't think of anytime if i fell."))).toEqual(['knee pain']);
    expect(names(visit("it's like it's falling asleep on me."))).not.toContain('falls');
    expect(names(visit("i've been falling over a lot at home."))).toContain('falls (falling over)');
  });
});

describe('sites and lay words for the eyes, ears and palms', () => {
  const said = (words: string) => names(`Doctor: What brings you in?\nPatient: ${words}`);
  it('reads "my eyes are watery", "a pressure sensation in my ears" and "my palms are itchy"', () => {
    expect(said('My eyes are watery and I have sinus pressure.')).toEqual(['watery eyes', 'sinus pressure']);
    expect(said("There's a pressure sensation in my ears.")).toEqual(['heaviness in ear (pressure sensation in my ears)']);
    expect(said('My palms are itchy.')).toEqual(['itching of palms']);
  });

  it('a second site said after "and" joins the first before the kind ("left arm and shoulder pain")', () => {
    expect(said('I have pain in my left arm and shoulder.')).toEqual(['left arm and shoulder pain']);
  });
});

describe('a skin lesion named as described', () => {
  const said = (turns: string) => names(turns);
  it('without the question around it or what it does ("does that rash go away", "rash on your body at the moment")', () => {
    expect(said('Doctor: So if you were to put a glass on top of the rash, does that rash go away?\nPatient: Yeah. Uh, yes.')).toEqual(['rash']);
    expect(said('Doctor: Are you having any rash on your body at the moment?\nPatient: Yes there is a bit of blotching.')).toEqual(['rash on body']);
  });

  it('keeps where it is, to the place named ("rash on medial right calf")', () => {
    expect(names('HISTORY OF PRESENT ILLNESS: She has a rash on the medial right calf.')).toEqual(['rash on medial right calf']);
  });

  it('without the talk before its description ("now what do you think caused the ulcer", "as well as a rash")', () => {
    expect(said('Patient: well now I think what caused the ulcer was wearing tight shoes.')).toEqual(['ulcer']);
    expect(names('HISTORY OF PRESENT ILLNESS: She has a cough as well as a rash on the medial right calf.')).toContain('rash on medial right calf');
  });

  it('nor what the patient says the lesion word in ("the medication might help me through this patch"), a patch of time being none', () => {
    expect(said('Patient: the medication might help me through this lesion on my arm.')).toEqual(['lesion on arm']);
    expect(said('Patient: maybe just increasing the dose might help me through this patch.')).toEqual([]);
    expect(said('Patient: I have a dry patch on my arm.')).toEqual(['dry patches on arm']);
  });
});

describe('answers and lay words of session 27', () => {
  const said = (q: string, a: string) => names(`Doctor: ${q}\nPatient: ${a}`);
  it('"only when …" answering "any …?" is a yes', () => {
    expect(said('any dizziness?', 'only when i stand up quickly.')).toEqual(['dizziness']);
    expect(said('any cough?', 'mostly in the mornings.')).toEqual(['cough']);
  });

  it('a pounding or splitting headache is a headache, wherever it is felt', () => {
    expect(said("what's the problem?", 'i keep getting these pounding headaches behind my eyes.')).toEqual(['pounding headache']);
  });

  it.each([
    ["i'm not quite as hungry as usual.", 'decreased appetite (not quite as hungry)'],
    ['a bit fatigued to be honest.', 'fatigue'],
    ['i feel very dehydrated.', 'feeling dehydrated'],
    ['my urine looks pink.', 'pink urine'],
    ["i've been limping for a few days.", 'limping'],
  ])('%s → %s', (answer, want) => {
    expect(said('how are you?', answer)).toEqual([want]);
  });

  it('names a rash the parent tells of as a rash, never with the relative\'s word ("my son has a rash" is no "son rash")', () => {
    const names = (t: string) => structure(t, { locale: 'en-GB', mode: 'consultation' }).complaints.map((c) => c.name);
    expect(names('Doctor: any rash\nPatient: my son has a rash')).toEqual(['rash']);
    expect(names('Doctor: what brings you in\nPatient: my daughter has an itchy rash on her arms')).toEqual([expect.stringMatching(/^itchy rash/)]);
  });

  it('an answer about a husband\'s or a friend\'s symptom is not the patient\'s ("my husband has a cough but I don\'t")', () => {
    const names = (t: string) => structure(t, { locale: 'en-GB', mode: 'consultation' }).complaints.map((c) => c.name);
    expect(names("Doctor: any cough\nPatient: my husband has a cough but i don't")).toEqual([]);
    expect(names('Doctor: any cough\nPatient: yes i have a cough, my husband has one too')).toEqual(['cough']);
  });
});

describe('complaints said in consultations met in unseen real texts (session 29)', () => {
  const names = (...turns: string[]): string[] =>
    structure(turns.map((x, i) => `${i % 2 ? 'Patient' : 'Doctor'}: ${x}`).join('\n'), { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => c.name);

  it('a symptom that "seemed to go away" or "slowly went away" after a comma is gone', () => {
    expect(names('how are you', 'i had some tingling in my toes and then that seemed to go away', 'okay')).toEqual([]);
    expect(names('how are you', 'my foot hurt, it lasted four five days and slowly went away', 'okay')).toEqual([]);
    expect(names('how are you', 'my foot hurts, it has been four five days', 'okay')).toEqual(['foot pain']);
  });

  it('"i find myself palpitating" is palpitations', () => {
    expect(names('how are you', 'i find myself palpitating a lot', 'okay')).toEqual(['palpitations']);
  });
});

describe('report words that are no complaints (a review of unseen MTSamples notes, session 30)', () => {
  it('a discharge as an event, mass effect, vascular congestion are no complaints; a discharge from the nose is', () => {
    expect(names('At discharge on 08/06/2009 she was stable.')).toEqual([]);
    expect(names('CT showed no evidence of intracranial hemorrhage or mass effect.')).toEqual([]);
    expect(names('Chest x-ray showed mild vascular congestion.')).toEqual([]);
    expect(names('She has nasal congestion and yellow discharge from the nose.')).toContain('nasal congestion');
  });

  it('"is not reporting X, Y or Z" and "sputum is not produced" deny them', () => {
    expect(names('She is not reporting polyuria, polydipsia or polyphagia.')).toEqual([]);
    expect(names('Sputum is not produced.')).toEqual([]);
    expect(names('She is reporting polyuria.')).toEqual(['increased urination']);
  });
});

describe('unseen MTSamples reports, read again (session 38)', () => {
  it('a long denied list negates its last items too, however many words each has ("… shortness of breath at rest, or dyspnea on exertion")', () => {
    expect(names('She denies weight loss, fevers, chills, headaches, new aches or pains, cough, hemoptysis, shortness of breath at rest, or dyspnea on exertion.')).toEqual([]);
    // A finding after words that are no list is still said: "no fever at home passing less urine".
    expect(names('No fever at home passing less urine.')).toEqual(['decreased urine output']);
  });

  it('"No supraglottic edema": one describing word between the cue and the finding keeps it denied', () => {
    expect(names('Laryngoscopy: no supraglottic edema; small tonsil cyst.')).toEqual([]);
    expect(names('Laryngoscopy shows supraglottic edema.')).toEqual(['swelling']);
  });

  it('"has a history of gastroparesis and impotence" is past history; a history that goes on to a present one is not', () => {
    expect(names('Patient also has a history of gastroparesis and impotence.')).toEqual([]);
    expect(names('A 55-year-old woman with a history of migraine, who presents today with back pain.')).toEqual(['back pain']);
    expect(names('She has a history of headaches for the last two weeks.')).toEqual(['headache']);
  });
});

describe('words of a falling number and of weight lost on purpose (session 38)', () => {
  it('"let his blood sugars fall within a normal range" is no fall; "he fell last week" is one', () => {
    expect(names('He has been unwilling to let his blood sugars fall within a normal range.')).toEqual([]);
    expect(names('He fell last week and hurt his hip.')).toContain('falls');
  });

  it('weight lost on purpose is no complaint; weight lost unintentionally is', () => {
    expect(names('She came back for instruction on safe weight loss and low-fat eating.')).toEqual([]);
    expect(names('They wonder if the patient needs to lose any more weight.')).toEqual([]);
    expect(names('Followup on her weight loss on phentermine.')).toEqual([]);
    expect(names('She has had unintentional weight loss of 10 pounds.')).toEqual(['weight loss']);
  });
  it('"has not had any nasal discharge or ever had any bleeding" denies both; "no fever, had a cough" still tells the cough', () => {
    expect(names('He has not had any nasal discharge or ever had any bleeding.')).toEqual([]);
    expect(names('No fever, had a cough for 3 days.')).toEqual(['cough']);
  });

  it('"several lesions in her brain" is an imaging finding, not a complaint; lesions on the arms are one', () => {
    expect(names('She presented with several lesions in her brain.')).toEqual([]);
    expect(names('She has several lesions on her arms.')).toHaveLength(1);
  });
});

describe('the history told back before the visit\'s question', () => {
  it('a condition the doctor tells back before asking what the visit is for neither ends the story nor is a diagnosis', () => {
    const text = 'Patient: Go for it.\nDoctor: You have some chronic back pain, some depression. Why am I seeing you today?\nPatient: All of a sudden I have been feeling some really bad knee pain.';
    const f = structure(text, { locale: 'en-US', mode: 'consultation' });
    expect(f.complaints.map((c) => c.name)).toEqual(['knee pain']);
    expect(f.diagnoses).toEqual([]);
    // Said after the patient's story, it is the diagnosis.
    const told = structure('Doctor: Why am I seeing you today?\nPatient: My knee hurts.\nDoctor: You have some osteoarthritis of the knee.', { locale: 'en-US', mode: 'consultation' });
    expect(told.diagnoses.map((d) => d.icd10?.code)).toEqual([expect.stringMatching(/^M17/)]);
  });
});

describe('the verb a lump was found with', () => {
  it('is not the lump\'s description ("i felt a lump", "she found a lump"), nor is how many there are', () => {
    expect(names('Patient: I felt a lump in my breast.')).toEqual(['lump']);
    expect(names('Patient: She said she found a lump right here under my arm.')).toEqual(['lump']);
    expect(names('Patient: I have two lumps.')).toEqual(['lump']);
  });
});

describe('a lesion named by a phrase ("canker sores in my mouth")', () => {
  it('is named by the phrase, not by the words told before it', () => {
    expect(names('Patient: A few days later I started getting multiple canker sores in my mouth.')).toEqual(['mouth ulcers']);
    expect(names('Patient: I started getting sores in my mouth.')).toEqual(['mouth ulcers']);
  });
});

describe('the site given in answer to "where is the pain?"', () => {
  it('completes the kind the doctor asked about', () => {
    expect(names('Doctor: Where are you having pain?\nPatient: My left elbow. I hit it against a railing.\nDoctor: Okay.')).toEqual(['left elbow pain']);
    expect(names('Doctor: Where is the pain?\nPatient: In my left elbow.\nDoctor: Okay.')).toEqual(['left elbow pain']);
    // Not a site said in another answer.
    expect(names('Doctor: Where do you work?\nPatient: At my desk, it is bad for my back.\nDoctor: Okay.')).toEqual([]);
  });
});

describe('a yes to a question that lists options', () => {
  it('takes every option the vocabulary knows, unless the answer names another of them ("A bit of cold hands")', () => {
    const gb = (t: string) => structure(t, { locale: 'en-GB', mode: 'consultation' }).complaints.map((c) => c.name);
    expect(gb("Doctor: Any side effects from the propranolol? Cold hands, tiredness, bad dreams?\nPatient: A bit of cold hands but nothing I can't live with.\nDoctor: Okay.")).toEqual([]);
    expect(gb('Doctor: Any side effects from the propranolol? Cold hands, tiredness, bad dreams?\nPatient: A bit, yes.\nDoctor: Okay.')).toEqual(['tiredness']);
    expect(gb('Doctor: Any dizziness with the propranolol?\nPatient: A bit, with the propranolol.\nDoctor: Okay.')).toEqual(['dizziness']);
  });
});

describe('an answer that opens on "no," and goes on to tell', () => {
  it('denies the question, not what it tells ("No, I feel dizzy"); a denial said in it still denies', () => {
    const gb = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => c.name);
    expect(gb('Doctor: Are you feeling okay?\nPatient: No, I feel dizzy.\nDoctor: Okay.')).toEqual(['dizziness']);
    expect(gb('Doctor: Any fever?\nPatient: No, just a cough.\nDoctor: Okay.')).toEqual(['cough']);
    expect(gb('Doctor: Any chest pain?\nPatient: No, I don\'t have chest pain.\nDoctor: Okay.')).toEqual([]);
    expect(gb('Doctor: Any chest pain?\nPatient: No, chest pain.\nDoctor: Okay.')).toEqual([]);
  });

  it('a bellyache is abdominal pain, and "all over my belly" answers where the pain is', () => {
    const gb = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => c.name);
    expect(gb('Doctor: What\'s going on?\nPatient: I am having a bellyache.\nDoctor: Okay.')).toEqual(['abdominal pain']);
    expect(gb('Doctor: Where are you experiencing the most pain?\nPatient: All over my belly.\nDoctor: Okay.')).toEqual(['abdominal pain']);
  });

  it('"irritable bowel", "restless legs" and "fall risk" name no irritability, anxiety or falls', () => {
    expect(names('She has had some irritable bowel syndrome and bowel abnormalities for years.')).toEqual([]);
    expect(names('REVIEW OF SYSTEMS: Positive for restless leg syndrome.')).toEqual([]);
    expect(names('The patient is not anticoagulated due to fall risk.')).toEqual([]);
    expect(names('He is irritable and restless. He had two falls this week.')).toEqual(['irritability', 'anxiety', 'falls']);
  });

  it('"no marked dysuria, hematuria …" and "no report of any lumps" deny the list', () => {
    expect(names('HPI: She reports no marked dysuria, hematuria or history of stones.')).toEqual([]);
    expect(names('HPI: No report of any lumps or masses.')).toEqual([]);
    expect(names('HPI: He reports a marked cough.')).toEqual(['cough']);
  });

  it('a list denied with "focal", "clear-cut", a nipple or slurring of speech in it is denied whole; a temperature not taken is no fever', () => {
    expect(names('HPI: The family noted no slurring of speech, difficulty with vision, or focal weakness at the time.')).toEqual([]);
    expect(names('HPI: He reports no clear-cut chest discomfort or difficulty with angina.')).toEqual([]);
    expect(names('HPI: She had no nipple discharge.')).toEqual([]);
    expect(names('HPI: She has had some hot flashes, but has not taken her temperature.')).toEqual(['hot flashes']);
    expect(names('HPI: He has focal weakness of the left arm and slurring of his speech.')).toEqual(['weakness of left arm', 'difficulty speaking (slurring of his speech)']);
  });

  it('back surgery, or an MRI of the lower back, is no low back pain', () => {
    const gb = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => c.name);
    expect(gb('Doctor: Any surgeries?\nPatient: Yeah, I had lower back surgery in two thousand, and surgery on my left knee about twenty five years ago.\nDoctor: Okay.')).toEqual([]);
    expect(gb("Doctor: What brings you in?\nPatient: It's my lower back, it has been hurting for a week.\nDoctor: Okay.")).toEqual(['low back pain']);
  });

  it('after an allergy, the answer to "it causes you side effects?" is the reaction, not a complaint', () => {
    const gb = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => c.name);
    expect(gb('Doctor: Any allergies?\nPatient: Yes, I am allergic to Bactrim.\nDoctor: It causes you side effects?\nPatient: Yes, it causes me nausea and vomiting.\nDoctor: I see.')).toEqual([]);
  });

  it('"a temperature for two days" is a fever of two days; "temperature 38.5" is a reading', () => {
    expect(complaints('She has had a temperature for two days.').map((c) => [c.name, c.duration ? durationDays(c.duration) : null])).toEqual([['fever', 2]]);
    expect(names('EXAM: Temperature 38.5, pulse 100.')).toEqual([]);
  });
});

describe('words of the ACI-bench consultations that are no complaint (session 47)', () => {
  const us = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => c.name);
  it.each([
    ['an answer word is no phrase\'s first word', "Doctor: Any problems since then?\nPatient: No, I'm feeling good. I do my self breast exams and haven't felt anything since.\nDoctor: Good.", []],
    ['spots seen are no rash', 'Doctor: What happened?\nPatient: This past week I was seeing spots and felt really dizzy.\nDoctor: Okay.', ['seeing spots', 'dizziness']],
    ['"I don\'t even feel it" is no loss of interest', "Doctor: The bruises come from the prednisone.\nPatient: Okay. I don't even feel it when it happens, they just show up.\nDoctor: Yeah.", []],
    ['a worry asked about is no excessive worry', "Doctor: The ultrasound will tell us more.\nPatient: Okay, I shouldn't worry too much then?\nDoctor: No.", []],
    ['falling asleep is no fall', 'Doctor: How are you sleeping?\nPatient: I fell asleep at work yesterday.\nDoctor: Okay.', []],
    ['falling asleep said any way is no fall', 'Doctor: Is she feeding well?\nPatient: Yes, although she falls asleep a lot during breast feeding. I fall asleep at my desk too.\nDoctor: Okay.', []],
    ['someone else named goes on being the subject: "he had a fever"', 'Doctor: What brings you in?\nPatient: I have a sore throat. My husband has been sick too. He had a fever and a cough last week. And I have a headache.\nDoctor: Okay.', ['sore throat', 'headache']],
    ['a relative who may be the patient, said by the one who brings them, is not someone else', 'Doctor: What brings you in?\nPatient: My son has had a fever for two days. He also has a cough.\nDoctor: Okay.', ['fever', 'cough']],
    ['a fall is still one', 'Doctor: What happened?\nPatient: I fell down the stairs and I can\'t fall asleep because of the pain.\nDoctor: Okay.', ['falls (fell down)', 'difficulty falling asleep']],
    ['the medial side of a knee is no flank', "Doctor: let's go back to this medial side you're tender right there is that right\nPatient: yeah\nDoctor: okay", []],
    ['symptoms said back with a comma, then denied', "Doctor: You're not having any headaches or dizziness?\nPatient: Headaches or dizziness, no.\nDoctor: Okay.", []],
  ])('%s', (_, text, expected) => {
    expect(us(text)).toEqual(expected);
  });
});

describe('answers of the MTS-Dialog consultations (session 47)', () => {
  const us = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => c.name);
  it.each([
    ['"I do not have any issues like that" is no yes to the list asked', 'Doctor: Do you experience any chest pain, palpitations, difficulty sleeping at night, leg or arm swelling, or shortness of breath while lying flat?\nPatient: I do not have any issues like that.\nDoctor: Good.', []],
    ['"I do not, no" is no yes either', 'Doctor: Do you suffer from acid reflux?\nPatient: I do not, no.\nDoctor: OK.', []],
    ['"a little, not as bad" still is one', 'Doctor: Do you have any pain in your left leg?\nPatient: a little not as bad as the right\nDoctor: okay', ['left leg pain']],
    ['going to the bathroom regularly is no frequency', 'Doctor: Are you going to the bathroom regularly, no incontinence?\nPatient: Correct.\nDoctor: Good.', []],
    ['not holding on to things is no urgency', "Doctor: What do you mean?\nPatient: I can't hold on to things. I drop things.\nDoctor: I see.", []],
    ['the urgency of a test is no urinary urgency (unlabelled speech)', "ok so tell me what's been going on i've had a fever for the past week and you've recently come from vietnam so you're probably gonna need some blood tests um now the urgency of those blood tests depends partly on what we find when we examine you ok", ['fever']],
    ['urgency of urine is', 'Patient: she is having problems with urgency of urine\nDoctor: okay', ['urinary urgency']],
    ['the doctor going back to the history after the plan: the answer tells complaints', "Patient: my stomach hurts\nDoctor: i think you have gastritis so we will start omeprazole okay\nPatient: okay\nDoctor: and i meant to ask you on your history have you had a fever along with this abdominal pain\nPatient: i've had some chills but no documented fevers\nDoctor: okay", ['abdominal pain', 'chills']],
    ['without going back, a symptom said after the plan is not a complaint', "Patient: my stomach hurts\nDoctor: i think you have gastritis so we will start omeprazole okay\nPatient: okay i've had some chills too\nDoctor: okay", ['abdominal pain']],
  ])('%s', (_, text, expected) => {
    expect(us(text)).toEqual(expected);
  });
});

describe('chief complaints of the MTS-Dialog consultations read against their references (session 48)', () => {
  const us = (t: string) =>
    structure(t, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => (c.duration ? `${c.name} ${c.duration.value} ${c.duration.unit}` : c.name));
  it.each([
    ['a pain placed after it is told: "it is coming from my left side"', 'Doctor: How much pain are you having and where is it?\nPatient: I am in a great deal of pain. It is coming from my left side right here.\nDoctor: Okay.', ['left flank pain']],
    ['a side said of something else places no pain', 'Doctor: How do you sleep?\nPatient: I am in a great deal of pain. I sleep on my left side.\nDoctor: Okay.', []],
    ['"the pain" answering after a site is that site\'s pain', "Doctor: How's your jaw doing?\nPatient: The pain seems to have gotten worse.\nDoctor: Let me take a look.", ['jaw pain']],
    ['"the pain" after a site only mentioned is not that site\'s', 'Patient: He fell and has buttock pain. We got x-rays of his hips and ankles. The pain is pretty severe.\nDoctor: Okay.', ['falls', 'buttock pain']],
    ['a jerky movement is a seizure, and not one of a site', 'Doctor: What is going on?\nPatient: I am having this weird jerky movement in my arm and leg.\nDoctor: Let me look.', ['seizure (jerky movement in my arm)']],
    ['speaking gibberish is confusion', 'Doctor: What do you mean?\nPatient: He is speaking gibberish.\nDoctor: You mean he is not making any sense?', ['confusion (speaking gibberish)']],
    ['small talk with "you have" ends no story', "Doctor: Doctor X referred you to us?\nPatient: Yes.\nDoctor: It looks like you have a birthday coming up. Happy early birthday!\nPatient: Thank you.\nDoctor: Have you had any nausea or vomiting?\nPatient: Yes. I had some nausea, and I threw up a few times.\nDoctor: Okay.", ['nausea', 'vomiting']],
    ['"these are your fingers" ends no story either', 'Doctor: Which fingers do you feel it in?\nPatient: Right here, doctor.\nDoctor: Okay, these are your second, third, and fourth fingers. Any other symptoms?\nPatient: I\'ve had a dry cough for three days.\nDoctor: Okay.', ['dry cough 3 day']],
    ['a cue that names no condition ends no story: "this is kind of the first time"', "Patient: i feel dizzy\nDoctor: so this is kind of the first time it happened\nPatient: yes and now i have a headache too\nDoctor: okay", ['dizziness', 'headache']],
    ['a diagnosis said ends the story', "Patient: my knee hurts\nDoctor: i think you have arthritis in your knee\nPatient: i also have a headache\nDoctor: okay", ['knee pain']],
    ['a yes answers the last question of a run-on turn', "Patient: hi\nDoctor: alright and any nausea vomiting or diarrhea or anything like that are you peeing a whole lot\nPatient: yeah i'm feeling like crazy\nDoctor: okay", ['urinary frequency']],
    ['a question asked again in other words keeps what the first named', "Doctor: when you turn your wrist inwards do you have any pain\nPatient: yeah\nDoctor: okay", ['wrist pain']],
    ['"that rings some bells" is no complaint', 'Doctor: This shows that you had autoimmune hemolytic anemia.\nPatient: Yes, that rings some bells.\nDoctor: Okay.', []],
    ['going to the bathroom with no problem is no frequency', 'Doctor: Are you going to the bathroom with no problem?\nPatient: Yes, doctor, everything is regular there.\nDoctor: Good.', []],
    ['two sites said of one pain are one complaint', "Patient: I've had a headache all week along with neck and lower back pain.\nDoctor: Okay.", ['headache', 'neck and low back pain']],
    ['… with the side said once', 'Doctor: Tell me more.\nPatient: right, my right wrist and hand has been bothering me for a few months now with pain\nDoctor: okay', ['right wrist and hand pain']],
    ['sites asked of as alternatives are not joined', 'Patient: i hurt my right ankle yesterday\nDoctor: what have you been doing for your foot or ankle pain\nPatient: ice\nDoctor: okay', ['right ankle pain']],
    ['weakness or numbness of one side is of half the body, not the flank', 'Doctor: What brings you in?\nPatient: I have weakness on my left side, and my right side is numb. I also have pain in my left side.\nDoctor: Okay.', ['left-sided weakness', 'right-sided numbness', 'left flank pain']],
    ['the time told after the doctor\'s "okay?" is the complaint\'s', "Doctor: How are you?\nPatient: I have a bad cough.\nDoctor: Okay.\nPatient: It's been going on for three days.\nDoctor: I see.", ['cough 3 day']],
    ['"having this for" tells how long', 'Doctor: How are you?\nPatient: I have a bad cough.\nDoctor: Okay.\nPatient: I have been having this for three days.\nDoctor: I see.', ['cough 3 day']],
    ['what the answer to "how long" goes on to tell lasted as long', 'Doctor: What brings you in today?\nPatient: I have had this cough.\nDoctor: How long has this been going on?\nPatient: Two days. I have had body aches too.\nDoctor: Okay.', ['cough 2 day', 'body aches 2 day']],
    ['… not the answer to how long a drug was used', "Doctor: How long have you been using?\nPatient: I don't know. Maybe a year. I can't sleep.\nDoctor: Okay.", ['inability to sleep']],
    ['"are you sleeping well?" - "no, not at all" is trouble sleeping', 'Doctor: Are you sleeping well?\nPatient: Well, no not at all. I even try a little drink before bed.\nDoctor: Okay.', ['inability to sleep']],
    ['… "yes" or "no problems there" is none', 'Doctor: Are you sleeping well?\nPatient: No problems there.\nDoctor: Are you eating well?\nPatient: Yes.\nDoctor: Okay.', []],
    ['sweating at night said as "I do sweat at night" is night sweats', 'Doctor: Have you ever noticed any night sweats?\nPatient: Sometimes I do sweat at night.\nDoctor: Okay.', ['night sweats']],
    ['"I think so" answers yes; feeling chilled is chills, chilled food is not', 'Doctor: Have you had a fever?\nPatient: I think so. I felt chilled. The food was chilled too.\nDoctor: Okay.', ['fever', 'chills']],
    ['"it has been in my stomach" places the pain', 'Doctor: Can you tell me more about the pain?\nPatient: Yes. The pain started four or five days ago. It has been in my stomach and through to my back.\nDoctor: Okay.', ['abdominal pain 5 day']],
    ['"somebody is ringing bells in my ears" is ringing in the ears', 'Doctor: How are you doing?\nPatient: I do get some headaches and it feels like somebody is ringing bells in my ears.\nDoctor: Okay.', ['headache', 'ringing in ears']],
    ['the doctor presenting the case: "he complains of …"', "Doctor: Please present the patient's case. Patient is a seventy six year old male. He complains of generalized weakness and malaise.\nPatient: It's bad whenever I try to stand.\nDoctor: Okay.", ['weakness', 'feeling unwell']],
    ['bitten by a dog is an animal bite; a dog at home is none', 'Doctor: What happened?\nPatient: I was bitten by a dog yesterday. I have a dog at home that is fine.\nDoctor: Okay.', ['animal bite (bitten by a dog)']],
  ])('%s', (_, text, expected) => {
    expect(us(text)).toEqual(expected);
  });
});

describe('a report\'s complaints said of a list of findings (session 48)', () => {
  const us = (t: string) => structure(t, { locale: 'en-US', mode: 'dictation' }).complaints.map((c) => c.name);
  it.each([
    ['"no constitutional complaints such as fevers, chills or sweats" denies them all', 'He has no constitutional complaints such as fevers, chills or sweats. He has a cough.', ['cough']],
    ['"no complaints, such as abdominal pain or back pain" too', 'The patient herself has absolutely no complaints, such as abdominal pain or back pain. She has a headache.', ['headache']],
    ['"denies any recent falls or near falls", "syncope or near-syncope"', 'He denies any recent falls or near falls. He denies palpitations, syncope or near-syncope. He reports dizziness.', ['dizziness']],
    ['a lesion a scan showed is an imaging finding', 'A cervical spine CT scan, 9/25/92, revealed an intramedullary lesion at C2-3 and an extramedullary lesion at C6-7. She has a rash on her arm.', ['rash on arm']],
    ['… unless the sentence turns from the result', 'The x-ray showed nothing, but she has a rash on her arm.', ['rash on arm']],
    ['a patch of a drug or for pain is no lesion', 'He was given some pain patches or Lidoderm patch, I believe. She has a red patch on her arm.', ['red patches on arm']],
    ['the words of telling are no part of a lesion\'s name', 'The patient states that the mass has been present for two weeks. Within a short period of time he realized that he had an itchy rash all over his torso.', ['lump', 'itchy rash all over torso']],
    ['a denied list whose first item the vocabulary lacks is still denied', 'He denied any associated tonic/clonic movement, incontinence, tongue-biting, HA, visual change, SOB, palpitation, weakness or numbness. He has a headache.', ['headache']],
    ['… but not a clause or a restart after the denial', "Patient: I don't know how to say it, without sounding rude, like diarrhoea, for three days.\nPatient: It doesn't smell very, it smells a bit weird.\nDoctor: Okay.", ['diarrhoea', 'foul smelling urine']],
    ['"quite as much shortness of breath" is still some', "Patient: i don't have quite as much shortness of breath\nDoctor: okay", ['shortness of breath']],
  ])('%s', (_, text, expected) => {
    expect(us(text)).toEqual(expected);
  });
});

describe('a report\'s "N-day history of" (session 48)', () => {
  it('gives each complaint the time said before it', () => {
    const timed = (t: string) => structure(t, { locale: 'en-US', mode: 'dictation' }).complaints.map((c) => `${c.name} ${c.duration?.value} ${c.duration?.unit}`);
    expect(timed('He comes in today with a three-day history of emesis and a four-day history of diarrhea.')).toEqual(['vomiting 3 day', 'diarrhoea 4 day']);
    expect(timed('He has had a cough for 2 weeks and a 3-day history of fever.')).toEqual(['cough 2 week', 'fever 3 day']);
  });
});

describe('"Symptoms … for the last 3 to 4 days" after the complaints told (session 49)', () => {
  const timed = (t: string) => structure(t, { locale: 'en-US', mode: 'dictation' }).complaints.map((c) => `${c.name} ${c.duration?.value} ${c.duration?.unit}`);
  it('gives its time to each complaint of the sentences just before it that has none', () => {
    expect(timed('HISTORY OF PRESENT ILLNESS: He presented with chest pain, described as a dull ache. Also, shortness of breath is noted. Symptoms on and off for the last 3 to 4 days.'))
      .toEqual(['chest pain 4 day', 'shortness of breath 4 day']);
    expect(timed('HISTORY OF PRESENT ILLNESS: He has had a cough for 2 weeks. He also has a fever. Symptoms for about 3 days.'))
      .toEqual(['cough 2 week', 'fever 3 day']);
  });
  it('not to a complaint told long before', () => {
    expect(timed('HISTORY OF PRESENT ILLNESS: He has a headache. He works as a driver. He lives with his wife. He has two children. He also has nausea. Symptoms for 3 days.'))
      .toEqual(['headache undefined undefined', 'nausea 3 day']);
  });
});

describe('a denied kind with its examples (session 49)', () => {
  it('"denies abnormal bleeding such as blood in urine or nosebleed" denies the examples', () => {
    const said = (t: string) => structure(t, { locale: 'en-US', mode: 'dictation' }).complaints.map((c) => c.name);
    expect(said('HISTORY: The patient denies any recent surgery, head trauma, abnormal bleeding such as blood in urine or stool or nosebleed.')).toEqual([]);
    expect(said('HISTORY: He denies any bleeding such as nosebleeds.')).toEqual([]);
    expect(said('HISTORY: No fever. He reports bleeding such as nosebleeds.')).toEqual(['nose bleed']);
  });
});

describe('a report read out without punctuation (session 49)', () => {
  it('gives a complaint no time told more than thirty words from it', () => {
    const filler = 'she lives at home with her husband and two daughters and she works part time in an office downtown and she enjoys gardening and walking her dog in the park near her house on most days of the week';
    const text = `history of present illness the patient is a sixty year old woman who has had a cough with mild shortness of breath and ${filler} she does have a history of dvt but this was thirty years ago and ${filler}`;
    const c = structure(text, { locale: 'en-US', mode: 'dictation' }).complaints;
    expect(c.map((x) => x.name)).toEqual(['cough', 'shortness of breath']);
    expect(c.map((x) => x.duration ?? null)).toEqual([null, null]);
    expect(structure(`history of present illness ${filler} she has had a cough for three days and ${filler}`, { locale: 'en-US', mode: 'dictation' }).complaints[0]?.duration).toEqual({ value: 3, unit: 'day' });
  });
});

describe('"Onset was 6 months ago" after the complaints (session 49)', () => {
  it('is their onset, also after a template label', () => {
    const timed = (t: string) => structure(t, { locale: 'en-US', mode: 'dictation' }).complaints.map((c) => `${c.name} ${c.duration?.value}`);
    expect(timed('HISTORY: She complains of headache. Onset was 3 days ago.')).toEqual(['headache 3']);
    expect(timed('CHIEF COMPLAINT: Associated signs and symptoms include nocturia and urinary hesitancy. Timing (onset/frequency): Onset was 6 months ago.'))
      .toEqual(['nocturia 6', 'difficulty urinating 6']);
  });
});

describe('"How long have you had this problem?" after an answer of several sentences (session 49)', () => {
  it('asks after each complaint of that answer', () => {
    const timed = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => `${c.name} ${c.duration?.value} ${c.duration?.unit}`);
    expect(timed("Doctor: Any diarrhea?\nPatient: No, I am having constipation every now and then, it's really bothering me now. I feel bloated all the time.\nDoctor: Oh, how long have you had this problem?\nPatient: Couple of months now."))
      .toEqual(['constipation 2 month', 'bloating 2 month']);
  });
  it('"my leg has fallen asleep" is no fall', () => {
    expect(names('Patient: I feel the tingling and sometimes. I feel like my leg has fallen asleep.')).not.toContain('falls');
    expect(names('Patient: I have fallen twice this month.')).toContain('falls');
  });
});

describe('a time said in a later clause of its own (session 49)', () => {
  it('is that clause\'s complaint\'s, not the ones told before it', () => {
    const timed = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => `${c.name} ${c.duration ? `${c.duration.value} ${c.duration.unit}` : '-'}`);
    expect(timed("Doctor: how is your appetite\nPatient: since i'm a little nauseated i'm not as hungry and i feel a little more tired over the last week"))
      .toEqual(['nausea -', 'decreased appetite (not as hungry) -', 'tiredness 1 week']);
    expect(timed('Patient: i have a cough and a fever for three days')).toEqual(['cough 3 day', 'fever 3 day']);
  });
});

describe('someone else\'s troubles, then the patient\'s own in the same sentence (session 50)', () => {
  const said = (line: string) => structure(
    `Doctor: hi, what brings you in today?\nPatient: ${line}\nDoctor: okay, let me take a look.`, { locale: 'en-US', mode: 'consultation' },
  ).complaints.map((c) => c.name);
  it('"my husband has had a cough and now I have a sore throat": the sore throat is the patient\'s, the cough is not', () => {
    expect(said('my husband has had a cough for a week and now i have a sore throat.')).toEqual(['sore throat']);
    expect(said('my husband has had a cough for a week and i think he has a fever too.')).toEqual([]);
  });
  it('"my son had a fever and a rash and I\'ve got a headache": the speaker is the patient, the son someone else', () => {
    expect(said("my son had a fever and a rash last week and i've got a headache and a cough.")).toEqual(['headache', 'cough']);
    // A parent telling the child's story: the child is the patient.
    expect(said('my son has had a fever and a rash since last week and it is getting worse.')).toEqual(['fever', 'rash']);
  });
});

describe('a side effect the patient asks about (session 51)', () => {
  const said = (line: string) => structure(
    `Doctor: what brings you in today?\nPatient: my back hurts.\nDoctor: take naproxen 500 mg twice a day.\nPatient: ${line}\nDoctor: it shouldn't.`, { locale: 'en-US', mode: 'consultation' },
  ).complaints.map((c) => c.name);
  it('"will that make me feel sick again?" adds no nausea; "it makes me feel sick" still tells it', () => {
    expect(said('will that make me feel sick again?')).toEqual(['back pain']);
    expect(said('okay, and will the tablets give me a headache')).toEqual(['back pain']);
    expect(said('the last one made me feel sick.')).toEqual(['back pain', 'nausea']);
  });
});

describe('a named disease with "fever" in its name is no fever (session 53)', () => {
  const said = (line: string) => structure(`Doctor: what brings you in today?\nPatient: ${line}`, { locale: 'en-GB', mode: 'consultation' }).complaints.map((c) => c.name);
  it('"hay fever", "glandular fever", "scarlet fever" add no fever; a fever said beside them still counts', () => {
    expect(said('I get hay fever every summer, and my back hurts.')).toEqual(['back pain']);
    expect(said('I had glandular fever as a teenager.')).toEqual([]);
    expect(said('my hay fever is bad this week, and now a fever too.')).toEqual(['fever']);
  });
});

describe('"for 3 weeks after a fall" is how long (session 53)', () => {
  it('a complaint "for N weeks after" an event keeps its duration; "2 days after the vaccine" is still no duration', () => {
    expect(days('HPI: 45-year-old female with left knee pain for 3 weeks after a fall.', 'left knee pain')).toBe(21);
    expect(days('HPI: she had a fever 2 days after the vaccine.', 'fever')).toBeNull();
  });
});

describe('an episode\'s length is not how long the complaint has lasted (session 56)', () => {
  const told = (text: string) => structure(text, { locale: 'en-US', mode: 'dictation' }).complaints.map((c) => [c.name, c.duration?.value, c.duration?.unit]);
  it('"palpitations lasting less than an hour" has no duration; "headaches lasting up to 2 hours for the past month" lasts a month', () => {
    expect(told('HISTORY OF PRESENT ILLNESS: He reports occasional palpitations, about once a week, lasting less than an hour.')).toEqual([['palpitations', undefined, undefined]]);
    expect(told('HISTORY OF PRESENT ILLNESS: She has headaches lasting up to 2 hours for the past month.')).toEqual([['headache', 1, 'month']]);
    expect(told('HISTORY OF PRESENT ILLNESS: She has had a cough for less than a week.')).toEqual([['cough', 1, 'week']]);
  });
});

describe('told in British words (session 56)', () => {
  // The name is followed by the patient's words where they differ: "nocturia (times a night to pass water)".
  const told = (text: string) => structure(text, { locale: 'en-GB', mode: 'consultation' }).complaints.map((c) => c.name.split(' (')[0]);
  it('"up three or four times a night to pass water" is nocturia; "about half a stone" answers the weight question', () => {
    expect(told("Patient: I'm always thirsty and I'm up three or four times a night to pass water.")).toEqual(['excessive thirst', 'nocturia']);
    expect(told('Doctor: Have you lost any weight?\nPatient: About half a stone I think.')).toEqual(['weight loss']);
    expect(told('Doctor: Have you lost any weight?\nPatient: Not even a pound.')).toEqual([]);
  });
});

describe('a phrasal verb is no injury (session 57)', () => {
  const told = (text: string) => structure(text, { locale: 'en-US', mode: 'consultation' }).complaints.map((c) => c.name.split(' (')[0]);
  it('"cut back on sugary drinks" is advice, not a cut on the back; "I cut my back on a nail" still is one', () => {
    // "you said" makes the doctor's turn a summary of the story, where every complaint word counts.
    expect(told("Doctor: You said you'd rather not do injections, so I'm adding Jardiance. Cut back on sugary drinks and try to walk thirty minutes a day.")).toEqual([]);
    expect(told("Patient: I cut my back on a nail in the shed yesterday.")).toEqual(['cut on back']);
  });
});
