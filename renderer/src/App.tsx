import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Role, SessionInfo } from '../../preload/contract';
import { clinic } from './clinic';
import { FirstRun } from './screens/FirstRun';
import { FrontDesk } from './screens/FrontDesk';
import { SignIn } from './screens/SignIn';
import { ErrorNote, Icon, Loading, initials } from './ui';

// Less-used screens load on first visit, keeping the front desk's first paint small.
const Dictation = lazy(() => import('./screens/Dictation'));
const Settings = lazy(() => import('./screens/Settings'));

type Screen = 'front-desk' | 'dictation' | 'settings';

const SCREENS: { id: Screen; label: string; icon: 'calendar' | 'mic' | 'settings'; roles: Role[] }[] = [
  { id: 'front-desk', label: 'Front desk', icon: 'calendar', roles: ['reception', 'doctor', 'admin'] },
  { id: 'dictation', label: 'Dictation', icon: 'mic', roles: ['doctor', 'admin'] },
  { id: 'settings', label: 'Settings', icon: 'settings', roles: ['admin'] },
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

function Shell({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const [screen, go] = useHashScreen(session.user.role);
  const signOut = async () => {
    await clinic.signOut();
    qc.clear();
    qc.setQueryData(['session'], null);
  };
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
          <button className="btn ghost sm" type="button" onClick={signOut}>Sign out</button>
        </div>
      </header>
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
  if (!session.data) return <SignIn />;
  return <Shell session={session.data} />;
}
