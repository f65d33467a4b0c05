import { describe, expect, it } from 'vitest';
import { vettedExternalUrl } from '../../main/links.js';

/** main/links.ts: which links the Electron window may hand to the system browser. */
describe('vettedExternalUrl', () => {
  const own = ['http://127.0.0.1:4810', 'http://192.168.1.20:4810'];
  it.each([
    ['https://icd.who.int/browse10/2019/en#/J20.9', 'https://icd.who.int/browse10/2019/en#/J20.9'],
    ['https://loinc.org/8480-6', 'https://loinc.org/8480-6'],
    ['http://127.0.0.1:4810/docs', 'http://127.0.0.1:4810/docs'],
    ['http://192.168.1.20:4810/docs/static/index.html', 'http://192.168.1.20:4810/docs/static/index.html'],
  ])('opens %s', (url, expected) => {
    expect(vettedExternalUrl(url, own)).toBe(expected);
  });

  it.each([
    'https://evil.example/',
    'http://icd.who.int/browse10', // not https
    'https://icd.who.int.evil.example/',
    'https://user:pw@loinc.org/',
    'https://loinc.org:8443/',
    'http://127.0.0.1:4810/api/v1/admin', // our service, but not its reference
    'http://127.0.0.1:4811/docs', // another local port
    'file:///docs',
    'javascript:alert(1)',
    'mailto:x@example.com',
    'not a url',
  ])('refuses %s', (url) => {
    expect(vettedExternalUrl(url, own)).toBeNull();
  });
});
