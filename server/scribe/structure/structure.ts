/**
 * Transcript text → clinical facts. Rules and vocabularies only (no model, no network); indexes and patterns are
 * built once at module load so one transcript takes a few milliseconds.
 */
import { extractComplaints } from './complaints.js';
import { extractAllergies, extractDiagnoses, extractFamilyHistory, extractPastHistory } from './diagnoses.js';
import type { ClinicalFacts } from './facts.js';
import { extractFollowUp } from './followup.js';
import { extractInvestigations, findInvestigationMatches } from './investigations.js';
import type { Match } from './lexicon.js';
import { DRUG_INDEX, extractMedications } from './medications.js';
import { buildDoc, DIAGNOSIS_CUE, historySentences, type Doc, type Sentence } from './sections.js';
import { extractVitals } from './vitals.js';

const VITAL_CLAUSE = /\b(?:bp|blood pressure|pulse|heart rate|temperature|temp|spo2|oxygen saturation|saturation|respiratory rate|weight|height|sugar|glucose)\b[^,]*\d/;
const FORM_BEFORE = /\b(?:tab|cap|syp|syrup|inj|injection)\s+$/;
const PLAN_WORDS = /\b(?:review|follow[ -]?up|come back|recheck|advised)\b/;
const FAMILY_SENTENCE = /\b(?:father|mother|brother|sister|uncle|aunt|grandfather|grandmother|sibling|son|daughter)\b[^,]*\b(?:has|had|is|was)\b|\bfamily history\b/;
const NOT_ADVICE =
  /\b(?:diagnosis|impression|assessment|this is|review|follow[ -]?up|come back|recheck|investigations?|imaging|tests? (?:needed|required)|reports?)\b|^(?:plan|advice|advised|rx)\s*:?\s*$/;

function advice(doc: Doc, firstMed: Map<number, number>, ordered: Set<number>): string[] {
  const out: string[] = [];
  for (const s of doc.sentences.slice(doc.planStart)) {
    if (s.speaker === 'patient' || s.text.endsWith('?') || DIAGNOSIS_CUE.test(s.text)) continue;
    const medAt = firstMed.get(s.index) ?? Infinity;
    let offset = 0;
    for (const raw of s.text.split(/\s*[,;]\s*/)) {
      const at = s.text.indexOf(raw, offset);
      offset = at + raw.length;
      if (at >= medAt || (ordered.has(s.index) && hasInvestigation(s, at, offset))) continue;
      const clause = raw.replace(/^(?:plan|advice|advised|and|also|rx)\s*:?\s*/g, '').trim();
      if (clause.split(' ').length < 2 || NOT_ADVICE.test(clause) || VITAL_CLAUSE.test(clause)) continue;
      if (/^(?:if\b.*\b(?:we will|will)\b|we will\b)/.test(clause)) continue;
      out.push(clause);
    }
  }
  return out;
}

let investigationCache = new WeakMap<Sentence, Match<{ name: string; loinc?: string }>[]>();

function investigationMatches(s: Sentence): Match<{ name: string; loinc?: string }>[] {
  let ms = investigationCache.get(s);
  if (!ms) {
    // A drug name at least as long wins the words ("sodium valproate" is a drug, not a sodium level).
    const drugs = DRUG_INDEX.findAll(s.tokens);
    ms = findInvestigationMatches(s).filter((m) => !drugs.some((d) => d.start < m.end && d.end > m.start && d.to - d.from > m.to - m.from));
    investigationCache.set(s, ms);
  }
  return ms;
}

function hasInvestigation(s: Sentence, from: number, to: number): boolean {
  return investigationMatches(s).some((m) => m.start >= from && m.end <= to);
}

export interface StructureOptions {
  locale: string;
  /** dictation or consultation, as the request said; an unlabelled consultation is then read turn by turn. */
  mode?: string;
}

export function structure(text: string, opts: StructureOptions): ClinicalFacts {
  investigationCache = new WeakMap();
  const doc = buildDoc(text, { mode: opts.mode });
  const firstMed = new Map<number, number>();
  const medications = extractMedications(
    doc,
    opts.locale,
    (s) => {
      const inv = investigationMatches(s);
      // A test name at least as long wins the words, unless they read as a prescription ("tab vitamin d 60000").
      return (start, end, len) => {
        const prescribed = FORM_BEFORE.test(s.text.slice(Math.max(0, start - 12), start)) || /^\s*\d/.test(s.text.slice(end));
        return inv.some((m) => m.start < end && m.end > start && (m.to - m.from > len || (m.to - m.from === len && !prescribed)));
      };
    },
    firstMed,
  );
  const investigations = extractInvestigations(doc, investigationMatches);
  const ordered = new Set(doc.sentences.filter((s) => investigationMatches(s).length).map((s) => s.index));
  // The story told before the findings, without the prescriptions a dictation may start with.
  const history = historySentences(doc).filter((s) => !firstMed.has(s.index) && !ordered.has(s.index) && !PLAN_WORDS.test(s.text));
  const exam = doc.consultation
    ? []
    : doc.sentences
        .slice(doc.findingsStart, doc.planStart)
        .filter((s) => !FAMILY_SENTENCE.test(s.text))
        .flatMap((s) => s.text.split(/\s*[,;]\s*/))
        .filter((c) => c.split(' ').length >= 2 && !VITAL_CLAUSE.test(c));
  const follow = extractFollowUp(doc);
  const vitals = extractVitals(doc);
  return {
    locale: opts.locale,
    complaints: extractComplaints(doc),
    history: {
      ...(history.length ? { present_illness: history.map((s) => s.text).join('. ') } : {}),
      past: extractPastHistory(doc),
      family: extractFamilyHistory(doc),
      allergies: extractAllergies(doc),
    },
    vitals: vitals.vitals,
    examination: exam,
    diagnoses: extractDiagnoses(doc),
    medications,
    investigations,
    advice: advice(doc, firstMed, ordered),
    ...(follow ? { follow_up: follow } : {}),
    evidence: { vitals: vitals.evidence, advice: [], allergies: [] },
    flags: [],
  };
}
