import { generateKeyPairSync } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClinicAuth } from '../../sdk/auth.js';
import { EnvironmentMismatchError, environmentUrl } from '../../sdk/environment.js';
import { parsePatientSearch } from '../../sdk/patient-search.js';
import { ScribeClient } from '../../sdk/scribe-client.js';
import { type Sandbox, startSandbox } from '../../server/sandbox/sandbox.js';
import type { SandboxCredentials } from '../../server/sandbox/seed.js';
import { auth, bearer } from '../helpers/dr.js';
import { missing } from '../helpers/needs.js';
import { type RunningServer, TEST_KEK, call, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { speak, until, webhookReceiver } from '../helpers/scribe.js';
import { linkSpeechModelInto } from '../helpers/speech-model.js';

/**
 * The sandbox beside a live service, both real, over their own SQLite files (issue 16): the interface's endpoint
 * families work there, each environment refuses the other's credentials in words, neither sees the other's
 * changes, a reset restores the seed and ends every earlier sandbox token, and webhooks name their environment.
 */

const SIGNING_KEY = 'sandbox-signing-key';
const ALL_TEMPLATES = ['clinical_notes_template', 'eka_emr_template', 'transcript_template'].map((template_id) => ({ template_id }));

let live: RunningServer;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let audio: string;

beforeAll(async () => {
  live = await startServer();
  sandbox = await startSandbox({
    liveDataDir: live.dataDir, host: '127.0.0.1', port: 0, production: live.service.environment, productionUrl: live.baseUrl,
    service: { kek: TEST_KEK, webhooks: { retryScheduleMs: [100, 200] }, scribe: { concurrency: 1 } },
  });
  creds = sandbox.credentials();
  // The sandbox transcribes with its own engine, whose cache is in its own folder: the run's speech model there too,
  // or the upstream flow's dictation builds one for the sandbox (5-15 s of CPU).
  await linkSpeechModelInto(join(live.dataDir, 'sandbox'));
  receiver = await webhookReceiver(SIGNING_KEY);
  audio = tempDir('sandbox-audio');
  // The first file of a worker to link the model builds it.
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  await live?.close();
  await receiver?.close();
  rmSync(audio, { recursive: true, force: true });
});

const login = (base: string, c: { client_id: string; client_secret: string; api_key: string }) =>
  call(base, 'POST', '/api/v1/auth/token', { headers: { 'x-api-key': c.api_key }, body: { client_id: c.client_id, client_secret: c.client_secret, grant_type: 'client_credentials' } });
const liveCreds = () => live.demo.workspaces[0]!;
const appointmentsIn = (db: RunningServer['service']['db']) =>
  db.prepare('SELECT id, status FROM appointments ORDER BY id').all() as { id: string; status: string }[];

describe('the sandbox', () => {
  it('is seeded: a clinic\'s day, every role, sandbox credentials; its own folder and database file', () => {
    expect(existsSync(join(live.dataDir, 'sandbox', 'clinic-desk.sqlite'))).toBe(true);
    expect(creds.base_url).toBe(sandbox.url);
    expect(Object.keys(creds.users).sort()).toEqual(['admin', 'display', 'doctor', 'reception']);
    expect(creds.doctors).toHaveLength(3);
    for (const c of [creds.api_key, creds.client_id, creds.client_secret, ...creds.doctors.map((d) => d.auth_token)]) expect(c).toMatch(/^cd[kcst]_test_/);
    expect(creds.patients.every((p) => /^[6-9]\d{9}$/.test(p.mobile))).toBe(true);
    const today = new Set(creds.appointments.filter((a) => a.day === 'today').map((a) => a.status));
    expect([...today].sort()).toEqual(['BK', 'CK', 'CM', 'CN', 'NS', 'OG', 'PK']);
    expect(creds.appointments.filter((a) => a.day === 'tomorrow').every((a) => a.status === 'BK')).toBe(true);
    // The seed is in the sandbox's database, not the live one.
    const ids = (db: RunningServer['service']['db']) => new Set(appointmentsIn(db).map((a) => a.id));
    expect(creds.appointments.every((a) => ids(sandbox.service.db).has(a.appointment_id) && !ids(live.service.db).has(a.appointment_id))).toBe(true);
  });

  it('serves every interface endpoint family, the OpenAPI document marking the sandbox, and /docs', async () => {
    const token = await login(sandbox.url, creds);
    expect(token.status, token.text).toBe(200);
    expect(decodeJwt(token.json.access_token).iss).toBe('clinic-desk-sandbox');
    expect(token.json.refresh_token).toMatch(/^cdr_test_/);
    const access = token.json.access_token as string;

    const search = await call(sandbox.url, 'GET', '/dr/v1/business/patients/search?mobile=9000012345', { headers: auth(creds.users.reception.auth_token) });
    expect(search.status).toBe(200);
    expect(parsePatientSearch(search.json).map((p) => p.first_name).sort()).toEqual(['Arjun', 'Diya', 'Meera']);

    const booked = creds.appointments.filter((a) => a.day === 'tomorrow');
    const park = await call(sandbox.url, 'POST', `/dr/v1/appointment/${booked[0]!.appointment_id}/parked`, { headers: auth(access) });
    expect(park.status, park.text).toBe(204);
    const noShow = await call(sandbox.url, 'POST', `/dr/v1/appointment/${booked[1]!.partner_appointment_id}/change-status?partner_id=1`, { headers: auth(access), body: { status: 'NS' } });
    expect(noShow.status, noShow.text).toBe(200);

    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const fcm = await call(sandbox.url, 'POST', '/notification/fcm-creds', {
      headers: bearer(access),
      body: { sa_key: { type: 'service_account', project_id: 'sandbox', client_email: 'push@sandbox.example', token_uri: 'http://127.0.0.1:9/token', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() } },
    });
    expect(fcm.status, fcm.text).toBe(200);

    const openapi = await call(sandbox.url, 'GET', '/openapi.json');
    expect(openapi.json.servers).toEqual([expect.objectContaining({ url: sandbox.url, 'x-environment': 'sandbox' })]);
    expect(openapi.json.paths['/dr/v1/business/patients/search']).toBeDefined();
    expect((await call(sandbox.url, 'GET', '/docs/')).status).toBe(200);
    expect((await call(sandbox.url, 'GET', '/docs/json')).json.servers).toEqual(openapi.json.servers);
    // The live document names no sandbox it was not told of.
    expect((await call(live.baseUrl, 'GET', '/openapi.json')).json.servers).toBeUndefined();
    // What Node's HTTP parser refuses before any app sees it is answered in our error shape on the sandbox's port too.
    const huge = await call(sandbox.url, 'GET', '/health', { headers: { 'x-padding': 'a'.repeat(20_000) } });
    expect(huge.status).toBe(431);
    expect(huge.json).toEqual({ error: { code: 'INVALID_REQUEST', message: 'Request headers too large' } });
    expect(huge.headers.get('x-request-id')).toBeTruthy();

    // OIDC and MCP: the issuer and the protected resource are the sandbox's own address.
    const discovery = await call(sandbox.url, 'GET', '/.well-known/openid-configuration');
    expect(discovery.json.issuer).toBe(sandbox.url);
    const mcp = await call(sandbox.url, 'POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toContain(`${sandbox.url}/.well-known/oauth-protected-resource/mcp`);
  });

  it('refuses the other environment\'s credentials with a 401 that names the mistake and the right address', async () => {
    const sandboxToken = (await login(sandbox.url, creds)).json.access_token as string;
    const liveToken = (await login(live.baseUrl, liveCreds())).json.access_token as string;
    const search = (base: string, headers: Record<string, string>) => call(base, 'GET', '/dr/v1/business/patients/search?mobile=9000012345', { headers });

    for (const headers of [auth(creds.users.reception.auth_token), auth(sandboxToken)]) {
      const r = await search(live.baseUrl, headers);
      expect(r.status).toBe(401);
      expect(r.json.error).toEqual({ code: 'UNAUTHORIZED_ACCESS', message: expect.stringMatching(new RegExp(`^This is a sandbox (auth|access) token; use it with the sandbox at ${sandbox.url}`)) });
    }
    for (const headers of [auth(liveCreds().users.reception.auth_token), auth(liveToken)]) {
      const r = await search(sandbox.url, headers);
      expect(r.status).toBe(401);
      expect(r.json.error.message).toMatch(new RegExp(`^This is a live \\(production\\) (auth|access) token; .* use it at ${live.baseUrl}`));
    }
    // The notification family words its own 401s, but passes the other environment's refusal through in its shape.
    const fcm = await call(live.baseUrl, 'POST', '/notification/fcm-creds', { headers: bearer(sandboxToken), body: { sa_key: {} } });
    expect(fcm.status).toBe(401);
    expect(fcm.json).toEqual({ message: expect.stringMatching(`^This is a sandbox access token; use it with the sandbox at ${sandbox.url}`), error_code: 401 });
    const liveInSandbox = await call(sandbox.url, 'GET', '/notification/fcm-creds', { headers: bearer(liveCreds().users.admin.auth_token) });
    expect(liveInSandbox.status).toBe(401);
    expect(liveInSandbox.json).toEqual({ message: expect.stringMatching(`^This is a live \\(production\\) auth token; .* use it at ${live.baseUrl}`), error_code: 401 });
    const unknown = await call(sandbox.url, 'GET', '/notification/fcm-creds', { headers: bearer('cdt_test_not-a-token') });
    expect(unknown.json).toEqual({ message: 'Unauthorized access: the bearer token is invalid, expired or revoked', error_code: 401 });

    const crossed = await login(live.baseUrl, creds);
    expect(crossed.status).toBe(401);
    expect(crossed.json).toEqual({ error: 'invalid_client', error_description: expect.stringMatching(`^This is a sandbox client id; use it with the sandbox at ${sandbox.url}`) });
    const liveKeyInSandbox = await login(sandbox.url, { ...creds, api_key: liveCreds().api_key });
    expect(liveKeyInSandbox.status).toBe(401);
    expect(liveKeyInSandbox.json.error_description).toMatch(/^This is a live \(production\) API key/);
    const refresh = (await login(sandbox.url, creds)).json.refresh_token as string;
    const crossedRefresh = await call(live.baseUrl, 'POST', '/connect-auth/v1/account/refresh', { body: { refresh_token: refresh } });
    expect(crossedRefresh.status).toBe(401);
    expect(crossedRefresh.json.error_description).toMatch(/^This is a sandbox refresh token/);

    // The SDK refuses before sending anything.
    const sdk = new ClinicAuth({ baseUrl: live.baseUrl, sandboxUrl: sandbox.url, environment: 'production', clientId: creds.client_id, clientSecret: creds.client_secret });
    await expect(sdk.token()).rejects.toBeInstanceOf(EnvironmentMismatchError);
  });

  it('keeps the environments apart: a change in one is in its database only', async () => {
    const liveBefore = appointmentsIn(live.service.db);
    const sandboxAppointment = creds.appointments.find((a) => a.day === 'today' && a.status === 'BK')!;
    expect((await call(sandbox.url, 'POST', `/dr/v1/appointment/${sandboxAppointment.appointment_id}/change-status?partner_id=0`, { headers: auth(creds.users.reception.auth_token), body: { status: 'NS' } })).status).toBe(200);
    expect(appointmentsIn(live.service.db)).toEqual(liveBefore);
    expect(sandbox.service.db.prepare('SELECT status FROM appointments WHERE id = ?').pluck().get(sandboxAppointment.appointment_id)).toBe('NS');

    const sandboxBefore = appointmentsIn(sandbox.service.db);
    const liveAppointment = liveCreds().appointments[0]!;
    expect((await call(live.baseUrl, 'POST', `/dr/v1/appointment/${liveAppointment.appointment_id}/parked`, { headers: auth(liveCreds().users.reception.auth_token) })).status).toBe(204);
    expect(live.service.db.prepare('SELECT status FROM appointments WHERE id = ?').pluck().get(liveAppointment.appointment_id)).toBe('PK');
    expect(appointmentsIn(sandbox.service.db)).toEqual(sandboxBefore);
    // A sandbox id is unknown to production, as a live one is to the sandbox.
    const unknown = await call(live.baseUrl, 'POST', `/dr/v1/appointment/${sandboxAppointment.appointment_id}/parked`, { headers: auth(liveCreds().users.reception.auth_token) });
    expect(unknown.status).toBe(404);
  });

  it('marks every webhook delivery with its environment, sandbox and production alike', async () => {
    const changed = {
      sandbox: creds.appointments.find((a) => a.day === 'tomorrow' && a.status === 'BK' && a !== creds.appointments.at(-1))!.appointment_id,
      production: liveCreds().appointments[1]!.appointment_id,
    };
    for (const [base, token, appointment] of [
      [sandbox.url, creds.users.admin.auth_token, changed.sandbox],
      [live.baseUrl, liveCreds().users.admin.auth_token, changed.production],
    ] as const) {
      const sub = await call(base, 'POST', '/notification/v1/connect/webhook/subscriptions', {
        headers: bearer(token), body: { event_names: ['appointment.statuschange'], endpoint: receiver.url, signing_key: SIGNING_KEY, protocol: 'https' },
      });
      expect(sub.status, sub.text).toBe(201);
      expect((await call(base, 'POST', `/dr/v1/appointment/${appointment}/change-status?partner_id=0`, { headers: auth(token), body: { status: 'NS' } })).status).toBe(200);
    }
    const byEnvironment = await until(() => {
      const found = Object.entries(changed).map(([environment, id]) => [environment, receiver.deliveries.find((d) => d.raw.includes(id))] as const);
      return found.every(([, d]) => d) ? found : null;
    }, 'a delivery from each environment', 15_000);
    for (const [environment, d] of byEnvironment) {
      expect(d!.verified).toBe(true);
      expect(d!.headers['x-clinic-desk-environment']).toBe(environment);
    }
  });

  it('runs the upstream flow through the SDK: token, search, change-status, webhook, scribe upload, status', { ...skipFor(missing('espeak-ng', 'pocketsphinx', 'ffmpeg')), timeout: 120_000 }, async () => {
    const options = { baseUrl: live.baseUrl, sandboxUrl: sandbox.url, environment: 'sandbox' as const };
    expect(environmentUrl(options)).toBe(sandbox.url);
    const clinic = new ClinicAuth({ ...options, clientId: creds.client_id, clientSecret: creds.client_secret, apiKey: creds.api_key });
    const token = await clinic.token();
    const base = environmentUrl(options);
    const [patient] = parsePatientSearch((await call(base, 'GET', '/dr/v1/business/patients/search?mobile=9000078901', { headers: auth(token) })).json);
    const appointment = creds.appointments.find((a) => a.patient_id === patient!.patient_id && a.status === 'BK')!;
    expect((await call(base, 'POST', `/dr/v1/appointment/${appointment.partner_appointment_id}/change-status?partner_id=1`, { headers: auth(token), body: { status: 'NS' } })).status).toBe(200);
    const sub = await call(base, 'POST', '/notification/v1/connect/webhook/subscriptions', {
      headers: bearer(token), body: { event_names: ['v2rx.completed'], endpoint: `${receiver.url}/scribe`, signing_key: SIGNING_KEY, protocol: 'https' },
    });
    expect(sub.status).toBe(201);

    const scribe = new ScribeClient({ ...options, auth: clinic });
    const wav = speak(audio, 'sandbox.wav', 'Patient has fever for three days. Temperature 101. Diagnosis viral fever. Tablet paracetamol 650 milligram twice daily for three days.');
    await scribe.upload([wav], { txnId: 'sandbox-flow-1', extraData: { mode: 'dictation' }, outputFormat: { input_language: ['en-IN'], output_template: ALL_TEMPLATES } });
    const done = await scribe.waitForSession('sandbox-flow-1', { intervalMs: 200, timeoutMs: 90_000 });
    expect(done.httpStatus).toBe(200);
    expect(done.data.output.map((o) => [o.template_id, o.status])).toEqual([
      ['clinical_notes_template', 'success'], ['eka_emr_template', 'success'], ['transcript_template', 'success'],
    ]);
    const event = await until(() => receiver.deliveries.find((d) => d.body.event === 'v2rx.completed' && d.body.data.transaction_id === 'sandbox-flow-1'), 'v2rx.completed', 15_000);
    expect(event.verified).toBe(true);
    expect(event.headers['x-clinic-desk-environment']).toBe('sandbox');
    // Nothing of it reached the live clinic.
    expect(live.service.db.prepare('SELECT count(*) FROM scribe_sessions').pluck().get()).toBe(0);
  });

  it('reset restores the seed, ends every earlier sandbox credential, and leaves production alone', async () => {
    const liveBefore = appointmentsIn(live.service.db);
    const oldToken = (await login(sandbox.url, creds)).json.access_token as string;
    const extra = await call(sandbox.url, 'POST', '/dr/v1/patient', {
      headers: auth(creds.users.reception.auth_token), body: { first_name: 'Only', last_name: 'Before', dob: '1990-01-01', gender: 'F', mobile: '+919111111111' },
    });
    expect(extra.status, extra.text).toBe(201);

    const refused = await call(sandbox.url, 'POST', '/api/v1/sandbox/reset', { headers: auth(liveCreds().users.admin.auth_token) });
    expect(refused.status).toBe(401);
    const started = Date.now();
    const reset = await call(sandbox.url, 'POST', '/api/v1/sandbox/reset', { headers: auth(creds.users.reception.auth_token) });
    expect(reset.status, reset.text).toBe(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    const fresh = reset.json as SandboxCredentials;
    expect(fresh).toEqual(sandbox.credentials());
    expect(fresh.client_id).not.toBe(creds.client_id);

    for (const headers of [auth(creds.users.reception.auth_token), auth(oldToken)]) {
      const r = await call(sandbox.url, 'GET', '/dr/v1/business/patients/search?mobile=9000012345', { headers });
      expect(r.status).toBe(401);
    }
    expect((await login(sandbox.url, creds)).status).toBe(401);
    const gone = await call(sandbox.url, 'GET', '/dr/v1/business/patients/search?mobile=9111111111', { headers: auth(fresh.users.reception.auth_token) });
    expect(gone.status).toBe(404);
    // Exactly the seed: every seeded appointment in its seeded state, nothing else.
    expect(appointmentsIn(sandbox.service.db)).toEqual(fresh.appointments.map((a) => ({ id: a.appointment_id, status: a.status })).sort((x, y) => x.id.localeCompare(y.id)));
    expect(sandbox.service.db.prepare('SELECT count(*) FROM patients').pluck().get()).toBe(fresh.patients.length);
    expect(sandbox.service.db.prepare('SELECT count(*) FROM webhook_subscriptions').pluck().get()).toBe(0);
    expect(appointmentsIn(live.service.db)).toEqual(liveBefore);
    expect((await call(live.baseUrl, 'GET', '/dr/v1/business/patients/search?mobile=9876543210', { headers: auth(liveCreds().users.reception.auth_token) })).status).toBe(200);
    creds = fresh;
  });
});
