/**
 * Transcript text → clinical facts. Rules and vocabularies only (no model, no network); indexes and patterns are
 * built once at module load so one transcript takes a few milliseconds.
 */
import { extractComplaints } from './complaints.js';
import { extractDiagnoses, extractFamilyHistory, extractPastHistory, findAllergies } from './diagnoses.js';
import { extractAdvice } from './advice.js';
import type { ClinicalFacts, ConditionalMedication, Span } from './facts.js';
import { extractFollowUp } from './followup.js';
import { extractInvestigations, findInvestigationMatches } from './investigations.js';
import { sentenceModifiers } from './context.js';
import { normalizeText, type Match } from './lexicon.js';
import { DRUG_INDEX, extractMedications } from './medications.js';
import { grounded } from './grounding.js';
import { checkSafety } from './safety.js';
import { buildDoc, historySentences, type Sentence } from './sections.js';
import { extractVitals } from './vitals.js';

const FORM_BEFORE = /\b(?:tab|cap|syp|syrup|inj|injection)\s+$/;
// "continue estradiol", "supplement with folate", "stop calcium": a name that is also a test's is the drug where a cue
// that prescribes, continues or stops a drug ends just before it.
const CUE_GAP = /^\s*(?:(?:her|his|their|your|the|oral|topical|daily|some)\s+)*$/;
const cuedDrug = (s: Sentence, start: number): boolean =>
  sentenceModifiers(s).some(
    (x) => (x.category === 'NEW' || x.category === 'CONTINUED' || x.category === 'STOPPED') && x.rule.direction !== 'backward' && x.rule.allowed_types?.includes('drug') && x.end <= start && CUE_GAP.test(s.text.slice(x.end, start)),
  );
const PLAN_WORDS = /\b(?:review|follow[ -]?up|come back|recheck|advised)\b/;
const VITAL_CLAUSE = /\b(?:bp|blood pressure|pulse|heart rate|temperature|temp|spo2|oxygen saturation|saturation|respiratory rate|weight|height|sugar|glucose)\b[^,]*\d/;
const AGE = /\b(\d{1,3})\s*(years?|yrs?|months?)\s*old\b/;
const FAMILY_SENTENCE = /\b(?:father|mother|brother|sister|uncle|aunt|grandfather|grandmother|sibling|son|daughter)\b[^,]*\b(?:has|had|is|was)\b|\bfamily history\b/;

let investigationCache = new WeakMap<Sentence, Match<{ name: string; loinc?: string }>[]>();
let drugCache = new WeakMap<Sentence, readonly Match<unknown>[]>();

/** The drug names of a sentence, found once per transcript (three readers ask for them). */
function drugMatches(s: Sentence): readonly Match<unknown>[] {
  let ms = drugCache.get(s);
  if (!ms) {
    ms = DRUG_INDEX.findAll(s.tokens);
    drugCache.set(s, ms);
  }
  return ms;
}

function investigationMatches(s: Sentence): Match<{ name: string; loinc?: string }>[] {
  let ms = investigationCache.get(s);
  if (!ms) {
    // A longer drug name wins the words ("sodium valproate" is a drug, not a sodium level), and one as long where a cue
    // prescribes it ("continue estradiol").
    const drugs = drugMatches(s);
    ms = findInvestigationMatches(s).filter(
      (m) => !drugs.some((d) => d.start < m.end && d.end > m.start && (d.to - d.from > m.to - m.from || (d.to - d.from === m.to - m.from && cuedDrug(s, d.start)))),
    );
    investigationCache.set(s, ms);
  }
  return ms;
}

export interface StructureOptions {
  locale: string;
  /** Allergies in the patient's record: a prescribed drug that conflicts with one is flagged like a note's allergy. */
  patientAllergies?: string[];
  /** dictation or consultation, as the request said; an unlabelled consultation is then read turn by turn. */
  mode?: string;
}

