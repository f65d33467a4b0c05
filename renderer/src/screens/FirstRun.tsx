import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { SessionInfo } from '../../../preload/contract';
import { clinic } from '../clinic';
import { ErrorNote, Field } from '../ui';
import { ClinicServerForm } from './ClinicServerForm';
import { FirstRunSpeech } from './ScribeReadiness';

const ZONES = ['Asia/Kolkata', 'Asia/Dubai', 'Asia/Singapore', 'Asia/Dhaka', 'Asia/Kathmandu', 'Asia/Colombo', 'Europe/London', 'America/New_York', 'UTC'];
const COUNTRIES: [string, string][] = [['IN', 'India'], ['AE', 'United Arab Emirates'], ['SG', 'Singapore'], ['BD', 'Bangladesh'], ['NP', 'Nepal'], ['LK', 'Sri Lanka'], ['GB', 'United Kingdom'], ['US', 'United States']];

/**
 * A new branch computer of a clinic chain joins the chain's server instead of creating a clinic of its own: offered
 * in the desktop app while this computer has no clinic (afterwards only an admin's Settings → Server switches).
 */
function JoinClinicServer() {
  const choice = useQuery({ queryKey: ['join-clinic-server-choice'], queryFn: () => clinic.joinClinicServerChoice() });
  const [open, setOpen] = useState(false);
  if (!choice.data?.available) return null;
  return (
    <section className="stack" aria-label="Join a clinic server">
      <div className="divider" />
      {open ? (
        <>
          <h2>Join a clinic server</h2>
          <p className="muted">For a branch of a clinic chain: this computer then works on the chain's clinic server (its patients, appointments and dictations), with the accounts the server's administrator gives, and needs no clinic of its own.</p>
          <ClinicServerForm connect={(address) => clinic.joinClinicServer(address)} />
          <p className="small muted">The choice is kept in <code>{choice.data.value.choiceFile}</code>. To set up a clinic on this computer after all: the app's menu, Clinic server → Use this computer's own clinic.</p>
        </>
      ) : (
        <div className="row between">
          <span className="muted">Part of a clinic chain with its own server?</span>
          <button className="btn" type="button" onClick={() => setOpen(true)}>Join a clinic server</button>
        </div>
      )}
    </section>
  );
}

/**
 * First run: the database has no clinic yet. Creates the clinic and its admin, then signs the admin in (or joins a
 * chain's server). Where the scribe cannot transcribe on this computer, a last step says so and offers the speech
 * model download before the app opens.
 */
export function FirstRun() {
  const qc = useQueryClient();
  const [step, setStep] = useState<1 | 2>(1);
  const [clinicName, setClinicName] = useState('');
  const [country, setCountry] = useState('IN');
  const [timezone, setTimezone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone === 'Asia/Calcutta' ? 'Asia/Kolkata' : ZONES.includes(Intl.DateTimeFormat().resolvedOptions().timeZone) ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'Asia/Kolkata');
  const [displayName, setDisplayName] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const usernameOk = /^[A-Za-z0-9._@+-]+$/.test(username);
  const problems = {
    username: username && !usernameOk ? 'Use letters, digits and . _ @ + - only (no spaces)' : null,
    password: password && password.length < 8 ? 'At least 8 characters' : null,
    again: again && again !== password ? 'The two passwords differ' : null,
  };
  const ready2 = usernameOk && password.length >= 8 && again === password;
  // The admin is signed in once the clinic exists; the app opens when the speech step is done with.
  const [created, setCreated] = useState<SessionInfo | null>(null);
  const setup = useMutation({
    mutationFn: () => clinic.setup({ clinic_name: clinicName.trim(), country, timezone, admin: { username, password, display_name: displayName.trim() || undefined } }),
    onSuccess: setCreated,
  });
  const open = () => {
    qc.setQueryData(['setup'], { needed: false });
    qc.setQueryData(['session'], created);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (step === 1 && clinicName.trim()) setStep(2);
    else if (step === 2 && ready2) setup.mutate();
  };
  return (
    <div className="auth-page">
      <div className="auth-card wide card">
        <div className="card-body stack loose">
          {created ? <FirstRunSpeech done={open} /> : <form className="stack loose" onSubmit={submit} aria-label="Set up your clinic">
            <div className="auth-brand">
              <div className="brand-mark" aria-hidden="true">+</div>
              <div><h1>Welcome to Clinic Desk</h1><p className="muted">Two steps to set up this clinic. You can change these later.</p></div>
            </div>
            <div className="steps" aria-label={`Step ${step} of 2`}><div className="done" /><div className={step === 2 ? 'done' : ''} /></div>
            {step === 1 ? (
              <div className="stack">
                <h2>Your clinic</h2>
                <Field label="Clinic name" hint="As patients know it; shown on screens and printouts.">
                  <input name="clinic_name" autoFocus value={clinicName} onChange={(e) => setClinicName(e.target.value)} placeholder="e.g. Sunrise Family Clinic" />
                </Field>
                <div className="cols-2">
                  <Field label="Country" hint="How 10-digit mobile numbers are read.">
                    <select name="country" value={country} onChange={(e) => setCountry(e.target.value)}>
                      {COUNTRIES.map(([c, n]) => <option key={c} value={c}>{n}</option>)}
                    </select>
                  </Field>
                  <Field label="Time zone" hint="What “today” means for the queue.">
                    <select name="timezone" value={timezone} onChange={(e) => setTimezone(e.target.value)}>
                      {ZONES.map((z) => <option key={z}>{z}</option>)}
                    </select>
                  </Field>
                </div>
              </div>
            ) : (
              <div className="stack">
                <h2>The admin account</h2>
                <p className="muted">The admin adds doctors and front-desk staff, and manages integrations and backups.</p>
                <Field label="Your name">
                  <input name="display_name" autoFocus value={displayName} onChange={(e) => setDisplayName(e.target.value)} placeholder="e.g. Dr Asha Rao" />
                </Field>
                <Field label="Username" error={problems.username}>
                  <input name="username" autoComplete="username" value={username} aria-invalid={!!problems.username} onChange={(e) => setUsername(e.target.value)} />
                </Field>
                <div className="cols-2">
                  <Field label="Password" error={problems.password} hint="At least 8 characters">
                    <input name="password" type="password" autoComplete="new-password" value={password} aria-invalid={!!problems.password} onChange={(e) => setPassword(e.target.value)} />
                  </Field>
                  <Field label="Password again" error={problems.again}>
                    <input name="password_again" type="password" autoComplete="new-password" value={again} aria-invalid={!!problems.again} onChange={(e) => setAgain(e.target.value)} />
                  </Field>
                </div>
              </div>
            )}
            <ErrorNote error={setup.error} />
            <div className="row between">
              {step === 2 ? <button className="btn" type="button" onClick={() => setStep(1)}>Back</button> : <span />}
              <button className="btn primary lg" type="submit" disabled={step === 1 ? !clinicName.trim() : !ready2 || setup.isPending}>
                {step === 1 ? 'Continue' : setup.isPending ? 'Creating…' : 'Create clinic'}
              </button>
            </div>
          </form>}
          {step === 1 && !created && <JoinClinicServer />}
        </div>
      </div>
    </div>
  );
}
