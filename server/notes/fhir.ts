/**
 * A note as a FHIR R4 document Bundle (issue 15, item 4): the Composition first, then everything it points at.
 * The structure follows India's ABDM OPConsultRecord as NRCeS publishes it (document type and section codes), with
 * the medications as PrescriptionRecord carries them (MedicationRequest with dosage as FHIR Timing). docs/API.md,
 * "FHIR export", lists which profile rules are followed and which cannot be checked here.
 *
 * Pure: the same input gives the same bundle, byte for byte (ids are name-based UUIDs), so an export can be
 * repeated, compared and cached, and needs only what a note.signed event carries (ids and the EMR JSON); names,
 * the doctor's registration and the clinic's address are added when the caller has them.
 */
import { createHash } from 'node:crypto';
import type {
  AllergyIntolerance, Appointment, Bundle, BundleEntry, CodeableConcept, Coding, Composition, CompositionSection, Condition, Dosage,
  CarePlan, Encounter, Identifier, MedicationRequest, Observation, Organization, Patient, Practitioner, Quantity, Reference, Resource, ServiceRequest,
  TimingRepeat,
} from '@medplum/fhirtypes';
import type { Duration, DurationUnit } from '../clinical-nlp/facts.js';
import type { Emr } from './schemas.js';

type Medication = Emr['medications'][number];
type When = NonNullable<TimingRepeat['when']>[number];

export interface FhirExportInput {
  /** The note's EMR JSON (service_emr_template), as signed. */
  emr: Emr;
  /**
   * The note: `id` is stable over its versions (the scribe session's id), `version` 0 the scribe's draft, 1 signed,
   * 2… amendments; `date` when this version was made (signed), an ISO 8601 instant.
   */
  note: { id: string; version: number; date: string };
  /** Without an id (a dictation no patient was named for) the document's patient is unnamed. */
  patient: {
    id?: string;
    first_name?: string;
    middle_name?: string;
    last_name?: string;
    gender?: 'M' | 'F' | 'O';
    /** YYYY-MM-DD; with `dob_estimated` only its year is exported (it was worked out from an age). */
    dob?: string;
    dob_estimated?: boolean;
    /** International form, +919876543210. */
    mobile?: string;
    /** The allergies in the patient's record, exported with those the note names: a note may not repeat them. */
    allergies?: string[];
  };
  /** The doctor who signed. */
  practitioner?: { id: string; name?: string; qualification?: string; registration_number?: string; registration_council?: string };
  /** The clinic. */
  organization: { id: string; name?: string; address?: string; phone?: string };
  /** What the note is of: the appointment, or the dictation session when there is none. */
  encounter: { kind: 'appointment' | 'session'; id: string; start?: string };
  /** The clinic's IANA time zone: the visit's calendar day, from which the follow-up date is counted. Default UTC. */
  timeZone?: string;
}

const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const ICD10 = 'http://hl7.org/fhir/sid/icd-10';
/** Identifiers whose value is a URI (here urn:uuid:…): the ids of this service are UUIDs, unique without a namespace of ours. */
const URI_SYSTEM = 'urn:ietf:rfc:3986';
const V2_0203 = 'http://terminology.hl7.org/CodeSystem/v2-0203';

// RFC 4122 name-based UUIDs (version 5) under a namespace of our own, so two exports of one note version agree.
const NAMESPACE = Buffer.from('6f1c2b9e4d7a5e3f8a0b1c2d3e4f5a6b', 'hex');
function uuidFor(name: string): string {
  const h = createHash('sha1').update(NAMESPACE).update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uriIdentifier = (id: string): Identifier =>
  UUID.test(id) ? { system: URI_SYSTEM, value: `urn:uuid:${id.toLowerCase()}` } : { value: id };

const snomed = (code: string, display: string, text = display): CodeableConcept => ({ coding: [{ system: SNOMED, code, display }], text });
const loinc = (code: string, display: string): Coding => ({ system: LOINC, code, display });

/** OPConsultRecord's section slices (NRCeS), by code, and the two sections of ours the profile leaves open at the end. */
const SECTIONS = {
  chiefComplaints: { title: 'Chief complaints', code: snomed('422843007', 'Chief complaint section') },
  physicalExamination: { title: 'Vitals and examination', code: snomed('425044008', 'Physical exam section') },
  allergies: { title: 'Allergies', code: snomed('722446000', 'Allergy record') },
  medicalHistory: { title: 'Medical history', code: snomed('371529009', 'History and physical report') },
  familyHistory: { title: 'Family history', code: snomed('422432008', 'Family history section') },
  investigationAdvice: { title: 'Investigation advice', code: snomed('721963009', 'Order document') },
  medications: { title: 'Medications', code: snomed('721912009', 'Medication summary document') },
  followUp: { title: 'Follow up', code: snomed('390906007', 'Follow-up encounter') },
  diagnoses: { title: 'Diagnoses', code: { coding: [loinc('29548-5', 'Diagnosis Narrative')], text: 'Diagnoses' } },
  advice: { title: 'Advice', code: { coding: [loinc('69730-0', 'Instructions')], text: 'Advice' } },
} satisfies Record<string, { title: string; code: CodeableConcept }>;

// ---- dates ---------------------------------------------------------------------------------------------------

/** The calendar day of an instant in a time zone, YYYY-MM-DD. */
function localDay(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));
}

