import { describe, expect, it } from 'vitest';
import { parsePocketSphinxOutput } from '../../server/scribe/asr/pocketsphinx.js';
import type { Segment, Transcript } from '../../server/scribe/contracts.js';
import { annotateFromAudio } from '../../server/clinical-nlp/confidence.js';
import type { ClinicalFacts, Span } from '../../server/clinical-nlp/facts.js';
import { structure } from '../../server/clinical-nlp/structure.js';

/**
 * A recogniser's transcript built by hand: each utterance is a list of words, each said in 0.4 s with 0.1 s between
 * words and 1 s between utterances, sure of every word except those given in `unsure` (word index → confidence).
 */
function heard(utterances: string[], unsure: Record<number, number> = {}): Transcript {
  let t = 0.5;
  let n = 0;
  const segments: Segment[] = utterances.map((u) => {
    const words = u.split(' ').map((word) => {
      const w = { word, start: t, end: Math.round((t + 0.4) * 100) / 100, conf: unsure[n++] ?? 0.98 };
      t = Math.round((t + 0.5) * 100) / 100;
      return w;
    });
    t += 1;
    return { start: words[0]!.start, end: words.at(-1)!.end, text: u, words };
  });
  return { text: segments.map((s) => s.text).join(' '), language: 'en-IN', engine: 'test', segments };
}

const UTTERANCES = [
  'bp one thirty over eighty five',
  'impression migraine without aura',
  'plan tab propranolol forty mg twice daily for two weeks',
];
// Word indexes in UTTERANCES joined: 0 bp … 5 five, 6 impression … 9 aura, 10 plan 11 tab 12 propranolol 13 forty 14 mg.
const at = (i: number) => 0.5 + i * 0.5 + (i >= 6 ? 1 : 0) + (i >= 10 ? 1 : 0);

function spansOf(value: unknown, out: Span[] = []): Span[] {
  if (Array.isArray(value)) value.forEach((v) => spansOf(v, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.start === 'number' && typeof o.end === 'number' && Object.keys(o).every((k) => ['start', 'end', 'start_s', 'end_s'].includes(k))) out.push(o as unknown as Span);
    else Object.values(o).forEach((v) => spansOf(v, out));
  }
  return out;
}

function structured(t: Transcript): ClinicalFacts {
  return structure(t.text, { locale: 'en-IN', mode: 'dictation' });
}

