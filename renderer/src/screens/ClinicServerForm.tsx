import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { asFailure } from '../clinic';
import { ErrorNote, Field, Note } from '../ui';

const LOOPBACK_HTTP = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\/?$/i;

/**
 * The clinic server's address and Connect, for the desktop app's two ways onto a chain's server (Settings → Server,
 * and the first-run screen): main checks the address and that a Clinic Desk server answers there, and its refusal is
 * the field's sentence; on success the app restarts on that server's own screens and sign-in.
 */
export function ClinicServerForm({ connect }: { connect: (address: string) => Promise<{ url: string }> }) {
  const [address, setAddress] = useState('');
  const use = useMutation({ mutationFn: connect });
  const failure = use.error ? asFailure(use.error) : null;
  // The address's own refusals and "no server answers there" belong next to the field; anything else is a plain error.
  const fieldError = failure && ['INVALID_ADDRESS', 'NO_CLINIC_SERVER', 'INVALID_REQUEST'].includes(failure.code) ? failure.message : null;
  const typed = address.trim();
  const plainHttp = /^http:\/\//i.test(typed) && !LOOPBACK_HTTP.test(typed);
  if (use.data) {
    return <Note kind="ok" title={`Restarting on ${use.data.url}`}>Clinic Desk stops this computer's clinic service and opens the clinic server's sign-in. Sign in there with the account the server's administrator gave you.</Note>;
  }
  return (
    <form className="stack" aria-label="Clinic server" onSubmit={(e) => { e.preventDefault(); if (typed) use.mutate(typed); }}>
      <Field label="Clinic server address" hint="As the server's administrator gives it, e.g. https://clinic.example.org or http://192.168.1.20:4810." error={fieldError}>
        <input name="clinic_server" inputMode="url" autoComplete="url" spellCheck={false} placeholder="https://clinic.example.org" value={address}
          onChange={(e) => { setAddress(e.target.value); use.reset(); }} />
      </Field>
      {plainHttp && <Note kind="warn" title="Not encrypted">With http:// the sign-in, patient details and recordings cross the network readable by anyone on it. Use it only on the clinic's own network; anywhere else, ask for the server's https:// address.</Note>}
      {failure && !fieldError && <ErrorNote error={use.error} />}
      <div className="row end">
        <button className="btn primary" type="submit" disabled={use.isPending || !typed}>{use.isPending ? <><span className="spinner" />Checking the server…</> : 'Connect'}</button>
      </div>
    </form>
  );
}
