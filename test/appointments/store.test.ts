import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppointmentRow, type StatusChangeRow, appointmentStore } from '../../server/appointments/store.js';
import { dbErrorKind } from '../../server/db/sql.js';
import { transaction } from '../../server/db/tx.js';
import { createService } from '../../server/service.js';
import type { RequestContext } from '../../server/auth/permissions.js';
import { ROLE_SCOPES } from '../../server/auth/permissions.js';
import { ServiceError } from '../../server/shared/errors.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES, freshPostgresDatabase } from '../helpers/postgres.js';
import { tempDir } from '../helpers/server.js';
import { rmSync } from 'node:fs';
import { skipFor } from '../helpers/skip.js';

// The appointments store written once for both databases (issue 17): every method, the same inputs giving the same
// rows on SQLite and PostgreSQL, in the same order, with the same constraint errors and transactions; and what
// several instances on one PostgreSQL need (a token taken twice at once, a locked appointment, a booking's lock),
// run as two concurrent transactions (on SQLite the second waits for the connection, and the answers are the same).
// Each suite records what it read; the last test compares the two records whole.
const DAY = '2030-01-01';
const NEXT_DAY = '2030-01-02';
const T0 = '2030-01-01T00:00:00.000Z';
const at = (hhmm: string, day = DAY) => `${day}T${hhmm}:00.000Z`;

const appt = (id: string, more: Partial<AppointmentRow> = {}): AppointmentRow => ({
  id, workspace_id: 'w1', patient_id: 'p1', partner_appointment_id: null, doctor_id: 'doc-a', scheduled_at: at('03:30'),
  local_date: DAY, reason: '', status: 'BK', created_at: T0, updated_at: T0, duration_min: 15, walk_in: 0, overbook: 0, token: null,
  ...more,
});
const change = (a: AppointmentRow, from: StatusChangeRow['from_status'], to: StatusChangeRow['to_status'], changedAt: string,
  more: Partial<StatusChangeRow> = {}): StatusChangeRow => ({
  appointment_id: a.id, workspace_id: a.workspace_id, from_status: from, to_status: to, actor_type: 'user', actor_id: 'u-desk',
  request_id: null, changed_at: changedAt, correction: 0, overbook: 0, token: null, ...more,
});

/** What a failed promise's database error was, whichever the database. */
async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return dbErrorKind(e);
  }
  return 'no error';
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const transcripts = new Map<string, unknown[]>();

