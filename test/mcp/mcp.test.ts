import { createHash, randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoCredentials, type DemoWorkspace, ensureDemo } from '../../server/demo/demo.js';
import { buildHttpApp } from '../../server/http/app.js';
import { createService, type Service } from '../../server/service.js';
import { copyDemo } from '../helpers/demo-template.js';
import { missing } from '../helpers/needs.js';
import { TEST_KEK, call, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';
import { launch } from '../helpers/browser.js';

/**
 * The MCP endpoint: protected-resource metadata and 401 challenges per the MCP authorization spec, the
 * official SDK client connecting through its own OAuth flow (discovery, dynamic registration, PKCE, a browser
 * sign-in), every tool through the domain services as the signed-in user, role limits, and the audit trail.
 */

// Sign-in and consent happen in a browser; what needs none still runs without one.
const noBrowser = missing('chromium');
const SCOPE = 'openid profile offline_access patients:read patients:write appointments:read appointments:write notifications webhooks scribe';

let base: string;
let dataDir: string;
let service: Service;
let app: Awaited<ReturnType<typeof buildHttpApp>>;
let demo: DemoCredentials;
let ws: DemoWorkspace;
let browser: Browser;
let audioServer: Server;
let audioBase: string;

type Tool = { isError?: boolean; structuredContent?: any; content?: unknown };

/** 0.5 s of a 440 Hz tone: 16 kHz mono 16-bit PCM WAV. */
function wav(): Buffer {
  const rate = 16_000;
  const n = rate / 2;
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

async function loopback() {
  let resolveHit!: (u: URL) => void;
  const hit = new Promise<URL>((r) => { resolveHit = r; });
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Connected. You can close this window.</p>');
    resolveHit(new URL(req.url ?? '/', 'http://127.0.0.1'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { redirectUri: `http://127.0.0.1:${port}/callback`, hit, close: () => new Promise((r) => server.close(r)) };
}

async function signInAndAllow(page: Page, user: { username: string; password: string }) {
  await page.fill('#username', user.username);
  await page.fill('#password', user.password);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  await page.getByRole('button', { name: 'Allow' }).click();
}

/** A token for /mcp by the plain flow (registration, PKCE, browser sign-in and consent, code exchange). */
async function tokenFor(user: { username: string; password: string }, name = 'MCP test assistant') {
  const reg = await call(base, 'POST', '/oauth2/reg', {
    body: { client_name: name, redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', scope: SCOPE },
  });
  const clientId = reg.json.client_id as string;
  const lb = await loopback();
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL('/oauth2/auth', base);
  url.search = new URLSearchParams({
    client_id: clientId, response_type: 'code', redirect_uri: lb.redirectUri, scope: SCOPE, resource: `${base}/mcp`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  }).toString();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url.href);
  await signInAndAllow(page, user);
  const back = await lb.hit;
  await context.close();
  await lb.close();
  const res = await call(base, 'POST', '/oauth2/token', {
    rawBody: new URLSearchParams({
      grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: lb.redirectUri, client_id: clientId,
      code_verifier: verifier, resource: `${base}/mcp`,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.status, res.text).toBe(200);
  return { token: res.json.access_token as string, clientId };
}

async function connect(token: string) {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const tool = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<Tool>;
/** An error result's code and message: its text is "CODE: message". */
function failure(res: Tool) {
  expect(res.isError, JSON.stringify(res)).toBe(true);
  const text = (res.content as { text: string }[])[0]!.text;
  const i = text.indexOf(': ');
  return { code: text.slice(0, i), message: text.slice(i + 2) };
}

async function auditRows(action: string) {
  await service.audit.flush();
  return service.db.prepare('SELECT * FROM audit_log WHERE action = ? ORDER BY id').all(action) as {
    actor_type: string; actor_id: string; workspace_id: string; resource_ids: string | null; outcome: string; request_id: string;
  }[];
}

beforeAll(async () => {
  dataDir = tempDir('mcp');
  // The demo clinics below: a copy (helpers/demo-template.ts).
  await copyDemo(dataDir);
  // The scribe worker stays off: these tests check what the tools hand to the scribe, not the recognition itself.
  service = await createService({ kek: TEST_KEK, dataDir, scribe: { worker: false } });
  app = await buildHttpApp(service);
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  demo = (await ensureDemo(service, base))!;
  ws = demo.workspaces[0]!;
  if (!noBrowser) browser = await launch();
  const audio = wav();
  audioServer = createServer((req, res) => {
    if (req.url === '/dictation.wav') res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': audio.length }).end(audio);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => audioServer.listen(0, '127.0.0.1', r));
  audioBase = `http://127.0.0.1:${(audioServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => audioServer?.close(r));
  await app?.close();
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('authorization per the MCP spec', () => {
  it('publishes protected-resource metadata (RFC 9728) naming our provider, at the root and /mcp-suffixed', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await call(base, 'GET', path);
      expect(res.status, path).toBe(200);
      expect(res.json).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base], bearer_methods_supported: ['header'] });
      expect(res.json.scopes_supported).toEqual(expect.arrayContaining(['patients:read', 'appointments:write', 'scribe', 'offline_access']));
      expect(res.json.scopes_supported).not.toContain('admin');
    }
  });

  it('answers 401 with WWW-Authenticate pointing at the metadata: no token, a bad token, a client-credentials token', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = { accept: 'application/json, text/event-stream' };
    const none = await call(base, 'POST', '/mcp', { headers, body });
    expect(none.status).toBe(401);
    const challenge = none.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="');
    expect(challenge).not.toContain('error=');

    const bad = await call(base, 'POST', '/mcp', { headers: { ...headers, authorization: 'Bearer not.a.token' }, body });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');

    // An API client's token (client credentials) is for the clinic API, not this endpoint.
    const cc = await call(base, 'POST', '/api/v1/auth/token', {
      headers: { 'x-api-key': ws.api_key }, body: { client_id: ws.client_id, client_secret: ws.client_secret, grant_type: 'client_credentials' },
    });
    expect(cc.status).toBe(200);
    const ccRes = await call(base, 'POST', '/mcp', { headers: { ...headers, authorization: `Bearer ${cc.json.access_token}` }, body });
    expect(ccRes.status).toBe(401);
    // A user's long-lived auth token neither.
    expect((await call(base, 'POST', '/mcp', { headers: { ...headers, authorization: `Bearer ${ws.users.doctor.auth_token}` }, body })).status).toBe(401);
    // GET (no server-initiated stream: stateless) wants authentication first too.
    expect((await call(base, 'GET', '/mcp')).status).toBe(401);
  });

  it('lets the official SDK client connect through its own OAuth flow: discovery, registration, PKCE, browser sign-in', skipFor(noBrowser), async () => {
    const lb = await loopback();
    let authorizationUrl: URL | undefined;
    const state: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string } = {};
    const provider: OAuthClientProvider = {
      get redirectUrl() { return lb.redirectUri; },
      get clientMetadata(): OAuthClientMetadata {
        return { client_name: 'SDK OAuth client', redirect_uris: [lb.redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
      },
      clientInformation: () => state.client,
      saveClientInformation: (c) => { state.client = c; },
      tokens: () => state.tokens,
      saveTokens: (t) => { state.tokens = t; },
      redirectToAuthorization: (url) => { authorizationUrl = url; },
      saveCodeVerifier: (v) => { state.verifier = v; },
      codeVerifier: () => state.verifier!,
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'sdk-oauth', version: '1.0.0' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(authorizationUrl).toBeDefined();
    expect(authorizationUrl!.origin + authorizationUrl!.pathname).toBe(`${base}/oauth2/auth`);
    expect(authorizationUrl!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl!.searchParams.get('resource')).toBe(`${base}/mcp`);
    expect(state.client?.client_id).toBeTruthy();

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(authorizationUrl!.href);
    await signInAndAllow(page, ws.users.doctor);
    const back = await lb.hit;
    await context.close();
    await lb.close();
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(state.tokens?.access_token).toBeTruthy();
    expect(state.tokens?.refresh_token).toBeTruthy();

    const client = new Client({ name: 'sdk-oauth', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'export_note_fhir', 'get_scribe_documents', 'list_todays_appointments', 'mark_no_show', 'park_appointment', 'register_patient',
      'search_patients_by_mobile', 'start_scribe_session',
    ]);
    const res = await tool(client, 'search_patients_by_mobile', { mobile: ws.patients[0]!.mobile });
    expect(res.structuredContent.count).toBeGreaterThan(0);
    await client.close();
  });
});

describe('tools, as the signed-in doctor', skipFor(noBrowser), () => {
  let client: Client;
  let clientId: string;

  beforeAll(async () => {
    const t = await tokenFor(ws.users.doctor, 'Doctor\'s assistant');
    clientId = t.clientId;
    client = await connect(t.token);
  });
  afterAll(async () => client?.close());

  it('describes every tool with input and output schemas and honest hints', async () => {
    const { tools } = await client.listTools();
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.description!.length, t.name).toBeGreaterThan(40);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.search_patients_by_mobile!.annotations?.readOnlyHint).toBe(true);
    expect(byName.park_appointment!.annotations?.readOnlyHint).toBe(false);
    expect(byName.search_patients_by_mobile!.inputSchema.required).toEqual(['mobile']);
  });

  it('searches patients by mobile: families together, none for an unknown number, invalid input refused', async () => {
    const shared = ws.patients.filter((p) => p.mobile === ws.patients[0]!.mobile);
    const found = await tool(client, 'search_patients_by_mobile', { mobile: ws.patients[0]!.mobile });
    expect(found.structuredContent.count).toBe(shared.length);
    expect(found.structuredContent.patients.map((p: { patient_id: string }) => p.patient_id).sort()).toEqual(shared.map((p) => p.patient_id).sort());
    expect(JSON.parse((found.content as { text: string }[])[0]!.text)).toEqual(found.structuredContent);
    // Another clinic's patient is not found: the token acts in the user's own workspace only.
    const other = await tool(client, 'search_patients_by_mobile', { mobile: demo.workspaces[1]!.patients[0]!.mobile });
    expect(other.structuredContent).toEqual({ mobile: demo.workspaces[1]!.patients[0]!.mobile, count: 0, patients: [] });
    for (const mobile of ['98765', '+919876543210', 'abcdefghij']) {
      const bad = await tool(client, 'search_patients_by_mobile', { mobile });
      expect(bad.isError, mobile).toBe(true);
    }
  });

  it('lists today\'s appointments, parks one and marks another as a no-show', async () => {
    const today = await tool(client, 'list_todays_appointments', {});
    expect(today.isError).toBeFalsy();
    const list = today.structuredContent.appointments as { appointment_id: string; partner_appointment_id: string; status: string; patient_name: string }[];
    expect(list.map((a) => a.appointment_id).sort()).toEqual(ws.appointments.map((a) => a.appointment_id).sort());
    expect(list.every((a) => a.status === 'BK' && a.patient_name)).toBe(true);

    const park = await tool(client, 'park_appointment', { appointment_id: list[0]!.appointment_id });
    expect(park.structuredContent).toMatchObject({ appointment_id: list[0]!.appointment_id, status: 'PK', previous_status: 'BK', changed: true });
    const again = await tool(client, 'park_appointment', { appointment_id: list[0]!.appointment_id });
    expect(again.structuredContent).toMatchObject({ status: 'PK', changed: false });

    // By the partner's (EMR's) id.
    const ns = await tool(client, 'mark_no_show', { appointment_id: list[1]!.partner_appointment_id, id_type: 'partner' });
    expect(ns.structuredContent).toMatchObject({ appointment_id: list[1]!.appointment_id, status: 'NS', previous_status: 'BK', changed: true });
    // A parked appointment may become a no-show; a no-show cannot be parked.
    expect((await tool(client, 'mark_no_show', { appointment_id: list[0]!.appointment_id })).structuredContent.status).toBe('NS');
    const refused = await tool(client, 'park_appointment', { appointment_id: list[1]!.appointment_id });
    expect(refused.isError).toBe(true);
    expect(failure(refused).code).toBe('INVALID_REQUEST');
    const missing = await tool(client, 'park_appointment', { appointment_id: 'no-such-appointment' });
    expect(failure(missing).code).toBe('APPOINTMENT_NOT_FOUND');
    const other = await tool(client, 'park_appointment', { appointment_id: demo.workspaces[1]!.appointments[0]!.appointment_id });
    expect(failure(other).code).toBe('APPOINTMENT_NOT_FOUND');

    const after = await tool(client, 'list_todays_appointments', {});
    const status = Object.fromEntries((after.structuredContent.appointments as { appointment_id: string; status: string }[]).map((a) => [a.appointment_id, a.status]));
    expect(status[list[0]!.appointment_id]).toBe('NS');
    expect(status[list[1]!.appointment_id]).toBe('NS');
  });

  it('starts a scribe session from a file path and from a URL, and fetches its documents', async () => {
    const path = join(tempDir('mcp-audio'), 'dictation.wav');
    writeFileSync(path, wav());
    const fromPath = await tool(client, 'start_scribe_session', { audio: path, templates: ['clinical_notes_template', 'transcript_template'] });
    expect(fromPath.isError, JSON.stringify(fromPath.content)).toBeFalsy();
    expect(fromPath.structuredContent).toMatchObject({ status: 'queued', file: { name: 'dictation.wav', bytes: wav().length }, languages: ['en-IN'] });
    const sessionId = fromPath.structuredContent.session_id as string;
    const session = (await service.scribe.session(ws.workspace_id, sessionId))!;
    expect(session.status).toBe('queued');
    expect((await service.scribe.files(session.id)).map((f) => [f.name, f.size])).toEqual([['dictation.wav', wav().length]]);

    const fromUrl = await tool(client, 'start_scribe_session', { audio: `${audioBase}/dictation.wav`, session_id: 'visit-42', mode: 'consultation' });
    expect(fromUrl.isError, JSON.stringify(fromUrl.content)).toBeFalsy();
    expect(fromUrl.structuredContent).toMatchObject({ session_id: 'visit-42', status: 'queued', file: { bytes: wav().length } });

    for (const [audio, code] of [
      ['relative/dictation.wav', 'INVALID_REQUEST'], ['/no/such/file.wav', 'NOT_FOUND'], [join(dataDir, 'clinic-desk.sqlite'), 'INVALID_REQUEST'],
      [`${audioBase}/missing.wav`, 'FETCH_FAILED'], [`${audioBase}/notes.txt`, 'INVALID_REQUEST'],
    ] as const) {
      const bad = await tool(client, 'start_scribe_session', { audio });
      expect(bad.isError, audio).toBe(true);
      expect(failure(bad).code, audio).toBe(code);
    }
    const dup = await tool(client, 'start_scribe_session', { audio: path, session_id: 'visit-42' });
    expect(failure(dup).code).toBe('transaction_already_initialized');

    const queued = await tool(client, 'get_scribe_documents', { session_id: sessionId });
    expect(queued.structuredContent).toMatchObject({ session_id: sessionId, status: 'queued', documents: [] });
    // The worker is off here; finish the session as the pipeline would, then read its documents.
    const notes = { chief_complaint: 'Fever for three days', medications: [{ name: 'Paracetamol', dose: '500 mg' }] };
    service.db.prepare("UPDATE scribe_sessions SET status = 'completed', stage = 'completed', percent = 100, output = ? WHERE id = ?").run(JSON.stringify([
      { template_id: 'clinical_notes_template', value: Buffer.from(JSON.stringify(notes)).toString('base64'), type: 'json', name: 'Clinical notes', status: 'success', errors: [], warnings: [] },
    ]), session.id);
    const done = await tool(client, 'get_scribe_documents', { session_id: sessionId });
    expect(done.structuredContent).toMatchObject({ status: 'completed', documents: [{ template_id: 'clinical_notes_template', status: 'success', content: notes }] });
    const unknown = await tool(client, 'get_scribe_documents', { session_id: 'never-started' });
    expect(failure(unknown).code).toBe('transaction_not_found');
  });

  it('exports a note as FHIR through the note\'s operation: the draft on request, an unsigned note refused, the version passed on', async () => {
    const path = join(tempDir('mcp-fhir'), 'dictation.wav');
    writeFileSync(path, wav());
    const started = await tool(client, 'start_scribe_session', { audio: path, templates: ['service_emr_template'] });
    const sessionId = started.structuredContent.session_id as string;
    const session = (await service.scribe.session(ws.workspace_id, sessionId))!;
    // The worker is off here; finish the session with an EMR draft, as the pipeline would.
    const emr = {
      template_id: 'service_emr_template', language: 'en-IN', chief_complaints: [{ name: 'Fever' }],
      history: { past: [], family: [], allergies: [] }, vitals: { pulse_bpm: 88 }, examination: [], diagnoses: [], medications: [],
      investigations: [], advice: ['Rest'],
    };
    service.db.prepare("UPDATE scribe_sessions SET status = 'completed', stage = 'completed', percent = 100, output = ? WHERE id = ?").run(JSON.stringify([
      { template_id: 'service_emr_template', value: Buffer.from(JSON.stringify(emr)).toString('base64'), type: 'json', name: 'EMR', status: 'success', errors: [], warnings: [] },
    ]), session.id);

    const draft = await tool(client, 'export_note_fhir', { session_id: sessionId, version: 'draft' });
    expect(draft.isError, JSON.stringify(draft.content)).toBeFalsy();
    expect(draft.structuredContent.bundle).toMatchObject({ resourceType: 'Bundle', type: 'document' });
    const composition = (draft.structuredContent.bundle.entry as { resource: { resourceType: string; status?: string } }[])
      .find((e) => e.resource.resourceType === 'Composition')!.resource;
    expect(composition.status).toBe('preliminary');
    expect(failure(await tool(client, 'export_note_fhir', { session_id: sessionId })).code).toBe('NOT_SIGNED');
    expect(failure(await tool(client, 'export_note_fhir', { session_id: sessionId, version: '5' })).message).toBe(`Note ${sessionId} has no version 5`);
    expect(failure(await tool(client, 'export_note_fhir', { session_id: 'never-started' })).message).toBe('No scribe session never-started in your clinic');
    expect((await tool(client, 'export_note_fhir', { session_id: sessionId, version: 'newest' })).isError).toBe(true);
  });

  it('records every call in the audit log under the user: the domain\'s own row and one per tool call', async () => {
    await tool(client, 'search_patients_by_mobile', { mobile: ws.patients[2]!.mobile });
    const searches = (await auditRows('patient.search')).filter((r) => r.actor_id !== null && r.resource_ids?.includes(ws.patients[2]!.patient_id));
    expect(searches.length).toBeGreaterThan(0);
    const doctorId = searches.at(-1)!.actor_id;
    expect(searches.at(-1)).toMatchObject({ actor_type: 'user', workspace_id: ws.workspace_id, outcome: 'success' });
    const calls = (await auditRows('mcp.tool_call')).filter((r) => r.actor_id === doctorId);
    const names = calls.map((r) => JSON.parse(r.resource_ids!)[0]);
    for (const name of ['search_patients_by_mobile', 'list_todays_appointments', 'park_appointment', 'mark_no_show', 'start_scribe_session', 'get_scribe_documents']) {
      expect(names, name).toContain(name);
    }
    const last = calls.at(-1)!;
    expect(JSON.parse(last.resource_ids!)).toEqual(['search_patients_by_mobile', `client:${clientId}`]);
    // The search's own row and its tool-call row share the MCP request's id.
    expect(searches.at(-1)!.request_id).toBe(last.request_id);
    expect(calls.some((r) => r.outcome === 'not_found')).toBe(true);
    expect((await auditRows('appointment.park')).some((r) => r.actor_id === doctorId && r.outcome === 'success')).toBe(true);
    expect((await auditRows('scribe.session.init')).some((r) => r.actor_id === doctorId)).toBe(true);
  });
});

describe('a reception user\'s assistant', skipFor(noBrowser), () => {
  it('has reception\'s role: front desk tools work, the scribe tools are refused and the refusal audited', async () => {
    const { token } = await tokenFor(ws.users.reception, 'Reception\'s assistant');
    const client = await connect(token);
    expect((await tool(client, 'list_todays_appointments', {})).isError).toBeFalsy();
    const start = await tool(client, 'start_scribe_session', { audio: `${audioBase}/dictation.wav` });
    expect(start.isError).toBe(true);
    expect(failure(start).code).toBe('FORBIDDEN');
    expect(failure(start).message).toContain('reception');
    const read = await tool(client, 'get_scribe_documents', { session_id: 'visit-42' });
    expect(failure(read).code).toBe('FORBIDDEN');
    await client.close();
    const denied = (await auditRows('scribe.access')).filter((r) => r.outcome === 'denied');
    expect(denied.length).toBeGreaterThanOrEqual(2);
    expect((await auditRows('mcp.tool_call')).filter((r) => r.outcome === 'denied').length).toBeGreaterThanOrEqual(2);
    // And on the HTTP API, the same token gets 403 on the scribe.
    const http = await call(base, 'GET', '/voice/api/v3/status/visit-42', { headers: { authorization: `Bearer ${token}` } });
    expect(http.status).toBe(403);
  });
});
