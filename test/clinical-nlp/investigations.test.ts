/** Investigations: vocabulary and the rules for what is an order at this visit, in written and recogniser form. */
import { describe, expect, it } from 'vitest';
import { extractInvestigations, findInvestigationMatches } from '../../server/clinical-nlp/investigations.js';
import { buildDoc } from '../../server/clinical-nlp/sections.js';
import { structure } from '../../server/clinical-nlp/structure.js';
import { checkedData, DataFileError } from '../../server/clinical-nlp/vocab/data-file.js';
import { INVESTIGATIONS, InvestigationsSchema } from '../../server/clinical-nlp/vocab/investigations.js';
import FILE from '../../server/clinical-nlp/vocab/investigations.json' with { type: 'json' };

const tests = (text: string) => extractInvestigations(buildDoc(text), findInvestigationMatches);
const names = (text: string): string[] => tests(text).map((i) => i.name);

/** LOINC codes end in a mod-10 check digit: a mistyped code fails it. */
function loincCheckDigitOk(code: string): boolean {
  const [num = '', digit] = code.split('-');
  let sum = 0;
  [...num].reverse().forEach((ch, i) => {
    let d = Number(ch);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  });
  return (10 - (sum % 10)) % 10 === Number(digit);
}

describe('investigation vocabulary', () => {
  it('holds at least 300 tests, each alias naming one test, and only well-formed LOINC codes', () => {
    expect(INVESTIGATIONS.length).toBeGreaterThanOrEqual(300);
    const owner = new Map<string, string>();
    for (const t of INVESTIGATIONS) {
      for (const a of [t.name, ...t.aliases]) {
        const key = a.toLowerCase();
        expect(owner.get(key) ?? t.name, `"${a}" names two tests`).toBe(t.name);
        owner.set(key, t.name);
      }
      if (t.loinc) expect(loincCheckDigitOk(t.loinc), `${t.name} ${t.loinc}`).toBe(true);
    }
  });

  it('is a data file with its source and licence, checked by its schema', () => {
    expect(FILE.source.length).toBeGreaterThan(20);
    expect(FILE.licence.length).toBeGreaterThan(5);
    expect(() => checkedData('investigations.json', InvestigationsSchema, FILE)).not.toThrow();
    const bad = { ...FILE, groups: [{ group: 'x', tests: [{ name: 'cbc', aliases: ['=~cbc'], loinc: '58410' }] }] };
    expect(() => checkedData('investigations.json', InvestigationsSchema, bad)).toThrow(DataFileError);
  });

  it('shows every alias with a name of its own under a non-empty name', () => {
    for (const t of INVESTIGATIONS) for (const [alias, shown] of Object.entries(t.shownAs)) expect(shown.length, `${t.name}: ${alias}`).toBeGreaterThan(2);
  });

  it('gives the full name and the code for spoken abbreviations', () => {
    const out = tests('Plan: c b c, t s h and h b a one c today.');
    expect(out.map((i) => [i.name, i.loinc])).toEqual([
      ['complete blood count', '58410-2'],
      ['thyroid stimulating hormone (TSH)', '3016-3'],
      ['glycated haemoglobin (hba1c)', '4548-4'],
    ]);
  });

  it('reads a urine sample sent for culture as the culture, not a culture of nothing', () => {
    expect(names("Doctor: I'll send a urine sample for culture.")).toEqual(['urine culture']);
  });

  it('reads a metabolic panel said without basic or comprehensive as the chemistry panel, a complete one as the comprehensive', () => {
    expect(names('Doctor: I want to get some blood work, a CBC and a metabolic panel, and a urine test.')).toContain('chemistry panel');
    expect(names('PLAN: 1. CBC, complete metabolic profile, UA for hypertension.')).toContain('comprehensive metabolic panel');
  });

  it('knows the plain names a GP says: kidney function, liver tests, a stool sample', () => {
    expect(tests("Doctor: I'm going to send you for a full blood count and kidney function.").map((i) => i.name)).toEqual([
      'complete blood count',
      'kidney function test',
    ]);
    expect(tests("Doctor: We'll repeat your liver tests in six weeks.").map((i) => i.name)).toEqual(['liver function test']);
    expect(tests("Doctor: I'd like you to do a stool sample and bring it back on Monday.").map((i) => i.name)).toEqual(['stool routine examination']);
    expect(tests('Doctor: Your kidney function was normal last time.')).toEqual([]);
    expect(tests("Doctor: We'll check your thyroid function.").map((i) => i.name)).toEqual(['thyroid function test']);
  });

  it('records how each test was read as this visit\'s', () => {
    const rules = (text: string) => tests(text).map((i) => [i.name, i.rules]);
    expect(rules("Doctor: I'm going to send you for a full blood count and kidney function.")).toEqual([
      ['complete blood count', ['inv.ordered']],
      ['kidney function test', ['inv.list-shares-status']],
    ]);
    expect(rules('Doctor: the x-ray we did in the office today showed no fracture.').map(([, r]) => r)).toEqual([['inv.done-this-visit']]);
  });

  it('thyroxine the patient takes is the drug (levothyroxine), not a thyroxine test', () => {
    expect(tests("Patient: I take thyroxine every day.\nDoctor: OK, keep taking the thyroxine.")).toEqual([]);
  });

  it('keeps a name in its own right as said instead of swapping in another test', () => {
    expect(names('Order a lipid panel and a urine microalbumin.')).toEqual(['lipid panel', 'urine microalbumin']);
    expect(names('Send an RFT and a 2D echo.')).toEqual(['kidney function test', '2d echocardiogram']);
  });
});

