/**
 * One ConText engine (Chapman et al. 2007, in the shape of medspaCy's ConTextRule) for every extractor: cue phrases
 * from vocab/context-rules.json are found in a sentence, each opens a scope forward, backward or both ways, and a
 * target (a drug, a problem, a test) inside a scope is modified by the cue's category (stopped, historical,
 * conditional, negated …). The rules are data: the phrase index and the regular expressions are built from the file
 * at load, after its schema and its own consistency (unique ids, no phrase given twice) are checked.
 */
import { Type } from 'typebox';
import RULES_FILE from './vocab/context-rules.json' with { type: 'json' };
import { checkedData, DataFileError, Provenance } from './vocab/data-file.js';
import { normalizePhrase, tokenize, type Token } from './lexicon.js';

export const CONTEXT_CATEGORIES = [
  'NEW', 'CONTINUED', 'CONTINUED_ALL', 'CHANGED', 'STOPPED', 'HISTORICAL', 'CURRENT', 'CONSIDERED', 'CONDITIONAL',
  'ALTERNATIVE', 'ALLERGY', 'OTHER_PERSON', 'ASKED', 'NEGATED', 'FAMILY', 'SUSPECTED', 'HYPOTHETICAL', 'TERMINATE',
] as const;
export type ContextCategory = (typeof CONTEXT_CATEGORIES)[number];
export const DIRECTIONS = ['forward', 'backward', 'bidirectional', 'terminate', 'pseudo'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const TARGET_TYPES = ['drug', 'problem', 'symptom', 'test'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

const lit = <T extends string>(xs: readonly T[]) => Type.Union(xs.map((x) => Type.Literal(x)));
const Category = lit(CONTEXT_CATEGORIES);
const RuleSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9.-]*$' }),
    category: Category,
    direction: lit(DIRECTIONS),
    phrases: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
    pattern: Type.Optional(Type.String({ minLength: 1 })),
    max_scope: Type.Optional(Type.Integer({ minimum: 0 })),
    allowed_types: Type.Optional(Type.Array(lit(TARGET_TYPES), { minItems: 1 })),
    terminated_by: Type.Optional(Type.Array(Category)),
    terminates: Type.Optional(Type.Array(Category)),
    uncertain: Type.Optional(Type.Boolean()),
    sure_when_dosed: Type.Optional(Type.Boolean()),
    absorbs: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    in_history_section: Type.Optional(Category),
    in_plan_section: Type.Optional(Category),
    overrules: Type.Optional(Type.Boolean()),
    over_list: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const RulesFileSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  clause_ends: Type.Array(Type.String({ minLength: 1 })),
  list_links: Type.Array(Type.String({ minLength: 1 })),
  rules: Type.Array(RuleSchema, { minItems: 1 }),
});
/** One rule of context-rules.json (the schema above checks the file; this is its shape for the code). */
export interface ContextRule {
  id: string;
  category: ContextCategory;
  direction: Direction;
  phrases?: string[];
  pattern?: string;
  max_scope?: number;
  allowed_types?: TargetType[];
  terminated_by?: ContextCategory[];
  terminates?: ContextCategory[];
  /** The cue decides its category with low confidence ("we usually give …"): keep the target, flag it. */
  uncertain?: boolean;
  /** An uncertain cue that a strength and a schedule said with its drug to the patient make sure ("I'd recommend naproxen 500 mg twice a day"). */
  sure_when_dosed?: boolean;
  /** Words that, straight after the cue, are part of it ("hasn't had any"). */
  absorbs?: string[];
  /** What the cue means under a history heading: "spray", "uses" in a medication list describe what is taken, they prescribe nothing. */
  in_history_section?: ContextCategory;
  /** What the cue means under a plan heading: "started on Mobic" there is the writer starting it at this visit. */
  in_plan_section?: ContextCategory;
  /** Said after the drug, it decides over a cue before it ("we will likely start methotrexate in the near future"). */
  overrules?: boolean;
  /** Its max_scope counts again from each list link it reaches: "denies fevers, chills, cough, … or dyspnea on exertion". */
  over_list?: boolean;
}

/** A cue found in a sentence: where it is (characters and tokens) and the tokens [scopeFrom, scopeTo) it governs. */
export interface ContextModifier {
  rule: ContextRule;
  category: ContextCategory;
  text: string;
  start: number;
  end: number;
  from: number;
  to: number;
  scopeFrom: number;
  scopeTo: number;
}

interface Compiled {
  rules: ContextRule[];
  byFirst: Map<string, { words: string[]; rule: ContextRule }[]>;
  /** Per rule, the word runs it absorbs, longest first. */
  absorbs: Map<ContextRule, string[][]>;
  patterns: { re: RegExp; rule: ContextRule }[];
  clauseEnds: Set<string>;
  listLinks: Set<string>;
}

