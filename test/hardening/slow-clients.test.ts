import { request as httpRequest } from 'node:http';
import { type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../helpers/dr.js';
import { type RunningServer, startServer } from '../helpers/server.js';

/**
 * A hostile local program (docs/API.md, Hardening → Slow clients): it keeps 200 connections from 127.0.0.1
 * stalled, half of them half-sent requests and half bodies trickled a byte at a time, reopening each one the
 * service closes, while the front desk (another program on the same computer, so the same address) reads /health.
 */
const BODY_MS = 2000;
const MIN_BODY_RATE = 500;

let srv: RunningServer;
let host: string;
beforeAll(async () => {
  // Only the body timeout is shortened; the cap (128 per address) and the other limits are the defaults.
  srv = await startServer({ http: { ui: false, timeouts: { bodyMs: BODY_MS, minBodyRate: MIN_BODY_RATE } } });
  host = new URL(srv.baseUrl).host;
});
afterAll(() => srv?.close());

function socketTo(): Promise<Socket> {
  const u = new URL(srv.baseUrl);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => resolve(s));
    s.once('error', reject);
  });
}

/** GET /health on a connection of its own: the status and how long the answer took (0 when the connection failed). */
function health(): Promise<{ status: number; ms: number }> {
  const u = new URL(srv.baseUrl);
  const start = Date.now();
  return new Promise((resolve) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path: '/health', agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: Date.now() - start }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: Date.now() - start }));
    req.end();
  });
}

const POST_HEAD = (length: number) => `POST /api/v1/session HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/** Keeps `n` stalled connections open until stopped, reopening each one the service closes; counts the closes. */
function hostileClient(n: number) {
  let running = true;
  let closedByService = 0;
  const sockets = new Set<Socket>();
  const trickles = new Set<NodeJS.Timeout>();
  const open = async (i: number): Promise<void> => {
    if (!running) return;
    const s = await socketTo().catch(() => null);
    if (!s) return void setTimeout(() => void open(i), 50);
    if (!running) return void s.destroy();
    sockets.add(s);
    s.on('error', () => {});
    if (i % 2 === 0) {
      // Half-sent: the request line and part of the headers, then nothing.
      s.write(`POST /api/v1/session HTTP/1.1\r\nHost: ${host}\r\nContent-Le`);
    } else {
      // A body promised at 100 kB that comes a byte every half second: never idle, never done.
      s.write(POST_HEAD(100_000));
      const t = setInterval(() => s.writable && s.write('x'), 500);
      trickles.add(t);
      s.once('close', () => clearInterval(t));
    }
    s.once('close', () => {
      sockets.delete(s);
      if (!running) return;
      closedByService++;
      void open(i);
    });
  };
  const opened = Promise.all(Array.from({ length: n }, (_, i) => open(i)));
  return {
    opened,
    open: () => sockets.size,
    closedByService: () => closedByService,
    stop() {
      running = false;
      for (const t of trickles) clearInterval(t);
      for (const s of sockets) s.destroy();
    },
  };
}

describe('a hostile local client', () => {
  it('cannot lock the front desk out: /health answers in under a second while 200 stalled connections are held', async () => {
    const hostile = hostileClient(200);
    try {
      await hostile.opened;
      const answers: { status: number; ms: number }[] = [];
      // Reads for longer than the body timeout, while the hostile client keeps reopening what the service closes.
      const until = Date.now() + 2 * BODY_MS;
      while (Date.now() < until) {
        answers.push(await health());
        await sleep(100);
      }
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(1000);
      // The service did close hostile connections to make room (200 > the cap of 128).
      expect(hostile.closedByService()).toBeGreaterThanOrEqual(200 - 128);
    } finally {
      hostile.stop();
    }
  });

  it('answers a trickled body 408 REQUEST_TIMEOUT after the body timeout plus a second per MIN_BODY_RATE bytes, then closes', async () => {
    const s = await socketTo();
    const start = Date.now();
    let data = '';
    s.on('data', (c) => (data += c.toString()));
    s.on('error', () => {});
    const closedAt = new Promise<number>((resolve) => s.once('close', () => resolve(Date.now() - start)));
    s.write(POST_HEAD(100_000));
    let sent = 0;
    // A byte every 200 ms: never silent long enough for the idle timeout (60 s), far below 500 bytes a second.
    const t = setInterval(() => {
      if (s.writable) {
        s.write('x');
        sent++;
      }
    }, 200);
    try {
      const afterMs = await closedAt;
      expect(data).toMatch(/^HTTP\/1\.1 408 /);
      expect(data).toContain('{"error":{"code":"REQUEST_TIMEOUT","message":"The request body arrived too slowly"}}');
      // Due at BODY_MS + sent / MIN_BODY_RATE seconds (a few ms here); checked every quarter of BODY_MS.
      expect(afterMs).toBeGreaterThanOrEqual(BODY_MS);
      expect(afterMs).toBeLessThan(BODY_MS + 3000);
      expect(sent).toBeGreaterThan(5);
    } finally {
      clearInterval(t);
      s.destroy();
    }
  });

  it('lets a body through that keeps above the minimum rate, however long it takes', async () => {
    const body = JSON.stringify({ username: 'nobody', password: 'x'.repeat(3000) });
    const u = new URL(srv.baseUrl);
    const start = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: u.hostname, port: u.port, path: '/api/v1/session', method: 'POST', agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      void (async () => {
        // 300 bytes every 250 ms: 1,200 bytes a second, for about three seconds (past BODY_MS).
        for (let i = 0; i < body.length; i += 300) {
          req.write(body.slice(i, i + 300));
          await sleep(250);
        }
        req.end();
      })();
    });
    expect(Date.now() - start).toBeGreaterThan(BODY_MS);
    // Refused for what it says (no such user, or too long a password), not for how slowly it came.
    expect([400, 401]).toContain(status);
  });
});
