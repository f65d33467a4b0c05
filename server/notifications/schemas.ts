import { type Static, Type } from 'typebox';
import { Line } from '../shared/text.js';

const Text = (maxLength: number, description?: string) => Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
const OptText = (maxLength: number, description?: string) => Type.Optional(Type.String({ maxLength, ...(description ? { description } : {}) }));

/** The service-account key as Google issues it (the JSON file), under `sa_key`. */
export const SaKey = Type.Object({
  type: Type.String({ maxLength: 64, description: 'Must be service_account' }),
  project_id: Text(100, 'The Firebase project id'),
  private_key_id: OptText(200, 'Sent as the kid of the JWT assertion'),
  private_key: Text(16_384, 'PEM RSA private key (2048 bits or more). Stored encrypted; never returned'),
  client_email: Text(320, 'The service account\'s e-mail: the issuer of the JWT assertion'),
  client_id: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Number()], { description: 'A number or a string' })),
  auth_uri: OptText(2048),
  token_uri: Text(2048, 'Where the JWT assertion is exchanged for an access token: https (http only on a loopback address)'),
  auth_provider_x509_cert_url: OptText(2048),
  client_x509_cert_url: OptText(2048),
  universal_domain: OptText(253, 'The interface\'s name for universe_domain'),
  universe_domain: OptText(253, 'Google\'s name; either is accepted'),
});
export type SaKey = Static<typeof SaKey>;

export const FcmCredsBody = Type.Object({ sa_key: SaKey });
export type FcmCredsBody = Static<typeof FcmCredsBody>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** What GET returns: the stored key's metadata, never the private key. */
export const FcmCredsInfo = Type.Object({
  sa_key: Type.Object({
    type: Type.Literal('service_account'),
    project_id: Type.String(),
    private_key_id: Nullable(Type.String()),
    client_email: Type.String(),
    client_id: Nullable(Type.String({ description: 'Always returned as a string' })),
    auth_uri: Nullable(Type.String()),
    token_uri: Type.String(),
    auth_provider_x509_cert_url: Nullable(Type.String()),
    client_x509_cert_url: Nullable(Type.String()),
    universe_domain: Nullable(Type.String()),
    universal_domain: Nullable(Type.String({ description: 'Same value as universe_domain' })),
  }),
  created_at: Type.String({ description: 'When credentials were first stored for this workspace' }),
  updated_at: Type.String({ description: 'When they were last replaced' }),
});
export type FcmCredsInfo = Static<typeof FcmCredsInfo>;

export const DevicePayload = Type.Object({
  did: Line({ minLength: 1, maxLength: 256, description: 'Any id unique to the device' }),
  'fcm-id': Text(4096, 'The device\'s FCM registration token'),
  'app-version': Line({ minLength: 1, maxLength: 64 }),
  'app-platform': Type.Optional(Line({ maxLength: 32, description: 'android, ios, web…' })),
  'app-id': Type.Optional(Line({ maxLength: 64 })),
  fid: OptText(256),
  lang: Type.Optional(Line({ maxLength: 35 })),
  'os-version': Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 32 })])),
  'user-hash': OptText(256),
});
export type DevicePayload = Static<typeof DevicePayload>;

export const AddDeviceBody = Type.Object({ devicePayload: DevicePayload });

export const DeviceHeaders = Type.Object({ 'device-id': Type.String({ minLength: 1, maxLength: 256, description: 'The did the device was added with' }) });

export const DeviceInfo = Type.Object({
  did: Type.String(),
  'app-version': Type.String(),
  'app-platform': Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type DeviceInfo = Static<typeof DeviceInfo>;

export const Message = Type.Object({ message: Type.String() });
export const Success = Type.Object({ success: Type.Literal(true) });
export const NotificationError = Type.Object({
  message: Type.String(),
  error_code: Type.Integer({ description: 'Equals the HTTP status' }),
});