describe('what is an order', () => {
  it('"check your thyroid", "check your cholesterol": a name that is a test only when ordered, after the order and whose it is', () => {
    expect(names("we'll check your thyroid")).toEqual(['thyroid function test']);
    expect(names("we'll check your cholesterol")).toEqual(['lipid profile']);
    expect(names("we'll do a cholesterol test")).toEqual(['lipid profile']);
    expect(names('your cholesterol is high so we will start atorvastatin')).toEqual([]);
    expect(names('how is your thyroid medication going')).toEqual([]);
  });

  it('drops a test the doctor corrects to another, keeps two ordered together', () => {
    expect(names("we're gonna order something called a ct that's gonna give us even nope you know what let's upgrade to an mri")).toEqual(['mri']);
    expect(names("let's get an x-ray, no sorry, an mri of the knee")).toEqual(['mri knee']);
    expect(names('we will get an x-ray and an mri of the knee')).toEqual(['x-ray', 'mri knee']);
  });

  it('skips negated tests, before or after the name', () => {
    expect(names('No need for an x-ray. MRI of the knee is not required at this stage. No ECG changes.')).toEqual([]);
    expect(names('Blood cultures are not indicated, CBC and CRP today.')).toEqual(['complete blood count', 'c-reactive protein']);
  });

  it('lets a negation reach along "or" but not past a comma into the next order', () => {
    expect(names('No x-ray or CT for now.')).toEqual([]);
    expect(names('No x-ray, ESR today.')).toEqual(['erythrocyte sedimentation rate']);
  });

  it('skips a reading asked about ("how are your blood sugars"), not a check of how it is', () => {
    // A recogniser writes no question mark.
    expect(names("Doctor: are you taking the metformin how's your blood sugars been\nPatient: fine")).toEqual([]);
    expect(names('Doctor: and how was your mri\nPatient: it was fine')).toEqual([]);
    expect(names("Doctor: let's check how your blood sugar is with an hba1c today.\nPatient: okay")).toContain('glycated haemoglobin (hba1c)');
  });

  it('skips results and tests done before this visit', () => {
    expect(names('His last HbA1c was 8.2. Reports from last month show a normal lipid profile. She already had an echo.')).toEqual([]);
    expect(names('Came with reports: TSH 9.4, free T4 0.8.')).toEqual([]);
    expect(names('Ultrasound done in March showed a small fibroid.')).toEqual([]);
    expect(names("Let's look at your results. Hey Dragon, show me the chest x-ray. Your chest x-ray looks fine.")).toEqual([]);
    expect(names('It was an unremarkable MRI, so we will order a lipid panel.')).toEqual(['lipid panel']);
    expect(names('Doctor: the hospital did an ecg and it was normal\nPatient: yes')).toEqual([]);
  });

  it('keeps a test done in the clinic today, even with its result', () => {
    expect(names('Urine dipstick in the clinic today shows nitrites.')).toEqual(['urine dipstick']);
    expect(names('ECG done here shows sinus tachycardia.')).toEqual(['electrocardiogram (ECG)']);
    expect(names('His hearing and vision screens today were normal.')).toEqual(['hearing screen', 'vision screen']);
  });

  it('skips conditional tests, before or after the condition', () => {
    expect(names('If the pain persists we will do an MRI of the lumbar spine.')).toEqual([]);
    expect(names('Ultrasound abdomen if the vomiting continues.')).toEqual([]);
    expect(names('If her sugars stay high we may add metformin. Lipid profile in two weeks.')).toEqual(['lipid profile']);
    expect(names('We will do a chest x-ray and if this is positive we would proceed with a CT scan of the chest.')).toEqual(['chest x-ray']);
    expect(names('If the numbness is still present, then we are going to proceed with an MRI of the neck.')).toEqual([]);
    expect(names("Doctor: if the pain doesn't settle, we might think about an MRI.")).toEqual([]);
  });

  it('skips a test that is only possible, not had, a finding of the examination, a result or a guide', () => {
    expect(names('PLAN: Risks include bleeding and the possible need for ERCP.')).toEqual([]);
    expect(names('Doctor: physical therapy first, then we might have to consider an MRI.')).toEqual([]);
    expect(names("Doctor: you'll need a colonoscopy at some point.\nPatient: okay")).toEqual([]);
    expect(names('PLAN: She did not have a TSH drawn today.')).toEqual([]);
    expect(names('EXAM: Visual fields were full to confrontation.')).toEqual([]);
    expect(names('IMPRESSION: Slow rise in PSA. Ferritin relatively stable.')).toEqual([]);
    expect(names('PLAN: Ultrasound-guided biopsy next week. Chest x-ray today.')).toEqual(['biopsy', 'chest x-ray']);
  });

  it("skips the examination's own manoeuvres and instruments", () => {
    expect(names('Doctor: there is a negative varus and valgus stress test of the right knee.\nPatient: okay')).toEqual([]);
    expect(names('Doctor: no palpable pedal pulses, but doppler pulses are present.\nPatient: okay')).toEqual([]);
    expect(names('Doctor: i did use the doppler and they are present via doppler.\nPatient: okay')).toEqual([]);
    expect(names("Doctor: i'd like to get an exercise stress test and an arterial doppler.\nPatient: okay")).toEqual(['exercise stress test', 'arterial doppler']);
  });

  it('skips a test the patient turns down, one said to be hard to do, and a specialty named by its letters', () => {
    expect(names('PLAN: He turned down an endoscopy last year. She declined a sigmoidoscopy at this time. He refused an MRI.')).toEqual([]);
    expect(names('PLAN: Patient declined the flu vaccine and the colonoscopy. She declined the flu vaccine but agreed to a lipid panel.')).toEqual(['lipid panel']);
    expect(names('PLAN: We discussed a colonoscopy, which she has declined. The patient does not want a CT scan. Lipid panel today.')).toEqual(['lipid panel']);
    expect(names('PLAN: Given her anatomy, a bronchoscopy would prove difficult.')).toEqual([]);
    expect(names('PLAN: CT surgery consult for a pericardial window. Echo today.')).toEqual(['echocardiogram']);
  });

  it('takes a dated set of results as results from before this visit', () => {
    expect(names('LABORATORY DATA: Labs dated 03-04-21, hemoglobin 11.2, creatinine 1.1. Sodium 139.')).toEqual([]);
    expect(names('LABORATORY DATA: Hemoglobin 11.2, creatinine 1.1.')).toEqual(['haemoglobin', 'serum creatinine']);
  });

  it('treats a fingerstick glucose as a vital and home monitoring as advice', () => {
    expect(names('Random blood sugar on the glucometer is 240.')).toEqual([]);
    expect(names('Check fasting sugar every morning and note it down.')).toEqual([]);
  });

  it('takes a bare disease or organ word as a test only inside a list of tests', () => {
    expect(names('CBC, HIV and HBsAg.')).toEqual(['complete blood count', 'HIV test', 'hepatitis B surface antigen (HBsAg)']);
    expect(names('Known HIV since 2015, on treatment.')).toEqual([]);
    expect(names('Thyroid not enlarged.')).toEqual([]);
  });
});

