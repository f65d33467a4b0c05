import { useMutation, useQuery } from '@tanstack/react-query';
import { Fragment, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import type { Patient } from '../../../preload/contract';
import { clinic } from '../clinic';
import { ErrorNote, GENDER, Icon, ageLabel, phone } from '../ui';
import { type NoteVersion, notesApi } from './api';
import { type Emr, type Medication, dateAfter, durationWords, frequencyPattern, frequencyWords } from './emr';
import { pdfFileName } from '../../../server/notes/app-shapes';
import { DoctorProfileForm } from './Profile';

export type PaperSize = 'a5' | 'a4';

const FORM: Record<string, string> = {
  tablet: 'Tab.', capsule: 'Cap.', syrup: 'Syp.', suspension: 'Susp.', injection: 'Inj.', drops: 'Drops', cream: 'Cream', ointment: 'Oint.',
  gel: 'Gel', inhaler: 'Inh.', lotion: 'Lotion', powder: 'Powder', sachet: 'Sachet', spray: 'Spray', solution: 'Soln.',
};
const amount = (a: { value: number; unit: string } | undefined) => (a ? `${a.value} ${a.unit}` : '');
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A date as Indian prescriptions print it: 12 Mar 2026, in the clinic's time zone. */
const day = (iso: string, timeZone: string) => new Date(iso).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone });
const ymd = (iso: string, timeZone: string) => new Date(iso).toLocaleDateString('en-CA', { timeZone });

function RxRow({ m, n }: { m: Medication; n: number }) {
  const pattern = frequencyPattern(m);
  const words = frequencyWords(m);
  const form = m.form ? FORM[m.form.toLowerCase()] ?? cap(m.form) : '';
  return (
    <tr>
      <td className="rx-n">{n}.</td>
      <td>
        <strong className="rx-generic">{[form, m.name.toUpperCase(), amount(m.strength)].filter(Boolean).join(' ')}</strong>
        {m.brand && <div className="rx-brand">({m.brand})</div>}
      </td>
      <td>{amount(m.dose)}</td>
      <td>{pattern && <strong className="mono">{pattern}</strong>}{words && <div className="rx-small">{words}</div>}{m.frequency?.as_needed && pattern !== 'SOS' ? <div className="rx-small">when needed</div> : null}</td>
      <td>{durationWords(m.duration)}</td>
      <td>{[m.timing, m.instructions].filter(Boolean).map((t) => cap(t!)).join('; ')}</td>
    </tr>
  );
}

export interface PrescriptionData {
  emr: Emr;
  version: Pick<NoteVersion, 'version' | 'created_at' | 'created_by' | 'created_by_name'>;
  patient: Patient | null;
  clinicName: string;
  clinicAddress: string | null;
  doctor: { name: string; qualification: string | null; registration_number: string | null };
  timeZone: string;
}

/** The prescription sheet in the layout Indian clinics print: letterhead, patient line, Rx table, signature. */
export function PrescriptionSheet({ data, size }: { data: PrescriptionData; size: PaperSize }) {
  const { emr, version, patient, doctor, timeZone } = data;
  const signedOn = ymd(version.created_at, timeZone);
  const vitals = [
    emr.vitals.bp && `BP ${emr.vitals.bp.systolic}/${emr.vitals.bp.diastolic} mmHg`,
    emr.vitals.pulse_bpm !== undefined && `Pulse ${emr.vitals.pulse_bpm}/min`,
    emr.vitals.temperature && `Temp ${emr.vitals.temperature.value} °${emr.vitals.temperature.unit}`,
    emr.vitals.spo2_percent !== undefined && `SpO₂ ${emr.vitals.spo2_percent}%`,
    emr.vitals.weight_kg !== undefined && `Wt ${emr.vitals.weight_kg} kg`,
  ].filter(Boolean);
  return (
    <article className="rx-sheet" data-size={size} data-testid="prescription" aria-label="Prescription">
      <header className="rx-head">
        <div>
          <h1 className="rx-clinic">{data.clinicName}</h1>
          {data.clinicAddress && <div className="rx-address">{data.clinicAddress}</div>}
        </div>
        <div className="rx-doctor">
          <strong>Dr. {doctor.name.replace(/^dr\.?\s+/i, '')}</strong>
          {doctor.qualification && <div>{doctor.qualification}</div>}
          {doctor.registration_number && <div>Reg. No. {doctor.registration_number}</div>}
        </div>
      </header>
      <section className="rx-patient">
        <span><b>Patient:</b> {patient?.name ?? '—'}</span>
        <span><b>Age/Sex:</b> {patient ? `${ageLabel(patient)} / ${GENDER[patient.gender] ?? patient.gender}` : '—'}</span>
        <span><b>Mobile:</b> {patient ? phone(patient.mobile) : '—'}</span>
        <span><b>Date:</b> {day(version.created_at, timeZone)}</span>
      </section>
      {emr.chief_complaints.length > 0 && (
        <p className="rx-line"><b>Complaints:</b> {emr.chief_complaints.map((c) => `${c.name}${c.duration ? ` (${durationWords(c.duration)})` : ''}`).join(', ')}</p>
      )}
      {vitals.length > 0 && <p className="rx-line"><b>Vitals:</b> {vitals.join(', ')}</p>}
      {emr.history.allergies.length > 0 && <p className="rx-line"><b>Allergies:</b> {emr.history.allergies.join(', ')}</p>}
      {emr.diagnoses.length > 0 && (
        <p className="rx-line"><b>Diagnosis:</b> {emr.diagnoses.map((d, i) => {
          const icd = d.codes.find((c) => c.system === 'ICD-10');
          return <Fragment key={i}>{i > 0 && '; '}{cap(d.name)}{d.certainty === 'suspected' ? ' (suspected)' : ''}{icd ? <span className="rx-code"> [{icd.code}]</span> : null}</Fragment>;
        })}</p>
      )}
      <div className="rx-symbol" aria-hidden="true">℞</div>
      {emr.medications.length > 0
        ? (
          <table className="rx-table" aria-label="Rx">
            <thead><tr><th className="rx-n" /><th>Medicine</th><th className="rx-c-dose">Dose</th><th className="rx-c-freq">Frequency</th><th className="rx-c-days">Duration</th><th className="rx-c-note">Instructions</th></tr></thead>
            <tbody>{emr.medications.map((m, i) => <RxRow key={i} m={m} n={i + 1} />)}</tbody>
          </table>
        )
        : <p className="rx-line">No medicines.</p>}
      {emr.investigations.length > 0 && <p className="rx-line"><b>Investigations:</b> {emr.investigations.map((x) => x.name).join(', ')}</p>}
      {emr.advice.length > 0 && (
        <div className="rx-line"><b>Advice:</b><ul>{emr.advice.map((a, i) => <li key={i}>{cap(a)}</li>)}</ul></div>
      )}
      {emr.follow_up && (
        <p className="rx-line"><b>Follow-up:</b> {day(`${dateAfter(signedOn, emr.follow_up.after)}T12:00:00Z`, 'UTC')} (after {durationWords(emr.follow_up.after)}){emr.follow_up.notes ? `, ${emr.follow_up.notes}` : ''}</p>
      )}
      <footer className="rx-foot">
        <div className="rx-sign">
          <div className="rx-sign-line" />
          <div>Dr. {doctor.name.replace(/^dr\.?\s+/i, '')}</div>
          {doctor.registration_number && <div className="rx-small">Reg. No. {doctor.registration_number}</div>}
        </div>
        <div className="rx-small rx-meta">Signed electronically {day(version.created_at, timeZone)}{version.version > 1 ? `, amendment ${version.version - 1}` : ''}</div>
      </footer>
    </article>
  );
}

