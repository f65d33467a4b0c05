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

export function drOk<T>(reply: FastifyReply, status: number, data: T) {
  return reply.code(status).send({ data, status_code: status, success: true });
}

export interface ErrorParts {
  status: number;
  code: string;
  message: string;
  requestId?: string;
}

/**
 * `envelope` for the patient endpoints and every 401; `bare` for the appointment endpoints. The interface's 404
 * PATIENTS_NOT_FOUND body has no `data`, unlike its other envelope errors.
 */
export function drErrorBody(style: 'envelope' | 'bare', e: ErrorParts) {
  const error = { code: e.code, message: e.message, ...(e.requestId ? { request_id: e.requestId } : {}) };
  if (style === 'bare' && e.status !== 401) return { error };
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
  Object.fromEntries(statuses.map((s) => [s, style === 'bare' && s !== 401 ? DrBareError : DrErrorEnvelope]));
