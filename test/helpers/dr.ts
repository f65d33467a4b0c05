import { expect } from 'vitest';
import type { call } from './server.js';

/** Assertions on the interface's /dr response shapes, shared by the endpoint tests. */
export type Res = Awaited<ReturnType<typeof call>>;

export const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const auth = (token: string) => ({ auth: token });
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const messageMatcher = (message?: string | RegExp) =>
  message === undefined ? expect.stringMatching(/\S/) : typeof message === 'string' ? message : expect.stringMatching(message);

function expectError(res: Res, status: number, code: string, message: string | RegExp | undefined, wrap: (error: object) => object) {
  expect(res.status, res.text).toBe(status);
  const error: Record<string, unknown> = { code, message: messageMatcher(message) };
  if (status >= 500) error.request_id = res.headers.get('x-request-id');
  expect(res.json).toStrictEqual(wrap(error));
  expect(res.headers.get('x-request-id')).toMatch(/\S/);
}

/** The dr error envelope, exactly: data {} (absent for PATIENTS_NOT_FOUND), status_code, success false, error. */
export function expectDrError(res: Res, status: number, code: string, message?: string | RegExp) {
  expectError(res, status, code, message, (error) => ({
    ...(code === 'PATIENTS_NOT_FOUND' ? {} : { data: {} }), status_code: status, success: false, error,
  }));
}

/** The bare error body of the parked and change-status endpoints: exactly {error: {code, message}}. */
export function expectBareError(res: Res, status: number, code: string, message?: string | RegExp) {
  expectError(res, status, code, message, (error) => ({ error }));
}

/** The dr success envelope: exactly data, status_code and success true. Returns data. */
export function expectDrOk(res: Res, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.json).sort()).toEqual(['data', 'status_code', 'success']);
  expect(res.json.status_code).toBe(status);
  expect(res.json.success).toBe(true);
  expect(res.headers.get('x-request-id')).toMatch(/\S/);
  return res.json.data;
}