describe('names kept whole', () => {
  it('keeps compound names and imaging sites', () => {
    expect(
      names('X-ray of the lumbosacral spine AP and lateral, ultrasound of the abdomen and pelvis, urine culture and sensitivity and a thyroid function test.'),
    ).toEqual(['x-ray lumbosacral spine ap and lateral', 'ultrasound abdomen and pelvis', 'urine culture', 'thyroid function test']);
  });

  it('reads tests that share a head or a specimen', () => {
    expect(names('Liver and kidney function tests.')).toEqual(['liver function test', 'kidney function test']);
    expect(names('Urine routine and culture.')).toEqual(['urine routine examination', 'urine culture']);
    expect(names('Urinalysis with culture.')).toEqual(['urinalysis', 'urine culture']);
  });

  it('keeps a part of a panel with its panel', () => {
    expect(names('CBC with platelet count and dengue NS1.')).toEqual(['complete blood count with platelet count', 'dengue ns1 antigen']);
  });

  it('does not list a test twice, but keeps two sites', () => {
    expect(names('TSH now and repeat TSH in six weeks. X-ray right knee and x-ray left knee.')).toEqual([
      'thyroid stimulating hormone (TSH)',
      'x-ray right knee',
      'x-ray left knee',
    ]);
  });

  it('points its evidence at the words said, site included', () => {
    const text = 'Get an x-ray of both knees standing AP view.';
    const [xray] = tests(text);
    expect(xray?.name).toBe('x-ray both knees standing ap view');
    expect(text.slice(xray!.evidence!.start, xray!.evidence!.end)).toBe('x-ray of both knees standing AP view');
  });
});

