import { describe, expect, it } from 'vitest';
import { structure } from '../../server/clinical-nlp/structure.js';
import { matchIcd } from '../../server/clinical-nlp/codify.js';

const run = (text: string) => structure(text, { locale: 'en-IN' });
const dx = (text: string) => run(text).diagnoses.map((d) => [d.icd10?.code ?? d.name, d.certainty]);
const codes = (text: string) => run(text).diagnoses.map((d) => d.icd10?.code ?? d.name);

describe('diagnosis names as said', () => {
  it('codes prolapse, cruciate, clotting and other conditions an assessment list names (vocabulary, icd10.json)', () => {
    expect(codes('IMPRESSION: 1. Cystocele and rectocele. 2. Possible vaginal prolapse.')).toEqual(['N81.1', 'N81.6', 'N81.9']);
    expect(codes('ASSESSMENT: 1. ACL tear, right knee. 2. Coagulopathy. 3. Elevated white count.')).toEqual(['S83.5', 'D68.9', 'D72.8']);
    expect(codes('FINAL IMPRESSION: 1. Biliary atresia. 2. Intracranial aneurysm. 3. Disseminated intravascular coagulation.')).toEqual(['Q44.2', 'I67.1', 'D65']);
  });

  it('takes what it appears to be, fits with or is in keeping with as what the doctor makes of it, as what it looks like', () => {
    expect(dx('Crusting around the nares. It appears to be impetigo.')).toEqual([['L01.0', 'confirmed']]);
    expect(dx('Doctor: it looks to be a viral infection, nothing serious.')).toEqual([['B34.9', 'confirmed']]);
    expect(dx('She appears to be in no acute distress.')).toEqual([]);
    expect(dx('Doctor: your symptoms fit with irritable bowel syndrome.')).toEqual([['K58.9', 'confirmed']]);
    expect(dx('Findings in keeping with plantar fasciitis.')).toEqual([['M72.2', 'confirmed']]);
  });

  it("shows a name without the speaker's repeats, restarts, cut-off words and the talk after it", () => {
    const names = (text: string) => run(text).diagnoses.map((d) => [d.name, d.icd10?.code]);
    expect(names('Doctor: so this looks like rotator cuff rotator cuff tendinopathy')).toEqual([['rotator cuff tendinopathy', 'M75.1']]);
    expect(names('Doctor: so you have radicul radiculopathy')).toEqual([['radiculopathy', 'M54.1']]);
    // Words after the name with no link word to it are talk, not its site.
    expect(names('Doctor: i think this is cellulitis around the area')).toEqual([['cellulitis', 'L03.9']]);
    expect(names('Doctor: i think you have tennis elbow go figure')).toEqual([['tennis elbow', 'M77.1']]);
    expect(names('Doctor: i think you have thrombosis of the left popliteal vein')).toEqual([['thrombosis of the left popliteal vein', 'I80.2']]);
    // A word cut off in speech and a quantity before the name ("a lot of", "so much") are not its words.
    expect(names('Doctor: you still have that em- those emphysema changes on your chest x-ray.\nPatient: okay.')).toEqual([['emphysema', 'J43.9']]);
    expect(names('Doctor: you know, you have a lot of arthritis for someone so young.\nPatient: okay.')).toEqual([['arthritis', 'M13.9']]);
  });

  it('reads no diagnosis in a speaker introducing themself with a name that is also an abbreviation', () => {
    expect(codes('Doctor: hello, this is ida from the practice, how can i help?')).toEqual([]);
    expect(codes('Doctor: hi this is sam calling from your gp surgery')).toEqual([]);
    expect(codes('Doctor: this is gout from the look of it')).toEqual(['M10.9']);
  });

  it('codes a foot ulcer as an ulcer of the lower limb, and a bare "ulcer" or "fistula" as no particular one', () => {
    expect(codes('Doctor: you have a nonhealing ulcer of your right foot')).toEqual(['L97']);
    expect(codes('Doctor: you have a foot ulcer')).toEqual(['L97']);
    expect(codes('Doctor: you have this ulcer on the heel')).not.toContain('K27.9');
    expect(codes('Doctor: i think you have a peptic ulcer')).toEqual(['K27.9']);
    // So is a fistula: a dialysis patient's is no anal fistula.
    expect(codes('Doctor: you have an av fistula in the left arm')).not.toContain('K60.3');
    expect(codes('Doctor: i think you have an anal fistula')).toEqual(['K60.3']);
  });
});

