import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../server/clinical-nlp/lexicon.js';
import { normalizeNumbers } from '../../server/clinical-nlp/numbers.js';
import { structure } from '../../server/clinical-nlp/structure.js';
import { matchIcd } from '../../server/clinical-nlp/codify.js';
import { drugNames, diagnosisNames, investigationNames, dictationPhrases } from '../../server/clinical-nlp/vocab/index.js';
import { ICD10 } from '../../server/clinical-nlp/vocab/icd10.js';

const run = (text: string, locale = 'en-IN') => structure(text, { locale });
const med = (text: string, name: string, locale = 'en-IN') => run(text, locale).medications.find((m) => m.name === name);

describe('spoken numbers', () => {
  it.each([
    ['bp one thirty over eighty five', 'bp 130 over 85'],
    ['temp ninety nine point eight', 'temp 99.8'],
    ['temperature one oh one point four f', 'temperature 101.4 f'],
    ['tab dolo six fifty', 'tab dolo 650'],
    ['twenty', '20'],
    ['three hundred and twelve', '312'],
    ['twelve hundred mcg', '1200 mcg'],
    ['zero point one percent', '0.1 percent'],
    ['one and a half tablet', '1.5 tablet'],
    ['tab x one zero one', 'tab x 1-0-1'],
    ['zero zero one at night', '0-0-1 at night'],
    ['six fifty one tablet', '650 1 tablet'],
  ])('%s → %s', (spoken, digits) => {
    expect(normalizeNumbers(spoken)).toBe(digits);
  });
});

describe('complaints', () => {
  it('keeps durations, drops negated findings and family history', () => {
    const f = run('forty year old man with burning in the chest since ten days and nausea for two days. no vomiting, denies black stools. his father has diabetes.');
    expect(f.complaints.map((c) => c.name)).toEqual(['heartburn', 'nausea']);
    expect(f.complaints[0]!.duration).toEqual({ value: 10, unit: 'day' });
    expect(f.complaints[1]!.duration).toEqual({ value: 2, unit: 'day' });
    expect(f.history.family).toEqual(['father: diabetes']);
    expect(f.diagnoses).toEqual([]);
  });

  it('a relative who brought the patient is not family history', () => {
    const f = run('six year old child brought by mother with ear pain since two days and fever since one day. came with her father.');
    expect(f.complaints.map((c) => [c.name, c.duration?.value])).toEqual([['ear pain', 2], ['fever', 1]]);
    expect(f.history.family).toEqual([]);
  });

  it('reads lay phrases and "since yesterday"', () => {
    const f = run('Patient: my tummy is paining. I have tummy pain since yesterday and I am not able to sleep.\nDoctor: any fever?\nPatient: no fever.');
    const names = f.complaints.map((c) => c.name);
    expect(names).toContain('abdominal pain');
    expect(names).toContain('inability to sleep');
    expect(names).not.toContain('fever');
    expect(f.complaints.find((c) => c.name === 'abdominal pain')!.duration).toEqual({ value: 1, unit: 'day' });
  });
});

describe('vitals', () => {
  it('parses spoken readings and skips home readings', () => {
    const f = run('home bp was one sixty over hundred. today bp one thirty over eighty five, pulse seventy eight, temperature one oh one point four F, spo2 ninety six percent, respiratory rate twenty, weight sixty two point five kg, height one sixty five cm, random sugar one eighty.');
    expect(f.vitals).toEqual({
      bp: { systolic: 130, diastolic: 85 },
      pulse_bpm: 78,
      temperature: { value: 101.4, unit: 'F' },
      spo2_percent: 96,
      respiratory_rate: 20,
      weight_kg: 62.5,
      height_cm: 165,
      blood_glucose_mg_dl: 180,
    });
  });

  it('infers Fahrenheit or Celsius from the value', () => {
    expect(run('temperature 38.5').vitals.temperature).toEqual({ value: 38.5, unit: 'C' });
    expect(run('Temperature 100.2, heart rate 90.').vitals).toEqual({ temperature: { value: 100.2, unit: 'F' }, pulse_bpm: 90 });
  });
});

