import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { ApiClient, ApiKey, Patient, Role, SaKey, Scope, SessionInfo, SpeechModel, User, WebhookState, WebhookSubscription } from '../../../preload/contract';
import { clinic } from '../clinic';
import { DoctorProfileForm, PrescriptionSettings } from '../notes/Profile';
import { ClinicServerForm } from './ClinicServerForm';
import { PatientForm } from './RegisterPatient';
import { ScribeReadinessList, ScribeSummary } from './ScribeReadiness';
import { Confirm, Dialog, Empty, ErrorNote, Field, Icon, Loading, Note, Panel, Progress, bytes, when } from '../ui';
import { RemindersPanel } from './RemindersPanel';

type Tab = 'server' | 'users' | 'patients' | 'clients' | 'keys' | 'webhooks' | 'push' | 'reminders' | 'models' | 'assistants' | 'backups' | 'prescription'
  | 'sandbox' | 'profile';
const TABS: [Tab, string][] = [
  ['server', 'Server'], ['users', 'Users'], ['patients', 'Mobiles to correct'], ['clients', 'API clients'], ['keys', 'API keys'], ['webhooks', 'Webhooks'],
  ['push', 'Push notifications'], ['reminders', 'Reminders'], ['models', 'Speech models'], ['assistants', 'AI assistants'], ['backups', 'Backups'], ['prescription', 'Prescription'],
  ['sandbox', 'Sandbox'],
];
/** A doctor's Settings: what prints under their name (everything else is the admins'). */
const DOCTOR_TABS: [Tab, string][] = [['profile', 'My prescription details']];
const SCOPES: [Scope, string][] = [
  ['patients:read', 'Read patients'], ['patients:write', 'Register and edit patients'], ['appointments:read', 'Read appointments'],
  ['appointments:write', 'Book and change appointments'], ['notifications', 'Push notifications'], ['webhooks', 'Webhooks'], ['scribe', 'Scribe (dictation)'],
];
const EVENTS = ['appointment.statuschange', 'v2rx.completed', 'v2rx.failed'];

function Secret({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="stack">
      <Note kind="warn" title="Copy it now">This is the only time Clinic Desk shows it: only a hash is kept. Store it in the integration's settings, never in email or chat.</Note>
      <Field label={label}>
        <div className="secret" data-testid="secret"><span className="grow">{value}</span>
          <button className="btn sm" type="button" onClick={() => void navigator.clipboard.writeText(value).then(() => setCopied(true))}><Icon name="copy" size={14} />{copied ? 'Copied' : 'Copy'}</button>
        </div>
      </Field>
      <div className="row end"><button className="btn primary" type="button" onClick={onDone}>I have stored it</button></div>
    </div>
  );
}

