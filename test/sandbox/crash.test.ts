import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxCredentials } from '../../server/sandbox/seed.js';
import { auth } from '../helpers/dr.js';
import { type ServerProcess, call, exited, spawnServer, tempDir } from '../helpers/server.js';

/**
 * kill -9 of the service during a sandbox reset (issue 16): after a restart on the same data folder the live
 * database is exactly as before, and the sandbox is the old one (with a change made before the reset) or the
 * complete new seed, its credentials file matching its database, never a mix; no half-built folder is left.
 */

const dir = tempDir('sandbox-crash');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sandboxDir = join(dir, 'sandbox');
const creds = () => JSON.parse(readFileSync(join(sandboxDir, 'sandbox-credentials.json'), 'utf8')) as SandboxCredentials;
const sandboxUrl = (p: ServerProcess) => /sandbox: +(http:\/\/127\.0\.0\.1:\d+)\//.exec(p.output())![1]!;

/** Everything of the live clinic a reset could conceivably touch, read straight from its file. */
function liveSnapshot() {
  const db = new Database(join(dir, 'clinic-desk.sqlite'), { readonly: true });
  try {
    const tables = ['workspaces', 'users', 'auth_tokens', 'api_keys', 'api_clients', 'patients', 'appointments', 'appointment_status_changes', 'signing_keys'];
    return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));
  } finally {
    db.close();
  }
}

function sandboxState() {
  const db = new Database(join(sandboxDir, 'clinic-desk.sqlite'), { readonly: true });
  try {
    return {
      clients: db.prepare('SELECT client_id FROM api_clients').pluck().all() as string[],
      patients: db.prepare('SELECT first_name FROM patients').pluck().all() as string[],
      appointments: db.prepare('SELECT count(*) FROM appointments').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('kill -9 during a sandbox reset', () => {
  // Early: while the new sandbox is being seeded. At .complete: inside the swap of folders (or just after).
  for (const [i, when] of (['while seeding', 'as the swap begins'] as const).entries()) {
    const markerName = `Marker${'AB'[i]}`;
    it(`${when}: live untouched, sandbox old or new`, async () => {
      let server = await spawnServer(['--data-dir', dir, '--demo']);
      const before = creds();
      const marker = await call(sandboxUrl(server), 'POST', '/dr/v1/patient', {
        headers: auth(before.users.reception.auth_token), body: { first_name: markerName, last_name: 'Old', dob: '1990-01-01', gender: 'F', mobile: '+919222222222' },
      });
      expect(marker.status, marker.text).toBe(201);
      const live = liveSnapshot();

      void call(sandboxUrl(server), 'POST', '/api/v1/sandbox/reset', { headers: auth(before.users.admin.auth_token) }).catch(() => undefined);
      if (when === 'while seeding') {
        for (let i = 0; i < 2000 && !existsSync(`${sandboxDir}.next`); i++) await sleep(1);
        await sleep(50);
      } else {
        for (let i = 0; i < 20_000 && !existsSync(join(`${sandboxDir}.next`, '.complete')); i++) await sleep(0);
      }
      server.child.kill('SIGKILL');
      await exited(server.child);

      server = await spawnServer(['--data-dir', dir, '--demo']);
      try {
        expect(liveSnapshot()).toEqual(live);
        expect(existsSync(`${sandboxDir}.next`) || existsSync(`${sandboxDir}.old`)).toBe(false);
        const after = creds();
        const state = sandboxState();
        // The credentials file and the database are of the same generation.
        expect(state.clients).toEqual([after.client_id]);
        if (after.client_id === before.client_id) {
          expect(state.patients).toContain(markerName);
        } else {
          expect(state.patients).not.toContain(markerName);
          expect(state.patients).toHaveLength(after.patients.length);
          expect(state.appointments).toBe(after.appointments.length);
        }
        if (when === 'while seeding') expect(after.client_id).toBe(before.client_id);
        // Whichever it is, it answers with its own credentials.
        const search = await call(sandboxUrl(server), 'GET', `/dr/v1/business/patients/search?mobile=${after.patients[0]!.mobile}`, { headers: auth(after.users.reception.auth_token) });
        expect(search.status).toBe(200);
      } finally {
        server.child.kill('SIGTERM');
        await exited(server.child);
      }
    }, 120_000);
  }
});
