import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, realpathSync, rmSync, statSync } from 'node:fs';
import { basename, isAbsolute, relative } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { LANGUAGES, TEMPLATE_IDS } from '../scribe/contracts.js';
import { AUDIO_EXTENSIONS, isAudioName } from '../scribe/formats.js';
import { ScribeValidationError } from '../scribe/service.js';
import { PRIVATE_FILE_MODE } from '../shared/private-files.js';
import { ToolError, type ToolScope, defineTool } from './tools.js';

/** How long fetching an audio URL may take, in all. */
const FETCH_TIMEOUT_MS = 10 * 60_000;

const tooBig = (limitReason: string) => new ToolError('FILE_TOO_LARGE', `The audio is too large: ${limitReason}`);

/** Copies `source` into `dest` (at most `limit` bytes), returning its size and SHA-256. */
async function receive(source: Readable, dest: string, limit: number, limitReason: string) {
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit) return done(tooBig(limitReason));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(source, meter, createWriteStream(dest, { flags: 'wx', flush: true, mode: PRIVATE_FILE_MODE } as never));
  return { size, sha256: hash.digest('hex') };
}

/**
 * Where the audio comes from: a file on this computer (an absolute path to a regular file with an audio
 * extension, outside the service's own data folder) or an http(s) URL. Either way it is the signed-in user's
 * request, and the file is only ever transcribed, never returned.
 */
async function open(audio: string, dataDir: string, signal: AbortSignal): Promise<{ name: string; stream: Readable; size?: number }> {
  if (/^https?:\/\//i.test(audio)) {
    let url: URL;
    try {
      url = new URL(audio);
    } catch {
      throw new ToolError('INVALID_REQUEST', 'audio is not a valid URL');
    }
    const name = decodeURIComponent(basename(url.pathname));
    if (!isAudioName(name)) {
      throw new ToolError('INVALID_REQUEST', `The URL must end in an audio file name (one of ${AUDIO_EXTENSIONS.join(', ')}): ${name || '(none)'}`);
    }
    let res: Response;
    try {
      res = await fetch(url, { signal, redirect: 'follow' });
    } catch (e) {
      throw new ToolError('FETCH_FAILED', `Could not download ${url.href}: ${(e as Error).message}`);
    }
    if (!res.ok || !res.body) throw new ToolError('FETCH_FAILED', `Downloading ${url.href} answered HTTP ${res.status}`);
    const length = Number(res.headers.get('content-length') ?? NaN);
    return { name, stream: Readable.fromWeb(res.body as never), size: Number.isFinite(length) ? length : undefined };
  }
  if (!isAbsolute(audio)) throw new ToolError('INVALID_REQUEST', 'audio must be an absolute file path on this computer, or an http(s) URL');
  let real: string;
  try {
    real = realpathSync(audio);
  } catch {
    throw new ToolError('NOT_FOUND', `No file at ${audio}`, 'not_found');
  }
  const rel = relative(realpathSync(dataDir), real);
  if (!rel.startsWith('..') && !isAbsolute(rel)) throw new ToolError('INVALID_REQUEST', 'Files inside Clinic Desk\'s own data folder cannot be used as audio');
  const name = basename(real);
  if (!isAudioName(name)) throw new ToolError('INVALID_REQUEST', `${name} is not an audio file this service accepts (one of ${AUDIO_EXTENSIONS.join(', ')})`);
  const st = statSync(real);
  if (!st.isFile()) throw new ToolError('INVALID_REQUEST', `${audio} is not a regular file`);
  return { name, stream: createReadStream(real), size: st.size };
}

