import { type Static, Type } from 'typebox';
import { Name } from '../shared/text.js';
import { SCOPES } from './permissions.js';

/**
 * Schemas of the app's own routes (sign-in, first run, the admin settings screens). The HTTP routes
 * (session-routes.ts, operations.ts) and the Electron IPC handlers (main/ipc.ts) validate with these same objects.
 */

// Spelled out (not mapped from ROLES/SCOPES) so that Static<> keeps the literal types; permissions.ts stays the source.
export const RoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('doctor'), Type.Literal('reception'), Type.Literal('display')]);
export const ScopeSchema = Type.Union([
  Type.Literal('patients:read'), Type.Literal('patients:write'), Type.Literal('appointments:read'), Type.Literal('appointments:write'),
  Type.Literal('notifications'), Type.Literal('webhooks'), Type.Literal('scribe'), Type.Literal('admin'), Type.Literal('queue:board'),
]);

const Username = Type.String({
  minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._@+-]+$',
  description: 'Letters, digits and . _ @ + - (no spaces)',
});
const NewPassword = Type.String({ minLength: 8, maxLength: 200, description: 'At least 8 characters' });
const DisplayName = Name({ minLength: 1, maxLength: 100, notBlank: true });

export const SignInBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
});
export type SignInBody = Static<typeof SignInBody>;

export const SessionUser = Type.Object({
  id: Type.String(),
  username: Type.String(),
  display_name: Type.String(),
  role: RoleSchema,
});
export const SessionWorkspace = Type.Object({
  id: Type.String(),
  name: Type.String(),
  country: Type.String(),
  timezone: Type.String(),
});
export const SessionInfo = Type.Object({ user: SessionUser, workspace: SessionWorkspace });
export type SessionInfo = Static<typeof SessionInfo>;
export const SignedIn = Type.Object({
  token: Type.String({ description: 'A long-lived user token for the auth header (or Authorization: Bearer); DELETE /api/v1/session revokes it' }),
  user: SessionUser,
  workspace: SessionWorkspace,
});
export type SignedIn = Static<typeof SignedIn>;

export const SetupStatus = Type.Object({ needed: Type.Boolean({ description: 'true while the database holds no clinic' }) });
export type SetupStatus = Static<typeof SetupStatus>;

export const SetupBody = Type.Object({
  clinic_name: Name({ minLength: 1, maxLength: 120, notBlank: true }),
  country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166 region of the clinic (default IN): how national mobiles are read' })),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone (default Asia/Kolkata): what "today" means' })),
  admin: Type.Object({ username: Username, password: NewPassword, display_name: Type.Optional(DisplayName) }),
});
export type SetupBody = Static<typeof SetupBody>;

export const User = Type.Object({
  id: Type.String(),
  username: Type.String(),
  display_name: Type.String(),
  role: RoleSchema,
  created_at: Type.String(),
  disabled_at: Type.Union([Type.String(), Type.Null()]),
});
export type User = Static<typeof User>;

export const NewUserBody = Type.Object({
  username: Username,
  password: NewPassword,
  display_name: Type.Optional(DisplayName),
  role: RoleSchema,
});
export type NewUserBody = Static<typeof NewUserBody>;

export const ChangePasswordBody = Type.Object({
  current_password: Type.String({ minLength: 1, maxLength: 200 }),
  new_password: NewPassword,
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

export const ResetPasswordBody = Type.Object({ new_password: NewPassword });
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

export const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
export const UserParams = Type.Object({ user_id: Id });
export const ClientParams = Type.Object({ client_id: Id });
export const KeyParams = Type.Object({ key_id: Id });

export const Doctor = Type.Object({ id: Type.String(), display_name: Type.String(), role: RoleSchema });
export type Doctor = Static<typeof Doctor>;

export const ApiClient = Type.Object({
  client_id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(ScopeSchema),
  created_at: Type.String(),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
});
export type ApiClient = Static<typeof ApiClient>;

export const NewApiClientBody = Type.Object({
  name: Name({ minLength: 1, maxLength: 100, notBlank: true }),
  scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length, uniqueItems: true }),
});
export type NewApiClientBody = Static<typeof NewApiClientBody>;

export const CreatedApiClient = Type.Object({
  client_id: Type.String(),
  client_secret: Type.String({ description: 'Shown once: only a hash is kept' }),
  name: Type.String(),
  scopes: Type.Array(ScopeSchema),
});
export type CreatedApiClient = Static<typeof CreatedApiClient>;

export const ApiKey = Type.Object({
  id: Type.String(),
  label: Type.String(),
  created_at: Type.String(),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
});
export type ApiKey = Static<typeof ApiKey>;

export const NewApiKeyBody = Type.Object({ label: Name({ minLength: 1, maxLength: 100, notBlank: true }) });
export type NewApiKeyBody = Static<typeof NewApiKeyBody>;

export const CreatedApiKey = Type.Object({
  id: Type.String(),
  label: Type.String(),
  api_key: Type.String({ description: 'Shown once (the X-API-KEY value): only a digest is kept' }),
});
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const Backup = Type.Object({
  name: Type.String(),
  path: Type.String({ description: 'Where the copy is on the clinic computer' }),
  size_bytes: Type.Integer(),
  created_at: Type.String(),
});
export type Backup = Static<typeof Backup>;
