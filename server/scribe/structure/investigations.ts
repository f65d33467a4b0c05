/**
 * Investigations ordered or done at this visit, by full name ("c b c" → complete blood count). Earlier results
 * ("reports show HbA1c 7.9", "last echo showed"), readings ("fasting sugar 146") and conditional future tests
 * ("if not better, we will do ...") are not orders.
 */
import { INVESTIGATIONS } from '../vocab/investigations.js';
import type { Investigation } from './facts.js';
import { BODY_PART, PhraseIndex, type Match } from './lexicon.js';
import { isNegated } from './negation.js';
import type { Doc, Sentence } from './sections.js';

export const INVESTIGATION_INDEX = new PhraseIndex<{ name: string; loinc?: string }>();
for (const i of INVESTIGATIONS) {
  const payload = { name: i.name, loinc: i.loinc };
  INVESTIGATION_INDEX.add(i.name, payload);
  for (const a of i.aliases) INVESTIGATION_INDEX.add(a, payload);
}

// Imaging is named by what it looks at: "x-ray" + "right foot lateral view".
const IMAGING = new Set(['x-ray', 'chest x-ray', 'ultrasound', 'ct scan', 'mri', 'arterial doppler', 'biopsy', 'fnac']);
const SITE = new Set([
  ...BODY_PART,
  ...('cervical lumbar lumbosacral thoracic dorsal spine ls kub pns skull whole lower upper ap pa lateral view views ' +
    'oblique right left both bilateral pelvic region neck thyroid soft tissue').split(' '),
]);
const PAST = /\b(?:reports?|showed|shows|show|came with|last|previous|previously|old|earlier|was|were|brought)\b/;
const THIS_VISIT = /\b(?:today|now|done|in the office|in clinic|here)\b/;
const RESULT_VALUE = /^\s*(?:(?:is|was|of|level|value|at)\s+)?\d+(?:\.\d+)?(?!\s*(?:day|week|month|year|hour)s?\b)/;

function isOrder(s: Sentence, m: Match<unknown>): boolean {
  const before = s.text.slice(0, m.start);
  const after = s.text.slice(m.end);
  if (/^if\b/.test(s.text) || /\bif\b[^,]*$/.test(before) || /\b(?:we will|will|may|might)\s+(?:do|consider|plan)\b[^,]*$/.test(before)) return false;
  if (RESULT_VALUE.test(after)) return false;
  if (PAST.test(before) && !THIS_VISIT.test(s.text)) return false;
  if (/\bmonitor(?:ing)?\s+(?:of\s+)?$/.test(before)) return false;
  return !isNegated(s.text, m.start);
}

export function findInvestigationMatches(s: Sentence): Match<{ name: string; loinc?: string }>[] {
  return INVESTIGATION_INDEX.findAll(s.tokens);
}

export function extractInvestigations(doc: Doc, matchesOf: (s: Sentence) => Match<{ name: string; loinc?: string }>[]): Investigation[] {
  const out: Investigation[] = [];
  for (const s of doc.sentences) {
    if (s.speaker === 'patient') continue;
    for (const m of matchesOf(s)) {
      if (!isOrder(s, m)) continue;
      let name = m.payload.name;
      if (IMAGING.has(name)) {
        const site: string[] = [];
        for (let i = m.to; i < s.tokens.length; i++) {
          const w = s.tokens[i]!.text;
          if (SITE.has(w)) site.push(w);
          else if (w === 'and' && SITE.has(s.tokens[i + 1]?.text ?? '')) site.push(w);
          else if (w !== 'of' && w !== 'the') break;
        }
        if (site.length) name = `${name} ${site.join(' ')}`;
      }
      if (!out.some((x) => x.name === name)) out.push(m.payload.loinc ? { name, loinc: m.payload.loinc } : { name });
    }
  }
  return out;
}
