import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireScope } from '../../http/auth.js';
import { routePlugin } from '../../http/route-plugin.js';
import { ServiceError } from '../../shared/errors.js';
import {
  HistoryQuery, HistoryResponse, InitBody, InitConflict, InitParams, InitResponse, LanguageList, PresignBody, PresignQuery, PresignResponse, ScribeError as ScribeErrorSchema, SessionSummary,
  NoteHistoryFields, NoteHistoryQuery, NoteStatusQuery, StatusError, StatusParams, StatusQuery, StatusResponse, Unauthorized, ValidationDetails,
} from './schemas.js';
import { ScribeValidationError } from '../service.js';
import { UPLOAD_PATH } from './uploads.js';

const security: Record<string, string[]>[] = [{ bearer: [] }];

// The notes' additions to the status and list routes (docs/API.md, Notes: sign and amend).
const StatusQueryWithVersion = Type.Object({ ...StatusQuery.properties, ...NoteStatusQuery.properties });
const HistoryQueryWithOrder = Type.Object({ ...HistoryQuery.properties, ...NoteHistoryQuery.properties });
const HistoryWithNotes = Type.Object({
  ...HistoryResponse.properties,
  data: Type.Array(Type.Object({ ...SessionSummary.properties, ...NoteHistoryFields.properties }), { description: 'Newest first (created_at, then txn_id); with order=signed_first, signed notes first' }),
});


/** The receiver's absolute address, on the service's configured base (never the request's Host: DNS rebinding). */
const uploadUrl = (request: FastifyRequest) => {
  const base = request.server.baseUrl();
  if (!base) throw new ServiceError(503, 'NOT_READY', 'The server is not listening yet');
  return `${base}${UPLOAD_PATH}`;
};

/** Every 401 of the scribe's bearer routes, worded as upstream words it (the subtree's `signedIn` wording). */
export const SCRIBE_UNAUTHORIZED = 'Invalid or missing authentication token';

/**
 * Interface endpoint 7, as the upstream SDKs drive it (decisions.md, Scribe): presign, init and status (the upload
 * receiver between them is uploads.ts); and ours, the list of past sessions (docs/API.md, Scribe). Bearer auth (an
 * access token or a user's token) in a `signedIn` subtree worded SCRIBE_UNAUTHORIZED, scope `scribe`. Errors follow
 * upstream's shapes per route (server/http/errors.ts, styles scribe and scribe-status).
 */
