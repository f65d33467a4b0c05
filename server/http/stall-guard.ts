import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How slow a client may be (docs/API.md, Hardening → Slow clients). */
export interface SlowClientLimits {
  /** Neither a byte sent nor taken for this long: closed without an answer. */
  idleMs: number;
  /** A request body gets this long, plus a second for every `minBodyRate` bytes that have arrived (408 after). */
  bodyMs: number;
  /** Bytes a second a body must average after its first `bodyMs`. */
  minBodyRate: number;
}

interface Watched {
  /** Bytes read and written at the last sweep that saw them change, and when. */
  bytes: number;
  since: number;
  /** When the connection began waiting on its client: opened, or its latest request's headers arrived. */
  phaseStart: number;
  /** The latest request's answer (its `req` is the request) and the bytes read before its body. */
  res: ServerResponse | null;
  bytesBeforeBody: number;
  /** When a too-slow body was answered with 408: the connection is closed at the next sweep. */
  cutAt: number;
}

/** The open connections' progress, for the connection cap: which one has waited on its client longest. */
export interface ConnectionWatch {
  /** Of `sockets`, the one waiting on its client (headers, body, or idle between requests) for longest; null if each is being answered. */
  longestWaiting(sockets: Iterable<Socket>): Socket | null;
}

const SLOW_BODY = Object.assign(new Error('The request body arrived too slowly'), { code: 'ERR_BODY_TOO_SLOW' });

/** Whether the connection waits on its client rather than on us: no request under way, or one whose body is still coming. */
const waitingOnClient = (w: Watched) => w.res === null || w.res.writableFinished || !w.res.req.complete;

/**
 * Ends connections by their progress, as nginx's and Apache's request timeouts do: one that has neither sent nor
 * taken a byte for `idleMs` (a stalled body, a client that stopped reading its answer, a connection left open
 * without a request) is closed; a body that trickles in slower than `minBodyRate` once `bodyMs` have passed (a byte
 * now and then, which never looks idle) is answered 408 through the server's 'clientError' handler, as Node answers
 * its own request timeout, and then closed. Headers are Node's `headersTimeout`.
 *
 * A sweep over the open connections compares each one's byte counts with the last sweep's, as Node checks its
 * header and request timeouts. Node's per-socket idle timer (`server.setTimeout`) does the same job but is
 * refreshed on every read and write: measured on the search benchmark, that cost about a seventh of the answer's
 * time. The sweep runs every quarter of the shorter limit, at most every second, so a connection is ended up to a
 * second (or a quarter of the limit) after its limit.
 */
export function closeStalledConnections(server: Server, limits: SlowClientLimits): ConnectionWatch {
  const seen = new Map<Socket, Watched>();
  server.on('connection', (socket: Socket) => {
    const now = Date.now();
    seen.set(socket, { bytes: 0, since: now, phaseStart: now, res: null, bytesBeforeBody: 0, cutAt: 0 });
    socket.once('close', () => seen.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const w = seen.get(req.socket);
    if (!w) return;
    w.res = res;
    w.phaseStart = Date.now();
    w.bytesBeforeBody = req.socket.bytesRead;
  });
  const tooSlow = (w: Watched, socket: Socket, now: number) => {
    if (w.res === null || w.res.req.complete) return false;
    const received = socket.bytesRead - w.bytesBeforeBody;
    return now - w.phaseStart > limits.bodyMs + (received * 1000) / limits.minBodyRate;
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [socket, w] of seen) {
      if (w.cutAt) {
        socket.destroy();
        continue;
      }
      const bytes = socket.bytesRead + socket.bytesWritten;
      if (bytes !== w.bytes) {
        w.bytes = bytes;
        w.since = now;
      } else if (now - w.since >= limits.idleMs) {
        socket.destroy();
        continue;
      }
      if (tooSlow(w, socket, now)) {
        w.cutAt = now;
        // Answered only while nothing of an answer has gone out; otherwise just closed.
        if (w.res!.headersSent || !server.emit('clientError', SLOW_BODY, socket)) socket.destroy();
      }
    }
  }, Math.max(25, Math.min(1000, Math.floor(limits.idleMs / 4), Math.floor(limits.bodyMs / 4))));
  sweep.unref();
  server.once('close', () => clearInterval(sweep));

  return {
    longestWaiting(sockets) {
      let oldest: Socket | null = null;
      let oldestStart = Infinity;
      for (const socket of sockets) {
        const w = seen.get(socket);
        if (w && waitingOnClient(w) && w.phaseStart < oldestStart) {
          oldest = socket;
          oldestStart = w.phaseStart;
        }
      }
      return oldest;
    },
  };
}