for (const db of DATABASES) {
  describe(`appointments store (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    const seen: unknown[] = [];
    /** Records what a read answered, for the comparison of the two databases at the end. */
    const rec = <T>(v: T): T => (seen.push(structuredClone(v)), v);
    const store = () => appointmentStore(t.e);
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

    beforeAll(async () => {
      t = await openTestExecutor(db, 'store-appointments');
      for (const ws of ['w1', 'w2']) {
        await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES (${ws}, ${ws}, 'IN', 'Asia/Kolkata', ${T0})`.execute(t.e.k);
      }
      for (const [id, ws, name] of [['doc-a', 'w1', 'Dr Asha'], ['doc-b', 'w1', 'Dr Bala'], ['doc-w2', 'w2', 'Dr Other']] as const) {
        await sql`INSERT INTO users (id, workspace_id, username, display_name, role, password_hash, created_at)
          VALUES (${id}, ${ws}, ${id}, ${name}, 'doctor', 'x', ${T0})`.execute(t.e.k);
      }
      for (const [id, ws, first] of [['p1', 'w1', 'Anu'], ['p2', 'w1', 'Bina'], ['p3', 'w1', 'Chitra'], ['p4', 'w1', 'Divya'], ['p-w2', 'w2', 'Esha']] as const) {
        await sql`INSERT INTO patients (id, workspace_id, first_name, middle_name, last_name, dob, gender, mobile_cc, mobile_national,
          name_key, created_at, updated_at) VALUES (${id}, ${ws}, ${first}, '', 'Rao', '1990-01-01', 'F', '91', ${`98765${id.length}0000`},
          ${`${first.toLowerCase()}\u001frao`}, ${T0}, ${T0})`.execute(t.e.k);
      }
    });
    afterAll(async () => {
      transcripts.set(db.name, seen);
      await t?.close();
    });

    const A1 = appt('a1', { partner_appointment_id: 'P-1', reason: 'fever' });
    const A2 = appt('a2', { patient_id: 'p2', scheduled_at: at('03:45'), walk_in: 1 });
    const A3 = appt('a3', { patient_id: 'p3', doctor_id: null, scheduled_at: at('04:00'), duration_min: 30 });
    const A4 = appt('a4', { patient_id: 'p4', doctor_id: 'doc-b', scheduled_at: at('03:30'), overbook: 1 });
    const W2 = appt('w2-1', { workspace_id: 'w2', patient_id: 'p-w2', doctor_id: 'doc-w2', partner_appointment_id: 'P-1' });

    it('insert and find, by id and partner id, scoped to the clinic; a partner id taken is false; constraint errors', async () => {
      const s = store();
      for (const a of [A2, A1, A3, A4, W2]) expect(await s.insert(a)).toBe(true);
      expect(rec(await s.find('w1', 'a1', false))).toEqual(A1);
      expect(rec(await s.find('w1', 'P-1', true))).toEqual(A1);
      expect(rec(await s.find('w2', 'P-1', true))).toEqual(W2);
      expect(await s.find('w2', 'a1', false)).toBeUndefined();
      expect(await s.find('w1', 'a1', true)).toBeUndefined(); // an id is not a partner id
      expect(await s.find('w1', 'nope', false)).toBeUndefined();
      expect(rec(await s.find('w1', 'a3', false))).toEqual(A3);

      // The same partner id in the same clinic: not inserted, no error, the first booking untouched.
      expect(await s.insert(appt('a-dup', { partner_appointment_id: 'P-1', patient_id: 'p2' }))).toBe(false);
      expect(await s.find('w1', 'a-dup', false)).toBeUndefined();
      expect(await s.find('w1', 'P-1', true)).toEqual(A1);

      expect(await kindOf(s.insert(appt('a1')))).toBe('unique');
      expect(await kindOf(s.insert(appt('a-bad', { status: 'XX' as 'BK' })))).toBe('check');
      expect(await kindOf(s.insert(appt('a-nopat', { patient_id: 'nobody' })))).toBe('foreign_key');
      expect(await kindOf(s.insert(appt('a-nodoc', { doctor_id: 'nobody' })))).toBe('foreign_key');
      expect(await kindOf(s.insert(appt('a-null', { scheduled_at: null as unknown as string })))).toBe('not_null');
      expect(await kindOf(s.insertChange(change(appt('nobody'), null, 'BK', T0)))).toBe('foreign_key');
      expect(await kindOf(s.insertChange(change(A1, null, null as unknown as 'BK', T0)))).toBe('not_null');

      // Locked inside a transaction, the same row.
      expect(await transaction(t.e, async (tx) => appointmentStore(tx).find('w1', 'a2', false, { lock: true }))).toEqual(A2);
    });

    it('clashes: overlap of each booking\'s own span with [start, end), by doctor or patient, slot-holding states, in time order', async () => {
      const s = store();
      const q = (doctor: string | null, patient: string, start: string, end: string) =>
        s.clashes({ ws: 'w1', doctor, patient, start, end, earliest: new Date(new Date(end).getTime() - 240 * 60_000).toISOString() });
      // doc-a holds 03:30–03:45 (a1) and 03:45–04:00 (a2).
      expect(rec(await q('doc-a', 'p9', at('03:40'), at('03:50')))).toEqual([
        { id: 'a1', patient_id: 'p1', doctor_id: 'doc-a', scheduled_at: at('03:30'), duration_min: 15, status: 'BK' },
        { id: 'a2', patient_id: 'p2', doctor_id: 'doc-a', scheduled_at: at('03:45'), duration_min: 15, status: 'BK' },
      ]);
      expect(ids(await q('doc-a', 'p9', at('03:45'), at('04:00')))).toEqual(['a2']); // a1 ends as it starts
      expect(ids(await q('doc-a', 'p9', at('03:15'), at('03:30')))).toEqual([]); // ends as a1 starts
      expect(ids(await q('doc-a', 'p9', '2030-01-01T03:44:59.999Z', at('03:46')))).toEqual(['a1', 'a2']);
      expect(ids(await q('doc-a', 'p9', at('04:00'), at('05:00')))).toEqual([]);
      // The patient's own booking with another doctor, or with none (a3: 04:00–04:30).
      expect(rec(await q('doc-b', 'p3', at('04:15'), at('04:30')))).toEqual([
        { id: 'a3', patient_id: 'p3', doctor_id: null, scheduled_at: at('04:00'), duration_min: 30, status: 'BK' },
      ]);
      expect(ids(await q(null, 'p3', at('04:29'), at('04:45')))).toEqual(['a3']);
      expect(ids(await q(null, 'p9', at('04:00'), at('04:30')))).toEqual([]); // no doctor: never the clinic's others
      // Same start: ordered by id (a1 of doc-a's patient p1 and a4 of doc-b).
      expect(ids(await q('doc-b', 'p1', at('03:30'), at('03:45')))).toEqual(['a1', 'a4']);
      // Another clinic's, never; outside the earliest bound, not looked at.
      expect(ids(await s.clashes({ ws: 'w2', doctor: 'doc-a', patient: 'p1', start: at('03:30'), end: at('03:45'), earliest: at('00:00') }))).toEqual([]);
      expect(ids(await s.clashes({ ws: 'w1', doctor: 'doc-a', patient: 'p9', start: at('03:40'), end: at('03:50'), earliest: at('03:31') }))).toEqual(['a2']);
      // Completed, cancelled and no-show bookings free the slot.
      const D3 = '2030-01-03';
      for (const [id, status] of [['a-cm', 'CM'], ['a-cn', 'CN'], ['a-ns', 'NS'], ['a-pk', 'PK']] as const) {
        await s.insert(appt(id, { status, local_date: D3, scheduled_at: at('10:00', D3) }));
      }
      expect(ids(await q('doc-a', 'p9', at('10:00', D3), at('10:15', D3)))).toEqual(['a-pk']);
    });

    it('status and tokens: per doctor per day from 1, the clinic\'s own without a doctor, unique; waiting order, board, day list, history', async () => {
      const s = store();
      expect(await s.nextToken('w1', DAY, 'doc-a')).toBe(1);
      expect(await s.nextToken('w1', DAY, null)).toBe(1);
      expect(await s.setStatusGivingToken(A2, 'CK', at('03:00'))).toBe(1);
      expect(await s.setStatusGivingToken(A1, 'CK', at('03:01'))).toBe(2);
      expect(await s.setStatusGivingToken(A3, 'OG', at('03:02'))).toBe(1); // no doctor: the clinic's own numbers
      expect(await s.setStatusGivingToken(A4, 'CK', at('03:03'))).toBe(1); // doc-b's
      expect(await s.nextToken('w1', DAY, 'doc-a')).toBe(3);
      expect(await s.nextToken('w1', NEXT_DAY, 'doc-a')).toBe(1);
      expect(await s.nextToken('w2', DAY, 'doc-a')).toBe(1);
      expect(rec(await s.find('w1', 'a2', false))).toEqual({ ...A2, status: 'CK', token: 1, updated_at: at('03:00') });

      // The unique index: one doctor's day never has the same token twice.
      expect(await kindOf(s.setStatus('a1', 'CK', at('03:05'), 1))).toBe('unique');
      expect((await s.find('w1', 'a1', false))!.token).toBe(2);

      expect(rec(await s.nextWaiting('w1', DAY, 'doc-a'))).toEqual({ ...A2, status: 'CK', token: 1, updated_at: at('03:00') });
      await s.setStatus('a2', 'OG', at('03:10')); // no token given: a2 keeps its 1 (the board below)
      expect((await s.nextWaiting('w1', DAY, 'doc-a'))!.id).toBe('a1');
      expect(await s.nextWaiting('w1', DAY, 'doc-w2')).toBeUndefined();
      expect(await s.nextWaiting('w1', NEXT_DAY, 'doc-a')).toBeUndefined();

      // Checked in or ongoing, tokens first (then time), a token-less one last.
      await s.insert(appt('a5', { patient_id: 'p1', doctor_id: 'doc-b', scheduled_at: at('02:00') }));
      await s.setStatus('a5', 'CK', at('03:11'), null);
      expect(rec(await s.board('w1', DAY))).toEqual([
        { doctor_id: 'doc-b', doctor_name: 'Dr Bala', status: 'CK', token: 1, first_name: 'Divya', scheduled_at: at('03:30') },
        { doctor_id: 'doc-a', doctor_name: 'Dr Asha', status: 'OG', token: 1, first_name: 'Bina', scheduled_at: at('03:45') },
        { doctor_id: null, doctor_name: null, status: 'OG', token: 1, first_name: 'Chitra', scheduled_at: at('04:00') },
        { doctor_id: 'doc-a', doctor_name: 'Dr Asha', status: 'CK', token: 2, first_name: 'Anu', scheduled_at: at('03:30') },
        { doctor_id: 'doc-b', doctor_name: 'Dr Bala', status: 'CK', token: null, first_name: 'Anu', scheduled_at: at('02:00') },
      ]);
      expect(await s.board('w2', DAY)).toEqual([]);

      // History in order; the latest change says whether an undo may reverse it.
      await s.insertChange(change(A1, null, 'BK', T0, { request_id: 'r-1' }));
      await s.insertChange(change(A1, 'BK', 'CK', at('03:01'), { token: 2 }));
      await s.insertChange(change(A2, null, 'BK', T0, { overbook: 1 }));
      await s.insertChange(change(A2, 'BK', 'CK', at('03:00'), { token: 1 }));
      await s.insertChange(change(A2, 'CK', 'OG', at('03:10')));
      await s.insertChange(change(A4, 'BK', 'CK', at('03:03')));
      await s.insertChange(change(A4, 'CK', 'BK', at('03:04'), { correction: 1, actor_type: 'api_client', actor_id: 'c-1' }));
      // A change's id only orders: PostgreSQL's identity skips the numbers failed inserts took, SQLite's rowid does not.
      const history = await s.history('a1');
      expect(rec(history.map(({ id, ...c }) => c))).toEqual([
        change(A1, null, 'BK', T0, { request_id: 'r-1' }), change(A1, 'BK', 'CK', at('03:01'), { token: 2 }),
      ]);
      expect(typeof history[0]!.id).toBe('number');
      expect(history[1]!.id).toBeGreaterThan(history[0]!.id);
      const { id: lastId, ...last } = (await s.lastChange('a2'))!;
      expect(rec(last)).toEqual(change(A2, 'CK', 'OG', at('03:10')));
      expect(typeof lastId).toBe('number');
      expect(await s.lastChange('a3')).toBeUndefined();
      expect(await s.history('nope')).toEqual([]);

      const day = rec(await s.day('w1', DAY));
      expect(day.map((r) => [r.id, r.first_name, r.undoable_change_at])).toEqual([
        ['a5', 'Anu', null], // no change recorded
        ['a1', 'Anu', at('03:01')], // a check-in
        ['a4', 'Divya', null], // a correction is not undone
        ['a2', 'Bina', null], // to ongoing: not the front desk's to undo
        ['a3', 'Chitra', null],
      ]);
      expect(day[1]).toEqual({ ...A1, status: 'CK', token: 2, updated_at: at('03:01'), first_name: 'Anu', middle_name: '', last_name: 'Rao',
        mobile_cc: '91', mobile_national: '9876520000', undoable_change_at: at('03:01') });
      expect(await s.day('w1', NEXT_DAY)).toEqual([]);
      expect(ids(await s.day('w2', DAY))).toEqual(['w2-1']);
    });

    it('transactions: a store made from the transaction sees its own writes; a throw undoes them all', async () => {
      const B = appt('tx-1', { patient_id: 'p2', scheduled_at: at('06:00') });
      await expect(transaction(t.e, async (tx) => {
        const s = appointmentStore(tx);
        await s.insert(B);
        await s.insertChange(change(B, null, 'BK', T0));
        expect(await s.setStatusGivingToken(B, 'CK', at('05:00'))).toBe(3);
        expect((await s.find('w1', 'tx-1', false))!.token).toBe(3);
        expect(await s.history('tx-1')).toHaveLength(1);
        throw new Error('refused');
      })).rejects.toThrow('refused');
      expect(await store().find('w1', 'tx-1', false)).toBeUndefined();
      expect(await store().history('tx-1')).toEqual([]);
      expect(await store().nextToken('w1', DAY, 'doc-a')).toBe(3);

      // Committed: all of it, a token given inside it included.
      await transaction(t.e, async (tx) => {
        const s = appointmentStore(tx);
        expect(await s.insert(B)).toBe(true);
        await s.insertChange(change(B, null, 'BK', T0));
        expect(await s.setStatusGivingToken(B, 'CK', at('05:00'))).toBe(3);
      });
      expect(rec(await store().find('w1', 'tx-1', false))).toEqual({ ...B, status: 'CK', token: 3, updated_at: at('05:00') });
      expect((await store().history('tx-1')).map((c) => c.to_status)).toEqual(['BK']);
    });

    // Two changes through two instances at once: each a transaction of its own on the database's executor (PostgreSQL:
    // two pooled connections). The first holds its transaction open until the second has started and, if it must,
    // waited; what the second reads then is what the first committed.
    async function race<A, B>(first: (s: ReturnType<typeof appointmentStore>) => Promise<A>, second: (s: ReturnType<typeof appointmentStore>) => Promise<B>) {
      const started = gate();
      const release = gate();
      const one = transaction(t.e, async (tx) => {
        const r = await first(appointmentStore(tx));
        started.open();
        await release.opened;
        return r;
      });
      await started.opened;
      const two = transaction(t.e, async (tx) => second(appointmentStore(tx)));
      two.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      await sleep(300);
      release.open();
      return [await one, await two] as const;
    }

    it('two instances giving a token on one doctor\'s day at once: the later takes the next number, no error', async () => {
      const s = store();
      const X = appt('race-1', { patient_id: 'p1', local_date: NEXT_DAY, scheduled_at: at('03:30', NEXT_DAY) });
      const Y = appt('race-2', { patient_id: 'p2', local_date: NEXT_DAY, scheduled_at: at('03:45', NEXT_DAY) });
      await s.insert(X);
      await s.insert(Y);
      expect(rec(await race((s1) => s1.setStatusGivingToken(X, 'CK', at('03:00')), (s2) => s2.setStatusGivingToken(Y, 'CK', at('03:00'))))).toEqual([1, 2]);
      expect((await s.find('w1', 'race-1', false))!.token).toBe(1);
      expect((await s.find('w1', 'race-2', false))!.token).toBe(2);
    });

    it('two instances changing one appointment at once: the locked read waits and sees the first change', async () => {
      const s = store();
      const Z = appt('race-3', { patient_id: 'p3', local_date: NEXT_DAY, scheduled_at: at('05:00', NEXT_DAY) });
      await s.insert(Z);
      const [, seenBySecond] = await race(
        async (s1) => {
          const a = (await s1.find('w1', 'race-3', false, { lock: true }))!;
          return s1.setStatusGivingToken(a, 'CK', at('04:00'));
        },
        async (s2) => s2.find('w1', 'race-3', false, { lock: true }),
      );
      expect(rec(seenBySecond)).toEqual({ ...Z, status: 'CK', token: 3, updated_at: at('04:00') });
    });

    it('two instances booking one doctor\'s slot at once: the second waits for the first\'s lock and sees its booking', async () => {
      const slot = { ws: 'w1', doctor: 'doc-b', start: at('08:00', NEXT_DAY), end: at('08:15', NEXT_DAY), earliest: at('04:00', NEXT_DAY) };
      const [, clashes] = await race(
        async (s1) => {
          await s1.lockForBooking('p1', 'doc-b');
          expect(await s1.clashes({ ...slot, patient: 'p1' })).toEqual([]);
          return s1.insert(appt('race-4', { patient_id: 'p1', doctor_id: 'doc-b', local_date: NEXT_DAY, scheduled_at: slot.start }));
        },
        async (s2) => {
          await s2.lockForBooking('p2', 'doc-b');
          return s2.clashes({ ...slot, patient: 'p2' });
        },
      );
      expect(rec(ids(clashes))).toEqual(['race-4']);
      // The patient's lock alone (no doctor) makes a second booking of the same patient wait too.
      const [, own] = await race(
        async (s1) => {
          await s1.lockForBooking('p4', null);
          return s1.insert(appt('race-5', { patient_id: 'p4', doctor_id: null, local_date: NEXT_DAY, scheduled_at: at('09:00', NEXT_DAY) }));
        },
        async (s2) => {
          await s2.lockForBooking('p4', 'doc-a');
          return s2.clashes({ ws: 'w1', doctor: 'doc-a', patient: 'p4', start: at('09:00', NEXT_DAY), end: at('09:15', NEXT_DAY), earliest: at('05:00', NEXT_DAY) });
        },
      );
      expect(rec(ids(own))).toEqual(['race-5']);
      // A partner id another booking took meanwhile: the later insert answers false after the first commits.
      const [first, second] = await race(
        (s1) => s1.insert(appt('race-6', { partner_appointment_id: 'P-race', patient_id: 'p1', local_date: NEXT_DAY })),
        (s2) => s2.insert(appt('race-7', { partner_appointment_id: 'P-race', patient_id: 'p2', local_date: NEXT_DAY })),
      );
      expect(rec([first, second])).toEqual([true, false]);
      expect((await store().find('w1', 'P-race', true))!.id).toBe('race-6');
    });
  });
}

