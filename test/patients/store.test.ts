import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthService } from '../../server/auth/service.js';
import type { RequestContext } from '../../server/auth/permissions.js';
import { auditLog } from '../../server/audit/service.js';
import { dbErrorKind } from '../../server/db/sql.js';
import { transaction } from '../../server/db/tx.js';
import { patientService } from '../../server/patients/service.js';
import { type PatientRow, nameKey, patientStore } from '../../server/patients/store.js';
import type { Clock } from '../../server/shared/time.js';
import { type TestExecutor, openTestExecutor } from '../helpers/executor.js';
import { DATABASES } from '../helpers/postgres.js';
import { skipFor } from '../helpers/skip.js';

// The patients store written once for both databases (issue 17): every method, the same inputs giving the same rows
// on SQLite and PostgreSQL, in the same order (insertion order breaking ties: rowid / seq), with the same constraint
// errors and transactions; then the service over it (create, update, search, get, mobile review, bulk import). Each
// suite records what it read; the last test compares the two records whole.
const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-01T00:00:05.000Z';
const T2 = '2030-01-02T00:00:00.000Z';

const patient = (id: string, ws: string, more: Partial<PatientRow> = {}): PatientRow => ({
  id, workspace_id: ws, first_name: 'Asha', middle_name: '', last_name: 'Rao', dob: '1990-04-01', dob_estimated: 0,
  gender: 'F', mobile_cc: '91', mobile_national: '9876543210', email: null, allergies: '[]', created_at: T0, updated_at: T0,
  ...more,
});

/** What a row reads back as: every column, name_key included, in the table's order on both. */
const stored = (p: PatientRow) => ({
  id: p.id, workspace_id: p.workspace_id, first_name: p.first_name, middle_name: p.middle_name, last_name: p.last_name,
  dob: p.dob, gender: p.gender, mobile_cc: p.mobile_cc, mobile_national: p.mobile_national, email: p.email,
  name_key: nameKey(p), created_at: p.created_at, updated_at: p.updated_at, dob_estimated: p.dob_estimated ?? 0,
  allergies: p.allergies ?? '[]',
});

async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return dbErrorKind(e);
  }
  return 'no error';
}

async function all<T>(gen: AsyncIterable<T>) {
  const out: T[] = [];
  for await (const v of gen) out.push(v);
  return out;
}

const clock: Clock = { now: () => new Date('2030-06-01T09:00:00.000Z') };
const auth = { workspace: async () => ({ country: 'IN', timezone: 'Asia/Kolkata' }) } as unknown as AuthService;
const ctxOf = (ws: string): RequestContext => ({
  caller: { kind: 'user', id: 'u1', workspaceId: ws, workspaceActive: true, role: 'admin', scopes: new Set() },
  ip: '127.0.0.1', requestId: 'req-1',
});

const transcripts = new Map<string, unknown[]>();

