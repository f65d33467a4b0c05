/** What the structurer extracts from a transcript: the facts every template is rendered from. */

/**
 * Where a fact was said: character offsets [start, end) into the transcript text as the structurer received it,
 * and the seconds of the recording when the transcript came from audio.
 */
export interface Span {
  start: number;
  end: number;
  start_s?: number;
  end_s?: number;
}

/**
 * Codes of the safety flags, declared once: the notes' EMR schema (server/notes/schemas.ts) validates with this list.
 * Each one is also a string in data.output[].warnings.
 *   UNIT_NOT_SAID     the strength's unit was not said; the structurer took it from the drug's usual strengths.
 *   STRENGTH_MISSING  a new prescription of a drug that needs a strength (an antibiotic) has none.
 *   STATUS_UNCLEAR    what the doctor meant by the drug (prescribe, continue, history, stop) could not be told.
 *   VITAL_UNIT        a vital's unit was not said and was assumed by the note's conventions (a US weight in pounds).
 *   STRENGTH_CONFLICT the recording also gives the drug another strength (an old one, a list's): which is meant now?
 */
export const FLAG_CODES = [
  'DOSE_UNIT', 'DOSE_RANGE', 'DAILY_MAX', 'ALLERGY_CONFLICT', 'DUPLICATE_THERAPY', 'LOW_CONFIDENCE', 'FUZZY_MATCH',
  'UNRECOGNISED_DRUG', 'UNIT_NOT_SAID', 'STRENGTH_MISSING', 'STATUS_UNCLEAR', 'VITAL_UNIT', 'STRENGTH_CONFLICT',
] as const;
export type FlagCode = (typeof FLAG_CODES)[number];

export interface Flag {
  code: FlagCode;
  /** A plain sentence for the doctor. */
  message: string;
  /** JSON pointer into the service_emr_template JSON of the item it concerns: "/medications/2", "/medications/2/strength", "/vitals/bp". */
  pointer: string;
}

export type DurationUnit = 'day' | 'week' | 'month' | 'year';

export interface Duration {
  value: number;
  unit: DurationUnit;
}

export interface Complaint {
  name: string;
  /** Provenance: ids of the rules (context rules, cue lists, extractor rules) that produced or modified this fact. */
  rules?: string[];
  evidence?: Span;
  duration?: Duration;
  notes?: string;
}

export interface Vitals {
  bp?: { systolic: number; diastolic: number };
  pulse_bpm?: number;
  temperature?: { value: number; unit: 'F' | 'C' };
  spo2_percent?: number;
  respiratory_rate?: number;
  weight_kg?: number;
  height_cm?: number;
  blood_glucose_mg_dl?: number;
}

export interface CodeRef {
  system: 'ICD-10' | 'LOINC';
  code: string;
  display: string;
}

export interface Diagnosis {
  name: string;
  /** Provenance: ids of the rules (context rules, cue lists, extractor rules) that produced or modified this fact. */
  rules?: string[];
  certainty: 'confirmed' | 'suspected';
  evidence?: Span;
  /** The best ICD-10 entry for the name, or undefined when none fits; templates show it only when codifying. */
  icd10?: CodeRef;
}

export interface Amount {
  value: number;
  unit: string;
}

export interface Frequency {
  /** Administrations a day; null for weekly or rarer doses and for as-needed doses without a stated maximum. */
  per_day: number | null;
  /** Morning-noon-night pattern such as 1-0-1, when spoken or implied by the frequency. */
  pattern?: string;
  as_needed: boolean;
  text: string;
}

/** How the drug's name was recognised: exactly from the formulary, by spelling or sound only, or not at all. */
export type DrugMatch = 'exact' | 'fuzzy' | 'unrecognised';

export type MedicationField = 'name' | 'strength' | 'dose' | 'form' | 'route' | 'frequency' | 'timing' | 'duration' | 'instructions';

/**
 * What the note does with a drug. Only new, continued and changed drugs are prescriptions (`medications`);
 * conditional ones wait on a result or a decision (`conditional_medications`); the others are never printed.
 */
export const MEDICATION_STATUSES = ['new', 'continued', 'changed', 'stopped', 'history', 'considered', 'conditional'] as const;
export type MedicationStatus = (typeof MEDICATION_STATUSES)[number];

export interface Medication {
  name: string;
  /** new, continued or changed for a prescription; absent in facts made before statuses existed (read as new). */
  status?: MedicationStatus;
  /** For a changed drug: the strength it was on before ("decrease from 7.5 mg to 5 mg"). */
  previous_strength?: Amount;
  /** One of drugs offered as alternatives ("either nitrofurantoin or trimethoprim"): the others share the group. */
  alternatives?: string[];
  /** Attributes the structurer filled in rather than heard: 'strength' when the strength's unit was not said. */
  inferred?: MedicationField[];
  /** Provenance: ids of the rules (context rules, cue lists, extractor rules) that produced or modified this fact. */
  rules?: string[];
  /** Absent means exact. For fuzzy and unrecognised names, `heard` holds the words as transcribed. */
  match?: DrugMatch;
  heard?: string;
  evidence?: Span;
  /** Where each stated attribute was said. */
  field_evidence?: Partial<Record<MedicationField, Span>>;
  brand?: string;
  form?: string;
  strength?: Amount;
  dose?: Amount;
  route?: string;
  frequency?: Frequency;
  timing?: string;
  duration?: Duration;
  instructions?: string;
}

/** Provenance id of a prescription kept although what the doctor meant by it was ambiguous: safety flags it. */
export const STATUS_UNCLEAR_RULE = 'med.status-unclear';
/** A prescribing cue in a line labelled the patient's: the drug is kept, flagged (safety.ts says why). */
export const PATIENT_LABEL_PRESCRIBES_RULE = 'med.patient-label-prescribes';
/** The rule a medication carries when the recording also gives it another strength (flag STRENGTH_CONFLICT). */
export const STRENGTH_CONFLICT_RULE = 'med.strength-conflict';

/** A drug to be given only on a later result or decision ("if the culture is positive, amoxicillin"). */
export interface ConditionalMedication extends Medication {
  /** The condition as said ("if the strep test is positive", "we may add"). */
  condition: string;
}

export interface Investigation {
  name: string;
  /** Provenance: ids of the rules (context rules, cue lists, extractor rules) that produced or modified this fact. */
  rules?: string[];
  evidence?: Span;
  loinc?: string;
}

export interface ClinicalFacts {
  locale: string;
  complaints: Complaint[];
  history: { present_illness?: string; past: string[]; family: string[]; allergies: string[] };
  vitals: Vitals;
  examination: string[];
  diagnoses: Diagnosis[];
  medications: Medication[];
  /** Drugs that wait on a later result or decision: shown to the doctor, never part of the prescription. */
  conditional_medications?: ConditionalMedication[];
  investigations: Investigation[];
  advice: string[];
  follow_up?: { after: Duration; notes?: string; evidence?: Span };
  /** Evidence of the facts held as plain values: each vital by its key, advice and allergies by index. */
  evidence: {
    vitals: Partial<Record<keyof Vitals, Span>>;
    advice: Span[];
    allergies: Span[];
  };
  /** Safety flags (safety.ts), each pointing at the item it concerns. */
  flags: Flag[];
}

const DAYS: Record<DurationUnit, number> = { day: 1, week: 7, month: 30, year: 365 };

/** A duration in days, counting a month as 30 days and a year as 365. */
export function durationDays(d: Duration): number {
  return Math.round(d.value * DAYS[d.unit]);
}
