import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What a receiver answered: only the status and Retry-After are used. */
export interface PostAnswer {
  status: number;
  retryAfter: string | null;
}

/** Raised when an attempt gets no answer within its time (named as fetch's TimeoutError was). */
class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * The dispatcher's HTTP client: node:http with keep-alive connections, one pool per receiver origin, so that a
 * burst to one receiver reuses a few open connections instead of a handshake per delivery. Chosen over fetch
 * for its cost: fetch's streams cost about three times the CPU per request here, on the thread that also serves
 * the API (docs/ARCHITECTURE.md, "What a webhook delivery costs"). Redirects are not followed (a 3xx is a failure).
 * The response body is read and dropped, so the connection goes back to its pool.
 */
export function webhookTransport(opts: { timeoutMs: number; signal: AbortSignal }) {
  const agents = new Map<string, HttpAgent>();

  const agentFor = (url: URL) => {
    let agent = agents.get(url.origin);
    if (!agent) {
      // Idle connections are closed after 4 s, before a receiver's own idle timeout (Node's is 5 s) closes them
      // under a request being sent.
      const options = { keepAlive: true, timeout: 4000, scheduling: 'lifo' as const };
      agent = url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
      agents.set(url.origin, agent);
    }
    return agent;
  };

  function post(endpoint: string, headers: Record<string, string>, body: string): Promise<PostAnswer> {
    const url = new URL(endpoint);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      let res: IncomingMessage | null = null;
      const req = send(url, {
        method: 'POST', agent: agentFor(url), signal: opts.signal,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      // Until the response's headers (as fetch's timeout), and then until its body has been read.
      const timer = setTimeout(() => {
        const e = new TimeoutError(`timed out after ${opts.timeoutMs} ms`);
        if (res) res.destroy(e);
        req.destroy(e);
      }, opts.timeoutMs);
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      req.once('response', (r) => {
        res = r;
        resolve({ status: r.statusCode ?? 0, retryAfter: (r.headers['retry-after'] as string | undefined) ?? null });
        r.once('end', () => clearTimeout(timer));
        r.on('error', () => clearTimeout(timer));
        r.resume();
      });
      req.end(body);
    });
  }

  return {
    post,
    /** Closes every pooled connection (the dispatcher stopped). */
    close() {
      for (const a of agents.values()) a.destroy();
      agents.clear();
    },
  };
}
export type WebhookTransport = ReturnType<typeof webhookTransport>;
