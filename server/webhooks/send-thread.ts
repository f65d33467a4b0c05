import { Worker } from 'node:worker_threads';
import { workerScript } from '../shared/worker-script.js';
import type { SendAnswer, SendFailure, SendWorkerData, SendWorkerMessage } from './send-worker.js';
import { type Outgoing, type PostAnswer, type WebhookTransport, webhookTransport } from './transport.js';

interface Waiting {
  o: Outgoing;
  resolve: (a: PostAnswer) => void;
  reject: (e: unknown) => void;
}

/** A failure from the thread as the error the dispatcher describes: it reads the name, code and cause. */
const failureError = (f: SendFailure) => Object.assign(new Error(f.message), { name: f.name ?? 'Error', code: f.code, cause: f.cause });
const abortError = () => Object.assign(new Error('aborted'), { name: 'AbortError' });

/**
 * The dispatcher's sender: deliveries are signed and posted by a worker thread (webhooks/send-worker.ts), whose
 * answer ({status, retryAfter} or the failure) comes back here. Under a burst the HTTP client and the signing were
 * about an eighth of the event loop's time, the loop that also answers every API request (docs/ARCHITECTURE.md,
 * "What a webhook delivery costs"). Requests go to the thread in one message per turn of this event loop, so a tick's
 * claims cost one message. Aborting `signal` (the dispatcher stopping) aborts what is in flight there and ends the
 * thread; the attempts still waiting here fail as aborted.
 *
 * The thread starts with the first delivery. Should it fail to start or stop unexpectedly (a broken install), the
 * deliveries it held are sent again from this thread, and every later one too, and the reason is logged once: a
 * delivery is never failed for want of the thread (sent twice at worst, which at-least-once allows).
 *
 * `script` replaces the thread's script (tests give it a broken one).
 */
export function sendingThread(opts: { timeoutMs: number; signal: AbortSignal; script?: URL }) {
  let worker: Worker | null = null;
  let starting: Promise<void> | null = null;
  let gone = false;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  let queued: (Outgoing & { id: number })[] = [];
  let here: WebhookTransport | null = null;
  const onThisThread = () => (here ??= webhookTransport({ timeoutMs: opts.timeoutMs, signal: opts.signal }));

  /** The thread is gone: what it held is sent from here, and so is everything after. */
  const lost = (reason: string) => {
    if (gone) return;
    gone = true;
    worker = null;
    if (opts.signal.aborted) return;
    console.error(`clinic-desk: the webhook sending thread stopped (${reason}); deliveries are sent from the main thread from now on`);
    const held = [...waiting.values()];
    waiting.clear();
    queued = [];
    for (const w of held) onThisThread().deliver(w.o).then(w.resolve, w.reject);
  };

  const flush = () => {
    if (!worker || queued.length === 0) return;
    worker.postMessage({ send: queued } satisfies SendWorkerMessage);
    queued = [];
  };

  const start = async () => {
    try {
      const w = new Worker(opts.script ?? await workerScript(new URL('./send-worker.ts', import.meta.url), new URL('./webhooks-send-worker.mjs', import.meta.url)), {
        // None of the process's flags (audit/reads-writer.ts says why: a TypeScript `--import` cannot load there).
        execArgv: [],
        workerData: { timeoutMs: opts.timeoutMs } satisfies SendWorkerData,
      });
      // Its sockets must not keep a process alive that has nothing else to do.
      w.unref();
      w.on('message', (answers: SendAnswer[]) => {
        for (const a of answers) {
          const w = waiting.get(a.id);
          if (!w) continue;
          waiting.delete(a.id);
          if ('failure' in a) w.reject(failureError(a.failure));
          else w.resolve({ status: a.status, retryAfter: a.retryAfter });
        }
      });
      w.on('error', (e) => lost(e.message));
      w.once('exit', (code) => lost(`exit code ${code}`));
      if (gone || opts.signal.aborted) return void w.terminate();
      worker = w;
      flush();
    } catch (e) {
      lost((e as Error).message);
    }
  };

  opts.signal.addEventListener('abort', () => {
    worker?.postMessage({ close: true } satisfies SendWorkerMessage);
    for (const w of waiting.values()) w.reject(abortError());
    waiting.clear();
    queued = [];
  }, { once: true });

  return {
    /** Signs and posts one delivery; resolves with the receiver's answer, rejects as the transport does. */
    deliver(o: Outgoing): Promise<PostAnswer> {
      if (gone) return onThisThread().deliver(o);
      if (opts.signal.aborted) return Promise.reject(abortError());
      return new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { o, resolve, reject });
        if (queued.push({ id, ...o }) === 1) setImmediate(flush);
        starting ??= start();
      });
    },
    /** Closes the pooled connections of this thread's client, if it had to send from here. */
    close() {
      here?.close();
    },
  };
}
