import type { Scope } from '../auth/permissions.js';

/**
 * Scopes an assistant may ask for on our API (the resource server's scopes). They are the service's own
 * permission names; `admin` is never delegated to an assistant. What a token finally carries is what the user
 * approved, narrowed to what the user's role holds, and the API checks the role again on every request.
 */
export const API_SCOPES = [
  'patients:read', 'patients:write', 'appointments:read', 'appointments:write', 'notifications', 'webhooks', 'scribe',
] as const satisfies readonly Scope[];
export type ApiScope = (typeof API_SCOPES)[number];

export const isApiScope = (s: string): s is ApiScope => (API_SCOPES as readonly string[]).includes(s);

/** OpenID Connect scopes the provider supports (the "static" scopes of oidc-provider). */
export const OIDC_SCOPES = ['openid', 'profile', 'offline_access'] as const;

/** What each scope lets an assistant do, in the words the consent page shows. */
export const SCOPE_WORDS: Record<string, string> = {
  openid: 'Know who you are (your Clinic Desk user id)',
  profile: 'See your name and username',
  offline_access: 'Stay connected when you are not signed in here (until you disconnect it)',
  'patients:read': 'Search patients by mobile number and read their profiles',
  'patients:write': 'Register patients and edit their details',
  'appointments:read': 'See appointments, including today\'s list',
  'appointments:write': 'Change appointments: park them, mark no-shows, check patients in',
  notifications: 'Register devices and send push notifications',
  webhooks: 'Manage webhook subscriptions',
  scribe: 'Start dictation (scribe) sessions and read the clinical notes they produce',
};