describe('recogniser form (lower case, no punctuation, numbers as words)', () => {
  it('reads a word made of test names run together, names of any length in any order', () => {
    expect(names('advised cbclftkft')).toEqual(['complete blood count', 'liver function test', 'kidney function test']);
    expect(names('advised hba1cesr')).toEqual(['glycated haemoglobin (hba1c)', 'erythrocyte sedimentation rate']);
    expect(names('advised urinalysiscbc')).toEqual(['urinalysis', 'complete blood count']);
  });

  it('finds a run of orders and skips the negated one after it', () => {
    expect(names('diagnosis acute gastroenteritis stool routine examination and serum electrolytes blood culture is not needed now review after two days')).toEqual([
      'stool routine examination',
      'serum electrolytes',
    ]);
  });

  it('does not take an adjective before the list for a negation', () => {
    expect(names('blood pressure not controlled two d echo today n t pro b n p and t s h')).toEqual([
      '2d echocardiogram',
      'nt-probnp',
      'thyroid stimulating hormone (TSH)',
    ]);
  });

  it('ends a condition at its own main clause', () => {
    expect(names('if the fever persists we will do a widal test')).toEqual([]);
    expect(names('if he is still above goal we may add amlodipine b m p in two weeks')).toEqual(['basic metabolic panel']);
    // Session 58: without the comma or the subject, "will" after the if-clause opens its main clause.
    expect(names('plan no imaging indicated at this time if symptoms persist beyond six weeks or neurological symptoms develop will obtain mri follow up in four weeks')).toEqual([]);
    expect(names('plan if it gets worse it will need an mri. order cbc')).toEqual(['complete blood count']);
    // "… rinse mouth after use chest x ray …": the inhaler's use, no instrument the examination used.
    expect(names('plan restart seretide one puff twice daily and rinse mouth after use chest x ray sputum culture review in one week')).toEqual(['chest x-ray', 'sputum culture']);
    // "to rule out if …", "to see if …": whether, no condition.
    expect(names('i want to order some tests to rule out if there is a specific cause for this so the first test will be an echocardiogram')).toEqual(['echocardiogram']);
  });

  it('skips results read out from reports', () => {
    expect(names('came with reports h b nine point six t s h eleven')).toEqual([]);
  });

  it('splits spelled abbreviations the recogniser ran together', () => {
    expect(names('send c b c l f t k f t today')).toEqual(['complete blood count', 'liver function test', 'kidney function test']);
  });
});

