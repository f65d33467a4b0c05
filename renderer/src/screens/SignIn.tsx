import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { clinic } from '../clinic';
import { ErrorNote, Field } from '../ui';

export function SignIn() {
  const qc = useQueryClient();
  const [username, setUsername] = useState('');
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
          <div className="stack">
            <Field label="Username">
              <input name="username" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
            </Field>
            <Field label="Password">
              <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
          </div>
          <ErrorNote error={signIn.error} />
          <button className="btn primary lg" type="submit" disabled={signIn.isPending || !username.trim() || !password}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </button>
          <p className="small faint">Forgot your password? Your clinic's admin can set a new account for you in Settings → Users.</p>
        </div>
      </form>
    </div>
  );
}
