import type { AuditLog } from '../audit/service.js';
import type { RequestContext } from '../auth/permissions.js';
import { ServiceError } from '../shared/errors.js';
import { type ClientStatus, TXN_ID, clientStatus, sessionStatus } from './formats.js';
import type { SessionRequest } from './job.js';
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
}

const badQuery = (code: string, message: string) => new ServiceError(400, code, message);

// The cursor is the last row's sort key, opaque to clients (base64url JSON) so the key can change without
// breaking them; a page boundary stays put when newer sessions arrive meanwhile.
const encodeCursor = (s: SessionRow) => Buffer.from(JSON.stringify([s.created_at, s.txn_id])).toString('base64url');

function decodeCursor(cursor: string): { created_at: string; txn_id: string } {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = null;
  }
  if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string' || !TXN_ID.test(v[1])) {
    throw badQuery('invalid_cursor', 'cursor must be the next_cursor of an earlier page, unchanged');
  }
  return { created_at: v[0], txn_id: v[1] };
}

function summary(s: SessionRow): SessionSummary {
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
  };
}

/** GET /voice/api/v2/sessions: the caller's workspace's sessions, newest first, a page at a time. */
export function sessionHistory(store: ScribeStore, audit: AuditLog) {
  return function list(ctx: RequestContext, q: HistoryQuery): { data: SessionSummary[]; next_cursor: string | null } {
    const limit = q.limit ?? HISTORY_LIMIT.default;
    const rows = store.list({
      workspaceId: ctx.caller.workspaceId, patientId: q.patient_id, status: q.status && sessionStatus(q.status),
      after: q.cursor === undefined ? undefined : decodeCursor(q.cursor), limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    audit.later(ctx, { action: 'scribe.session.list', resourceType: 'scribe_session', resourceIds: page.map((s) => s.id), outcome: 'success' });
    return { data: page.map(summary), next_cursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null };
  };
}
