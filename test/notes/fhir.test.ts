import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  AllergyIntolerance, Appointment, Bundle, CarePlan, Composition, Condition, Encounter, MedicationRequest, Observation, Resource, ServiceRequest,
} from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES, loadFixtures } from '../../eval/run.js';
import type { DictationOptions } from '../../preload/contract.js';
import { uploadDictation } from '../../preload/scribe-flow.js';
import { ScribeClient } from '../../sdk/scribe-client.js';
import type { DemoWorkspace } from '../../server/demo/demo.js';
import type { Language } from '../../server/scribe/contracts.js';
import { structure } from '../../server/clinical-nlp/structure.js';
import { renderTemplate } from '../../server/scribe/templates/render.js';
import { buildFhirBundle, dosageOf, type FhirExportInput } from '../../server/notes/fhir.js';
import type { Emr } from '../../server/notes/schemas.js';
import { documentProblems, errorsOf, vitalErrors } from '../helpers/fhir-validation.js';
import { missing } from '../helpers/needs.js';
import { call, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { type ScribeServer, startScribeServer } from '../helpers/scribe.js';
import { speak } from '../helpers/speech-audio.js';

const emrOf = (text: string, language: string): Emr => {
  const facts = structure(text, { locale: language });
  return renderTemplate('service_emr_template', { transcript: { text, language: language as Language, engine: 'fixture', segments: [] }, facts, codify: true }).json as Emr;
};

const PATIENT_ID = '7d1c6a52-3f0e-4b9a-9a51-0c7f2e1d9b11';
const full = (emr: Emr, over: Partial<FhirExportInput> = {}): FhirExportInput => ({
  emr,
  note: { id: '0b8f3c1e-2a44-4e5f-8d61-3c9a7b2e4f10', version: 1, date: '2026-03-30T06:15:02.123Z' },
  patient: { id: PATIENT_ID, first_name: 'Asha', last_name: 'Verma', gender: 'F', dob: '1994-07-12', mobile: '+919876543210' },
  practitioner: { id: 'c3e9a0d2-5b7f-4c1a-8e2d-9f4b6a1c3e57', name: 'Dr. Meera Rao', qualification: 'MBBS, MD (General Medicine)', registration_number: 'KMC 45678', registration_council: 'Karnataka Medical Council' },
  organization: { id: 'e2a7c9b4-1d3f-4a6e-b8c0-5f9d2e7a1b36', name: 'Sunrise Clinic', address: '12 MG Road, Bengaluru 560001', phone: '+918012345678' },
  encounter: { kind: 'appointment', id: 'a4b6c8d0-e2f4-4a6b-8c0d-2e4f6a8b0c1d', start: '2026-03-30T05:45:00.000Z' },
  timeZone: 'Asia/Kolkata',
  ...over,
});

const resources = <T extends Resource>(b: Bundle, type: T['resourceType']) =>
  (b.entry ?? []).map((e) => e.resource).filter((r): r is T => r?.resourceType === type);

const fixtures = DEFAULT_FIXTURES.every((f) => existsSync(f)) ? loadFixtures(DEFAULT_FIXTURES) : [];
const noFixtures = fixtures.length ? null : `the dev dictations are not at ${DEFAULT_FIXTURES.join(', ')}`;

describe('FHIR export of the dev dictations', skipFor(noFixtures), () => {
  const bundles = () => fixtures.map((r) => ({ id: r.id, emr: emrOf(r.transcript, r.locale), bundle: buildFhirBundle(full(emrOf(r.transcript, r.locale))) }));

  it('every dictation\'s bundle has zero validation errors against the R4 base definitions, and vitals against the R4 vital signs profiles', () => {
    const failures: string[] = [];
    let vitals = 0;
    for (const { id, bundle } of bundles()) {
      for (const i of errorsOf(bundle)) failures.push(`${id}: ${i.expression?.join(',')}: ${i.details?.text}`);
      for (const p of documentProblems(bundle)) failures.push(`${id}: ${p}`);
      for (const obs of resources<Observation>(bundle, 'Observation')) {
        const url = obs.meta?.profile?.[0];
        if (!url) continue;
        vitals++;
        for (const i of vitalErrors(obs)) failures.push(`${id}: ${url}: ${i.expression?.join(',')}: ${i.details?.text}`);
      }
    }
    expect(failures).toEqual([]);
    expect(fixtures.length).toBe(80);
    expect(vitals).toBeGreaterThan(100);
  });

  it('every medication\'s dosage timing says what the note says: per_day, as needed, duration', () => {
    let checked = 0;
    const wrong: string[] = [];
    for (const { id, emr, bundle } of bundles()) {
      const requests = resources<MedicationRequest>(bundle, 'MedicationRequest');
      expect(requests).toHaveLength(emr.medications.length);
      emr.medications.forEach((m, i) => {
        const dosages = requests[i]!.dosageInstruction!;
        const say = (what: string) => wrong.push(`${id} ${m.name} (${m.frequency?.text ?? 'no frequency'}): ${what}`);
        for (const d of dosages) {
          const r = d.timing?.repeat ?? {};
          const f = m.frequency;
          // Per day, whatever the period the timing is written in (every 6 hours: 1 per 6 h = 4 a day).
          const perDay = r.frequency !== undefined && r.period ? r.frequency / (r.period * { h: 1 / 24, d: 1, wk: 7 }[r.periodUnit as 'h' | 'd' | 'wk']) : undefined;
          const total = dosages.reduce((n, x) => n + (x.timing?.repeat?.frequency ?? 0), 0);
          if (f?.per_day != null && r.count === undefined) {
            if (dosages.length === 1 ? Math.abs(perDay! - f.per_day) > 1e-9 : total !== f.per_day) say(`per_day ${f.per_day}, timing ${JSON.stringify(r)}`);
          }
          if (f?.per_day != null && r.count === 1 && !/single dose/.test(f.text)) say('count 1 without "single dose"');
          if (f?.per_day === null && !f.as_needed && perDay === undefined && !/\bweek|other day|alternate/.test(f.text)) continue;
          if (f?.per_day === null && /\bonce a week|once weekly/.test(f.text) && !(r.frequency === 1 && r.period === 1 && r.periodUnit === 'wk')) say('not once a week');
          const asNeeded = d.asNeededBoolean === true || d.asNeededCodeableConcept !== undefined;
          if (asNeeded !== (f?.as_needed === true)) say(`as needed ${asNeeded}, the note ${f?.as_needed}`);
          if (f?.as_needed && m.instructions && d.asNeededCodeableConcept?.text !== m.instructions) say('the as-needed condition is not the instructions');
          const bounds = r.boundsDuration;
          if (m.duration && r.count === undefined) {
            const code = { day: 'd', week: 'wk', month: 'mo', year: 'a' }[m.duration.unit];
            if (bounds?.value !== m.duration.value || bounds.code !== code || bounds.system !== 'http://unitsofmeasure.org') say(`duration ${JSON.stringify(m.duration)}, bounds ${JSON.stringify(bounds)}`);
          } else if (!m.duration && bounds) say('bounds without a duration');
          if (m.timing === 'after food' && !r.when?.every((w) => w.startsWith('PC'))) say('after food is not PC (or after a given meal)');
          if (m.timing === 'at bedtime' && !r.when?.includes('HS')) say('at bedtime is not HS');
          if (m.dose && !d.doseAndRate?.[0]?.doseQuantity) say('no dose quantity');
        }
        checked++;
      });
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });

  it('puts each of the note\'s parts in its OPConsultRecord section, and the ICD-10 codes on the conditions', () => {
    const sectionCodes = new Set<string>();
    for (const { emr, bundle } of bundles()) {
      const composition = bundle.entry![0]!.resource as Composition;
      for (const s of composition.section ?? []) sectionCodes.add(s.code!.coding![0]!.code!);
      const conditions = resources<Condition>(bundle, 'Condition');
      const diagnoses = conditions.filter((c) => c.category?.[0]?.coding?.[0]?.code === 'encounter-diagnosis');
      expect(diagnoses.map((c) => c.code?.text)).toEqual(emr.diagnoses.map((d) => d.name));
      diagnoses.forEach((c, i) => {
        const code = emr.diagnoses[i]!.codes[0];
        if (code) expect(c.code?.coding?.[0]).toEqual({ system: 'http://hl7.org/fhir/sid/icd-10', code: code.code, display: code.display });
      });
      expect(resources<ServiceRequest>(bundle, 'ServiceRequest').map((s) => s.code?.text)).toEqual(emr.investigations.map((t) => t.name));
      expect(resources<Appointment>(bundle, 'Appointment')).toHaveLength(emr.follow_up ? 1 : 0);
    }
    // Chief complaints, physical examination (vitals), allergies, investigation advice, medications, follow up; diagnoses and advice (ours).
    for (const code of ['422843007', '425044008', '722446000', '721963009', '721912009', '390906007', '29548-5', '69730-0']) expect(sectionCodes).toContain(code);
  });
});

describe('FHIR export of one note', () => {
  const TEXT = 'forty year old male, fever since three days, cough since two weeks. allergic to penicillin. temperature one hundred one F, '
    + 'pulse ninety, BP one thirty over eighty five, spo2 ninety seven percent, weight seventy two kg. throat congested. '
    + 'diagnosis acute bronchitis. tab dolo six fifty one tablet t d s after food for five days. '
    + 'C B C. plenty of oral fluids. review after one month.';

  it('carries the patient, the doctor with qualification and registration, the clinic and the visit', () => {
    const b = buildFhirBundle(full(emrOf(TEXT, 'en-IN')));
    expect(errorsOf(b)).toEqual([]);
    expect(b).toMatchObject({ type: 'document', timestamp: '2026-03-30T06:15:02.123Z', identifier: { system: 'urn:ietf:rfc:3986' } });
    const [patient] = resources(b, 'Patient');
    expect(patient).toMatchObject({
      identifier: [{ system: 'urn:ietf:rfc:3986', value: `urn:uuid:${PATIENT_ID}` }], name: [{ text: 'Asha Verma', family: 'Verma', given: ['Asha'] }],
      gender: 'female', birthDate: '1994-07-12', telecom: [{ system: 'phone', value: '+919876543210', use: 'mobile' }],
    });
    expect(resources(b, 'Practitioner')[0]).toMatchObject({
      name: [{ text: 'Dr. Meera Rao' }], qualification: [{ code: { text: 'MBBS, MD (General Medicine)' } }],
      identifier: [{}, { type: { coding: [{ code: 'MD' }] }, value: 'KMC 45678', assigner: { display: 'Karnataka Medical Council' } }],
    });
    expect(resources(b, 'Organization')[0]).toMatchObject({ name: 'Sunrise Clinic', address: [{ text: '12 MG Road, Bengaluru 560001' }] });
    const composition = b.entry![0]!.resource as Composition;
    expect(composition).toMatchObject({
      status: 'final', type: { coding: [{ system: 'http://snomed.info/sct', code: '371530004' }] }, title: 'Consultation Report',
      attester: [{ mode: 'legal', time: '2026-03-30T06:15:02.123Z' }], author: [{ type: 'Practitioner' }], custodian: { type: 'Organization' },
    });
    const encounter = resources<Encounter>(b, 'Encounter')[0]!;
    expect(encounter).toMatchObject({ status: 'finished', class: { code: 'AMB' }, period: { start: '2026-03-30T05:45:00.000Z' } });
    expect(encounter.diagnosis).toHaveLength(1);
    expect(resources(b, 'AllergyIntolerance')[0]).toMatchObject({ code: { text: 'penicillin' }, clinicalStatus: { coding: [{ code: 'active' }] } });
  });

  it('writes vitals with LOINC codes and UCUM units, BP as a panel', () => {
    const obs = resources<Observation>(buildFhirBundle(full(emrOf(TEXT, 'en-IN'))), 'Observation');
    const byCode = Object.fromEntries(obs.map((o) => [o.code!.coding![0]!.code!, o]));
    expect(byCode['85354-9']!.component!.map((c) => [c.code.coding![0]!.code, c.valueQuantity!.value, c.valueQuantity!.code])).toEqual([['8480-6', 130, 'mm[Hg]'], ['8462-4', 85, 'mm[Hg]']]);
    expect(byCode['8867-4']!.valueQuantity).toMatchObject({ value: 90, code: '/min', system: 'http://unitsofmeasure.org' });
    expect(byCode['8310-5']!.valueQuantity).toMatchObject({ value: 101, code: '[degF]' });
    expect(byCode['2708-6']!.code!.coding!.map((c) => c.code)).toEqual(['2708-6', '59408-5']);
    expect(byCode['2708-6']!.valueQuantity).toMatchObject({ value: 97, code: '%' });
    expect(byCode['29463-7']!.valueQuantity).toMatchObject({ value: 72, code: 'kg' });
    for (const o of obs.filter((x) => x.meta?.profile)) expect(vitalErrors(o)).toEqual([]);
    expect(byCode['85354-9']!.component!.every((c) => c.valueQuantity!.system === 'http://unitsofmeasure.org' && c.code.coding![0]!.system === 'http://loinc.org')).toBe(true);
  });

  it('proposes the follow-up on the day it falls at the clinic, a month by the calendar', () => {
    // 05:45 UTC on 30 March is 11:15 in Bengaluru; a month later is 30 April.
    const b = buildFhirBundle(full(emrOf(TEXT, 'en-IN')));
    expect(resources<Appointment>(b, 'Appointment')[0]).toMatchObject({
      status: 'proposed', requestedPeriod: [{ start: '2026-04-30', end: '2026-04-30' }],
      participant: [{ actor: { type: 'Patient' }, status: 'needs-action' }, { actor: { type: 'Practitioner' }, status: 'needs-action' }],
    });
    // 20:00 UTC on 31 January is already 1 February in Bengaluru: five days later is 6 February.
    const emr = { ...emrOf(TEXT, 'en-IN'), follow_up: { after: { value: 5, unit: 'day' as const } } };
    const late = buildFhirBundle(full(emr, { encounter: { kind: 'session', id: 'txn-1', start: '2026-01-31T20:00:00.000Z' } }));
    expect(resources<Appointment>(late, 'Appointment')[0]!.requestedPeriod).toEqual([{ start: '2026-02-06', end: '2026-02-06' }]);
    // A complaint of two weeks began on the visit day less 14 days.
    expect(resources<Condition>(b, 'Condition').find((c) => c.code?.text === 'cough')?.onsetDateTime).toBe('2026-03-16');
  });

  it('needs only what a note.signed event carries: ids and the EMR JSON', () => {
    const b = buildFhirBundle({
      emr: emrOf(TEXT, 'en-IN'), note: { id: 'session-row-id', version: 1, date: '2026-03-30T06:15:02.123Z' },
      patient: { id: PATIENT_ID }, organization: { id: 'workspace-1' }, encounter: { kind: 'session', id: 'txn-1' },
    });
    expect(errorsOf(b)).toEqual([]);
    expect(documentProblems(b)).toEqual([]);
    expect((b.entry![0]!.resource as Composition).author).toEqual([expect.objectContaining({ type: 'Organization' })]);
  });

  it('lists the record\'s allergies the note does not name, and gives the advice section a plan of care (issue 24, item 17)', () => {
    const emr = emrOf(TEXT, 'en-IN');
    const input = full(emr);
    const b = buildFhirBundle({ ...input, patient: { ...input.patient, allergies: ['Penicillin', 'sulfa drugs'] } });
    expect(errorsOf(b)).toEqual([]);
    expect(documentProblems(b)).toEqual([]);
    // "Penicillin" in the record is the note's "penicillin": once.
    expect(resources<AllergyIntolerance>(b, 'AllergyIntolerance').map((a) => a.code?.text)).toEqual(['penicillin', 'sulfa drugs']);
    const sections = (b.entry![0]!.resource as Composition).section!;
    const byCode = (code: string) => sections.find((s) => s.code?.coding?.[0]?.code === code)!;
    expect(byCode('722446000').entry).toHaveLength(2);
    expect(emr.advice.length).toBeGreaterThan(0);
    const [plan] = resources<CarePlan>(b, 'CarePlan');
    expect(plan).toMatchObject({ status: 'active', intent: 'plan', subject: { type: 'Patient' } });
    expect(plan!.activity!.map((a) => a.detail?.description)).toEqual(emr.advice);
    expect(byCode('69730-0').entry).toEqual([{ reference: `urn:uuid:${plan!.id}`, type: 'CarePlan' }]);
  });

  it('is the same bundle for the same version; an amendment is a new document that replaces the previous one', () => {
    const input = full(emrOf(TEXT, 'en-IN'));
    const first = buildFhirBundle(input);
    expect(JSON.stringify(buildFhirBundle(input))).toBe(JSON.stringify(first));
    const amended = buildFhirBundle({ ...input, note: { ...input.note, version: 2, date: '2026-03-31T04:00:00.000Z' } });
    const c1 = first.entry![0]!.resource as Composition;
    const c2 = amended.entry![0]!.resource as Composition;
    expect(c2.status).toBe('amended');
    expect(c2.identifier).toEqual(c1.identifier);
    expect(amended.identifier).not.toEqual(first.identifier);
    expect(c2.relatesTo).toEqual([{ code: 'replaces', targetIdentifier: first.identifier }]);
    expect(errorsOf(amended)).toEqual([]);
    const draft = buildFhirBundle({ ...input, note: { ...input.note, version: 0 } });
    expect((draft.entry![0]!.resource as Composition)).toMatchObject({ status: 'preliminary' });
    expect((draft.entry![0]!.resource as Composition).attester).toBeUndefined();
  });
});

describe('dosage as FHIR Timing', () => {
  const med = (m: Partial<Emr['medications'][number]>) => ({ name: 'x', ...m });
  const freq = (per_day: number | null, text: string, as_needed = false, pattern?: string) => ({ per_day, text, as_needed, ...(pattern ? { pattern } : {}) });

  it('three times a day after food for five days, one tablet by mouth', () => {
    const [d] = dosageOf(med({ dose: { value: 1, unit: 'tablet' }, route: 'oral', frequency: freq(3, 'three times a day'), timing: 'after food', duration: { value: 5, unit: 'day' } }));
    expect(d).toMatchObject({
      timing: { repeat: { frequency: 3, period: 1, periodUnit: 'd', when: ['PC'], boundsDuration: { value: 5, unit: 'days', system: 'http://unitsofmeasure.org', code: 'd' } } },
      doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }],
      route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006' }], text: 'oral' },
    });
    expect(d!.asNeededBoolean).toBeUndefined();
  });

  it('a 1-0-2 pattern is two dosages taken together: morning and night, after meals', () => {
    const ds = dosageOf(med({ dose: { value: 1, unit: 'tablet' }, frequency: freq(2, 'twice daily', false, '1-0-2'), timing: 'after food' }));
    expect(ds.map((d) => [d.sequence, d.timing?.repeat?.when, d.doseAndRate?.[0]?.doseQuantity?.value])).toEqual([[1, ['PCM'], 1], [1, ['PCV'], 2]]);
    const [same] = dosageOf(med({ frequency: freq(2, 'twice daily', false, '1-0-1'), timing: 'before food' }));
    expect(same!.timing!.repeat).toMatchObject({ frequency: 2, period: 1, periodUnit: 'd', when: ['ACM', 'ACV'] });
  });

  it('before-meal offsets, hours between doses, weekly, alternate days and a single dose', () => {
    expect(dosageOf(med({ frequency: freq(2, '15 minutes before lunch and before dinner'), timing: '15 minutes before lunch and before dinner' }))[0]!.timing!.repeat)
      .toMatchObject({ when: ['ACD', 'ACV'], offset: 15 });
    expect(dosageOf(med({ frequency: freq(1, 'once'), timing: 'half an hour before breakfast' }))[0]!.timing!.repeat).toMatchObject({ when: ['ACM'], offset: 30 });
    expect(dosageOf(med({ frequency: freq(4, 'every 6 hours') }))[0]!.timing!.repeat).toEqual({ frequency: 1, period: 6, periodUnit: 'h' });
    expect(dosageOf(med({ frequency: freq(null, 'twice a week') }))[0]!.timing!.repeat).toEqual({ frequency: 2, period: 1, periodUnit: 'wk' });
    expect(dosageOf(med({ frequency: freq(null, 'every other day') }))[0]!.timing!.repeat).toEqual({ frequency: 1, period: 2, periodUnit: 'd' });
    expect(dosageOf(med({ frequency: freq(1, 'single dose'), duration: { value: 3, unit: 'day' } }))[0]!.timing!.repeat).toEqual({ count: 1 });
    // "At night and after food" is after dinner; "with milk" has no code and stays as words.
    const [night] = dosageOf(med({ frequency: freq(1, 'once at night'), timing: 'at night and after food' }));
    expect(night!.timing!.repeat!.when).toEqual(['PCV']);
    expect(dosageOf(med({ frequency: freq(1, 'once daily'), timing: 'with milk' }))[0]).toMatchObject({ additionalInstruction: [{ text: 'with milk' }] });
  });

  it('as needed: the condition when the note gives one, else a plain yes; a stated maximum is the frequency', () => {
    const [cond] = dosageOf(med({ frequency: freq(4, 'every 6 hours as needed', true), instructions: 'if fever above 100' }));
    expect(cond).toMatchObject({ asNeededCodeableConcept: { text: 'if fever above 100' }, timing: { repeat: { frequency: 1, period: 6, periodUnit: 'h' } } });
    expect(cond!.patientInstruction).toBeUndefined();
    const [plain] = dosageOf(med({ frequency: freq(null, 'as needed', true) }));
    expect(plain).toMatchObject({ asNeededBoolean: true });
    expect(plain!.timing).toBeUndefined();
  });
});

