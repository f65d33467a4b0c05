import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type DemoCredentials, ensureDemo } from '../../server/demo/demo.js';
import { buildHttpApp } from '../../server/http/app.js';
import { type Service, type ServiceOptions, createService } from '../../server/service.js';
import type { Clock } from '../../server/shared/time.js';
import { verifySignature } from '../../server/webhooks/signing.js';
import { copyDemo, demoCopyFits } from './demo-template.js';
import { SCRIBE_WORKER, TEST_KEK, tempDir } from './server.js';
import { linkSpeechModelInto } from './speech-model.js';

/** Helpers of the scribe tests: a service with scribe options, speech made by espeak-ng, a webhook receiver. */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 30_000, everyMs = 100): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A clock the tests move: real time plus an offset. */
export function movableClock() {
  let offsetMs = 0;
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
  return { clock, advance: (ms: number) => void (offsetMs += ms) };
}

export interface ScribeServer {
  baseUrl: string;
  service: Service;
  demo: DemoCredentials;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real service and HTTP app on a loopback port, with the demo clinics and the given options. `speechModel`: for
 * a test that dictates, the run's PocketSphinx model already in the data folder (helpers/speech-model.ts).
 */
export async function startScribeServer(
  { speechModel, ...opts }: Omit<ServiceOptions, 'dataDir'> & { dataDir?: string; speechModel?: boolean } = {},
): Promise<ScribeServer> {
  const dataDir = opts.dataDir ?? tempDir('scribe');
  // The demo clinics below are usually a copy (helpers/demo-template.ts): making them costs seconds of scrypt.
  if (demoCopyFits(dataDir, opts)) await copyDemo(dataDir);
  if (speechModel) await linkSpeechModelInto(dataDir);
  const service = await createService({ kek: TEST_KEK, ...opts, scribe: { workerEntry: SCRIBE_WORKER, ...opts.scribe }, dataDir });
  const app = await buildHttpApp(service);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const demo = (await ensureDemo(service, baseUrl))!;
  return {
    baseUrl, service, demo, dataDir,
    async close() {
      await app.close();
      await service.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Speaks `text` with espeak-ng into a WAV file (22 050 Hz mono), at test time: no audio fixtures in the repo. */
export function speak(dir: string, name: string, text: string, voice = 'en-us', wpm = 150): string {
  const out = join(dir, name);
  execFileSync('espeak-ng', ['-v', voice, '-s', String(wpm), '-w', out, text], { stdio: 'ignore' });
  return out;
}

/** A WAV of digital silence (16-bit mono PCM). */
export function silenceWav(dir: string, name: string, seconds: number, rate = 16_000): string {
  const samples = Math.round(seconds * rate);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples * 2, 40);
  const out = join(dir, name);
  writeFileSync(out, Buffer.concat([header, Buffer.alloc(samples * 2)]));
  return out;
}

export interface Delivery {
  headers: IncomingMessage['headers'];
  raw: string;
  body: any;
  verified: boolean;
}

/** A webhook receiver on 127.0.0.1 that keeps every delivery and checks its signature over the raw bytes. */
export async function webhookReceiver(signingKey: string) {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const sig = req.headers['eka-webhook-signature'];
      const verified = verifySignature(typeof sig === 'string' ? sig : undefined, raw, signingKey, { nowS: Math.floor(Date.now() / 1000), toleranceS: 300 }).ok;
      deliveries.push({ headers: req.headers, raw, body: JSON.parse(raw), verified });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  return { url, deliveries, close: () => new Promise<void>((r) => server.close(() => r())) };
}
