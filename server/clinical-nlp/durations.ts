/**
 * Spoken durations: "since 3 days", "for the last 2 weeks", "since yesterday", "4 months back", "x 5 days",
 * "for a couple of months", "over the past month", "2 to 3 weeks" (the longer), "a fortnight", "a 4-day history of",
 * "for the last couple of hours" (in days, to 3 places). A vague amount ("a few days", "several months") is a length
 * of time without a value.
 */
import type { Duration, DurationUnit } from './facts.js';

export interface DurationHit {
  start: number;
  end: number;
  /**
   * Absent for vague amounts ("a few days") and for minutes or an episode's length ("stiffness lasting 10 minutes"):
   * a length of time, but not how long the complaint has lasted.
   */
  duration?: Duration;
  /** An episode's length ("palpitations lasting less than an hour"): how long the complaint has lasted may follow. */
  episode?: boolean;
}

const NUMBER = String.raw`\d+(?:\.\d+)?`;
// A range said "2 to 3", "3 or 4", "3-4", or "3, 4".
const RANGE_SEP = String.raw`(?:\s*(?:to|-|or|,)\s*|\s+)`;
// "two and a half months", "a week and a half": half a unit more.
const AND_A_HALF = String.raw`\s+and\s+a\s+half\b`;
const HALF_SAID = new RegExp(AND_A_HALF);
const HALF_NEXT = new RegExp(`^${AND_A_HALF}`);
const COUNT = String.raw`(${NUMBER}(?:${AND_A_HALF})?(?:${RANGE_SEP}${NUMBER})?|an?|one|few|a few|couple of|a couple of|several)`;
// "18 months old" is an age; "2 hours later" a time in the story, "three nights a week" how often: not how long.
const unitNot = (story: string): string =>
  String.raw`(day|week|month|year|fortnight|night|hour|hr|minute|min)s?(?!\s+(?:old|${story}|(?:a|an|per|each|every|in a)\s+(?:day|week|month|year))\b)`;
const UNIT = unitNot('later|after|afterwards');
// "knee pain for 3 weeks after a fall": after "for" it is how long, and "after" says how it began.
const UNIT_FOR = unitNot('later');
const LEAD = String.raw`(?:since|from|x|over|past|last|lasting|of)`;
const HEDGE = String.raw`(?:(?:about|around|almost|nearly|over|more than|less than|under|up to|approximately|at least|the last|the past|last|past|only|a good)\s+)*`;
const PATTERNS: { re: RegExp; fixedDays?: number; one?: boolean }[] = [
  { re: new RegExp(String.raw`\b${LEAD}\s*${HEDGE}${COUNT}\s*${UNIT}\b`, 'g') },
  { re: new RegExp(String.raw`\bfor\s*${HEDGE}${COUNT}\s*${UNIT_FOR}\b`, 'g') },
  { re: new RegExp(String.raw`\b${COUNT}\s*${UNIT}\s+(?:ago|back|history)\b`, 'g') },
  // "presents with 3 days of sore throat", "reports two weeks of cough": not "completed 5 days of antibiotics".
  { re: new RegExp(String.raw`(?<=\b(?:with|reports?|reporting|describes?|describing|gives|giving|has had|have had|had|having|complains? of|complaining of|notes?)\s+(?:a\s+)?)${COUNT}\s*${UNIT}\s+of\b`, 'g') },
  { re: new RegExp(String.raw`\b(?:about|around|almost|nearly|approximately|probably|maybe|roughly|like|over|under|less than|more than|at least)\s+${COUNT}\s*${UNIT}\b`, 'g') },
  // "lost 4 kg in 3 months": only a number and a plural unit, so "3 times in a day" is a frequency.
  { re: new RegExp(String.raw`\bin\s+(?:the\s+(?:last|past)\s+)?(${NUMBER})\s*(days|weeks|months|years)\b`, 'g') },
  // "the last two weeks or so", and a bare answer to "since when?": "2 months".
  { re: new RegExp(String.raw`\bthe\s+(?:last|past)\s+${COUNT}\s*${UNIT}\b`, 'g') },
  { re: new RegExp(String.raw`^${COUNT}\s*${UNIT}\b`, 'g') },
  // "over the past month", "since last week", "it started last week": one of the unit.
  // Not "up 14 pounds from the last year": a comparison, not how long; nor "I had chest pain last year": when an
  // episode was, said without "since", "for" or an onset.
  {
    re: /(?<!\bfrom\s+(?:the\s+)?)\b(?:(?:since|for|over|in|during)\s+(?:the\s+)?(?:last|past)|(?:the\s+)?past|the\s+last|(?<=\b(?:started|start|began|begin|begun|came on|developed|onset)\b[^.,;:?!]{0,40}\s)last)\s+(day|week|month|year|fortnight|hour)\b(?!\s+of\b)/g,
    one: true,
  },
  // "it's been four days now": not "it's been two days since I stopped the tablets" (how long since something else).
  { re: new RegExp(String.raw`\bbeen\s+${HEDGE}(?=\d|an?\b|one\b|a couple\b|couple\b)${COUNT}\s*${UNIT}\b(?!\s+since\b)`, 'g') },
  { re: new RegExp(String.raw`\b${COUNT}\s*${UNIT}\s+now\b`, 'g') },
  // "the day before yesterday": two days, never the "yesterday" in it.
  { re: /\b(?:the\s+)?day before yesterday\b/g, fixedDays: 2 },
  {
    re: /\b(?:since|from|started|starting|began|beginning|onset)\s+(?:(?:the|just|only)\s+)?(?:yesterday(?:\s+(?:night|morning|evening|afternoon))?|last night|this morning|today|morning|tonight|overnight)\b|\bovernight\b|\blast night\b/g,
    fixedDays: 1,
  },
  // "I was in my yard yesterday … my back started tightening up": yesterday said with the onset.
  { re: /(?<!\bday before )\byesterday\b(?=[^.?!]*\b(?:started|starting|began|came on|developed|woke up|noticed)\b)/g, fixedDays: 1 },
];