// The service over the store, as two instances of a chain share one database: on PostgreSQL two services on one
// database, on SQLite the one service twice (one process is all SQLite has). Requests at once, alternating between
// them: tokens all distinct, one booking of a slot, one check-in of an appointment.
for (const db of DATABASES) {
  describe(`appointments service, two instances at once (${db.name})`, skipFor(db.skip), () => {
    let services: Awaited<ReturnType<typeof createService>>[] = [];
    const cleanup: (() => Promise<void> | void)[] = [];
    let ctx: RequestContext;
    let doctor: string;
    let n = 0;
    const patient = async () => (await services[0]!.patients.create(ctx, {
      first_name: `Race${n++}`, last_name: 'Test', dob: '1990-01-01', gender: 'F', mobile: `98${String(10_000_000 + n).padStart(8, '0')}`,
    } as never)).id;
    // From 09:00 tomorrow in the clinic's zone (Asia/Kolkata, UTC+5:30): every booking falls on one clinic day, whose
    // tokens start at 1, whatever the hour the test runs (from the next hour, they crossed midnight in the afternoon UTC).
    const inMinutes = (m: number) => new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 86_400_000 + 3.5 * 3_600_000 + m * 60_000).toISOString();

    beforeAll(async () => {
      const pg = db.name === 'postgres' ? await freshPostgresDatabase('appointments-instances') : null;
      if (pg) cleanup.push(() => pg.drop());
      const kek = randomBytes(32); // a chain's instances share the key file
      for (const i of db.name === 'postgres' ? [0, 1] : [0]) {
        const dataDir = tempDir(`appointments-instance-${i}`);
        cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
        services.push(await createService({ dataDir, databaseUrl: pg?.url, kek, webhooks: { dispatch: false }, push: { sender: false }, scribe: { worker: false } }));
      }
      if (services.length === 1) services = [services[0]!, services[0]!];
      cleanup.unshift(async () => {
        for (const s of new Set(services)) await s.close();
      });
      const ws = await services[0]!.auth.createWorkspace({ name: 'Race clinic' } as never);
      doctor = (await services[0]!.auth.createUser(ws.id, { username: `race-doc-${db.name}`, password: 'race-doctor-pw', role: 'doctor', displayName: 'Dr Race' })).id;
      ctx = {
        caller: { kind: 'user', id: doctor, workspaceId: ws.id, workspaceActive: true, role: 'doctor', scopes: new Set(ROLE_SCOPES.doctor) },
        ip: null, requestId: null,
      };
    });
    afterAll(async () => {
      for (const c of cleanup) await c();
    });

    it('check-ins of one doctor\'s day through both at once: tokens 1 … 12, each once', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        ids.push((await services[0]!.appointments.book(ctx, { patient_id: await patient(), doctor_id: doctor, scheduled_at: inMinutes(15 * i) })).appointment.id);
      }
      const results = await Promise.all(ids.map((id, i) => services[i % 2]!.appointments.changeStatus(ctx, id, false, 'CK')));
      expect(results.map((r) => r.appointment.token).sort((x, y) => x! - y!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    });

    it('one slot booked through both at once: one booking, one SLOT_TAKEN', async () => {
      const [p1, p2] = [await patient(), await patient()];
      const at = inMinutes(600);
      const outcomes = await Promise.allSettled([p1, p2].map((p, i) =>
        services[i]!.appointments.book(ctx, { patient_id: p, doctor_id: doctor, scheduled_at: at })));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(ServiceError);
      expect((refused.reason as ServiceError).code).toBe('SLOT_TAKEN');
    });

    it('one appointment checked in through both at once: one change in its history, the same token to both', async () => {
      const { appointment } = await services[0]!.appointments.book(ctx, { patient_id: await patient(), doctor_id: doctor, scheduled_at: inMinutes(700) });
      const [r0, r1] = await Promise.all([0, 1].map((i) => services[i]!.appointments.changeStatus(ctx, appointment.id, false, 'CK')));
      expect([r0!.changed, r1!.changed].sort()).toEqual([false, true]);
      expect(r0!.appointment.token).toBe(r1!.appointment.token);
      const { history } = await services[1]!.appointments.get(ctx, appointment.id, false);
      expect(history.map((h) => [h.from_status, h.to_status])).toEqual([[null, 'BK'], ['BK', 'CK']]);
    });
  });
}

describe('appointments store: both databases', () => {
  it('read the same rows for the same writes', (ctx) => {
    if (!transcripts.has('sqlite') || !transcripts.has('postgres')) ctx.skip();
    expect(transcripts.get('postgres')).toEqual(transcripts.get('sqlite'));
  });
});
