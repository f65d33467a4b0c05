import type { Bundle } from '@medplum/fhirtypes';
import { type Static, type TSchema, Type } from 'typebox';
import { LANGUAGES } from '../scribe/contracts.js';
import { NoteStatus } from '../scribe/note-reader.js';
import { FLAG_CODES, MEDICATION_STATUSES } from '../clinical-nlp/facts.js';
import { Literals } from '../shared/literals.js';
import { Line, Text } from '../shared/text.js';

/**
 * The EMR JSON a note is made of: service_emr_template exactly as server/scribe/templates/render.ts produces it
 * (shared/spec/templates.md, with our evidence and flags), so the scribe's draft, the doctor's edits and the
 * signed version are one shape. Names and free text follow the shared text rules; every list and string is bounded.
 */

const Name = Line({ minLength: 1, maxLength: 300, notBlank: true });
const Short = Line({ maxLength: 120 });
const Free = Text({ maxLength: 4000 });
const List = <T extends TSchema>(t: T, maxItems = 100) => Type.Array(t, { maxItems });
const Num = Type.Number({ minimum: 0, maximum: 100_000 });

const Span = Type.Object({
  start: Type.Integer({ minimum: 0 }),
  end: Type.Integer({ minimum: 0 }),
  start_s: Type.Optional(Type.Number({ minimum: 0 })),
  end_s: Type.Optional(Type.Number({ minimum: 0 })),
}, { description: 'Where it was said: [start, end) in the transcript text, and seconds of the recording' });

const Duration = Type.Object({
  value: Type.Number({ exclusiveMinimum: 0, maximum: 10_000 }),
  unit: Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month'), Type.Literal('year')]),
});

const Amount = Type.Object({ value: Num, unit: Line({ minLength: 1, maxLength: 40, notBlank: true }) });

const CodeRef = Type.Object({
  system: Type.Union([Type.Literal('ICD-10'), Type.Literal('LOINC')]),
  code: Line({ minLength: 1, maxLength: 20, notBlank: true }),
  display: Line({ maxLength: 300 }),
});

// The structurer's flag codes, declared once in facts.ts.
const FlagCode = Literals(FLAG_CODES);
const Pointer = Type.String({ pattern: '^(/[A-Za-z0-9_]+)+$', maxLength: 120, description: 'JSON pointer into this EMR JSON' });

export const RESOLUTIONS = ['edited', 'kept'] as const;
const Resolution = Literals(RESOLUTIONS, {
  description: 'edited: the doctor changed what the flag is about; kept: the doctor checked it and keeps it as is',
});

const Flag = Type.Object({
  code: FlagCode,
  message: Text({ maxLength: 1000 }),
  pointer: Pointer,
  resolution: Type.Optional(Resolution),
  resolved_by: Type.Optional(Type.String({ description: 'users.id of the doctor who resolved it (set by the service)' })),
  resolved_at: Type.Optional(Type.String({ description: 'When (set by the service)' })),
  resolution_reason: Type.Optional(Type.String({ description: 'Why the doctor kept an allergy conflict or an out-of-range dose as it is (from the resolution\'s reason)' })),
});

const Medication = Type.Object({
  name: Name,
  status: Type.Optional(Literals(MEDICATION_STATUSES, { description: 'new (absent means new), continued, or changed from previous_strength' })),
  previous_strength: Type.Optional(Amount),
  alternatives: Type.Optional(List(Name, 10)),
  match: Type.Optional(Type.Union([Type.Literal('exact'), Type.Literal('fuzzy'), Type.Literal('unrecognised')])),
  heard: Type.Optional(Short),
  evidence: Type.Optional(Span),
  field_evidence: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z_]{1,20}$' }), Span)),
  brand: Type.Optional(Short),
  form: Type.Optional(Short),
  strength: Type.Optional(Amount),
  dose: Type.Optional(Amount),
  route: Type.Optional(Short),
  frequency: Type.Optional(Type.Object({
    per_day: Type.Union([Type.Number({ minimum: 0, maximum: 48 }), Type.Null()]),
    pattern: Type.Optional(Line({ maxLength: 20 })),
    as_needed: Type.Boolean(),
    text: Line({ maxLength: 200 }),
  })),
  timing: Type.Optional(Short),
  duration: Type.Optional(Duration),
  instructions: Type.Optional(Text({ maxLength: 1000 })),
});

export const Emr = Type.Object({
  template_id: Type.Literal('service_emr_template'),
  language: Literals(LANGUAGES),
  chief_complaints: List(Type.Object({
    name: Name,
    duration: Type.Optional(Duration),
    notes: Type.Optional(Free),
    evidence: Type.Optional(Span),
  })),
  history: Type.Object({
    present_illness: Type.Optional(Free),
    past: List(Line({ maxLength: 500 })),
    family: List(Line({ maxLength: 500 })),
    allergies: List(Line({ maxLength: 200 })),
  }),
  vitals: Type.Object({
    bp: Type.Optional(Type.Object({ systolic: Type.Number({ minimum: 0, maximum: 400 }), diastolic: Type.Number({ minimum: 0, maximum: 300 }) })),
    pulse_bpm: Type.Optional(Type.Number({ minimum: 0, maximum: 400 })),
    temperature: Type.Optional(Type.Object({ value: Type.Number({ minimum: 0, maximum: 120 }), unit: Type.Union([Type.Literal('F'), Type.Literal('C')]) })),
    spo2_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    respiratory_rate: Type.Optional(Type.Number({ minimum: 0, maximum: 200 })),
    weight_kg: Type.Optional(Type.Number({ minimum: 0, maximum: 700 })),
    height_cm: Type.Optional(Type.Number({ minimum: 0, maximum: 300 })),
    blood_glucose_mg_dl: Type.Optional(Type.Number({ minimum: 0, maximum: 3000 })),
  }),
  examination: List(Free),
  diagnoses: List(Type.Object({
    name: Name,
    certainty: Type.Union([Type.Literal('confirmed'), Type.Literal('suspected')]),
    codes: List(CodeRef, 10),
    evidence: Type.Optional(Span),
  })),
  medications: List(Medication),
  conditional_medications: Type.Optional(List(Type.Object({ ...Medication.properties, condition: Line({ maxLength: 300 }) }), 50)),
  investigations: List(Type.Object({ name: Name, codes: Type.Optional(List(CodeRef, 10)), evidence: Type.Optional(Span) })),
  advice: List(Free),
  follow_up: Type.Optional(Type.Object({ after: Duration, notes: Type.Optional(Free), evidence: Type.Optional(Span) })),
  evidence: Type.Optional(Type.Record(Pointer, Span)),
  flags: Type.Optional(List(Flag)),
}, { description: 'service_emr_template JSON (shared/spec/templates.md), with evidence and flags' });
export type Emr = Static<typeof Emr>;
export type EmrFlag = Static<typeof Flag>;