/** Table-driven: each row a sentence written for the rule it checks, and the tests that must come out of it. */
function table(rows: [string, string[]][]): void {
  for (const [text, expected] of rows) it(text.replace(/\n/g, ' / '), () => expect(names(text)).toEqual(expected));
}

describe('US and UK names, shown by their full names', () => {
  table([
    ['Bloods today: FBC, U&Es and LFTs.', ['complete blood count', 'urea and electrolytes (U&E)', 'liver function test']],
    ['Order an EKG and an echo.', ['electrocardiogram (EKG)', 'echocardiogram']],
    ['We will do an ECG and PFTs.', ['electrocardiogram (ECG)', 'pulmonary function test']],
    ['Check TSH, A1c and a UA.', ['thyroid stimulating hormone (TSH)', 'glycated haemoglobin (hba1c)', 'urinalysis']],
    ['we will get a hemoglobin a one c today', ['hemoglobin a1c']],
    ['I will do a urine dip and a throat swab.', ['urine dipstick', 'throat swab culture']],
    ['Set him up for a sleep study and a Holter monitor.', ['sleep study', 'holter monitor']],
    ['Send a Lyme titer as well as a Western blot.', ['lyme titer', 'western blot']],
    ['She needs a stress test and allergy testing.', ['stress test', 'allergy skin testing']],
    ['Order an EMG and nerve conduction studies of the arm.', ['EMG / nerve conduction study']],
    ['Checking the hep C RNA and the HCV genotype.', ['hepatitis C RNA (HCV RNA)', 'hepatitis C genotype (HCV genotype)']],
    ['I will ask for thick and thin blood films to check for malaria, and inflammatory markers.', ['peripheral smear for malarial parasite', 'inflammatory markers']],
  ]);
});

describe('ordered now, also when done later or elsewhere', () => {
  table([
    ['Recheck CBC, iron and ferritin in 12 weeks.', ['complete blood count', 'serum iron', 'serum ferritin']],
    ['Plan for an EGD and colonoscopy.', ['upper gi endoscopy', 'colonoscopy']],
    ["I'm going to order a chest x-ray.", ['chest x-ray']],
    ["i'm gonna order an x ray of your right knee to rule out a fracture", ['x-ray right knee']],
    ['I advised her to have a chest x-ray and an EKG done before her next appointment.', ['chest x-ray', 'electrocardiogram (EKG)']],
    ["The paramedics will put stickers on your chest and do an ECG, OK?", ['electrocardiogram (ECG)']],
    ["It's probably worth having a couple of basic blood tests.", ['blood tests (blood work)']],
  ]);
});

describe('done at this visit', () => {
  table([
    ['Rapid strep test in the office today is negative.', ['rapid strep test']],
    ['Pap smear done.', ['pap smear']],
    ['I looked at the EKG we did in the office, no signs of ischemia.', ['electrocardiogram (EKG)']],
    ['You had a chest x-ray when you came in and it was normal.', ['chest x-ray']],
    ['LABORATORY: Strep test is negative. Urinalysis shows trace protein.', ['strep test', 'urinalysis']],
    ['RECTAL: Stool is guaiac negative.', ['stool guaiac test']],
    ['lab tests hgb 12.1 ua trace protein', ['haemoglobin', 'urinalysis']],
  ]);
});

