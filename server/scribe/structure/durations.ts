/** Spoken durations: "since 3 days", "for the last 2 weeks", "since yesterday", "4 months back", "x 5 days". */
import type { Duration, DurationUnit } from './facts.js';

export interface DurationHit {
  start: number;
  end: number;
  duration: Duration;
}

const COUNT = String.raw`(\d+(?:\.\d+)?|an?|one|few|a few|couple of|a couple of)`;
const UNIT = String.raw`(day|week|month|year|night|hour|hr|minute|min)s?`;
const LEAD = String.raw`(?:since|for|from|x|over|past|last|lasting|of)`;
const HEDGE = String.raw`(?:(?:about|around|almost|nearly|over|more than|approximately|at least|the last|the past|last|past|only)\s+)*`;
const PATTERNS: { re: RegExp; fixedDays?: number }[] = [
  { re: new RegExp(String.raw`\b${LEAD}\s+${HEDGE}${COUNT}\s*${UNIT}\b`, 'g') },
  { re: new RegExp(String.raw`\b${COUNT}\s*${UNIT}\s+(?:ago|back)\b`, 'g') },
  { re: new RegExp(String.raw`\b(?:about|around|almost|nearly|approximately)\s+${COUNT}\s*${UNIT}\b`, 'g') },
  {
    re: /\b(?:since|from|started|starting|began|beginning)\s+(?:the\s+)?(?:yesterday(?:\s+(?:night|morning|evening|afternoon))?|last night|this morning|today|morning|tonight|overnight)\b|\bovernight\b|\blast night\b/g,
    fixedDays: 1,
  },
];

function count(word: string): number {
  if (/^\d/.test(word)) return Number(word);
  if (/couple/.test(word)) return 2;
  if (/few/.test(word)) return 3;
  return 1;
}

function unitOf(word: string): DurationUnit | null {
  if (word.startsWith('day') || word.startsWith('night')) return 'day';
  if (word.startsWith('week')) return 'week';
  if (word.startsWith('month')) return 'month';
  if (word.startsWith('year')) return 'year';
  return null;
}

/** Every duration in the text, left to right; hours and minutes are not durations a note records in days. */
export function findDurations(text: string): DurationHit[] {
  const hits: DurationHit[] = [];
  for (const { re, fixedDays } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (hits.some((h) => m!.index < h.end && m!.index + m![0].length > h.start)) continue;
      if (fixedDays) {
        hits.push({ start: m.index, end: m.index + m[0].length, duration: { value: fixedDays, unit: 'day' } });
        continue;
      }
      const unit = unitOf(m[2] ?? '');
      if (!unit) continue;
      hits.push({ start: m.index, end: m.index + m[0].length, duration: { value: count(m[1] ?? '1'), unit } });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}