const FlagResolution = Type.Object({
  code: FlagCode, pointer: Pointer, resolution: Resolution,
  reason: Type.Optional(Text({ maxLength: 500, description: 'Why it is kept as is: required to keep ALLERGY_CONFLICT, DOSE_RANGE or DAILY_MAX' })),
});
export type FlagResolution = Static<typeof FlagResolution>;

const FlagResolutions = Type.Optional(List(FlagResolution, 200));

export const NoteParams = Type.Object({ txn_id: Type.String({ minLength: 1, maxLength: 128, description: 'The scribe session\'s transaction id' }) });
export const VersionParams = Type.Object({
  txn_id: NoteParams.properties.txn_id,
  version: Type.String({ pattern: '^(?:draft|latest|0|[1-9][0-9]{0,5})$', description: 'draft (the scribe\'s, = 0), 1 the signed version, 2… amendments, or latest' }),
});

export const DraftBody = Type.Object({
  emr: Emr,
  flag_resolutions: FlagResolutions,
});
export type DraftBody = Static<typeof DraftBody>;

export const SignBody = Type.Object({
  emr: Type.Optional(Emr),
  flag_resolutions: FlagResolutions,
  appointment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The appointment the note is of; default the session\'s additional_data.appointment_id' })),
});
export type SignBody = Static<typeof SignBody>;

export const AmendBody = Type.Object({
  emr: Emr,
  reason: Text({ minLength: 1, maxLength: 1000, notBlank: true, description: 'Why the signed note is changed (required)' }),
  flag_resolutions: FlagResolutions,
});
export type AmendBody = Static<typeof AmendBody>;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const Who = {
  created_by: Nullable(Type.String({ description: 'users.id; null for the scribe\'s draft' })),
  created_by_name: Nullable(Type.String({ description: 'Their display name' })),
  created_at: Type.String(),
};

export const VersionSummary = Type.Object({
  version: Type.Integer({ minimum: 0, description: '0 the scribe\'s draft, 1 the signed version, 2… amendments' }),
  kind: Type.Union([Type.Literal('draft'), Type.Literal('signed'), Type.Literal('amendment')]),
  reason: Nullable(Type.String()),
  ...Who,
});

/**
 * The EMR JSON in answers: the shape of Emr, but not checked against it when the answer is written, since the
 * scribe's draft (version 0, and the working draft until the doctor saves one) is served as the scribe produced it,
 * even where it breaks the schema (a dose 653 times a day): the doctor corrects it before signing. (Fastify's
 * serializer would refuse such a value inside Emr's unions, and answer 500.)
 */
const EmrAnswer = Type.Unsafe<Emr>({
  type: 'object', additionalProperties: true,
  description: 'service_emr_template JSON, in the shape of the request bodies\' emr; the scribe\'s draft as produced, which may break that shape\'s limits until the doctor corrects it',
});

export const Version = Type.Object({ ...VersionSummary.properties, txn_id: Type.String(), emr: EmrAnswer });

export const VersionList = Type.Object({
  txn_id: Type.String(),
  status: NoteStatus,
  patient_id: Nullable(Type.String()),
  appointment_id: Nullable(Type.String()),
  latest_version: Type.Integer({ minimum: 0 }),
  versions: Type.Array(VersionSummary, { description: 'Oldest first: the draft, the signed version, amendments' }),
});

export const WorkingDraft = Type.Object({
  txn_id: Type.String(),
  status: NoteStatus,
  edited: Type.Boolean({ description: 'false: nobody saved edits yet, emr is the scribe\'s draft' }),
  updated_by: Nullable(Type.String()),
  updated_at: Nullable(Type.String()),
  emr: EmrAnswer,
  flag_resolutions: Type.Array(Type.Object({ ...FlagResolution.properties, by: Type.String(), at: Type.String() })),
});


/**
 * The name the desktop app's save dialog offers for a prescription's PDF: a file name alone, no folder, that
 * Windows, macOS and Linux all accept (none of / \ : * ? " < > |, no control or bidi override characters, not
 * starting with a dot or a space), ending in .pdf.
 */
export const PdfFileName = Type.String({
  minLength: 5, maxLength: 150,
  pattern: '^(?![. ])[^/\\\\:*?"<>|\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]+\\.pdf$',
  description: 'A file name ending in .pdf, without a folder',
});

// The bundle is FHIR's own JSON, described by the FHIR specification rather than by this schema.
export const FhirBundle = Type.Unsafe<Bundle>({
  type: 'object',
  additionalProperties: true,
  description: 'A FHIR R4 Bundle of type document (docs/API.md, "FHIR export")',
});
