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

/** Codes of the safety flags (issue: clinical safety net); each one is also a string in data.output[].warnings. */
export type FlagCode =
  | 'DOSE_UNIT'
  | 'DOSE_RANGE'
  | 'DAILY_MAX'
  | 'ALLERGY_CONFLICT'
  | 'DUPLICATE_THERAPY'
  | 'LOW_CONFIDENCE'
  | 'FUZZY_MATCH'
  | 'UNRECOGNISED_DRUG';

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

export interface Medication {
  name: string;
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
  investigations: Investigation[];
  advice: string[];
  follow_up?: { after: Duration; notes?: string; evidence?: Span };
  /** Evidence of the facts held as plain values: each vital by its key, advice and allergies by index. */
  evidence: {
    vitals: Partial<Record<keyof Vitals, Span>>;
    advice: Span[];
    allergies: Span[];
  };
  /** Safety flags (structure/safety.ts), each pointing at the item it concerns. */
  flags: Flag[];
}

const DAYS: Record<DurationUnit, number> = { day: 1, week: 7, month: 30, year: 365 };

/** A duration in days, counting a month as 30 days and a year as 365. */
export function durationDays(d: Duration): number {
  return Math.round(d.value * DAYS[d.unit]);
}
