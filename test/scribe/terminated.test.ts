import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../server/audit/service.js';
import { openSql } from '../../server/db/sql.js';
import { rootExecutor } from '../../server/db/tx.js';
import { noteReader } from '../../server/notes/service.js';
import { notificationService } from '../../server/notifications/service.js';
import type { ParentMessage } from '../../server/scribe/pipeline/job.js';
import type { LaunchWorker, WorkerProcess } from '../../server/scribe/pipeline/runner.js';
import { scribeService } from '../../server/scribe/service.js';
import { scribeStore } from '../../server/scribe/store.js';
import { secretBox } from '../../server/shared/secret-box.js';
import { systemClock } from '../../server/shared/time.js';
import { webhookService } from '../../server/webhooks/service.js';
import { openTestExecutor } from '../helpers/executor.js';
import { DATABASES } from '../helpers/postgres.js';
import { tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { terminateSessions } from '../helpers/terminate.js';

const T0 = '2030-01-01T00:00:00.000Z';
const pg = DATABASES.find((d) => d.name === 'postgres')!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tally = (keys: string[]) => keys.reduce<Record<string, number>>((m, k) => ((m[k] = (m[k] ?? 0) + 1), m), {});

// The scribe's runner claims sessions with a lease (PostgreSQL: several instances share the table) and runs each in a
// worker process. A step after the claim that fails on a terminated session (the claim's own commit whose answer was
// lost, the job's read, the outcome's write, the retry's write) must neither leave the session `processing` with
// nobody running it until the lease runs out (60 s), nor keep a worker slot taken, nor count as a failed run of the
// session (three database blips would fail a dictation for good).
describe('scribe runner while PostgreSQL sessions are terminated again and again', skipFor(pg.skip), () => {
  it('every dictation processed once and recorded, none left waiting out a lease nor failed for the database\'s sake', async () => {
    const t = await openTestExecutor(pg, 'scribe-terminated');
    const dir = tempDir('scribe-terminated');
    await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES ('w-term', 'w-term', 'IN', 'Asia/Kolkata', ${T0})`.execute(t.e.k);
    // 60 dictations queued beforehand, falling due one every 40 ms while the sessions are being terminated.
    const admin = scribeStore(t.e);
    const ids = Array.from({ length: 60 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    const startedAt = Date.now();
    for (const [i, id] of ids.entries()) {
      const due = new Date(startedAt + 200 + i * 40).toISOString();
      await admin.insertSession({
        id, workspace_id: 'w-term', txn_id: `txn-${id}`, action: 'scribe-v2', folder_path: `w-term/txn-${id}/`, extra_data: '{}',
        patient_id: null, created_by_type: 'user', created_by: 'u1', created_at: T0,
      });
      await admin.initialize({ id, request: '{}', additional_data: '{}', patient_id: null, started_by_type: 'user', started_by: 'u1', now: due });
    }
    // The stand-in worker: ready, then progress, a transcript and a completed result a few ms after `run`; it ends
    // only when the runner kills it, as a worker whose channel cannot confirm delivery does.
    const results = new Map<string, number>();
    const launchWorker: LaunchWorker = () => {
      const events = new EventEmitter();
      let ended = false;
      const worker: WorkerProcess = {
        pid: 1, stderr: null,
        send(m: ParentMessage) {
          const { sessionId } = m.job;
          setTimeout(() => {
            if (ended) return;
            events.emit('message', { type: 'progress', stage: 'recognising', percent: 50 });
            events.emit('message', { type: 'transcript', transcript: { text: '', language: 'en', engine: 'stand-in', segments: [] } });
            results.set(sessionId, (results.get(sessionId) ?? 0) + 1);
            events.emit('message', { type: 'done', result: { status: 'completed', errors: [], output: [] } });
          }, 5 + Math.random() * 20);
        },
        kill() {
          if (ended) return;
          ended = true;
          setImmediate(() => events.emit('exit', null, 'SIGKILL'));
        },
        on(event: string, listener: (...a: any[]) => void) {
          events.on(event, listener);
          return worker;
        },
      };
      setImmediate(() => events.emit('message', { type: 'ready' }));
      return worker;
    };
    // Connections of its own, whose breaking is counted rather than logged (hundreds of times).
    let broken = 0;
    const database = openSql({ postgresUrl: t.url!, onIdleClientError: () => (broken += 1) });
    const e = rootExecutor(database, null);
    const box = secretBox(randomBytes(32));
    const audit = auditLog(e, systemClock);
    const webhooks = webhookService(e, systemClock, box, audit, {});
    const notifications = notificationService(e, systemClock, box, audit, { onError: () => {} });
    let errors = 0;
    const scribe = scribeService({ db: e, clock: systemClock, box, audit, webhooks, notifications, notes: noteReader(e), dataDir: dir }, {
      concurrency: 4, pollIntervalMs: 20, leaseMs: 60_000, retryDelayMs: 20, launchWorker, onError: () => (errors += 1),
    });
    const terminator = terminateSessions(t.e);
    scribe.start();
    try {
      while (Date.now() < startedAt + 200 + ids.length * 40 + 300) await sleep(50);
      await terminator.beyond(10, 8_000);
      await terminator.stop();
      const stoppedAt = Date.now();
      // Every session settled, well within the 60 s lease: the runner polls every 20 ms.
      const rows = () => sql<{ id: string; status: string; attempts: number; last_error: string | null; lease_owner: string | null }>`SELECT id,
        status, attempts, last_error, lease_owner FROM scribe_sessions WHERE workspace_id = 'w-term'`.execute(t.e.k).then((r) => r.rows);
      const deadline = Date.now() + 8_000;
      while ((await rows()).some((r) => r.status === 'queued' || r.status === 'processing') && Date.now() < deadline) await sleep(50);
      const all = await rows();
      const unsettled = all.filter((r) => r.status !== 'completed');
      const twice = [...results.values()].filter((c) => c > 1).length;
      console.log(`scribe: settled ${Date.now() - stoppedAt} ms after the terminations; ${terminator.terminated} sessions terminated, ${broken} idle `
        + `connections broken, ${errors} errors reported; ${all.length} sessions, ${unsettled.length} not completed `
        + `(${JSON.stringify(tally(unsettled.map((r) => `${r.status}${r.lease_owner ? ', leased' : ''}: ${r.last_error?.slice(0, 80) ?? ''}`)))}); `
        + `${twice} run to the end more than once; ${scribe.runner.active().length} workers still active`);
      expect(terminator.terminated).toBeGreaterThan(10);
      expect(unsettled).toEqual([]);
      expect(scribe.runner.active()).toEqual([]);
    } finally {
      await terminator.stop();
      await scribe.stop();
      await database.close();
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