describe('diagnoses', () => {
  it('marks rule out and may have as suspected, and codes with WHO ICD-10', () => {
    const f = run('impression viral fever, rule out dengue. she may also have urinary tract infection.');
    expect(f.diagnoses.map((d) => [d.name, d.certainty, d.icd10?.code])).toEqual([
      ['viral fever', 'confirmed', 'B34.9'],
      ['dengue', 'suspected', 'A90'],
      ['urinary tract infection', 'suspected', 'N39.0'],
    ]);
  });

  it('uses WHO codes where ICD-10-CM differs', () => {
    expect(matchIcd('bronchial asthma')?.entry.code).toBe('J45.9');
    expect(matchIcd('acute gastroenteritis')?.entry.code).toBe('A09.9');
    expect(matchIcd('low back pain')?.entry.code).toBe('M54.5');
  });

  it('a one-word name said only by its sound codes nothing; another ending of the word still does', () => {
    for (const w of ['standing', 'impression', 'overnight', 'afebrile', 'hyperextension', 'deep tendon reflexes', 'lumps', 'couch']) expect(matchIcd(w)?.entry.code, w).toBeUndefined();
    expect(matchIcd('tachycardic')?.entry.code).toBe('R00.0');
    expect(matchIcd('rashes')?.entry.code).toBe('R21');
  });

  it('snaps misheard diagnosis words', () => {
    expect(matchIcd('hypertention')?.entry.code).toBe('I10');
    expect(matchIcd('acute gastro enteritis')?.entry.code).toBe('A09.9');
  });

  it('applies a spoken self-correction', () => {
    const f = run('diagnosis acute bronchitis, sorry, make that community acquired pneumonia.');
    expect(f.diagnoses.map((d) => d.icd10?.code)).toEqual(['J18.9']);
  });

  it('codes diabetes with a complication as one diagnosis under the diabetes', () => {
    const f = run('diagnosis uncontrolled type two diabetes mellitus with peripheral neuropathy.');
    expect(f.diagnoses.map((d) => d.icd10?.code)).toEqual(['E11.4']);
    // Not a complication of the diabetes: two diagnoses.
    expect(run('diagnosis type 2 diabetes with hypertension.').diagnoses.map((d) => d.icd10?.code)).toEqual(['E11.9', 'I10']);
  });

  it('never turns family history into a diagnosis', () => {
    const f = run('her mother has hypothyroidism. diagnosis migraine without aura.');
    expect(f.diagnoses.map((d) => d.icd10?.code)).toEqual(['G43.0']);
    expect(f.history.family).toEqual(['mother: hypothyroidism']);
  });
});

