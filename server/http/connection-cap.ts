import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';

/**
 * At most `max` open connections per remote address: the next one is closed at once, before a byte is read, so
 * one client (a slow-body attacker, a runaway integration) cannot hold every socket the process has. Counted on
 * the server's 'connection' event and released on the socket's 'close'.
 */
export function capConnectionsPerAddress(server: Server, max: number, log?: FastifyBaseLogger) {
  const open = new Map<string, number>();
  // One warning per address while it stays over the cap, not one per refused connection.
  const warned = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      if (!warned.has(address)) {
        warned.add(address);
        log?.warn({ address, max }, 'connection refused: too many open connections from one address');
      }
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left > 0) open.set(address, left);
      else {
        open.delete(address);
        warned.delete(address);
      }
    });
  });
}
