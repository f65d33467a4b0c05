import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authenticate } from '../http/auth.js';
import { drErrors, security } from '../http/dr.js';
import { guardCheck, registerOperationRoutes } from '../http/operation-routes.js';
import type { Service } from '../service.js';
import { appointmentOperations, boardRead } from './operations.js';
import { EVERY_CLINIC } from './service.js';

/** A live board stream ends after this long and the display reconnects, so a revoked token stops being served. */
const STREAM_MAX_MS = 60 * 60_000;
/** Comment lines keep the stream's connection from looking idle (the server's idle timeout, proxies). */
const HEARTBEAT_MS = 15_000;

/** Endpoints 2 and 3, booking, reading and listing appointments, and the waiting-room board: the operations' routes, then the board's stream. */
export const appointmentRoutes: FastifyPluginAsyncTypebox<{ service: Service }> = async (app, { service }) => {
  const { audit, appointments } = service;
  app.addHook('onRequest', authenticate(service));
  registerOperationRoutes(app, service, appointmentOperations);

  // Open board streams, ended when the server closes (an open response would otherwise hold close() up).
  const streams = new Set<() => void>();
  app.addHook('preClose', (done) => {
    for (const end of streams) end();
    done();
  });

  app.get('/dr/v1/queue/events', {
    config: { errors: 'dr-envelope' },
    preParsing: guardCheck(boardRead, audit),
    schema: {
      operationId: 'queueBoardEvents',
      tags: ['appointments'],
      summary: 'The board as server-sent events: event "board" at once and after every change of the clinic\'s appointments',
      description: 'text/event-stream; each event\'s data is the board of GET /dr/v1/queue/board. A comment line every 15 s keeps '
        + 'the connection alive; the stream ends after an hour (reconnect: the token is checked again).',
      security,
      response: { 200: Type.String({ description: 'text/event-stream' }), ...drErrors('envelope', [401, 403, 500]) },
    },
  }, (request, reply) => {
    const { ctx } = request;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': request.id,
      'x-content-type-options': 'nosniff',
    });
    // The board is read after the change that prompts it; the stream may have closed by the time it is there. A board
    // that cannot be read ends the stream (the client reconnects) rather than leave it silent.
    const send = (audited: boolean) => void appointments.board(ctx, audited).then(
      (board) => void (res.writableEnded || res.write(`event: board\ndata: ${JSON.stringify(board)}\n\n`)),
      () => res.end(),
    );
    send(true);
    const off = appointments.onChange((workspaceId) => {
      if (workspaceId === ctx.caller.workspaceId || workspaceId === EVERY_CLINIC) send(false);
    });
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const end = () => res.end();
    const limit = setTimeout(end, STREAM_MAX_MS);
    streams.add(end);
    res.on('close', () => {
      off();
      clearInterval(beat);
      clearTimeout(limit);
      streams.delete(end);
    });
  });
};