// Ranges take the upper bound: "2 to 3", "3, 4", "3 or 4".
const RANGE = new RegExp(String.raw`^(${NUMBER})${RANGE_SEP}(${NUMBER})$`);

/** How many units a count says, or undefined for a vague one ("a few", "several"). */
function count(word: string): number | undefined {
  const range = RANGE.exec(word);
  if (range) return Number(range[2]);
  if (/^\d/.test(word)) return parseFloat(word) + (HALF_SAID.test(word) ? 0.5 : 0);
  if (/couple/.test(word)) return 2;
  if (/few|several/.test(word)) return undefined;
  return 1;
}

function unitOf(word: string): DurationUnit | 'fortnight' | 'hour' | 'short' {
  if (word.startsWith('day') || word.startsWith('night')) return 'day';
  if (word.startsWith('week')) return 'week';
  if (word.startsWith('fortnight')) return 'fortnight';
  if (word.startsWith('month')) return 'month';
  if (word.startsWith('year')) return 'year';
  if (word.startsWith('hour') || word.startsWith('hr')) return 'hour';
  return 'short';
}

/** Every duration in the text, left to right. */
export function findDurations(text: string): DurationHit[] {
  const hits: DurationHit[] = [];
  for (const { re, fixedDays, one } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (hits.some((h) => m!.index < h.end && m!.index + m![0].length > h.start)) continue;
      const span = { start: m.index, end: m.index + m[0].length };
      if (fixedDays) {
        hits.push({ ...span, duration: { value: fixedDays, unit: 'day' } });
        continue;
      }
      const half = HALF_NEXT.exec(text.slice(span.end));
      if (half) span.end += half[0].length;
      const n = one ? 1 : count(m[1] ?? '1');
      const counted = n === undefined ? undefined : n + (half ? 0.5 : 0);
      const unit = unitOf(one ? m[1]! : m[2] ?? '');
      const episode = /^lasting\b/.test(m[0]);
      if (episode && (unit === 'short' || unit === 'hour')) hits.push({ ...span, episode });
      else if (counted === undefined || unit === 'short') hits.push(span);
      else if (unit === 'hour') hits.push({ ...span, duration: { value: Math.round((counted / 24) * 1000) / 1000, unit: 'day' } });
      else hits.push({ ...span, duration: unit === 'fortnight' ? { value: 2 * counted, unit: 'week' } : { value: counted, unit } });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}
