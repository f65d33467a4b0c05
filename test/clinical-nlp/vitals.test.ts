/**
 * Vital signs read from report lists, dictated findings and consultations (structure/vitals.ts, vocab/vitals.json).
 * Every sentence here is written for this test.
 */
import { describe, expect, it } from 'vitest';
import type { Vitals } from '../../server/clinical-nlp/facts.js';
import { normalizeNumbers } from '../../server/clinical-nlp/numbers.js';
import { buildDoc } from '../../server/clinical-nlp/sections.js';
import { structure } from '../../server/clinical-nlp/structure.js';
import { extractVitals, isVitalLabel, VITALS_VOCAB, VitalsFileSchema } from '../../server/clinical-nlp/vitals.js';
import { checkedData, DataFileError } from '../../server/clinical-nlp/vocab/data-file.js';

const read = (text: string, locale = 'en-IN', mode = 'dictation') => extractVitals(buildDoc(text, { mode }), locale);
const vitals = (text: string, locale?: string, mode?: string): Vitals => read(text, locale, mode).vitals;

describe('report-style vitals', () => {
  it.each<[string, string, string, Vitals]>([
    ['a comma list under a heading', 'Vital signs: BP 118/76, pulse 70, T 98.2, RR 14, SpO2 97% on room air.', 'en-US',
      { bp: { systolic: 118, diastolic: 76 }, pulse_bpm: 70, temperature: { value: 98.2, unit: 'F' }, respiratory_rate: 14, spo2_percent: 97 }],
    ['letters with colons, feet and inches, pounds', 'Vitals: T: 97.9. P: 84. RR: 18. Ht: 5\' 9". Wt: 176 lb.', 'en-US',
      { temperature: { value: 97.9, unit: 'F' }, pulse_bpm: 84, respiratory_rate: 18, height_cm: 175.3, weight_kg: 79.8 }],
    ['"=" and inches written "in"', 'Exam: Height = 64 in, weight = 132 lbs.', 'en-US', { height_cm: 162.6, weight_kg: 59.9 }],
    ['"is" between label and value', 'Exam: Heart rate is 88 and blood pressure is 142/90.', 'en-US', { pulse_bpm: 88, bp: { systolic: 142, diastolic: 90 } }],
    ['a weight sentence then a bare BP', 'Physical exam: Weight is 181 pounds. Blood pressure 126/84.', 'en-US', { weight_kg: 82.1, bp: { systolic: 126, diastolic: 84 } }],
    ['"T" alone with a decimal', 'T 99.1', 'en-US', { temperature: { value: 99.1, unit: 'F' } }],
    ['oximetry and "elevated at"', 'Vital signs: Temp is 37.9, pulse is elevated at 112. Room air oximetry is 96%.', 'en-US',
      { temperature: { value: 37.9, unit: 'C' }, pulse_bpm: 112, spo2_percent: 96 }],
    ['a unit that names the vital', 'Heart regular, 76 beats per minute.', 'en-IN', { pulse_bpm: 76 }],
    ['glucose in mmol/L', 'Capillary blood glucose 6.2 mmol/l.', 'en-GB', { blood_glucose_mg_dl: 112 }],
    ['stones and pounds', 'Weight 12 stone 3.', 'en-GB', { weight_kg: 77.6 }],
    ['a child measured without labels', "Great, he's 18 kilograms and 108 centimetres.", 'en-US', { weight_kg: 18, height_cm: 108 }],
  ])('%s', (_, text, locale, expected) => {
    expect(vitals(text, locale)).toEqual(expected);
  });

  it('reads a label abbreviated with a period, with the evidence over both sentences', () => {
    const text = 'Vitals: Wt. 143 lb. Temp. 98.9.';
    const r = read(text, 'en-US');
    expect(r.vitals).toEqual({ weight_kg: 64.9, temperature: { value: 98.9, unit: 'F' } });
    expect(text.slice(r.evidence.weight_kg!.start, r.evidence.weight_kg!.end)).toBe('Wt. 143 lb');
  });

  it('knows its labels, so a line "BP: 112/74" is not a speaker', () => {
    expect(['BP', 'Pulse', 'T', 'Heart rate', 'Wt'].every(isVitalLabel)).toBe(true);
    expect(['Doctor', 'Mother', 'Patient'].some(isVitalLabel)).toBe(false);
  });

  it('takes the first of several readings', () => {
    expect(vitals('Exam: BP 150/88 sitting and 138/80 standing.').bp).toEqual({ systolic: 150, diastolic: 88 });
    expect(vitals('Her blood pressure lying down was 132/84. Standing up blood pressure was 118/76.').bp).toEqual({ systolic: 132, diastolic: 84 });
  });
});

