/**
 * What a caller may do. API clients carry scopes chosen when they were created; users carry their role's
 * scopes, optionally narrowed per auth token. One vocabulary for both, so every route asks one question.
 */
export const SCOPES = [
  'patients:read',
  'patients:write',
  'appointments:read',
  'appointments:write',
  'notifications',
  'webhooks',
  'scribe',
  'admin',
  'queue:board',
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['admin', 'doctor', 'reception', 'display'] as const;
export type Role = (typeof ROLES)[number];

const FRONT_DESK: Scope[] = ['patients:read', 'patients:write', 'appointments:read', 'appointments:write', 'notifications', 'queue:board'];

/** display: a waiting-room screen signed in on a TV, which may read the queue board (first names and tokens) only. */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  admin: SCOPES,
  doctor: [...FRONT_DESK, 'scribe'],
  reception: FRONT_DESK,
  display: ['queue:board'],
};

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** Who is calling: resolved once per request from its credentials. */
export interface Caller {
  /** patient: a patient answering a reminder (server/reminders), who may change that one appointment only. */
  kind: 'user' | 'client' | 'patient';
  /** users.id, api_clients.client_id or patients.id */
  id: string;
  workspaceId: string;
  /** false when the workspace was disabled: the caller is known but may reach no clinic data. */
  workspaceActive: boolean;
  role: Role | null;
  scopes: ReadonlySet<Scope>;
}

/**
 * The kind of a staff caller (a user or an API client), for what only staff own (devices, scribe sessions). A
 * patient caller acts on one appointment through the reminders domain and reaches nothing else.
 */
export function staffKind(caller: Caller): 'user' | 'client' {
  if (caller.kind === 'patient') throw new Error('a patient caller reached a staff-only operation');
  return caller.kind;
}

/** Request facts every audited operation needs. */
export interface RequestContext {
  caller: Caller;
  ip: string | null;
  requestId: string | null;
}

/** Context of a caller that could not be identified (no or bad credentials): what the audit trail records of a refusal. */
export interface AnonymousContext {
  caller: null;
  ip: string | null;
  requestId: string | null;
}

export const can = (caller: Caller, scope: Scope) => caller.workspaceActive && caller.scopes.has(scope);

/**
 * Installation-wide views and operations (backups, which hold every clinic's data; the data folder's place and
 * size) belong to the installation owner: the admins of the clinic created first on this installation, which is
 * the one first-run setup makes on a fresh install. Other clinics' admins run their own clinic only.
 */
export const ownsInstallation = (caller: Caller, ownerWorkspaceId: string | undefined) =>
  can(caller, 'admin') && caller.workspaceId === ownerWorkspaceId;
