/** What the structurer extracts from a transcript: the facts every template is rendered from. */

export type DurationUnit = 'day' | 'week' | 'month' | 'year';

export interface Duration {
  value: number;
  unit: DurationUnit;
}

export interface Complaint {
  name: string;
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
  certainty: 'confirmed' | 'suspected';
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

export interface Medication {
  name: string;
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
  follow_up?: { after: Duration; notes?: string };
}

const DAYS: Record<DurationUnit, number> = { day: 1, week: 7, month: 30, year: 365 };

/** A duration in days, counting a month as 30 days and a year as 365. */
export function durationDays(d: Duration): number {
  return Math.round(d.value * DAYS[d.unit]);
}
