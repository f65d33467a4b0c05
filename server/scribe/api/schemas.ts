import { Type } from 'typebox';
import { LANGUAGES } from '../contracts.js';
import { CLIENT_STATUSES } from '../formats.js';
import { HISTORY_LIMIT } from '../history.js';
import { NoteStatus } from '../note-reader.js';

/**
 * Schemas of the scribe routes, for the OpenAPI document. Request bodies are described but checked by the service
 * (init answers 422 {"details":[…]} listing every problem, which a schema's first-error 400 could not), so every
 * field here is loose.
 */

export const PresignQuery = Type.Object({
  txn_id: Type.Optional(Type.String({ description: 'Client-chosen transaction id (1-128 of A-Z a-z 0-9 . _ : -); a uuid is made when absent' })),
  action: Type.Optional(Type.String({ description: 'scribe-v2 (ekascribe-v2 accepted); default scribe-v2' })),
});

export const PresignBody = Type.Unknown({ description: 'extra_data: a JSON object, e.g. {"mode":"dictation","model_type":"lite"}; optional' });

export const PresignResponse = Type.Object({
  uploadData: Type.Object({
    url: Type.String({ description: 'The service\'s own upload receiver, on the origin this request reached' }),
    fields: Type.Object({
      key: Type.String({ description: 'folderPath + ${filename}; set it to folderPath + the file name' }),
      policy: Type.String({ description: 'Signed policy: workspace, transaction, folder, expiry, largest file' }),
      signature: Type.String({ description: 'HMAC-SHA256 of policy' }),
      'x-clinic-desk-expires': Type.String({ description: 'When the policy expires (informational)' }),
    }),
  }),
  folderPath: Type.String({ description: '<b_id>/<txn_id>/<yyyymmdd_hhmmss>/' }),
  txn_id: Type.String(),
});

export const InitParams = Type.Object({ txn_id: Type.String() });

export const InitBody = Type.Unknown({
  description: 'JSON object: mode (dictation|consultation), input_language[] (' + LANGUAGES.join(', ') + '), '
    + 'output_format_template[{template_id, codification_needed}], model_type (pro|lite), additional_data{}, output_language, '
    + 'client_generated_files[] (checked against the uploads), and anything else upstream SDKs send (s3_url, transfer, …), ignored.',
});

export const InitResponse = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  txn_id: Type.String(),
  b_id: Type.String({ description: 'The workspace id' }),
});

export const InitConflict = Type.Object({ status: Type.Literal('error'), message: Type.String() });

export const ValidationDetails = Type.Object({
  details: Type.Array(Type.Object({
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
    msg: Type.String(),
    type: Type.String(),
  })),
});

export const LanguageList = Type.Object({
  languages: Type.Array(Type.Object({
    id: Type.Enum(LANGUAGES, { description: 'Interface language id' }),
    name: Type.String({ description: 'English (India), Hindi, …' }),
    status: Type.Union([Type.Literal('ready'), Type.Literal('needs_model'), Type.Literal('unavailable')], {
      description: 'ready: an installed engine recognises it now; needs_model: downloading a Whisper model would make it work; unavailable: not on this computer',
    }),
    engines: Type.Array(Type.String(), { description: 'The engines that recognise it now, e.g. pocketsphinx:en-us+clinic-lm, whisper:small' }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it does not work now and how to get it (null when ready)' }),
  })),
});

export const StatusParams = Type.Object({ session_id: Type.String({ description: 'The transaction id' }) });
export const StatusQuery = Type.Object({ action: Type.Optional(Type.String({ description: 'Ignored (the SDKs pick the path by it)' })) });

const OutputEntry = Type.Object({
  template_id: Type.String({ description: 'As asked (eka_emr_template echoed as eka_emr_template)' }),
  value: Type.String({ description: 'Base64 of the template\'s UTF-8 JSON (templates.md); empty when it failed' }),
  type: Type.Literal('json'),
  name: Type.String(),
  status: Type.Union([Type.Literal('success'), Type.Literal('partial_success'), Type.Literal('failure')]),
  errors: Type.Array(Type.String()),
  warnings: Type.Array(Type.String()),
});

export const StatusResponse = Type.Object({
  data: Type.Object({
    output: Type.Array(OutputEntry),
    additional_data: Type.Object({}, {
      additionalProperties: true,
      description: 'The init additional_data, with our status (awaiting_init|queued|processing|completed|partial|failed), stage, percent, and errors when failed',
    }),
  }),
});

const ClientStatus = (description: string) => Type.Enum(CLIENT_STATUSES, { description });

export const HistoryQuery = Type.Object({
  patient_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Only this patient\'s sessions (the patient_id the client sent with the session)' })),
  status: Type.Optional(ClientStatus('Only sessions in this status')),
  limit: Type.Optional(Type.String({
    pattern: '^(?:[1-9]|[1-9][0-9]|100)$', description: `Sessions per page, 1-${HISTORY_LIMIT.max}; default ${HISTORY_LIMIT.default}`,
  })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'next_cursor of the previous page' })),
});

