import { isIP } from 'node:net';
import { invalid } from './errors.js';

/** Whether a URL's hostname is this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

/**
 * An address the service sends credentials to: https, or http on a loopback address (local stand-ins and tests),
 * never with credentials of its own. 400 naming `field` otherwise.
 */
export function checkHttpsOrLoopback(value: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${field} is not a URL`);
  }
  if (url.username || url.password) throw invalid(`${field} must not carry credentials`);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) return url;
  throw invalid(`${field} must be an https URL (http only on a loopback address)`);
}