describe('not investigations', () => {
  table([
    ['Her last A1c was 7.', []],
    ['I reviewed the results of your x-ray, which shows no fracture.', []],
    ['Her CMP and CBC were essentially unremarkable.', []],
    ['If inconclusive, capsule endoscopy.', []],
    ['We could consider an MRI of the knee.', []],
    ['If she is not better in two weeks, we will get an ultrasound.', []],
    ["we'll get you an mri if it's still not improving", []],
    ['Have you had a chest x-ray?', []],
    ['We will try to get hold of the echocardiogram from her cardiologist.', []],
    ['We will continue to follow her urinalysis over the next year.', []],
    ['Her blood sugars are running a little bit high.', []],
    ['HISTORY OF PRESENT ILLNESS: She had an MRI of the knee.', []],
    ['RADIOLOGY: Lumbar x-ray 3/2/2021. Lumbar x-ray reveals mild disc narrowing.', []],
    ['Room air oximetry is 98 percent.', []],
    ['I will refer her to cardiology. Ear exam is normal.', []],
    ["I'm going to refer you for a chest x-ray.", ['chest x-ray']],
    ["The x-ray didn't show anything.", []],
    ['The ultrasound they did at the hospital was fine.', []],
    ['Your blood tests from the GP were normal.', []],
    ['We usually do an x-ray when someone falls like this.', []],
    ['An MRI would tell us more.', []],
    ["I don't think you need an x-ray.", []],
    ['Her mammogram is up to date.', []],
    ['did they do any x rays at the urgent care', []],
    ['PAST SURGICAL HISTORY: Colonoscopy two years ago.', []],
    ['The hospital did a CT scan which was clear.', []],
    ['i know that they did the endoscopy in the emergency room', []],
    ['The cardiologist will probably want an echo.', []],
    ["I'll do an ECG now.", ['electrocardiogram (ECG)']],
    ["An x-ray won't show a soft tissue injury, so we won't do one.", []],
    ["I'll order an MRI, and we don't need to do one of the knee.", ['mri']],
    ["I'd also thought about a stress test, but I don't think you need one now.", []],
    ['i thought about a stress test but i dont think we need to do one', []],
    ["Let's get a lipid panel, but I don't think she needs an echo.", ['lipid panel']],
  ]);
});

describe('lists and kinds', () => {
  table([
    ['Screening lab work including CBC, TSH and a lipid profile.', ['complete blood count', 'thyroid stimulating hormone (TSH)', 'lipid profile']],
    ['Some additional blood work that includes the hep C RNA.', ['hepatitis C RNA (HCV RNA)']],
    ['stool routine examination blood tests are not needed now', ['stool routine examination']],
    ["I reviewed your x-ray and it is normal, I also want to order an MRI.", ['mri']],
    ["I'm looking at your chest x-ray right now.", ['chest x-ray']],
  ]);

  it('reads an order from a turn the recogniser labelled as the patient', () => {
    expect(names("Doctor: let's talk about the plan.\nPatient: i'm also gonna go ahead and send a lyme titer.\nDoctor: okay")).toEqual(['lyme titer']);
    expect(names("Doctor: any tests?\nPatient: I had a lyme titer last year.\nDoctor: okay")).toEqual([]);
  });
});

describe('results in a report that were not done at this visit', () => {

  it('a date said before the results places them before the visit; an undated lab section is this visit', () => {
    expect(names('LABORATORY DATA: Dated 07/05/06, hematocrit is 30.2, platelets 380, sodium 139.\nIMPRESSION: Chronic kidney disease.')).toEqual([]);
    expect(names('LABORATORY DATA: Hematocrit is 30.2, platelets 380.\nIMPRESSION: Anemia.')).toEqual(['haematocrit', 'platelet count']);
  });

  it('results said to be reviewed are not ordered, also under a results heading', () => {
    expect(names('LABORATORY DATA: Reviewed chest x-ray, which is normal, and an MRI of the head, which is normal.\nDIAGNOSES: Concussion.')).toEqual([]);
    expect(names('LABORATORY DATA: Labs in chart were reviewed.\nASSESSMENT AND PLAN: Rheumatoid arthritis.')).toEqual([]);
    expect(names('LABORATORY DATA: I reviewed the EKG done in the office today, which is normal.\nASSESSMENT: Chest wall pain.')).toEqual(['electrocardiogram (EKG)']);
  });

  it('"here" is the visit only when something was done here, not results shown on the screen', () => {
    expect(names('Doctor: hey dragon, show me the hemoglobin a1c. okay, so i see here that your hemoglobin a1c is elevated.\nPatient: okay.')).toEqual([]);
    expect(names('Doctor: the urine dip we did here is positive for nitrites.\nPatient: okay.')).toEqual(['urine dipstick']);
  });

  it('a test named to explain another is not ordered ("under fluoroscopy, which you can think of like an x-ray")', () => {
    expect(names('Doctor: i will inject the steroid into your spine under fluoroscopy which you can think of you know like an x-ray to localize the pain.\nPatient: okay.')).toEqual([]);
    expect(names("Doctor: it's a type of x-ray, so i need to be very specific.\nPatient: okay.")).toEqual([]);
    expect(names("Doctor: i'd like a ct scan of your chest.\nPatient: okay.")).toEqual(['ct scan chest']);
  });
});


