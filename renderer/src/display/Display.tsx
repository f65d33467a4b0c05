import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { QueueBoard, SessionInfo } from '../../../preload/contract';
import { asFailure, clinic } from '../clinic';
import { type BoardLink, watchQueueBoard } from '../transport/http';
import { ErrorNote, Field, Loading, time } from '../ui';

/**
 * The waiting-room display at /display: a TV's browser signed in with a display account shows, per doctor, the
 * token with the doctor now and the next tokens, by first name only, updated live from the service's event stream.
 */
export default function Display() {
  const session = useQuery({ queryKey: ['session'], queryFn: () => clinic.session(), staleTime: Infinity });
  if (session.isPending) return <div className="auth-page"><Loading label="Starting the display…" /></div>;
  if (!session.data) return <DisplaySignIn />;
  return <Board session={session.data} />;
}

function DisplaySignIn() {
  const qc = useQueryClient();
  const [f, setF] = useState({ username: '', password: '' });
  const signIn = useMutation({ mutationFn: () => clinic.signIn(f), onSuccess: (s) => qc.setQueryData(['session'], s) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (f.username && f.password) signIn.mutate();
  };
  return (
    <div className="auth-page">
      <form className="auth-card card card-body stack" onSubmit={submit} aria-label="Sign in the waiting-room display">
        <h1>Waiting-room display</h1>
        <p className="muted">Sign in with the clinic's display account (an admin creates one with the Display role).</p>
        <Field label="Username"><input name="username" autoComplete="username" value={f.username} onChange={(e) => setF({ ...f, username: e.target.value })} /></Field>
        <Field label="Password"><input name="password" type="password" autoComplete="current-password" value={f.password} onChange={(e) => setF({ ...f, password: e.target.value })} /></Field>
        <ErrorNote error={signIn.error} />
        <button className="btn primary" type="submit" disabled={signIn.isPending}>Sign in</button>
      </form>
    </div>
  );
}

const LINK_TEXT: Record<BoardLink, string> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', 'signed-out': 'Signed out' };

function Board({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const [board, setBoard] = useState<QueueBoard | null>(null);
  const [link, setLink] = useState<BoardLink>('connecting');
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    clinic.queueBoard().then(setBoard, setError);
    return watchQueueBoard((b) => { setBoard(b); setError(null); }, setLink);
  }, []);
  useEffect(() => {
    if (link === 'signed-out') qc.setQueryData(['session'], null);
  }, [link, qc]);
  const clock = useClock(session.workspace.timezone);
  return (
    <div className="display">
      <header className="display-head">
        <div><strong>{session.workspace.name}</strong></div>
        <div className="row">
          <span className={`display-link ${link}`} role="status">{LINK_TEXT[link]}</span>
          <span className="num display-clock">{clock}</span>
          <button className="btn ghost sm" type="button" onClick={() => void document.documentElement.requestFullscreen?.()}>Full screen</button>
        </div>
      </header>
      {error && asFailure(error).status !== 0 ? <ErrorNote error={error} /> : null}
      {!board ? <Loading label="Loading the board…" /> : (
        <main className="display-grid">
          {board.doctors.length === 0 && <p className="display-empty">No doctors are seeing patients today.</p>}
          {board.doctors.map((d) => (
            <section key={d.doctor_id ?? 'none'} className="display-doctor" aria-label={d.doctor_name} data-testid="display-doctor">
              <h2>{d.doctor_name}</h2>
              <div className="display-now">
                <span className="display-label">Now with doctor</span>
                {d.now.length === 0 ? <span className="display-free">—</span> : d.now.map((e) => (
                  <div key={`${e.token}-${e.first_name}`} className="display-token-now" data-testid="display-now">
                    <span className="token num">{e.token ?? '—'}</span><span className="name">{e.first_name}</span>
                  </div>
                ))}
              </div>
              <div>
                <span className="display-label">Next</span>
                <ol className="display-next">
                  {d.next.length === 0 && <li className="display-free">No one waiting</li>}
                  {d.next.map((e) => (
                    <li key={`${e.token}-${e.first_name}`} data-testid="display-next"><span className="token num">{e.token ?? '—'}</span><span className="name">{e.first_name}</span></li>
                  ))}
                </ol>
              </div>
            </section>
          ))}
        </main>
      )}
    </div>
  );
}

/** The time at the clinic (its time zone, not the screen's: a display's own clock may be set to anything). */
function useClock(timeZone: string) {
  const read = () => time(new Date().toISOString(), timeZone);
  const [now, setNow] = useState(read);
  useEffect(() => {
    const t = setInterval(() => setNow(read()), 10_000);
    return () => clearInterval(t);
  }, [timeZone]);
  return now;
}