describe('annotateFromAudio', () => {
  it('gives every evidence span the seconds of its words', () => {
    const t = heard(UTTERANCES);
    const facts = annotateFromAudio(structured(t), t);
    const med = facts.medications.find((m) => m.name === 'propranolol')!;
    expect(med.strength).toEqual({ value: 40, unit: 'mg' });
    expect(med.field_evidence?.strength).toMatchObject({ start_s: at(13), end_s: at(14) + 0.4 });
    expect(med.field_evidence?.name).toMatchObject({ start_s: at(12), end_s: at(12) + 0.4 });
    expect(facts.evidence.vitals.bp).toMatchObject({ start_s: at(0), end_s: at(5) + 0.4 });
    const dx = facts.diagnoses.find((d) => /migraine/.test(d.name))!;
    expect(dx.evidence).toMatchObject({ start_s: at(7) });
    const spans = spansOf(facts);
    expect(spans.length).toBeGreaterThan(5);
    for (const s of spans) {
      expect(s.start_s).toBeTypeOf('number');
      expect(s.end_s!).toBeGreaterThan(s.start_s!);
    }
  });

  it('flags a drug strength heard with low confidence, and nothing heard clearly', () => {
    const t = heard(UTTERANCES, { 13: 0.06 });
    const facts = annotateFromAudio(structured(t), t);
    const i = facts.medications.findIndex((m) => m.name === 'propranolol');
    expect(facts.flags).toEqual([
      { code: 'LOW_CONFIDENCE', pointer: `/medications/${i}/strength`, message: expect.stringMatching(/strength of propranolol \(40 mg, heard "forty mg"\) was unclear in the recording/) },
    ]);
    // Words at 0.15 are not doubtful enough; nor is a vital's label when its number is clear.
    const clear = heard(UTTERANCES, { 0: 0.01, 12: 0.15, 13: 0.15 });
    expect(annotateFromAudio(structured(clear), clear).flags).toEqual([]);
  });

  it('flags a doubtful drug name once, at the medication, and doubtful vitals and diagnoses at theirs', () => {
    const t = heard(UTTERANCES, { 12: 0.05, 13: 0.05, 4: 0.05, 8: 0.02 });
    const facts = annotateFromAudio(structured(t), t);
    const i = facts.medications.findIndex((m) => m.name === 'propranolol');
    const d = facts.diagnoses.findIndex((x) => /migraine/.test(x.name));
    const byPointer = Object.fromEntries(facts.flags.map((f) => [f.pointer, f.message]));
    expect(Object.keys(byPointer).sort()).toEqual([`/diagnoses/${d}`, `/medications/${i}`, '/vitals/bp'].sort());
    expect(byPointer[`/medications/${i}`]).toMatch(/propranolol 40 mg \(heard "propranolol forty mg"\)/);
    expect(byPointer['/vitals/bp']).toMatch(/blood pressure \(130\/85, heard "bp one thirty over eighty five"\)/);
  });

  it('vouches for no drug from a recording heard poorly throughout, even one whose own words were clear', () => {
    // Four unclear words of 20 (20%), none of them the drug's: the recogniser was guessing around it.
    const poor = heard(UTTERANCES, { 1: 0.02, 3: 0.05, 7: 0.04, 9: 0.01 });
    const facts = annotateFromAudio(structured(poor), poor);
    const i = facts.medications.findIndex((m) => m.name === 'propranolol');
    const flag = facts.flags.find((f) => f.pointer === `/medications/${i}`)!;
    expect(flag.code).toBe('LOW_CONFIDENCE');
    expect(flag.message).toMatch(/propranolol 40 mg \(heard "tab propranolol forty mg twice daily for two weeks"\).*recogniser heard poorly \(20% of its words unclear\)/);
    // Two unclear words of 20 (10%) say nothing about the drug.
    const fair = heard(UTTERANCES, { 1: 0.02, 3: 0.05 });
    expect(annotateFromAudio(structured(fair), fair).flags.filter((f) => f.pointer.startsWith('/medications'))).toEqual([]);
  });

  it('leaves out a test heard unsure word after word, and keeps one heard clearly', () => {
    const said = ['impression migraine without aura', 'get a serum creatinine and an mri brain'];
    // Words 4.. are the second utterance: get 4, a 5, serum 6, creatinine 7, and 8, an 9, mri 10, brain 11.
    const clear = heard(said);
    expect(annotateFromAudio(structured(clear), clear).investigations.map((i) => i.name)).toEqual(['serum creatinine', 'mri brain']);
    const unsure = heard(said, { 10: 0.03, 11: 0.08 });
    expect(annotateFromAudio(structured(unsure), unsure).investigations.map((i) => i.name)).toEqual(['serum creatinine']);
  });

  it('does not change the facts it is given, and keeps flags already there', () => {
    const t = heard(UTTERANCES, { 13: 0.05 });
    const facts = structured(t);
    facts.flags.push({ code: 'DOSE_RANGE', pointer: '/medications/0', message: 'A flag from another check.' });
    const before = structuredClone(facts);
    const out = annotateFromAudio(facts, t);
    expect(facts).toEqual(before);
    expect(out).not.toBe(facts);
    expect(out.flags.map((f) => f.code)).toEqual(['DOSE_RANGE', 'LOW_CONFIDENCE']);
  });

  it('leaves the facts of typed text alone', () => {
    const text = UTTERANCES.join(' ');
    const facts = structure(text, { locale: 'en-IN' });
    const typed: Transcript = { text, language: 'en-IN', engine: 'text', segments: [] };
    expect(annotateFromAudio(facts, typed)).toBe(facts);
  });

  it('uses segment times, and raises no doubts, when the engine gives no words (Whisper)', () => {
    const words = heard(UTTERANCES, { 13: 0.05 });
    const t: Transcript = { ...words, segments: words.segments.map(({ words: _, ...s }) => s) };
    const facts = annotateFromAudio(structured(t), t);
    const med = facts.medications.find((m) => m.name === 'propranolol')!;
    expect(med.field_evidence?.strength).toMatchObject({ start_s: t.segments[2]!.start, end_s: t.segments[2]!.end });
    expect(facts.flags).toEqual([]);
  });
});

describe('parsePocketSphinxOutput', () => {
  it('keeps each word with its times and confidence, within 0..1', () => {
    const out = [
      'cough for a week',
      '<s> 0.000 0.120 1.000000',
      'cough 0.130 0.520 0.912345',
      '<sil> 0.530 0.600 0.999900',
      'for(2) 0.610 0.800 1.000100',
      'a 0.810 0.850 0.431000',
      'week 0.860 1.240 0.057000',
      '</s> 1.250 1.500 1.000000',
    ].join('\n');
    expect(parsePocketSphinxOutput(out)).toEqual([
      {
        start: 0.13,
        end: 1.24,
        text: 'cough for a week',
        words: [
          { word: 'cough', start: 0.13, end: 0.52, conf: 0.912345 },
          { word: 'for', start: 0.61, end: 0.8, conf: 1 },
          { word: 'a', start: 0.81, end: 0.85, conf: 0.431 },
          { word: 'week', start: 0.86, end: 1.24, conf: 0.057 },
        ],
      },
    ]);
  });
});
