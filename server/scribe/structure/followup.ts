/** Follow-up: "review after 3 days", "follow up in a month", "recheck in clinic tomorrow", "come back after 2 weeks with reports". */
import type { ClinicalFacts, Duration } from './facts.js';
import type { Doc } from './sections.js';

const VERB = String.raw`(?:review|follow[ -]?up|come back|come again|come|revisit|recheck|re check|return|see me|see you|report back|visit again|next visit)`;
const AFTER = new RegExp(
  String.raw`\b${VERB}\b[a-z ]{0,25}?\b(?:after|in|within)\s+(?:(?:about|another|the next)\s+)?(\d+(?:\.\d+)?|a|an|one)\s*(day|week|month|year)s?\b([^,;]*)`,
);
const TOMORROW = new RegExp(String.raw`\b${VERB}\b[a-z ]{0,25}?\b(tomorrow|next week|next month)\b([^,;]*)`);

export function extractFollowUp(doc: Doc): ClinicalFacts['follow_up'] {
  for (const s of [...doc.sentences].reverse()) {
    if (s.speaker === 'patient' || /^if\b/.test(s.text)) continue;
    const m = AFTER.exec(s.text);
    let after: Duration | undefined;
    let rest = '';
    if (m) {
      after = { value: /^\d/.test(m[1]!) ? Number(m[1]) : 1, unit: m[2] as Duration['unit'] };
      rest = m[3] ?? '';
    } else {
      const t = TOMORROW.exec(s.text);
      if (!t) continue;
      after = t[1] === 'tomorrow' ? { value: 1, unit: 'day' } : { value: 1, unit: t[1] === 'next week' ? 'week' : 'month' };
      rest = t[2] ?? '';
    }
    const notes = rest.replace(/^\s*(?:with|and)\s+/, (x) => x.trimStart()).trim();
    return notes ? { after, notes } : { after };
  }
  return undefined;
}