function ServerPanel() {
  const status = useQuery({ queryKey: ['server-status'], queryFn: () => clinic.serverStatus(), refetchInterval: 10_000 });
  const d = status.data;
  const up = (s: number) => (s < 3600 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`);
  return (
    <Panel title="Clinic server" intro="The service this app runs: local integrations and a second front-desk browser reach it at this address.">
      <div className="card-body stack">
        {status.isPending && <Loading />}
        <ErrorNote error={status.error} onRetry={() => void status.refetch()} />
        {d && (
          <dl className="kv">
            <dt>Status</dt><dd><span className="chip CK"><span className="dot" />Running</span></dd>
            <dt>Address</dt><dd><code data-testid="server-address">{d.base_url}</code></dd>
            <dt>API version</dt><dd>{d.version} · <a href={`${d.base_url}/docs`} target="_blank" rel="noreferrer">API reference</a></dd>
            <dt>Running for</dt><dd>{up(d.uptime_s)} (since {when(d.started_at)})</dd>
            {/* Only the installation owner's admins are shown where the data lives (docs/API.md, "Installation owner"). */}
            {d.data_dir !== undefined && <><dt>Data folder</dt><dd><code>{d.data_dir}</code></dd></>}
            {d.database_bytes !== undefined && <><dt>Database</dt><dd>{bytes(d.database_bytes)}</dd></>}
            <dt>Scribe</dt><dd className="stack tight"><span><ScribeSummary scribe={d.scribe} /></span><ScribeReadinessList scribe={d.scribe} /></dd>
          </dl>
        )}
      </div>
    </Panel>
  );
}

/**
 * Settings → Server in the desktop app only (a browser's transport answers available: false, and there is nothing
 * to show): points this app at a chain's clinic server instead of the clinic on this computer. The app checks the
 * address and that a Clinic Desk server answers there, then restarts on that server's own screens and sign-in.
 */
function ClinicServerPanel() {
  const choice = useQuery({ queryKey: ['clinic-server-choice'], queryFn: () => clinic.clinicServerChoice() });
  if (!choice.data?.available) return null;
  return (
    <Panel title="Use a clinic server" intro="For a clinic chain: this app then works on the chain's clinic server (its patients, appointments and dictations) instead of the clinic kept on this computer, whose service stops.">
      <div className="card-body stack">
        <ClinicServerForm connect={(to) => clinic.useClinicServer(to)} />
        <p className="small muted">The choice is kept in <code>{choice.data.value.choiceFile}</code>. To come back to this computer's own clinic: the app's menu, Clinic server → Use this computer's own clinic.</p>
      </div>
    </Panel>
  );
}

/** An admin sets a new password for someone who forgot theirs; the service signs that user out everywhere. */
function ResetPassword({ user, onClose }: { user: User; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const reset = useMutation({ mutationFn: () => clinic.resetUserPassword(user.id, password) });
  const short = password.length < 8;
  const title = `Reset password for ${user.display_name}`;
  if (reset.isSuccess) {
    return (
      <Dialog title={title} onClose={onClose} footer={<button className="btn primary" type="button" onClick={onClose}>Done</button>}>
        <Note kind="ok" title="Password reset">{user.display_name} is signed out everywhere and signs in as <strong>{user.username}</strong> with the new password. Tell them in person, and ask them to change it (Change password, at the top) once signed in.</Note>
      </Dialog>
    );
  }
  return (
    <Dialog title={title} onClose={onClose}
      footer={<><button className="btn" type="button" onClick={onClose}>Cancel</button><button className="btn primary" type="submit" form="reset-form" disabled={reset.isPending}>Reset password</button></>}>
      <form id="reset-form" className="stack" onSubmit={(e) => { e.preventDefault(); setTried(true); if (!short) reset.mutate(); }}>
        <p className="small muted">For a forgotten password. {user.display_name} will be signed out on every computer and must use the new password.</p>
        <Field label="New password" hint="At least 8 characters." error={tried && short ? 'The new password needs at least 8 characters.' : null}>
          <input name="new_password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <ErrorNote error={reset.error} />
      </form>
    </Dialog>
  );
}

const ROLE_LABEL: Record<Role, string> = { reception: 'Front desk', doctor: 'Doctor', admin: 'Admin', display: 'Display (waiting-room screen)' };

function UsersPanel({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const users = useQuery({ queryKey: ['users'], queryFn: () => clinic.users() });
  const [adding, setAdding] = useState(false);
  const [f, setF] = useState({ display_name: '', username: '', password: '', role: 'reception' as Role });
  const create = useMutation({
    mutationFn: () => clinic.createUser({ ...f, display_name: f.display_name.trim() || undefined }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['users'] }); setAdding(false); setF({ display_name: '', username: '', password: '', role: 'reception' }); },
  });
  const toggle = useMutation({ mutationFn: ({ id, off }: { id: string; off: boolean }) => clinic.setUserDisabled(id, off), onSuccess: () => void qc.invalidateQueries({ queryKey: ['users'] }) });
  const [resetting, setResetting] = useState<User | null>(null);
  const [disabling, setDisabling] = useState<User | null>(null);
  return (
    <Panel title="Users" intro="Everyone who signs in: doctors, front desk, admins and waiting-room displays." action={<button className="btn primary" type="button" onClick={() => setAdding(true)}><Icon name="plus" />Add user</button>}>
      <div className="card-body flush">
        {users.isPending && <Loading />}
        <ErrorNote error={users.error ?? toggle.error} />
        {users.data && (
          <table aria-label="Users">
            <thead><tr><th>Name</th><th>Username</th><th>Role</th><th>Status</th><th /></tr></thead>
            <tbody>{users.data.map((u) => (
              <tr key={u.id}>
                <td><strong>{u.display_name}</strong></td><td className="mono">{u.username}</td>
                <td>{ROLE_LABEL[u.role]}</td>
                <td>{u.disabled_at ? <span className="chip CN">Disabled</span> : <span className="chip CK">Active</span>}</td>
                <td><div className="actions">{u.id !== session.user.id && <>
                  <button className="btn sm" type="button" onClick={() => setResetting(u)}>Reset password</button>
                  <button className={`btn sm ${u.disabled_at ? '' : 'danger'}`} type="button" onClick={() => (u.disabled_at ? toggle.mutate({ id: u.id, off: false }) : setDisabling(u))}>{u.disabled_at ? 'Enable' : 'Disable'}</button>
                </>}</div></td>
              </tr>
            ))}</tbody>
          </table>
        )}
      </div>
      {resetting && <ResetPassword user={resetting} onClose={() => setResetting(null)} />}
      {disabling && (
        <Confirm title={`Disable ${disabling.display_name}?`} action="Disable" onCancel={() => setDisabling(null)}
          onConfirm={() => { toggle.mutate({ id: disabling.id, off: true }); setDisabling(null); }}>
          {disabling.display_name} is signed out everywhere at once and cannot sign in until an admin enables the account again.
        </Confirm>
      )}
      {adding && (
        <Dialog title="Add a user" onClose={() => setAdding(false)} footer={<><button className="btn" type="button" onClick={() => setAdding(false)}>Cancel</button><button className="btn primary" type="submit" form="user-form" disabled={create.isPending}>Add user</button></>}>
          <form id="user-form" className="stack" onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
            <Field label="Name"><input name="display_name" value={f.display_name} onChange={(e) => setF({ ...f, display_name: e.target.value })} /></Field>
            <div className="cols-2">
              <Field label="Username"><input name="username" value={f.username} onChange={(e) => setF({ ...f, username: e.target.value })} /></Field>
              <Field label="Role"><select name="role" value={f.role} onChange={(e) => setF({ ...f, role: e.target.value as Role })}>
                {Object.entries(ROLE_LABEL).map(([role, label]) => <option key={role} value={role}>{label}</option>)}
              </select></Field>
            </div>
            {f.role === 'display' && <p className="small muted">For the waiting-room TV: it signs in at <span className="mono">/display</span> on this server's address and shows each doctor's tokens and first names, nothing else.</p>}
            <Field label="Password" hint="At least 8 characters; tell them to keep it private."><input name="password" type="password" value={f.password} onChange={(e) => setF({ ...f, password: e.target.value })} /></Field>
            <ErrorNote error={create.error} />
          </form>
        </Dialog>
      )}
    </Panel>
  );
}

function ClientsPanel() {
  const qc = useQueryClient();
  const clients = useQuery({ queryKey: ['api-clients'], queryFn: () => clinic.apiClients() });
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['patients:read', 'appointments:read']);
  const create = useMutation({ mutationFn: () => clinic.createApiClient({ name: name.trim(), scopes }), onSuccess: () => void qc.invalidateQueries({ queryKey: ['api-clients'] }) });
  const revoke = useMutation({ mutationFn: (id: string) => clinic.revokeApiClient(id), onSuccess: () => void qc.invalidateQueries({ queryKey: ['api-clients'] }) });
  const close = () => { setAdding(false); setName(''); create.reset(); };
  const active = clients.data?.filter((c) => !c.revoked_at) ?? [];
  const [revoking, setRevoking] = useState<ApiClient | null>(null);
  return (
    <Panel title="API clients" intro="Integrations (EMR, lab, pharmacy) that get access tokens with a client id and secret." action={<button className="btn primary" type="button" onClick={() => setAdding(true)}><Icon name="plus" />New API client</button>}>
      <div className="card-body flush">
        {clients.isPending && <Loading />}
        <ErrorNote error={clients.error ?? revoke.error} />
        {clients.data && clients.data.length === 0 && <Empty title="No API clients">Create one for each integration, with only the permissions it needs.</Empty>}
        {clients.data && clients.data.length > 0 && (
          <table aria-label="API clients">
            <thead><tr><th>Name</th><th>Client id</th><th>Permissions</th><th>Created</th><th /></tr></thead>
            <tbody>{clients.data.map((c) => (
              <tr key={c.client_id} style={c.revoked_at ? { opacity: 0.55 } : undefined}>
                <td><strong>{c.name}</strong>{c.revoked_at && <div className="small" style={{ color: 'var(--danger)' }}>Revoked {when(c.revoked_at)}</div>}</td>
                <td className="mono small">{c.client_id}</td>
                <td><div className="row wrap" style={{ gap: 4 }}>{c.scopes.map((s) => <span key={s} className="chip">{s}</span>)}</div></td>
                <td className="nowrap">{when(c.created_at)}</td>
                <td><div className="actions">{!c.revoked_at && <button className="btn sm danger" type="button" onClick={() => setRevoking(c)}>Revoke</button>}</div></td>
              </tr>
            ))}</tbody>
          </table>
        )}
        {clients.data && active.length > 0 && <div className="card-body small muted">{active.length} active</div>}
      </div>
      {adding && (
        <Dialog title="New API client" onClose={create.data ? undefined : close}
          footer={create.data ? undefined : <><button className="btn" type="button" onClick={close}>Cancel</button><button className="btn primary" type="submit" form="client-form" disabled={create.isPending || !name.trim() || scopes.length === 0}>Create</button></>}>
          {create.data ? (
            <div className="stack">
              <dl className="kv"><dt>Client id</dt><dd className="mono">{create.data.client_id}</dd></dl>
              <Secret label="Client secret" value={create.data.client_secret} onDone={close} />
            </div>
          ) : (
            <form id="client-form" className="stack" onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
              <Field label="Name" hint="Which integration this is, e.g. City Lab"><input name="client_name" value={name} onChange={(e) => setName(e.target.value)} /></Field>
              <div className="field"><span>Permissions</span>
                <div className="cols-2">{SCOPES.map(([s, label]) => (
                  <label key={s} className="check"><input type="checkbox" checked={scopes.includes(s)} onChange={() => setScopes((x) => (x.includes(s) ? x.filter((y) => y !== s) : [...x, s]))} />{label}</label>
                ))}</div>
              </div>
              <ErrorNote error={create.error} />
            </form>
          )}
        </Dialog>
      )}
      {revoking && (
        <Confirm title={`Revoke ${revoking.name}?`} action="Revoke client" onCancel={() => setRevoking(null)}
          onConfirm={() => { revoke.mutate(revoking.client_id); setRevoking(null); }}>
          Its access tokens stop working at once and it cannot get new ones. A revoked client cannot be restored: the integration needs a new one.
        </Confirm>
      )}
    </Panel>
  );
}

function KeysPanel() {
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => clinic.apiKeys() });
  const [label, setLabel] = useState('');
  const create = useMutation({ mutationFn: () => clinic.createApiKey({ label: label.trim() }), onSuccess: () => { void qc.invalidateQueries({ queryKey: ['api-keys'] }); setLabel(''); } });
  const revoke = useMutation({ mutationFn: (id: string) => clinic.revokeApiKey(id), onSuccess: () => void qc.invalidateQueries({ queryKey: ['api-keys'] }) });
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  return (
    <Panel title="API keys" intro="An API key (X-API-KEY) tells the token endpoint which clinic an API client's request is for.">
      <div className="card-body stack">
        {create.data ? <Secret label={`API key “${create.data.label}”`} value={create.data.api_key} onDone={() => create.reset()} /> : (
          <form className="row" onSubmit={(e: FormEvent) => { e.preventDefault(); if (label.trim()) create.mutate(); }}>
            <input aria-label="Key label" placeholder="Label, e.g. EMR integration" value={label} onChange={(e) => setLabel(e.target.value)} />
            <button className="btn primary" type="submit" disabled={!label.trim() || create.isPending}>Create key</button>
          </form>
        )}
        <ErrorNote error={create.error ?? keys.error ?? revoke.error} />
      </div>
      <div className="card-body flush">
        {keys.data && keys.data.length === 0 && <Empty title="No API keys">Create one for each integration that signs in with client credentials.</Empty>}
        {keys.data && keys.data.length > 0 && (
          <table aria-label="API keys"><thead><tr><th>Label</th><th>Created</th><th>Status</th><th /></tr></thead>
            <tbody>{keys.data.map((k) => (
              <tr key={k.id}><td><strong>{k.label}</strong></td><td>{when(k.created_at)}</td>
                <td>{k.revoked_at ? <span className="chip CN">Revoked</span> : <span className="chip CK">Active</span>}</td>
                <td><div className="actions">{!k.revoked_at && <button className="btn sm danger" type="button" onClick={() => setRevoking(k)}>Revoke</button>}</div></td></tr>
            ))}</tbody>
          </table>
        )}
      </div>
      {revoking && (
        <Confirm title={`Revoke the key “${revoking.label}”?`} action="Revoke key" onCancel={() => setRevoking(null)}
          onConfirm={() => { revoke.mutate(revoking.id); setRevoking(null); }}>
          Token requests with this key are refused from now on. A revoked key cannot be restored: the integration needs a new one.
        </Confirm>
      )}
    </Panel>
  );
}

/** Disabled, failing (Clinic Desk still sends, nothing arrives) or active; `failing` only the list knows. */
function WebhookStatus({ state }: { state: WebhookState & { failing?: string | null } }) {
  if (state.status === 'disabled') return <span className="chip CN">Disabled</span>;
  return state.failing ? <span className="chip NS" title={state.failing}>Failing</span> : <span className="chip CK">Active</span>;
}

function Deliveries({ sub, onClose }: { sub: WebhookSubscription; onClose: () => void }) {
  const qc = useQueryClient();
  const d = useQuery({ queryKey: ['deliveries', sub.id], queryFn: () => clinic.webhookDeliveries(sub.id), refetchInterval: 5000 });
  const again = useMutation({ mutationFn: (id: string) => clinic.redeliverWebhook(sub.id, id), onSuccess: () => void qc.invalidateQueries({ queryKey: ['deliveries', sub.id] }) });
  const state = d.data?.subscription;
  // The log polls, the list does not as often: a subscription disabled since the list was read shows there too.
  useEffect(() => {
    if (state && state.status !== sub.status) void qc.invalidateQueries({ queryKey: ['webhooks'] });
  }, [state, sub.status, qc]);
  const disabled = state?.status === 'disabled';
  const tone: Record<string, string> = { delivered: 'CK', pending: 'BK', failed: 'NS', disabled: 'CN', cancelled: 'CN' };
  return (
    <Dialog title="Delivery log" onClose={onClose}>
      <div className="stack">
        <div className="row between"><p className="small muted mono">{sub.endpoint}</p>{state && <WebhookStatus state={state} />}</div>
        {disabled && (
          <Note kind="warn" title="Disabled: Clinic Desk sends nothing more to this endpoint">
            {state.disabled_reason && <>Reason: {state.disabled_reason}. </>}
            Its deliveries cannot be sent again, and events raised while it is disabled are not kept. Once the receiver works again, delete this webhook and add it again (same endpoint, events and signing key): it receives the events raised after that.
          </Note>
        )}
        <ErrorNote error={d.error ?? again.error} />
        {d.isPending && <Loading />}
        {d.data && d.data.deliveries.length === 0 && <Empty title="Nothing delivered yet">Events appear here as they are sent.</Empty>}
        {d.data?.deliveries.map((x) => (
          <div key={x.id} className="card" style={{ boxShadow: 'none' }}>
            <div className="card-body stack tight" style={{ padding: 12 }}>
              <div className="row between"><strong>{x.event_name}</strong><span className={`chip ${tone[x.status] ?? ''}`}>{x.status}</span></div>
              <div className="small muted">{when(x.created_at)} · {x.attempts} attempt{x.attempts === 1 ? '' : 's'}{x.last_status ? ` · last answer ${x.last_status}` : ''}{x.last_error ? ` · ${x.last_error}` : ''}{x.next_attempt_at ? ` · next try ${when(x.next_attempt_at)}` : ''}</div>
              {!disabled && (x.status === 'delivered' || x.status === 'failed' || x.status === 'disabled') && <div className="row end"><button className="btn sm" type="button" onClick={() => again.mutate(x.id)} disabled={again.isPending}>Redeliver</button></div>}
            </div>
          </div>
        ))}
      </div>
    </Dialog>
  );
}

function WebhooksPanel() {
  const qc = useQueryClient();
  const subs = useQuery({ queryKey: ['webhooks'], queryFn: () => clinic.webhooks(), refetchInterval: 30_000 });
  const [endpoint, setEndpoint] = useState('');
  const [key, setKey] = useState('');
  const [events, setEvents] = useState<string[]>(['appointment.statuschange']);
  const [log, setLog] = useState<WebhookSubscription | null>(null);
  const [deleting, setDeleting] = useState<WebhookSubscription | null>(null);
  const create = useMutation({
    mutationFn: () => clinic.createWebhook({ endpoint: endpoint.trim(), event_names: events, ...(key ? { signing_key: key } : {}) }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['webhooks'] }); setEndpoint(''); setKey(''); },
  });
  const remove = useMutation({ mutationFn: (id: string) => clinic.deleteWebhook(id), onSuccess: () => void qc.invalidateQueries({ queryKey: ['webhooks'] }) });
  return (
    <Panel title="Webhooks" intro="Clinic Desk calls these addresses when appointments change or a dictation is transcribed, signed with your key.">
      <div className="card-body">
        <form className="stack" onSubmit={(e) => { e.preventDefault(); create.mutate(); }} aria-label="New webhook">
          <div className="cols-2">
            <Field label="Endpoint" hint="https, or http on this computer"><input name="endpoint" placeholder="https://emr.example.com/hooks/clinic" value={endpoint} onChange={(e) => setEndpoint(e.target.value)} /></Field>
            <Field label="Signing key (recommended)" hint="Your receiver checks signatures with it"><input name="signing_key" type="password" value={key} onChange={(e) => setKey(e.target.value)} /></Field>
          </div>
          <div className="row wrap between">
            <div className="row wrap" role="group" aria-label="Events">{EVENTS.map((ev) => (
              <label key={ev} className="check"><input type="checkbox" checked={events.includes(ev)} onChange={() => setEvents((x) => (x.includes(ev) ? x.filter((y) => y !== ev) : [...x, ev]))} /><code>{ev}</code></label>
            ))}</div>
            <button className="btn primary" type="submit" disabled={!endpoint.trim() || events.length === 0 || create.isPending}>Add webhook</button>
          </div>
          <ErrorNote error={create.error ?? remove.error ?? subs.error} />
        </form>
      </div>
      <div className="card-body flush" style={{ borderTop: '1px solid var(--border)' }}>
        {subs.isPending && <Loading />}
        {subs.data && subs.data.length === 0 && <Empty title="No webhooks">Add an endpoint above to be told about changes as they happen.</Empty>}
        {subs.data && subs.data.length > 0 && (
          <table aria-label="Webhooks"><thead><tr><th>Endpoint</th><th>Events</th><th>Status</th><th>Added</th><th /></tr></thead>
            <tbody>{subs.data.map((s) => (
              <tr key={s.id}><td className="mono small">{s.endpoint}</td>
                <td><div className="row wrap" style={{ gap: 4 }}>{s.event_names.map((e) => <span key={e} className="chip">{e}</span>)}</div></td>
                <td><WebhookStatus state={s} />{s.status === 'disabled' && s.disabled_reason && <div className="small muted">{s.disabled_reason}</div>}
                  {s.status !== 'disabled' && s.failing && <div className="small muted" data-testid="webhook-failing">{s.failing}</div>}</td>
                <td className="nowrap">{when(s.created_at)}</td>
                <td><div className="actions"><button className="btn sm" type="button" onClick={() => setLog(s)}>Delivery log</button><button className="btn sm danger" type="button" onClick={() => setDeleting(s)}>Delete</button></div></td></tr>
            ))}</tbody>
          </table>
        )}
      </div>
      {log && <Deliveries sub={log} onClose={() => setLog(null)} />}
      {deleting && (
        <Confirm title="Delete this webhook?" action="Delete webhook" onCancel={() => setDeleting(null)}
          onConfirm={() => { remove.mutate(deleting.id); setDeleting(null); }}>
          Clinic Desk stops calling <code>{deleting.endpoint}</code> at once, and its delivery log goes with it.
        </Confirm>
      )}
    </Panel>
  );
}

function PushPanel() {
  const qc = useQueryClient();
  const creds = useQuery({ queryKey: ['push'], queryFn: () => clinic.pushCredentials() });
  const [fileError, setFileError] = useState<string | null>(null);
  const save = useMutation({ mutationFn: (sa: SaKey) => clinic.setPushCredentials(sa), onSuccess: (c) => qc.setQueryData(['push'], c) });
  const remove = useMutation({ mutationFn: () => clinic.deletePushCredentials(), onSuccess: () => qc.setQueryData(['push'], null) });
  const onFile = async (file: File | undefined) => {
    setFileError(null);
    if (!file) return;
    try {
      const json = JSON.parse(await file.text()) as SaKey;
      save.mutate(json);
    } catch {
      setFileError('That file is not JSON. Choose the service-account key file you downloaded from the Firebase console (…-firebase-adminsdk-….json).');
    }
  };
  return (
    <Panel title="Push notifications" intro="Firebase Cloud Messaging credentials, so Clinic Desk can notify your staff's phones.">
      <div className="card-body stack">
        {creds.isPending && <Loading />}
        <ErrorNote error={creds.error ?? save.error ?? remove.error} />
        {fileError && <Note kind="error" title="Not a key file">{fileError}</Note>}
        {creds.data === null && <Empty title="No credentials yet">Upload the service-account JSON from your Firebase project (Project settings → Service accounts → Generate new private key).</Empty>}
        {creds.data && (
          <dl className="kv">
            <dt>Project</dt><dd><strong>{creds.data.project_id}</strong></dd>
            <dt>Service account</dt><dd className="mono small">{creds.data.client_email}</dd>
            <dt>Key id</dt><dd className="mono small">{creds.data.private_key_id ?? '—'}</dd>
            <dt>Updated</dt><dd>{when(creds.data.updated_at)}</dd>
          </dl>
        )}
        <div className="row">
          <label className="btn primary"><input type="file" accept="application/json,.json" className="sr-only" onChange={(e) => void onFile(e.target.files?.[0])} />{creds.data ? 'Replace key file' : 'Upload key file'}</label>
          {creds.data && <button className="btn danger" type="button" onClick={() => remove.mutate()}>Remove</button>}
        </div>
        <p className="small faint">The private key is stored encrypted and never shown again.</p>
      </div>
    </Panel>
  );
}

function OptionalPanel<T>({ title, intro, query, render }: { title: string; intro: string; query: () => Promise<{ available: true; value: T[] } | { available: false; reason: string }>; render: (items: T[]) => ReactNode }) {
  const q = useQuery({ queryKey: ['optional', title], queryFn: query });
  return (
    <Panel title={title} intro={intro}>
      <div className="card-body stack">
        {q.isPending && <Loading />}
        <ErrorNote error={q.error} />
        {q.data && !q.data.available && <Note kind="info" title="Not available on this clinic server yet">{q.data.reason}</Note>}
        {q.data?.available && (q.data.value.length === 0 ? <Empty title={`No ${title.toLowerCase()} yet`} /> : render(q.data.value))}
      </div>
    </Panel>
  );
}

function ModelStatus({ m }: { m: SpeechModel }) {
  const d = m.download;
  if (m.installed) return <>Installed</>;
  if (d.state === 'downloading') {
    return (
      <div className="stack tight" style={{ minWidth: 160 }}>
        <Progress value={d.percent} label={`Downloading ${m.name}`} />
        <span className="small muted">{d.percent ?? 0}%{d.bytes_done !== null && d.bytes_total ? ` · ${bytes(d.bytes_done)} of ${bytes(d.bytes_total)}` : ''}</span>
      </div>
    );
  }
  if (d.state === 'failed') return <span className="small" role="alert"><strong>Download failed.</strong> {d.message}</span>;
  return <>Not downloaded</>;
}

/** Settings → Speech models: download a model (progress polled every second while one runs), choose the default. */
function SpeechModelsPanel() {
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['speech-models'],
    queryFn: () => clinic.speechModels(),
    refetchInterval: (q) => (q.state.data?.available && q.state.data.value.some((m) => m.download.state === 'downloading') ? 1000 : false),
  });
  const download = useMutation({ mutationFn: (id: string) => clinic.speechModelDownload(id), onSettled: () => void qc.invalidateQueries({ queryKey: ['speech-models'] }) });
  const makeDefault = useMutation({ mutationFn: (id: string) => clinic.speechModelSetDefault(id), onSuccess: (value) => qc.setQueryData(['speech-models'], { available: true, value }) });
  const data = list.data;
  return (
    <Panel title="Speech models" intro="The on-device speech recognition the scribe uses. The default is tried first for every dictation in a language it knows; the others cover the rest.">
      <div className="card-body stack">
        {list.isPending && <Loading />}
        <ErrorNote error={list.error ?? download.error ?? makeDefault.error} />
        {data && !data.available && <Note kind="info" title="Not available on this clinic server yet">{data.reason}</Note>}
      </div>
      {data?.available && (
        <div className="card-body flush">
          <table aria-label="Speech models"><thead><tr><th>Model</th><th>Languages</th><th>Size</th><th>Status</th><th /></tr></thead>
            <tbody>{data.value.map((m) => (
              <tr key={m.id} data-model={m.id}>
                <td><strong>{m.name}</strong>{m.is_default && <span className="chip CK" style={{ marginLeft: 8 }}>Default</span>}<div className="small muted">{m.description}</div></td>
                <td>{m.languages.length > 2 ? `${m.languages.length} languages` : m.languages.join(', ')}</td>
                <td className="num nowrap">{m.size_bytes ? bytes(m.size_bytes) : '—'}</td>
                <td><ModelStatus m={m} /></td>
                <td><div className="actions">
                  {!m.installed && m.download.state !== 'downloading' && (
                    <button className="btn sm" type="button" onClick={() => download.mutate(m.id)} disabled={download.isPending}>{m.download.state === 'failed' ? 'Try again' : 'Download'}</button>
                  )}
                  {m.installed && !m.is_default && <button className="btn sm primary" type="button" onClick={() => makeDefault.mutate(m.id)} disabled={makeDefault.isPending}>Make default</button>}
                </div></td>
              </tr>
            ))}</tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

function BackupsPanel() {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['backups'], queryFn: () => clinic.backups() });
  const make = useMutation({ mutationFn: () => clinic.backup(), onSuccess: () => void qc.invalidateQueries({ queryKey: ['backups'] }) });
  return (
    <Panel title="Backups" intro="A consistent copy of the clinic's database, made while Clinic Desk keeps running." action={<button className="btn primary" type="button" onClick={() => make.mutate()} disabled={make.isPending}>{make.isPending ? <><span className="spinner" />Backing up…</> : 'Back up now'}</button>}>
      <div className="card-body stack">
        {make.data && <Note kind="ok" title="Backup made">{make.data.name} ({bytes(make.data.size_bytes)}). Copy it to a USB drive or another computer; a backup on the same disk does not survive the disk.</Note>}
        <Note kind="info">The encryption key is not in the backup, on purpose. Keep it (the master key file or your keychain entry) separately and safely: without it, stored secrets in a restored copy cannot be read.</Note>
        <ErrorNote error={list.error ?? make.error} />
      </div>
      <div className="card-body flush">
        {list.data && list.data.length === 0 && <Empty title="No backups yet">Press “Back up now”. Back up at least daily.</Empty>}
        {list.data && list.data.length > 0 && (
          <table aria-label="Backups"><thead><tr><th>File</th><th>Made</th><th>Size</th></tr></thead>
            <tbody>{list.data.map((b) => <tr key={b.name}><td><div className="mono small">{b.name}</div><div className="small faint mono">{b.path}</div></td><td className="nowrap">{when(b.created_at)}</td><td className="num">{bytes(b.size_bytes)}</td></tr>)}</tbody>
          </table>
        )}
      </div>
    </Panel>
  );
}

/**
 * Settings → Sandbox: the synthetic clinic integrators test against, at its own address with credentials of its own
 * (docs/API.md, Sandbox). The desktop app runs it, off until an admin turns it on here; on and off take effect at
 * once and the choice holds across restarts. A browser's transport says where it is managed instead.
 */
function SandboxPanel() {
  const qc = useQueryClient();
  const status = useQuery({
    queryKey: ['sandbox'],
    queryFn: () => clinic.sandboxStatus(),
    // On but not answering yet and no failure: it is starting (the first start seeds it, a few seconds).
    refetchInterval: (q) => (q.state.data?.available && q.state.data.value.enabled && !q.state.data.value.url && !q.state.data.value.problem ? 1000 : false),
  });
  const show = (value: Awaited<ReturnType<typeof clinic.resetSandbox>>) => qc.setQueryData(['sandbox'], { available: true, value });
  const toggle = useMutation({ mutationFn: (on: boolean) => clinic.setSandboxEnabled(on), onSuccess: show });
  const [confirming, setConfirming] = useState(false);
  const reset = useMutation({ mutationFn: () => clinic.resetSandbox(), onSuccess: (v) => { show(v); setConfirming(false); } });
  const data = status.data;
  const s = data?.available ? data.value : null;
  const busy = toggle.isPending || reset.isPending;
  return (
    <Panel title="Sandbox" intro="A second address with the same API over an invented clinic (patients, doctors, today's and tomorrow's appointments), where integrators build and test without touching a real patient. Its credentials work only there, and the clinic's only here."
      action={s && (
        <button className={`btn ${s.enabled ? '' : 'primary'}`} type="button" onClick={() => toggle.mutate(!s.enabled)} disabled={busy}>
          {toggle.isPending ? <><span className="spinner" />{s.enabled ? 'Turning off…' : 'Starting…'}</> : s.enabled ? 'Turn off' : 'Turn on'}
        </button>
      )}>
      <div className="card-body stack">
        {status.isPending && <Loading />}
        <ErrorNote error={status.error ?? toggle.error ?? reset.error} onRetry={status.error ? () => void status.refetch() : undefined} />
        {data && !data.available && <Note kind="info" title="Managed in the desktop app">{data.reason}</Note>}
        {s && !s.enabled && !toggle.isPending && <Note kind="info" title="Off">Turn it on to give an integrator a sandbox address and credentials. It stays on, across restarts, until you turn it off.</Note>}
        {s?.problem && <Note kind="error" title="The sandbox is not running">{s.problem}</Note>}
        {s?.enabled && !s.url && !s.problem && <Loading label="Starting the sandbox…" />}
        {s?.url && (
          <dl className="kv" aria-label="Sandbox">
            <dt>Status</dt><dd><span className="chip CK"><span className="dot" />Running</span></dd>
            <dt>Address</dt><dd><code data-testid="sandbox-address">{s.url}</code> · <a href={`${s.url}/docs`} target="_blank" rel="noreferrer">API reference</a></dd>
            {s.credentials && <>
              <dt>API key</dt><dd><code data-testid="sandbox-api-key">{s.credentials.api_key}</code></dd>
              <dt>Client id</dt><dd><code>{s.credentials.client_id}</code></dd>
              <dt>Client secret</dt><dd><code>{s.credentials.client_secret}</code></dd>
              <dt>Seeded</dt><dd>{when(s.credentials.seeded_at)}</dd>
            </>}
            <dt>Every credential</dt><dd><code>{s.credentialsFile}</code><div className="small muted">Users of every role with passwords and auth tokens, the patients and the appointments.</div></dd>
          </dl>
        )}
        {s?.url && !confirming && <div className="row"><button className="btn" type="button" onClick={() => setConfirming(true)} disabled={busy}>Reset sandbox</button></div>}
        {s?.url && confirming && (
          <Note kind="warn" title="Reset the sandbox?">
            Every sandbox record goes and the invented clinic is seeded again; every sandbox key, secret and token stops working, and integrators need the new ones. The clinic's own data is not touched.
            <div className="row" style={{ marginTop: 8 }}>
              <button className="btn danger" type="button" onClick={() => reset.mutate()} disabled={busy}>{reset.isPending ? <><span className="spinner" />Resetting…</> : 'Reset'}</button>
              <button className="btn" type="button" onClick={() => setConfirming(false)} disabled={busy}>Cancel</button>
            </div>
          </Note>
        )}
      </div>
    </Panel>
  );
}

/**
 * Patients registered before the mobile rule whose number search cannot find (or is not a mobile): each with what
 * is wrong and an Edit that opens the patient form, so the number can be corrected with the patient. Nothing is
 * changed until someone saves a correction.
 */
function MobileReviewPanel() {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['mobile-review'], queryFn: () => clinic.mobileReview() });
  const [editing, setEditing] = useState<Patient | null>(null);
  const total = list.data?.total ?? 0;
  return (
    <Panel title="Mobiles to correct" intro="Patients whose mobile number search cannot find, or that is not a mobile. Ask the patient for their number at the next visit, or call them, and correct it here.">
      {list.isPending && <Loading />}
      {list.isError && <div className="card-body"><ErrorNote error={list.error} onRetry={() => void list.refetch()} /></div>}
      {list.data && total === 0 && <Empty title="Every patient's mobile is fine" icon="user">Search by mobile finds every registered patient.</Empty>}
      {list.data && total > 0 && (
        <div className="card-body flush">
          <p className="small muted" style={{ padding: '12px 16px 8px', margin: 0 }}>{total} patient{total === 1 ? '' : 's'} to correct{total > list.data.patients.length ? `; the oldest ${list.data.patients.length} are shown` : ''}.</p>
          <table aria-label="Mobiles to correct">
            <thead><tr><th>Patient</th><th>Mobile</th><th>What is wrong</th><th /></tr></thead>
            <tbody>{list.data.patients.map((p) => (
              <tr key={p.id} data-testid="mobile-review-row">
                <td><strong>{p.name}</strong><div className="small muted">Born {p.dob}</div></td>
                <td className="num nowrap">{p.mobile}</td>
                <td className="small">{p.problem}</td>
                <td><div className="actions"><button className="btn sm" type="button" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p)}>Edit</button></div></td>
              </tr>
            ))}</tbody>
          </table>
        </div>
      )}
      {editing && <PatientForm patient={editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); void qc.invalidateQueries({ queryKey: ['mobile-review'] }); }} />}
    </Panel>
  );
}

export default function Settings({ session }: { session: SessionInfo }) {
  const admin = session.user.role === 'admin';
  const tabs = admin ? TABS : DOCTOR_TABS;
  const [tab, setTab] = useState<Tab>(() => tabs.find(([id]) => id === window.location.hash.split('/')[2])?.[0] ?? tabs[0]![0]);
  const go = (t: Tab) => { setTab(t); window.location.hash = `/settings/${t}`; };
  const qc = useQueryClient();
  const disconnect = useMutation({ mutationFn: (id: string) => clinic.disconnectAssistant(id), onSuccess: () => void qc.invalidateQueries({ queryKey: ['optional'] }) });
  return (
    <div className="page">
      <div className="page-head"><div><h1>Settings</h1><p className="muted">{session.workspace.name} · {admin ? 'for admins' : session.user.display_name}</p></div></div>
      <div className="settings">
        <nav className="side-tabs card" style={{ padding: 8 }} role="tablist" aria-label="Settings">
          {tabs.map(([id, label]) => <button key={id} type="button" role="tab" aria-selected={tab === id} onClick={() => go(id)}>{label}</button>)}
        </nav>
        <div>
          {tab === 'server' && <div className="stack loose"><ServerPanel /><ClinicServerPanel /></div>}
          {tab === 'users' && <UsersPanel session={session} />}
          {tab === 'patients' && <MobileReviewPanel />}
          {tab === 'clients' && <ClientsPanel />}
          {tab === 'keys' && <KeysPanel />}
          {tab === 'webhooks' && <WebhooksPanel />}
          {tab === 'push' && <PushPanel />}
          {tab === 'reminders' && <RemindersPanel />}
          {tab === 'models' && <SpeechModelsPanel />}
          {tab === 'assistants' && (
            <OptionalPanel title="AI assistants" intro="Assistants a user connected with “Sign in with Clinic Desk”. Disconnect one to revoke its access at once." query={() => clinic.connectedAssistants()}
              render={(as) => <table aria-label="AI assistants"><thead><tr><th>Assistant</th><th>Access</th><th>Connected</th><th /></tr></thead><tbody>{as.map((a) => <tr key={a.id}><td><strong>{a.name}</strong></td><td><div className="row wrap" style={{ gap: 4 }}>{a.scopes.map((s) => <span key={s} className="chip">{s}</span>)}</div></td><td>{when(a.connected_at)}</td><td><div className="actions"><button className="btn sm danger" type="button" onClick={() => disconnect.mutate(a.id)}>Disconnect</button></div></td></tr>)}</tbody></table>} />
          )}
          {tab === 'backups' && <BackupsPanel />}
          {tab === 'sandbox' && <SandboxPanel />}
          {tab === 'profile' && (
            <Panel title="My prescription details" intro="Printed under your name on every prescription you sign.">
              <div className="card-body"><DoctorProfileForm userId={session.user.id} /></div>
            </Panel>
          )}
          {tab === 'prescription' && (
            <Panel title="Prescription" intro="What every prescription prints: the clinic's address at the top, and under each doctor's name their qualification and registration number.">
              <div className="card-body"><PrescriptionSettings /></div>
            </Panel>
          )}
        </div>
      </div>
    </div>
  );
}