/** A day moved by a duration: whole months and years by the calendar (the 31st becomes the month's last day). */
function shiftDay(day: string, d: Duration, sign: 1 | -1): string {
  const [y, m, dd] = day.split('-').map(Number) as [number, number, number];
  const whole = Number.isInteger(d.value);
  if (whole && (d.unit === 'month' || d.unit === 'year')) {
    const months = sign * d.value * (d.unit === 'year' ? 12 : 1);
    const first = new Date(Date.UTC(y, m - 1 + months, 1));
    const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
    first.setUTCDate(Math.min(dd, last));
    return first.toISOString().slice(0, 10);
  }
  const days = Math.round(d.value * { day: 1, week: 7, month: 30, year: 365 }[d.unit]);
  return new Date(Date.UTC(y, m - 1, dd + sign * days)).toISOString().slice(0, 10);
}

/** When a complaint began, no more precise than it was said: a day for days and weeks, a month, a year. */
function onsetOf(day: string, d: Duration): string {
  const start = shiftDay(day, d, -1);
  return d.unit === 'year' ? start.slice(0, 4) : d.unit === 'month' ? start.slice(0, 7) : start;
}

const plural = (d: Duration) => `${d.value} ${d.unit}${d.value === 1 ? '' : 's'}`;
const UCUM_TIME: Record<DurationUnit, 'd' | 'wk' | 'mo' | 'a'> = { day: 'd', week: 'wk', month: 'mo', year: 'a' };
const durationQuantity = (d: Duration) => ({ value: d.value, unit: plural(d).replace(/^\S+ /, ''), system: UCUM, code: UCUM_TIME[d.unit] });

// ---- narrative -----------------------------------------------------------------------------------------------

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const narrative = (lines: string[]) => ({
  status: 'generated' as const,
  div: `<div xmlns="http://www.w3.org/1999/xhtml">${lines.length === 1 ? `<p>${escapeXml(lines[0]!)}</p>` : `<ul>${lines.map((l) => `<li>${escapeXml(l)}</li>`).join('')}</ul>`}</div>`,
});

// ---- medications ---------------------------------------------------------------------------------------------

/** Dose units with a UCUM code; the others (tablet, puff, sachet) travel as text. */
const UCUM_DOSE: Record<string, string> = { mg: 'mg', g: 'g', mcg: 'ug', ug: 'ug', ml: 'mL', l: 'L', drop: '[drp]', drops: '[drp]', iu: '[iU]', unit: '[U]', units: '[U]' };
const amount = (a: { value: number; unit: string }): Quantity => {
  const code = UCUM_DOSE[a.unit.toLowerCase()];
  return code ? { value: a.value, unit: a.unit, system: UCUM, code } : { value: a.value, unit: a.unit };
};

/** Routes whose SNOMED CT code we are sure of; any other route is sent as text. */
const ROUTES: Record<string, [string, string]> = {
  oral: ['26643006', 'Oral route'],
  intravenous: ['47625008', 'Intravenous route'],
  intramuscular: ['78421000', 'Intramuscular route'],
  subcutaneous: ['34206005', 'Subcutaneous route'],
  sublingual: ['37839007', 'Sublingual route'],
  topical: ['6064005', 'Topical route'],
};