describe('spoken vitals', () => {
  it.each<[string, string, Vitals]>([
    ['words between label and value', "Doctor: so your blood pressure today it's about one thirty eight over eighty six, a little high.\nPatient: okay.", { bp: { systolic: 138, diastolic: 86 } }],
    ['"rate\'s been … like"', "Doctor: your heart rate's been steady at like sixty eight.\nPatient: good.", { pulse_bpm: 68 }],
    ['"nice and regular at"', 'Doctor: your pulse is nice and regular at seventy two.\nPatient: okay.', { pulse_bpm: 72 }],
    ['"blood pressure" misheard as "pressure"', 'Doctor: on pressure one forty over ninety and pulse eighty.\nPatient: right.', { bp: { systolic: 140, diastolic: 90 }, pulse_bpm: 80 }],
    ['a run-on recogniser sentence', 'Doctor: she went to goa last month temperature one hundred point two pulse ninety six bp one twenty over seventy\nPatient: yes', {
      temperature: { value: 100.2, unit: 'F' }, pulse_bpm: 96, bp: { systolic: 120, diastolic: 70 } }],
    ['a time after the value that opens the next clause', 'Doctor: bp one hundred over sixty four weight fifty two kg last month it was fifty four\nPatient: yes', {
      bp: { systolic: 100, diastolic: 64 }, weight_kg: 52 }],
    ['SpO2 said with its two', 'Doctor: spo two ninety eight percent on room air.\nPatient: okay.', { spo2_percent: 98 }],
    ['a weight said to the patient with its unit', "Doctor: you're ninety three kilos today.\nPatient: oh dear.", { weight_kg: 93 }],
    ['a weight said to the patient with "you weigh"', 'Doctor: you weigh eighty two kilos today.\nPatient: oh dear.', { weight_kg: 82 }],
    ['a BP said without its label, after the doctor measured it', "Doctor: let me check your blood pressure. okay, it's one thirty eight over eighty six.\nPatient: is that bad?", {
      bp: { systolic: 138, diastolic: 86 } }],
    ['a BP pair after "today it\'s"', "Doctor: and today it's 130/80.\nPatient: good.", { bp: { systolic: 130, diastolic: 80 } }],
    ['what the doctor says they will measure is no request to the patient', "Doctor: let me check your temperature it's thirty seven point eight\nPatient: okay", { temperature: { value: 37.8, unit: 'C' } }],
    ['"vitals" ends a told clause', 'Doctor: he was in hospital two years ago vitals temp ninety nine point one heart rate ninety\nPatient: yes', {
      temperature: { value: 99.1, unit: 'F' }, pulse_bpm: 90 }],
  ])('%s', (_, text, expected) => {
    expect(vitals(text, 'en-US', 'consultation')).toEqual(expected);
  });
});