export const startScribeSession = defineTool({
  name: 'start_scribe_session',
  title: 'Start a scribe session from an audio file',
  description: 'Transcribe a dictation or consultation recording into structured clinical documents. Give the audio as an '
    + `absolute file path on the clinic computer or an http(s) URL (extensions: ${AUDIO_EXTENSIONS.join(', ')}). Processing `
    + 'runs in the background: call get_scribe_documents with the returned session_id until its status is completed.',
  input: {
    audio: z.string().min(1).max(4096).describe('Absolute path of an audio file on this computer, or an http(s) URL'),
    templates: z.array(z.enum(TEMPLATE_IDS)).min(1).max(TEMPLATE_IDS.length).default(['clinical_notes_template'])
      .describe('Documents to produce: clinical_notes_template (structured notes), service_emr_template (EMR-ready), transcript_template'),
    languages: z.array(z.enum(LANGUAGES)).min(1).max(LANGUAGES.length).default(['en-IN']).describe('Languages spoken in the audio'),
    mode: z.enum(['dictation', 'consultation']).default('dictation').describe('dictation: one clinician speaking; consultation: a conversation'),
    model_type: z.enum(['pro', 'lite']).default('pro').describe('pro: most accurate; lite: faster'),
    session_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/).optional().describe('Your own id for the session (a new one if omitted)'),
  },
  output: {
    session_id: z.string(),
    status: z.string().describe('queued: processing will start shortly'),
    file: z.object({ name: z.string(), bytes: z.number().int(), sha256: z.string() }),
    templates: z.array(z.string()),
    languages: z.array(z.string()),
  },
  scope: 'scribe',
  deniedAction: 'scribe.access',
  readOnly: false,
  idempotent: false,
  run: async (args, { service, ctx }: ToolScope) => {
    const { scribe } = service;
    const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
    const src = await open(args.audio, service.dataDir, signal);
    const txnId = args.session_id ?? randomUUID();
    const presigned = await scribe.presign(ctx, { txnId, action: 'scribe-v2', extraData: { mode: args.mode, model_type: args.model_type }, uploadUrl: '' });
    const target = await scribe.authorizeUpload({
      key: `${presigned.folderPath}${src.name}`, policy: presigned.uploadData.fields.policy, signature: presigned.uploadData.fields.signature,
    });
    if (src.size !== undefined && src.size > target.limit) {
      src.stream.destroy();
      throw tooBig(target.limitReason);
    }
    const part = scribe.partPath(target);
    let file;
    try {
      file = await receive(src.stream, part, target.limit, target.limitReason);
    } catch (e) {
      rmSync(part, { force: true });
      if (e instanceof ToolError) throw e;
      throw new ToolError('FETCH_FAILED', `Could not read the audio: ${(e as Error).message}`);
    }
    await scribe.commitUpload(target, part, file.size, file.sha256);
    try {
      await scribe.init(ctx, txnId, {
        mode: args.mode, model_type: args.model_type, input_language: args.languages,
        output_format_template: args.templates.map((template_id) => ({ template_id, codification_needed: false })),
      }, await scribe.speechSurvey());
    } catch (e) {
      if (e instanceof ScribeValidationError) throw new ToolError('INVALID_REQUEST', e.message);
      throw e;
    }
    return {
      session_id: txnId, status: 'queued', file: { name: src.name, bytes: file.size, sha256: file.sha256 },
      templates: args.templates, languages: args.languages,
    };
  },
});

export const getScribeDocuments = defineTool({
  name: 'get_scribe_documents',
  title: 'Get a scribe session\'s documents',
  description: 'The status of a scribe session started with start_scribe_session (or by any other client of this clinic), and, '
    + 'once it is completed, its documents as JSON. While status is queued or processing, ask again in a little while.',
  input: { session_id: z.string().min(1).max(128).describe('The session_id start_scribe_session returned (the upload\'s txn_id)') },
  output: {
    session_id: z.string(),
    status: z.string().describe('awaiting_init, queued, processing, completed, partial (some documents failed) or failed'),
    stage: z.string().nullable(),
    percent: z.number().nullable(),
    errors: z.array(z.string()),
    documents: z.array(z.object({
      template_id: z.string(),
      name: z.string(),
      status: z.string(),
      content: z.record(z.string(), z.unknown()).nullable().describe('The document, decoded from the Base64 JSON the API serves'),
      errors: z.array(z.unknown()),
      warnings: z.array(z.unknown()),
    })),
  },
  scope: 'scribe',
  deniedAction: 'scribe.access',
  readOnly: true,
  idempotent: true,
  run: async ({ session_id }, { service, ctx }: ToolScope) => {
    const { body } = await service.scribe.status(ctx, session_id);
    const extra = body.data.additional_data as { status?: unknown; stage?: unknown; percent?: unknown; errors?: unknown };
    const documents = body.data.output.map((o) => {
      let content: Record<string, unknown> | null = null;
      if (o.value) {
        try {
          const v = JSON.parse(Buffer.from(o.value, 'base64').toString('utf8')) as unknown;
          content = v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : { value: v };
        } catch {
          content = null;
        }
      }
      return { template_id: o.template_id, name: o.name, status: o.status, content, errors: o.errors ?? [], warnings: o.warnings ?? [] };
    });
    return {
      session_id,
      status: typeof extra.status === 'string' ? extra.status : 'unknown',
      stage: typeof extra.stage === 'string' ? extra.stage : null,
      percent: typeof extra.percent === 'number' ? extra.percent : null,
      errors: Array.isArray(extra.errors) ? extra.errors.map(String) : [],
      documents,
    };
  },
});

export const SCRIBE_TOOLS = [startScribeSession, getScribeDocuments];
