import type { FastifyInstance } from 'fastify';
import type { SqlDatabase } from '../db/sql.js';

/**
 * No answer leaves before every change committed until then is on disk (SQLite's group commit,
 * db/group-commit.ts): the one place that keeps "an accepted change survives kill -9 and power loss" for every route,
 * whether its write went through a durable transaction (already flushed by then) or committed by itself, and for a
 * read that shows another request's change still being flushed. While nothing is pending, answers go out as before.
 * A flush that fails turns the answer into an error: the change cannot be promised. Hijacked answers (the OpenID
 * provider's, the board's event stream) wait where they write: tx.ts `durable`, and the board is read after a
 * durable transaction.
 */
export function answerWhenDurable(app: FastifyInstance, database: SqlDatabase) {
  app.addHook('onSend', (_request, _reply, payload, done) => {
    const pending = database.flushed();
    if (!pending) return done(null, payload);
    pending.then(() => done(null, payload), (e: Error) => done(e));
  });
}