describe('diagnosis lists', () => {
  it('keeps every item of a spoken numbered list, in one sentence or several', () => {
    expect(codes('impression, number one, migraine without aura. number two, iron deficiency anaemia. number three, hypothyroidism.')).toEqual(['G43.0', 'D50.9', 'E03.9']);
    expect(codes('assessment one plantar fasciitis two obesity three vitamin d deficiency plan tab calcium')).toEqual(['M72.2', 'E66.9', 'E55.9']);
    expect(codes('Diagnosis: first, tension headache; second, migraine without aura.')).toEqual(['G44.2', 'G43.0']);
  });

  it('reads names joined by a slash as a report writes them, not abbreviations', () => {
    expect(codes('Assessment: 1. Plantar fasciitis/heel spur syndrome, right foot. 2. Gastroenteritis/dehydration. Plan: ice.')).toEqual(['M72.2', 'A09.9', 'E86']);
    expect(codes('h/o asthma. diagnosis: r/o pneumonia.')).toEqual(['J18.9']);
  });

  it('splits at semicolons, "and", "also" and between names said without punctuation', () => {
    expect(codes('Assessment: scabies; impetigo; head lice.')).toEqual(['B86', 'L01.0', 'B85.0']);
    expect(codes('impression acute bronchitis and allergic rhinitis plan tab montelukast')).toEqual(['J20.9', 'J30.4']);
    expect(codes('diagnosis gout of the right big toe also hyperuricaemia')).toContain('E79.0');
    expect(codes('diagnosis primary osteoarthritis of both knees obesity and hypertension')).toEqual(['M17.0', 'E66.9', 'I10']);
  });

  it('ends the list where the plan starts, even without punctuation', () => {
    const f = run('diagnosis acute tonsillitis tab azithromycin 500 mg once daily for 3 days');
    expect(f.diagnoses.map((d) => d.name)).toEqual(['acute tonsillitis']);
  });

  it('shows a name without the spoken words around it', () => {
    const names = (text: string) => structure(text, { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => d.name);
    expect(names('Patient: it hurts.\nDoctor: so what you have here would be lateral epicondylitis, um, tennis elbow.')).toEqual(['lateral epicondylitis']);
    expect(names('Patient: okay.\nDoctor: i think this is gout, uh, in that toe.')).toEqual(['gout']);
    expect(names('Patient: okay.\nDoctor: i believe you have type 2 diabetes first of all, and we will start metformin.')).toEqual(['type 2 diabetes']);
  });

  it('a name set aside ("rather than a migraine") ends the list and is no diagnosis; "either … or" is suspected', () => {
    const f = (text: string) => structure(`Patient: okay.\nDoctor: ${text}\nPatient: right.`, { locale: 'en-GB', mode: 'consultation' }).diagnoses.map((d) => [d.name, d.certainty]);
    expect(f('it sounds like a tension type headache rather than a migraine')).toEqual([['tension type headache', 'confirmed']]);
    expect(f("it's either a muscle strain or a disc problem, we'll see how it goes")).toEqual([['muscle strain', 'suspected']]);
    expect(structure('ASSESSMENT: I think this is still his allergic rhinitis rather than a sinus infection.', { locale: 'en-US' }).diagnoses.map((d) => d.name)).toEqual(['allergic rhinitis']);
  });

  it('a condition named as what the patient has risk factors for or was given information about is no diagnosis', () => {
    const names = (text: string) => structure(text, { locale: 'en-US' }).diagnoses.map((d) => d.name);
    expect(names('EXAM: Vitreous clear.,IMPRESSION: She does have moderate myopia. She does not have any obvious risk factors for retinal detachment such as lattice degeneration.')).toEqual(['moderate myopia']);
    expect(names('PLAN: She was given information about gestational diabetes and a meal plan.')).toEqual([]);
    expect(names('PATIENT INSTRUCTIONS: Patient received written information regarding pre-eclampsia and eclampsia.')).toEqual([]);
  });

  it('"if this was a cyst …" supposes a diagnosis, it names none', () => {
    expect(structure('She is very interested in not having pain with her periods and if this was a cyst that caused her pain, she is interested in starting birth control pills.', { locale: 'en-US' }).diagnoses).toEqual([]);
  });

  it('a condition the doctor has to consider is suspected', () => {
    const f = (text: string) => structure(text, { locale: 'en-US' }).diagnoses.map((d) => [d.name, d.certainty]);
    expect(f("ASSESSMENT: Although unlikely based on the patient's exam, I have to consider subclinical pelvic inflammatory disease.")).toEqual([['subclinical pelvic inflammatory disease', 'suspected']]);
    expect(f('IMPRESSION: Need to consider early appendicitis.')).toEqual([['early appendicitis', 'suspected']]);
  });

  it('a name given after a comma ("…, what we call a meniscal tear") keeps the hedge of the clause it names', () => {
    const f = (text: string) => structure(text, { locale: 'en-GB', mode: 'consultation' }).diagnoses.map((d) => [d.name, d.certainty]);
    expect(f("Patient: my knee locks\nDoctor: I'm worried you may have torn the cartilage, what we call a meniscal tear.")).toEqual([['meniscal tear', 'suspected']]);
    expect(f('Patient: my knee locks\nDoctor: You have torn the cartilage, what we call a meniscal tear.')).toEqual([['meniscal tear', 'confirmed']]);
  });

  it('keeps a qualifier said after the name with the name, not how it is doing today', () => {
    const f = run('Impression: atrial fibrillation, rate controlled; hypertension, stable; urinary tract infection improving.');
    expect(f.diagnoses.map((d) => [d.name, d.icd10?.code])).toEqual([
      ['atrial fibrillation, rate controlled', 'I48.9'],
      ['hypertension', 'I10'],
      ['urinary tract infection', 'N39.0'],
    ]);
  });

  it('what a test shows names a diagnosis; a test that shows nothing names none', () => {
    const names = (text: string) => structure(text, { locale: 'en-GB', mode: 'consultation' }).diagnoses.map((d) => [d.name, d.certainty]);
    expect(names("Doctor: so the x-ray showed moderate osteoarthritis in the right knee what i'd suggest is we try a steroid injection")).toEqual([['moderate osteoarthritis in the right knee', 'confirmed']]);
    expect(names("Doctor: The blood tests show that there's some anaemia.")).toEqual([['anaemia', 'confirmed']]);
    expect(names('Doctor: The x-ray shows no fracture. Your chest x-ray showed some fluid.')).toEqual([]);
    expect(names("Doctor: If the x-ray shows a fracture, I'll call you and we'll send you to orthopaedics.")).toEqual([]);
  });

  it('a condition a vaccine, a screening or a diet is against is no diagnosis; a drug injection after a name leaves it one', () => {
    const names = (text: string) => structure(text, { locale: 'en-US', mode: 'dictation' }).diagnoses.map((d) => d.name);
    expect(names('ASSESSMENT:,1.  Hepatitis B second injection will be given today.,2.  Insomnia.')).toEqual(['insomnia']);
    expect(names('Assessment: hypertension. Plan: pneumonia vaccine today, hepatitis c screening.')).toEqual(['hypertension']);
    expect(names('diagnosis food poisoning with mild dehydration injection emeset four mg iv stat given')).toContain('mild dehydration');
    expect(names('ASSESSMENT AND PLAN:\n1. Heart failure exacerbation. Increase furosemide. Daily weights. Low-sodium diet.')).toEqual(['heart failure']);
  });

  it('a report read without its colons: what its spoken background headings list is history, its assessment is not', () => {
    const names = (text: string) => structure(text, { locale: 'en-US', mode: 'dictation' }).diagnoses.map((d) => d.name);
    const report = 'history of present illness the patient comes in today because of feeling lightheaded his dose of metoprolol was increased '
      + 'past medical history detailed on our h and p form positive for elevated cholesterol diabetes glaucoma cataracts hypertension heart disease '
      + 'current medications detailed on the h and p form physical examination his blood pressure sitting down was one eighty over eighty '
      + 'impression and plan this lightheaded he exquisitely denies vertigo';
    expect(names(report)).not.toContain('glaucoma');
    expect(names(report)).not.toContain('diabetes');
    const story = 'history of present illness she is a 74 year old woman who has a past medical history of stroke who presented with worsening '
      + 'hypertension impression accelerated hypertension';
    expect(names(story)).toContain('accelerated hypertension');
  });

  it('ends a name at the viewpoint it was said from', () => {
    expect(run('Impression: from a gout standpoint everything is nice and stable.').diagnoses.map((d) => d.name)).toEqual(['gout']);
  });
});

describe('names in a report\'s assessment', () => {
  const names = (text: string) => structure(text, { locale: 'en-US', mode: 'dictation' }).diagnoses.map((d) => [d.name, d.icd10?.code]);

  it('reads list items that open on qualifiers or name a cancer, a stone or blood in the urine', () => {
    expect(names('IMPRESSION: ,1.  Adenocarcinoma of the prostate.,2.  Right distal ureteral calculus.,3.  Microhematuria.,PLAN: , Cystoscopy.')).toEqual([
      ['adenocarcinoma of the prostate', 'C61'],
      ['right distal ureteral calculus', 'N20.1'],
      ['microhematuria', 'R31'],
    ]);
  });

  it('gastroenteritis said to be an infection is of infectious origin (A09.0), one diagnosis', () => {
    const talk = 'Doctor: what brings you in?\nPatient: diarrhoea for three days.\nDoctor: it seems like you may have something called gastroenteritis, which is essentially a tummy bug or infection of your tummy.';
    expect(structure(talk, { locale: 'en-GB', mode: 'consultation' }).diagnoses.map((d) => [d.name, d.icd10?.code])).toEqual([['gastroenteritis', 'A09.0']]);
  });

  it('codes a name at its own specificity, not a neighbour\'s (WHO ICD-10)', () => {
    expect(['pulmonary hypertension', 'cholecystitis', 'intrinsic asthma', 'incomplete abortion', 'hypertensive nephrosclerosis', 'pseudomembranous colitis'].map((n) => matchIcd(n)?.entry.code))
      .toEqual(['I27.2', 'K81.9', 'J45.1', 'O03.4', 'I12.9', 'A04.7']);
  });

  it('codes a name said with words its entry lacks, down to the useful score (0.6)', () => {
    const coded = ['mild persistent asthma exacerbation', 'essential hypertension stage 2', 'tension type headache chronic daily'].map((n) => matchIcd(n));
    expect(coded.map((m) => m?.entry.code)).toEqual(['J45.9', 'I10', 'G44.2']);
    // Partial matches, each scoring between the useful score and 0.8.
    for (const m of coded) expect(m!.score).toBeGreaterThanOrEqual(0.6);
    for (const m of coded) expect(m!.score).toBeLessThan(0.8);
  });

  it('a word of a name without its head codes nothing: "water", "personally", "status post", "lower back"', () => {
    expect(matchIcd('water')).toBeUndefined();
    expect(matchIcd('personally')).toBeUndefined();
    expect(matchIcd('status post')).toBeUndefined();
    expect(matchIcd('lower back')).toBeUndefined();
    expect(matchIcd('carpal tunnel')?.entry.code).toBe('G56.0');
    // Another diagnosis word in place of one of the name's is another condition; a name heard by sound needs two words.
    expect(matchIcd('renal artery stenosis')?.entry.code).toBe('I70.1');
    expect(matchIcd('vertebral artery stenosis')).toBeUndefined();
    expect(matchIcd('visually limiting')).toBeUndefined();
    expect(matchIcd('q fever')?.entry.code).toBe('A78');
    expect(names('ASSESSMENT: The x-rays were personally reviewed by me. She tolerated water postprocedure.')).toEqual([]);
  });

  it('leaves out a denied or prevented name, and list words around a name', () => {
    expect(names('ASSESSMENT:,1.  The patient has no evidence of disease.,2.  DVT prophylaxis.,3.  Hypertension, not controlled.')).toEqual([['hypertension, not controlled', 'I10']]);
  });

  it('leaves the patient out of the name and a negated name out of the list', () => {
    expect(names('ASSESSMENT: This is a 70-year-old male with signs and symptoms of benign prostatic hypertrophy.')).toEqual([['benign prostatic hypertrophy', 'N40']]);
    expect(names("Doctor: we took an x-ray and it looks like you don't have any fractures.\nPatient: good.")).toEqual([]);
  });
});

describe('names after a diagnosis cue', () => {
  it('a word coded only by its sound is no diagnosis; a vocabulary word is', () => {
    expect(codes("Doctor: hold off on pottery for two weeks, you know it's awesome that you want to do these things\nPatient: okay")).toEqual([]);
    expect(codes("Doctor: so i think what you have is basically just a strain of that muscle\nPatient: okay")).not.toEqual([]);
  });

  it('"I think you\'re describing …" names what the patient has', () => {
    expect(codes("Patient: I wake at four and can't get back off\nDoctor: I think you're describing depression again, probably moderate.")).toEqual(['F32.9']);
  });

  it('everyday words found in some ICD-10 name do not make small talk a diagnosis', () => {
    expect(codes('Patient: yeah we are building a man cave\nDoctor: that is awesome great well that sounds like fun')).toEqual([]);
    expect(codes('Doctor: I do smell the odor, you are correct, it is odds but the bone is fine\nPatient: okay')).toEqual([]);
    expect(codes('Doctor: this is a weird question but do you have pets\nPatient: a cat')).toEqual([]);
    expect(codes('Patient: my knee hurts\nDoctor: i think this is the best course of action to deal with the deeper problem')).toEqual([]);
    expect(codes("Patient: my knee hurts\nDoctor: it's odd for just an isolated ligament to need surgery")).toEqual([]);
  });

  it('"would you have any …" asks: what follows is no diagnosis', () => {
    expect(codes('Doctor: and when it started would you have any trauma to your ankle or did it just happen\nPatient: it just happened')).toEqual([]);
    expect(codes('Doctor: so you have gout in that toe\nPatient: okay')).toEqual(['M10.9']);
  });
});

describe('certainty', () => {
  it('reads conversational phrasing as confirmed and hedges as suspected, item by item', () => {
    expect(dx('I think it is a frozen shoulder.')).toEqual([['M75.0', 'confirmed']]);
    expect(dx('This sounds like vestibular neuritis.')).toEqual([['H81.2', 'confirmed']]);
    expect(dx('this looks like a tension headache, and possibly a mild depression as well.')).toEqual([
      ['G44.2', 'confirmed'],
      ['F32.0', 'suspected'],
    ]);
    expect(dx('Impression: gastritis, rule out peptic ulcer, and anaemia.')).toEqual([
      ['K29.7', 'confirmed'],
      ['K27.9', 'suspected'],
      ['D64.9', 'confirmed'],
    ]);
    expect(dx('I suspect this is a viral fever.')).toEqual([['B34.9', 'suspected']]);
  });

  it('reads "you\'ve got", "sounds more like" and a name said "to me" or set against another with "than"', () => {
    expect(dx("Doctor: I think you've got shingles.")).toEqual([['B02.9', 'confirmed']]);
    expect(dx("Doctor: You've got a bit of tendonitis in that shoulder.")).toEqual([['M77.9', 'confirmed']]);
    expect(dx("Doctor: You've got to rest it.")).toEqual([]);
    expect(dx("Doctor: It's not a migraine, it sounds more like a tension headache.")).toEqual([['G44.2', 'confirmed']]);
    expect(run('Doctor: This looks like shingles to me.').diagnoses.map((d) => d.name)).toEqual(['shingles']);
    expect(run('Doctor: This looks more like eczema than psoriasis.').diagnoses.map((d) => d.name)).toEqual(['eczema']);
  });

  it('finds a hedged diagnosis said without a cue, but not a negated or family one', () => {
    expect(dx('her knees are swollen in the mornings, this could be rheumatoid arthritis, we will check rf.')).toEqual([['M06.9', 'suspected']]);
    expect(dx('no evidence of pneumonia on the film.')).toEqual([]);
    expect(dx('his brother has epilepsy. diagnosis tension headache.')).toEqual([['G44.2', 'confirmed']]);
  });

  it('a hedge said straight after the cue covers the list, but only the first item of a numbered one', () => {
    expect(dx("i think it's, um, probably just what we'd say a uti.")).toEqual([['N39.0', 'suspected']]);
    expect(dx('i think it is probably a migraine, and a mild depression.')).toEqual([
      ['G43.9', 'suspected'],
      ['F32.0', 'suspected'],
    ]);
    expect(dx('impression one probable obstructive sleep apnoea two hypertension three obesity plan sleep study')).toEqual([
      ['G47.3', 'suspected'],
      ['I10', 'confirmed'],
      ['E66.9', 'confirmed'],
    ]);
  });

  it('a cue the doctor denies names nothing; one that waits on a result names a suspected diagnosis', () => {
    expect(dx("i don't think this is a migraine, i think it's a tension headache.")).toEqual([['G44.2', 'confirmed']]);
    expect(dx('if the swab comes back positive then it is strep throat.')).toEqual([['J02.0', 'suspected']]);
  });
});

describe('chronic conditions and visits', () => {
  it('names a known condition treated at this visit and normalises the adjective', () => {
    const f = run('known hypertensive for ten years on tab amlodipine 5 mg, continue the same. diagnosis acute sinusitis.');
    expect(f.diagnoses.map((d) => [d.name, d.icd10?.code])).toContainEqual(['hypertension', 'I10']);
    expect(run('she is a known asthmatic on inhalers').diagnoses.map((d) => d.name)).toEqual(['asthma']);
    expect(run('not a diabetic, no other illness').diagnoses).toEqual([]);
  });

  it('takes a condition said to be controlled or not as a diagnosis, not a symptom', () => {
    expect(codes('her thyroid disease is well controlled on the current dose. the hypertension is not controlled.')).toContain('I10');
    expect(codes('the pain is controlled now')).toEqual([]);
    expect(codes("so your asthma isn't well controlled at the moment.")).toEqual(['J45.9']);
    expect(codes('so your migraines are much better controlled. we will carry on with propranolol.')).toEqual(['G43.9']);
    expect(codes('so migraine much better controlled. carry on with propranolol.')).toEqual(['G43.9']);
    expect(codes('the pain is much better controlled now')).toEqual([]);
  });

  it('what a drug is taken for when needed ("tizanidine 2 mg at bedtime prn muscle spasm") is no diagnosis made', () => {
    expect(codes('plan meloxicam 15 mg daily. tizanidine 2 mg at bedtime prn muscle spasm.')).toEqual([]);
    expect(codes('plan meloxicam 15 mg daily for muscle spasm.')).toEqual(['M62.8']);
  });

  it('does not turn complaints in the history into diagnoses', () => {
    expect(codes('fever and cough since three days, headache since yesterday. pulse 90.')).toEqual([]);
  });

  it('takes a condition named whole after the findings when the cue word was lost, but not the past, the family, a negation, a test or a symptom', () => {
    expect(codes('thirty year old man ear pain for three days on examination left drum bulging and red acute suppurative otitis media tab amoxicillin five hundred mg three times a day for five days')).toEqual(['H66.0']);
    expect(codes('on examination scaly plaques on both elbows chronic plaque psoriasis apply the cream twice daily')).toEqual(['L40.0']);
    expect(codes('on examination chest clear father had pulmonary tuberculosis no features of acute appendicitis get hepatitis b surface antigen and tab paracetamol for the back pain')).toEqual([]);
    // Before the findings a named condition is the story, not this visit's diagnosis.
    expect(codes('she was treated for acute suppurative otitis media last year now fever since two days')).toEqual([]);
  });

  it('a note that says no diagnosis is about the problem its history says the visit is for', () => {
    const note = (plan: string): string[] => codes(`SUBJECTIVE: A 70-year-old woman with the problem of essential hypertension. She takes her tablets every day. ASSESSMENT AND PLAN: ${plan}`);
    expect(note('She is doing well. Continue the current medication and return in three months.')).toEqual(['I10']);
    expect(note('Acute bronchitis. Rest and fluids.')).toEqual(['J20.9']);
  });

  it('codes a routine visit by age and a pregnancy by gravida', () => {
    expect(codes('eighteen month old girl brought for a routine check up. growing well.')).toEqual(['Z00.1']);
    expect(codes('primigravida at 20 weeks here for a routine antenatal visit. diagnosis anaemia.')).toEqual(['Z34.0', 'O99.0']);
  });
});

describe('ICD-10 specificity', () => {
  it('keeps the qualifiers that change the code, and no more', () => {
    expect(matchIcd('paroxysmal atrial fibrillation')?.entry.code).toBe(matchIcd('atrial fibrillation')?.entry.code);
    expect(matchIcd('postmenopausal osteoporosis')?.entry.code).toBe('M81.0');
    expect(matchIcd('osteoporosis')?.entry.code).toBe('M81.9');
    expect(matchIcd('chronic kidney disease stage 3b')?.entry.code).toBe('N18.3');
    expect(matchIcd('acute anterior uveitis')?.entry.code).toBe('H20.0');
    expect(matchIcd('allergic rhinitis')?.entry.code).toBe('J30.4');
    expect(codes('diagnosis type 2 diabetes mellitus with diabetic retinopathy')).toEqual(['E11.3']);
    expect(codes('diagnosis hyperemesis gravidarum with dehydration')).toEqual(['O21.1']);
  });
});

describe('allergies', () => {
  const allergies = (text: string) => run(text).history.allergies;
  it('keeps the allergen only', () => {
    expect(allergies('she is allergic to cotrimoxazole, gets a rash.')).toEqual(['sulfamethoxazole + trimethoprim']);
    expect(allergies('penicillin allergy noted. allergy to erythromycin, so we will give doxycycline instead.')).toEqual(['penicillin', 'erythromycin']);
    expect(allergies('Allergies: sulpha drugs.')).toEqual(['sulpha drugs']);
    expect(allergies('no known drug allergies. not allergic to anything.')).toEqual([]);
  });

  it('an answer\'s lead word never takes the start of a drug\'s name ("er" of erythromycin, "to" of topiramate, "doc" of docusate)', () => {
    const answered = (answer: string) => structure(`Doctor: any drug allergies?\nPatient: ${answer}`, { locale: 'en-GB', mode: 'consultation' }).history.allergies;
    expect(answered('yes, erythromycin.')).toEqual(['erythromycin']);
    expect(answered('erythromycin and trimethoprim.')).toEqual(['erythromycin', 'trimethoprim']);
    expect(answered('topiramate, it gave me tingling.')).toEqual(['topiramate']);
    expect(answered('er, erythromycin.')).toEqual(['erythromycin']);
  });

  it('read without speaker labels, the answer after the allergy question in the same breath; not the question\'s own words, nor a denial', () => {
    const heard = (t: string) => structure(t, { locale: 'en-GB', mode: 'consultation' }).history.allergies;
    expect(heard("do you have any allergies i'm allergic to ibuprofen it makes my asthma worse")).toEqual(['ibuprofen']);
    expect(heard('ok and do you have any allergy to any medications um yeah i think there was an antibiotic um called clindamycin')).toEqual(['clindamycin']);
    expect(heard('any allergies to medication just codeine it makes me really sick')).toEqual(['codeine']);
    expect(heard('any allergies to penicillin no')).toEqual([]);
    expect(heard("do you have allergies to any kind of cats or dogs or pets\nuh not that i know of i've been around dogs and cats")).toEqual([]);
    expect(heard('Doctor: do you have any allergies to penicillin?')).toEqual([]);
  });

  it('"I\'m allergic to it", "it gave me a rash" told just after the doctor names a drug is an allergy to that drug, and flags it', () => {
    const told = (answer: string) => structure(`Doctor: I'm going to give you ibuprofen 400 mg, and amoxicillin, 500 milligrams three times a day.\nPatient: ${answer}\nDoctor: Okay.`, { locale: 'en-GB', mode: 'consultation' });
    for (const answer of ["I think I'm allergic to it.", 'I had a rash with it before.', 'It gave me a rash last time.']) {
      const f = told(answer);
      expect(f.history.allergies).toEqual(['amoxicillin']);
      expect(f.flags.map((x) => x.code)).toContain('ALLERGY_CONFLICT');
    }
    expect(told('Okay, thanks.').history.allergies).toEqual([]);
  });

  it('reads past the reaction said in brackets after an allergen, and an allergy said after the drug the patient cannot take', () => {
    const said = (text: string, mode = 'dictation') => structure(text, { locale: 'en-US', mode }).history.allergies;
    expect(said('ALLERGIES: Codeine (nausea), latex.')).toEqual(['codeine', 'latex']);
    expect(said('ALLERGIES: Penicillin (hives), sulfa (rash), and morphine (itching).')).toEqual(['penicillin', 'sulfa', 'morphine']);
    expect(said("Patient: I can't take morphine, I'm allergic.", 'consultation')).toEqual(['morphine']);
    expect(said("Patient: I can't take ibuprofen, it hurts my stomach.", 'consultation')).toEqual([]);
  });

  it('reads a list of allergens to its end, however long, and stops where the list does', () => {
    expect(allergies('She is allergic to penicillin, codeine and morphine.')).toEqual(['penicillin', 'codeine', 'morphine']);
    expect(allergies('Doctor: she is allergic to sulfa drugs, codeine, aspirin and amoxicillin.\nPatient: yes.')).toEqual(['sulfa drugs', 'codeine', 'aspirin', 'amoxicillin']);
    expect(allergies('He is allergic to penicillin, and so we will start azithromycin.')).toEqual(['penicillin']);
    expect(allergies('Since you reacted to Macrobid, and Bactrim resistance is high around here, we will use fosfomycin.')).toEqual(['nitrofurantoin']);
  });

  it('the drug the doctor names for an allergy the patient cannot recall is the allergen once the patient confirms it', () => {
    const recalled = "Doctor: Any drug allergies?\nPatient: Ah yes, I am allergic to... what's the name of it? It's called Napro-\nDoctor: Naprosyn?\nPatient: Yes, Naprosyn.";
    expect(allergies(recalled)).toEqual(['naproxen']);
    const coated = 'Doctor: Are you allergic to any drugs?\nPatient: Yes, to Cipro. And also the coated aspirin, what is it called?\nDoctor: Oh, you mean enteric coated aspirin?\nPatient: Yes, that one!';
    expect(allergies(coated)).toEqual(['ciprofloxacin', 'aspirin']);
    expect(allergies('Doctor: Any drug allergies?\nPatient: No.\nDoctor: Naprosyn for the pain?\nPatient: Yes, please.')).toEqual([]);
    expect(allergies('Doctor: Are you taking anything for it?\nPatient: Something for the pain.\nDoctor: Naprosyn?\nPatient: Yes.')).toEqual([]);
  });

  it('reads the patient\'s answer, and a reaction told after the allergy is not a second one', () => {
    const f = run('Doctor: any allergy to medicines?\nPatient: yes, to ibuprofen.\nPatient: my face swelled up after brufen once.');
    expect(f.history.allergies).toEqual(['ibuprofen']);
    expect(run('Doctor: any allergies?\nPatient: none.').history.allergies).toEqual([]);
    expect(allergies('he got hives all over with cefuroxime last year.')).toEqual(['cefuroxime']);
  });

  it('reads an answer that hedges and names the kind of drug before the allergen', () => {
    expect(run('Doctor: any allergy to medicines?\nPatient: Um, yeah, I think there was an antibiotic, um, called clindamycin.').history.allergies).toEqual(['clindamycin']);
    expect(run("Doctor: any allergies?\nPatient: yes, I think it's penicillin.").history.allergies).toEqual(['penicillin']);
  });
});

describe('real clinical language', () => {
  it('reads a report\'s numbered assessment list, a symptom included, and leaves written codes out', () => {
    const note = 'HISTORY OF PRESENT ILLNESS: Tired for two months.\nASSESSMENT:\n1. Iron deficiency anaemia.\n2. Pelvic pain (625.9).\nPLAN: Ferrous sulfate 325 mg daily.';
    expect(codes(note)).toEqual(['D50.9', 'R10.2']);
    expect(codes('IMPRESSION / DIAGNOSIS, 1. Plantar fasciitis / heel spur. 2. Obesity.')).toEqual(['M72.2', 'E66.9']);
    // "Serous otitis" without "media", and a transcription's common misspelling of fasciitis.
    expect(codes('ASSESSMENT: 1. Serous otitis. 2. Plantar fascitis, right foot.')).toEqual(['H65.9', 'M72.2']);
    expect(codes('ASSESSMENT: 1. Rotator cuff tendinopathy, left. 2. Gallbladder infection.')).toEqual(['M75.1', 'K81.9']);
  });

  it('reads a problem-oriented plan, a symptom treated as the problem included', () => {
    const text = 'Doctor: so for your first problem, the shortness of breath, I want a chest x-ray. for your second problem of your asthma, continue the inhaler.';
    expect(codes(text)).toEqual(['R06.0', 'J45.9']);
  });

  it.each([
    ['I believe what you have is something called plantar fasciitis.', 'M72.2', 'confirmed'],
    ['it seems like you may have something, uh, called sinusitis.', 'J01.9', 'suspected'],
    ['my suspicion is you have gout in that toe.', 'M10.9', 'suspected'],
    ['your symptoms indicate the possibility of, um, a kidney stone.', 'N20.0', 'suspected'],
    ['what you are describing might be something called gout.', 'M10.9', 'suspected'],
    ["I'm not sure whether you have asthma, so we'll do a breathing test.", 'J45.9', 'suspected'],
    ['I think what you essentially have is plantar fasciitis.', 'M72.2', 'confirmed'],
    ['I think what you have is a bit of a sinusitis perhaps, um.', 'J01.9', 'suspected'],
    // The name given to what the doctor found (session 53).
    ['your kidney function has dropped a bit, which we call chronic kidney disease stage 3.', 'N18.3', 'confirmed'],
    ['the pain is coming from the tendon, which is called tendinitis.', 'M77.9', 'confirmed'],
  ])('plain speech to the patient: %s', (text, code, certainty) => {
    expect(dx(`Doctor: ${text} We can talk about what that means.\nPatient: okay.`)).toEqual([[code, certainty]]);
  });

  it('builds no diagnosis from everyday words next to each other', () => {
    expect(codes('your blood pressure is 130 over 80 and your blood sugar is fine today.')).toEqual([]);
    expect(codes('I will give you something called sudocrem for it.')).toEqual([]);
    expect(codes('could you come back on friday, I called the lab.')).toEqual([]);
  });

  it('keeps history the plan does not address out, and takes a long-term condition the plan addresses', () => {
    expect(codes('he has a history of asthma and gout. assessment: acute bronchitis.')).toEqual(['J20.9']);
    expect(codes('her mother has diabetes. assessment: acute bronchitis.')).toEqual(['J20.9']);
    expect(codes('ASSESSMENT: Acute bronchitis.\nPLAN: For his hypertension, continue lisinopril 10 mg daily. For the itching, cetirizine at night.')).toEqual(['J20.9', 'I10']);
  });

  it('codes diabetes without a type as E14, with the type said anywhere in the note as that type', () => {
    expect(codes('assessment: diabetes, not well controlled.')).toEqual(['E14.9']);
    expect(codes('type 2 diabetic for ten years. assessment: diabetes, not well controlled.')).toEqual(['E11.9']);
  });

  it('codes a condition after a birth in the puerperium chapter', () => {
    expect(codes('she had a baby two weeks ago. assessment: external hemorrhoids.')).toEqual(['O87.2']);
    expect(codes('assessment: external hemorrhoids.')).toEqual(['K64.9']);
  });

  it('keeps one diagnosis for a condition said twice, the more specific name kept', () => {
    expect(codes('so this is a bladder infection, acute cystitis.')).toEqual(['N30.0']);
  });
});

describe('how a diagnosis name ends', () => {
  const dx = (text: string) => run(text).diagnoses.map((d) => [d.name, d.certainty]);

  it('a hedge that closes the item makes the name before it suspected, and is not part of it', () => {
    expect(dx('ASSESSMENT:\n1. Lung cancer with metastasis most likely.\n2. Pneumonia.')).toEqual([['lung cancer with metastasis', 'suspected'], ['pneumonia', 'confirmed']]);
    expect(dx('IMPRESSION: Otitis media probably.')).toEqual([['otitis media', 'suspected']]);
    expect(dx('IMPRESSION: Otitis media with effusion.')).toEqual([['otitis media with effusion', 'confirmed']]);
  });

  it('"maybe a …" hedges a name; words that open or close a spoken name are not part of it', () => {
    expect(dx("Doctor: so, i think what you have is basically just a strain and maybe a contusion to that muscle.\nPatient: okay.")).toContainEqual(['contusion', 'suspected']);
    expect(dx('Doctor: so for your first problem of bilateral knee pain based on your exam, i want you to rest.\nPatient: okay.').map(([n]) => n)).toEqual(['bilateral knee pain']);
    expect(dx('Doctor: i think you have an infection in there.\nPatient: okay.').map(([n]) => n)).toEqual(['infection']);
  });

  it('a symptom hedged in passing before the plan is told, not diagnosed', () => {
    expect(dx('Doctor: what brings you in?\nPatient: my knee.\nDoctor: achiness okay did you do anything yesterday that you think might have caused the pain\nPatient: no.\nDoctor: so my impression is a knee sprain.\nPatient: okay.').map(([n]) => n)).toEqual(['knee sprain']);
  });

  it('how often and how recently are not part of the name ("occasional bouts of migraines, nothing recent")', () => {
    expect(dx('Doctor: so for your first problem, i think you have occasional bouts of migraines nothing recent.\nPatient: okay.').map(([n]) => n)).toEqual(['migraines']);
  });

  it('a name read by its disease-like words ends before a verb, and is listed once', () => {
    expect(dx('ASSESSMENT: Renal insufficiency.\nPLAN:\n1. Most likely, renal insufficiency is a chronic problem.').map(([n]) => n)).toEqual(['renal insufficiency']);
  });
});

describe('provenance', () => {
  it('records how each diagnosis was found, and a suspicion', () => {
    const rules = (text: string) => run(text).diagnoses.map((d) => [d.name, d.rules]);
    expect(rules('IMPRESSION: Acute bronchitis.')).toEqual([['acute bronchitis', ['dx.strong-cue']]]);
    expect(rules('Doctor: I think this is probably a urinary tract infection.\nPatient: okay')).toEqual([['urinary tract infection', ['dx.strong-cue', 'dx.suspected']]]);
    expect(rules('ASSESSMENT:\nMigraine.\nHypertension.').map(([, r]) => r)).toEqual([['dx.assessment-line'], ['dx.assessment-line']]);
  });
});

describe('allergies on real text', () => {
  const allergies = (text: string) => run(text).history.allergies;
  it('reads non-drug allergies given in answer, even after a no to drug allergies', () => {
    expect(allergies('Doctor: do you have any allergies at all? medication?\nPatient: no, just peanuts and latex.')).toEqual(['peanuts', 'latex']);
    expect(allergies('Doctor: ok do you have any allergies to any medication\nPatient: uh no just hay fever')).toEqual(['pollen']);
    expect(allergies('Doctor: any allergies?\nPatient: no.')).toEqual([]);
  });

  it('an allergen the doctor asks about, or checks with the patient, is an allergy when the patient says yes', () => {
    expect(allergies("Doctor: i think you've got an allergy to penicillin is that correct\nPatient: that's correct yes")).toEqual(['penicillin']);
    expect(allergies('Doctor: are you allergic to penicillin?\nPatient: yes')).toEqual(['penicillin']);
    expect(allergies('Doctor: are you allergic to penicillin?\nPatient: no')).toEqual([]);
    expect(allergies('Doctor: any allergies?\nPatient: yes')).toEqual([]);
  });

  it('an allergen said after a bare yes, after "I cannot take", or a drug whose reaction is told in answer to "what happens when you take …?"', () => {
    expect(allergies('Doctor: Do you have any allergies to medications?\nPatient: Yes. Penicillin.')).toEqual(['penicillin']);
    expect(allergies('Doctor: Any known allergies?\nPatient: Oh yes, I cannot take sulfa drugs.')).toEqual(['sulfa drugs']);
    expect(allergies('Doctor: Any allergies?\nPatient: Yes, just molds.')).toEqual(['mould']);
    expect(allergies('Doctor: What happens when you take amoxicillin?\nPatient: I get a really ugly rash.')).toEqual(['amoxicillin']);
    expect(allergies('Doctor: What happens when you take amoxicillin?\nPatient: Nothing, it works fine.')).toEqual([]);
    expect(allergies('Doctor: Any allergies?\nPatient: Yes. I mean, no, none.')).toEqual([]);
  });

  it('a statement checked with the patient ("… is that correct") is a question, not a diagnosis', () => {
    const f = run("Doctor: i think you've got an allergy to penicillin is that correct\nPatient: that's correct yes");
    expect(f.diagnoses).toEqual([]);
  });

  it('reads an ALLERGIES section and says none for NKDA', () => {
    expect(allergies('MEDICATIONS: Prenatal vitamins.\nALLERGIES: She thinks to penicillin.\nFAMILY HISTORY: Noncontributory.')).toEqual(['penicillin']);
    expect(allergies('ALLERGIES: Eggs and peanuts.')).toEqual(['eggs', 'peanuts']);
    expect(allergies('ALLERGIES: NKDA.')).toEqual([]);
  });

  it('takes neither an intolerance nor an allergy medicine as an allergy', () => {
    expect(allergies('she is lactose intolerant.')).toEqual([]);
    expect(allergies('continue the one-a-day allergy medicine he was given last time.')).toEqual([]);
  });
});

describe('evidence', () => {
  it('points each diagnosis at its words', () => {
    const text = 'Impression: acute otitis media and tinea corporis.';
    const f = run(text);
    expect(f.diagnoses.map((d) => text.slice(d.evidence!.start, d.evidence!.end).toLowerCase())).toEqual(['acute otitis media', 'tinea corporis']);
  });
});

describe('a diagnosis told in the history as made before', () => {
  const names = (text: string) => structure(text, { locale: 'en-US' }).diagnoses.map((d) => d.name);
  it('is history ("was diagnosed with … in 1982", "a diagnosis of radiculopathy was made"), while the assessment names this visit\'s', () => {
    expect(names('HISTORY OF PRESENT ILLNESS: She was initially diagnosed with a brain tumor in 1982. ASSESSMENT: Glioma.')).toEqual(['glioma']);
    expect(names('HISTORY OF PRESENT ILLNESS: By her report, she had a nerve conduction study and a diagnosis of radiculopathy was made. IMPRESSION: Low back pain.')).toEqual(['low back pain']);
    expect(names('HISTORY OF PRESENT ILLNESS: He had been diagnosed with a throat infection about a week ago. ASSESSMENT: Otitis media.')).toEqual(['otitis media']);
  });

  it('a diagnosis told in the history of this visit still counts ("consistent with …")', () => {
    expect(names('HISTORY OF PRESENT ILLNESS: Findings today are consistent with cellulitis. PLAN: Keflex.')).toContain('cellulitis');
  });
});

describe('the words around a diagnosis name', () => {
  const names = (text: string) => structure(text, { locale: 'en-US' }).diagnoses.map((d) => d.name);
  it('leaves out a verb or list word before it and a clause after it', () => {
    expect(names('COMPLEXITY: Moderate. The differential includes fracture, contusion and sprain.')[0]).toBe('fracture');
    expect(names('ASSESSMENT: She does have some small abscesses in the skin where I think she did injure it.')).toEqual(['small abscesses in the skin']);
    // "fissure" alone is no anal fissure (K60.2): fissures of the skin, a lip, a lung are not coded so.
    expect(names('ASSESSMENT: She does have some small fissures in the skin where I think she did injure it.')).toEqual([]);
    expect(names('ASSESSMENT: She developed hypotension after the dialysis.')[0]).toMatch(/^hypotension/);
    expect(names('MEDICAL DECISION MAKING: The differential entertained includes head injury, anxiety, and hypertensive emergency.')[0]).toBe('head injury');
  });
});

describe('a problem of another time or of a relative, and a doubted one', () => {
  const items = (text: string) => structure(text, { locale: 'en-US' }).diagnoses.map((d) => [d.name, d.icd10?.code ?? null]);
  it('"history of myocardial infarction", "family history of colon cancer" carry no code of the disease itself', () => {
    expect(items('ASSESSMENT: 1. Chest pain. 2. History of myocardial infarction.')).toEqual([
      ['chest pain', 'R07.4'],
      ['history of myocardial infarction', null],
    ]);
    expect(items('ASSESSMENT: Family history of colon cancer. Screening colonoscopy.')).toEqual([['family history of colon cancer', null]]);
    // A chronic condition's history is the condition.
    expect(items('ASSESSMENT: History of coronary artery disease, stable.')[0]![1]).toMatch(/^I25/);
  });

  it('a suspicion taken back straight after ("but you don\'t have any of the signs") is no diagnosis; one left open is', () => {
    const said = (t: string) => structure(`Doctor: ${t}\nPatient: okay`, { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => [d.name, d.certainty]);
    expect(said("i was worried about meningitis but you don't have any of the signs")).toEqual([]);
    expect(said('i thought it might be a kidney stone but the scan was normal')).toEqual([]);
    expect(said("the nurse thought it might be cellulitis but i think it's just a bruise")).toEqual([['bruise', 'confirmed']]);
    expect(said('it could be a kidney stone but the scan will tell us')).toEqual([['kidney stone', 'suspected']]);
    expect(said("you have gout but there's no sign of infection")).toEqual([['gout', 'confirmed']]);
  });

  it('what a finding is ("the rash is eczema", "your symptoms are most likely due to …") and what everything points to name a diagnosis; how it is does not', () => {
    const said = (t: string) => structure(`Doctor: ${t}\nPatient: okay`, { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => [d.icd10?.code ?? d.name, d.certainty]);
    expect(said('the rash is eczema, not psoriasis')).toEqual([['L30.9', 'confirmed']]);
    expect(said('everything points to an ear infection')).toEqual([['H66.9', 'confirmed']]);
    expect(said('your symptoms are most likely due to a rotator cuff tendinopathy')).toEqual([['M75.1', 'suspected']]);
    expect(said('the pain is worse at night')).toEqual([]);
    expect(said('the pain is in your lower back')).toEqual([]);
  });

  it('"doubt pneumonia" is no pneumonia', () => {
    expect(items('ASSESSMENT: Cough, doubt pneumonia. PLAN: Supportive care.')).toEqual([['cough', 'R05']]);
  });
});

describe('diagnoses said in consultations met in unseen real texts (session 29)', () => {
  const said = (line: string): [string, string | undefined][] =>
    structure(`Doctor: how are you\nPatient: not bad\nDoctor: ${line}`, { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => [d.icd10?.code ?? d.name, d.certainty]);
  const planned = (line: string): string[] =>
    structure(`Doctor: how are you\nPatient: not bad\nDoctor: any chest pain?\nPatient: no\nDoctor: okay on exam your lungs are clear. so for your assessment and plan. ${line}`, { locale: 'en-US', mode: 'consultation' })
      .diagnoses.map((d) => d.icd10?.code ?? d.name);

  it('"I think you\'re having …", "what I see is …", "I think you basically have …" name the diagnosis, confirmed', () => {
    expect(said("i think you're having a recurrence of your kidney stones.")).toEqual([['N20.0', 'confirmed']]);
    expect(said('what i see is a proximal humerus fracture.')).toEqual([['S42.2', 'confirmed']]);
    expect(said('i think you basically have a strain of your lower back.').map(([, c]) => c)).toEqual(['confirmed']);
    // A question still names nothing.
    expect(said('what do you think is causing the kidney stones?')).toEqual([]);
  });

  it('"from a depression standpoint" addresses the condition in the plan; "type i diabetes" is type 1', () => {
    expect(planned("from a depression standpoint, it sounds like you're doing really well with that, so let's continue the prozac.")).toEqual(['F32.9']);
    expect(planned('from a psoriasis standpoint, continue the cream.')).toEqual(['L40.9']);
    expect(planned('for your type i diabetes, continue your insulin.')).toEqual(['E10.9']);
  });

  it('"herniated disk" and "what we call chondromalacia" are in the ICD-10 list', () => {
    expect(said('your mri is consistent with a herniated disk.')).toEqual([['M51.1', 'confirmed']]);
    expect(said('my assessment is, you have what we call chondromalacia.')).toEqual([['M22.4', 'confirmed']]);
  });
});

describe('problem lists of unseen MTSamples reports (session 38)', () => {
  const listed = (text: string) => structure(text, { locale: 'en-US' }).diagnoses.map((d) => [d.name, d.icd10?.code ?? null]);

  it('a short line of an assessment list is a problem, with or without a code, its place said first', () => {
    expect(listed('ASSESSMENT:,1.  Hypertension.,2.  Leukocytosis, improving.,3.  Recent sepsis.,4.  Resolving left gluteal abscess, completing Flagyl.,5.  Sexual dysfunction.')).toEqual([
      ['hypertension', 'I10'],
      ['leukocytosis', 'D72.8'],
      ['recent sepsis', 'A41.9'],
      ['resolving left gluteal abscess', 'L02.9'],
      ['sexual dysfunction', null],
    ]);
    // Prose under the heading is not a problem.
    expect(listed('ASSESSMENT: 1. Hypertension. 2. She is doing well. 3. Continue current medications.')).toEqual([['hypertension', 'I10']]);
  });

  it('names the code list has: Alzheimer\'s dementia, C. difficile enteritis, Parkinson\'s, a well child check, bladder tumors', () => {
    expect(listed('ASSESSMENT:,1.  Alzheimer’s dementia.,2.  Clostridium difficile enteritis.,3.  Parkinson\'s.').map((d) => d[1])).toEqual(['F00.9', 'A04.7', 'G20']);
    expect(listed('ASSESSMENT:,  Well child check.,PLAN:,1.  Diet, growth and safety discussed.')).toEqual([['well child check', 'Z00.1']]);
    expect(listed('IMPRESSION: , Recurrent bladder tumors.,PLAN: , CBC and chest x-ray beforehand.').map((d) => d[0])).toEqual(['recurrent bladder tumors']);
  });
  it('a condition denied ("is not diagnosed with"), counselled about, or vaccinated against is no diagnosis of the visit', () => {
    expect(listed('He is not diagnosed with intrinsic asthma at this time and takes no medication.')).toEqual([]);
    expect(listed('He was diagnosed with asthma last year.').map((d) => d[1])).toEqual(['J45.9']);
    expect(listed('PLAN: 2. Immunizations discussed and updated with hepatitis B.')).toEqual([]);
    expect(listed('PLAN: We have discussed bleeding, infection, injury to the rectum, deep vein thrombosis, pulmonary embolus and stroke.')).toEqual([]);
    expect(listed('Even with treatment, angina may result in a heart attack or congestive heart failure.')).toEqual([]);
  });

  it('words of a finding before the name ("revealed", "suggesting") are not the name', () => {
    expect(listed('Neuropsychologic assessment revealed mild anterograde memory loss only.').map((d) => d[0])).toEqual(['mild anterograde memory loss']);
    const f = structure('Impression: right temporoparietal hemorrhage, suggesting aneurysm or mass.', { locale: 'en-US' }).diagnoses;
    expect(f.map((d) => [d.name, d.certainty])).toEqual([['aneurysm or mass', 'confirmed']]);
  });
});

describe('the name of a diagnosis told with what it is called or what a test shows', () => {
  const names = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => d.name);
  it('is what it is called ("a lung problem called bronchitis"), what it shows ("your x-rays show bronchitis"), without "then"', () => {
    expect(names('Doctor: You have a lung problem called bronchitis.\nPatient: Okay.')).toEqual(['bronchitis']);
    expect(names('Doctor: It looks like your x-rays show bronchitis.\nPatient: Okay.')).toEqual(['bronchitis']);
    expect(names('Doctor: It is probably a sinus infection and then cough secondary to that infection.\nPatient: Okay.')).toEqual(['sinus infection', 'cough']);
  });

  it('is the cause said, without "triggered by", "precipitated by"', () => {
    expect(names('Doctor: This is probably triggered by a chest infection.\nPatient: Okay.')).toEqual(['chest infection']);
    expect(names('Doctor: This is probably precipitated by a chest infection.\nPatient: Okay.')).toEqual(['chest infection']);
  });
});

describe('a background heading the doctor turns to in talk', () => {
  const names = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => d.name);
  it('"for family history, it looks like there\'s …" lists the family\'s conditions, up to the next thing turned to', () => {
    expect(names("Doctor: And for family history, it looks like there's high blood pressure, diabetes and heart disease. For your current medications, you're on lisinopril.\nPatient: Yes.")).toEqual([]);
    expect(names("Doctor: okay and for family history it looks like there's high blood pressure and heart disease so for your first problem i think you have gout\nPatient: okay")).toEqual(['gout']);
  });
  it('"looking at your family history, …" turns to it too; a high-risk medicine is no high-risk pregnancy', () => {
    expect(names('Doctor: And looking at your family history, it looks like maybe your brother had a heart attack. Is that correct?\nPatient: Yes.')).toEqual([]);
    expect(names("Doctor: We have to keep an eye on it since it's a high-risk medication.\nPatient: Okay.")).toEqual([]);
    expect(structure('ASSESSMENT: High risk pregnancy.', { locale: 'en-US' }).diagnoses.map((d) => d.icd10?.code)).toEqual(['Z35.9']);
  });
});

describe('the name said with other words around it (ACI-bench and MTSamples screens, session 47)', () => {
  const dx = (t: string, mode: 'consultation' | 'dictation' = 'consultation') => structure(t, { locale: 'en-US', mode }).diagnoses.map((d) => [d.name, d.icd10?.code ?? null]);
  it('words before a link word inside the coded words are another item or the talk around it', () => {
    expect(dx('Doctor: for your congestive heart failure it sounds like this was caused by dietary indiscretion and some uncontrolled hypertension so i want you to continue on your bumex\nPatient: okay')).toEqual([
      ['congestive heart failure', 'I50.0'],
      ['uncontrolled hypertension', 'I10'],
    ]);
    expect(dx('Doctor: so for your second diagnosis here the newly reduced left ventricular dysfunction and moderate mitral regurgitation i think your pumping function is down\nPatient: okay')).toEqual([
      ['newly reduced left ventricular dysfunction', 'I50.1'],
      ['moderate mitral regurgitation', 'I34.0'],
    ]);
    expect(dx('Doctor: you have back pain at the disk space due to a herniated disk\nPatient: okay').map((d) => d[0])).toContain('herniated disk');
    expect(dx('ASSESSMENT: Congenital heart disease and mild congestive heart failure.', 'dictation')).toEqual([
      ['congenital heart disease', 'Q24.9'],
      ['mild congestive heart failure', 'I50.0'],
    ]);
  });
  it('a name of the code list across the link word stays whole', () => {
    expect(dx('ASSESSMENT: Nausea and vomiting. Mitral and aortic regurgitation.', 'dictation')).toEqual([
      ['nausea and vomiting', 'R11'],
      ['mitral and aortic regurgitation', 'I35.1'],
    ]);
  });
  it('words before an "of" that name no condition are not the name', () => {
    expect(dx('Doctor: this murmur is most likely representative of aortic stenosis.\nPatient: okay')).toEqual([['aortic stenosis', 'I35.0']]);
    expect(dx("Doctor: so, it's part of the atrial fibrillation.\nPatient: okay")).toEqual([['atrial fibrillation', 'I48.9']]);
  });
  it('erythema or a scar the doctor sees is a finding, not a diagnosis; a problem list may still name one', () => {
    expect(dx('Doctor: on examination of your left elbow, you do have some erythema and edema.\nPatient: okay')).toEqual([]);
    expect(dx('Doctor: i think what you have got is so much scar tissue around the tendon.\nPatient: okay')).toEqual([]);
    expect(dx('ASSESSMENT: 1. Erythema of the left cheek.', 'dictation')).toEqual([['erythema of the left cheek', 'L53.9']]);
  });
});

describe('MTS-Dialog consultations: names that are a site, examples, a site said with a possessive (session 47)', () => {
  const dx = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => [d.name, d.icd10?.code ?? null]);
  it('a possessive between a preposition and a body part stays in the name', () => {
    expect(dx('Doctor: Looks like he has a foreign body in his left eye.\nPatient: Does he need to see an eye doctor?')).toEqual([['foreign body in his left eye', 'T15.9']]);
    expect(dx('Doctor: I think he has an infection of his right ear.\nPatient: Okay.')).toEqual([['infection of his right ear', 'H66.9']]);
    expect(dx('Doctor: I think this is an exacerbation of your congestive heart failure.\nPatient: Okay.')).toEqual([['congestive heart failure', 'I50.0']]);
  });
  it('places alone, and examples ("anything from … to …"), are no diagnosis', () => {
    expect(dx('Doctor: It looks like your face and lips are not swollen. Could you say ah for me?\nPatient: Ah.')).toEqual([]);
    expect(dx('Doctor: Well, it could be anything from high blood pressure, to depression, to something as serious as cancer.\nPatient: Okay.')).toEqual([]);
    expect(dx('Doctor: Well, it could be anything like depression, or mood disorders.\nPatient: No.')).toEqual([]);
  });
});

describe('the patient introduced is no diagnosis cue (session 48)', () => {
  it('"This is a 53-year-old man who presented with … nausea" names no diagnosis; "this is eczema" does', () => {
    const text = 'HISTORY OF PRESENT ILLNESS: This is a 53-year-old man who presented to the emergency room with nausea, vomiting and left lower extremity pain.';
    expect(structure(text, { locale: 'en-US' }).diagnoses.map((d) => d.name)).toEqual([]);
    expect(structure('Patient: I have an itchy rash on my arm.\nDoctor: This is eczema.', { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => d.name)).toEqual(['eczema']);
  });
});

describe('a name the doctor gives the trouble is a diagnosis (session 48)', () => {
  const names = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => d.name);
  it.each([
    ['"we call it …"', 'Patient: my nose is runny and I sneeze a lot.\nDoctor: So, we call it allergic rhinitis.\nPatient: Okay.', ['allergic rhinitis']],
    ['"this is what\'s called …"', 'Patient: my nose is runny and I sneeze a lot.\nDoctor: This is what\'s called allergic rhinitis.\nPatient: Okay.', ['allergic rhinitis']],
    ['a thing called something is no diagnosis', 'Patient: what is that?\nDoctor: we call it a stethoscope.\nPatient: Okay.', []],
  ])('%s', (_, text, expected) => {
    expect(names(text)).toEqual(expected);
  });
});

describe('problems the plan turns to, and a type said after the name (session 49)', () => {
  const said = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).diagnoses.map((d) => `${d.name} ${d.certainty} ${d.icd10?.code}`);
  const talk = (line: string) => `Doctor: what brings you in\nPatient: i have a headache\nDoctor: okay let me examine you\nPatient: okay\nDoctor: ${line}\nPatient: okay`;
  it('"for your secondary concern of your rheumatoid arthritis" names the problem', () => {
    expect(said(talk('now for your secondary concern of your rheumatoid arthritis i want you to continue to follow up with your rheumatologist'))).toEqual(['rheumatoid arthritis confirmed M06.9']);
  });
  it('a denial before an earlier cue is not the next one\'s', () => {
    expect(said(talk("i don't think that this is a sign of a stroke i think it's more related to tightness in your neck now for your second problem of your diabetes mellitus let's continue the metformin")))
      .toContain('diabetes mellitus confirmed E14.9');
  });
  it('"diabetes mellitus, type 2" said anywhere gives the diabetes its type', () => {
    expect(structure('ASSESSMENT: 1. Diabetes mellitus, type 2, new onset.', { locale: 'en-US' }).diagnoses.map((d) => d.icd10?.code)).toEqual(['E11.9']);
  });
});

