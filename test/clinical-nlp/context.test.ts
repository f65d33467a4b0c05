import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileContextRules, CONTEXT_RULES, contextOf, sentenceModifiers, type TargetType } from '../../server/clinical-nlp/context.js';
import { normalizeText, tokenize } from '../../server/clinical-nlp/lexicon.js';
import { isNegated, negationCues, postNegationCues } from '../../server/clinical-nlp/negation.js';
import RULES_FILE from '../../server/clinical-nlp/vocab/context-rules.json' with { type: 'json' };
import { DataFileError } from '../../server/clinical-nlp/vocab/data-file.js';

interface Case {
  sentence: string;
  target: string;
  type: TargetType;
  expect: string[];
  first?: boolean;
  absent?: string[];
}
const CASES = (JSON.parse(readFileSync(new URL('./context-cases.json', import.meta.url), 'utf8')) as { cases: Case[] }).cases;

const sentence = (raw: string) => {
  const text = normalizeText(raw);
  return { text, tokens: tokenize(text) };
};

function categories(raw: string, target: string, type: TargetType, rules?: ReturnType<typeof compileContextRules>): string[] {
  const s = sentence(raw);
  const at = s.text.indexOf(normalizeText(target));
  expect(at, `"${target}" in "${s.text}"`).toBeGreaterThanOrEqual(0);
  return contextOf(s, at, at + normalizeText(target).length, type, rules).map((m) => m.category);
}

const file = (rules: unknown[]) => ({ source: 'test', licence: 'test', about: '', clause_ends: [';'], list_links: [',', 'or'], rules });

describe('context rules file', () => {
  it('loads, with a unique id, a category and a direction for every rule', () => {
    expect(() => compileContextRules(RULES_FILE)).not.toThrow();
    expect(new Set(CONTEXT_RULES.map((r) => r.id)).size).toBe(CONTEXT_RULES.length);
    expect(CONTEXT_RULES.every((r) => !!r.phrases !== !!r.pattern)).toBe(true);
  });

  it.each([
    ['an unknown category', [{ id: 'x', category: 'MAYBE', direction: 'forward', phrases: ['x'] }]],
    ['an unknown direction', [{ id: 'x', category: 'NEW', direction: 'sideways', phrases: ['x'] }]],
    ['an id given twice', [{ id: 'x', category: 'NEW', direction: 'forward', phrases: ['a'] }, { id: 'x', category: 'NEW', direction: 'forward', phrases: ['b'] }]],
    ['a phrase in two rules of one category', [{ id: 'x', category: 'NEW', direction: 'forward', phrases: ['a'] }, { id: 'y', category: 'NEW', direction: 'backward', phrases: ['a'] }]],
    ['both phrases and a pattern', [{ id: 'x', category: 'NEW', direction: 'forward', phrases: ['a'], pattern: 'a' }]],
    ['a pattern that does not compile', [{ id: 'x', category: 'NEW', direction: 'forward', pattern: '(' }]],
    ['an unknown field', [{ id: 'x', category: 'NEW', direction: 'forward', phrases: ['a'], scope: 3 }]],
    ['a pattern with an unbounded run of any characters', [{ id: 'x', category: 'CONDITIONAL', direction: 'forward', pattern: String.raw`\bif\b[^.;?]*?\bwe will start\b` }]],
    ['a pattern that opens with a lookbehind', [{ id: 'x', category: 'NEW', direction: 'forward', pattern: String.raw`(?<=\bswitch\s+(?:[a-z]+\s+){1,3})to\b` }]],
    ['a pattern that opens with a negative lookbehind', [{ id: 'x', category: 'HISTORICAL', direction: 'backward', pattern: String.raw`(?<!\bif\s)\bdoesn't help\b` }]],
  ])('refuses %s', (_why, rules) => {
    expect(() => compileContextRules(file(rules))).toThrow(DataFileError);
  });
});

describe('context cases (test/fixtures/context-cases.json)', () => {
  it.each(CASES.map((c) => [c.sentence, c.target, c] as const))('%s → %s', (_s, _t, c) => {
    const got = categories(c.sentence, c.target, c.type);
    if (c.first) expect(got[0]).toBe(c.expect[0]);
    else for (const cat of c.expect) expect(got).toContain(cat);
    for (const cat of c.absent ?? []) expect(got).not.toContain(cat);
  });
});

