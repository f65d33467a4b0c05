import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_URL, allowsPermission } from '../../main/app-origin.js';
import {
  SERVER_CHOICE_FILE, clearServerChoice, clinicServerSwitch, insecureOriginToTrust, isServerUrl, probeClinicServer, readServerChoice,
  saveServerChoice, serverOrigin, startPlan,
} from '../../main/connection.js';
import { type IpcEvent, createHandlers, toFailure } from '../../main/ipc.js';
import { recordingStore } from '../../main/recordings.js';
import { CLINIC_EXISTS } from '../../server/desktop/app-api.js';
import { type Service, createService } from '../../server/service.js';
import { ServiceError } from '../../server/shared/errors.js';
import { type RunningServer, TEST_KEK, startServer, tempDir } from '../helpers/server.js';

/**
 * The desktop app's switch to a chain's clinic server (issue 17 item 5), its Electron-free parts against real
 * things: a real Clinic Desk server, plain HTTP servers answering something else, a closed port, the app's data
 * folder on disk, and main's IPC handlers over a real service.
 */

const listen = (server: Server) => new Promise<string>((resolve) => {
  server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
});
const closeServer = (server: Server) => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});
const failureOf = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ServiceError);

describe('the address a person types', () => {
  it.each([
    ['https://clinic.example.org', 'https://clinic.example.org'],
    ['  http://192.168.1.20:4810/  ', 'http://192.168.1.20:4810'],
    ['HTTPS://Clinic.Example.org:443/', 'https://clinic.example.org'],
    ['http://[::1]:4810', 'http://[::1]:4810'],
  ])('%j is the server %s', (typed, origin) => expect(serverOrigin(typed)).toBe(origin));

  it.each([
    ['file:///etc/passwd', /with https:\/\/ \(or http:\/\/ on the clinic's own network\) in front/],
    ['javascript:alert(1)', /with https:\/\//],
    ['ftp://clinic.example.org', /with https:\/\//],
    ['clinic.example.org:4810', /with https:\/\//],
    ['clinic.example.org', /with https:\/\//],
    ['', /Write the clinic server's address/],
    ['http://admin:secret@clinic.example.org', /Leave the user name and password out/],
    ['http://clinic.example.org@evil.example', /Leave the user name and password out/],
    ['https://clinic.example.org/api', /without a path, \? or #/],
    ['https://clinic.example.org/?next=https://evil.example', /without a path, \? or #/],
    ['https://clinic.example.org/#x', /without a path, \? or #/],
    ['https://clinic.example.org\\@evil.example', /without a path, \? or #/],
  ])('%j is refused in words', (typed, sentence) => {
    const e = (() => {
      try {
        serverOrigin(typed);
        return null;
      } catch (err) {
        return err as ServiceError;
      }
    })();
    expect(e).toBeInstanceOf(ServiceError);
    expect(e).toMatchObject({ status: 400, code: 'INVALID_ADDRESS' });
    expect(e!.message).toMatch(sentence);
  });
});

describe('the health probe', () => {
  let clinicDesk: RunningServer;
  const others: Server[] = [];
  /** A plain HTTP server answering /health with whatever `answer` writes. */
  const other = (answer: (res: import('node:http').ServerResponse) => void) => {
    const server = createServer((req, res) => (req.url === '/health' ? answer(res) : res.writeHead(404).end()));
    others.push(server);
    return listen(server);
  };

  beforeAll(async () => {
    clinicDesk = await startServer();
  });
  afterAll(async () => {
    await Promise.all(others.map(closeServer));
    await clinicDesk?.close();
  });

  it('accepts a running Clinic Desk server', async () => {
    await expect(probeClinicServer(clinicDesk.baseUrl)).resolves.toBeUndefined();
  });

  it.each([
    ['a web page', (res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>It works</h1>'), /something answers there, but not as a Clinic Desk service/],
    ['a 404', (res: import('node:http').ServerResponse) => res.writeHead(404, { 'content-type': 'application/json' }).end('{}'), /not as a Clinic Desk service/],
    ['another service\'s health', (res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"UP"}'), /not as a Clinic Desk service/],
    ['421, as a Clinic Desk service does to a name it was not given', (res: import('node:http').ServerResponse) => res.writeHead(421, { 'content-type': 'application/json' }).end('{"error":{"code":"MISDIRECTED_REQUEST"}}'), /it does not take the name 127\.0\.0\.1; the server's administrator adds it with --allowed-hosts/],
    ['a version this app does not speak', (res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","version":"2.0"}'), /speaks API version 2\.0 and this app speaks 1\.0/],
  ])('refuses an HTTP server answering %s', async (_what, answer, sentence) => {
    const url = await other(answer);
    const e = await failureOf(probeClinicServer(url));
    expect(e).toMatchObject({ status: 422, code: 'NO_CLINIC_SERVER' });
    expect(e!.message).toMatch(new RegExp(`^No Clinic Desk server answers at ${url}: `));
    expect(e!.message).toMatch(sentence);
  });

  it('does not follow a redirect, even to a real Clinic Desk server', async () => {
    const url = await other((res) => res.writeHead(302, { location: `${clinicDesk.baseUrl}/health` }).end());
    const e = await failureOf(probeClinicServer(url));
    expect(e?.message).toBe(`No Clinic Desk server answers at ${url}: it sends the app elsewhere (answered 302); give the address it sends to.`);
  });

  it('gives up on a server that does not answer in time', async () => {
    const url = await other(() => undefined);
    const started = Date.now();
    const e = await failureOf(probeClinicServer(url, { timeoutMs: 300 }));
    expect(e?.message).toBe(`No Clinic Desk server answers at ${url}: nothing answered within 0.3 seconds.`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says a port browsers refuse is one the server cannot use', async () => {
    const e = await failureOf(probeClinicServer('http://127.0.0.1:25'));
    expect(e?.message).toBe('No Clinic Desk server answers at http://127.0.0.1:25: port 25 is one web browsers refuse to use; the server needs another port.');
  });

  it('says nothing listens at a closed port', async () => {
    const server = createServer();
    const url = await listen(server);
    await closeServer(server);
    const e = await failureOf(probeClinicServer(url));
    expect(e?.message).toBe(`No Clinic Desk server answers at ${url}: nothing is listening at that address and port.`);
  });
});

describe('the saved choice', () => {
  it('survives a restart, readable by this account only, and clearing it goes back to the embedded service', () => {
    const dir = tempDir('desktop-choice');
    expect(startPlan(dir)).toEqual({ mode: 'embedded' });
    const saved = saveServerChoice(dir, 'https://clinic.example.org/', new Date('2026-11-22T10:00:00Z'));
    expect(saved).toEqual({ url: 'https://clinic.example.org', chosen_at: '2026-11-22T10:00:00.000Z' });
    const file = join(dir, SERVER_CHOICE_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Nothing half-written is left beside it.
    expect(readdirSync(dir)).toEqual([SERVER_CHOICE_FILE]);
    // A fresh read, as the next start does.
    expect(readServerChoice(dir)).toEqual(saved);
    expect(startPlan(dir)).toEqual({ mode: 'server', origin: 'https://clinic.example.org' });
    // Choosing again replaces it whole.
    saveServerChoice(dir, 'http://192.168.1.20:4810');
    expect(startPlan(dir)).toEqual({ mode: 'server', origin: 'http://192.168.1.20:4810' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    clearServerChoice(dir);
    expect(existsSync(file)).toBe(false);
    expect(startPlan(dir)).toEqual({ mode: 'embedded' });
    clearServerChoice(dir);
  });

  it.each([
    ['a script address', '{"url":"javascript:alert(1)"}'],
    ['a file address', '{"url":"file:///etc/passwd"}'],
    ['an address with a path', '{"url":"https://clinic.example.org/evil"}'],
    ['no JSON', 'https://clinic.example.org'],
  ])('is not followed when the file holds %s: the app starts its own clinic and says why', (_what, text) => {
    const dir = tempDir('desktop-choice');
    writeFileSync(join(dir, SERVER_CHOICE_FILE), text);
    const said: string[] = [];
    expect(startPlan(dir, (m) => said.push(m))).toEqual({ mode: 'embedded' });
    expect(said).toEqual([`clinic-desk: ${join(dir, SERVER_CHOICE_FILE)} does not name a clinic server's address; starting this computer's own clinic`]);
  });
});

describe('Settings → Use a clinic server through main\'s handlers', () => {
  let here: RunningServer;
  let chain: RunningServer;
  let dataDir: string;
  const restarts: string[] = [];
  const ev = (id: number): IpcEvent => ({ senderFrame: { url: RENDERER_URL } as never, sender: { id, send: () => undefined } });
  const handlersWith = (clinicServer?: ReturnType<typeof clinicServerSwitch>) => createHandlers({
    service: here.service, rendererUrl: RENDERER_URL, info: { baseUrl: here.baseUrl, version: '1.0' },
    recordings: recordingStore(tempDir('recordings')), clinicServer,
  });

  beforeAll(async () => {
    [here, chain] = await Promise.all([startServer(), startServer()]);
    dataDir = tempDir('desktop-userdata');
  });
  afterAll(async () => {
    await here?.close();
    await chain?.close();
  });

  it('checks, saves and restarts for an admin; refuses the front desk; saves nothing when the check fails', async () => {
    const handlers = handlersWith(clinicServerSwitch(dataDir, { restart: (origin) => void restarts.push(origin) }));
    const ws = here.demo.workspaces[0]!;
    const admin = ev(1);
    const reception = ev(2);
    await handlers.signIn(admin, { username: ws.users.admin.username, password: ws.users.admin.password });
    await handlers.signIn(reception, { username: ws.users.reception.username, password: ws.users.reception.password });

    expect(await handlers.clinicServerChoice(admin)).toEqual({ available: true, value: { choiceFile: join(dataDir, SERVER_CHOICE_FILE) } });
    expect(await handlers.useClinicServer(reception, chain.baseUrl).catch(toFailure)).toMatchObject({ status: 403 });

    expect(await handlers.useClinicServer(admin, 'javascript:alert(1)').catch(toFailure)).toMatchObject({ status: 400, code: 'INVALID_ADDRESS' });
    const closed = createServer();
    const closedUrl = await listen(closed);
    await closeServer(closed);
    const down = await handlers.useClinicServer(admin, closedUrl).catch(toFailure);
    expect(down).toMatchObject({ status: 422, code: 'NO_CLINIC_SERVER', message: `No Clinic Desk server answers at ${closedUrl}: nothing is listening at that address and port.` });
    expect(existsSync(join(dataDir, SERVER_CHOICE_FILE))).toBe(false);
    expect(restarts).toEqual([]);

    await expect(handlers.useClinicServer(admin, `${chain.baseUrl}/`)).resolves.toEqual({ url: chain.baseUrl });
    expect(restarts).toEqual([chain.baseUrl]);
    expect(startPlan(dataDir)).toEqual({ mode: 'server', origin: chain.baseUrl });
    expect(JSON.parse(readFileSync(join(dataDir, SERVER_CHOICE_FILE), 'utf8'))).toMatchObject({ url: chain.baseUrl });
    // Audited in the clinic being left: who pointed this app elsewhere, and the refused tries.
    await here.service.audit.flush();
    const actions = (await here.service.audit.recent(ws.workspace_id, 10)).filter((e) => e.action === 'app.use_clinic_server').map((e) => e.outcome);
    expect(actions.sort()).toEqual(['error', 'invalid', 'success']);
  });

  it('is not offered where the app process cannot switch (the service without the desktop app)', async () => {
    const handlers = handlersWith();
    const ws = here.demo.workspaces[0]!;
    const admin = ev(3);
    await handlers.signIn(admin, { username: ws.users.admin.username, password: ws.users.admin.password });
    expect(await handlers.clinicServerChoice(admin)).toMatchObject({ available: false });
    expect(await handlers.useClinicServer(admin, chain.baseUrl).catch(toFailure)).toMatchObject({ status: 501, code: 'NOT_AVAILABLE' });
  });
});

describe('First run → Join a clinic server through main\'s handlers', () => {
  // A new branch computer: the app's own service over a database with no clinic yet.
  const dataDir = tempDir('desktop-first-run');
  let service: Service;
  let chain: RunningServer;
  const ev = (id: number): IpcEvent => ({ senderFrame: { url: RENDERER_URL } as never, sender: { id, send: () => undefined } });
  const handlersWith = (userData: string, restarts: string[]) => createHandlers({
    service, rendererUrl: RENDERER_URL, info: { baseUrl: 'http://127.0.0.1:4810', version: '1.0' }, recordings: recordingStore(tempDir('recordings')),
    clinicServer: clinicServerSwitch(userData, { restart: (origin) => void restarts.push(origin) }),
  });
  const joinAudit = async () => {
    await service.audit.flush();
    return service.db.prepare("SELECT workspace_id, actor_type, actor_id, resource_ids, outcome FROM audit_log WHERE action = 'app.use_clinic_server' ORDER BY id").all();
  };

  beforeAll(async () => {
    service = await createService({ kek: TEST_KEK, dataDir });
    chain = await startServer();
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
    await chain?.close();
  });

  it('is anyone\'s while this computer has no clinic: the same checks, nothing saved on failure, then saved, restarted and audited as anonymous', async () => {
    const userData = tempDir('desktop-userdata');
    const restarts: string[] = [];
    const handlers = handlersWith(userData, restarts);
    const win = ev(1);
    expect(await handlers.setupStatus(win)).toEqual({ needed: true });
    expect(await handlers.session(win)).toBeNull();
    expect(await handlers.joinClinicServerChoice(win)).toEqual({ available: true, value: { choiceFile: join(userData, SERVER_CHOICE_FILE) } });

    expect(await handlers.joinClinicServer(win, 'http://admin:secret@127.0.0.1:4810').catch(toFailure)).toMatchObject({ status: 400, code: 'INVALID_ADDRESS' });
    const closed = createServer();
    const closedUrl = await listen(closed);
    await closeServer(closed);
    expect(await handlers.joinClinicServer(win, closedUrl).catch(toFailure)).toEqual({
      status: 422, code: 'NO_CLINIC_SERVER', message: `No Clinic Desk server answers at ${closedUrl}: nothing is listening at that address and port.`,
    });
    expect(existsSync(join(userData, SERVER_CHOICE_FILE))).toBe(false);
    expect(restarts).toEqual([]);

    await expect(handlers.joinClinicServer(win, ` ${chain.baseUrl}/`)).resolves.toEqual({ url: chain.baseUrl });
    expect(restarts).toEqual([chain.baseUrl]);
    expect(startPlan(userData)).toEqual({ mode: 'server', origin: chain.baseUrl });
    // Nobody to name, and the checked address only: the refused tries' text (a password among them) is not kept.
    expect(await joinAudit()).toEqual([
      { workspace_id: null, actor_type: 'anonymous', actor_id: null, resource_ids: null, outcome: 'invalid' },
      { workspace_id: null, actor_type: 'anonymous', actor_id: null, resource_ids: null, outcome: 'error' },
      { workspace_id: null, actor_type: 'anonymous', actor_id: null, resource_ids: JSON.stringify([chain.baseUrl]), outcome: 'success' },
    ]);
    // Joining made no clinic here: the way back (the app menu) leads to this first run again.
    expect(await handlers.setupStatus(win)).toEqual({ needed: true });
  });

  it('is refused with 403 once a clinic exists here, even to its admin: only Settings → Server switches then', async () => {
    const userData = tempDir('desktop-userdata');
    const restarts: string[] = [];
    const handlers = handlersWith(userData, restarts);
    const admin = ev(2);
    await handlers.setup(admin, { clinic_name: 'Branch Clinic', admin: { username: 'branch.admin', password: 'branch admin 2026' } });
    const before = (await joinAudit()).length;

    expect(await handlers.joinClinicServerChoice(ev(3))).toEqual({ available: false, reason: CLINIC_EXISTS });
    for (const win of [ev(3), admin]) {
      expect(await handlers.joinClinicServer(win, chain.baseUrl).catch(toFailure)).toEqual({ status: 403, code: 'FORBIDDEN', message: CLINIC_EXISTS });
    }
    expect(existsSync(join(userData, SERVER_CHOICE_FILE))).toBe(false);
    expect(restarts).toEqual([]);
    expect((await joinAudit()).slice(before)).toEqual([
      { workspace_id: null, actor_type: 'anonymous', actor_id: null, resource_ids: null, outcome: 'denied' },
      { workspace_id: null, actor_type: 'anonymous', actor_id: null, resource_ids: null, outcome: 'denied' },
    ]);

    await expect(handlers.useClinicServer(admin, chain.baseUrl)).resolves.toEqual({ url: chain.baseUrl });
    expect(restarts).toEqual([chain.baseUrl]);
    const settings = (await joinAudit()).at(-1) as { actor_type: string; workspace_id: string; resource_ids: string; outcome: string };
    expect(settings).toMatchObject({ actor_type: 'user', resource_ids: JSON.stringify([chain.baseUrl]), outcome: 'success' });
    expect(settings.workspace_id).toBe((await service.auth.workspaces())[0]!.id);
  });

  it('is not offered where the app process cannot switch', async () => {
    const handlers = createHandlers({ service, rendererUrl: RENDERER_URL, info: { baseUrl: 'http://127.0.0.1:4810', version: '1.0' }, recordings: recordingStore(tempDir('recordings')) });
    expect(await handlers.joinClinicServerChoice(ev(4))).toMatchObject({ available: false });
    expect(await handlers.joinClinicServer(ev(4), chain.baseUrl).catch(toFailure)).toMatchObject({ status: 501, code: 'NOT_AVAILABLE' });
  });
});

describe('a window on a clinic server', () => {
  const origin = 'http://192.168.1.20:4810';
  it.each([
    [`${origin}/`, true], [`${origin}/#/settings/server`, true], [`${origin}/assets/index-abc.js`, true],
    ['http://192.168.1.20:4811/', false], ['https://192.168.1.20:4810/', false], ['http://192.168.1.200:4810/', false],
    ['http://user@192.168.1.20:4810/', false], [RENDERER_URL, false], ['javascript:alert(1)', false], ['', false], [undefined, false],
  ])('%s is its page: %s', (url, ours) => expect(isServerUrl(url, origin)).toBe(ours));

  it('grants the microphone to that server alone, and nothing else', () => {
    const isOurs = (url: string | undefined) => isServerUrl(url, origin);
    expect(allowsPermission('media', `${origin}/`, ['audio'], isOurs)).toBe(true);
    expect(allowsPermission('media', origin, undefined, isOurs)).toBe(true);
    expect(allowsPermission('media', `${origin}/`, ['audio', 'video'], isOurs)).toBe(false);
    expect(allowsPermission('notifications', `${origin}/`, [], isOurs)).toBe(false);
    expect(allowsPermission('media', RENDERER_URL, ['audio'], isOurs)).toBe(false);
    expect(allowsPermission('media', 'http://192.168.1.20:4811/', ['audio'], isOurs)).toBe(false);
  });

  it('names only a plain-http server on the network as secure (https and this computer already are)', () => {
    expect(insecureOriginToTrust(origin)).toBe(origin);
    expect(insecureOriginToTrust('https://clinic.example.org')).toBeNull();
    expect(insecureOriginToTrust('http://127.0.0.1:4810')).toBeNull();
    expect(insecureOriginToTrust('http://localhost:4810')).toBeNull();
  });
});