describe('a problem-oriented plan (session 51)', () => {
  const us = (text: string) => structure(text, { locale: 'en-US', mode: 'dictation' }).diagnoses.map((d) => `${d.name} ${d.icd10?.code}`);
  it('"PLAN: 1. Gout: continue allopurinol." names each problem before its colon, a one-word name too', () => {
    expect(us('HISTORY: On levothyroxine 75 mcg.\nPLAN: 1. Gout: continue allopurinol. 2. Hypothyroidism: TSH was normal last month, continue current dose.'))
      .toEqual(['gout M10.9', 'hypothyroidism E03.9']);
    // Not a name before the colon: no diagnosis.
    expect(us('PLAN: 1. Medications: continue allopurinol. 2. Follow up: in 3 months.')).toEqual([]);
    // Not in the history.
    expect(us('PAST MEDICAL HISTORY: Gout: on allopurinol.\nPLAN: Continue allopurinol.')).toEqual([]);
  });
});

describe('diagnoses said to the patient in plain words (session 52)', () => {
  const said = (line: string) => structure(`Doctor: what brings you in today?\nPatient: I twisted my ankle and I feel tired.\nDoctor: ${line}`, { locale: 'en-GB', mode: 'consultation' })
    .diagnoses.map((d) => d.icd10?.code ?? d.name);
  it('"you\'re anaemic", "almost certainly a migraine", "it\'s only a sprain"', () => {
    expect(said("your blood test shows you're anaemic.")).toEqual(['D64.9']);
    expect(said("you're not anaemic.")).toEqual([]);
    expect(structure('Doctor: what brings you in today?\nPatient: headaches.\nDoctor: this is almost certainly a migraine.', { locale: 'en-GB', mode: 'consultation' }).diagnoses.map((d) => d.name)).toEqual(['migraine']);
    expect(said("it's only a sprain.")).toEqual(['T14.3']);
  });
  it('"it\'s not a fracture, it\'s a sprain": the denial ends where the next name is given', () => {
    expect(said("it's not a fracture, it's a sprain.")).toEqual(['T14.3']);
    expect(said("it's not a fracture.")).toEqual([]);
  });
});