/**
 * The export over HTTP against the real service: a dictation spoken by espeak-ng runs through the real scribe,
 * the doctor signs it, and GET /api/v1/notes/{txn_id}/fhir serves the signed version as a valid document.
 */
describe('GET /api/v1/notes/{txn_id}/fhir', skipFor(missing('espeak-ng', 'pocketsphinx', 'ffmpeg')), () => {
  let srv: ScribeServer;
  let A: DemoWorkspace;
  let B: DemoWorkspace;
  let txn: string;
  // No number next to another: the recogniser would run "six fifty" and "three times" into one.
  const SAID = 'The patient has fever for two days. Tablet paracetamol. Take it twice daily after food for three days. Review after one week.';
  const OPTIONS: DictationOptions = { templates: ['service_emr_template'], language: 'en-IN', mode: 'dictation', model_type: 'pro', codify: true };
  const api = (method: string, path: string, token: string, body?: unknown) => call(srv.baseUrl, method, path, { headers: { authorization: `Bearer ${token}` }, body });
  const fhir = (token: string, query = '') => api('GET', `/api/v1/notes/${txn}/fhir${query}`, token);

  beforeAll(async () => {
    srv = await startScribeServer({ speechModel: true });
    [A, B] = srv.demo.workspaces as [DemoWorkspace, DemoWorkspace];
    const wav = join(tempDir('fhir'), 'dictation.wav');
    await speak(SAID, wav);
    const client = new ScribeClient({ baseUrl: srv.baseUrl, auth: A.users.doctor.auth_token });
    const rec = { id: 'fhir-1', mime_type: 'audio/wav', patient_id: A.patients[0]!.patient_id };
    ({ txn_id: txn } = await uploadDictation(client, rec, new Blob([readFileSync(wav)]), OPTIONS, () => undefined));
    await client.waitForSession(txn, { intervalMs: 250, timeoutMs: 120_000 });
  }, 300_000);
  afterAll(async () => {
    await srv?.close();
  });

  it('refuses an unsigned note (409 NOT_SIGNED) but exports the scribe\'s draft when asked, as a preliminary document', async () => {
    const r = await fhir(A.users.doctor.auth_token);
    expect(r.status, r.text).toBe(409);
    expect(r.json).toStrictEqual({ error: { code: 'NOT_SIGNED', message: expect.any(String) } });
    const draft = await fhir(A.users.doctor.auth_token, '?version=draft');
    expect(draft.status, draft.text).toBe(200);
    expect((draft.json.entry[0].resource as Composition).status).toBe('preliminary');
  });

  it('serves the signed note as a valid FHIR document, application/fhir+json, the same on every read', async () => {
    const draft = await api('GET', `/api/v1/notes/${txn}/draft`, A.users.doctor.auth_token);
    const flags = (draft.json.emr.flags ?? []) as { code: string; pointer: string }[];
    const signed = await api('POST', `/api/v1/notes/${txn}/sign`, A.users.doctor.auth_token, {
      flag_resolutions: flags.map((f) => ({ code: f.code, pointer: f.pointer, resolution: 'kept' })),
    });
    expect(signed.status, signed.text).toBe(201);
    // The prescription profile (the doctor's qualification and registration, the clinic's address) goes into the document.
    const me = await api('GET', '/api/v1/me', A.users.doctor.auth_token);
    const profile = await api('PUT', `/api/v1/users/${me.json.user.id}/profile`, A.users.doctor.auth_token, { qualification: 'MBBS, MD', registration_number: 'KMC 45678' });
    expect(profile.status, profile.text).toBe(200);
    const clinic = await api('PUT', '/api/v1/clinic', A.users.admin.auth_token, { address: '12 MG Road, Bengaluru 560001' });
    expect(clinic.status, clinic.text).toBe(200);
    const r = await fhir(A.users.doctor.auth_token);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    const bundle = r.json as Bundle;
    expect(errorsOf(bundle)).toEqual([]);
    expect(documentProblems(bundle)).toEqual([]);
    const composition = bundle.entry![0]!.resource as Composition;
    expect(composition).toMatchObject({ status: 'final', date: signed.json.created_at, attester: [{ mode: 'legal' }] });
    const patient = A.patients[0]!;
    expect(resources(bundle, 'Patient')[0]).toMatchObject({ identifier: [{ value: `urn:uuid:${patient.patient_id}` }] });
    expect(resources(bundle, 'Practitioner')[0]).toMatchObject({
      name: [{ text: me.json.user.display_name }], qualification: [{ code: { text: 'MBBS, MD' } }], identifier: [{}, { type: { coding: [{ code: 'MD' }] }, value: 'KMC 45678' }],
    });
    expect(resources(bundle, 'Organization')[0]).toMatchObject({ name: expect.any(String), address: [{ text: '12 MG Road, Bengaluru 560001' }] });
    expect(resources<MedicationRequest>(bundle, 'MedicationRequest').map((m) => m.medicationCodeableConcept?.text)).toEqual(
      (signed.json.emr.medications as { name: string }[]).map((m) => expect.stringContaining(m.name)));
    expect((await fhir(A.users.doctor.auth_token, '?version=1')).text).toBe(r.text);
  });

  it('is refused for reception (403 FORBIDDEN) and is 404 for another clinic\'s doctor', async () => {
    const reception = await fhir(A.users.reception.auth_token);
    expect(reception.status, reception.text).toBe(403);
    expect(reception.json.error.code).toBe('FORBIDDEN');
    const other = await fhir(B.users.doctor.auth_token);
    expect(other.status, other.text).toBe(404);
    expect(other.json.error.code).toBe('NOT_FOUND');
  });
});
