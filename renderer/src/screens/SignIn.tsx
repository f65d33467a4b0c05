import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { clinic } from '../clinic';
import type { Ended } from '../session-end';
import { ErrorNote, Field, Note } from '../ui';

/**
 * The sign-in form. After an expired session it says so and offers to sign in again as the same person; the desk then
 * opens where it was (the screen is in the address, which signing in keeps).
 */
export function SignIn({ ended = null }: { ended?: Ended | null }) {
  const qc = useQueryClient();
  const expired = ended?.why === 'expired' ? ended : null;
  const [username, setUsername] = useState(expired?.username ?? '');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => clinic.signIn({ username: username.trim(), password }),
    onSuccess: (s) => qc.setQueryData(['session'], s),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (username.trim() && password) signIn.mutate();
  };
  return (
    <div className="auth-page">
      <form className="auth-card card" onSubmit={submit} aria-label="Sign in">
        <div className="card-body stack loose">
          <div className="auth-brand">
            <div className="brand-mark" aria-hidden="true">+</div>
            <div><h1>Clinic Desk</h1><p className="muted">Sign in to your clinic</p></div>
          </div>
          {expired && <Note kind="warn" title="Your session ended">For privacy, the desk was cleared. Sign in again to go back to where you were.</Note>}
          <div className="stack">
            <Field label="Username">
              <input name="username" autoComplete="username" autoFocus={!expired} value={username} onChange={(e) => setUsername(e.target.value)} />
            </Field>
            <Field label="Password">
              <input name="password" type="password" autoComplete="current-password" autoFocus={!!expired} value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
          </div>
          <ErrorNote error={signIn.error} />
          <button className="btn primary lg" type="submit" disabled={signIn.isPending || !username.trim() || !password}>
            {signIn.isPending ? 'Signing in…' : expired ? 'Sign in again' : 'Sign in'}
          </button>
          <p className="small faint">Forgot your password? Your clinic's admin can set a new account for you in Settings → Users.</p>
        </div>
      </form>
    </div>
  );
}