for (const db of DATABASES) {
  describe(`patients store (${db.name})`, skipFor(db.skip), () => {
    let t: TestExecutor;
    let audit: ReturnType<typeof auditLog> | undefined;
    const seen: unknown[] = [];
    const rec = <T>(v: T): T => (seen.push(structuredClone(v)), v);
    beforeAll(async () => {
      t = await openTestExecutor(db, 'store-patients');
      for (const ws of ['w1', 'w2', 'w3', 'w4']) {
        await sql`INSERT INTO workspaces (id, name, country, timezone, created_at) VALUES (${ws}, ${ws}, 'IN', 'Asia/Kolkata', ${T0})`.execute(t.e.k);
      }
    });
    afterAll(async () => {
      transcripts.set(db.name, seen);
      await audit?.flush(); // a failed test's queued entries, before the database goes
      await t?.close();
    });

    it('inserts, reads by id within the workspace only, and by mobile newest first, ties in insertion order', async () => {
      const store = patientStore(t.e);
      // Same created_at for p-b, p-c, p-a (inserted in that order): insertion order decides, newest first.
      const rows = [
        patient('p-b', 'w1', { first_name: 'Bela' }),
        patient('p-c', 'w1', { first_name: 'Chitra', dob_estimated: 1, allergies: '["penicillin"]', email: 'c@example.com' }),
        patient('p-a', 'w1', { first_name: 'Élodie', middle_name: 'M', gender: 'O' }),
        patient('p-new', 'w1', { first_name: 'Neha', created_at: T1, updated_at: T1 }),
        patient('p-old', 'w1', { first_name: 'Old', created_at: '2029-12-31T23:59:59.999Z' }),
        patient('p-w2', 'w2'),
        patient('p-other', 'w1', { mobile_national: '9876543211' }),
      ];
      for (const r of rows) await store.insert(r);
      // A row without the optional columns (as the bulk import makes them) stores their defaults.
      const { dob_estimated: _d, allergies: _a, ...bare } = patient('p-bare', 'w3');
      await store.insert(bare);

      const found = rec(await store.byMobile('w1', '9876543210'));
      expect(found.map((r) => r.id)).toEqual(['p-new', 'p-a', 'p-c', 'p-b', 'p-old']);
      expect(found[2]).toEqual(stored(rows[1]!));
      expect(Object.keys(found[0]!)).toEqual(Object.keys(stored(rows[0]!))); // no seq on PostgreSQL
      expect(rec(await store.byMobile('w2', '9876543210'))).toEqual([stored(rows[5]!)]);
      expect(rec(await store.byMobile('w1', '9000000000'))).toEqual([]);

      expect(rec(await store.byId('w1', 'p-a'))).toEqual(stored(rows[2]!));
      expect(await store.byId('w2', 'p-a')).toBeUndefined();
      expect(await store.byId('w1', 'nobody')).toBeUndefined();
      expect(rec(await store.byId('w3', 'p-bare'))).toEqual(stored({ ...bare, dob_estimated: 0, allergies: '[]' }));
    });

    it('keeps at most 200 by mobile', async () => {
      const store = patientStore(t.e);
      for (let i = 0; i < 205; i++) {
        await store.insert(patient(`many-${String(i).padStart(3, '0')}`, 'w4', { first_name: `N${i}`, mobile_national: '9111111111' }));
      }
      const found = await store.byMobile('w4', '9111111111');
      expect(found).toHaveLength(200);
      expect(found[0]!.id).toBe('many-204');
      expect(found.at(-1)!.id).toBe('many-005');
    });

    it('updates every column but the id, the workspace and created_at, in the workspace only', async () => {
      const store = patientStore(t.e);
      const before = (await store.byId('w1', 'p-b'))!;
      const next: PatientRow = {
        ...before, first_name: 'Bela ', middle_name: 'K', last_name: 'Iyer', dob: '1991-02-03', dob_estimated: 1, gender: 'O',
        mobile_cc: '1', mobile_national: '4155550100', email: 'b@example.org', allergies: '["latex"]', updated_at: T2,
        created_at: 'ignored',
      };
      await store.update(next);
      expect(rec(await store.byId('w1', 'p-b'))).toEqual(stored({ ...next, created_at: before.created_at }));
      // Another workspace's update changes nothing.
      await store.update({ ...next, workspace_id: 'w2', first_name: 'Hijack' });
      expect((await store.byId('w1', 'p-b'))!.first_name).toBe('Bela ');
      await store.update({ ...next, mobile_cc: '91', mobile_national: '9876543210', first_name: 'Bela', last_name: 'Rao', dob: '1990-04-01', updated_at: T2 });
    });

    it('reports constraint breaches by kind: the identity, the id, an unknown workspace, a bad gender, a missing name', async () => {
      const store = patientStore(t.e);
      // Same mobile, names (case and Unicode folded) and dob as p-a: the identity index refuses it.
      expect(await kindOf(store.insert(patient('p-dup', 'w1', { first_name: 'ÉLODIE', gender: 'O' })))).toBe('unique');
      expect(await kindOf(store.insert(patient('p-a', 'w2', { first_name: 'Zed' })))).toBe('unique');
      expect(await kindOf(store.update({ ...(await store.byId('w1', 'p-c'))!, first_name: 'élodie' }))).toBe('unique');
      expect(await kindOf(store.insert(patient('p-nows', 'nowhere')))).toBe('foreign_key');
      expect(await kindOf(store.insert(patient('p-g', 'w1', { gender: 'X' as 'F' })))).toBe('check');
      expect(await kindOf(store.insert(patient('p-n', 'w1', { first_name: 'Zed', dob: null as unknown as string })))).toBe('not_null');
      expect(await kindOf(store.insert(patient('p-j', 'w1', { first_name: 'J', allergies: '{"not":"a list"}' })))).toBe('check');
      expect(rec((await store.byMobile('w1', '9876543210')).map((r) => r.id))).toEqual(['p-new', 'p-a', 'p-c', 'p-b', 'p-old']);
    });

    it('writes inside a transaction: a store from the transaction sees its rows, a rollback removes them', async () => {
      await expect(transaction(t.e, async (tx) => {
        const inTx = patientStore(tx);
        await inTx.insert(patient('p-tx', 'w2', { first_name: 'Tara' }));
        expect((await inTx.byId('w2', 'p-tx'))?.first_name).toBe('Tara');
        expect(await inTx.insertOrIgnore(patient('p-tx2', 'w2', { first_name: 'Uma' }))).toBe(true);
        throw new Error('refused');
      })).rejects.toThrow('refused');
      const store = patientStore(t.e);
      expect(await store.byId('w2', 'p-tx')).toBeUndefined();
      expect(await store.byId('w2', 'p-tx2')).toBeUndefined();
      // A failed savepoint inside a committed transaction keeps the rest.
      await transaction(t.e, async (tx) => {
        await patientStore(tx).insert(patient('p-kept', 'w2', { first_name: 'Kept' }));
        expect(await kindOf(transaction(tx, (inner) => patientStore(inner).insert(patient('p-kept-dup', 'w2', { first_name: 'Kept' }))))).toBe('unique');
      });
      expect(rec((await store.byMobile('w2', '9876543210')).map((r) => r.id))).toEqual(['p-kept', 'p-w2']);
    });

    it('inserts or ignores one row or many, saying how many were added, in the order given', async () => {
      const store = patientStore(t.e);
      expect(await store.insertOrIgnore(patient('i-1', 'w3', { first_name: 'Ira', mobile_national: '9222222222' }))).toBe(true);
      expect(await store.insertOrIgnore(patient('i-1', 'w3', { first_name: 'Other', mobile_national: '9222222222' }))).toBe(false); // id taken
      expect(await store.insertOrIgnore(patient('i-2', 'w3', { first_name: 'IRA', mobile_national: '9222222222' }))).toBe(false); // identity taken
      // The bulk path leaves the optional columns to their defaults, whatever the row says.
      expect(await store.insertOrIgnore(patient('i-3', 'w3', { first_name: 'Jaya', mobile_national: '9222222222', dob_estimated: 1, allergies: '["x"]' }))).toBe(true);
      expect((await store.byId('w3', 'i-3'))).toMatchObject({ dob_estimated: 0, allergies: '[]' });
      // 1,203 rows (three statements), with repeats inside one statement and across them, and rows already stored.
      const many: PatientRow[] = [];
      for (let i = 0; i < 1200; i++) {
        many.push(patient(`m-${String(i).padStart(4, '0')}`, 'w3', { first_name: `M${i}`, mobile_national: String(9300000000 + Math.floor(i / 4)) }));
      }
      many.splice(10, 0, { ...many[3]!, id: 'm-again' }); // same identity as m-0003, in the same statement
      many.splice(700, 0, { ...many[5]!, first_name: 'Someone else' }); // same id as m-0005, in another statement
      many.push(patient('i-1', 'w3', { first_name: 'Again' })); // id already stored
      expect(many).toHaveLength(1203);
      expect(rec(await store.insertManyOrIgnore(many))).toBe(1200);
      expect(await store.insertManyOrIgnore([])).toBe(0);
      expect(rec((await store.byMobile('w3', '9300000000')).map((r) => r.id))).toEqual(['m-0003', 'm-0002', 'm-0001', 'm-0000']);
      expect((await store.byId('w3', 'm-0005'))!.first_name).toBe('M5');
      // A CHECK breach is not a conflict: the statement fails, and in a transaction nothing of it stays.
      expect(await kindOf(transaction(t.e, (tx) => patientStore(tx).insertManyOrIgnore([
        patient('bad-1', 'w3', { first_name: 'Fine', mobile_national: '9444444444' }),
        patient('bad-2', 'w3', { first_name: 'Bad', gender: 'Q' as 'F', mobile_national: '9444444444' }),
      ])))).toBe('check');
      expect(await store.byId('w3', 'bad-1')).toBeUndefined();
    });

    it('lists mobile review candidates oldest first, in pages, all but plain Indian mobiles', async () => {
      const store = patientStore(t.e);
      const cands = [
        patient('r-short', 'w2', { first_name: 'Short', mobile_national: '987654321' }),
        patient('r-long', 'w2', { first_name: 'Long', mobile_national: '98765432100' }),
        patient('r-five', 'w2', { first_name: 'Five', mobile_national: '5876543210' }),
        patient('r-letter', 'w2', { first_name: 'Letter', mobile_national: '98765a3210' }),
        patient('r-us', 'w2', { first_name: 'Us', mobile_cc: '1', mobile_national: '9876543210', created_at: '2029-01-01T00:00:00.000Z' }),
        patient('r-space', 'w2', { first_name: 'Space', mobile_national: '9876543210 ' }),
      ];
      for (const c of cands) await store.insert(c);
      const listed = rec((await all(store.mobileReviewCandidates('w2'))).map((r) => r.id));
      expect(listed).toEqual(['r-us', 'r-short', 'r-long', 'r-five', 'r-letter', 'r-space']);
      const first = (await all(store.mobileReviewCandidates('w2')))[0]!;
      expect(first).toEqual(stored(cands[4]!)); // no page key, no seq
      // 2,500 candidates, many registered in the same millisecond: the pages follow insertion order and lose none.
      const bulk: PatientRow[] = [];
      for (let i = 0; i < 2500; i++) {
        bulk.push(patient(`q-${String(i).padStart(4, '0')}`, 'w4', {
          first_name: `Q${i}`, mobile_national: String(5000000000 + i), created_at: i < 1500 ? T0 : T1, updated_at: T0,
        }));
      }
      // Inserted out of id order: insertion order, not the id, breaks ties.
      const shuffled = [...bulk.slice(1200), ...bulk.slice(0, 1200)];
      await transaction(t.e, (tx) => patientStore(tx).insertManyOrIgnore(shuffled));
      const pages = (await all(store.mobileReviewCandidates('w4'))).map((r) => r.id);
      const expected = [...shuffled.filter((p) => p.created_at === T0), ...shuffled.filter((p) => p.created_at === T1)].map((p) => p.id);
      expect(pages).toEqual(expected);
      rec(pages);
      expect(await all(store.mobileReviewCandidates('w-none'))).toEqual([]);
    });

    it('serves the patients service: create, duplicate, update, search, get, mobile review and bulk import', async () => {
      audit = auditLog(t.e, clock);
      const patients = patientService(t.e, clock, auth, audit);
      const ctx = ctxOf('w1');
      const made = await patients.create(ctx, {
        first_name: ' Zoya ', last_name: 'Khan', dob: '1985-05-05', gender: 'F', mobile: '9555555555', allergies: ['Sulfa', 'sulfa '],
      } as Parameters<typeof patients.create>[1]);
      expect(made).toMatchObject({ first_name: 'Zoya', mobile_cc: '91', mobile_national: '9555555555', allergies: '["Sulfa"]' });
      await expect(patients.create(ctx, {
        first_name: 'ZOYA', last_name: 'khan', dob: '1985-05-05', gender: 'F', mobile: '9555555555',
      } as Parameters<typeof patients.create>[1])).rejects.toMatchObject({ status: 409, code: 'PATIENT_ALREADY_EXISTS' });
      const other = await patients.create(ctx, {
        first_name: 'Yash', last_name: 'Khan', age_years: 7, gender: 'M', mobile: '9555555555',
      } as Parameters<typeof patients.create>[1]);
      expect(other.dob_estimated).toBe(1);
      await expect(patients.update(ctx, other.id, { first_name: 'Zoya', dob: '1985-05-05', gender: 'F' } as Parameters<typeof patients.update>[2]))
        .rejects.toMatchObject({ status: 409, code: 'PATIENT_ALREADY_EXISTS' });
      await expect(patients.update(ctx, 'nobody', { first_name: 'X' } as Parameters<typeof patients.update>[2]))
        .rejects.toMatchObject({ status: 404, code: 'PATIENT_NOT_FOUND' });
      const updated = await patients.update(ctx, other.id, { email: 'y@example.net' } as Parameters<typeof patients.update>[2]);
      expect(updated.email).toBe('y@example.net');
      const found = await patients.search(ctx, '9555555555');
      expect(found.map((r) => r.id)).toEqual([other.id, made.id]); // same clock instant: the later insert first
      expect(found[0]).toMatchObject({ email: 'y@example.net', updated_at: '2030-06-01T09:00:00.000Z' });
      await expect(patients.get(ctxOf('w2'), made.id)).rejects.toMatchObject({ status: 404 });
      expect((await transaction(t.e, (tx) => patients.get(ctx, made.id, tx))).id).toBe(made.id);
      const review = await patients.mobileReview(ctxOf('w2'), 3);
      rec(review);
      expect(review.total).toBe(5); // the candidate with a trailing space passes the rule once the number is read
      expect(review.items.map((i) => i.patient.id)).toEqual(['r-us', 'r-short', 'r-long']);
      const imported = await patients.importPatients('w1', (async function* () {
        for (let i = 0; i < 130; i++) {
          const { workspace_id: _w, ...row } = patient(`imp-${i}`, 'x', { first_name: `Imp${i % 120}`, mobile_national: '9666666666' });
          yield row;
        }
      })(), 50);
      expect(imported).toBe(120); // ten repeat an identity
      expect(await patients.importPatients('w1', [], 50)).toBe(0);
      await audit.flush();
      // Changes are audited in their transactions, reads and refusals a moment later: the order between the two
      // depends on when the batch timer fires, so the entries are compared as a set.
      const actions = (await audit.recent('w1', 20)).map((a) => `${a.action} ${a.outcome}`).sort();
      rec(actions);
      expect(actions).toEqual([
        'patient.create conflict', 'patient.create success', 'patient.create success', 'patient.read success',
        'patient.search success', 'patient.update conflict', 'patient.update not_found', 'patient.update success',
      ]);
    });
  });
}

describe('patients store: SQLite and PostgreSQL read the same', skipFor(DATABASES.find((d) => d.skip)?.skip), () => {
  it('every recorded read is deep-equal across the two databases', () => {
    const sqlite = transcripts.get('sqlite');
    const postgres = transcripts.get('postgres');
    expect(sqlite?.length).toBeGreaterThan(12);
    expect(postgres).toEqual(sqlite);
  });
});
