import { checkFirst, requireScope } from '../http/auth.js';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { routePlugin } from '../http/route-plugin.js';
import { AmendBody, DraftBody, NoteParams, SignBody, Version, VersionList, VersionParams, WorkingDraft } from './schemas.js';

const tags = ['notes'];

/**
 * A scribe session's note (docs/API.md, "Notes: sign and amend"): the doctor's working draft, signing, amendments
 * and the versions. Same credentials as the scribe routes (bearer or auth header) and its `scribe` scope; writing
 * needs a doctor besides (403 FORBIDDEN). Errors are `{"error":{"code","message"}}`; another clinic's session is 404.
 */
export const noteRoutes = routePlugin('notes', ['notes', 'audit'], async (app, { notes, audit }) => {
  const config = { errors: 'plain' as const };
  const preParsing = requireScope('scribe', 'FORBIDDEN', audit, 'note.access');
  // Writing is a doctor's: checked with the scope, before the body is read and validated (http/auth.ts says why).
  const doctorOnly = (action: string, what: string) => [preParsing, checkFirst((request) => notes.requireDoctor(request.ctx, action, what))];

  app.get('/api/v1/notes/:txn_id/draft', {
    config, preParsing,
    schema: {
      operationId: 'getNoteDraft', tags, security, params: NoteParams,
      summary: 'The working draft of a session\'s note: the doctor\'s saved edits, else the scribe\'s EMR JSON',
      response: { 200: WorkingDraft, ...plainErrors([400, 401, 403, 404, 500]) },
    },
  }, async (request) => notes.workingDraft(request.ctx, request.params.txn_id));

  app.put('/api/v1/notes/:txn_id/draft', {
    config, preParsing: doctorOnly('note.draft.save', 'edit'),
    schema: {
      operationId: 'saveNoteDraft', tags, security, params: NoteParams, body: DraftBody,
      summary: 'Save the doctor\'s edits before signing (the scribe\'s own draft stays unchanged); doctors only',
      description: 'emr is the whole EMR JSON (service_emr_template); flag_resolutions say, per safety flag, edited or kept (as is), '
        + 'recorded with who and when. 409 ALREADY_SIGNED once signed (amend instead), 409 SESSION_NOT_READY before the session finished.',
      response: { 200: WorkingDraft, ...plainErrors([400, 401, 403, 404, 409, 500]) },
    },
  }, async (request) => notes.saveDraft(request.ctx, request.params.txn_id, request.body));

  app.post('/api/v1/notes/:txn_id/sign', {
    config, preParsing: doctorOnly('note.sign', 'sign'),
    schema: {
      operationId: 'signNote', tags, security, params: NoteParams, body: SignBody,
      summary: 'Sign the note: version 1, immutable; doctors only',
      description: 'Signs emr if given, else the working draft, else the scribe\'s draft. Every safety flag must be resolved (400 FLAGS_UNRESOLVED). '
        + 'An ongoing appointment of the note becomes completed. Raises note.signed. 409 ALREADY_SIGNED on a second sign.',
      response: { 201: Version, ...plainErrors([400, 401, 403, 404, 409, 500]) },
    },
  }, async (request, reply) => reply.code(201).send(await notes.sign(request.ctx, request.params.txn_id, request.body ?? {})));

  app.post('/api/v1/notes/:txn_id/amendments', {
    config, preParsing: doctorOnly('note.amend', 'amend'),
    schema: {
      operationId: 'amendNote', tags, security, params: NoteParams, body: AmendBody,
      summary: 'Amend a signed note: a new version with its reason (required); doctors only',
      description: 'Raises note.amended. 409 NOT_SIGNED before signing.',
      response: { 201: Version, ...plainErrors([400, 401, 403, 404, 409, 500]) },
    },
  }, async (request, reply) => reply.code(201).send(await notes.amend(request.ctx, request.params.txn_id, request.body)));

  app.get('/api/v1/notes/:txn_id/versions', {
    config, preParsing,
    schema: {
      operationId: 'listNoteVersions', tags, security, params: NoteParams,
      summary: 'The note\'s versions, oldest first: the scribe\'s draft (0), the signed version (1), amendments (2…)',
      response: { 200: VersionList, ...plainErrors([400, 401, 403, 404, 500]) },
    },
  }, async (request) => notes.versions(request.ctx, request.params.txn_id));

  app.get('/api/v1/notes/:txn_id/versions/:version', {
    config, preParsing,
    schema: {
      operationId: 'getNoteVersion', tags, security, params: VersionParams,
      summary: 'One version of the note with its EMR JSON: draft (= 0), 1, 2…, or latest',
      response: { 200: Version, ...plainErrors([400, 401, 403, 404, 500]) },
    },
  }, async (request) => notes.version(request.ctx, request.params.txn_id, request.params.version));
});