describe('session 56', () => {
  const dx = (text: string) => structure(text, { locale: 'en-GB', mode: 'consultation' }).diagnoses.map((d) => d.name);
  it('"are you asthmatic" asked in a turn without its question mark is no asthma', () => {
    expect(dx("Doctor: i'd like to start propranolol forty milligrams twice a day are you asthmatic\nPatient: no")).toEqual([]);
    expect(dx('Doctor: is he asthmatic\nPatient: no')).toEqual([]);
    expect(dx('Doctor: he is asthmatic and uses a salbutamol inhaler.')).toEqual(['asthma']);
  });
  it('"these sound like migraines", "they look like warts" name the condition', () => {
    expect(dx('Doctor: okay so these sound like migraines.')).toEqual(['migraines']);
    expect(dx('Doctor: they look like warts.')).toEqual(['warts']);
    expect(dx('Doctor: that sounds like a good idea.')).toEqual([]);
  });
});

describe('a drug recorded as one to avoid (session 56)', () => {
  const run = (line: string) => structure(`Doctor: ${line}`, { locale: 'en-GB', mode: 'consultation' });
  it('"I\'ll put the doxycycline on your record as something to avoid" is an allergy, never a prescription', () => {
    const f = run("i'd stop the doxycycline now. i'll put the doxycycline on your record as something to avoid in the sun if it blisters or spreads come back");
    expect([f.history.allergies, f.medications.map((m) => m.name)]).toEqual([['doxycycline'], []]);
    expect(run("I'll put the doxycycline on your record as something to avoid.").medications).toEqual([]);
    expect(run("I'll add penicillin to your allergy list.").history.allergies).toEqual(['penicillin']);
    expect(run("I'll put you on amoxicillin 500 mg three times a day.").history.allergies).toEqual([]);
  });
  it('"this looks like a photosensitivity reaction" is one (L56.0)', () => {
    expect(run('so this looks like a photosensitivity reaction to the doxycycline.').diagnoses.map((d) => d.icd10?.code)).toEqual(['L56.0']);
  });
});