/** Spoken timing words → FHIR event timing. Combined below: "at night" with "after food" is after dinner. */
const WHEN: [RegExp, When][] = [
  [/^(after (food|meals?))$/, 'PC'], [/^(before (food|meals?|feeds))$/, 'AC'], [/^(with (food|meals?))$/, 'C'],
  [/^after breakfast$/, 'PCM'], [/^after lunch$/, 'PCD'], [/^after dinner$/, 'PCV'],
  [/^before breakfast$/, 'ACM'], [/^before lunch$/, 'ACD'], [/^before dinner$/, 'ACV'],
  [/^with breakfast$/, 'CM'], [/^with lunch$/, 'CD'], [/^with dinner$/, 'CV'],
  [/^(in the )?(early )?morning$/, 'MORN'], [/^(in the )?evening$/, 'EVE'], [/^(at )?night$/, 'NIGHT'],
  [/^(at )?bedtime$/, 'HS'], [/^on waking( up)?$/, 'WAKE'],
];
const MEAL: Partial<Record<When, Partial<Record<When, When>>>> = {
  PC: { MORN: 'PCM', EVE: 'PCV', NIGHT: 'PCV' }, AC: { MORN: 'ACM', EVE: 'ACV', NIGHT: 'ACV' }, C: { MORN: 'CM', EVE: 'CV', NIGHT: 'CV' },
};
const OFFSET = /^(\d+|half an?|an?) (minutes?|hours?) (before|after) /;
const OFFSET_ABLE = new Set<When>(['AC', 'ACM', 'ACD', 'ACV', 'PC', 'PCM', 'PCD', 'PCV']);

/**
 * The timing words as event codes, their offset in minutes (FHIR allows one, for before/after-meal codes), and the
 * words no code says (with milk, empty stomach). Parts are joined by "and"; an offset is carried to the following
 * parts ("15 minutes before lunch and before dinner").
 */
function parseTiming(text: string): { when: When[]; offset?: number; rest: string[] } {
  let when: When[] = [];
  const rest: string[] = [];
  const offsets = new Set<number>();
  let carried: number | undefined;
  for (const raw of text.toLowerCase().split(/\s+and\s+/)) {
    let part = raw.trim();
    const m = OFFSET.exec(part);
    if (m) {
      const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : m[1]!.startsWith('half') ? 0.5 : 1;
      carried = Math.round(n * (m[2]!.startsWith('hour') ? 60 : 1));
      part = part.slice(m[0].length - m[3]!.length - 1);
    }
    const code = WHEN.find(([re]) => re.test(part))?.[1];
    if (!code) {
      rest.push(raw.trim());
      continue;
    }
    if (carried !== undefined && OFFSET_ABLE.has(code)) offsets.add(carried);
    when.push(code);
  }
  // A meal relation with a time of day is one event ("at night and after food": after dinner).
  for (const meal of ['PC', 'AC', 'C'] as const) {
    const day = when.filter((w) => MEAL[meal]![w]);
    if (when.includes(meal) && day.length === 1) when = when.filter((w) => w !== meal && w !== day[0]).concat(MEAL[meal]![day[0]!]!);
  }
  // "In the morning and with breakfast" is one event too: the meal says the time of day.
  const mealTime: Partial<Record<When, When>> = { CM: 'MORN', ACM: 'MORN', PCM: 'MORN', CV: 'NIGHT', ACV: 'NIGHT', PCV: 'NIGHT' };
  when = [...new Set(when)].filter((w) => !when.some((x) => mealTime[x] === w || (w === 'EVE' && mealTime[x] === 'NIGHT')));
  const offset = offsets.size === 1 && when.every((w) => OFFSET_ABLE.has(w)) ? [...offsets][0] : undefined;
  return { when, ...(offset !== undefined ? { offset } : {}), rest };
}

const WEEKLY = /\b(once|twice|thrice|(\d+) times) (a|per|every) week\b|\bweekly\b/;
const ALTERNATE = /\b(every other|alternate) (day|night)s?\b/;
const EVERY_HOURS = /\bevery (\d+) hours?\b/;
const SINGLE = /\b(single dose|once only|stat)\b/;

