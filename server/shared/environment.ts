import { ServiceError } from './errors.js';

/**
 * Which of the two environments a service is (docs/API.md, Sandbox): production, the clinic's real data, or the
 * sandbox, synthetic data for integrators. Each has its own database, so its own signing keys and secrets; what
 * this adds is that a credential says which one issued it, so a mix-up is refused in words rather than as an
 * unknown token. As payment APIs mark test keys (sk_test_), sandbox credentials carry `_test_` after their kind:
 * cdt_test_ user tokens, cdk_test_ API keys, cdc_test_ client ids, cds_test_ client secrets, cdr_test_ refresh
 * tokens; sandbox access tokens are JWTs issued by `clinic-desk-sandbox`. Live formats are unchanged.
 */
export type EnvironmentName = 'production' | 'sandbox';

export const ENVIRONMENT_HEADER = 'x-clinic-desk-environment';

const KINDS: Record<string, string> = { cdt: 'auth token', cdk: 'API key', cdc: 'client id', cds: 'client secret', cdr: 'refresh token' };
const CREDENTIAL = /^(cd[tkcsr])_/;
const SANDBOX_MARK = 'test';
const ISSUERS: Record<EnvironmentName, string> = { production: 'clinic-desk', sandbox: 'clinic-desk-sandbox' };

export interface Environment {
  readonly name: EnvironmentName;
  /** The `iss` of access tokens from the token endpoint. */
  readonly issuer: string;
  /** The newToken prefix of a credential kind here: `cdk` in production, `cdk_test` in the sandbox. */
  prefix(kind: keyof typeof KINDS): string;
  /** The other environment's base address while it runs, for the refusal's advice; set by whoever starts it. */
  peerUrl: string | null;
  /** Throws the documented 401 when `credential` (a token, key, id or secret as presented) belongs to the other environment. */
  refuseForeign(credential: string): void;
  /** The same for an access token's (unverified) `iss`. */
  refuseForeignIssuer(iss: unknown): void;
}

/** Which environment issued a credential, judged by its form alone; null for anything not in our formats. */
export function credentialEnvironment(credential: string): EnvironmentName | null {
  const kind = CREDENTIAL.exec(credential)?.[1];
  if (!kind) return null;
  return credential.startsWith(`${kind}_${SANDBOX_MARK}_`) ? 'sandbox' : 'production';
}

export function environment(name: EnvironmentName): Environment {
  const other: EnvironmentName = name === 'sandbox' ? 'production' : 'sandbox';
  const env: Environment = {
    name,
    issuer: ISSUERS[name],
    peerUrl: null,
    prefix: (kind) => (name === 'sandbox' ? `${kind}_${SANDBOX_MARK}` : kind),
    refuseForeign(credential) {
      if (credentialEnvironment(credential) === other) throw foreign(KINDS[credential.slice(0, 3)]!);
    },
    refuseForeignIssuer(iss) {
      if (iss === ISSUERS[other] || (env.peerUrl !== null && iss === env.peerUrl)) throw foreign('access token');
    },
  };
  const foreign = (what: string) => new ServiceError(401, 'UNAUTHORIZED_ACCESS', other === 'sandbox'
    ? `This is a sandbox ${what}; use it with the sandbox${env.peerUrl ? ` at ${env.peerUrl}` : ' (this clinic\'s sandbox is not running)'}, or use a live ${what} here`
    : `This is a live (production) ${what}; the sandbox accepts only sandbox credentials (cdk_test_…, cds_test_…): use it at ${env.peerUrl ?? 'the clinic\'s service address'}, or use a sandbox ${what} here`);
  return env;
}
