import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbErrorKind } from '../../server/db/sql.js';
import { type Executor, transaction } from '../../server/db/tx.js';
import { type NoteRow, type VersionRow, noteStore } from '../../server/notes/store.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

/**
 * The notes store on SQLite and PostgreSQL: every method, the same inputs giving the same outputs (each suite checks
 * what it expects and records what it got; the last suite compares the two records), constraint errors through
 * dbErrorKind, and transactions (rolled back, nested savepoints).
 */

const T0 = '2025-03-01T10:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

/** What each database answered, by step, for the comparison at the end. */
const answers: Record<string, Record<string, unknown>> = { sqlite: {}, postgres: {} };

async function seed(e: Executor) {
  for (const ws of ['w1', 'w2']) {
    await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES (${ws}, ${ws}, 'IN', 'Asia/Kolkata', ${T0})`.execute(e.k);
  }
  await sql`INSERT INTO users (id, workspace_id, username, display_name, role, password_hash, created_at)
    VALUES ('u1', 'w1', 'doc', 'Dr One', 'doctor', 'x', ${T0}), ('u2', 'w2', 'doc2', 'Dr Two', 'doctor', 'x', ${T0})`.execute(e.k);
  await sql`INSERT INTO patients (id, workspace_id, first_name, last_name, dob, gender, mobile_cc, mobile_national, name_key, created_at, updated_at)
    VALUES ('p1', 'w1', 'Asha', 'Rao', '1990-01-01', 'F', '91', '9800000001', 'asha', ${T0}, ${T0})`.execute(e.k);
  await sql`INSERT INTO appointments (id, workspace_id, patient_id, scheduled_at, local_date, status, created_at, updated_at)
    VALUES ('a1', 'w1', 'p1', ${T0}, '2025-03-01', 'OG', ${T0}, ${T0})`.execute(e.k);
}

/** A finished scribe session (raw SQL: the scribe's store is not under test here). */
async function addSession(e: Executor, s: { id: string; ws?: string; txn: string; createdAt: string; patient?: string | null; status?: string }) {
  const ws = s.ws ?? 'w1';
  await sql`INSERT INTO scribe_sessions (id, workspace_id, txn_id, action, folder_path, extra_data, patient_id, created_by_type, created_by,
      status, stage, created_at, updated_at)
    VALUES (${s.id}, ${ws}, ${s.txn}, 'scribe-v2', ${`${ws}/${s.txn}/`}, '{}', ${s.patient ?? null}, 'user', 'u1',
      ${s.status ?? 'completed'}, 'completed', ${s.createdAt}, ${s.createdAt})`.execute(e.k);
}

const version = (sessionId: string, v: number, createdAt: string, by = 'u1'): VersionRow => ({
  session_id: sessionId, version: v, kind: v === 1 ? 'signed' : 'amendment', emr: JSON.stringify({ v, text: 'ü ✓ "quoted"' }),
  reason: v === 1 ? null : `amendment ${v}`, created_by: by, created_at: createdAt,
});

/** The error kind a rejected call gives (null when it did not fail with a database constraint). */
async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return dbErrorKind(e) ?? `other: ${(e as Error).message}`;
  }
  return 'no error';
}

/** A signed note of session `id` (ensure, sign, version 1). */
async function signed(e: Executor, id: string, ws = 'w1', patient: string | null = null, signedAt = at(100)) {
  const s = noteStore(e);
  await s.ensure({ session_id: id, workspace_id: ws, patient_id: patient, now: signedAt });
  expect(await s.sign({ session_id: id, patient_id: patient, appointment_id: null, now: signedAt })).toBe(true);
  await s.insertVersion(version(id, 1, signedAt, ws === 'w1' ? 'u1' : 'u2'));
}

for (const db of DATABASES) {
  describe(`notes store (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    const got = answers[db.name]!;
    beforeAll(async () => {
      t = await openTestExecutor(db, 'store-notes');
      await seed(t.e);
    });
    afterAll(async () => t?.close());

    it('makes a note once (ensure), saves drafts until signing, signs once and amends version by version', async () => {
      const s = noteStore(t.e);
      await addSession(t.e, { id: 's1', txn: 'T-1', createdAt: at(1), patient: 'p1' });
      expect(await s.note('s1')).toBeUndefined();

      await s.ensure({ session_id: 's1', workspace_id: 'w1', patient_id: 'p1', now: at(10) });
      // A second ensure changes nothing (ON CONFLICT DO NOTHING): the first row's values stay.
      await s.ensure({ session_id: 's1', workspace_id: 'w1', patient_id: 'other', now: at(11) });
      const made = await s.note('s1');
      expect(made).toEqual<NoteRow>({
        session_id: 's1', workspace_id: 'w1', patient_id: 'p1', appointment_id: null, draft: null, draft_by: null, draft_at: null,
        latest_version: 0, created_at: at(10), updated_at: at(10),
      });
      got.made = made;

      expect(await s.saveDraft({ session_id: 's1', draft: '{"emr":{}}', by: 'u1', now: at(20) })).toBe(true);
      expect(await s.saveDraft({ session_id: 's1', draft: '{"emr":{"x":1}}', by: 'u1', now: at(21) })).toBe(true);
      const drafted = await s.note('s1');
      expect(drafted).toMatchObject({ draft: '{"emr":{"x":1}}', draft_by: 'u1', draft_at: at(21), updated_at: at(21), latest_version: 0 });
      got.drafted = drafted;
      // No note row: nothing to save the draft on.
      expect(await s.saveDraft({ session_id: 'nope', draft: '{}', by: 'u1', now: at(21) })).toBe(false);

      expect(await s.sign({ session_id: 's1', patient_id: 'p1', appointment_id: 'a1', now: at(30) })).toBe(true);
      expect(await s.sign({ session_id: 's1', patient_id: 'p1', appointment_id: 'a1', now: at(31) })).toBe(false);
      expect(await s.saveDraft({ session_id: 's1', draft: '{}', by: 'u1', now: at(32) })).toBe(false);
      await s.insertVersion(version('s1', 1, at(30)));
      const afterSign = await s.note('s1');
      expect(afterSign).toMatchObject({ latest_version: 1, patient_id: 'p1', appointment_id: 'a1', updated_at: at(30), draft_at: at(21) });
      got.afterSign = afterSign;

      expect(await s.amend({ session_id: 's1', version: 3, now: at(40) })).toBe(false);
      expect(await s.amend({ session_id: 's1', version: 2, now: at(40) })).toBe(true);
      // A concurrent amendment to version 2 lost: the note is at 2 now.
      expect(await s.amend({ session_id: 's1', version: 2, now: at(41) })).toBe(false);
      await s.insertVersion(version('s1', 2, at(40)));
      expect(await s.amend({ session_id: 's1', version: 3, now: at(50) })).toBe(true);
      await s.insertVersion(version('s1', 3, at(50)));
      expect((await s.note('s1'))!.latest_version).toBe(3);

      expect(await s.version('s1', 2)).toEqual(version('s1', 2, at(40)));
      expect(await s.version('s1', 4)).toBeUndefined();
      const versions = await s.versions('s1');
      expect(versions).toEqual([1, 2, 3].map((v) => {
        const { emr: _emr, ...rest } = version('s1', v, v === 1 ? at(30) : at(v * 10 + 20));
        return rest;
      }));
      got.versions = versions;
      got.version1 = await s.version('s1', 1);
    });

    it('refuses what the schema forbids, each error named by dbErrorKind', async () => {
      const s = noteStore(t.e);
      await addSession(t.e, { id: 's2', txn: 'T-2', createdAt: at(2) });
      await s.ensure({ session_id: 's2', workspace_id: 'w1', patient_id: null, now: at(10) });
      const kinds = {
        // A note of a session that does not exist, or of an unknown clinic.
        noSession: await kindOf(s.ensure({ session_id: 'ghost', workspace_id: 'w1', patient_id: null, now: at(10) })),
        noWorkspace: await kindOf((async () => {
          await addSession(t.e, { id: 's3', txn: 'T-3', createdAt: at(3) });
          await s.ensure({ session_id: 's3', workspace_id: 'nowhere', patient_id: null, now: at(10) });
        })()),
        // Signed with an appointment that does not exist.
        noAppointment: await kindOf(s.sign({ session_id: 's2', patient_id: null, appointment_id: 'ghost', now: at(11) })),
        // Version 1 twice.
        duplicate: await (async () => {
          await s.insertVersion(version('s2', 1, at(12)));
          return kindOf(s.insertVersion(version('s2', 1, at(13))));
        })(),
        // Version 2 said to be the signed one; an amendment without a reason; version 0.
        signedTwo: await kindOf(s.insertVersion({ ...version('s2', 2, at(14)), kind: 'signed', reason: null })),
        noReason: await kindOf(s.insertVersion({ ...version('s2', 2, at(14)), reason: null })),
        zero: await kindOf(s.insertVersion({ ...version('s2', 0, at(14)), kind: 'signed' })),
        unknownDoctor: await kindOf(s.insertVersion(version('s2', 2, at(14), 'ghost'))),
        noEmr: await kindOf(s.insertVersion({ ...version('s2', 2, at(14)), emr: null as unknown as string })),
      };
      expect(kinds).toEqual({
        noSession: 'foreign_key', noWorkspace: 'foreign_key', noAppointment: 'foreign_key', duplicate: 'unique',
        signedTwo: 'check', noReason: 'check', zero: 'check', unknownDoctor: 'foreign_key', noEmr: 'not_null',
      });
      // Nothing of the refused writes stayed.
      expect(await s.note('s3')).toBeUndefined();
      expect((await s.versions('s2')).map((v) => v.version)).toEqual([1]);
      expect((await s.note('s2'))!.appointment_id).toBeNull();
      got.kinds = kinds;
      // Signed versions are immutable (triggers on both): the store never updates them, and nobody else can.
      await expect(sql`UPDATE note_versions SET emr = '{}' WHERE session_id = 's2'`.execute(t.e.k)).rejects.toThrow(/immutable/);
      await expect(sql`DELETE FROM note_versions WHERE session_id = 's2'`.execute(t.e.k)).rejects.toThrow(/immutable/);
    });

    it('lists the sessions with a signed note newest first, by created_at then txn_id, with filters, cursor and limit', async () => {
      // Sessions of w1 so far: s1 (T-1 at 1, signed), s2 (a version row but never signed: its sign was refused) and s3
      // (no note). More: ties on created_at, another status, another clinic's, one without a note, one with a draft only.
      await addSession(t.e, { id: 's4', txn: 'T-4', createdAt: at(5), patient: 'p1', status: 'partial' });
      await addSession(t.e, { id: 's5', txn: 'T-5', createdAt: at(5), patient: 'p1' });
      await addSession(t.e, { id: 's6', txn: 'T-0', createdAt: at(5) });
      await addSession(t.e, { id: 's7', txn: 'T-7', createdAt: at(9), patient: 'p1' });
      await addSession(t.e, { id: 's8', txn: 'T-8', createdAt: at(9) });
      await addSession(t.e, { id: 'x1', ws: 'w2', txn: 'T-9', createdAt: at(8) });
      for (const id of ['s4', 's5', 's6']) await signed(t.e, id, 'w1', id === 's6' ? null : 'p1');
      await signed(t.e, 'x1', 'w2');
      const s = noteStore(t.e);
      await s.ensure({ session_id: 's8', workspace_id: 'w1', patient_id: null, now: at(10) });
      await s.saveDraft({ session_id: 's8', draft: '{}', by: 'u1', now: at(10) });

      const ids = async (p: Omit<Parameters<typeof s.signedSessions>[0], 'workspaceId'> & { workspaceId?: string }) =>
        (await s.signedSessions({ workspaceId: 'w1', ...p })).map((r) => r.id);
      const lists = {
        all: await ids({ limit: 10 }),
        limited: await ids({ limit: 2 }),
        patient: await ids({ patientId: 'p1', limit: 10 }),
        partial: await ids({ status: 'partial', limit: 10 }),
        completedOfPatient: await ids({ patientId: 'p1', status: 'completed', limit: 10 }),
        afterT5: await ids({ after: { created_at: at(5), txn_id: 'T-5' }, limit: 10 }),
        afterT4OfPatient: await ids({ patientId: 'p1', after: { created_at: at(5), txn_id: 'T-4' }, limit: 10 }),
        everyFilter: await ids({ patientId: 'p1', status: 'completed', after: { created_at: at(9), txn_id: 'T-0' }, limit: 1 }),
        otherClinic: await ids({ workspaceId: 'w2', limit: 10 }),
        nobody: await ids({ workspaceId: 'w9', limit: 10 }),
      };
      expect(lists).toEqual({
        all: ['s5', 's4', 's6', 's1'],
        limited: ['s5', 's4'],
        patient: ['s5', 's4', 's1'],
        partial: ['s4'],
        completedOfPatient: ['s5', 's1'],
        afterT5: ['s4', 's6', 's1'],
        afterT4OfPatient: ['s1'],
        everyFilter: ['s5'],
        otherClinic: ['x1'],
        nobody: [],
      });
      got.lists = lists;
      // The rows are the sessions as stored, every column.
      const rows = await s.signedSessions({ workspaceId: 'w1', patientId: 'p1', limit: 1 });
      expect(rows[0]).toMatchObject({ id: 's5', txn_id: 'T-5', workspace_id: 'w1', status: 'completed', percent: 0, attempts: 0, extra_data: '{}' });
      expect(Object.keys(rows[0]!)).not.toContain('seq');
      got.rows = rows;
    });

    it('runs inside a transaction: rolled back with it, a failed savepoint undone while the rest commits', async () => {
      await addSession(t.e, { id: 't1', txn: 'TX-1', createdAt: at(20) });
      await addSession(t.e, { id: 't2', txn: 'TX-2', createdAt: at(21) });
      await expect(transaction(t.e, async (tx) => {
        await signed(tx, 't1');
        expect((await noteStore(tx).note('t1'))!.latest_version).toBe(1);
        throw new Error('refused');
      })).rejects.toThrow('refused');
      expect(await noteStore(t.e).note('t1')).toBeUndefined();

      await transaction(t.e, async (tx) => {
        const s = noteStore(tx);
        await s.ensure({ session_id: 't2', workspace_id: 'w1', patient_id: null, now: at(30) });
        // A constraint error inside a savepoint: on PostgreSQL the transaction goes on only because of it.
        const kind = await kindOf(transaction(tx, async (inner) => {
          await noteStore(inner).saveDraft({ session_id: 't2', draft: '{"a":1}', by: 'u1', now: at(31) });
          await noteStore(inner).insertVersion(version('t2', 1, at(31), 'ghost'));
        }));
        expect(kind).toBe('foreign_key');
        expect(await s.sign({ session_id: 't2', patient_id: null, appointment_id: null, now: at(32) })).toBe(true);
        await s.insertVersion(version('t2', 1, at(32)));
      });
      const n = await noteStore(t.e).note('t2');
      expect(n).toMatchObject({ latest_version: 1, draft: null, draft_by: null, updated_at: at(32) });
      expect((await noteStore(t.e).versions('t2')).map((v) => v.version)).toEqual([1]);
      got.transactions = { t1: await noteStore(t.e).note('t1'), t2: n };
    });
  });
}

describe('notes store: the same answers on both databases', skipFor(DATABASES.find((d) => d.name === 'postgres')!.skip), () => {
  it('answered every step alike', () => {
    expect(Object.keys(answers.sqlite!).length).toBeGreaterThan(5);
    expect(answers.postgres).toEqual(answers.sqlite);
  });
});
