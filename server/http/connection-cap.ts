import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { ConnectionWatch } from './stall-guard.js';

/**
 * At most `max` open connections per remote address, so one client (a slow-body attacker, a runaway integration)
 * cannot hold every socket the process has. Every local program shares 127.0.0.1, so a misbehaving one must not
 * lock out the front desk: at the cap, the connection from that address that has waited on its client longest
 * (a half-sent request, a trickling body, an idle keep-alive) is closed to make room, and a new connection is
 * refused (closed before a byte is read) only when every one of them is being answered.
 */
export function capConnectionsPerAddress(server: Server, max: number, watch: ConnectionWatch, log?: FastifyBaseLogger) {
  const open = new Map<string, Set<Socket>>();
  // One warning per address while it stays at the cap, not one per connection closed.
  const warned = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    let sockets = open.get(address);
    if (!sockets) open.set(address, sockets = new Set());
    if (sockets.size >= max) {
      const waiting = watch.longestWaiting(sockets);
      if (!warned.has(address)) {
        warned.add(address);
        log?.warn({ address, max }, 'connection limit reached for one address: closing connections that wait on their client first');
      }
      if (!waiting) return void socket.destroy();
      sockets.delete(waiting);
      waiting.destroy();
    }
    sockets.add(socket);
    socket.once('close', () => {
      if (!sockets.delete(socket) || sockets.size > 0) return;
      open.delete(address);
      warned.delete(address);
    });
  });
}