/** Checks a rules file (schema, then ids, phrases and patterns) and builds its indexes; throws DataFileError. */
const UNBOUNDED_RUN = /(?:\[\^[^\]]*\]|(?<!\\)\.)[*+]/;
const LEADING_LOOKBEHIND = /^(?:\(\?:)*\(\?<[=!]/;

export function compileContextRules(data: unknown, name = 'context-rules.json'): Compiled {
  const file = checkedData(name, RulesFileSchema, data) as { clause_ends: string[]; list_links: string[]; rules: ContextRule[] };
  const byFirst: Compiled['byFirst'] = new Map();
  const absorbs: Compiled['absorbs'] = new Map();
  const patterns: Compiled['patterns'] = [];
  const ids = new Set<string>();
  const seen = new Map<string, string>();
  for (const rule of file.rules) {
    const fail = (why: string): never => {
      throw new DataFileError(`${name}: rule ${rule.id}: ${why}`);
    };
    if (ids.has(rule.id)) fail('id given twice');
    ids.add(rule.id);
    if (!rule.phrases === !rule.pattern) fail('needs exactly one of phrases and pattern');
    if (rule.terminates && rule.direction !== 'terminate') fail('only a terminate rule terminates categories');
    if (rule.pattern) {
      // A cue must stay a cue: "any run of characters" would let one match span half an unpunctuated consultation,
      // and where cues overlap the longest wins, so it would swallow every cue inside it.
      if (UNBOUNDED_RUN.test(rule.pattern)) fail('pattern has an unbounded run of any characters ([^…]*, .*, .+): give it a bound such as {0,60}');
      // A match's first character is tried at every position of every sentence: a lookbehind there looks back up to
      // its width each time (one such rule cost half the time of all the others together).
      if (LEADING_LOOKBEHIND.test(rule.pattern)) fail('pattern opens with a lookbehind: match its first word, then look behind from there ("\\bto\\b(?<=\\bswitch … to)")');
      try {
        patterns.push({ re: new RegExp(rule.pattern, 'g'), rule });
      } catch (e) {
        fail(`pattern does not compile (${(e as Error).message})`);
      }
    }
    for (const phrase of rule.phrases ?? []) {
      const words = tokenize(normalizePhrase(phrase)).map((t) => t.text);
      if (!words.length) fail(`phrase "${phrase}" has no words`);
      // One cue, one meaning: the same words in two rules of one kind would make the file ambiguous to read.
      const key = `${rule.direction === 'pseudo' ? 'pseudo' : rule.category}:${words.join(' ')}`;
      const other = seen.get(key);
      if (other) fail(`phrase "${phrase}" is also in rule ${other}`);
      seen.set(key, rule.id);
      const list = byFirst.get(words[0]!) ?? [];
      list.push({ words, rule });
      byFirst.set(words[0]!, list);
    }
    if (rule.absorbs) absorbs.set(rule, rule.absorbs.map((a) => tokenize(normalizePhrase(a)).map((t) => t.text)).sort((a, b) => b.length - a.length));
  }
  return { rules: file.rules, byFirst, absorbs, patterns, clauseEnds: new Set(file.clause_ends), listLinks: new Set(file.list_links) };
}

const RULES = compileContextRules(RULES_FILE);
export const CONTEXT_RULES: readonly ContextRule[] = RULES.rules;

interface Candidate {
  rule: ContextRule;
  from: number;
  to: number;
}

const runAt = (tokens: Token[], i: number, words: string[]): boolean => i + words.length <= tokens.length && words.every((w, k) => tokens[i + k]!.text === w);

/** A phrase's cue runs on over the words its rule absorbs ("rather than | increasing": the verb is the cue's, not a cue of its own). */
function phraseMatches(tokens: Token[], c: Compiled): Candidate[] {
  const out: Candidate[] = [];
  tokens.forEach((t, i) => {
    for (const e of c.byFirst.get(t.text) ?? []) {
      if (!runAt(tokens, i, e.words)) continue;
      let to = i + e.words.length;
      const absorbed = c.absorbs.get(e.rule) ?? [];
      for (let run = absorbed.find((a) => runAt(tokens, to, a)); run; run = absorbed.find((a) => runAt(tokens, to, a))) to += run.length;
      out.push({ rule: e.rule, from: i, to });
    }
  });
  return out;
}

function patternMatches(text: string, tokens: Token[], c: Compiled): Candidate[] {
  const out: Candidate[] = [];
  // Each pattern on its own: V8 finds a lone pattern's first word quickly, but tries every branch of a union of them
  // at every character (a union as a pre-check cost twice what all the patterns do alone).
  for (const { re, rule } of c.patterns) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (!m[0].length) {
        re.lastIndex++;
        continue;
      }
      const end = m.index + m[0].length;
      const from = tokens.findIndex((t) => t.end > m!.index);
      let to = tokens.length;
      while (to > 0 && tokens[to - 1]!.start >= end) to--;
      if (from >= 0 && to > from) out.push({ rule, from, to });
    }
  }
  return out;
}