describe('units not said', () => {
  it.each<[string, string, string, Vitals, (keyof Vitals)[]]>([
    ['a US weight is pounds, and says so', 'Vital signs: Weight: 165. BP: 124/80.', 'en-US', { weight_kg: 74.8, bp: { systolic: 124, diastolic: 80 } }, ['weight_kg']],
    ['an Indian weight is kilograms', 'weight sixty two, bp one twenty over eighty', 'en-IN', { weight_kg: 62, bp: { systolic: 120, diastolic: 80 } }, []],
    ['a US height said as two numbers is feet and inches', 'Exam: ht five seven, wt one fifty lb.', 'en-US', { height_cm: 170.2, weight_kg: 68 }, ['height_cm']],
    ['feet and inches said', 'Exam: height five foot seven.', 'en-US', { height_cm: 170.2 }, []],
    ['a temperature of 50 or more is Fahrenheit', 'temperature 100.6', 'en-IN', { temperature: { value: 100.6, unit: 'F' } }, []],
    ['a temperature below 45 is Celsius', 'temp 38.4', 'en-US', { temperature: { value: 38.4, unit: 'C' } }, []],
    ['between the two it is no temperature', 'temp 47', 'en-US', {}, []],
  ])('%s', (_, text, locale, expected, assumed) => {
    const r = read(text, locale);
    expect(r.vitals).toEqual(expected);
    expect(Object.keys(r.assumed)).toEqual(assumed);
  });

  it('reads a decimal whose point the recogniser lost with its digit, and says so for the doctor to check', () => {
    const r = read('Doctor: a normal temperature at ninety eight four which is fine.\nPatient: good.', 'en-US', 'consultation');
    expect(r.vitals).toEqual({ temperature: { value: 98.4, unit: 'F' } });
    expect(r.unheard.temperature).toMatch(/98 4.*98\.4/);
    const flags = structure('Doctor: a normal temperature at ninety eight four which is fine.\nPatient: good.', { locale: 'en-US', mode: 'consultation' }).flags;
    expect(flags).toContainEqual(expect.objectContaining({ code: 'LOW_CONFIDENCE', pointer: '/vitals/temperature' }));
    expect(read('temperature 98.4 pulse 72', 'en-US').unheard).toEqual({});
  });
});

describe('not vitals of this visit', () => {
  it.each<[string, string]>([
    ['statements without numbers', 'Vitals normal. Afebrile. Vital signs as in chart.'],
    ['blood pressure as a condition', 'History of high blood pressure for ten years.'],
    ['home readings', 'Her home blood pressure readings run 150/95.'],
    ['an earlier visit, fronted', 'At the last visit, his blood pressure was 150/96.'],
    ['an earlier visit, without a comma', 'at her last visit in june her blood pressure was 146 over 92'],
    ['an emergency room reading', 'Last week in the ER his temperature was 102.'],
    ['a target', 'Her target blood pressure is below 130/80.'],
    ['a fever told with its duration', 'She had a fever of 101 for two days.'],
    ['a change of weight', 'His weight is up 10 pounds since last year.'],
    ['a weight loss', 'Weight loss of 4 kg over 2 months.'],
    ['a lab section', 'Labs: glucose 145, sodium 139.'],
    ['eye pressure', 'Intraocular pressure 21 in the right eye, eye pressure 18/16.'],
    ['a fetal heart rate', 'Fetal heart rate 150.'],
    ['a threshold in advice', 'Give paracetamol if the temperature goes over 100.'],
    ['a birth weight', 'Weight 3.1 kg at birth.'],
    ['a reading in the ambulance, said after it', 'Her oxygen saturation was 88% in the ambulance.'],
    ['a reading of a named month', 'His weight was 80 kg in January.'],
    ['a reading in A&E', 'When you were in A&E your temperature was 38.5.'],
    ['an earlier visit, said after the value', 'Your blood pressure was 160 over 100 last visit.'],
    ['a change said after the value', 'Her weight is a five pound increase over the summer.'],
    ['a pair said of a drug or an insulin mix', "She uses Advair, it's 250/50. The insulin is 70/30 and it's 100/25 of losartan."],
    ['a pair said of home readings', "At home it's usually 150 over 95."],
    ['an emergency room reading said after the value, "here" the record', 'I see here that it was about 180 over 95 when you went into the emergency room.'],
    ['a reading while in hospital, said after it', 'Your blood pressure was 170/100 while you were in the hospital.'],
    ['a decade, not a reading', 'Your heart rate was in the 40s on the monitor overnight. Her sats have been in the low 90s.'],
    ['an HbA1c told as the three-month or average sugar', "Your HbA1c, which is the three month sugar level, is 64. Your average sugar was 58 last time, your long term sugar 61."],
  ])('%s', (_, text) => {
    expect(vitals(text, 'en-US')).toEqual({});
  });

  it.each<[string, string]>([
    ['what the patient says', 'Doctor: any readings?\nPatient: my blood pressure was 130 over 80 and my weight is 70 kg.'],
    ['a pulse the patient counts', "Doctor: can you put two fingers on your wrist and count your pulse for me?\nPatient: I get about 76.\nDoctor: so your pulse is 76, that's normal."],
    ['a weight the patient states', 'Doctor: how much do you weigh?\nPatient: about 80 kilos.\nDoctor: so your weight is about 80 kg.'],
    ['anything in a video consultation', "Doctor: we're a bit limited via the video today.\nPatient: sure.\nDoctor: your pulse is 80 and your temperature is 37.2."],
  ])('%s', (_, text) => {
    expect(vitals(text, 'en-GB', 'consultation')).toEqual({});
  });
});

