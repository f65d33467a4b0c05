import { type Socket, connect, createServer } from 'node:net';

/**
 * A TCP relay in front of a server (PostgreSQL), to break a connection the way a network does: `freeze` stops
 * carrying the bytes of the connections open now without closing them (a hung connection); `cut` closes them and
 * refuses every new one until `restore` (a cable pulled). Its `url` is `target` with the relay's port.
 */
export async function tcpRelay(target: URL) {
  const pairs: [Socket, Socket][] = [];
  const sockets = new Set<Socket>();
  let refusing = false;
  const server = createServer((inbound) => {
    if (refusing) return void inbound.destroy();
    const outbound = connect(Number(target.port), target.hostname);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', close).on('close', close);
    outbound.on('error', close).on('close', close);
    pairs.push([inbound, outbound]);
    for (const socket of [inbound, outbound]) sockets.add(socket.once('close', () => sockets.delete(socket)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    freeze() {
      for (const [inbound, outbound] of pairs.splice(0)) {
        inbound.unpipe(outbound);
        outbound.unpipe(inbound);
        inbound.pause();
        outbound.pause();
      }
    },
    cut() {
      refusing = true;
      pairs.splice(0);
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      refusing = false;
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