describe("the condition the doctor's review asks after (session 57)", () => {
  const dx = (text: string) => structure(text, { locale: 'en-GB', mode: 'consultation' }).diagnoses.map((d) => [d.name, d.certainty, d.icd10?.code]);
  it('"How\'s the asthma been?" in a review that says no other diagnosis is the asthma', () => {
    expect(dx("Doctor: How's the asthma been?\nPatient: Not very good, I'm using the blue inhaler most days.\nDoctor: I'd like you to restart the Clenil, two puffs twice a day."))
      .toEqual([['asthma', 'confirmed', 'J45.9']]);
  });
  it('a symptom or a body part asked after is no diagnosis, and a diagnosis said elsewhere wins', () => {
    expect(dx("Doctor: How's the pain been?\nPatient: Not great.\nDoctor: Carry on with the same.")).toEqual([]);
    expect(dx("Doctor: How's the knee?\nPatient: Sore.\nDoctor: Carry on with the same.")).toEqual([]);
    expect(dx("Doctor: How's the itching been?\nPatient: Worse at night.\nDoctor: Carry on with the cream.")).toEqual([]);
    expect(dx("Doctor: How is the leg pain?\nPatient: Worse at night.\nDoctor: Carry on with the same.")).toEqual([]);
    expect(dx("Doctor: How's the asthma been?\nPatient: Fine, but I've got this cough.\nDoctor: I think you've got a chest infection.").map((d) => d[0])).toEqual(['chest infection']);
  });
});

