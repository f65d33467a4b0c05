/** Advice: the instructions of the plan, each complete, at most six; never the talk around them. Sentences of our own. */
import { describe, expect, it } from 'vitest';
import { ADVICE_CUES, extractAdvice, MAX_ITEMS } from '../../server/clinical-nlp/advice.js';
import type { Span } from '../../server/clinical-nlp/facts.js';
import { buildDoc, type Sentence } from '../../server/clinical-nlp/sections.js';

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
    const lists = [ADVICE_CUES.leadIns, ADVICE_CUES.negativeLeadIns, ADVICE_CUES.referrals, ADVICE_CUES.notInstructions, ADVICE_CUES.planOnsets, ADVICE_CUES.advisableAfter, ADVICE_CUES.softPrefixes];
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
      ['come back if the pain gets worse or you get numbness in the leg']],
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
    ['the patient\'s words and the doctor\'s intentions are not advice',
      consultation('I feel dizzy when I stand', 'right', 'I think this is low blood pressure. We will start you on a new tablet and I will check your bloods.', 'I will drink more water and rest'),
      []],
  ])('%s', (_, text, expected) => {
    expect(advice(text, { mode: 'consultation' })).toEqual(expected);
  });
});

describe('what other facts and drugs take', () => {
  it('leaves out an instruction whose words another fact was read from', () => {
    const text = 'ASSESSMENT: Cough. PLAN: Get a chest x-ray today. Drink plenty of fluids.';
    const at = (t: string): Span[] => [{ start: t.indexOf('chest x-ray'), end: t.indexOf('chest x-ray') + 11 }];
    expect(advice(text, { used: at })).toEqual(['drink plenty of fluids']);
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

  it('writes one item once, however often it is said', () => {
    expect(advice('ASSESSMENT: Gastroenteritis. PLAN: Drink plenty of fluids. Make sure you drink plenty of fluids.')).toEqual(['drink plenty of fluids']);
  });
});