export const SessionSummary = Type.Object({
  txn_id: Type.String(),
  status: ClientStatus('As status additional_data.status'),
  stage: Type.String({ description: 'uploading, queued, starting, decoding, recognising, structuring, rendering, completed, failed' }),
  percent: Type.Integer({ minimum: 0, maximum: 100 }),
  patient_id: Type.Union([Type.String(), Type.Null()], { description: 'From extra_data, the init body or additional_data, or the sidecar' }),
  templates: Type.Array(Type.String(), { description: 'template_id as asked at init; empty before init' }),
  errors: Type.Array(Type.String(), { description: 'Why the session failed; empty otherwise' }),
  created_at: Type.String({ description: 'When the session was presigned (ISO 8601, UTC)' }),
  updated_at: Type.String(),
});

export const HistoryResponse = Type.Object({
  data: Type.Array(SessionSummary, { description: 'Newest first (created_at, then txn_id)' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page' }),
});

// The notes' additions to the status and list routes (docs/API.md, Notes: sign and amend). The scribe declares them, as
// it declares what it reads of notes (../note-reader.ts): notes builds on the scribe, not the other way round.

/** What the status route takes for notes: which version to serve. */
export const NoteStatusQuery = Type.Object({
  version: Type.Optional(Type.String({
    pattern: '^(?:draft|0|[1-9][0-9]{0,5})$',
    description: 'draft (or 0): the scribe\'s own output as produced; N: signed version N. Default: the latest signed version, else the draft',
  })),
});

/** What the sessions list takes for notes: signed notes first. */
export const NoteHistoryQuery = Type.Object({
  order: Type.Optional(Type.Union([Type.Literal('newest'), Type.Literal('signed_first')], {
    description: 'newest (default): newest first; signed_first: sessions with a signed note first, then the others, each newest first',
  })),
});

/** What each session of the sessions list says about its note. */
export const NoteHistoryFields = Type.Object({
  note_status: Type.Union([NoteStatus, Type.Null()], { description: 'draft: finished, not signed; signed; amended; null: no result yet (or failed)' }),
  note_version: Type.Integer({ minimum: 0, description: 'The latest signed version (1 signed, 2… amended); 0 otherwise' }),
});

/** Upstream's shapes per family: status `{"error":{"code","msg"}}`; presign/init/upload `{"error","code"}`; 401 `{"error","message"}`. */
export const StatusError = Type.Object({ error: Type.Object({ code: Type.String(), msg: Type.String(), request_id: Type.Optional(Type.String()) }) });
export const ScribeError = Type.Object({ error: Type.String(), code: Type.String(), request_id: Type.Optional(Type.String()) });
export const Unauthorized = Type.Object({ error: Type.Literal('Unauthorized'), message: Type.String() });
