import type { Static } from 'typebox';
import type { PushCredentialsSchema } from './app-api.js';
import type { FcmCredsInfo } from './schemas.js';

/** The stored push key as Settings shows it (never the private key). Types and mappers only: the renderer bundles this. */
export type PushCredentials = Static<typeof PushCredentialsSchema>;

export const toPushCredentials = (c: FcmCredsInfo): PushCredentials => ({
  project_id: c.sa_key.project_id, client_email: c.sa_key.client_email, private_key_id: c.sa_key.private_key_id, token_uri: c.sa_key.token_uri,
  created_at: c.created_at, updated_at: c.updated_at,
});
