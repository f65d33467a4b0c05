import type { AuditLog } from '../audit/service.js';
import type { NoteReader, NoteStatus } from './note-reader.js';
import type { RequestContext } from '../auth/permissions.js';
import { ServiceError } from '../shared/errors.js';
import { type ClientStatus, TXN_ID, clientStatus, sessionStatus } from './formats.js';
import type { SessionRequest } from './pipeline/job.js';
import type { ScribeStore, SessionRow } from './store.js';

/** Default and largest page of GET /voice/api/v2/sessions. */
export const HISTORY_LIMIT = { default: 20, max: 100 } as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const patientIdIn = (o: unknown): string | null => {
  if (!isPlainObject(o)) return null;
  const details = isPlainObject(o.patient_details) ? o.patient_details : {};
  // patient_details.oid is where upstream's SDKs put the patient's id; the app sends patient_id.
  for (const v of [o.patient_id, details.patient_id, details.oid]) {
    const id = typeof v === 'string' ? v.trim() : '';
    if (id.length >= 1 && id.length <= 128) return id;
  }
  return null;
};

/**
 * The patient a session is about, from the first source that names one (the init body, its additional_data, the
 * sidecar, the presign extra_data): `patient_id`, or `patient_details.patient_id` / `.oid`, a string of 1-128
 * characters. Recorded for the history only: a value of another type is ignored rather than failing an upload
 * that upstream would have taken.
 */
export function patientIdOf(...sources: unknown[]): string | null {
  for (const s of sources) {
    const id = patientIdIn(s);
    if (id) return id;
  }
  return null;
}

export interface HistoryQuery {
  patient_id?: string;
  status?: ClientStatus;
  limit?: number;
  cursor?: string;
  /** signed_first: sessions with a signed note first (newest first), then the others (newest first). Default newest. */
  order?: 'newest' | 'signed_first';
}

export interface SessionSummary {
  txn_id: string;
  status: ClientStatus;
  stage: string;
  percent: number;
  patient_id: string | null;
  templates: string[];
  errors: string[];
  created_at: string;
  updated_at: string;
  /** draft: finished, not signed; signed / amended: a doctor signed it (and amended it); null: no result to sign. */
  note_status: NoteStatus | null;
  /** The latest signed version (1 signed, 2… amended); 0 while a draft or without a result. */
  note_version: number;
}

const badQuery = (code: string, message: string) => new ServiceError(400, code, message);

// The cursor is the last row's sort key, opaque to clients (base64url JSON) so the key can change without
// breaking them; a page boundary stays put when newer sessions arrive meanwhile. In a signed-first list it also
// says which part the row was in ("s" signed, "u" the others).
const encodeCursor = (s: SessionRow, part?: 's' | 'u') =>
  Buffer.from(JSON.stringify(part ? [s.created_at, s.txn_id, part] : [s.created_at, s.txn_id])).toString('base64url');

function decodeCursor(cursor: string): { created_at: string; txn_id: string; part?: 's' | 'u' } {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = null;
  }
  if (!Array.isArray(v) || v.length < 2 || v.length > 3 || typeof v[0] !== 'string' || typeof v[1] !== 'string' || !TXN_ID.test(v[1])
    || (v.length === 3 && v[2] !== 's' && v[2] !== 'u')) {
    throw badQuery('invalid_cursor', 'cursor must be the next_cursor of an earlier page, unchanged');
  }
  return { created_at: v[0], txn_id: v[1], ...(v.length === 3 ? { part: v[2] as 's' | 'u' } : {}) };
}

async function summary(s: SessionRow, notes: NoteReader): Promise<SessionSummary> {
  const latest = await notes.latestVersion(s.id);
  const finished = s.status === 'completed' || s.status === 'partial';
  const request = s.request ? (JSON.parse(s.request) as SessionRequest) : null;
  return {
    txn_id: s.txn_id,
    status: clientStatus(s.status),
    stage: s.stage,
    percent: s.percent,
    patient_id: s.patient_id,
    templates: request?.templates.map((t) => t.asked) ?? [],
    errors: JSON.parse(s.errors) as string[],
    created_at: s.created_at,
    updated_at: s.updated_at,
    note_status: latest > 0 ? notes.statusOf(latest) : finished ? 'draft' : null,
    note_version: latest,
  };
}

/**
 * GET /voice/api/v2/sessions: the caller's workspace's sessions, newest first, a page at a time; with order
 * signed_first, those with a signed note first (the patient's past visits), then the rest.
 */
export function sessionHistory(store: ScribeStore, notes: NoteReader, audit: AuditLog) {
  /** The unsigned part of a signed-first list: the scribe's list without the signed sessions, read in batches. */
  async function unsigned(p: Parameters<ScribeStore['list']>[0]): Promise<SessionRow[]> {
    const out: SessionRow[] = [];
    let after = p.after;
    for (;;) {
      const batch = await store.list({ ...p, after, limit: p.limit });
      for (const s of batch) if (!((await notes.latestVersion(s.id)) > 0)) out.push(s);
      if (out.length >= p.limit || batch.length < p.limit) return out.slice(0, p.limit);
      after = batch.at(-1)!;
    }
  }

  return async function list(ctx: RequestContext, q: HistoryQuery): Promise<{ data: SessionSummary[]; next_cursor: string | null }> {
    const limit = q.limit ?? HISTORY_LIMIT.default;
    const cursor = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    const filter = { workspaceId: ctx.caller.workspaceId, patientId: q.patient_id, status: q.status && sessionStatus(q.status) };
    let page: SessionRow[];
    let next: string | null;
    if (q.order === 'signed_first') {
      const signed = cursor?.part === 'u' ? [] : await notes.signedSessions({ ...filter, after: cursor, limit: limit + 1 });
      const rest = signed.length > limit ? [] : await unsigned({ ...filter, after: cursor?.part === 'u' ? cursor : undefined, limit: limit + 1 - signed.length });
      const rows = [...signed, ...rest];
      page = rows.slice(0, limit);
      const last = page.at(-1);
      next = rows.length > limit && last ? encodeCursor(last, page.length <= signed.length ? 's' : 'u') : null;
    } else {
      const rows = await store.list({ ...filter, after: cursor, limit: limit + 1 });
      page = rows.slice(0, limit);
      next = rows.length > limit ? encodeCursor(page.at(-1)!) : null;
    }
    audit.later(ctx, { action: 'scribe.session.list', resourceType: 'scribe_session', resourceIds: page.map((s) => s.id), outcome: 'success' });
    const data: SessionSummary[] = [];
    for (const s of page) data.push(await summary(s, notes));
    return { data, next_cursor: next };
  };
}