/**
 * Where cues overlap the longest wins (a pseudo cue over the cue word inside it); at equal length the first. The
 * same words in rules of different categories for different targets ("no" for a drug and for a symptom) are both
 * kept, unless one is pseudo; so are two terminate cues on the same words ("since" ends a negation's scope for a
 * symptom and, before a clause of its own, a drug's history cue).
 */
function resolveOverlaps(all: Candidate[]): Candidate[] {
  const kept: Candidate[] = [];
  const sorted = [...all].sort((a, b) => b.to - b.from - (a.to - a.from) || a.from - b.from);
  const twin = (a: Candidate, b: Candidate): boolean =>
    a.from === b.from &&
    a.to === b.to &&
    a.rule.direction !== 'pseudo' &&
    b.rule.direction !== 'pseudo' &&
    (a.rule.category !== b.rule.category || a.rule.direction === 'terminate');
  for (const c of sorted) if (!kept.some((k) => k.from < c.to && c.from < k.to && !twin(k, c))) kept.push(c);
  return kept.sort((a, b) => a.from - b.from);
}

function limits(self: ContextRule, other: ContextRule): boolean {
  if (other.direction === 'pseudo') return false;
  if (other.direction === 'terminate') {
    const forTargets = !other.allowed_types || !self.allowed_types || self.allowed_types.some((t) => other.allowed_types!.includes(t));
    return forTargets && (!other.terminates || other.terminates.includes(self.category));
  }
  return other.category === self.category || !!self.terminated_by?.includes(other.category);
}

function scoped(c: Candidate, kept: Candidate[], tokens: Token[], { clauseEnds, listLinks }: Pick<Compiled, 'clauseEnds' | 'listLinks'>): [number, number] {
  const { rule } = c;
  const fwd = rule.direction === 'forward' || rule.direction === 'bidirectional';
  const back = rule.direction === 'backward' || rule.direction === 'bidirectional';
  let from = back ? 0 : c.to;
  let to = fwd ? tokens.length : c.from;
  for (let i = c.to; fwd && i < to; i++) if (clauseEnds.has(tokens[i]!.text)) to = i;
  for (let i = c.from - 1; back && i >= from; i--) if (clauseEnds.has(tokens[i]!.text)) from = i + 1;
  if (rule.max_scope !== undefined) {
    let reach = c.to + rule.max_scope;
    for (let i = c.to; rule.over_list && i < Math.min(reach, to); i++) if (listLinks.has(tokens[i]!.text)) reach = Math.max(reach, i + 1 + rule.max_scope);
    if (fwd) to = Math.min(to, reach);
    if (back) from = Math.max(from, c.from - rule.max_scope);
  }
  for (const o of kept) {
    if (o === c || !limits(rule, o.rule)) continue;
    if (fwd && o.from >= c.to) to = Math.min(to, o.from);
    if (back && o.to <= c.from) from = Math.max(from, o.to);
  }
  return [from, to];
}

export interface ContextSentence {
  text: string;
  tokens: Token[];
}

const cache = new WeakMap<ContextSentence, ContextModifier[]>();

/** Every cue of a sentence with its scope (pseudo and terminate cues included: they have an empty scope). */
export function sentenceModifiers(s: ContextSentence, rules: Compiled = RULES): ContextModifier[] {
  const hit = rules === RULES ? cache.get(s) : undefined;
  if (hit) return hit;
  const kept = resolveOverlaps([...phraseMatches(s.tokens, rules), ...patternMatches(s.text, s.tokens, rules)]);
  const out = kept.map((c): ContextModifier => {
    const acts = c.rule.direction !== 'pseudo' && c.rule.direction !== 'terminate';
    const [scopeFrom, scopeTo] = acts ? scoped(c, kept, s.tokens, rules) : [c.from, c.from];
    const start = s.tokens[c.from]!.start;
    const end = s.tokens[c.to - 1]!.end;
    return { rule: c.rule, category: c.rule.category, text: s.text.slice(start, end), start, end, from: c.from, to: c.to, scopeFrom, scopeTo };
  });
  if (rules === RULES) cache.set(s, out);
  return out;
}

/**
 * The cues that modify the target at characters [start, end) of the sentence: those whose scope holds the target's
 * first or last word, that allow its type and do not overlap it, nearest first.
 */
export function contextOf(s: ContextSentence, start: number, end: number, type: TargetType, rules: Compiled = RULES): ContextModifier[] {
  const first = s.tokens.findIndex((t) => t.end > start);
  let last = s.tokens.length - 1;
  while (last > 0 && s.tokens[last]!.start >= end) last--;
  if (first < 0 || last < first) return [];
  const distance = (m: ContextModifier): number => (m.to <= first ? first - m.to : m.from - last);
  return sentenceModifiers(s, rules)
    .filter(
      (m) =>
        m.scopeTo > m.scopeFrom &&
        !(m.from <= last && first < m.to) &&
        (!m.rule.allowed_types || m.rule.allowed_types.includes(type)) &&
        ((first >= m.scopeFrom && first < m.scopeTo) || (last >= m.scopeFrom && last < m.scopeTo)),
    )
    .sort((a, b) => distance(a) - distance(b));
}
