/**
 * Production or sandbox, as the upstream SDKs take an environment (theirs pick api.eka.care or api.dev.eka.care,
 * and an explicit base URL wins). Clinic Desk runs at each clinic, so there is no fixed address: `baseUrl` is the
 * clinic's service, and its sandbox is `sandboxUrl`, by default the same address one port up (what the service
 * picks unless told otherwise; docs/API.md, Sandbox).
 *
 * Credentials say which environment issued them (sandbox ones carry `_test_` after their kind: cdk_test_…,
 * cds_test_…, cdc_test_…, cdt_test_…, cdr_test_…). The SDK refuses to send one to the other environment, so a
 * live client secret never travels to a sandbox (or the reverse) by a configuration slip.
 */
export type Environment = 'production' | 'sandbox';

export interface EnvironmentOptions {
  /** The clinic's service address (production). */
  baseUrl: string;
  /** production (default) or sandbox. */
  environment?: Environment;
  /** The sandbox's address when it is not the service's port + 1 (e.g. behind a proxy). */
  sandboxUrl?: string;
}

/** The address calls go to in the chosen environment. */
export function environmentUrl(o: EnvironmentOptions): string {
  const base = o.baseUrl.replace(/\/+$/, '');
  if ((o.environment ?? 'production') === 'production') return base;
  if (o.sandboxUrl) return o.sandboxUrl.replace(/\/+$/, '');
  const url = new URL(base);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  url.port = String(port + 1);
  return url.toString().replace(/\/+$/, '');
}

/**
 * Which environment issued a Clinic Desk credential, by its form; null for other strings (JWTs, foreign tokens).
 * The service's own rule (server/shared/environment.ts), restated: the SDK stands alone in an integrator's code.
 */
export function credentialEnvironment(credential: string): Environment | null {
  const kind = /^(cd[tkcsr])_/.exec(credential)?.[1];
  if (!kind) return null;
  return credential.startsWith(`${kind}_test_`) ? 'sandbox' : 'production';
}

/** Thrown before any request when a credential belongs to the other environment. */
export class EnvironmentMismatchError extends Error {
  constructor(readonly environment: Environment, readonly credentialEnvironment: Environment, what: string) {
    super(`${what} is a ${credentialEnvironment === 'sandbox' ? 'sandbox' : 'live (production)'} credential, but the client is set to ${environment}: use ${credentialEnvironment} credentials with environment '${credentialEnvironment}'`);
    this.name = 'EnvironmentMismatchError';
  }
}

/** Throws EnvironmentMismatchError when any named credential belongs to the other environment. */
export function checkCredentials(environment: Environment, credentials: Record<string, string | undefined>) {
  for (const [what, value] of Object.entries(credentials)) {
    const issuedBy = value === undefined ? null : credentialEnvironment(value);
    if (issuedBy && issuedBy !== environment) throw new EnvironmentMismatchError(environment, issuedBy, what);
  }
}
