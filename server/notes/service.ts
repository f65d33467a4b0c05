import type { Bundle } from '@medplum/fhirtypes';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import type { AppointmentService } from '../appointments/service.js';
import type { AuditLog } from '../audit/service.js';
import type { RequestContext } from '../auth/permissions.js';
import type { AuthService } from '../auth/service.js';
import { type Executor, transaction, type Tx } from '../db/tx.js';
import { type PatientService, patientAllergyReader } from '../patients/service.js';
import type { OutputEntry, SessionRequest } from '../scribe/pipeline/job.js';
import type { NoteReader, NoteStatus } from '../scribe/note-reader.js';
import type { ScribeService } from '../scribe/service.js';
import type { SessionRow } from '../scribe/store.js';
import { FLAG_CODES } from '../clinical-nlp/facts.js';
import { renderTemplate } from '../scribe/templates/render.js';
import { ServiceError, invalid } from '../shared/errors.js';
import { type Clock, isoNow } from '../shared/time.js';
import { type Violation, violationMessage } from '../shared/violations.js';
import type { WebhookService } from '../webhooks/service.js';
import { type NoteLink, noteBundle } from './fhir-export.js';
import { type AmendBody, type DraftBody, Emr, type FlagResolution, type SignBody } from './schemas.js';
import { RECHECKED } from './app-shapes.js';
import { type RecordedResolution, factsOf, findings, settle } from './safety.js';
import { type NoteRow, type VersionRow, noteStore } from './store.js';

/** The working draft as stored in notes.draft. */
interface StoredDraft {
  emr: Emr;
  resolutions: RecordedResolution[];
}


const notFound = (txnId: string) => new ServiceError(404, 'NOT_FOUND', `No scribe session ${txnId} in your clinic`);
const statusOf = (latest: number): NoteStatus => (latest === 0 ? 'draft' : latest === 1 ? 'signed' : 'amended');
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The EMR JSON of a session's own output (the scribe's draft), or null when the EMR template was not asked or failed.
 * Served as the scribe produced it, even where a value breaks the Emr schema (a dose 653 times a day): it is the
 * doctor's starting point, and the schema applies to what the doctor saves and signs (`emrViolation`), so such a
 * draft is corrected rather than lost.
 */
export function scribeDraftEmr(s: SessionRow): Emr | null {
  const request = s.request ? (JSON.parse(s.request) as SessionRequest) : null;
  const asked = request?.templates.find((t) => t.id === 'service_emr_template')?.asked;
  const entry = (JSON.parse(s.output ?? '[]') as OutputEntry[]).find((o) => o.template_id === asked && o.value);
  if (!entry) return null;
  return JSON.parse(Buffer.from(entry.value, 'base64').toString('utf8')) as Emr;
}

const emrSchema = Compile(Emr);

/** What is wrong with an EMR JSON, in the words of the routes' validation errors (`emr.medications.0.frequency.per_day must be at most 48`), or null. */
function emrViolation(emr: unknown): string | null {
  return emrSchema.Check(emr) ? null : violationMessage('emr', [...emrSchema.Errors(emr)] as Violation[]);
}

const FLAG_WARNING = new RegExp(`^(?:${FLAG_CODES.join('|')}) /`);
const encode = (json: unknown) => Buffer.from(JSON.stringify(json), 'utf8').toString('base64');

/**
 * A session's data.output[] with a signed version in place of the scribe's draft: the EMR entry is the signed EMR
 * JSON, the clinical notes are rendered from it; the transcript and the init's warnings are unchanged, the flag
 * warnings go (the doctor resolved every flag, and the signed EMR's flags say how).
 */