describe('spoken numbers for vitals', () => {
  it('keeps the two of SpO2 out of the reading', () => {
    expect(normalizeNumbers('spo two ninety eight percent')).toBe('spo 2 98 percent');
    expect(normalizeNumbers('take two ninety eight')).toBe('take 298');
  });
});

describe('vitals.json', () => {
  it('names its source and licence and is checked at load', () => {
    expect(VITALS_VOCAB.source).toMatch(/written for this project/i);
    expect(VITALS_VOCAB.licence).toBeTruthy();
    const broken = { ...VITALS_VOCAB, vitals: [{ ...VITALS_VOCAB.vitals[0], key: 'heart' }] };
    expect(() => checkedData('vitals.json', VitalsFileSchema, broken)).toThrow(DataFileError);
  });
});

describe('a reading told in the past and the one taken at this visit (ACI-bench, session 47)', () => {
  const talk = (t: string) => vitals(t, 'en-US', 'consultation');
  it('"your blood pressure was 200 over 90" gives way to "… pretty good in the office today it looks like it\'s 128 over 72"', () => {
    expect(talk("Doctor: looks like your blood pressure was two hundred over ninety, have you been taking those meds\nPatient: yes\nDoctor: let me do a quick physical exam your blood pressure is pretty good in the office today it looks like it's one twenty eight over seventy two\nPatient: okay").bp).toEqual({ systolic: 128, diastolic: 72 });
    // Without a later reading of this visit, the one told stays; one told in the present is not replaced.
    expect(talk('Doctor: looks like your blood pressure was two hundred over ninety\nPatient: yes').bp).toEqual({ systolic: 200, diastolic: 90 });
    expect(talk('Doctor: your blood pressure is 140 over 90\nPatient: okay\nDoctor: in the office today it is 150 over 95 on the machine\nPatient: okay').bp).toEqual({ systolic: 140, diastolic: 90 });
  });
  it('readings before the patient\'s own measuring is first talked of in a run-on turn are the clinician\'s', () => {
    const v = talk("Doctor: okay let's do a quick physical exam so your temperature is ninety eight point seven and your heart rate is seventy two so continue the lasix and also weigh yourself daily and call me if you gain three pounds\nPatient: okay");
    expect([v.temperature, v.pulse_bpm]).toEqual([{ value: 98.7, unit: 'F' }, 72]);
    expect(talk('Doctor: please weigh yourself daily and tell me, is it 70 kg\nPatient: okay').weight_kg).toBeUndefined();
  });
  it('a reading said to be today is this visit\'s, though the patient\'s own cuff was talked of just before', () => {
    expect(talk('Doctor: have you bought a blood pressure cuff to have at home\nPatient: yes\nDoctor: good. let\'s do a quick physical exam, your blood pressure looks pretty good today at one twenty eight over seventy two\nPatient: okay').bp).toEqual({ systolic: 128, diastolic: 72 });
  });
});

describe('a change said after the value (session 58)', () => {
  it('"weight today is 4 pounds down from discharge" is no weight; the vitals\' "182 lb, down from 190 lb" is', () => {
    expect(vitals('HPI: Weight today is 4 pounds down from discharge.', 'en-US').weight_kg).toBeUndefined();
    expect(vitals('HPI: Weight today is 4 pounds down from discharge.\nVITALS: BP 98/60. Weight 182 lb, down from 190 lb.', 'en-US').weight_kg).toBe(82.6);
  });
});
