import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Closes a connection that has neither sent nor taken a byte for `idleMs`: a body that stopped half-way, a client
 * that stopped reading its answer, a connection left open without a request (docs/API.md, Hardening). An idle
 * keep-alive connection is closed sooner by Node's own keep-alive timeout; the board's event stream sends a comment
 * every 15 s.
 *
 * A sweep over the open connections, every quarter of `idleMs`, compares each one's byte counts with the last
 * sweep's, as Node checks its header and request timeouts. Node's per-socket idle timer (`server.setTimeout`) does the
 * same job but is refreshed on every read and write: measured on the search benchmark, that cost about a seventh of
 * the answer's time. A stalled connection is closed between `idleMs` and `idleMs` plus one sweep after its last byte.
 */
export function closeStalledConnections(server: Server, idleMs: number) {
  const seen = new Map<Socket, { bytes: number; since: number }>();
  server.on('connection', (socket: Socket) => {
    seen.set(socket, { bytes: 0, since: Date.now() });
    socket.once('close', () => seen.delete(socket));
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [socket, last] of seen) {
      const bytes = socket.bytesRead + socket.bytesWritten;
      if (bytes !== last.bytes) {
        last.bytes = bytes;
        last.since = now;
      } else if (now - last.since >= idleMs) {
        socket.destroy();
      }
    }
  }, Math.max(25, Math.floor(idleMs / 4)));
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}