/** The facts as said, before the safety checks. */
export function extractFacts(text: string, opts: StructureOptions): ClinicalFacts {
  investigationCache = new WeakMap();
  drugCache = new WeakMap();
  const doc = buildDoc(text, { mode: opts.mode });
  const firstMed = new Map<number, number>();
  const conditional: ConditionalMedication[] = [];
  const medications = extractMedications(
    doc,
    opts.locale,
    (s) => {
      const inv = investigationMatches(s);
      // A test name at least as long wins the words, unless they read as a prescription ("tab vitamin d 60000").
      return (start, end, len) => {
        // Read only when a test name of the same length overlaps (most sentences name no test).
        const prescribed = (): boolean =>
          FORM_BEFORE.test(s.text.slice(Math.max(0, start - 12), start)) || /^\s*\d/.test(s.text.slice(end)) || cuedDrug(s, start);
        return inv.some((m) => m.start < end && m.end > start && (m.to - m.from > len || (m.to - m.from === len && !prescribed())));
      };
    },
    firstMed,
    conditional,
  );
  const investigations = extractInvestigations(doc, investigationMatches);
  const ordered = new Set(doc.sentences.filter((s) => investigationMatches(s).length).map((s) => s.index));
  // The story told before the findings, without the prescriptions a dictation may start with.
  const history = historySentences(doc).filter((s) => !firstMed.has(s.index) && !ordered.has(s.index) && !PLAN_WORDS.test(s.text));
  // The findings: under an examination heading when the note has one, else between the story and the plan. A
  // sentence naming a drug is a prescription or history said there, never a finding (it would reach the signed note).
  const examHeaded = doc.sentences.some((s) => s.section === 'exam');
  const exam = doc.consultation
    ? []
    : doc.sentences
        .filter((s) => (examHeaded ? s.section === 'exam' : s.index >= doc.findingsStart && s.index < doc.planStart))
        .filter((s) => !FAMILY_SENTENCE.test(s.text) && !drugMatches(s).length)
        .flatMap((s) => s.text.replace(/^[a-z /]{2,40}:\s*/, '').split(/\s*[,;]\s*/))
        .filter((c) => c.split(' ').length >= 2 && !VITAL_CLAUSE.test(c));
  const follow = extractFollowUp(doc);
  const vitals = extractVitals(doc, opts.locale);
  const complaints = extractComplaints(doc);
  const diagnoses = extractDiagnoses(doc);
  // Advice is what is left of the plan once every other fact has taken its words. A prescription's line is the
  // drug's, except an instruction clause in it that none of the drug's own attributes were read from ("…, keep a
  // gap of ten minutes between the two drops").
  const used: Span[] = [
    ...investigations.flatMap((i) => (i.evidence ? [i.evidence] : [])),
    ...diagnoses.flatMap((d) => (d.evidence ? [d.evidence] : [])),
    ...Object.values(vitals.evidence),
    ...(follow?.evidence ? [follow.evidence] : []),
    // Tests named anywhere, ordered or not ("no CT needed"). A drug named in passing may stay in advice ("good
    // genital hygiene while on empagliflozin"); its prescription took its own words above.
    ...doc.sentences.flatMap((s) => investigationMatches(s).map((m) => s.span(m.start, m.end))),
  ];
  const prescribed = {
    lines: [
      ...medications.flatMap((m) => (m.evidence ? [m.evidence] : [])),
      ...[...firstMed].map(([i, at]) => doc.sentences[i]!.span(at, doc.sentences[i]!.text.length)),
    ],
    attributes: medications.flatMap((m) => Object.entries(m.field_evidence ?? {}).flatMap(([k, span]) => (k === 'instructions' || !span ? [] : [span]))),
  };
  const advice = extractAdvice(doc, used, prescribed, drugMatches);
  const allergies = findAllergies(doc);
  const facts: ClinicalFacts = {
    locale: opts.locale,
    complaints,
    history: {
      ...(history.length ? { present_illness: history.map((s) => s.text).join('. ') } : {}),
      past: extractPastHistory(doc),
      family: extractFamilyHistory(doc),
      allergies: allergies.map((a) => a.name),
    },
    vitals: vitals.vitals,
    examination: exam,
    diagnoses,
    medications,
    investigations,
    advice: advice.advice,
    ...(follow ? { follow_up: follow } : {}),
    evidence: { vitals: vitals.evidence, advice: advice.evidence, allergies: allergies.map((a) => a.sentence.span(a.from, a.to)) },
    ...(conditional.length ? { conditional_medications: conditional } : {}),
    // A unit the recording did not say, or a number read past what it said, is shown, never silently (the rest of the
    // flags are safety.ts's).
    flags: [
      ...Object.entries(vitals.assumed).map(([key, why]) => ({ code: 'VITAL_UNIT' as const, pointer: `/vitals/${key}`, message: `Unit not said: ${why}. Check it.` })),
      ...Object.entries(vitals.unheard).map(([key, how]) => ({ code: 'LOW_CONFIDENCE' as const, pointer: `/vitals/${key}`, message: `The ${how}. Check it.` })),
    ],
  };
  return facts;
}

/** The facts with their safety flags; a strength corrected only where the correction is unambiguous (safety.ts). */
export function structure(text: string, opts: StructureOptions): ClinicalFacts {
  const facts = grounded(extractFacts(text, opts), text);
  const age = AGE.exec(normalizeText(text.slice(0, 200)));
  const safety = checkSafety(facts, {
    patientAllergies: opts.patientAllergies,
    weightKg: facts.vitals.weight_kg,
    ageYears: age ? Number(age[1]) / (age[2]!.startsWith('month') ? 12 : 1) : undefined,
  });
  return { ...facts, medications: safety.medications, flags: [...facts.flags, ...safety.flags] };
}
