import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WHISPER_CATALOGUE } from '../../server/scribe/asr/models.js';

const blob = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed * 17 + (i >> 8)) & 0xff));
const BY_ROLE = { encoder: blob(300_000, 1), decoder: blob(500_000, 2), tokens: Buffer.from('hello 0\nworld 1\n') };

/** What one stand-in model weighs: all its files. */
export const MODEL_BYTES = BY_ROLE.encoder.length + BY_ROLE.decoder.length + BY_ROLE.tokens.length;

/**
 * A local stand-in for the Whisper model mirror (models cannot be downloaded on this machine): any path ending in
 * a catalogue file name gets small stand-in bytes of that file's role, 16 KB every 25 ms, so a download takes
 * about a second and its progress can be watched. HEAD answers the size. The pinned hashes of tiny cannot match
 * these bytes (a verification failure); the unpinned models install ("unpinned").
 */
export async function startModelMirror() {
  const files = new Map(WHISPER_CATALOGUE.flatMap((s) => s.files.map((f) => [f.file, BY_ROLE[f.role]] as const)));
  /** File names fetched with GET, in order. */
  const gets: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const name = (req.url ?? '').split('/').pop() ?? '';
    const body = files.get(name);
    if (!body) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-length': String(body.length) });
    if (req.method === 'HEAD') return void res.end();
    gets.push(name);
    let sent = 0;
    const step = () => {
      if (res.destroyed) return;
      if (sent >= body.length) return void res.end();
      res.write(body.subarray(sent, sent + 16_384));
      sent += 16_384;
      setTimeout(step, 25);
    };
    step();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    gets,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