describe('medications', () => {
  it('reads brand, strength, pattern and timing', () => {
    const m = med('tab dolo six fifty one zero one after food for five days.', 'paracetamol');
    expect(m).toMatchObject({ brand: 'dolo', form: 'tablet', strength: { value: 650, unit: 'mg' }, timing: 'after food', duration: { value: 5, unit: 'day' } });
    expect(m!.frequency).toMatchObject({ per_day: 2, pattern: '1-0-1', as_needed: false });
  });

  it.each([
    ['tab cetirizine ten mg b d for three days', 2],
    ['tab azithromycin five hundred mg o d for three days', 1],
    ['tab doxycycline hundred mg t d s for seven days', 3],
    ['tab pantoprazole forty mg before breakfast', 1],
  ])('%s → %d a day', (text, perDay) => {
    expect(run(text).medications[0]!.frequency!.per_day).toBe(perDay);
  });

  it('as needed: s o s has no daily count, an interval gives one', () => {
    expect(med('tab ibuprofen four hundred mg s o s for pain', 'ibuprofen')!.frequency).toMatchObject({ per_day: null, as_needed: true });
    expect(med('Acetaminophen 500 milligrams every 6 hours as needed for fever.', 'acetaminophen', 'en-US')!.frequency).toMatchObject({ per_day: 4, as_needed: true });
  });

  it('weekly doses have no daily count', () => {
    const m = med('tab vitamin d sixty thousand units once a week for eight weeks', 'cholecalciferol');
    expect(m!.frequency).toMatchObject({ per_day: null, text: 'once a week' });
    expect(m!.duration).toEqual({ value: 8, unit: 'week' });
  });

  it('a taper is one entry per step', () => {
    const steps = run('tab prednisolone forty mg once daily for five days, then twenty mg once daily for five days, then ten mg once daily for five days, then stop.').medications;
    expect(steps.map((m) => m.strength?.value)).toEqual([40, 20, 10]);
    expect(steps.every((m) => m.duration?.value === 5)).toBe(true);
  });

  it('leaves out stopped drugs and drugs for someone else', () => {
    const f = run('stop tab aspirin. tab amlodipine five mg once daily. all family members should take tab albendazole four hundred mg once.');
    expect(f.medications.map((m) => m.name)).toEqual(['amlodipine']);
  });

  it('names the generic by locale and snaps a misheard name', () => {
    expect(run('tab crocin 500 mg t d s', 'en-US').medications[0]!.name).toBe('acetaminophen');
    expect(run('tab sefixime two hundred mg b d').medications[0]!.name).toBe('cefixime');
  });

  it('a drug the history names and the plan prescribes again is listed once, as the plan says', () => {
    const f = run('known case of hypertension on amlodipine five. impression uncontrolled hypertension. increase tab amlodipine to ten mg once daily in the morning.');
    expect(f.medications.map((m) => [m.name, m.strength?.value])).toEqual([['amlodipine', 10]]);
  });

  it('a spoon or ml after the name is the dose, not a strength in mg', () => {
    const m = med('sachet alkasol one teaspoon in water three times a day for five days', 'disodium hydrogen citrate');
    expect(m).toMatchObject({ dose: { value: 1, unit: 'teaspoon' } });
    expect(m!.strength).toBeUndefined();
  });

  it('puts a per-dose amount in dose', () => {
    const m = med('syrup ambroxol five ml t d s for five days', 'ambroxol');
    expect(m).toMatchObject({ form: 'syrup', dose: { value: 5, unit: 'ml' } });
    expect(m!.strength).toBeUndefined();
  });
});

describe('investigations and follow-up', () => {
  it('joins a test name spelled with a digit inside (h b a one c), not a dose and its frequency', () => {
    expect(run('advise H b A one c and lipid profile.').investigations.map((i) => i.name)).toContain('glycated haemoglobin (hba1c)');
    expect(normalizeText('t three t four')).toBe('t3 t4');
    expect(normalizeText('tab x one b d')).toBe('tab x 1 bd');
  });

  it('orders by full name, not earlier results', () => {
    const f = run('old reports show hba1c eight point two. advised c b c, l f t and x ray chest p a view. review after ten days with reports.');
    expect(f.investigations.map((i) => i.name)).toEqual(['complete blood count', 'liver function test', 'chest x-ray pa view']);
    expect(f.follow_up).toMatchObject({ after: { value: 10, unit: 'day' }, notes: 'with reports' });
  });

  it('reads follow-up in months and tomorrow', () => {
    expect(run('follow up in a month.').follow_up?.after).toEqual({ value: 1, unit: 'month' });
    expect(run('recheck tomorrow.').follow_up?.after).toEqual({ value: 1, unit: 'day' });
  });
});

describe('vocabularies', () => {
  it('ship at least 500 ICD-10 diagnoses with WHO-style codes', () => {
    expect(ICD10.length).toBeGreaterThanOrEqual(500);
    for (const e of ICD10) expect(e.code).toMatch(/^[A-Z]\d\d(?:\.\d)?$/);
    expect(new Set(ICD10.map((e) => e.code)).size).toBe(ICD10.length);
  });

  it('export word lists and phrases for the language model', () => {
    expect(drugNames()).toContain('paracetamol');
    expect(drugNames()).toContain('crocin');
    expect(diagnosisNames()).toContain('hypertension');
    expect(investigationNames()).toContain('cbc');
    const phrases = dictationPhrases();
    expect(phrases.length).toBeGreaterThan(1000);
    expect(phrases.some((p) => p.includes('{'))).toBe(false);
  });
});