/** How often, as FHIR Timing's frequency per period, from the note's per_day and (for rarer doses) its words. */
function frequencyOf(f: NonNullable<Medication['frequency']>): Pick<TimingRepeat, 'frequency' | 'period' | 'periodUnit' | 'count'> {
  const text = f.text.toLowerCase();
  if (SINGLE.test(text)) return { count: 1 };
  const hours = EVERY_HOURS.exec(text);
  if (hours && f.per_day !== null && Math.abs(24 / Number(hours[1]) - f.per_day) < 1e-9) return { frequency: 1, period: Number(hours[1]), periodUnit: 'h' };
  if (f.per_day !== null && f.per_day > 0) {
    return Number.isInteger(f.per_day)
      ? { frequency: f.per_day, period: 1, periodUnit: 'd' }
      : { frequency: 1, period: Math.round((1 / f.per_day) * 1000) / 1000, periodUnit: 'd' };
  }
  const weekly = WEEKLY.exec(text);
  if (weekly) {
    const n = weekly[1] === 'twice' ? 2 : weekly[1] === 'thrice' ? 3 : weekly[2] ? Number(weekly[2]) : 1;
    return { frequency: n, period: 1, periodUnit: 'wk' };
  }
  if (ALTERNATE.test(text)) return { frequency: 1, period: 2, periodUnit: 'd' };
  return {};
}

/** Slots of a morning-noon-(evening-)night pattern such as 1-0-1, with the meal relation the timing says. */
function patternSlots(pattern: string, when: When[]): { code: When; count: number }[] | null {
  const parts = pattern.split('-').map((p) => Number(p));
  if ((parts.length !== 3 && parts.length !== 4) || parts.some((n) => !Number.isFinite(n) || n < 0)) return null;
  const meal = when.find((w) => w === 'PC' || w === 'AC' || w === 'C');
  const times: When[][] = parts.length === 3
    ? [['MORN', 'PCM', 'ACM', 'CM'], ['NOON', 'PCD', 'ACD', 'CD'], ['NIGHT', 'PCV', 'ACV', 'CV']]
    : [['MORN', 'PCM', 'ACM', 'CM'], ['NOON', 'PCD', 'ACD', 'CD'], ['EVE', 'PCV', 'ACV', 'CV'], ['NIGHT', 'PCV', 'ACV', 'CV']];
  const pick = meal === 'PC' ? 1 : meal === 'AC' ? 2 : meal === 'C' ? 3 : 0;
  return parts.flatMap((count, i) => (count > 0 ? [{ code: times[i]![parts.length === 4 && i === 2 && pick ? 0 : pick]!, count }] : []));
}

/** The medication line a person reads (Dosage.text), as the prescription prints it. */
function doseLine(m: Medication): string {
  return [
    m.dose ? `${m.dose.value} ${m.dose.unit}` : '',
    m.frequency ? (m.frequency.pattern ? `${m.frequency.pattern} (${m.frequency.text})` : m.frequency.text) : '',
    m.timing ?? '',
    m.duration ? `for ${plural(m.duration)}` : '',
    m.instructions ?? '',
  ].filter(Boolean).join(', ');
}

/**
 * FHIR Dosage from a note's medication: Timing (frequency per period from per_day; event codes and offset from the
 * timing words; bounds from the duration), as-needed with its condition, dose and route. A 1-0-2 pattern with
 * different amounts per time becomes one dosage per amount, sharing a sequence (taken together).
 */
export function dosageOf(m: Medication): Dosage[] {
  const timing = m.timing ? parseTiming(m.timing) : { when: [] as When[], rest: [] as string[] };
  const repeat: TimingRepeat = m.frequency ? frequencyOf(m.frequency) : {};
  if (m.duration && repeat.count === undefined) repeat.boundsDuration = durationQuantity(m.duration);
  const base: Dosage = {
    sequence: 1,
    text: doseLine(m),
    ...(timing.rest.length ? { additionalInstruction: timing.rest.map((text) => ({ text })) } : {}),
    ...(m.instructions && !m.frequency?.as_needed ? { patientInstruction: m.instructions } : {}),
    ...(m.frequency?.as_needed ? (m.instructions ? { asNeededCodeableConcept: { text: m.instructions } } : { asNeededBoolean: true }) : {}),
    ...(m.route ? { route: ROUTES[m.route.toLowerCase()] ? snomed(...ROUTES[m.route.toLowerCase()]!, m.route) : { text: m.route } } : {}),
  };
  const withTiming = (r: TimingRepeat, dose?: Quantity): Dosage => ({
    ...base,
    ...(Object.keys(r).length ? { timing: { repeat: r } } : {}),
    ...(dose ? { doseAndRate: [{ doseQuantity: dose }] } : {}),
  });
  const dose = m.dose ? amount(m.dose) : undefined;
  const slots = m.frequency?.pattern ? patternSlots(m.frequency.pattern, timing.when) : null;
  if (slots?.length) {
    const counts = [...new Set(slots.map((s) => s.count))];
    if (counts.length === 1) return [withTiming({ ...repeat, frequency: slots.length, period: 1, periodUnit: 'd', when: slots.map((s) => s.code) }, dose)];
    const unit = m.dose?.unit ?? m.form ?? 'unit';
    return counts.map((n) => {
      const at = slots.filter((s) => s.count === n).map((s) => s.code);
      return withTiming({ ...repeat, frequency: at.length, period: 1, periodUnit: 'd', when: at }, amount({ value: n * (m.dose?.value ?? 1), unit }));
    });
  }
  // Event codes only when they do not contradict the frequency ("once daily", "in the morning and with breakfast").
  const perPeriod = repeat.periodUnit === 'd' && repeat.period === 1 ? repeat.frequency : undefined;
  if (timing.when.length && (perPeriod === undefined || timing.when.length <= perPeriod)) {
    repeat.when = timing.when;
    if ('offset' in timing && timing.offset !== undefined) repeat.offset = timing.offset;
  } else if (timing.when.length) {
    base.additionalInstruction = [...(base.additionalInstruction ?? []), { text: m.timing! }];
  }
  return [withTiming(repeat, dose)];
}

