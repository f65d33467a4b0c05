import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { CreatePatientBody, Patient, SessionInfo } from '../../../preload/contract';
import { checkBirth } from '../../../server/patients/birth';
import { checkMobile } from '../../../server/patients/mobile';
import { clinic } from '../clinic';
import { Dialog, ErrorNote, Field, GENDER, ReasonedButton, fieldProblem } from '../ui';

type Key = 'first_name' | 'middle_name' | 'last_name' | 'dob' | 'age_years' | 'age_months' | 'gender' | 'mobile' | 'email' | 'allergies';
const LABELS: Record<Key, string> = {
  first_name: 'First name', middle_name: 'Middle name', last_name: 'Last name', dob: 'Date of birth', age_years: 'Age', age_months: 'Age',
  gender: 'Gender', mobile: 'Mobile', email: 'Email', allergies: 'Allergies',
};
const MAX_NAME = 100;
// The service's limits on the record's allergies (server/patients/schemas.ts).
const MAX_ALLERGIES = 20;
const MAX_ALLERGY = 100;

const allergyList = (text: string) => text.split(',').map((a) => a.trim()).filter(Boolean);
const allergyProblem = (list: string[]) =>
  list.length > MAX_ALLERGIES ? `List at most ${MAX_ALLERGIES} allergies.`
    : list.some((a) => a.length > MAX_ALLERGY) ? `Each allergy must be at most ${MAX_ALLERGY} characters; separate them with commas.` : null;

const nameProblem = (label: string, v: string, required: boolean) =>
  required && !v.trim() ? `Enter the ${label.toLowerCase()}.` : v.trim().length > MAX_NAME ? `${label} must be at most ${MAX_NAME} characters.` : null;

/**
 * Registering a patient, and editing one (the same form, filled in). The service's rules (mobile, date of birth or
 * age) run here before submit, from the same modules, so a person reads the same sentence the service would give,
 * next to the field; a refusal that still comes back is put next to the field it names.
 */