function signedOutput(s: SessionRow, emr: Emr): OutputEntry[] {
  const request = s.request ? (JSON.parse(s.request) as SessionRequest) : null;
  return (JSON.parse(s.output ?? '[]') as OutputEntry[]).map((o) => {
    const t = request?.templates.find((x) => x.asked === o.template_id);
    if (!t || t.id === 'transcript_template') return o;
    const json = t.id === 'service_emr_template'
      ? emr
      : renderTemplate('clinical_notes_template', {
        transcript: { text: '', language: emr.language, engine: '', segments: [] }, facts: factsOf(emr), codify: t.codify,
      }).json;
    return { ...o, value: encode(json), status: 'success', errors: [], warnings: o.warnings.filter((w) => !FLAG_WARNING.test(w)) };
  });
}

/** The read side of notes that the scribe's status and history use (scribe/note-reader.ts). Reads only. */
export function noteReader(db: Executor): NoteReader {
  const store = noteStore(db);
  return {
    latestVersion: async (sessionId) => (await store.note(sessionId))?.latest_version ?? 0,
    statusOf,
    async signedOutput(s, version) {
      const v = await store.version(s.id, version);
      return v && signedOutput(s, JSON.parse(v.emr) as Emr);
    },
    signedSessions: store.signedSessions,
  };
}

interface Deps {
  db: Executor;
  clock: Clock;
  audit: AuditLog;
  auth: AuthService;
  webhooks: WebhookService;
  appointments: AppointmentService;
  scribe: ScribeService;
  patients: PatientService;
}

/**
 * Notes (issue 15): the doctor's working draft of a scribe session's EMR JSON, signing it (version 1, immutable,
 * linked to the session, the patient and the appointment) and amending it (versions 2, 3, …, each with a reason).
 * The scribe's own output is never changed; it stays readable as version 0. Only a doctor writes a note.
 */
