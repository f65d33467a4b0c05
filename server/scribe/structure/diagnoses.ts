/**
 * Diagnoses with certainty, and the history around them (past illnesses, family history, allergies).
 * A diagnosis is what follows a cue ("diagnosis", "impression", "assessment:", "this is"); "rule out", "likely" and
 * "may have" make what follows suspected. Family members' illnesses go to history.family, never to diagnoses.
 */
import type { IcdEntry } from '../vocab/icd10.js';
import { icdRef, isUnspecified, matchIcd, type IcdMatch } from './codify.js';
import type { Diagnosis } from './facts.js';
import { BODY_PART, RELATIVE } from './lexicon.js';
import { isNegated } from './negation.js';
import type { Doc, Sentence } from './sections.js';

const CUE =
  /\b(?:(?:provisional|final|working|differential|clinical)\s+)?(?:diagnosis|diagnoses|dx)\b(?:\s+(?:is|of|as))?|\bdiagnosed\s+(?:as|with)\b|\bimpression\b|\bassessment\b|\bthis is\b|\bthis looks like\b|\bthis seems like\b|\bsuggestive of\b|\bconsistent with\b|\blooks like\b|\bsuffering from\b/;
const SUSPECT_WORDS =
  String.raw`rule out|r\/o|ruling out|suspected|suspect|suspicious of|likely|probably|probable|possibly|possible|may (?:also )?have|might (?:also )?have|could (?:also )?be|query|differential`;
const SUSPECT = new RegExp(String.raw`\b(?:${SUSPECT_WORDS})\b\s*|\?\s*`);
const SUSPECT_START = new RegExp(String.raw`(?:^|\s)(?:${SUSPECT_WORDS})\b`);
const SPLIT = /\s*(?:,|;|\band\b|\balong with\b|\bplus\b|\bwith associated\b)\s*/;
const LEAD = /^(?:(?:a|an|the|of|is|as|that|it|also|known|case|k\/c\/o|acute on|left sided|right sided)\s+)+/;
const DISEASE_LIKE =
  /(?:itis|osis|emia|aemia|pathy|algia|oma)\b|\b(?:disease|syndrome|disorder|infection|infestation|fever|injury|fracture|deficiency|cancer|tumou?r|carcinoma|ulcer|cyst|hernia|palsy|failure|insufficiency|stenosis|sprain|strain|allergy|poisoning|dependence|abuse|bite|burn|illness|reflux|dehydration|diabetes|hypertension|asthma|infarction)\b/;
const QUALIFIER_WORD = /^(?:left|right|bilateral|both|side|sided|mild|moderate|severe|acute|chronic|recurrent|[a-z]\d{1,2}|level|dermatome|region|upper|lower)$/;
const STATUS = /^(?:post|status post|s\/p|after)\s+/;
const FAMILY_RELATION = new RegExp(RELATIVE);

interface Found {
  name: string;
  certainty: Diagnosis['certainty'];
  entry?: IcdEntry;
}