export function PatientForm({ patient, mobile, onClose, onSaved }: { patient?: Patient; mobile?: string; onClose: () => void; onSaved: (p: Patient) => void }) {
  const qc = useQueryClient();
  const session = qc.getQueryData<SessionInfo | null>(['session']);
  const country = session?.workspace.country ?? 'IN';
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: session?.workspace.timezone ?? 'Asia/Kolkata' }).format(new Date());
  const ownCc = country === 'IN' ? '+91' : null;
  const [f, setF] = useState({
    first_name: patient?.first_name ?? '', middle_name: patient?.middle_name ?? '', last_name: patient?.last_name ?? '',
    birth: 'dob' as 'dob' | 'age', dob: patient?.dob ?? '', age: '', ageUnit: 'years' as 'years' | 'months',
    gender: patient?.gender ?? ('' as Patient['gender'] | ''),
    mobile: patient ? (ownCc && patient.mobile.startsWith(ownCc) ? patient.mobile.slice(ownCc.length) : patient.mobile) : (mobile ?? ''),
    email: patient?.email ?? '',
    allergies: patient?.allergies.join(', ') ?? '',
  });
  // A field's problem shows once the person has left the field, or tried to submit.
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>({});
  const [tried, setTried] = useState(false);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => { save.reset(); setF({ ...f, [k]: e.target.value }); };
  const leave = (k: Key) => () => setTouched((t) => ({ ...t, [k]: true }));

  const birthChanged = !patient || f.birth === 'age' || f.dob !== patient.dob;
  const birthInput = f.birth === 'dob' ? { dob: f.dob || undefined }
    : f.ageUnit === 'years' ? { age_years: f.age === '' ? undefined : Number(f.age) } : { age_months: f.age === '' ? undefined : Number(f.age) };
  const birth = birthChanged ? checkBirth(birthInput, today) : null;
  const checkedMobile = checkMobile(f.mobile, country);
  const allergies = allergyList(f.allergies);
  const emailOk = !f.email.trim() || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(f.email.trim());
  const problems: Partial<Record<Key, string | null>> = {
    first_name: nameProblem(LABELS.first_name, f.first_name, true),
    middle_name: nameProblem(LABELS.middle_name, f.middle_name, false),
    last_name: nameProblem(LABELS.last_name, f.last_name, true),
    [f.birth === 'dob' ? 'dob' : f.ageUnit === 'years' ? 'age_years' : 'age_months']:
      birth && !birth.ok ? (f.birth === 'age' && f.age !== '' && !/^[0-9]+$/.test(f.age) ? 'Give the age as a whole number.' : birth.reason) : null,
    gender: f.gender ? null : 'Choose the gender.',
    mobile: checkedMobile.ok ? null : checkedMobile.reason,
    email: emailOk ? null : 'Email must be an email address, such as name@example.com, or left empty.',
    allergies: allergyProblem(allergies),
  };

  const save = useMutation({
    mutationFn: () => {
      const body: CreatePatientBody = {
        first_name: f.first_name.trim(), middle_name: f.middle_name.trim(), last_name: f.last_name.trim(), gender: f.gender as Patient['gender'],
        mobile: f.mobile.trim(), email: f.email.trim(), allergies, ...(birthChanged ? birthInput : {}),
      };
      return patient ? clinic.updatePatient(patient.id, body) : clinic.createPatient(body);
    },
    onSuccess: (p) => {
      void qc.invalidateQueries({ queryKey: ['search'] });
      void qc.invalidateQueries({ queryKey: ['day'] });
      void qc.invalidateQueries({ queryKey: ['mobile-review'] });
      void qc.invalidateQueries({ queryKey: ['patient'] });
      onSaved(p);
    },
  });
  const refused = fieldProblem(save.error, LABELS);
  const shown = (k: Key) => (refused?.field === k ? refused.sentence : (tried || touched[k]) ? problems[k] ?? null : null);

  const firstProblem = (Object.keys(problems) as Key[]).find((k) => problems[k]);
  const why = save.isPending ? 'Saving…' : firstProblem ? problems[firstProblem]! : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!firstProblem) save.mutate();
  };
  const ageKey: Key = f.ageUnit === 'years' ? 'age_years' : 'age_months';
  return (
    <Dialog title={patient ? `Edit ${patient.name}` : 'Register a patient'} onClose={onClose}
      footer={<><button className="btn" type="button" onClick={onClose}>Cancel</button>
        <ReasonedButton className="btn primary" type="submit" form="patient-form" why={why}>{save.isPending ? 'Saving…' : patient ? 'Save changes' : 'Register patient'}</ReasonedButton></>}>
      <form id="patient-form" className="stack" onSubmit={submit} noValidate>
        <div className="cols-3">
          <Field label="First name" error={shown('first_name')}><input name="first_name" value={f.first_name} onChange={set('first_name')} onBlur={leave('first_name')} aria-invalid={Boolean(shown('first_name'))} /></Field>
          <Field label="Middle name" error={shown('middle_name')}><input name="middle_name" value={f.middle_name} onChange={set('middle_name')} onBlur={leave('middle_name')} aria-invalid={Boolean(shown('middle_name'))} /></Field>
          <Field label="Last name" error={shown('last_name')}><input name="last_name" value={f.last_name} onChange={set('last_name')} onBlur={leave('last_name')} aria-invalid={Boolean(shown('last_name'))} /></Field>
        </div>
        <div className="cols-2">
          <div className="field">
            <span>Birth</span>
            <div className="seg" role="group" aria-label="Birth">
              <button type="button" aria-pressed={f.birth === 'dob'} onClick={() => setF({ ...f, birth: 'dob' })}>Date of birth</button>
              <button type="button" aria-pressed={f.birth === 'age'} onClick={() => setF({ ...f, birth: 'age' })}>Age only</button>
            </div>
          </div>
          <div className="field">
            <span>Gender</span>
            <div className="seg" role="group" aria-label="Gender">
              {(['F', 'M', 'O'] as const).map((g) => <button key={g} type="button" aria-pressed={f.gender === g} onClick={() => setF({ ...f, gender: g })}>{GENDER[g]}</button>)}
            </div>
            {shown('gender') && <span className="err" style={{ fontSize: 12, color: 'var(--danger)' }}>{shown('gender')}</span>}
          </div>
        </div>
        {f.birth === 'dob' ? (
          <Field label="Date of birth" error={shown('dob')} hint={patient?.dob_estimated && f.dob === patient.dob ? 'Estimated from an age; enter the date if the patient knows it.' : undefined}>
            <input name="dob" type="date" value={f.dob} min="1900-01-01" max={today} onChange={set('dob')} onBlur={leave('dob')} aria-invalid={Boolean(shown('dob'))} />
          </Field>
        ) : (
          <Field label="Age" error={shown(ageKey)} hint={f.ageUnit === 'years' ? 'Stored as 1 July of the birth year, marked estimated.' : 'For a baby under 2. Stored as the 15th of the birth month, marked estimated.'}>
            <div className="row">
              <input name="age" type="number" inputMode="numeric" min={f.ageUnit === 'years' ? 2 : 0} max={f.ageUnit === 'years' ? 130 : 23} value={f.age}
                onChange={set('age')} onBlur={leave(ageKey)} aria-invalid={Boolean(shown(ageKey))} style={{ width: 100 }} />
              <select name="age_unit" aria-label="Age unit" value={f.ageUnit} onChange={(e) => setF({ ...f, ageUnit: e.target.value as 'years' | 'months' })} style={{ width: 120 }}>
                <option value="years">years</option><option value="months">months</option>
              </select>
            </div>
          </Field>
        )}
        <div className="cols-2">
          <Field label="Mobile" error={shown('mobile')} hint={country === 'IN' ? '10 digits, starting 6-9; + and the country code for a foreign mobile. Family members may share one.' : 'Family members may share one; + and the country code for a foreign mobile.'}>
            <input name="mobile" type="tel" inputMode="tel" value={f.mobile} onChange={set('mobile')} onBlur={leave('mobile')} aria-invalid={Boolean(shown('mobile'))} />
          </Field>
          <Field label="Email (optional)" error={shown('email')}><input name="email" type="email" value={f.email} onChange={set('email')} onBlur={leave('email')} aria-invalid={Boolean(shown('email'))} /></Field>
        </div>
        <Field label="Allergies (optional)" error={shown('allergies')}
          hint="Separate with commas, e.g. penicillin, sulfa drugs. The scribe flags a dictated prescription that conflicts with them.">
          <input name="allergies" value={f.allergies} onChange={set('allergies')} onBlur={leave('allergies')} aria-invalid={Boolean(shown('allergies'))} />
        </Field>
        {allergies.length > 0 && (
          <div className="row wrap" role="list" aria-label="Allergies as they will be recorded" data-testid="allergy-chips">
            {allergies.map((a, i) => <span className="chip NS" role="listitem" key={`${i}-${a}`}>{a}</span>)}
          </div>
        )}
        {!refused && <ErrorNote error={save.error} />}
      </form>
    </Dialog>
  );
}
