import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { Role, SessionInfo } from '../../preload/contract';
import { asFailure, clinic } from './clinic';
import { FirstRun } from './screens/FirstRun';
import { FrontDesk } from './screens/FrontDesk';
import { SignIn } from './screens/SignIn';
import { Dialog, ErrorNote, Field, Icon, Loading, Note, initials } from './ui';
import { EndSession, type Ended, forget, sessionEnded, useEndSession } from './session-end';

// Less-used screens load on first visit, keeping the front desk's first paint small.
const Dictation = lazy(() => import('./screens/Dictation'));
const Settings = lazy(() => import('./screens/Settings'));

type Screen = 'front-desk' | 'dictation' | 'settings';

const SCREENS: { id: Screen; label: string; icon: 'calendar' | 'mic' | 'settings'; roles: Role[] }[] = [
  { id: 'front-desk', label: 'Front desk', icon: 'calendar', roles: ['reception', 'doctor', 'admin'] },
  { id: 'dictation', label: 'Dictation', icon: 'mic', roles: ['doctor', 'admin'] },
  // A doctor's Settings holds their own prescription details only (screens/Settings.tsx).
  { id: 'settings', label: 'Settings', icon: 'settings', roles: ['admin', 'doctor'] },
];

function useHashScreen(role: Role): [Screen, (s: Screen) => void] {
  const allowed = SCREENS.filter((s) => s.roles.includes(role)).map((s) => s.id);
  const read = (): Screen => {
    const h = window.location.hash.replace(/^#\/?/, '').split('/')[0] as Screen;
    return allowed.includes(h) ? h : role === 'doctor' ? 'dictation' : 'front-desk';
  };
  const [screen, setScreen] = useState<Screen>(read);
  useEffect(() => {
    const on = () => setScreen(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  });
  return [screen, (s) => { window.location.hash = `/${s}`; setScreen(s); }];
}

/** Any signed-in user's own password. The service keeps this window signed in and ends the user's other sessions. */
function ChangePassword({ onClose }: { onClose: () => void }) {
  const [f, setF] = useState({ current: '', next: '', again: '' });
  const [tried, setTried] = useState(false);
  const change = useMutation({ mutationFn: () => clinic.changePassword(f.current, f.next) });
  // Checked here too, so the common slips get a plain sentence instead of the service's schema message.
  const problem = f.next.length < 8 ? 'The new password needs at least 8 characters.'
    : f.again !== f.next ? 'The two new passwords are not the same. Type it again.' : null;
  const wrongCurrent = change.error && asFailure(change.error).code === 'INVALID_CREDENTIALS';
  if (change.isSuccess) {
    return (
      <Dialog title="Change password" onClose={onClose} footer={<button className="btn primary" type="button" onClick={onClose}>Done</button>}>
        <Note kind="ok" title="Password changed">Use the new password next time you sign in. Anywhere else you were signed in as yourself (another computer or window) has been signed out.</Note>
      </Dialog>
    );
  }
  return (
    <Dialog title="Change password" onClose={onClose}
      footer={<><button className="btn" type="button" onClick={onClose}>Cancel</button><button className="btn primary" type="submit" form="password-form" disabled={change.isPending}>Change password</button></>}>
      <form id="password-form" className="stack" onSubmit={(e) => { e.preventDefault(); setTried(true); if (!problem && f.current) change.mutate(); }}>
        <Field label="Current password" error={wrongCurrent ? 'This is not your current password (passwords are case-sensitive).' : tried && !f.current ? 'Type your current password.' : null}>
          <input name="current_password" type="password" autoComplete="current-password" value={f.current} onChange={(e) => { setF({ ...f, current: e.target.value }); change.reset(); }} />
        </Field>
        <Field label="New password" hint="At least 8 characters.">
          <input name="new_password" type="password" autoComplete="new-password" value={f.next} onChange={(e) => setF({ ...f, next: e.target.value })} />
        </Field>
        <Field label="New password again" error={tried ? problem : null}>
          <input name="new_password_again" type="password" autoComplete="new-password" value={f.again} onChange={(e) => setF({ ...f, again: e.target.value })} />
        </Field>
        {!wrongCurrent && <ErrorNote error={change.error} />}
      </form>
    </Dialog>
  );
}

/** Signing out shows the sign-in form at once, with nothing of the desk left; the service is told after. */
function useSignOut() {
  const end = useEndSession();
  return async () => {
    end({ why: 'signed-out' });
    await clinic.signOut();
  };
}

/**
 * A display account reads the waiting-room board and nothing else, so the front desk would only meet 403s. In a
 * browser the board is at /display (replace keeps this tab's session); the desktop app has no board screen, so it
 * says where the board is.
 */
function DisplayAccount() {
  const signOut = useSignOut();
  const inBrowser = !window.clinic;
  useEffect(() => {
    if (inBrowser) window.location.replace('/display');
  }, [inBrowser]);
  const info = useQuery({ queryKey: ['service-info'], queryFn: () => clinic.serviceInfo(), enabled: !inBrowser });
  if (inBrowser) return <div className="auth-page"><Loading label="Opening the waiting-room display…" /></div>;
  return (
    <div className="auth-page"><div className="auth-card card"><div className="card-body stack">
      <h1>Waiting-room display account</h1>
      <p>This account only shows the waiting-room board. Open <strong>{info.data ? `${info.data.baseUrl}/display` : '/display on the clinic server'}</strong> in the TV's browser and sign in there.</p>
      <button className="btn primary" type="button" onClick={signOut}>Sign out</button>
    </div></div></div>
  );
}

function Shell({ session }: { session: SessionInfo }) {
  const signOut = useSignOut();
  const [screen, go] = useHashScreen(session.user.role);
  const [changing, setChanging] = useState(false);
  return (
    <div className="shell">
      <header className="topbar">
        <div className="brand">
          <div className="brand-mark" aria-hidden="true">+</div>
          <div>Clinic Desk<small>{session.workspace.name}</small></div>
        </div>
        <nav className="nav" aria-label="Main">
          {SCREENS.filter((s) => s.roles.includes(session.user.role)).map((s) => (
            <button key={s.id} type="button" aria-current={screen === s.id ? 'page' : undefined} onClick={() => go(s.id)}>
              <Icon name={s.icon} />{s.label}
            </button>
          ))}
        </nav>
        <div className="user">
          <div className="avatar" aria-hidden="true">{initials(session.user.display_name)}</div>
          <div className="small"><strong>{session.user.display_name}</strong><div className="faint" style={{ textTransform: 'capitalize' }}>{session.user.role === 'reception' ? 'Front desk' : session.user.role}</div></div>
          <button className="btn ghost sm" type="button" onClick={() => setChanging(true)}>Change password</button>
          <button className="btn ghost sm" type="button" onClick={signOut}>Sign out</button>
        </div>
      </header>
      {changing && <ChangePassword onClose={() => setChanging(false)} />}
      <main className="main">
        <Suspense fallback={<Loading />}>
          {screen === 'front-desk' && <FrontDesk session={session} />}
          {screen === 'dictation' && <Dictation session={session} />}
          {screen === 'settings' && <Settings session={session} />}
        </Suspense>
      </main>
    </div>
  );
}

export function App() {
  const qc = useQueryClient();
  const [ended, setEnded] = useState<Ended | null>(null);
  // Bumped when a session ends: every screen is mounted anew, so none keeps what it showed in its own state.
  const [epoch, setEpoch] = useState(0);
  const end = useCallback((e: Ended) => {
    const setup = qc.getQueryData(['setup']);
    forget(qc);
    // Whether this installation is set up is no one's data, and asking again would delay the sign-in form.
    if (setup) qc.setQueryData(['setup'], setup);
    setEnded(e);
    setEpoch((n) => n + 1);
  }, [qc]);
  // A request refused because the session is gone (expired, or ended from another window) ends it here too.
  useEffect(() => {
    const onError = (error: unknown) => {
      const session = qc.getQueryData<SessionInfo | null>(['session']);
      if (session && sessionEnded(error)) end({ why: 'expired', username: session.user.username });
    };
    const queries = qc.getQueryCache().subscribe((e) => e.type === 'updated' && e.action.type === 'error' && onError(e.action.error));
    const mutations = qc.getMutationCache().subscribe((e) => e.type === 'updated' && e.action.type === 'error' && onError(e.action.error));
    return () => {
      queries();
      mutations();
    };
  }, [qc, end]);
  return <EndSession.Provider value={end}><Desk key={epoch} ended={ended} /></EndSession.Provider>;
}

function Desk({ ended }: { ended: Ended | null }) {
  const setup = useQuery({ queryKey: ['setup'], queryFn: () => clinic.setupStatus(), staleTime: Infinity });
  const session = useQuery({ queryKey: ['session'], queryFn: () => clinic.session(), staleTime: Infinity, enabled: setup.data?.needed === false });
  if (setup.isPending || (setup.data?.needed === false && session.isPending)) {
    return <div className="auth-page"><Loading label="Starting Clinic Desk…" /></div>;
  }
  if (setup.isError || session.isError) {
    return (
      <div className="auth-page"><div className="auth-card card"><div className="card-body stack">
        <ErrorNote error={setup.error ?? session.error} onRetry={() => { void setup.refetch(); void session.refetch(); }} />
      </div></div></div>
    );
  }
  if (setup.data?.needed) return <FirstRun />;
  if (!session.data) return <SignIn ended={ended} />;
  if (session.data.user.role === 'display') return <DisplayAccount />;
  return <Shell session={session.data} />;
}
