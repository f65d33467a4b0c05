import type { FastifyReply } from 'fastify';
import { type TSchema, Type } from 'typebox';

/**
 * The dr response envelope of the interface, in one place: every /dr success goes through `drOk`, every /dr
 * error through `drErrorBody`, and every /dr route's schema through `DrEnvelope`.
 */
export const DrEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ data, status_code: Type.Integer(), success: Type.Literal(true) });

const ErrorObject = Type.Object({
  code: Type.String(),
  message: Type.String(),
  request_id: Type.Optional(Type.String({ description: 'Present on 5xx: quote it when reporting the problem' })),
});

export const DrErrorEnvelope = Type.Object({
  data: Type.Optional(Type.Object({})),
  status_code: Type.Integer(),
  success: Type.Literal(false),
  error: ErrorObject,
});

/** The bare error body of the appointment endpoints. */
export const DrBareError = Type.Object({ error: ErrorObject });

/** A 500 of a bare route: bare, or the envelope when the request's JSON was malformed. */
const DrBare500 = Type.Object({
  data: Type.Optional(Type.Object({})),
  status_code: Type.Optional(Type.Integer()),
  success: Type.Optional(Type.Literal(false)),
  error: ErrorObject,
}, { description: 'Bare {error}; the dr envelope when the request body was malformed JSON' });

export function drOk<T>(reply: FastifyReply, status: number, data: T) {
  return reply.code(status).send({ data, status_code: status, success: true });
}

export interface ErrorParts {
  status: number;
  code: string;
  message: string;
  requestId?: string;
  /** decisions.md: malformed JSON on any /dr route is answered in the envelope, bare routes included. */
  envelope?: boolean;
}

/**
 * `envelope` for the patient endpoints, every 401 and malformed JSON; `bare` for the appointment endpoints. The interface's 404
 * PATIENTS_NOT_FOUND body has no `data`, unlike its other envelope errors.
 */
export function drErrorBody(style: 'envelope' | 'bare', e: ErrorParts) {
  const error = { code: e.code, message: e.message, ...(e.requestId ? { request_id: e.requestId } : {}) };
  if (style === 'bare' && e.status !== 401 && !e.envelope) return { error };
  return {
    ...(e.code === 'PATIENTS_NOT_FOUND' ? {} : { data: {} }),
    status_code: e.status,
    success: false,
    error,
  };
}

/** OpenAPI security of dr routes: the `auth` header, or a bearer token as upstream SDKs send it. */
export const security: Record<string, string[]>[] = [{ authHeader: [] }, { bearer: [] }];

/** OpenAPI response entries for a dr route's errors. */
export const drErrors = (style: 'envelope' | 'bare', statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, style === 'envelope' || s === 401 ? DrErrorEnvelope : s === 500 ? DrBare500 : DrBareError]));
