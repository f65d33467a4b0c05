import type { AnonymousContext, RequestContext } from '../auth/permissions.js';
import type { Executor, Tx } from '../db/tx.js';
import { type Clock, isoNow } from '../shared/time.js';
import type { ReadsWriter } from './reads-writer.js';
import { type AuditEntry, type AuditRow, auditEntry, auditStore } from './store.js';

export interface AuditEvent {
  action: string;
  resourceType?: string;
  resourceIds?: string[];
  outcome: AuditEntry['outcome'];
}

/** How long read entries wait to go as one batch, and how often a failed batch is tried again. */
const BATCH_MS = 20;
const RETRY_MS = 1000;

/**
 * The audit trail. Changes are audited inside the transaction that makes them (`inTransaction`), so a change
 * and its audit row commit together. Reads are queued and written in batches a moment later through `reads`:
 * a search must not pay for a disk flush. On SQLite that is a writer thread (audit/reads-worker.ts): each batch goes
 * to a journal file without an fsync per commit, and from there into audit_log every few seconds, and whenever the
 * log is flushed (reading it, a backup, closing); a crash of the process can lose the last few milliseconds of read
 * entries, a power loss those since the last checkpoint. On PostgreSQL it is the service's own pool (createService),
 * and a batch is one multi-row INSERT (audit/store.ts) committed like any other write, so the same crash loses only
 * the entries still queued; a batch that fails there (PostgreSQL restarting or failing over) stays queued and goes
 * again every RETRY_MS until it is stored (one whose COMMIT was lost with its connection may then be stored twice,
 * which an audit trail prefers to losing it).
 */
export function auditLog(db: Executor, clock: Clock, reads: Executor | ReadsWriter = db) {
  const store = auditStore(db);
  const writer = 'write' in reads ? reads : storeWriter(reads === db ? store : auditStore(reads));
  // Entries handed to the writer since the last batch, or a failed batch it kept.
  let unwritten = false;
  let scheduled = false;
  // Since when batches fail (logged once an outage, not once a retry), or null.
  let failingSince: number | null = null;
  // The batch being written, so that a flush awaited at close also waits for one a timer started.
  let writing: Promise<void> = Promise.resolve();

  const row = (ctx: RequestContext | AnonymousContext, e: AuditEvent): AuditRow => [
    isoNow(clock), ctx.caller?.workspaceId ?? null, ctx.caller ? ctx.caller.kind : 'anonymous', ctx.caller?.id ?? null, e.action,
    e.resourceType ?? null, e.resourceIds?.length ? JSON.stringify(e.resourceIds) : null, e.outcome, ctx.ip, ctx.requestId,
  ];

  function schedule(ms: number) {
    if (scheduled) return;
    scheduled = true;
    // Its failure is handled in write below: it stays queued and is tried again.
    setTimeout(() => void flush(false).catch(() => undefined), ms).unref();
  }

  const write = (settle: boolean) => writer.write(settle).then(() => {
    if (failingSince !== null) console.error(`clinic-desk: read-audit entries stored again after ${Math.round((Date.now() - failingSince) / 1000)} s`);
    failingSince = null;
  }, (e: unknown) => {
    if (failingSince === null) {
      failingSince = Date.now();
      console.error(`clinic-desk: read-audit entries could not be stored (${(e as Error).message}); kept, and tried again every ${RETRY_MS / 1000} s`);
    }
    unwritten = true;
    schedule(RETRY_MS);
    throw e;
  });

  /**
   * Writes the queued entries; resolves when they (and any batch already being written) are stored, and with
   * `settle` in audit_log itself (a writer thread's journal moved). Rejects when they could not be: they stay queued.
   */
  function flush(settle: boolean): Promise<void> {
    scheduled = false;
    if (!unwritten && !(settle && writer === reads)) return writing;
    unwritten = false;
    // A failed batch fails its own flush and not the next ones.
    writing = writing.then(() => write(settle), () => write(settle));
    return writing;
  }

  return {
    /** Writes now; call inside the transaction of the change being audited. */
    inTransaction: (tx: Tx, ctx: RequestContext, e: AuditEvent) => auditStore(tx).insert(auditEntry(row(ctx, e))),
    /** Queues an entry for the next batch. */
    later(ctx: RequestContext | AnonymousContext, e: AuditEvent) {
      writer.add(row(ctx, e));
      unwritten = true;
      schedule(failingSince === null ? BATCH_MS : RETRY_MS);
    },
    /** Everything queued, in audit_log. */
    flush: () => flush(true),
    /** A workspace's latest entries, newest first, the reads queued until now included. */
    async recent(workspaceId: string, limit: number) {
      await flush(true);
      return store.recent(workspaceId, limit);
    },
  };
}
export type AuditLog = ReturnType<typeof auditLog>;

/** Read batches written through an executor (PostgreSQL's pool; tests): the entries kept until their batch goes. */
function storeWriter(store: ReturnType<typeof auditStore>): ReadsWriter {
  let pending: AuditEntry[] = [];
  return {
    add: (row) => void pending.push(auditEntry(row)),
    async write() {
      const batch = pending;
      pending = [];
      try {
        await store.insertMany(batch);
      } catch (e) {
        // Kept for the next batch, ahead of what came meanwhile.
        pending = batch.concat(pending);
        throw e;
      }
    },
    close: async () => undefined,
  };
}