describe('scope, as medspaCy defines it', () => {
  const rules = compileContextRules(
    file([
      { id: 'neg', category: 'NEGATED', direction: 'forward', phrases: ['no'] },
      { id: 'neg.short', category: 'NEGATED', direction: 'forward', max_scope: 2, phrases: ['not'] },
      { id: 'neg.list', category: 'NEGATED', direction: 'forward', max_scope: 2, over_list: true, phrases: ['denies'] },
      { id: 'neg.after', category: 'NEGATED', direction: 'backward', phrases: ['ruled out'] },
      { id: 'hist', category: 'HISTORICAL', direction: 'bidirectional', max_scope: 3, phrases: ['history'] },
      { id: 'pseudo', category: 'NEGATED', direction: 'pseudo', phrases: ['no increase'] },
      { id: 'but', category: 'TERMINATE', direction: 'terminate', phrases: ['but'] },
      { id: 'hist.stop', category: 'TERMINATE', direction: 'terminate', terminates: ['HISTORICAL'], phrases: ['now'] },
      { id: 'drug.only', category: 'STOPPED', direction: 'forward', allowed_types: ['drug'], phrases: ['stop'] },
    ]),
  );
  const cats = (s: string, t: string, type: TargetType = 'symptom') => categories(s, t, type, rules);

  it('a forward cue reaches the sentence end, a backward one its start', () => {
    expect(cats('no cough fever or rash', 'rash')).toEqual(['NEGATED']);
    expect(cats('pneumonia ruled out', 'pneumonia')).toEqual(['NEGATED']);
    expect(cats('pneumonia ruled out', 'pneumonia'.slice(0, 0) || 'out')).toEqual([]);
  });

  it('a terminate cue ends the scope of every cue, or of the categories it names', () => {
    expect(cats('no cough but fever', 'fever')).toEqual([]);
    expect(cats('no cough now fever', 'fever')).toEqual(['NEGATED']);
    expect(cats('history of asthma now wheeze', 'wheeze')).toEqual([]);
  });

  it('a clause end ends the scope', () => {
    expect(cats('no cough; fever since monday', 'fever')).toEqual([]);
  });

  it('max_scope counts words, on both sides of a bidirectional cue', () => {
    expect(cats('not really any cough', 'cough')).toEqual([]);
    expect(cats('not any cough', 'cough')).toEqual(['NEGATED']);
    expect(cats('asthma history', 'asthma')).toEqual(['HISTORICAL']);
    expect(cats('asthma since a child with a long history', 'asthma')).toEqual([]);
  });

  it('over_list counts max_scope again from each list link it reaches', () => {
    expect(cats('denies cough, pain, or dyspnea', 'dyspnea')).toEqual(['NEGATED']);
    expect(cats('denies cough at night and dyspnea', 'dyspnea')).toEqual([]);
  });

  it('a pseudo cue wins over the cue word inside it and modifies nothing', () => {
    expect(cats('no increase in swelling', 'swelling')).toEqual([]);
  });

  it('a cue of the same category cuts the scope of the one before it', () => {
    const s = sentence('no cough, no fever');
    const [first] = sentenceModifiers(s, rules);
    expect(first!.scopeTo).toBeLessThanOrEqual(3);
  });

  it('allowed types limit what a cue modifies', () => {
    expect(cats('stop metformin', 'metformin', 'drug')).toEqual(['STOPPED']);
    expect(cats('stop coughing', 'coughing', 'symptom')).toEqual([]);
  });

  it('a target never modifies itself', () => {
    expect(cats('no', 'no')).toEqual([]);
  });
});

describe('negation of findings reads the same rules (structure/negation.ts over the NEGATED and terminate rules)', () => {
  it.each([
    ['no fever, chills or cough', 'cough', true],
    ['fever and chills times zero', 'fever', true],
    ["she hasn't had any headaches", 'headaches', true],
    ['no fever but has a cough', 'cough', false],
    ['no vomiting since she started the syrup, now has diarrhoea', 'diarrhoea', false],
    ['pneumonia is not ruled out', 'pneumonia', false],
  ])('"%s": %s negated is %s', (raw, finding, negated) => {
    const text = normalizeText(raw);
    const at = text.indexOf(finding);
    const before = negationCues(text.slice(0, at)).length > 0 && isNegated(text, at);
    const after = postNegationCues(text).some(([start]) => start > at);
    expect(before || after).toBe(negated);
  });

  it('a terminate rule for findings does not end a drug negation ("no need for … antibiotics")', () => {
    expect(categories('there is no need for antibiotics with this cold', 'antibiotics', 'drug')).toContain('NEGATED');
    expect(categories('there is no need for treatment with antibiotics', 'antibiotics', 'drug')).toContain('NEGATED');
  });
});
