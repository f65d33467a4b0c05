/**
 * Follow-up: "review after 3 days", "follow up in a month", "show me after two weeks", "see him back in 1 week",
 * "bring him back in fifteen days", "recheck in 48 hours", "review the day after tomorrow", "in a fortnight".
 * The last one said wins (a plan restates it at the end); conditional returns ("come back if …") are not follow-ups.
 */
import type { ClinicalFacts, Duration } from './facts.js';
import type { Doc } from './sections.js';

const VERB = String.raw`(?:review|follow[ -]?up|come back|come again|come|revisit|recheck|re check|return|see (?:me|you|him|her|them)|show (?:me|him|her|it|them|the)|bring (?:him|her|them|the)|report back|visit again|next visit|back)`;
const COUNT = String.raw`(\d+(?:\.\d+)?|a|an|one|a couple of|couple of)`;
const AFTER = new RegExp(
  String.raw`\b${VERB}\b[a-z ]{0,30}?\b(?:after|in|within)\s+(?:(?:about|another|the next)\s+)?${COUNT}\s*(day|week|month|year|hour|fortnight)s?\b([^,;]*)`,
);
const NAMED = new RegExp(String.raw`\b${VERB}\b[a-z ]{0,30}?\b(the day after tomorrow|day after tomorrow|tomorrow|next week|next month)\b([^,;]*)`);
const NAMED_DURATION: Record<string, Duration> = {
  'the day after tomorrow': { value: 2, unit: 'day' },
  'day after tomorrow': { value: 2, unit: 'day' },
  tomorrow: { value: 1, unit: 'day' },
  'next week': { value: 1, unit: 'week' },
  'next month': { value: 1, unit: 'month' },
};

function duration(count: string, unit: string): Duration {
  const n = /^\d/.test(count) ? Number(count) : /couple/.test(count) ? 2 : 1;
  if (unit === 'fortnight') return { value: 2 * n, unit: 'week' };
  // A note counts follow-up in days: "48 hours" is 2 days.
  if (unit === 'hour') return { value: Math.max(1, Math.round(n / 24)), unit: 'day' };
  return { value: n, unit: unit as Duration['unit'] };
}

export function extractFollowUp(doc: Doc): ClinicalFacts['follow_up'] {
  for (const s of [...doc.sentences].reverse()) {
    if (s.speaker === 'patient' || /^if\b/.test(s.text)) continue;
    const m = AFTER.exec(s.text) ?? NAMED.exec(s.text);
    if (!m) continue;
    const named = m.length === 3;
    const after = named ? NAMED_DURATION[m[1]!]! : duration(m[1]!, m[2]!);
    const rest = (named ? m[2] : m[3]) ?? '';
    const notes = rest.replace(/^\s*(?:with|and)\s+/, (x) => x.trimStart()).trim();
    const evidence = s.span(m.index, m.index + m[0].length - rest.length);
    return notes ? { after, notes, evidence } : { after, evidence };
  }
  return undefined;
}
