import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { clinic } from '../clinic';
import { ErrorNote, Field, Loading, fieldProblem } from '../ui';
import { notesApi } from './api';

/** A doctor's qualification and registration number, as a prescription prints them under their name. */
export function DoctorProfileForm({ userId, intro, title }: { userId: string; intro?: string; title?: string }) {
  const qc = useQueryClient();
  const profile = useQuery({ queryKey: ['user-profile', userId], queryFn: () => notesApi.userProfile(userId), retry: false });
  const [qualification, setQualification] = useState('');
  const [registration, setRegistration] = useState('');
  useEffect(() => {
    if (!profile.data) return;
    setQualification(profile.data.qualification ?? '');
    setRegistration(profile.data.registration_number ?? '');
  }, [profile.data]);
  const save = useMutation({
    // A field left blank is cleared (null): the prescription then prints nothing there.
    mutationFn: () => notesApi.setUserProfile(userId, { qualification: qualification.trim() || null, registration_number: registration.trim() || null }),
    onSuccess: (p) => qc.setQueryData(['user-profile', userId], p),
  });
  if (profile.isLoading) return <Loading />;
  if (profile.error) return <ErrorNote error={profile.error} onRetry={() => void profile.refetch()} />;
  const problem = fieldProblem(save.error, { qualification: 'Qualification', registration_number: 'Registration number' });
  const submit = (e: FormEvent) => { e.preventDefault(); save.mutate(); };
  const changed = qualification !== (profile.data?.qualification ?? '') || registration !== (profile.data?.registration_number ?? '');
  return (
    <form className="stack tight" onSubmit={submit} aria-label={title ?? 'Prescription details'} data-testid="doctor-profile">
      {title && <strong>{title}</strong>}
      {intro && <p className="small muted">{intro}</p>}
      <div className="row wrap" style={{ alignItems: 'flex-start' }}>
        <Field label="Qualification" hint="e.g. MBBS, MD (General Medicine)" error={problem?.field === 'qualification' ? problem.sentence : null}>
          <input className="input" value={qualification} maxLength={200} onChange={(e) => setQualification(e.target.value)} />
        </Field>
        <Field label="Registration number" hint="Medical council registration, e.g. KMC 12345" error={problem?.field === 'registration_number' ? problem.sentence : null}>
          <input className="input" value={registration} maxLength={64} onChange={(e) => setRegistration(e.target.value)} />
        </Field>
      </div>
      {save.error && !problem ? <ErrorNote error={save.error} /> : null}
      <div className="row">
        <button className="btn primary sm" type="submit" disabled={save.isPending || !changed}>{save.isPending ? 'Saving…' : 'Save'}</button>
        {save.isSuccess && !changed && <span className="small muted" role="status">Saved</span>}
      </div>
    </form>
  );
}

/** The clinic's address (admins), printed at the top of every prescription under its name. */
export function ClinicAddressForm() {
  const qc = useQueryClient();
  const info = useQuery({ queryKey: ['clinic-profile'], queryFn: () => notesApi.clinicProfile() });
  const [address, setAddress] = useState('');
  useEffect(() => { if (info.data) setAddress(info.data.address ?? ''); }, [info.data]);
  const save = useMutation({
    mutationFn: () => notesApi.setClinicProfile({ address: address.trim() || null }),
    onSuccess: (c) => qc.setQueryData(['clinic-profile'], c),
  });
  if (info.isLoading) return <Loading />;
  if (info.error) return <ErrorNote error={info.error} onRetry={() => void info.refetch()} />;
  const changed = address !== (info.data?.address ?? '');
  return (
    <form className="stack tight" onSubmit={(e) => { e.preventDefault(); save.mutate(); }} aria-label="The clinic's address">
      <Field label="Clinic address" hint={`Printed under “${info.data?.name ?? ''}” on prescriptions; line breaks are kept.`}>
        <textarea className="input" rows={3} value={address} maxLength={500} onChange={(e) => setAddress(e.target.value)} />
      </Field>
      <ErrorNote error={save.error} />
      <div className="row">
        <button className="btn primary sm" type="submit" disabled={save.isPending || !changed}>{save.isPending ? 'Saving…' : 'Save address'}</button>
        {save.isSuccess && !changed && <span className="small muted" role="status">Saved</span>}
      </div>
    </form>
  );
}

/** Settings → Prescription (admins): the clinic's address and each doctor's details. */
export function PrescriptionSettings() {
  const users = useQuery({ queryKey: ['users'], queryFn: () => clinic.users() });
  const doctors = (users.data ?? []).filter((u) => u.role === 'doctor' && !u.disabled_at);
  return (
    <div className="stack">
      <ClinicAddressForm />
      {users.error ? <ErrorNote error={users.error} onRetry={() => void users.refetch()} /> : null}
      {doctors.map((d) => <DoctorProfileForm key={d.id} userId={d.id} title={d.display_name} />)}
    </div>
  );
}
