/** Sites the renderer links to: code chips open the code's page at the WHO (ICD-10) or at LOINC. */
const EXTERNAL_HOSTS = new Set(['icd.who.int', 'loinc.org']);

/**
 * The URL to hand to the system browser for a link the renderer opens, or null to open nothing: https to one of
 * the sites above, or a page of the embedded service itself (its API reference). Anything else (other sites,
 * file:, javascript:, a lookalike host) is refused, so a link planted in clinic data cannot launch arbitrary URLs.
 */
export function vettedExternalUrl(url: string, serviceBaseUrls: readonly string[]): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.username || u.password) return null;
  if (u.protocol === 'https:' && EXTERNAL_HOSTS.has(u.hostname) && !u.port) return u.href;
  const ownService = serviceBaseUrls.some((b) => new URL(b).origin === u.origin);
  if (ownService && (u.pathname === '/docs' || u.pathname.startsWith('/docs/'))) return u.href;
  return null;
}