function clean(seg: string): string {
  return seg
    .replace(SUSPECT, ' ')
    .replace(/\b(?:for|since)\s+(?:the\s+)?(?:last\s+)?\d+\s*(?:day|week|month|year)s?\b.*$/, '')
    .replace(/\b(?:we will|will|to be|needs?|need to|which|that is|on (?:tab|treatment|medication)).*$/, '')
    .replace(/^[\s:,-]+/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(LEAD, '')
    .trim();
}

function code(phrase: string): IcdMatch | undefined {
  return matchIcd(phrase);
}

/** One segment → one or more diagnoses; "A with B" stays one when a single code covers both (diabetes with nephropathy). */
function codeSegment(seg: string): { name: string; match?: IcdMatch }[] {
  const whole = code(seg);
  const w = seg.indexOf(' with ');
  if (w < 0 || (whole && whole.coverage >= 0.9)) return [{ name: seg, match: whole }];
  const head = seg.slice(0, w).trim();
  const tail = seg.slice(w + 6).trim();
  const headMatch = code(head);
  // "type 2 diabetes with peripheral neuropathy": ICD-10 codes the complication under the diabetes (E11.4), and
  // the code list names those entries "diabetic …". One diagnosis when that code is in the head's own category.
  const category = headMatch?.entry.code.slice(0, 3);
  if (category && /^E1[0-4]$/.test(category)) {
    const combined = code(`diabetic ${tail.replace(/^diabetic\s+/, '')}`);
    if (combined && combined.entry.code.startsWith(category) && combined.entry.code !== headMatch!.entry.code) return [{ name: seg, match: combined }];
  }
  // "alcohol dependence with uncomplicated withdrawal": the tail often leaves out the head's first word.
  const tailAlone = code(tail);
  const tailWithContext = code(`${head.split(' ')[0]} ${tail}`);
  const tailMatch = (tailWithContext?.score ?? 0) > (tailAlone?.score ?? 0) ? tailWithContext : tailAlone;
  if (!tailMatch && !DISEASE_LIKE.test(tail)) return [{ name: seg, match: whole ?? headMatch }];
  return [
    { name: head, match: headMatch },
    { name: tail, match: tailMatch },
  ];
}

function isQualifier(seg: string): boolean {
  const ws = seg.split(' ');
  return ws.every((x) => QUALIFIER_WORD.test(x) || BODY_PART.has(x) || x === 'ear' || x === 'eye');
}

function diagnosesIn(s: Sentence, from: number): Found[] {
  const out: Found[] = [];
  const text = s.text.slice(from);
  let suspected = false;
  let offset = from;
  for (const raw of text.split(SPLIT)) {
    const at = s.text.indexOf(raw, offset);
    offset = at >= 0 ? at + raw.length : offset;
    if (SUSPECT_START.test(` ${raw}`)) suspected = true;
    const seg = clean(raw);
    if (!seg || (at >= 0 && isNegated(s.text, at + Math.max(0, raw.indexOf(seg))))) continue;
    const prev = out[out.length - 1];
    if (prev && (STATUS.test(seg) || isQualifier(seg))) {
      prev.name += `, ${seg}`;
      continue;
    }
    for (const { name, match } of codeSegment(seg)) {
      if (!match && !DISEASE_LIKE.test(name)) continue;
      out.push({ name, certainty: suspected ? 'suspected' : 'confirmed', entry: match?.entry });
    }
  }
  return out;
}

const KNOWN = /\b(?:known|k\/c\/o|known case of)\s+((?:case of\s+)?[a-z0-9 ]+?)(?=\s+(?:on|for|since|with|and|who|came|presents?|presented)\b|[,;]|$)/g;

function addFound(list: Found[], f: Found): void {
  if (f.entry) {
    const same = list.find((d) => d.entry?.code === f.entry!.code);
    if (same) return;
    const sibling = list.find((d) => d.entry && d.certainty === f.certainty && d.entry.code.slice(0, 3) === f.entry!.code.slice(0, 3));
    if (sibling && (isUnspecified(f.entry) || isUnspecified(sibling.entry!))) {
      // A restatement ("vaginal yeast infection, candidiasis"): keep the more specific code.
      if (isUnspecified(sibling.entry!) && !isUnspecified(f.entry)) {
        sibling.entry = f.entry;
        sibling.name = f.name;
      }
      return;
    }
  } else if (list.some((d) => d.name === f.name)) return;
  list.push(f);
}

export function extractDiagnoses(doc: Doc): Diagnosis[] {
  const found: Found[] = [];
  for (const s of doc.sentences) {
    if (s.speaker === 'patient' || FAMILY_RELATION.test(s.text.slice(0, 40)) && /\b(?:has|had|is|was)\b/.test(s.text)) continue;
    const cue = CUE.exec(s.text);
    const suspectOnly = !cue && s.index >= doc.planStart - 1 ? SUSPECT_START.exec(s.text) : null;
    if (cue) for (const f of diagnosesIn(s, cue.index + cue[0].length)) addFound(found, f);
    else if (suspectOnly && /\b(?:may|might|rule out|r\/o|suspect)/.test(suspectOnly[0])) {
      for (const f of diagnosesIn(s, suspectOnly.index)) addFound(found, { ...f, certainty: 'suspected' });
    }
  }
  // "known type 2 diabetic on tab ...": a standing diagnosis that the plan continues.
  for (const s of doc.sentences) {
    if (FAMILY_RELATION.test(s.text)) continue;
    KNOWN.lastIndex = 0;
    for (let m = KNOWN.exec(s.text); m; m = KNOWN.exec(s.text)) {
      const name = m[1]!.replace(/^case of\s+/, '').trim();
      const match = matchIcd(name);
      if (match && match.score >= 0.8) addFound(found, { name, certainty: 'confirmed', entry: match.entry });
    }
  }
  return found.map((f) => ({ name: f.name, certainty: f.certainty, ...(f.entry ? { icd10: icdRef(f.entry) } : {}) }));
}

const FAMILY = new RegExp(String.raw`${RELATIVE}(?:'s)?\s+(?:also\s+)?(?:has|had|is|was|suffers from|suffered from|died of|with|h\/o)\s+(?:also\s+)?(?:a\s+|an\s+)?([^,;]+)`, 'g');
const FAMILY_HISTORY = /\bfamily history of\s+([^,;]+)/g;

export function extractFamilyHistory(doc: Doc): string[] {
  const out: string[] = [];
  for (const s of doc.sentences) {
    FAMILY.lastIndex = 0;
    for (let m = FAMILY.exec(s.text); m; m = FAMILY.exec(s.text)) {
      const what = m[2]!.trim();
      if (/^(?:says|said|told|noticed)\b/.test(what)) continue;
      out.push(`${m[1]}: ${what}`);
    }
    FAMILY_HISTORY.lastIndex = 0;
    for (let m = FAMILY_HISTORY.exec(s.text); m; m = FAMILY_HISTORY.exec(s.text)) out.push(m[1]!.trim());
  }
  return out;
}

const PAST = /\b(?:known(?: case of)?|k\/c\/o|h\/o|history of|past history of)\s+([^,;]+)|\b((?:type \d )?(?:diabetic|hypertensive|asthmatic|epileptic|hypothyroid)\s+(?:for|since)\s+(?:the\s+)?(?:last\s+)?\d+\s+(?:year|month)s?)\b/g;

export function extractPastHistory(doc: Doc): string[] {
  const out: string[] = [];
  for (const s of doc.sentences.slice(0, doc.planStart)) {
    if (FAMILY_RELATION.test(s.text)) continue;
    PAST.lastIndex = 0;
    for (let m = PAST.exec(s.text); m; m = PAST.exec(s.text)) {
      const item = (m[1] ?? m[2] ?? '').trim();
      if (item && !isNegated(s.text, m.index)) out.push(item);
    }
  }
  return out;
}

const ALLERGY = /\ballerg(?:ic|y|ies)\s+(?:to|with)\s+([^,;?]+)|\b([a-z]+)\s+allergy\b/g;
const NO_ALLERGY = /\b(?:no|nil|not|nkda|denies)\b/;

export function extractAllergies(doc: Doc): string[] {
  const out: string[] = [];
  for (const s of doc.sentences) {
    if (s.text.endsWith('?')) {
      const answer = doc.sentences[s.index + 1];
      if (/\ballerg/.test(s.text) && answer && answer.speaker !== s.speaker && !NO_ALLERGY.test(answer.text) && answer.tokens.length <= 6) {
        out.push(answer.text.replace(/^(?:yes|yeah)\s*,?\s*(?:to\s+)?/, '').trim());
      }
      continue;
    }
    ALLERGY.lastIndex = 0;
    for (let m = ALLERGY.exec(s.text); m; m = ALLERGY.exec(s.text)) {
      const what = (m[1] ?? m[2] ?? '').trim();
      if (!what || /^(?:drug|known|food|any|no)$/.test(what) || isNegated(s.text, m.index + 1)) continue;
      out.push(what);
    }
  }
  return [...new Set(out)];
}
