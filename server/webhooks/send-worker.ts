/**
 * The webhook sending thread, started by webhooks/send-thread.ts: signs each delivery it is handed and posts it with
 * the dispatcher's HTTP client (transport.ts: keep-alive pools, the attempt's timeout), so that the requests, their
 * sockets and the signatures cost the event loop that answers the API nothing (issue 27). It reads and writes no
 * database: the dispatcher claims, and writes every answer, on the main thread.
 *
 * Requests come in batches (one message per dispatcher tick) and answers go back in batches (one message per turn
 * of this thread's event loop). `close` aborts what is in flight and ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type Outgoing, webhookTransport } from './transport.js';

export interface SendWorkerData {
  timeoutMs: number;
}

/** A failure as the dispatcher describes it (dispatcher.ts, describeError): an Error's fields, which a message keeps. */
export interface SendFailure {
  name?: string;
  code?: string;
  message?: string;
  cause?: { code?: string; message?: string };
}

export type SendWorkerMessage = { send: (Outgoing & { id: number })[] } | { close: true };
export type SendAnswer = { id: number; status: number; retryAfter: string | null } | { id: number; failure: SendFailure };

const fields = (e: unknown): SendFailure => {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  return {
    name: err?.name, code: err?.code, message: err?.message ?? String(e),
    cause: err?.cause ? { code: err.cause.code, message: err.cause.message } : undefined,
  };
};

const data = workerData as SendWorkerData;
const port = parentPort!;
const stopping = new AbortController();
const transport = webhookTransport({ timeoutMs: data.timeoutMs, signal: stopping.signal });

let answers: SendAnswer[] = [];
const answer = (a: SendAnswer) => {
  if (answers.push(a) > 1) return;
  setImmediate(() => {
    port.postMessage(answers);
    answers = [];
  });
};

port.on('message', (m: SendWorkerMessage) => {
  if ('close' in m) {
    stopping.abort();
    transport.close();
    port.close();
    return;
  }
  for (const { id, ...o } of m.send) {
    transport.deliver(o).then((r) => answer({ id, ...r }), (e: unknown) => answer({ id, failure: fields(e) }));
  }
});
