import { chmodSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, type Server, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenSender, type Handlers, type IpcEvent, createHandlers, toFailure } from '../../main/ipc.js';
import { recordingStore } from '../../main/recordings.js';
import { APP_METHOD_ARITY, PROGRESS_METHODS } from '../../preload/app-methods.js';
import { CHANNELS, type ClinicApi, type DictationStatus, type ProgressEvent, UPLOAD_PROGRESS_CHANNEL } from '../../preload/contract.js';
import { APP_METHODS } from '../../server/app-api.js';
import { pdfFileName } from '../../server/notes/app-shapes.js';
import { type DesktopSandbox, SANDBOX_SETTING_FILE, type SandboxState, desktopSandbox } from '../../server/sandbox/desktop.js';
import { ServiceError } from '../../server/shared/errors.js';
import { missing } from '../helpers/needs.js';
import { type RunningServer, TEST_KEK, startServer, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { speak, until } from '../helpers/scribe.js';

const RENDERER = 'file:///opt/clinic-desk/resources/app.asar/dist/renderer/index.html';
let nextWindow = 1;
const sent: unknown[][] = [];
const event = (url: string | null = RENDERER, id = 1): IpcEvent => ({
  senderFrame: url === null ? null : ({ url } as never),
  sender: { id, send: (...a: unknown[]) => void sent.push(a) },
});

/** For every method, arguments its schema refuses (for methods without arguments: one argument too many). */
const BAD: { [K in keyof ClinicApi]: unknown[] } = {
  serviceInfo: ['extra'],
  setupStatus: [1],
  setup: [{ clinic_name: 'X', admin: { username: 'has space', password: 'long enough' } }],
  signIn: [{ username: 'x' }],
  signOut: [true],
  changePassword: ['old password', 'short'],
  session: [{}],
  searchPatients: ['98765'],
  getPatient: [''],
  createPatient: [{ first_name: 'A', last_name: 'B', dob: '1990-02-30x', gender: 'M', mobile: '9876543210' }],
  updatePatient: ['p1', {}],
  mobileReview: ['all'],
  dayAppointments: ['tomorrow'],
  bookAppointment: [{ patient_id: 'p1', scheduled_at: 'soon' }],
  parkAppointment: [42],
  appointmentHistory: [['a']],
  setAppointmentStatus: ['a1', 'PK'],
  doctors: ['all'],
  undoAppointment: [''],
  callNextPatient: [42],
  queueBoard: ['today'],
  serverStatus: [null],
  users: [1],
  createUser: [{ username: 'nurse', password: 'long enough', role: 'nurse' }],
  setUserDisabled: ['u1', 'yes'],
  resetUserPassword: ['u1', { new_password: 'long enough' }],
  apiClients: [1],
  createApiClient: [{ name: 'x', scopes: [] }],
  revokeApiClient: ['../etc'],
  apiKeys: [1],
  createApiKey: [{ label: '' }],
  revokeApiKey: [''],
  webhooks: [1],
  createWebhook: [{ event_names: [], endpoint: 'https://x.example' }],
  deleteWebhook: [''],
  webhookDeliveries: [{}],
  redeliverWebhook: ['s1'],
  pushCredentials: [1],
  setPushCredentials: [{ type: 'service_account' }],
  deletePushCredentials: [1],
  reminderSettings: [1],
  setReminderSettings: [{ provider: 'sms', enabled: true }],
  dayReminders: ['31-12-2030'],
  noShowReport: [99],
  backups: [1],
  backup: ['now'],
  connectedAssistants: [1],
  disconnectAssistant: [''],
  speechModels: [1],
  speechModelDownload: ['../etc'],
  speechModelSetDefault: [{ id: 'small' }],
  recordingStart: [{ mime_type: 'text/html' }],
  recordingAppend: ['00000000-0000-0000-0000-000000000000', 0, 'not bytes'],
  recordingFinish: ['00000000-0000-0000-0000-000000000000', -1],
  recordings: [1],
  recordingAudio: ['not-a-uuid'],
  recordingDiscard: ['not-a-uuid'],
  uploadDictation: ['00000000-0000-0000-0000-000000000000', { templates: [], language: 'en-IN', mode: 'dictation', model_type: 'pro', codify: false }],
  dictationStatus: ['has spaces'],
  scribeHistory: ['p1', ''],
  dictationLanguages: [1],
  noteDraft: [''],
  saveNoteDraft: ['t1', { emr: { template_id: 'service_emr_template' } }],
  signNote: ['t1', { appointment_id: '' }],
  amendNote: ['t1', { emr: {}, reason: '' }],
  noteVersions: ['x'.repeat(129)],
  noteVersion: ['t1', 'previous'],
  noteFhir: ['t1', 'previous'],
  userProfile: [''],
  setUserProfile: ['u1', { qualification: 'x'.repeat(201) }],
  clinicProfile: [1],
  setClinicProfile: [{ address: '' }],
  printPrescriptionPdf: ['../Prescription.pdf'],
  sandboxStatus: [1],
  setSandboxEnabled: ['yes'],
  resetSandbox: ['now'],
  clinicServerChoice: [1],
  useClinicServer: [42],
  joinClinicServerChoice: [1],
  joinClinicServer: [42],
};

describe('IPC handlers (main/ipc.ts) without Electron', () => {
  let srv: RunningServer;
  let handlers: Handlers;
  const call = <K extends keyof ClinicApi>(m: K, ev: IpcEvent, ...args: unknown[]) =>
    (handlers[m] as (e: IpcEvent, ...a: unknown[]) => Promise<unknown>)(ev, ...args);

  beforeAll(async () => {
    // With the run's speech model: the dictation below would otherwise build one for this service (5-15 s of CPU).
    srv = await startServer({ speechModel: true });
    handlers = createHandlers({
      service: srv.service, rendererUrl: RENDERER, info: { baseUrl: srv.baseUrl, version: '1.0' },
      recordings: recordingStore(tempDir('recordings')),
    });
    // The first file of a worker to link the model builds it.
  }, 120_000);
  afterAll(() => srv.close());

  it('has exactly one handler and one channel per declared method, and the preload\'s generated list is current', () => {
    const declared = Object.keys(APP_METHODS);
    expect(Object.keys(handlers)).toEqual(declared);
    expect(Object.keys(CHANNELS)).toEqual(declared);
    expect(Object.keys(BAD).sort()).toEqual([...declared].sort());
    // preload/app-methods.ts, written by `npx tsx scripts/app-methods.ts`: the preload sends each method this many arguments.
    expect(APP_METHOD_ARITY).toEqual(Object.fromEntries(Object.entries(APP_METHODS).map(([name, m]) => [name, m.args.length])));
    expect([...PROGRESS_METHODS]).toEqual(Object.entries(APP_METHODS).filter(([, m]) => 'progress' in m).map(([name]) => name));
    // The channels as they were when each was written by hand: a renamed method is a renamed channel.
    expect(CHANNELS.speechModelSetDefault).toBe('clinic:speech-model-set-default');
  });

  describe.each(Object.keys(CHANNELS) as (keyof ClinicApi)[])('%s', (method) => {
    it.each([
      ['a web page', 'https://evil.example/index.html'],
      ['another local file', 'file:///tmp/evil.html'],
      ['a lookalike path', `${RENDERER}.evil`],
      ['the embedded server\'s own page', 'http://127.0.0.1:4810/'],
    ])('refuses a call from %s', async (_what, url) => {
      await expect(call(method, event(url))).rejects.toThrow(ForbiddenSender);
    });

    it('refuses a call without a sender frame', async () => {
      await expect(call(method, event(null))).rejects.toThrow(ForbiddenSender);
    });

    it('refuses a bad argument with 400 INVALID_REQUEST before doing anything', async () => {
      const err = await call(method, event(RENDERER, 999), ...BAD[method]).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).status).toBe(400);
      expect((err as ServiceError).code).toBe('INVALID_REQUEST');
    });
  });

  it('says in words why a name with a bidirectional override is refused, as the HTTP API does', async () => {
    const err = await call('createPatient', event(RENDERER, nextWindow++), { first_name: 'Ra\u202Eman', last_name: 'K', dob: '1990-02-03', gender: 'M', mobile: '9876543210' }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).message).toMatch(/first_name must not be blank, and must be one line without control characters .* bidirectional override characters/);
  });

  it('answers our own renderer; the session lives in main, per window', async () => {
    const win = nextWindow++;
    await expect(call('serviceInfo', event(RENDERER, win))).resolves.toEqual({ baseUrl: srv.baseUrl, version: '1.0' });
    await expect(call('session', event(RENDERER, win))).resolves.toBeNull();
    const e = await call('searchPatients', event(RENDERER, win), '9876543210').catch(toFailure);
    expect(e).toMatchObject({ status: 401, code: 'UNAUTHORIZED_ACCESS' });
  });

  it('runs the front desk through the services: sign in, search, register, book, check in, park, no-show and undo', async () => {
    const win = nextWindow++;
    const ev = event(RENDERER, win);
    const ws = srv.demo.workspaces[0]!;
    const { username, password } = ws.users.reception;
    const s = (await call('signIn', ev, { username, password })) as { user: { role: string }; workspace: { name: string } };
    expect(s.user.role).toBe('reception');
    expect(s).not.toHaveProperty('token');
    await expect(call('session', ev)).resolves.toMatchObject({ user: { username } });
    await expect(call('session', event(RENDERER, nextWindow++))).resolves.toBeNull();

    const family = (await call('searchPatients', ev, ws.patients[0]!.mobile)) as { name: string }[];
    expect(family.length).toBe(2);
    expect(await call('searchPatients', ev, '9000000000')).toEqual([]);

    const p = (await call('createPatient', ev, { first_name: 'Leela', last_name: 'Menon', dob: '1991-06-01', gender: 'F', mobile: '9812312312' })) as { id: string; mobile: string };
    expect(p.mobile).toBe('+919812312312');
    const upd = (await call('updatePatient', ev, p.id, { email: 'leela@example.com' })) as { email: string };
    expect(upd.email).toBe('leela@example.com');
    const dup = await call('createPatient', ev, { first_name: 'Leela', last_name: 'Menon', dob: '1991-06-01', gender: 'F', mobile: '9812312312' }).catch(toFailure);
    expect(dup).toMatchObject({ status: 409, code: 'PATIENT_ALREADY_EXISTS' });

    const doctors = (await call('doctors', ev)) as { id: string }[];
    const a = (await call('bookAppointment', ev, { patient_id: p.id, scheduled_at: new Date(Date.now() + 3600_000).toISOString(), doctor_id: doctors[0]!.id, reason: 'Fever' })) as { appointment_id: string; status: string };
    expect(a.status).toBe('BK');
    const day = (await call('dayAppointments', ev)) as { appointments: { appointment_id: string; patient_name: string }[] };
    expect(day.appointments.length).toBeGreaterThan(0);
    await expect(call('setAppointmentStatus', ev, a.appointment_id, 'CK')).resolves.toMatchObject({ status: 'CK', previous_status: 'BK' });
    await expect(call('parkAppointment', ev, a.appointment_id)).resolves.toMatchObject({ status: 'PK', previous_status: 'CK' });
    await expect(call('setAppointmentStatus', ev, a.appointment_id, 'NS')).resolves.toMatchObject({ status: 'NS', previous_status: 'PK' });
    await expect(call('setAppointmentStatus', ev, a.appointment_id, 'CK')).resolves.toMatchObject({ status: 'CK', previous_status: 'NS' });
    const history = (await call('appointmentHistory', ev, a.appointment_id)) as { from_status: string | null; to_status: string }[];
    expect(history.map((h) => [h.from_status, h.to_status])).toEqual([[null, 'BK'], ['BK', 'CK'], ['CK', 'PK'], ['PK', 'NS'], ['NS', 'CK']]);
    // Reception may not complete a consultation, nor open the settings.
    expect(await call('setAppointmentStatus', ev, a.appointment_id, 'CM').catch(toFailure)).toMatchObject({ status: 403 });
    expect(await call('users', ev).catch(toFailure)).toMatchObject({ status: 403 });
    expect(await call('recordings', ev).catch(toFailure)).toMatchObject({ status: 403 });

    await call('signOut', ev);
    await expect(call('session', ev)).resolves.toBeNull();
    expect(await call('searchPatients', ev, ws.patients[0]!.mobile).catch(toFailure)).toMatchObject({ status: 401 });
  });

  it('gives an admin the settings, and reports backends that are not installed in words', async () => {
    const ev = event(RENDERER, nextWindow++);
    const { username, password } = srv.demo.workspaces[0]!.users.admin;
    await call('signIn', ev, { username, password });
    // The demo makes one user per role.
    expect(((await call('users', ev)) as unknown[]).length).toBe(Object.keys(srv.demo.workspaces[0]!.users).length);
    const c = (await call('createApiClient', ev, { name: 'Pharmacy', scopes: ['patients:read'] })) as { client_id: string; client_secret: string };
    expect(c.client_secret).toMatch(/^cds_/);
    await call('revokeApiClient', ev, c.client_id);
    const k = (await call('createApiKey', ev, { label: 'Tablet' })) as { id: string };
    await call('revokeApiKey', ev, k.id);
    const { id } = (await call('createWebhook', ev, { event_names: ['appointment.statuschange'], endpoint: 'http://127.0.0.1:9/hook' })) as { id: string };
    const listed = ((await call('webhooks', ev)) as { id: string; status: string; disabled_reason: string | null }[]).find((w) => w.id === id);
    // The bridge adds each subscription's state (the HTTP list's shape is fixed by decisions.md).
    expect(listed).toMatchObject({ status: 'active', disabled_reason: null });
    expect(await call('webhookDeliveries', ev, id)).toMatchObject({ subscription: { id, status: 'active' }, deliveries: [] });
    await call('deleteWebhook', ev, id);
    // Done when the call resolves, and a refusal reaches the window: an implementation that did not await the
    // service would answer success for a subscription that no longer exists.
    expect(((await call('webhooks', ev)) as { id: string }[]).some((w) => w.id === id)).toBe(false);
    expect(await call('deleteWebhook', ev, id).catch(toFailure)).toMatchObject({ status: 404 });
    expect(await call('redeliverWebhook', ev, id, 'no-such-delivery').catch(toFailure)).toMatchObject({ status: 404 });
    expect(await call('pushCredentials', ev)).toBeNull();
    const b = (await call('backup', ev)) as { name: string };
    expect(((await call('backups', ev)) as { name: string }[])[0]!.name).toBe(b.name);
    expect(await call('serverStatus', ev)).toMatchObject({ status: 'ok', base_url: srv.baseUrl });
    for (const m of ['connectedAssistants', 'speechModels'] as const) {
      const r = (await call(m, ev)) as { available: boolean; reason?: string; value?: unknown };
      if (!r.available) expect(r.reason).toMatch(/not/);
    }
    const models = (await call('speechModelSetDefault', ev, 'pocketsphinx')) as { id: string; is_default: boolean }[];
    expect(models.find((m) => m.is_default)?.id).toBe('pocketsphinx');
    expect(await call('speechModelDownload', ev, 'huge').catch(toFailure)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await call('speechModelSetDefault', ev, 'small').catch(toFailure)).toMatchObject({ status: 409, code: 'MODEL_NOT_INSTALLED' });
  });

  it('changes a password in the signed-in window and resets one from an admin window, ending the other sessions', async () => {
    const adminEv = event(RENDERER, nextWindow++);
    const { username, password } = srv.demo.workspaces[0]!.users.admin;
    await call('signIn', adminEv, { username, password });
    const u = (await call('createUser', adminEv, { username: 'ipc.pw', password: 'first of all', role: 'doctor' })) as { id: string };
    const here = event(RENDERER, nextWindow++);
    const there = event(RENDERER, nextWindow++);
    await call('signIn', here, { username: 'ipc.pw', password: 'first of all' });
    await call('signIn', there, { username: 'ipc.pw', password: 'first of all' });

    expect(await call('changePassword', here, 'not it at all', 'second one!').catch(toFailure)).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    await call('changePassword', here, 'first of all', 'second one!');
    await expect(call('session', here)).resolves.toMatchObject({ user: { username: 'ipc.pw' } });
    await expect(call('session', there)).resolves.toBeNull();

    await call('resetUserPassword', adminEv, u.id, 'third, by admin');
    await expect(call('session', here)).resolves.toBeNull();
    await expect(call('signIn', here, { username: 'ipc.pw', password: 'third, by admin' })).resolves.toMatchObject({ user: { username: 'ipc.pw' } });
    expect(await call('resetUserPassword', here, u.id, 'doctor tries it').catch(toFailure)).toMatchObject({ status: 403 });
  });

  it("saves the window's page as a PDF where the doctor chooses, readable by this account only; Cancel saves nothing", async () => {
    const dir = tempDir('ipc-pdf');
    const asked: [number, string][] = [];
    let chosen: string | null = join(dir, 'chosen.pdf');
    const withDialog = createHandlers({
      service: srv.service, rendererUrl: RENDERER, info: { baseUrl: srv.baseUrl, version: '1.0' }, recordings: recordingStore(tempDir('recordings')),
      choosePdfPath: async (contentsId, fileName) => (asked.push([contentsId, fileName]), chosen),
    });
    const printPdf = (ev: IpcEvent, name: string, on: Handlers = withDialog) => on.printPrescriptionPdf(ev, name);
    // Electron's WebContents as far as main uses it here: its id, send, and printToPDF (Chromium's PDF of the page).
    const printed: unknown[] = [];
    const win = nextWindow++;
    const ev: IpcEvent = {
      senderFrame: { url: RENDERER } as never,
      sender: { id: win, send: () => undefined, printToPDF: async (options) => (printed.push(options), Buffer.from(`%PDF-1.7 page ${printed.length}`)) },
    };
    const ws = srv.demo.workspaces[0]!;
    // The renderer's name for it, from a name with characters no file name may hold: the schema takes it.
    const name = pdfFileName('Priya / Sharma: "K"\u202E', '2026-03-12');
    expect(name).toBe('Prescription - Priya Sharma K - 2026-03-12.pdf');

    // Reception has no scribe permission: refused before anything is printed or asked.
    await withDialog.signIn(ev, { username: ws.users.reception.username, password: ws.users.reception.password });
    expect(await printPdf(ev, name).catch(toFailure)).toMatchObject({ status: 403 });
    expect([printed.length, asked.length]).toEqual([0, 0]);

    await withDialog.signIn(ev, { username: ws.users.doctor.username, password: ws.users.doctor.password });
    expect(await printPdf(ev, name)).toEqual({ saved: true, path: join(dir, 'chosen.pdf') });
    expect(printed).toEqual([{ preferCSSPageSize: true, printBackground: true }]);
    expect(asked).toEqual([[win, name]]);
    expect(readFileSync(join(dir, 'chosen.pdf'), 'latin1')).toBe('%PDF-1.7 page 1');
    expect(statSync(join(dir, 'chosen.pdf')).mode & 0o777).toBe(0o600);

    // Saved over a file others could read: replaced, and closed to them.
    chosen = join(dir, 'old.pdf');
    writeFileSync(chosen, 'an older, longer prescription');
    chmodSync(chosen, 0o644);
    expect(await printPdf(ev, name)).toEqual({ saved: true, path: chosen });
    expect(readFileSync(chosen, 'latin1')).toBe('%PDF-1.7 page 2');
    expect(statSync(chosen).mode & 0o777).toBe(0o600);

    chosen = null;
    expect(await printPdf(ev, name)).toEqual({ saved: false, path: null });
    expect(printed.length).toBe(3);
    expect(readdirSync(dir).sort()).toEqual(['chosen.pdf', 'old.pdf']);

    // Without a save dialog (or from a sender that cannot print) there is no PDF to make: said in words.
    const other = event(RENDERER, nextWindow++);
    await handlers.signIn(other, { username: ws.users.doctor.username, password: ws.users.doctor.password });
    expect(await printPdf(other, name, handlers).catch(toFailure)).toMatchObject({ status: 501, code: 'NOT_AVAILABLE', message: expect.stringMatching(/Save as PDF/) });
  });

  it('keeps dictation audio on disk in chunks as it arrives, readable after a "crash"', async () => {
    const ev = event(RENDERER, nextWindow++);
    const { username, password } = srv.demo.workspaces[0]!.users.doctor;
    await call('signIn', ev, { username, password });
    const rec = (await call('recordingStart', ev, { patient_id: 'p1', patient_name: 'Priya Sharma', mime_type: 'audio/webm;codecs=opus' })) as { id: string };
    await call('recordingAppend', ev, rec.id, 0, new Uint8Array([1, 2, 3]));
    await call('recordingAppend', ev, rec.id, 1, new Uint8Array([4, 5]));
    // No finish: the app "crashed". The recording is still listed, unfinished, with all its audio.
    const listed = ((await call('recordings', ev)) as { id: string; finished: boolean; chunks: number; bytes: number }[]).find((r) => r.id === rec.id)!;
    expect(listed).toMatchObject({ finished: false, chunks: 2, bytes: 5 });
    expect([...((await call('recordingAudio', ev, rec.id)) as Uint8Array)]).toEqual([1, 2, 3, 4, 5]);
    await expect(call('recordingFinish', ev, rec.id, 12.5)).resolves.toMatchObject({ finished: true, duration_s: 12.5 });
    expect(await call('recordingAppend', ev, rec.id, 2, new Uint8Array([6])).catch(toFailure)).toMatchObject({ status: 409 });
    await call('recordingDiscard', ev, rec.id);
    expect(await call('recordingAudio', ev, rec.id).catch(toFailure)).toMatchObject({ status: 404 });
  });

  describe('Settings → Sandbox: the app\'s sandbox, started, reset and stopped by its handlers', () => {
    let app: RunningServer;
    let sandbox: DesktopSandbox;
    let sandboxHandlers: Handlers;
    let held: Server;
    const callHere = (m: 'sandboxStatus' | 'setSandboxEnabled' | 'resetSandbox' | 'signIn', ev: IpcEvent, ...args: unknown[]) =>
      (sandboxHandlers[m] as (e: IpcEvent, ...a: unknown[]) => Promise<unknown>)(ev, ...args);
    const login = (base: string, c: { api_key: string; client_id: string; client_secret: string }) => fetch(`${base}/api/v1/auth/token`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': c.api_key },
      body: JSON.stringify({ client_id: c.client_id, client_secret: c.client_secret, grant_type: 'client_credentials' }),
    });

    beforeAll(async () => {
      app = await startServer();
      // The port it asks for is taken, as by another program: it takes a free one instead.
      held = createNetServer();
      await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
      const port = (held.address() as AddressInfo).port;
      sandbox = desktopSandbox(app.service, { host: '127.0.0.1', port, productionUrl: app.baseUrl, service: { kek: TEST_KEK } });
      sandboxHandlers = createHandlers({
        service: app.service, rendererUrl: RENDERER, info: { baseUrl: app.baseUrl, version: '1.0' },
        recordings: recordingStore(tempDir('recordings')),
      });
    });
    afterAll(async () => {
      await sandbox?.close();
      held?.close();
      await app?.close();
    });

    it('is off until an admin turns it on; on, it answers at its address with its own credentials, refused live in words', async () => {
      const ev = event(RENDERER, nextWindow++);
      const ws = app.demo.workspaces[0]!;
      await callHere('signIn', ev, { username: ws.users.reception.username, password: ws.users.reception.password });
      expect(await callHere('sandboxStatus', ev).catch(toFailure)).toMatchObject({ status: 403 });
      await callHere('signIn', ev, { username: ws.users.admin.username, password: ws.users.admin.password });
      const file = join(app.dataDir, 'sandbox', 'sandbox-credentials.json');
      expect(await callHere('sandboxStatus', ev)).toEqual({ available: true, value: { enabled: false, url: null, problem: null, credentialsFile: file, credentials: null } });

      const on = (await callHere('setSandboxEnabled', ev, true)) as SandboxState;
      expect(on).toMatchObject({ enabled: true, problem: null, credentialsFile: file, credentials: { api_key: expect.stringMatching(/^cdk_test_/), client_secret: expect.stringMatching(/^cds_test_/) } });
      expect(on.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(on.url).not.toBe(`http://127.0.0.1:${(held.address() as AddressInfo).port}`);
      expect(JSON.parse(readFileSync(join(app.dataDir, SANDBOX_SETTING_FILE), 'utf8'))).toEqual({ enabled: true });
      expect(statSync(join(app.dataDir, SANDBOX_SETTING_FILE)).mode & 0o777).toBe(0o600);
      expect((await login(on.url!, on.credentials!)).status).toBe(200);
      const refused = await login(app.baseUrl, on.credentials!);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error_description: string }).error_description).toMatch(`use it with the sandbox at ${on.url}`);
      await app.service.audit.flush();
      expect((await app.service.audit.recent(ws.workspace_id, 5)).map((e) => e.action)).toContain('sandbox.enable');
    });

    it('resets from Settings: new credentials, the old ones refused; starts again at the app\'s next start; stops when turned off', async () => {
      const ev = event(RENDERER, nextWindow++);
      const { username, password } = app.demo.workspaces[0]!.users.admin;
      await callHere('signIn', ev, { username, password });
      const before = ((await callHere('sandboxStatus', ev)) as { value: SandboxState }).value;
      const after = (await callHere('resetSandbox', ev)) as SandboxState;
      expect(after.url).toBe(before.url);
      expect(after.credentials!.api_key).not.toBe(before.credentials!.api_key);
      expect((await login(after.url!, before.credentials!)).status).toBe(401);
      expect((await login(after.url!, after.credentials!)).status).toBe(200);

      // Quit and start again: the stored choice brings it back, with the same sandbox.
      await sandbox.close();
      expect(await fetch(`${after.url}/health`).then((r) => r.status, () => 'refused')).toBe('refused');
      sandbox = desktopSandbox(app.service, { host: '127.0.0.1', port: 0, productionUrl: app.baseUrl, service: { kek: TEST_KEK } });
      await sandbox.startIfEnabled();
      const again = ((await callHere('sandboxStatus', ev)) as { value: SandboxState }).value;
      expect(again).toMatchObject({ enabled: true, credentials: after.credentials });
      expect((await login(again.url!, after.credentials!)).status).toBe(200);

      const off = (await callHere('setSandboxEnabled', ev, false)) as SandboxState;
      expect(off).toMatchObject({ enabled: false, url: null, credentials: null });
      expect(await fetch(`${again.url}/health`).then((r) => r.status, () => 'refused')).toBe('refused');
      expect(app.service.environment.peerUrl).toBeNull();
      expect(await callHere('resetSandbox', ev).catch(toFailure)).toMatchObject({ status: 409, code: 'SANDBOX_OFF' });
      await sandbox.startIfEnabled();
      expect(sandbox.state().url).toBeNull();
    });

    it('says where the sandbox is managed when the app process runs none (the service without the desktop app)', async () => {
      const ev = event(RENDERER, nextWindow++);
      const { username, password } = srv.demo.workspaces[0]!.users.admin;
      await call('signIn', ev, { username, password });
      expect(await call('sandboxStatus', ev).catch(toFailure)).toMatchObject({ status: 501, code: 'SANDBOX_NOT_HERE' });
    });
  });

  describe('dictation in-process: the recording on this computer goes to the scribe service without HTTP', skipFor(missing('espeak-ng', 'pocketsphinx', 'ffmpeg')), () => {
    const dir = tempDir('ipc-dictation');
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const options = { templates: ['transcript_template', 'clinical_notes_template'], language: 'en-IN', mode: 'dictation', model_type: 'lite', codify: false };

    async function recorded(ev: IpcEvent, patientId: string) {
      const wav = readFileSync(speak(dir, `${patientId}.wav`, 'Fever for two days. Start paracetamol six fifty three times a day for five days.'));
      const rec = (await call('recordingStart', ev, { patient_id: patientId, mime_type: 'audio/wav' })) as { id: string };
      // MediaRecorder's chunks, as the renderer sends them.
      const half = Math.floor(wav.length / 2);
      await call('recordingAppend', ev, rec.id, 0, new Uint8Array(wav.subarray(0, half)));
      await call('recordingAppend', ev, rec.id, 1, new Uint8Array(wav.subarray(half)));
      await call('recordingFinish', ev, rec.id, 4);
      return { id: rec.id, bytes: wav.length };
    }

    it('uploads with progress events, transcribes, and the patient\'s history lists the session', async () => {
      const win = nextWindow++;
      const events: ProgressEvent[] = [];
      const ev: IpcEvent = { senderFrame: { url: RENDERER } as never, sender: { id: win, send: (channel, p) => void (channel === UPLOAD_PROGRESS_CHANNEL && events.push(p as ProgressEvent)) } };
      const ws = srv.demo.workspaces[0]!;
      await call('signIn', ev, { username: ws.users.doctor.username, password: ws.users.doctor.password });
      const patientId = ws.patients[0]!.patient_id;
      const rec = await recorded(ev, patientId);

      const { txn_id } = (await call('uploadDictation', ev, rec.id, options)) as { txn_id: string };
      expect(events.every((e) => e.method === 'uploadDictation' && e.key === rec.id)).toBe(true);
      const phases = events.map((e) => e.progress as { phase: string; loaded: number; total: number });
      expect(phases[0]).toEqual({ phase: 'preparing', loaded: 0, total: rec.bytes });
      const uploading = phases.slice(1, -1);
      expect(rec.bytes).toBeGreaterThan(2 * 64 * 1024);
      expect(uploading.length).toBeGreaterThan(1);
      expect(uploading.every((p, i) => p.phase === 'uploading' && p.loaded < p.total && p.loaded > (uploading[i - 1]?.loaded ?? 0))).toBe(true);
      expect(phases.at(-1)).toEqual({ phase: 'starting', loaded: rec.bytes, total: rec.bytes });
      expect(((await call('recordings', ev)) as { id: string; txn_id: string | null }[]).find((r) => r.id === rec.id)?.txn_id).toBe(txn_id);

      // The audio sits in the session's folder as the upload receiver leaves it: readable by the service's account only.
      const session = (await srv.service.scribe.session(ws.workspace_id, txn_id))!;
      const [audio] = await srv.service.scribe.files(session.id);
      expect(audio).toMatchObject({ kind: 'audio', name: 'dictation.wav', size: rec.bytes });
      expect(statSync(join(srv.service.scribe.sessionDir(session.id), audio!.stored_name)).mode & 0o777).toBe(0o600);

      const done = await until(async () => {
        const st = (await call('dictationStatus', ev, txn_id)) as DictationStatus;
        return st.state === 'processing' ? null : st;
      }, 'the dictation to finish', 90_000, 250);
      expect(done.state).toBe('completed');
      expect(done.results.map((r) => r.name)).toEqual(['Transcript', 'Clinical notes']);
      expect(JSON.stringify(done.results[0]!.json)).toMatch(/fever|paracetamol/i);

      const history = (await call('scribeHistory', ev, patientId)) as { sessions: { txn_id: string; status: string }[] };
      expect(history.sessions[0]).toMatchObject({ txn_id, status: 'completed' });
    }, 120_000);

    it('says why in the scribe\'s words when it cannot start, and keeps the recording for another try', async () => {
      const ev = event(RENDERER, nextWindow++);
      const ws = srv.demo.workspaces[0]!;
      await call('signIn', ev, { username: ws.users.doctor.username, password: ws.users.doctor.password });
      const rec = await recorded(ev, ws.patients[1]!.patient_id);
      const refused = await call('uploadDictation', ev, rec.id, { ...options, language: 'ta' }).catch(toFailure);
      expect(refused).toMatchObject({ status: 422, code: 'INVALID_REQUEST', message: expect.stringMatching(/^Transcription could not start: body\.input_language\.0: .*Tamil \(ta\)/) });
      expect(((await call('recordings', ev)) as { id: string; txn_id: string | null }[]).find((r) => r.id === rec.id)?.txn_id).toBeNull();
      expect(await call('dictationStatus', ev, 'no-such-txn').catch(toFailure)).toMatchObject({
        status: 400, code: 'transaction_not_found', message: expect.stringMatching(/^The transcription status could not be read: /),
      });
    });
  });
});