// The preload's bridge is there in the desktop app only: it prints to paper and saves PDFs as separate things.
const inDesktopApp = 'clinic' in window;

/**
 * The prescription over the page, with paper size, print and PDF. Printing shows only the sheet (styles.css, print)
 * and @page takes the size chosen here, for paper and PDF alike: the desktop app saves the PDF itself
 * (printPrescriptionPdf), a browser's print dialog saves it as one.
 */
export function PrescriptionPreview({ txnId, patientId, me, timeZone, clinicName, onClose }: {
  txnId: string; patientId: string | null; me: string; timeZone: string; clinicName: string; onClose: () => void;
}) {
  const [size, setSize] = useState<PaperSize>('a5');
  const latest = useQuery({ queryKey: ['note-version', txnId, 'latest'], queryFn: () => notesApi.noteVersion(txnId, 'latest') });
  const patient = useQuery({ queryKey: ['patient', patientId], queryFn: () => clinic.getPatient(patientId!), enabled: !!patientId, retry: false });
  const clinicProfile = useQuery({ queryKey: ['clinic-profile'], queryFn: () => notesApi.clinicProfile() });
  const signer = latest.data?.created_by ?? null;
  // Another doctor's profile is theirs and the admins' to read: a 403 prints their name alone.
  const profile = useQuery({ queryKey: ['user-profile', signer], queryFn: () => notesApi.userProfile(signer!), enabled: !!signer, retry: false });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const ready = latest.data && clinicProfile.data && !profile.isLoading && !patient.isLoading;
  const data: PrescriptionData | null = ready ? {
    emr: latest.data!.emr, version: latest.data!, patient: patient.data ?? null, clinicName: clinicProfile.data?.name ?? clinicName,
    clinicAddress: clinicProfile.data?.address ?? null, timeZone,
    doctor: { name: latest.data!.created_by_name ?? '', qualification: profile.data?.qualification ?? null, registration_number: profile.data?.registration_number ?? null },
  } : null;
  const mine = signer === me;
  const savePdf = useMutation({
    mutationFn: () => clinic.printPrescriptionPdf(pdfFileName(patient.data?.name ?? null, ymd(latest.data!.created_at, timeZone))),
  });
  return createPortal(
    <div className="rx-preview" role="dialog" aria-modal="true" aria-label="Prescription">
      <div className="rx-toolbar no-print">
        <strong>Prescription</strong>
        <div className="seg" role="group" aria-label="Paper size">
          {(['a5', 'a4'] as const).map((s) => <button key={s} type="button" aria-pressed={size === s} onClick={() => setSize(s)}>{s.toUpperCase()}</button>)}
        </div>
        {savePdf.data?.saved && <span className="small muted" role="status">Saved to {savePdf.data.path}</span>}
        {inDesktopApp && <button className="btn sm" type="button" onClick={() => window.print()} disabled={!data}><Icon name="print" size={14} />Print</button>}
        <button className="btn primary sm" type="button" onClick={() => savePdf.mutate()} disabled={!data || savePdf.isPending}>
          <Icon name="print" size={14} />{inDesktopApp ? 'Save as PDF' : 'Print or save as PDF'}
        </button>
        <button className="btn sm" type="button" onClick={onClose}>Close</button>
      </div>
      <div className="rx-stage">
        <ErrorNote error={latest.error ?? clinicProfile.error ?? savePdf.error} />
        {mine && profile.data && (!profile.data.qualification || !profile.data.registration_number) && (
          <div className="rx-missing no-print"><DoctorProfileForm userId={me} intro="Your qualification and registration number print under your name: add them here." /></div>
        )}
        {data && <PrescriptionSheet data={data} size={size} />}
      </div>
    </div>,
    document.body,
  );
}