export const scribeRoutes = routePlugin('scribe', ['audit', 'scribe'], async (api, { audit, scribe }) => {
  const allowed = requireScope('scribe', 'forbidden', audit, 'scribe.access');

  api.post('/v1/file-upload', {
    config: { errors: 'scribe' },
    preParsing: allowed,
    schema: {
      tags: ['scribe'],
      operationId: 'scribePresign',
      summary: 'Presign an upload for a transaction (step 1 of the scribe flow)',
      description: 'Creates the transaction\'s session (or finds it, before init) and returns a signed, expiring policy for '
        + 'the upload receiver. Errors {"error","code"}: 400 bad txn_id, action or body; 409 already initialized.',
      security,
      querystring: PresignQuery,
      body: PresignBody,
      response: { 200: PresignResponse, 400: ScribeErrorSchema, 401: Unauthorized, 403: ScribeErrorSchema, 409: InitConflict, 500: ScribeErrorSchema },
    },
  }, async (request) => scribe.presign(request.ctx, {
    txnId: request.query.txn_id, action: request.query.action, extraData: request.body ?? undefined, uploadUrl: uploadUrl(request),
  }));

  api.post('/voice/api/v2/transaction/init/:txn_id', {
    config: { errors: 'scribe' },
    preParsing: allowed,
    schema: {
      tags: ['scribe'],
      operationId: 'scribeInit',
      summary: 'Initialize a transaction: processing starts (step 3)',
      description: '201 once queued. 409 {"status":"error","message"} when already initialized; 422 {"details":[{loc,msg,type}]} '
        + 'for invalid parameters (unknown template, unsupported language id, no uploaded audio, …), and with type '
        + 'value_error.language_unavailable when no speech engine installed here recognises any of the languages (msg names '
        + 'the language and how to get a model). Languages of a mixed request that no engine covers with the others are left '
        + 'out, with a warning in every data.output[] entry.',
      security,
      params: InitParams,
      body: InitBody,
      response: { 201: InitResponse, 401: Unauthorized, 403: ScribeErrorSchema, 409: InitConflict, 422: ValidationDetails, 500: ScribeErrorSchema },
    },
  }, async (request, reply) => {
    try {
      return reply.code(201).send(await scribe.init(request.ctx, request.params.txn_id, request.body, await scribe.speechSurvey()));
    } catch (e) {
      if (e instanceof ScribeValidationError) return reply.code(422).send({ details: e.details });
      throw e;
    }
  });

  api.get('/voice/api/v2/languages', {
    config: { errors: 'scribe' },
    preParsing: allowed,
    schema: {
      tags: ['scribe'],
      operationId: 'scribeLanguages',
      summary: 'The input languages and whether this installation recognises each now (ours; not in the interface)',
      description: '200 {"languages":[{id, name, status, engines, reason}]}: status ready (engines lists the engines that recognise it), '
        + 'needs_model (a Whisper model download in Settings → Speech models would make it work) or unavailable (reason says why). '
        + 'Init refuses a request none of whose languages is ready.',
      security,
      response: { 200: LanguageList, 401: Unauthorized, 403: ScribeErrorSchema, 500: ScribeErrorSchema },
    },
  }, async () => ({ languages: await scribe.languages() }));

  api.get('/voice/api/v3/status/:session_id', {
    config: { errors: 'scribe-status' },
    preParsing: allowed,
    schema: {
      tags: ['scribe'],
      operationId: 'scribeSessionStatus',
      summary: 'A session\'s status and results (step 4)',
      description: '202 while processing (output empty; additional_data has status, stage, percent); 200 when every template '
        + 'succeeded; 206 when some failed, or the session failed (each entry then says why). 400 {"error":{"code":"transaction_not_found","msg"}} '
        + 'for an unknown transaction or another workspace\'s; 500 {"error":{"code":"system_error","msg"}}.',
      security,
      params: StatusParams,
      querystring: StatusQueryWithVersion,
      response: { 200: StatusResponse, 202: StatusResponse, 206: StatusResponse, 400: StatusError, 401: Unauthorized, 403: StatusError, 500: StatusError },
    },
  }, async (request, reply) => {
    const { code, body } = await scribe.status(request.ctx, request.params.session_id, request.query.version);
    return reply.code(code).send(body);
  });
  api.get('/voice/api/v2/sessions', {
    config: { errors: 'scribe' },
    preParsing: allowed,
    schema: {
      tags: ['scribe'],
      operationId: 'scribeSessions',
      summary: 'Past sessions of the workspace, newest first, optionally of one patient (ours; not in the interface)',
      description: '200 {"data":[{txn_id, status, stage, percent, patient_id, templates, errors, created_at, updated_at}],"next_cursor"}. '
        + 'Pages of limit (default 20, at most 100); next_cursor, passed back as cursor, gives the next page and is null on the last. '
        + 'Only the caller\'s workspace. Errors {"error","code"}: 400 INVALID_REQUEST (bad limit, status or patient_id) or invalid_cursor.',
      security,
      querystring: HistoryQueryWithOrder,
      response: { 200: HistoryWithNotes, 400: ScribeErrorSchema, 401: Unauthorized, 403: ScribeErrorSchema, 500: ScribeErrorSchema },
    },
  }, async (request) => {
    const { limit, ...rest } = request.query;
    return scribe.history(request.ctx, { ...rest, limit: limit === undefined ? undefined : Number(limit) });
  });
});