export function noteService({ db, clock, audit, auth, webhooks, appointments, scribe, patients }: Deps) {
  const store = noteStore(db);
  const allergiesOf = patientAllergyReader(db);

  function requireDoctor(ctx: RequestContext, action: string, what: string) {
    if (ctx.caller.kind === 'user' && ctx.caller.role === 'doctor') return;
    audit.later(ctx, { action, resourceType: 'note', outcome: 'denied' });
    throw new ServiceError(403, 'FORBIDDEN', `Only a doctor may ${what} a note`);
  }

  async function sessionOf(ctx: RequestContext, txnId: string, action: string): Promise<SessionRow> {
    const s = await scribe.session(ctx.caller.workspaceId, txnId);
    if (!s) {
      audit.later(ctx, { action, resourceType: 'note', outcome: 'not_found' });
      throw notFound(txnId);
    }
    return s;
  }

  function finished(s: SessionRow) {
    if (s.status !== 'completed' && s.status !== 'partial') {
      throw new ServiceError(409, 'SESSION_NOT_READY', `Session ${s.txn_id} is ${s.status === 'failed' ? 'failed' : 'not finished'}: only a finished session's note can be edited or signed`);
    }
  }

  /** Decided inside a transaction, thrown after it, so the refusal's audit entry is not rolled back with it. */
  class Refusal {
    constructor(readonly error: ServiceError, readonly outcome: 'conflict' | 'invalid') {}
  }

  async function refuseAfter<T>(ctx: RequestContext, action: string, s: SessionRow, run: (tx: Tx) => Promise<T | Refusal>): Promise<T> {
    const r = await transaction(db, run);
    if (r instanceof Refusal) {
      audit.later(ctx, { action, resourceType: 'note', resourceIds: [s.id], outcome: r.outcome });
      throw r.error;
    }
    return r;
  }

  /**
   * The EMR JSON to store: unknown fields dropped, the scribe's safety checks run again on the whole note
   * (safety.ts), and every flag (those the scribe or the version amended raised, those the checks find now, and any
   * other the client submits) carrying its resolution with who and when. A client cannot set those itself. A kept
   * allergy conflict or out-of-range dose without its reason refuses the save; `open` lists what is left to resolve.
   */
  function settleNote(ctx: RequestContext, emr: Emr, base: Emr | null, earlier: RecordedResolution[], given: FlagResolution[] = [], allergies: string[]) {
    const clean = Value.Clean(Emr, structuredClone(emr)) as Emr;
    // Compared as the service stores it: what the scribe produced beyond the schema is no change of the doctor's.
    const before = base && (Value.Clean(Emr, structuredClone(base)) as Emr);
    const submitted = (clean.flags ?? []).filter((f) => !RECHECKED.has(f.code));
    const r = settle({
      base: before, carried: [...(base?.flags ?? []), ...submitted], emr: clean, found: findings(clean, allergies), earlier, given,
      who: { by: ctx.caller.id, at: isoNow(clock) },
    });
    if (r.unreasoned.length) {
      return new Refusal(invalid(`Say why it is kept as is (reason, in flag_resolutions): an allergy conflict or a dose outside the usual range is kept only with a reason: ${r.unreasoned.join('; ')}`), 'invalid');
    }
    return { emr: { ...clean, flags: r.flags }, resolutions: r.resolutions, open: r.open };
  }

  const unresolved = (open: string[]) => new Refusal(new ServiceError(400, 'FLAGS_UNRESOLVED',
    `Resolve every safety flag first (edit what it is about, or keep it as is, in flag_resolutions): ${open.join('; ')}`), 'invalid');

  /** The allergies the checks use: those the scribe checked the dictation against, and the patient record's now. */
  async function allergiesFor(s: SessionRow): Promise<string[]> {
    const request = s.request ? (JSON.parse(s.request) as SessionRequest) : null;
    const now = s.patient_id ? await allergiesOf(s.workspace_id, s.patient_id) : [];
    return [...new Set([...(request?.patientAllergies ?? []), ...now])];
  }

  /** The resolutions a version records, to carry into the next one. */
  const resolutionsIn = (emr: Emr): RecordedResolution[] => (emr.flags ?? []).flatMap((f) =>
    f.resolution && f.resolved_by && f.resolved_at
      ? [{ code: f.code, pointer: f.pointer, resolution: f.resolution, by: f.resolved_by, at: f.resolved_at, message: f.message, ...(f.resolution_reason ? { reason: f.resolution_reason } : {}) }]
      : []);

  /** Each allergy conflict or out-of-range dose kept as is in `emr` that `before` did not keep: audited with the version. */
  async function auditOverrides(tx: Tx, ctx: RequestContext, s: SessionRow, emr: Emr, before: Emr | null) {
    // The reason is clinical text, which the audit log never holds: it is in the version; the entry names the flag.
    for (const f of newOverrides(emr, before)) {
      await audit.inTransaction(tx, ctx, { action: 'note.flag.kept', resourceType: 'note', resourceIds: [s.id, `${f.code} ${f.pointer}`], outcome: 'success' });
    }
  }
  const newOverrides = (emr: Emr, before: Emr | null) => (emr.flags ?? []).filter((f) => f.resolution_reason
    && !(before?.flags ?? []).some((b) => b.code === f.code && b.pointer === f.pointer && b.resolution_reason === f.resolution_reason && b.message === f.message));

  const draftOf = (n: NoteRow | undefined): StoredDraft | null => (n?.draft ? (JSON.parse(n.draft) as StoredDraft) : null);

  /** The appointment a signed note is of: asked for by id (must be this clinic's, of the same patient), or the session's if it is one here. */
  async function appointmentFor(ctx: RequestContext, s: SessionRow, given: string | undefined) {
    const named = (v: unknown) => (isPlainObject(v) && typeof v.appointment_id === 'string' ? v.appointment_id : undefined);
    const id = given ?? named(JSON.parse(s.additional_data ?? '{}')) ?? named(JSON.parse(s.extra_data));
    if (!id) return null;
    let appt;
    try {
      appt = (await appointments.get(ctx, id, false)).appointment;
    } catch (e) {
      if (!(e instanceof ServiceError) || e.status !== 404) throw e;
    }
    const fits = appt && (s.patient_id === null || appt.patient_id === s.patient_id);
    if (!fits && given !== undefined) throw invalid(`appointment_id ${given} is not an appointment of this session's patient in your clinic`);
    return fits ? appt! : null;
  }

  const sources = { auth, patients, appointments };

  /**
   * A note event's data. Its FHIR bundle is built as the export route builds it, from the version as stored, with
   * the signing doctor's reads, so that a subscription with the fhir option gets the document the route answers.
   * The bundle is built while the event is written, inside the signing's transaction: its reads go through `tx`.
   */
  function event(tx: Tx, ctx: RequestContext, s: SessionRow, n: NoteLink, v: VersionRow, emr: Emr) {
    return {
      transaction_id: s.txn_id, session_id: s.txn_id, patient_id: n.patient_id, appointment_id: n.appointment_id,
      version: v.version, signed_by: v.created_by, signed_at: v.created_at, ...(v.reason !== null ? { reason: v.reason } : {}), emr,
      fhir: () => noteBundle(sources, ctx, s, n, { ...v, emr: JSON.parse(v.emr) as Emr }, tx),
    };
  }

  async function saveDraft(ctx: RequestContext, txnId: string, body: DraftBody) {
    const action = 'note.draft.save';
    requireDoctor(ctx, action, 'edit');
    const s = await sessionOf(ctx, txnId, action);
    finished(s);
    const allergies = await allergiesFor(s);
    await refuseAfter(ctx, action, s, async (tx) => {
      const inTx = noteStore(tx);
      const n = await inTx.note(s.id);
      if (n && n.latest_version > 0) return new Refusal(new ServiceError(409, 'ALREADY_SIGNED', 'This note is signed: change it with an amendment (a reason is required)'), 'conflict');
      const now = isoNow(clock);
      // Flags still open are the doctor's to resolve before signing; the draft keeps them, found or not.
      const settled = settleNote(ctx, body.emr, scribeDraftEmr(s), draftOf(n)?.resolutions ?? [], body.flag_resolutions, allergies);
      if (settled instanceof Refusal) return settled;
      await inTx.ensure({ session_id: s.id, workspace_id: s.workspace_id, patient_id: s.patient_id, now });
      const draft: StoredDraft = { emr: settled.emr, resolutions: settled.resolutions };
      await inTx.saveDraft({ session_id: s.id, draft: JSON.stringify(draft), by: ctx.caller.id, now });
      await audit.inTransaction(tx, ctx, { action, resourceType: 'note', resourceIds: [s.id], outcome: 'success' });
      return undefined;
    });
    return workingDraft(ctx, txnId);
  }

  async function sign(ctx: RequestContext, txnId: string, body: SignBody) {
    const action = 'note.sign';
    requireDoctor(ctx, action, 'sign');
    const s = await sessionOf(ctx, txnId, action);
    finished(s);
    const appt = await appointmentFor(ctx, s, body.appointment_id);
    const allergies = await allergiesFor(s);
    const v = await refuseAfter(ctx, action, s, async (tx) => {
      const inTx = noteStore(tx);
      const n = await inTx.note(s.id);
      if (n && n.latest_version > 0) return new Refusal(new ServiceError(409, 'ALREADY_SIGNED', 'This note is already signed: change it with an amendment (a reason is required)'), 'conflict');
      const draft = draftOf(n);
      const ai = scribeDraftEmr(s);
      const emr = body.emr ?? draft?.emr ?? ai;
      if (!emr) return new Refusal(invalid('This session has no EMR JSON to sign (service_emr_template was not produced): send emr'), 'invalid');
      // The scribe's draft is not checked when it is read (scribeDraftEmr): signed as it is, it is checked here.
      const violation = emrViolation(emr);
      if (violation) return new Refusal(invalid(`${violation}: correct the draft before signing`), 'invalid');
      const settled = settleNote(ctx, emr, ai, draft?.resolutions ?? [], body.flag_resolutions, allergies);
      if (settled instanceof Refusal) return settled;
      if (settled.open.length) return unresolved(settled.open);
      const signed = settled.emr;
      const now = isoNow(clock);
      const patientId = s.patient_id ?? appt?.patient_id ?? null;
      await inTx.ensure({ session_id: s.id, workspace_id: s.workspace_id, patient_id: patientId, now });
      await inTx.sign({ session_id: s.id, patient_id: patientId, appointment_id: appt?.id ?? null, now });
      const row: VersionRow = { session_id: s.id, version: 1, kind: 'signed', emr: JSON.stringify(signed), reason: null, created_by: ctx.caller.id, created_at: now };
      await inTx.insertVersion(row);
      // With the doctor (ongoing): the consultation ends with the signature. Waiting, parked or done: left as it is.
      if (appt?.status === 'OG') await appointments.changeStatusIn(tx, ctx, appt.id, false, 'CM');
      await audit.inTransaction(tx, ctx, { action, resourceType: 'note', resourceIds: [s.id], outcome: 'success' });
      await auditOverrides(tx, ctx, s, signed, null);
      await webhooks.emit(tx, s.workspace_id, 'note.signed', event(tx, ctx, s, { patient_id: patientId, appointment_id: appt?.id ?? null }, row, signed));
      return row;
    });
    return version(ctx, txnId, String(v.version));
  }

  async function amend(ctx: RequestContext, txnId: string, body: AmendBody) {
    const action = 'note.amend';
    requireDoctor(ctx, action, 'amend');
    const s = await sessionOf(ctx, txnId, action);
    const allergies = await allergiesFor(s);
    const v = await refuseAfter(ctx, action, s, async (tx) => {
      const inTx = noteStore(tx);
      const n = await inTx.note(s.id);
      if (!n || n.latest_version === 0) return new Refusal(new ServiceError(409, 'NOT_SIGNED', 'This note is not signed yet: edit the draft and sign it'), 'conflict');
      const prev = JSON.parse((await inTx.version(s.id, n.latest_version))!.emr) as Emr;
      const settled = settleNote(ctx, body.emr, prev, resolutionsIn(prev), body.flag_resolutions, allergies);
      if (settled instanceof Refusal) return settled;
      if (settled.open.length) return unresolved(settled.open);
      const amended = settled.emr;
      const now = isoNow(clock);
      const row: VersionRow = {
        session_id: s.id, version: n.latest_version + 1, kind: 'amendment', emr: JSON.stringify(amended), reason: body.reason.trim(), created_by: ctx.caller.id, created_at: now,
      };
      if (!(await inTx.amend({ session_id: s.id, version: row.version, now }))) return new Refusal(new ServiceError(409, 'CONFLICT', 'The note changed meanwhile; read it again'), 'conflict');
      await inTx.insertVersion(row);
      await audit.inTransaction(tx, ctx, { action, resourceType: 'note', resourceIds: [s.id], outcome: 'success' });
      await auditOverrides(tx, ctx, s, amended, prev);
      await webhooks.emit(tx, s.workspace_id, 'note.amended', event(tx, ctx, s, n, row, amended));
      return row;
    });
    return version(ctx, txnId, String(v.version));
  }

  const nameOf = async (userId: string | null) => (userId ? (await auth.user(userId))?.display_name ?? null : null);

  async function summaries(s: SessionRow) {
    const ai = scribeDraftEmr(s);
    const signed = [];
    for (const v of await store.versions(s.id)) {
      signed.push({ version: v.version, kind: v.kind, reason: v.reason, created_by: v.created_by, created_by_name: await nameOf(v.created_by), created_at: v.created_at });
    }
    return [
      ...(ai ? [{ version: 0, kind: 'draft' as const, reason: null, created_by: null, created_by_name: null, created_at: s.finished_at ?? s.updated_at }] : []),
      ...signed,
    ];
  }

  async function versions(ctx: RequestContext, txnId: string) {
    const s = await sessionOf(ctx, txnId, 'note.read');
    const n = await store.note(s.id);
    audit.later(ctx, { action: 'note.read', resourceType: 'note', resourceIds: [s.id], outcome: 'success' });
    return {
      txn_id: s.txn_id, status: statusOf(n?.latest_version ?? 0), patient_id: n?.patient_id ?? s.patient_id, appointment_id: n?.appointment_id ?? null,
      latest_version: n?.latest_version ?? 0, versions: await summaries(s),
    };
  }

  /** One version: "draft" or 0 the scribe's, 1 the signed one, 2… amendments, "latest" the newest of them. */
  async function version(ctx: RequestContext, txnId: string, which: string) {
    const s = await sessionOf(ctx, txnId, 'note.read');
    const n = await store.note(s.id);
    const number = which === 'draft' ? 0 : which === 'latest' ? n?.latest_version ?? 0 : Number(which);
    const summary = (await summaries(s)).find((v) => v.version === number);
    const emr = number === 0 ? scribeDraftEmr(s) : (await store.version(s.id, number))?.emr;
    audit.later(ctx, { action: 'note.read', resourceType: 'note', resourceIds: [s.id], outcome: summary && emr ? 'success' : 'not_found' });
    if (!summary || !emr) throw new ServiceError(404, 'NOT_FOUND', number === 0 ? `Session ${txnId} has no EMR draft` : `Note ${txnId} has no version ${number}`);
    return { ...summary, txn_id: s.txn_id, emr: typeof emr === 'string' ? (JSON.parse(emr) as Emr) : emr };
  }

  /** The doctor's working draft, or the scribe's draft while nobody has saved edits. */
  async function workingDraft(ctx: RequestContext, txnId: string) {
    const s = await sessionOf(ctx, txnId, 'note.read');
    const n = await store.note(s.id);
    const draft = draftOf(n);
    const emr = draft?.emr ?? scribeDraftEmr(s);
    audit.later(ctx, { action: 'note.read', resourceType: 'note', resourceIds: [s.id], outcome: emr ? 'success' : 'not_found' });
    if (!emr) throw new ServiceError(404, 'NOT_FOUND', `Session ${txnId} has no EMR draft yet`);
    return {
      txn_id: s.txn_id, status: statusOf(n?.latest_version ?? 0), edited: draft !== null, updated_by: draft ? n!.draft_by : null,
      updated_at: draft ? n!.draft_at : null, emr, flag_resolutions: (draft?.resolutions ?? []).map(({ message: _said, ...r }) => r),
    };
  }

  /**
   * The note as a FHIR R4 document (fhir-export.ts). `which` is a version as the routes name them; "latest" is the
   * newest signed version and refuses a note nobody has signed, since an export stands for the clinical record: the
   * scribe's draft is exported only when asked for ("draft" or 0).
   */
  async function exportFhir(ctx: RequestContext, txnId: string, which = 'latest'): Promise<Bundle> {
    const v = await version(ctx, txnId, which);
    if (which === 'latest' && v.version === 0) {
      throw new ServiceError(409, 'NOT_SIGNED', `Note ${txnId} is not signed yet: sign it first, or ask for version=draft to export the scribe's draft as a preliminary document`);
    }
    const s = await sessionOf(ctx, txnId, 'note.export');
    const n = await store.note(s.id);
    audit.later(ctx, { action: 'note.export', resourceType: 'note', resourceIds: [s.id], outcome: 'success' });
    return noteBundle(sources, ctx, s, { patient_id: n?.patient_id ?? s.patient_id, appointment_id: n?.appointment_id ?? null }, v);
  }

  return { requireDoctor, saveDraft, sign, amend, versions, version, workingDraft, exportFhir };
}
export type NoteService = ReturnType<typeof noteService>;
