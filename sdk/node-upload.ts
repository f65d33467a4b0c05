/**
 * The scribe client's Node side: files by path, and multipart POSTs over node:http that report progress as the
 * socket takes the bytes. The node: modules are imported on first use, so this module (and the client that
 * imports it) still loads in browsers; there only `nodePostForm` must not be called.
 */
import type { FormPoster } from './scribe-client.js';

/** Minimal shapes of the node modules used here (the SDK does not depend on @types/node). */
interface NodeRequest {
  on(event: 'response', cb: (res: NodeIncoming) => void): unknown;
  on(event: 'error', cb: (e: Error) => void): unknown;
}
interface NodeIncoming {
  statusCode?: number;
  setEncoding(enc: string): void;
  on(event: 'data', cb: (d: string) => void): unknown;
  on(event: 'end', cb: () => void): unknown;
  on(event: 'error', cb: (e: Error) => void): unknown;
}
interface NodeModules {
  fs: { createReadStream(p: string): AsyncIterable<Uint8Array> };
  fsp: { stat(p: string): Promise<{ size: number; isFile(): boolean }>; readFile(p: string): Promise<Uint8Array> };
  http: { request(url: URL, opts: { method: string; headers: Record<string, string | number> }): NodeRequest };
  https: NodeModules['http'];
  stream: {
    Readable: { from(source: AsyncIterable<Uint8Array>, opts: { objectMode: boolean }): unknown };
    pipeline(source: unknown, destination: NodeRequest, cb: (e?: Error | null) => void): unknown;
  };
}

let loaded: Promise<NodeModules> | null = null;
/** Variables, not literals, so that bundlers for the browser leave these imports alone. */
function modules(): Promise<NodeModules> {
  const names = ['node:fs', 'node:fs/promises', 'node:http', 'node:https', 'node:stream'];
  loaded ??= Promise.all(names.map((n) => import(/* @vite-ignore */ n))).then(([fs, fsp, http, https, stream]) => ({ fs, fsp, http, https, stream }) as NodeModules);
  return loaded;
}

const SLICE = 64 * 1024;
const quote = (s: string) => s.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c));

async function* slices(blob: Blob): AsyncIterable<Uint8Array> {
  for (let at = 0; at < blob.size; at += SLICE) yield new Uint8Array(await blob.slice(at, at + SLICE).arrayBuffer());
}

/**
 * A multipart POST whose file part is pulled from `chunks` only as fast as the socket takes it, so memory stays flat
 * whatever the size. Not fetch: Node's fetch keeps every chunk of a request body it has sent (undici issue 4058).
 */
async function postChunks(
  url: string,
  fields: [string, string][],
  file: { name: string; type: string; size: number },
  chunks: AsyncIterable<Uint8Array>,
  onProgress?: (loaded: number, total: number) => void,
): Promise<{ status: number; text: string }> {
  const { http, https, stream } = await modules();
  const boundary = `----clinicdesk${crypto.randomUUID().replace(/-/g, '')}`;
  const enc = new TextEncoder();
  const head = enc.encode(
    fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`).join('')
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(file.name)}"\r\nContent-Type: ${file.type}\r\n\r\n`,
  );
  const tail = enc.encode(`\r\n--${boundary}--\r\n`);
  const total = head.length + file.size + tail.length;
  let sent = 0;
  const count = (piece: Uint8Array) => {
    sent += piece.length;
    onProgress?.(sent, total);
  };
  // A piece counts as sent once the request asks for the next one (it has taken this one).
  async function* body() {
    yield head;
    count(head);
    for await (const chunk of chunks) {
      yield chunk;
      count(chunk);
    }
    yield tail;
    count(tail);
  }
  const target = new URL(url);
  const req = (target.protocol === 'https:' ? https : http).request(target, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': total },
  });
  return new Promise((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    onProgress?.(0, total);
    stream.pipeline(stream.Readable.from(body(), { objectMode: false }), req, (e) => e && reject(e));
  });
}

/** A poster for Node callers holding the bytes in memory: written in 64 KB slices, with progress. */
export const nodePostForm: FormPoster = (url, fields, file, onProgress) =>
  postChunks(url, fields, { name: file.name, type: file.type, size: file.data.size }, slices(file.data), onProgress);

/** Files by path, for the scribe client. */
export function nodeFiles() {
  return {
    async size(path: string): Promise<number> {
      const st = await (await modules()).fsp.stat(path);
      if (!st.isFile()) throw new Error(`${path} is not a file`);
      return st.size;
    },
    read: async (path: string) => new Blob([(await (await modules()).fsp.readFile(path)) as Uint8Array<ArrayBuffer>]),
    /** The file part read from disk as the socket takes it (never held whole in memory). */
    async postStreamed(url: string, fields: [string, string][], file: { path: string; name: string; type: string; size: number }, onProgress?: (loaded: number, total: number) => void) {
      return postChunks(url, fields, file, (await modules()).fs.createReadStream(file.path), onProgress);
    },
  };
}
