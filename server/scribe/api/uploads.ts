import { createHash } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { routePlugin } from '../../http/route-plugin.js';
import { ScribeError, type ScribeService, type UploadTarget } from '../service.js';

/** Where the presigned POST sends files: the service's own receiver, on the service's base URL. */
export const UPLOAD_PATH = '/v1/file-upload/objects';

/** A request larger than this over the file limit is refused before its body is read. */
const ENVELOPE_SLACK = 1024 * 1024;

/**
 * Streams one file to a scratch file (0600) in the session's folder: written chunk by chunk (each write awaited, so
 * a slow disk slows the client instead of filling memory), hashed on the way, fsynced before it counts, then
 * committed. Bytes over the target's limit are read and dropped, so the client still gets our answer, then it is
 * a 413. The app's in-process dictation (app-api.ts) files its recordings through here too, so both paths keep
 * the same limits and file rules.
 */
export async function receiveUpload(service: ScribeService, target: UploadTarget, file: AsyncIterable<Buffer>) {
  const part = service.partPath(target);
  const fh = await open(part, 'wx', 0o600);
  const hash = createHash('sha256');
  let size = 0;
  let over = false;
  try {
    for await (const chunk of file) {
      if (over) continue;
      size += chunk.length;
      if (size > target.limit) {
        over = true;
        continue;
      }
      hash.update(chunk);
      await fh.write(chunk);
    }
    if (!over) await fh.sync();
  } catch (e) {
    await fh.close().catch(() => {});
    await rm(part, { force: true });
    throw e;
  }
  await fh.close();
  if (over) {
    await rm(part, { force: true });
    throw new ScribeError(413, 'EntityTooLarge', `"${target.name}" is too large: ${target.limitReason}`);
  }
  if (size === 0) {
    await rm(part, { force: true });
    throw new ScribeError(400, 'empty_file', `"${target.name}" is empty`);
  }
  try {
    await service.commitUpload(target, part, size, hash.digest('hex'));
  } finally {
    await rm(part, { force: true });
  }
}

/** Reads a part to its end, dropping it (the client is still sending; it must reach our answer). */
async function drain(file: AsyncIterable<Buffer> & { destroyed?: boolean }) {
  if (file.destroyed) return;
  try {
    for await (const _ of file) void _;
  } catch {
    // the request itself failed; the error handler answers
  }
}

/**
 * The upload receiver of the presigned POST (decisions.md Scribe, step 2): multipart/form-data with the policy's
 * fields first and the `file` part last, as the upstream SDKs send it, answered 204. No bearer token: the signed
 * policy is the credential, as with an object store. @fastify/multipart (busboy underneath) is registered only in
 * this route's scope, so no other route takes multipart bodies; it hands us the file part as a stream and we write
 * it to disk ourselves, with a per-transaction byte limit that busboy's fixed per-file limit cannot express.
 */
export const uploadRoutes = routePlugin('scribe-uploads', ['scribe'], async (app, { scribe }) => {
  const { limits } = scribe;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: {
      fieldNameSize: 200,
      fieldSize: 64 * 1024,
      fields: 50,
      // Busboy's own ceiling; our counter enforces the finer limits below it.
      fileSize: Math.max(limits.maxFileBytes, limits.maxSidecarBytes) + 1,
      files: 4,
      parts: 60,
      headerPairs: 100,
    },
  });

  app.post(UPLOAD_PATH, {
    config: { errors: 'scribe' },
    schema: {
      tags: ['scribe'],
      operationId: 'scribeUploadObject',
      summary: 'Upload receiver of the presigned POST (the uploadData.url of /v1/file-upload)',
      description: 'multipart/form-data: every field of uploadData.fields (key set to folderPath + the file name), then the file '
        + 'part named file. 204 when stored. Audio is recognised by the key\'s extension; <txn_id>.json is the optional sidecar. '
        + '400 unknown extension or bad fields, 403 expired or altered policy, 409 transaction already initialized, '
        + '413 over the size limits. Errors are {"error","code"}.',
      consumes: ['multipart/form-data'],
      response: { 204: { type: 'null', description: 'Stored' } },
    },
  }, async (request: FastifyRequest, reply) => {
    if (!request.isMultipart()) throw new ScribeError(400, 'InvalidArgument', 'Send multipart/form-data: the policy fields, then the file part');
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limits.maxFileBytes + ENVELOPE_SLACK) {
      reply.header('connection', 'close');
      throw new ScribeError(413, 'EntityTooLarge', `The upload is larger than the largest file this service takes (${limits.maxFileBytes} bytes)`);
    }
    const fields: Record<string, string> = {};
    let stored = false;
    let failure: unknown = null;
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || stored || failure) {
        // Not ours, or after the one file a POST carries: read through it.
        await drain(part.file);
        continue;
      }
      try {
        const target = await scribe.authorizeUpload(fields);
        await receiveUpload(scribe, target, part.file);
        stored = true;
      } catch (e) {
        failure = e;
        await drain(part.file);
      }
    }
    if (failure) throw failure;
    if (!stored) throw new ScribeError(400, 'InvalidArgument', 'The form has no file part (it must be named file and come after the policy fields)');
    return reply.code(204).send();
  });
});
