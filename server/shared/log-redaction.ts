/**
 * The one list of names whose values are credentials, wherever they sit in a log line's object: headers
 * (`Authorization`, `Cookie`, `auth`, `x-api-key`, as Fastify's and its plugins' lines carry them, e.g.
 * @fastify/multipart's "Providing options to busboy" with the request's headers) and body fields. Compared
 * case-insensitively with `-` read as `_`; a name ending in one of SUFFIXES counts too (`client_secret`,
 * `refresh_token`, `new_password`).
 */
const CREDENTIAL_NAMES = new Set([
  'authorization', 'proxy_authorization', 'auth', 'cookie', 'set_cookie', 'x_api_key', 'api_key', 'apikey',
  'password', 'passwd', 'secret', 'token', 'private_key', 'assertion', 'code_verifier', 'kek',
]);
const SUFFIXES = ['_password', '_secret', '_token', '_key'];

export const REDACTED = '[Redacted]';
const TRUNCATED = '[Truncated]';
const MAX_DEPTH = 8;

const isCredentialName = (key: string) => {
  const k = key.toLowerCase().replaceAll('-', '_');
  return CREDENTIAL_NAMES.has(k) || SUFFIXES.some((s) => k.endsWith(s));
};

const isPlain = (v: object) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Array.isArray(v);
};

/**
 * A copy of `value` with every credential's value replaced, for a logger's formatters (pino's `log` and
 * `bindings`, which child loggers inherit). Plain objects and arrays are walked (a request's headers object has a
 * null prototype); anything else (a request, an error) is left to its serializer, which picks safe fields. The
 * original is never changed: a logged object may be the live request's own headers.
 */
export function redactCredentials<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || !isPlain(value)) return value;
  // Not walked any further, so not logged either: a credential could sit below.
  if (depth > MAX_DEPTH) return TRUNCATED as T;
  if (Array.isArray(value)) return value.map((v) => redactCredentials(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isCredentialName(k) ? REDACTED : redactCredentials(v, depth + 1);
  return out as T;
}