describe('a test the doctor says they will not order', () => {
  const tests = (text: string) => structure(text, { locale: 'en-US' }).investigations.map((i) => i.name);
  it('"i\'m not going to order an x-ray", "not gonna get a scan" order nothing', () => {
    expect(tests("Doctor: i'm not going to order an x-ray because i don't think it's broken\nPatient: okay")).toEqual([]);
    expect(tests("Doctor: we're not going to do any blood tests today\nPatient: okay")).toEqual([]);
    expect(tests("Doctor: we're going to do some blood tests today\nPatient: okay")).not.toEqual([]);
  });
});

describe('tests weighed or named as a measure in unseen MTSamples plans (session 38)', () => {
  it('"Consider setting up for a stress test" is considered, not ordered; "we will set up a stress test" is ordered', () => {
    expect(names('ASSESSMENT/PLAN: 1. Chest pain. Consider setting up for a stress test.')).toEqual([]);
    expect(names('PLAN: We will set up a stress test.')).toEqual(['stress test']);
  });

  it('"as renal function improves" tells of the kidneys, it orders no test', () => {
    expect(names('PLAN: We will consider adding ACE inhibitors as renal function improves.')).toEqual([]);
    expect(names('PLAN: We will check renal function next week.')).not.toEqual([]);
  });
});

describe('results and words that only sound like a test, in unseen consultations (session 47)', () => {
  const talk = (t: string) => structure(t, { locale: 'en-US', mode: 'consultation' }).investigations.map((i) => i.name);
  it('a result said "is not elevated" or "isn\'t" is no order', () => {
    expect(talk("Doctor: So, here your white blood cell count is not elevated, so i'm not concerned about an infection.\nPatient: Okay.")).toEqual([]);
    expect(talk("Doctor: We checked your estradiol and it was not elevated. Your a1c isn't elevated either.\nPatient: Okay.")).toEqual([]);
  });
  it('"tee up a prescription" is no TEE; "a POCT glucose" is a blood sugar, not an OCT', () => {
    expect(talk("Doctor: So i'm going ahead and tee up a one year prescription for you.\nPatient: Cool.")).toEqual([]);
    expect(talk("Doctor: we're gonna get that p oct glucose today.\nPatient: okay")).toEqual(['blood sugar']);
    expect(talk("Doctor: I'd like to get a TEE to look at the valve.\nPatient: Okay.")).toEqual(['transoesophageal echocardiogram']);
    // "T4" alone is a vertebra as often as a thyroid test: a test only in a list of tests or after a verb of ordering.
    expect(talk('Doctor: We can see where you had your fusion, t4 here on the x-ray.\nPatient: Okay.')).toEqual([]);
    expect(names('PLAN: Check T4 and TSH.')).toEqual(['total t4', 'thyroid stimulating hormone (TSH)']);
  });
  it('what the doctor already checked is no order; an order after it in the sentence, or one done today, is', () => {
    expect(talk('Doctor: So, I also checked a lot of other pituitary hormones, iron levels... everything else seemed to be pretty good.\nPatient: Okay.')).toEqual([]);
    expect(talk('Doctor: I checked your magnesium level because of the water pills, it was normal.\nPatient: Okay.')).toEqual([]);
    expect(talk('Doctor: We ran a cbc and I want to get a chest x-ray.\nPatient: Okay.')).toEqual(['chest x-ray']);
    expect(talk('Doctor: We ran a urinalysis in the office today.\nPatient: Okay.')).toEqual(['urinalysis']);
  });
});

