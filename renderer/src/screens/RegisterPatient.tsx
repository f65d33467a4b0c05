import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { Patient } from '../../../preload/contract';
import { clinic } from '../clinic';
import { Dialog, ErrorNote, Field, GENDER } from '../ui';

/** Registering a patient, and editing one (the same form, filled in). */
export function PatientForm({ patient, mobile, onClose, onSaved }: { patient?: Patient; mobile?: string; onClose: () => void; onSaved: (p: Patient) => void }) {
  const qc = useQueryClient();
  const [f, setF] = useState({
    first_name: patient?.first_name ?? '', middle_name: patient?.middle_name ?? '', last_name: patient?.last_name ?? '',
    dob: patient?.dob ?? '', gender: patient?.gender ?? ('' as Patient['gender'] | ''), mobile: patient ? patient.mobile.replace(/^\+91/, '') : (mobile ?? ''),
    email: patient?.email ?? '',
  });
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const save = useMutation({
    mutationFn: () => {
      const body = { first_name: f.first_name.trim(), middle_name: f.middle_name.trim(), last_name: f.last_name.trim(), dob: f.dob, gender: f.gender as Patient['gender'], mobile: f.mobile.trim(), email: f.email.trim() };
      return patient ? clinic.updatePatient(patient.id, body) : clinic.createPatient(body);
    },
    onSuccess: (p) => {
      void qc.invalidateQueries({ queryKey: ['search'] });
      void qc.invalidateQueries({ queryKey: ['day'] });
      onSaved(p);
    },
  });
  const ready = f.first_name.trim() && f.last_name.trim() && f.dob && f.gender && f.mobile.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) save.mutate();
  };
  return (
    <Dialog title={patient ? `Edit ${patient.name}` : 'Register a patient'} onClose={onClose}
      footer={<><button className="btn" type="button" onClick={onClose}>Cancel</button><button className="btn primary" type="submit" form="patient-form" disabled={!ready || save.isPending}>{save.isPending ? 'Saving…' : patient ? 'Save changes' : 'Register patient'}</button></>}>
      <form id="patient-form" className="stack" onSubmit={submit}>
        <div className="cols-3">
          <Field label="First name"><input name="first_name" value={f.first_name} onChange={set('first_name')} /></Field>
          <Field label="Middle name"><input name="middle_name" value={f.middle_name} onChange={set('middle_name')} /></Field>
          <Field label="Last name"><input name="last_name" value={f.last_name} onChange={set('last_name')} /></Field>
        </div>
        <div className="cols-2">
          <Field label="Date of birth"><input name="dob" type="date" value={f.dob} max={new Date().toISOString().slice(0, 10)} onChange={set('dob')} /></Field>
          <div className="field">
            <span>Gender</span>
            <div className="seg" role="group" aria-label="Gender">
              {(['F', 'M', 'O'] as const).map((g) => <button key={g} type="button" aria-pressed={f.gender === g} onClick={() => setF({ ...f, gender: g })}>{GENDER[g]}</button>)}
            </div>
          </div>
        </div>
        <div className="cols-2">
          <Field label="Mobile" hint="10 digits; family members may share one"><input name="mobile" type="tel" inputMode="tel" value={f.mobile} onChange={set('mobile')} /></Field>
          <Field label="Email (optional)"><input name="email" type="email" value={f.email} onChange={set('email')} /></Field>
        </div>
        <ErrorNote error={save.error} />
      </form>
    </Dialog>
  );
}