function medicationText(m: Medication): string {
  const strength = m.strength ? ` ${m.strength.value} ${m.strength.unit}` : '';
  const generic = `${m.name}${strength}${m.form ? ` ${m.form}` : ''}`;
  return m.brand ? `${m.brand} (${generic})` : generic;
}

// ---- the bundle ----------------------------------------------------------------------------------------------

const VITALS_PROFILE = 'http://hl7.org/fhir/StructureDefinition/';

/** The note as a FHIR R4 document Bundle (type document, the Composition first). */
export function buildFhirBundle(input: FhirExportInput): Bundle {
  const { emr, note } = input;
  const timeZone = input.timeZone ?? 'UTC';
  const docKey = `${note.id}/${note.version}`;
  const visitInstant = input.encounter.start ?? note.date;
  const visitDay = localDay(visitInstant, timeZone);
  const entries: BundleEntry[] = [];
  const add = <T extends Resource>(key: string, resource: T): Reference<T> => {
    const id = uuidFor(key);
    entries.push({ fullUrl: `urn:uuid:${id}`, resource: { ...resource, id } });
    return { reference: `urn:uuid:${id}`, type: resource.resourceType };
  };

  const p = input.patient;
  const given = [p.first_name, p.middle_name].filter((x): x is string => !!x);
  const fullName = [...given, p.last_name].filter(Boolean).join(' ');
  const patient = add<Patient>(p.id ? `patient/${p.id}` : `${docKey}/patient`, {
    resourceType: 'Patient',
    ...(p.id ? { identifier: [{ ...uriIdentifier(p.id), type: { coding: [{ system: V2_0203, code: 'MR', display: 'Medical record number' }] } }] } : {}),
    ...(fullName ? { name: [{ text: fullName, ...(p.last_name ? { family: p.last_name } : {}), ...(given.length ? { given } : {}) }] } : {}),
    ...(p.gender ? { gender: ({ M: 'male', F: 'female', O: 'other' } as const)[p.gender] } : {}),
    ...(p.dob ? { birthDate: p.dob_estimated ? p.dob.slice(0, 4) : p.dob } : {}),
    ...(p.mobile ? { telecom: [{ system: 'phone', value: p.mobile, use: 'mobile' }] } : {}),
  });
  if (fullName) patient.display = fullName;

  const o = input.organization;
  const organization = add<Organization>(`organization/${o.id}`, {
    resourceType: 'Organization',
    identifier: [uriIdentifier(o.id)],
    ...(o.name ? { name: o.name } : {}),
    ...(o.address ? { address: [{ text: o.address }] } : {}),
    ...(o.phone ? { telecom: [{ system: 'phone', value: o.phone }] } : {}),
  });
  if (o.name) organization.display = o.name;

  const d = input.practitioner;
  const practitioner = d && add<Practitioner>(`practitioner/${d.id}`, {
    resourceType: 'Practitioner',
    identifier: [
      uriIdentifier(d.id),
      ...(d.registration_number ? [{
        type: { coding: [{ system: V2_0203, code: 'MD', display: 'Medical License number' }] },
        value: d.registration_number,
        ...(d.registration_council ? { assigner: { display: d.registration_council } } : {}),
      }] : []),
    ],
    ...(d.name ? { name: [{ text: d.name }] } : {}),
    ...(d.qualification ? { qualification: [{ code: { text: d.qualification } }] } : {}),
  });
  if (practitioner && d?.name) practitioner.display = d.name;

  // Conditions first: the encounter lists the diagnoses.
  const diagnosisRefs = emr.diagnoses.map((dx, i) => {
    const icd = dx.codes.filter((c) => c.system === 'ICD-10');
    return add<Condition>(`${docKey}/diagnosis/${i}`, {
      resourceType: 'Condition',
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      verificationStatus: {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: dx.certainty === 'suspected' ? 'provisional' : 'confirmed' }],
      },
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'encounter-diagnosis', display: 'Encounter Diagnosis' }] }],
      code: { ...(icd.length ? { coding: icd.map((c) => ({ system: ICD10, code: c.code, ...(c.display ? { display: c.display } : {}) })) } : {}), text: dx.name },
      subject: patient,
      recordedDate: note.date,
      ...(practitioner ? { recorder: practitioner } : {}),
    });
  });
  const encounterId = uuidFor(`encounter/${input.encounter.kind}/${input.encounter.id}`);
  const encounter: Reference<Encounter> = { reference: `urn:uuid:${encounterId}`, type: 'Encounter' };

  const complaints = emr.chief_complaints.map((c, i) => add<Condition>(`${docKey}/complaint/${i}`, {
    resourceType: 'Condition',
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    code: { text: c.name },
    subject: patient,
    encounter,
    ...(c.duration ? { onsetDateTime: onsetOf(visitDay, c.duration) } : {}),
    recordedDate: note.date,
    ...(c.notes ? { note: [{ text: c.notes }] } : {}),
  }));

  const v = emr.vitals;
  const vital = (key: string, profile: string | null, code: Coding[], text: string, value: Partial<Observation>, category = 'vital-signs') =>
    add<Observation>(`${docKey}/vital/${key}`, {
      resourceType: 'Observation',
      ...(profile ? { meta: { profile: [`${VITALS_PROFILE}${profile}`] } } : {}),
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: category }] }],
      code: { coding: code, text },
      subject: patient,
      encounter,
      effectiveDateTime: visitInstant,
      ...(practitioner ? { performer: [practitioner] } : {}),
      ...value,
    });
  const q = (value: number, unit: string, code: string): Quantity => ({ value, unit, system: UCUM, code });
  const vitals: Reference[] = [];
  if (v.bp) {
    vitals.push(vital('bp', 'bp', [loinc('85354-9', 'Blood pressure panel with all children optional')], 'Blood pressure', {
      component: [
        { code: { coding: [loinc('8480-6', 'Systolic blood pressure')] }, valueQuantity: q(v.bp.systolic, 'mmHg', 'mm[Hg]') },
        { code: { coding: [loinc('8462-4', 'Diastolic blood pressure')] }, valueQuantity: q(v.bp.diastolic, 'mmHg', 'mm[Hg]') },
      ],
    }));
  }
  if (v.pulse_bpm !== undefined) vitals.push(vital('pulse', 'heartrate', [loinc('8867-4', 'Heart rate')], 'Pulse', { valueQuantity: q(v.pulse_bpm, 'beats/minute', '/min') }));
  if (v.temperature) {
    const c = v.temperature.unit === 'C';
    vitals.push(vital('temperature', 'bodytemp', [loinc('8310-5', 'Body temperature')], 'Temperature',
      { valueQuantity: q(v.temperature.value, c ? '°C' : '°F', c ? 'Cel' : '[degF]') }));
  }
  if (v.spo2_percent !== undefined) {
    // A clinic's SpO2 is a pulse oximeter's: the oximetry code, with the arterial saturation code the R4 profile asks for.
    vitals.push(vital('spo2', 'oxygensat', [loinc('2708-6', 'Oxygen saturation in Arterial blood'), loinc('59408-5', 'Oxygen saturation in Arterial blood by Pulse oximetry')],
      'SpO2', { valueQuantity: q(v.spo2_percent, '%', '%') }));
  }
  if (v.respiratory_rate !== undefined) {
    vitals.push(vital('respiratory_rate', 'resprate', [loinc('9279-1', 'Respiratory rate')], 'Respiratory rate', { valueQuantity: q(v.respiratory_rate, 'breaths/minute', '/min') }));
  }
  if (v.weight_kg !== undefined) vitals.push(vital('weight', 'bodyweight', [loinc('29463-7', 'Body weight')], 'Weight', { valueQuantity: q(v.weight_kg, 'kg', 'kg') }));
  if (v.height_cm !== undefined) vitals.push(vital('height', 'bodyheight', [loinc('8302-2', 'Body height')], 'Height', { valueQuantity: q(v.height_cm, 'cm', 'cm') }));
  if (v.blood_glucose_mg_dl !== undefined) {
    vitals.push(vital('glucose', null, [loinc('2339-0', 'Glucose [Mass/volume] in Blood')], 'Blood glucose',
      { valueQuantity: q(v.blood_glucose_mg_dl, 'mg/dL', 'mg/dL') }, 'laboratory'));
  }
  const findings = emr.examination.map((text, i) => add<Observation>(`${docKey}/examination/${i}`, {
    resourceType: 'Observation',
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'exam' }] }],
    code: { coding: [{ system: SNOMED, code: '404684003', display: 'Clinical finding' }], text: 'Examination finding' },
    subject: patient,
    encounter,
    effectiveDateTime: visitInstant,
    ...(practitioner ? { performer: [practitioner] } : {}),
    valueString: text,
  }));

  // The note's allergies, then the record's that the note does not name (compared without case: "Penicillin" is one).
  const named = new Set(emr.history.allergies.map((a) => a.toLowerCase()));
  const allergyLines = [...emr.history.allergies, ...(input.patient.allergies ?? []).filter((a) => !named.has(a.toLowerCase()))];
  const allergies = allergyLines.map((a, i) => add<AllergyIntolerance>(`${docKey}/allergy/${i}`, {
    resourceType: 'AllergyIntolerance',
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
    code: { text: a },
    patient,
    encounter,
    recordedDate: note.date,
    ...(practitioner ? { recorder: practitioner } : {}),
  }));

  const medications = emr.medications.map((m, i) => add<MedicationRequest>(`${docKey}/medication/${i}`, {
    resourceType: 'MedicationRequest',
    status: 'active',
    intent: 'order',
    medicationCodeableConcept: { text: medicationText(m) },
    subject: patient,
    encounter,
    authoredOn: note.date,
    ...(practitioner ? { requester: practitioner } : {}),
    dosageInstruction: dosageOf(m),
  }));

  const orders = emr.investigations.map((t, i) => {
    const codes = (t.codes ?? []).filter((c) => c.system === 'LOINC');
    return add<ServiceRequest>(`${docKey}/investigation/${i}`, {
      resourceType: 'ServiceRequest',
      status: 'active',
      intent: 'order',
      // The note's LOINC display is the test's name as said, not LOINC's own: the code alone, the name as text.
      code: { ...(codes.length ? { coding: codes.map((c) => ({ system: LOINC, code: c.code })) } : {}), text: t.name },
      subject: patient,
      encounter,
      authoredOn: note.date,
      ...(practitioner ? { requester: practitioner } : {}),
    });
  });

  // The advice as a plan of care the patient follows, so the section has an entry a receiving system can read.
  const advicePlan = emr.advice.length > 0 ? add<CarePlan>(`${docKey}/advice`, {
    resourceType: 'CarePlan',
    status: 'active',
    intent: 'plan',
    title: 'Advice',
    subject: patient,
    encounter,
    created: note.date,
    ...(practitioner ? { author: practitioner } : {}),
    activity: emr.advice.map((description) => ({ detail: { status: 'not-started', description } })),
  }) : undefined;

  const followUp = emr.follow_up;
  const followDay = followUp ? shiftDay(visitDay, followUp.after, 1) : undefined;
  const appointment = followUp && add<Appointment>(`${docKey}/follow-up`, {
    resourceType: 'Appointment',
    // Proposed: the doctor asked for a day, the front desk books the time; start/end are instants, so the day is requestedPeriod.
    status: 'proposed',
    description: `Follow-up after ${plural(followUp.after)}${followUp.notes ? `: ${followUp.notes}` : ''}`,
    requestedPeriod: [{ start: followDay, end: followDay }],
    created: note.date,
    participant: [
      { actor: patient, required: 'required', status: 'needs-action' },
      ...(practitioner ? [{ actor: practitioner, required: 'required' as const, status: 'needs-action' as const }] : []),
    ],
  });

  const e = input.encounter;
  entries.push({
    fullUrl: encounter.reference,
    resource: {
      resourceType: 'Encounter',
      id: encounterId,
      identifier: [uriIdentifier(e.id)],
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB', display: 'ambulatory' },
      subject: patient,
      ...(practitioner ? { participant: [{ individual: practitioner }] } : {}),
      period: { start: visitInstant },
      ...(diagnosisRefs.length ? { diagnosis: diagnosisRefs.map((condition, i) => ({ condition, rank: i + 1 })) } : {}),
      serviceProvider: organization,
    } satisfies Encounter,
  });

  const section = (s: { title: string; code: CodeableConcept }, lines: string[], entry: Reference[] = []): CompositionSection[] =>
    lines.length ? [{ title: s.title, code: s.code, text: narrative(lines), ...(entry.length ? { entry } : {}) }] : [];
  const vitalLines = [
    v.bp ? `BP ${v.bp.systolic}/${v.bp.diastolic} mmHg` : '',
    v.pulse_bpm !== undefined ? `Pulse ${v.pulse_bpm}/min` : '',
    v.temperature ? `Temperature ${v.temperature.value} °${v.temperature.unit}` : '',
    v.spo2_percent !== undefined ? `SpO2 ${v.spo2_percent}%` : '',
    v.respiratory_rate !== undefined ? `Respiratory rate ${v.respiratory_rate}/min` : '',
    v.weight_kg !== undefined ? `Weight ${v.weight_kg} kg` : '',
    v.height_cm !== undefined ? `Height ${v.height_cm} cm` : '',
    v.blood_glucose_mg_dl !== undefined ? `Blood glucose ${v.blood_glucose_mg_dl} mg/dL` : '',
  ].filter(Boolean);
  const history = [emr.history.present_illness ?? '', ...emr.history.past].filter(Boolean);
  const sections = [
    ...section(SECTIONS.chiefComplaints, emr.chief_complaints.map((c) => `${c.name}${c.duration ? ` for ${plural(c.duration)}` : ''}`), complaints),
    ...section(SECTIONS.medicalHistory, history),
    ...section(SECTIONS.familyHistory, emr.history.family),
    ...section(SECTIONS.allergies, allergyLines, allergies),
    ...section(SECTIONS.physicalExamination, [...vitalLines, ...emr.examination], [...vitals, ...findings]),
    ...section(SECTIONS.diagnoses, emr.diagnoses.map((dx) => {
      const code = dx.codes.find((c) => c.system === 'ICD-10');
      return `${dx.certainty === 'suspected' ? 'Suspected: ' : ''}${dx.name}${code ? ` (${code.code})` : ''}`;
    }), diagnosisRefs),
    ...section(SECTIONS.medications, emr.medications.map((m) => `${medicationText(m)}: ${doseLine(m)}`), medications),
    ...section(SECTIONS.investigationAdvice, emr.investigations.map((t) => t.name), orders),
    ...section(SECTIONS.advice, emr.advice, advicePlan ? [advicePlan] : []),
    ...section(SECTIONS.followUp, followUp ? [`${followDay} (after ${plural(followUp.after)})${followUp.notes ? `: ${followUp.notes}` : ''}`] : [],
      appointment ? [appointment] : []),
  ];

  const signed = note.version >= 1;
  const composition: Composition = {
    resourceType: 'Composition',
    id: uuidFor(`${docKey}/composition`),
    // Version-independent: every version of the note is the same document, replaced by the next.
    identifier: { system: URI_SYSTEM, value: `urn:uuid:${uuidFor(`${note.id}/composition`)}` },
    language: emr.language,
    status: note.version > 1 ? 'amended' : signed ? 'final' : 'preliminary',
    type: snomed('371530004', 'Clinical consultation report'),
    subject: patient,
    encounter,
    date: note.date,
    author: [practitioner ?? organization],
    title: 'Consultation Report',
    ...(signed && practitioner ? { attester: [{ mode: 'legal', time: note.date, party: practitioner }] } : {}),
    custodian: organization,
    ...(note.version > 1 ? { relatesTo: [{ code: 'replaces', targetIdentifier: { system: URI_SYSTEM, value: `urn:uuid:${uuidFor(`${note.id}/${note.version - 1}/bundle`)}` } }] } : {}),
    section: sections,
  };

  return {
    resourceType: 'Bundle',
    identifier: { system: URI_SYSTEM, value: `urn:uuid:${uuidFor(`${docKey}/bundle`)}` },
    type: 'document',
    timestamp: note.date,
    entry: [{ fullUrl: `urn:uuid:${composition.id}`, resource: composition }, ...entries],
  };
}