describe('"likely to be" and "before we say" (session 59)', () => {
  const said = (line: string) => structure(`Doctor: ${line}`, { locale: 'en-GB', mode: 'consultation' }).diagnoses.map((d) => [d.name, d.certainty]);
  it('"I think it\'s more likely to be contact dermatitis", "this is likely to be a viral infection" are suspected', () => {
    expect(said("I think it's more likely to be contact dermatitis from the new washing powder.")).toEqual([['contact dermatitis', 'suspected']]);
    expect(said('This is likely to be a viral infection.')).toEqual([['viral infection', 'suspected']]);
    expect(said("I think it's more likely contact dermatitis.")).toEqual([['contact dermatitis', 'suspected']]);
  });
  it('"… more readings before we say you have high blood pressure" is not yet a diagnosis made', () => {
    expect(said("We'll need a few more readings before we say you have high blood pressure.")).toEqual([['high blood pressure', 'suspected']]);
    expect(said("You have high blood pressure, so we'll start amlodipine.")).toEqual([['high blood pressure', 'confirmed']]);
  });
});

describe('"here for a 3-month follow-up of diabetes" (session 59)', () => {
  const named = (t: string) => structure(t, { locale: 'en-US', mode: 'dictation' }).diagnoses.map((d) => d.name);
  it('a visit for a follow-up said with how often or that it is routine is for the condition named', () => {
    expect(named('SUBJECTIVE: The patient is here for a 3-month follow-up of diabetes. She has no complaints today.')).toEqual(['diabetes']);
    expect(named('SUBJECTIVE: The patient is here for a routine follow-up of her hypertension.')).toEqual(['hypertension']);
  });
  it('"… in 3 months follow up …" in a run-on plan still starts the follow-up', () => {
    const f = structure('plan recheck tsh in 6 weeks follow up in 3 months', { locale: 'en-US', mode: 'dictation' });
    expect(f.follow_up?.after).toEqual({ value: 3, unit: 'month' });
  });
});

describe('"less likely to be" ends what a cue names (session 59)', () => {
  it('"most suggestive of an infection of your tummy and less likely to be something your father had"', () => {
    const f = structure("Doctor: This is normally called gastroenteritis, so, an infection of the tummy.\nPatient: OK.\nDoctor: The things that you've told me are most suggestive of an infection of your tummy and less likely to be something your father had.", { locale: 'en-GB', mode: 'consultation' });
    expect(f.diagnoses.map((d) => d.name)).toContain('gastroenteritis');
  });
});
