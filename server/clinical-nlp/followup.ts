/**
 * Follow-up: the return visit stated at this one. "review after 3 days", "follow up in a month", "show me after two
 * weeks", "see him back in 1 week", "rechecking in three weeks", "return in 4, 5 days" (a range takes its upper
 * bound), "in a fortnight", "in two weeks' time", "an appointment for a month from now", "I will see her yearly", and a
 * face-to-face assessment arranged for today (0 days).
 * The last one said wins (a plan restates it at the end). Not follow-ups: conditional returns ("if it is not better
 * in a week, come back", "come back in a week if no better"), returns counted only from something else ("a week after
 * the tests", "after the sleep study": no return verb with a count), calls, referrals and returns to another clinician
 * ("follow up with her PCP in a week") and A&E, which are advice.
 */
import type { ClinicalFacts, Duration } from './facts.js';
import type { Doc, Sentence } from './sections.js';

const VERB = String.raw`(?:review(?:ed|ing)?|follow(?:ing)?[ -]?up|come back|coming back|come again|come|revisit|recheck(?:ing|ed)?|re check|return(?:ing)?|(?:see|seeing) (?:me|you|him|her|them)|show (?:me|him|her|it|them|the)|bring (?:him|her|them|the)|report back|visit again|next visit|appointment|check ?up|catch(?:ing)? up|touch base|rtc|f/u|back)`;
const NUMBER = String.raw`\d+(?:\.\d+)?`;
// "3", "a", "a couple of", and ranges said as "4, 5", "3 to 5", "2 or 3": the upper bound counts.
const COUNT = String.raw`((?:${NUMBER}\s*(?:,|to|or|-)?\s*)?${NUMBER}|a|an|one|a couple of|couple of)`;
const AFTER = new RegExp(
  String.raw`\b${VERB}\b[a-z ]{0,30}?\b(?:after|in|within|every|for(?=\s+[a-z0-9 ]{1,30}(?:['’]s?\s+time|\s+from now)\b))\s+(?:(?:about|another|the next|around|approximately)\s+)?${COUNT}\s*(day|week|month|year|hour|fortnight)s?\b(?:['’]s?\s+time\b|\s+from now\b)?([^,;]*)`,
);
// A report's shorthand, the time straight after the verb: "RTC 3 months", "F/U 2 weeks", "follow-up 6 weeks".
const SHORTHAND = new RegExp(
  String.raw`\b(?:rtc|f\s?/?\s?u|follow[ -]?up|return to clinic)\s*:?\s*(?:(?:about|approximately|in)\s+)?((?:${NUMBER}\s*(?:,|to|or|-)?\s*)?${NUMBER})\s*(day|week|month|year|fortnight)s?\b(?!\s+(?:ago|back|before|prior|after|from)\b)([^,;]*)`,
);
const NAMED = new RegExp(
  String.raw`\b${VERB}\b[a-z ]{0,30}?\b(the day after tomorrow|day after tomorrow|tomorrow|next week|next month|yearly|annually|every year|once a year|in a year|in a year's time)\b([^,;]*)`,
);
const NAMED_DURATION: Record<string, Duration> = {
  'the day after tomorrow': { value: 2, unit: 'day' },
  'day after tomorrow': { value: 2, unit: 'day' },
  tomorrow: { value: 1, unit: 'day' },
  'next week': { value: 1, unit: 'week' },
  'next month': { value: 1, unit: 'month' },
  yearly: { value: 1, unit: 'year' },
  annually: { value: 1, unit: 'year' },
  'every year': { value: 1, unit: 'year' },
  'once a year': { value: 1, unit: 'year' },
  'in a year': { value: 1, unit: 'year' },
  "in a year's time": { value: 1, unit: 'year' },
};
// A return that depends on how things go, said just before it ("and if it's still not better, come back"). A recogniser's
// sentence runs on without punctuation, so the condition is looked for in the few words before, back to a word that
// starts a new thought; "if you have any questions" is a courtesy, not a condition.
const CONDITION_BEFORE = /\b(?:if|unless|in case)\b(?! you (?:do(?:n't| not) )?have any (?:other |more |further )?questions)/;
const NEW_THOUGHT = /^(?:meantime|meanwhile|otherwise|also|but|so|okay|ok|alright|anyway|now)$/;
const CONDITION_REACH = 8;
const OPENS_CONDITION = /^(?:and|so|but|then|or|now|okay|ok|um|uh|just|also|meantime|otherwise)$/;
// Said right after the return: a condition ("come back in a week if not better").
const CONDITION_AFTER = /^\s*(?:if|unless|in case)\b/;
// Seen in person today, arranged from a remote consultation: "I would like you to be assessed in a clinic today".
const SEEN_TODAY = /\b(?:assess(?:ed)?|seen|see|examined|examine|appointment|book)\b.*\b(?:face[ -]to[ -]face|in person|in (?:a|the|(?:one|1) of (?:our|my|the)) clinics?)\b.*\btoday\b|\b(?:face[ -]to[ -]face|in person)\b.*\b(?:assess(?:ed)?|seen|examined|appointment)\b.*\btoday\b/;
const RECHECK_OF_A_THING = /^(?:recheck\w*|re check|review\w*)\s+(?!(?:me|you|him|her|them|back|after|in|within|every)\b)[a-z]/;
// A return to another clinician is a referral, which is advice: "follow up with her PCP in a week".
const OTHER_CLINICIAN =
  /\b(?:with|to) (?:her |his |your |their |the |a |an )?(?:pcp|gp|primary care|family doctor|own doctor|regular doctor|dr|cardiolog\w*|neurolog\w*|dermatolog\w*|specialist|surgeon|ent|orthopa?edic\w*|urolog\w*|gyn\w*|obstetric\w*|psychiatr\w*|oncolog\w*|gastro\w*|physio\w*|nurse|midwife|optician|dentist)\b/;
// Another clinician seeing the patient is a referral too: "the physio will see you in 3 days".
const OTHER_SEES = /\b(?:physio\w*|nurse|midwife|specialist|consultant|surgeon|cardiologist|neurologist|dermatologist|team|hospital|they)\s+(?:will|'ll|is going to|are going to|gonna|should|can|may|might|would)\s+(?:\w+\s+)?$/;
// A booking in person made in answer to "I can come in today": the visit is today.
const BOOKED = /\bbook (?:you|him|her|them) in\b|\b(?:face[ -]to[ -]face|in person) (?:appointment|review|assessment)\b/;
const ARRANGED = /\b(?:would like|want|need|book|arrange|make sure|should|will need|i'll ask|going to|gonna)\b/;

function duration(count: string, unit: string): Duration {
  const upper = count.split(/\s*(?:,|to|or|-|\s)\s*/).pop() ?? count;
  const n = /^\d/.test(upper) ? Number(upper) : /couple/.test(upper) ? 2 : 1;
  if (unit === 'fortnight') return { value: 2 * n, unit: 'week' };
  // A note counts follow-up in days: "48 hours" is 2 days.
  if (unit === 'hour') return { value: Math.max(1, Math.round(n / 24)), unit: 'day' };
  return { value: n, unit: unit as Duration['unit'] };
}

function conditionBefore(text: string): boolean {
  const all = text.split(/\s+/).filter(Boolean);
  const start = Math.max(0, all.length - CONDITION_REACH);
  let from = start;
  for (let i = start; i < all.length; i++) if (NEW_THOUGHT.test(all[i]!.replace(/[,.;:]+$/, '')) || /[.;]$/.test(all[i]!)) from = i + 1;
  const m = CONDITION_BEFORE.exec(all.slice(from).join(' '));
  if (!m) return false;
  // The condition governs what follows it when it opens its clause ("and if it's no better, come back"); after words
  // of its own main clause it belongs to them ("go to A&E if it gets worse recheck in a week").
  const at = from + all.slice(from).join(' ').slice(0, m.index).split(/\s+/).filter(Boolean).length;
  const word = (all[at - 1] ?? '').toLowerCase();
  return at === 0 || /[,.;:]$/.test(word) || OPENS_CONDITION.test(word);
}

/**
 * The words said before the return: its own sentence's, and where the sentence opens with it, the last clause of the
 * one before in the same turn (a sentence may be cut right before "come back": "and if it's no better / come back").
 */
function saidBefore(s: Sentence, previous: Sentence | undefined, at: number): string {
  const own = s.text.slice(0, at);
  if (own.trim() || !previous || previous.turn !== s.turn) return own;
  // Cut by the sentence splitter, not by the speaker's full stop: nothing but a space between the two in the transcript.
  const end = previous.span(previous.text.length, previous.text.length).end;
  if (s.span(0, 0).start - end > 1) return own;
  return previous.text.split(',').pop() ?? '';
}

/** The turn said just before this sentence's turn (the other speaker's answer or question). */
function turnBefore(doc: Doc, s: Sentence): Sentence[] {
  return doc.sentences.filter((x) => x.turn === s.turn - 1);
}

const findReturn = (text: string): RegExpExecArray | null => AFTER.exec(text) ?? SHORTHAND.exec(text) ?? NAMED.exec(text);
// What is said after the return's time (NAMED has no count group).
const restOf = (m: RegExpExecArray): string => (m.length === 3 ? m[2] : m[3]) ?? '';

function stated(doc: Doc, s: Sentence, previous: Sentence | undefined): ClinicalFacts['follow_up'] {
  const today = { after: { value: 0, unit: 'day' as const }, evidence: s.span(0, s.text.length) };
  if (SEEN_TODAY.test(s.text) && ARRANGED.test(s.text)) return today;
  if (doc.consultation && BOOKED.test(s.text) && turnBefore(doc, s).some((x) => /\btoday\b/.test(x.text))) return today;
  const first = findReturn(s.text);
  if (!first) return undefined;
  // "Recheck labs in 6 weeks and follow up in 3 months": a recheck of something, followed by a return in the same
  // sentence, is that thing's time, not the visit's.
  const from = first.index + first[0].length - restOf(first).length;
  const later = RECHECK_OF_A_THING.test(first[0]) ? findReturn(s.text.slice(from)) : null;
  if (later) later.index += from;
  const m = later ?? first;
  const named = m.length === 3;
  const rest = restOf(m);
  if (conditionBefore(saidBefore(s, previous, m.index)) || CONDITION_AFTER.test(rest) || OTHER_CLINICIAN.test(m[0]) || OTHER_CLINICIAN.test(rest.slice(0, 40)) || OTHER_SEES.test(s.text.slice(Math.max(0, m.index - 40), m.index))) return undefined;
  let after = named ? NAMED_DURATION[m[1]!]! : duration(m[1]!, m[2]!);
  // "in a week or two": the upper bound.
  const or = /^\s*or (\d+)\b/.exec(rest);
  if (or && Number(or[1]) > after.value) after = { ...after, value: Number(or[1]) };
  const notes = rest.replace(/^\s*(?:with|and)\s+/, (x) => x.trimStart()).trim();
  const evidence = s.span(m.index, m.index + m[0].length - rest.length);
  return notes ? { after, notes, evidence } : { after, evidence };
}

export function extractFollowUp(doc: Doc): ClinicalFacts['follow_up'] {
  for (const s of [...doc.sentences].reverse()) {
    // In a dictation a "Patient:" line is a heading, not the patient speaking.
    if (s.speaker === 'patient' && doc.consultation) continue;
    const found = stated(doc, s, doc.sentences[s.index - 1]);
    if (found) return found;
  }
  return undefined;
}
