import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../shared/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The base of every absolute URL the service hands out: the configured public URL, else the listening address
     * (null before it listens). Never the request's Host, which a DNS-rebinding page or a proxy chooses.
     */
    baseUrl(): string | null;
  }
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const isWildcard = (address: string) => address === '0.0.0.0' || address === '::';
const urlHost = (address: string) => (address.includes(':') ? `[${address}]` : address);

/**
 * The name in a Host header (or a configured host name), as the URL parser reads it: lower case, IPv6 in brackets,
 * without port or a trailing dot; null for anything that is not a bare host[:port].
 */
export function hostName(value: string): string | null {
  let u: URL;
  try {
    u = new URL(`http://${value}`);
  } catch {
    return null;
  }
  if (u.username || u.password || u.pathname !== '/' || u.search || u.hash || value.includes('/')) return null;
  return u.hostname.replace(/\.$/, '');
}

/** The machine's own interface addresses: what a LAN client types when the service listens on every interface. */
const interfaceNames = () => Object.values(networkInterfaces()).flat().flatMap((a) => (a ? [urlHost(a.address.toLowerCase())] : []));

/**
 * The address other computers reach this server at: the bound address; for a wildcard bind the machine's first
 * LAN IPv4 address (what the desktop's Settings show, main/links.ts), else loopback. It also works from this
 * computer, whereas loopback would not work from any other.
 */
export function listeningUrl(server: Server): string | null {
  const a = server.address() as AddressInfo | string | null;
  if (!a || typeof a === 'string') return null;
  const host = isWildcard(a.address)
    ? (Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address ?? '127.0.0.1')
    : a.address;
  return `http://${urlHost(host)}:${a.port}`;
}

/**
 * The refusal, to give before any route runs, of a request whose Host is not one of this service's names: loopback,
 * the address it listens on (every interface's address for a wildcard bind), the public URL's host, and the
 * configured extra names. A DNS-rebinding page reaches us under its own name, so it is refused (421), and so is an
 * HTTP/1.1 request without Host (400). Ports are not compared: the name is what a rebinding attacker controls. Also
 * sets the app's baseUrl from the same configuration. The caller runs the check in its first hook (http/app.ts): one
 * hook less on every request.
 */
export function hostGuard(app: FastifyInstance, opts: { publicUrl?: string; allowedHosts: string[] }): (request: FastifyRequest) => ServiceError | null {
  const fixed = new Set(LOOPBACK_NAMES);
  for (const entry of [...opts.allowedHosts, ...(opts.publicUrl ? [new URL(opts.publicUrl).host] : [])]) {
    const name = hostName(entry);
    if (!name) throw new Error(`allowed host ${entry} is not a host name or address`);
    fixed.add(name);
  }
  let anyInterface = false;
  app.addHook('onListen', async () => {
    const a = app.server.address();
    if (!a || typeof a === 'string') return;
    if (isWildcard(a.address)) anyInterface = true;
    else fixed.add(urlHost(a.address.toLowerCase()));
  });
  // Interfaces come and go (DHCP, VPN), so a wildcard bind asks the system on a miss rather than keeping a list.
  // Host headers already found among the fixed names (which only grow), so a request does not parse a URL again:
  // a handful of distinct values in practice, capped so a client sending many cannot grow it.
  const seen = new Set<string>();
  const allowed = (header: string) => {
    if (seen.has(header)) return true;
    const name = hostName(header);
    if (name !== null && fixed.has(name)) {
      if (seen.size < 64) seen.add(header);
      return true;
    }
    return name !== null && anyInterface && interfaceNames().includes(name);
  };

  app.decorate('baseUrl', () => opts.publicUrl ?? listeningUrl(app.server));

  return (request) => {
    const host = request.headers.host;
    if (host === undefined) {
      // HTTP/1.0 has no Host to rebind (and browsers always send one); HTTP/1.1 requires it (RFC 9112 §3.2).
      if (request.raw.httpVersion === '1.0') return null;
      return new ServiceError(400, 'INVALID_REQUEST', 'A Host header is required');
    }
    if (allowed(host)) return null;
    return new ServiceError(421, 'MISDIRECTED_REQUEST',
      'This service does not answer to that host name; use its own address (an admin can add names: CLINIC_DESK_ALLOWED_HOSTS)');
  };
}
