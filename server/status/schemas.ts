import { type Static, Type } from 'typebox';
import { ScribeReadiness } from '../scribe/readiness.js';

/** The service's status: the installation-wide fields only for the installation owner's admins (docs/API.md, Hardening). */
export const ServerStatus = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  base_url: Type.String({ description: 'Where local integrations reach this service' }),
  data_dir: Type.Optional(Type.String({ description: 'The data folder; only for the admins of the clinic that owns the installation' })),
  database_bytes: Type.Optional(Type.Integer({ description: 'Every clinic\'s database; only for the admins of the clinic that owns the installation' })),
  started_at: Type.String(),
  uptime_s: Type.Integer(),
  scribe: ScribeReadiness,
});
export type ServerStatus = Static<typeof ServerStatus>;