describe('a test offered and turned down after it (session 53)', () => {
  const ordered = (line: string) => structure(`Doctor: how is your breathing?\nPatient: much the same.\nDoctor: ${line}\nPatient: okay.`, { locale: 'en-GB', mode: 'consultation' }).investigations.map((i) => i.name);
  it('"I offered her a chest x-ray but she declined", "… but you didn\'t want one" order nothing; another thing declined does not undo the order', () => {
    expect(ordered("I offered her a chest x-ray but she declined. we'll repeat her spirometry in 6 months.")).toEqual(['spirometry']);
    expect(ordered("I suggested an MRI but you didn't want one.")).toEqual([]);
    expect(ordered('we will order an MRI and she declined the steroid injection.')).toEqual(['mri']);
  });
});

describe('a urine sample is a urine test (session 53)', () => {
  const ordered = (line: string) => structure(`Doctor: any burning when you pass urine?\nPatient: yes.\nDoctor: ${line}\nPatient: okay.`, { locale: 'en-GB', mode: 'consultation' }).investigations.map((i) => i.name);
  it('"check a urine sample today" orders it; one sent last week does not; "for culture" is the culture', () => {
    expect(ordered("I'd like to check a urine sample today.")).toEqual(['urinalysis']);
    expect(ordered('we sent off a urine sample last week and it was clear.')).toEqual([]);
    expect(ordered("I'll send a urine sample for culture.")).toEqual(['urine culture']);
  });
});

describe('"liver function" said without "tests" (session 57)', () => {
  const ordered = (line: string) => structure(`Doctor: ${line}`, { locale: 'en-GB', mode: 'consultation' }).investigations.map((i) => i.name);
  it('"some blood tests, including liver function" orders the liver function test; a past result orders nothing', () => {
    expect(ordered("I'll arrange an ultrasound of your abdomen and some blood tests, including liver function.")).toEqual(['ultrasound abdomen', 'liver function test']);
    expect(ordered('Your liver function was normal last month.')).toEqual([]);
  });
});

describe('a result told to the patient is no order (session 57)', () => {
  const ordered = (line: string) => structure(`Doctor: ${line}`, { locale: 'en-GB', mode: 'consultation' }).investigations.map((i) => i.name);
  it('"your blood test shows you\'re low in iron", "the x-rays show a fracture" order nothing; "a blood test to see if you\'re low in iron" does', () => {
    expect(ordered("Your blood test shows you're low in iron, your ferritin is 8.")).toEqual([]);
    expect(ordered("The blood tests show she's low in iron.")).toEqual([]);
    expect(ordered('The x-rays show a fracture of the wrist.')).toEqual([]);
    expect(ordered("I'd like a blood test to see if you're low in iron.")).toEqual(['blood tests (blood work)']);
  });
});

describe('a test discussed, then a "but" (session 59)', () => {
  it('"MRI … was discussed but is not indicated", "… discussed with the patient but she would like to think about it" order nothing', () => {
    expect(names('PLAN: MRI of the lumbar spine was discussed but is not indicated at this time.')).toEqual([]);
    expect(names('PLAN: Colonoscopy was discussed with the patient but she would like to think about it.')).toEqual([]);
  });
  it('a "but" that orders it, an "and" that schedules it, or an agreement after still order it', () => {
    expect(names('PLAN: A CT scan was discussed, but we will order it after the holidays.')).toEqual(['ct scan']);
    expect(names('PLAN: An MRI was discussed and will be scheduled.')).toEqual(['mri']);
    expect(names('PLAN: Colonoscopy was discussed. She agrees to proceed.')).toEqual(['colonoscopy']);
  });
});

describe('"if that doesn\'t help, we can do an MRI" (session 59)', () => {
  it('a test the main clause after an if-clause says we can do waits on it', () => {
    expect(names("PLAN: Prednisone 20 mg b.i.d. x5 days. If that doesn't help, we can do an MRI.")).toEqual([]);
    expect(names("if that doesn't help we can do an mri")).toEqual([]);
    expect(names('We can do an MRI today.')).toEqual(['mri']);
  });
});
