import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AppointmentStatus, ChangeStatusTarget, DayEntry, Patient, SessionInfo, StatusChange } from '../../../preload/contract';
import { clinic } from '../clinic';
import { PatientSearch } from '../PatientSearch';
import { PatientForm } from './RegisterPatient';
import { Dialog, Empty, ErrorNote, Field, GENDER, Icon, Loading, STATUS_LABEL, StatusChip, ageLabel, phone, time } from '../ui';

/** Today's date at the clinic (its time zone), YYYY-MM-DD. */
export const clinicToday = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/** The instant of a wall-clock time at the clinic, as ISO UTC. */
export function clinicInstant(date: string, hhmm: string, timeZone: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = hhmm.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const offsetAt = (t: number) => {
    const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' })
      .formatToParts(new Date(t)).map((p) => [p.type, p.value]));
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute)) - t;
  };
  let t = wall - offsetAt(wall);
  t = wall - offsetAt(t);
  return new Date(t).toISOString();
}

const prettyDate = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-IN', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });

// ---------------------------------------------------------------------------------------------------------------

function BookForm({ session, patient, onClose, onBooked }: { session: SessionInfo; patient: Patient; onClose: () => void; onBooked: () => void }) {
  const qc = useQueryClient();
  const tz = session.workspace.timezone;
  const doctors = useQuery({ queryKey: ['doctors'], queryFn: () => clinic.doctors() });
  const [date, setDate] = useState(clinicToday(tz));
  const [at, setAt] = useState(() => {
    const now = new Date(Date.now() + 30 * 60_000);
    const parts = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(now);
    const [h, m] = parts.split(':').map(Number) as [number, number];
    return `${String(h).padStart(2, '0')}:${String(Math.floor(m / 15) * 15).padStart(2, '0')}`;
  });
  const [doctor, setDoctor] = useState('');
  const [reason, setReason] = useState('');
  useEffect(() => {
    if (!doctor && doctors.data?.[0]) setDoctor(doctors.data.find((d) => d.role === 'doctor')?.id ?? doctors.data[0].id);
  }, [doctors.data, doctor]);
  const book = useMutation({
    mutationFn: () => clinic.bookAppointment({ patient_id: patient.id, scheduled_at: clinicInstant(date, at, tz), doctor_id: doctor || undefined, reason: reason.trim() || undefined }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['day'] });
      onBooked();
    },
  });
  return (
    <Dialog title={`Book an appointment for ${patient.name}`} onClose={onClose}
      footer={<><button className="btn" type="button" onClick={onClose}>Cancel</button><button className="btn primary" type="submit" form="book-form" disabled={book.isPending || !date || !at}>{book.isPending ? 'Booking…' : 'Book appointment'}</button></>}>
      <form id="book-form" className="stack" onSubmit={(e) => { e.preventDefault(); book.mutate(); }}>
        <div className="cols-2">
          <Field label="Date"><input name="date" type="date" value={date} min={clinicToday(tz)} onChange={(e) => setDate(e.target.value)} /></Field>
          <Field label="Time" hint={`Clinic time (${tz})`}><input name="time" type="time" step={300} value={at} onChange={(e) => setAt(e.target.value)} /></Field>
        </div>
        <Field label="Doctor">
          <select name="doctor" value={doctor} onChange={(e) => setDoctor(e.target.value)}>
            {doctors.isPending && <option>Loading…</option>}
            {doctors.data?.map((d) => <option key={d.id} value={d.id}>{d.display_name}</option>)}
          </select>
        </Field>
        <Field label="Reason (optional)"><input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="e.g. Fever, follow-up" /></Field>
        <ErrorNote error={book.error ?? doctors.error} />
      </form>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------

function Search({ onPick, picked, onRegister }: { onPick: (p: Patient) => void; picked: Patient | null; onRegister: (mobile: string) => void }) {
  return (
    <div className="card">
      <div className="card-head"><div><h2>Find a patient</h2><p className="small muted">By 10-digit mobile number: the whole family shows.</p></div></div>
      <PatientSearch onPick={onPick} picked={picked} onRegister={onRegister} autoFocus />
    </div>
  );
}

function PatientCard({ patient, onEdit, onBook }: { patient: Patient; onEdit: () => void; onBook: () => void }) {
  return (
    <div className="card" aria-label="Selected patient">
      <div className="card-head">
        <div className="row"><div className="avatar" aria-hidden="true">{patient.first_name[0]}{patient.last_name[0]}</div><div><h2>{patient.name}</h2><p className="small muted">{GENDER[patient.gender]}, {ageLabel(patient)}</p></div></div>
        <button className="btn sm" type="button" onClick={onEdit}>Edit</button>
      </div>
      <div className="card-body stack">
        <dl className="kv">
          <dt>Mobile</dt><dd className="num">{phone(patient.mobile)}</dd>
          <dt>Date of birth</dt><dd>{patient.dob}{patient.dob_estimated && <span className="faint"> (estimated from an age)</span>}</dd>
          <dt>Email</dt><dd>{patient.email || <span className="faint">Not given</span>}</dd>
        </dl>
        <button className="btn primary" type="button" onClick={onBook}><Icon name="calendar" />Book appointment</button>
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------------

interface Action { label: string; run: (a: DayEntry) => Promise<StatusChange>; kind?: 'primary' | 'danger' }

function actionsFor(status: AppointmentStatus, role: SessionInfo['user']['role']): Action[] {
  const to = (s: ChangeStatusTarget) => (a: DayEntry) => clinic.setAppointmentStatus(a.appointment_id, s);
  const park = (a: DayEntry) => clinic.parkAppointment(a.appointment_id);
  const clinical = role !== 'reception';
  switch (status) {
    case 'BK': return [{ label: 'Check in', run: to('CK'), kind: 'primary' }, { label: 'Park', run: park }, { label: 'No-show', run: to('NS'), kind: 'danger' }];
    case 'CK': return [...(clinical ? [{ label: 'Start', run: to('OG'), kind: 'primary' as const }] : []), { label: 'Park', run: park }, { label: 'No-show', run: to('NS'), kind: 'danger' }];
    case 'OG': return clinical ? [{ label: 'Complete', run: to('CM'), kind: 'primary' }, { label: 'Park', run: park }] : [];
    case 'PK': return [...(clinical ? [{ label: 'Resume', run: to('OG'), kind: 'primary' as const }] : []), { label: 'Check in (back in waiting room)', run: to('CK') }, { label: 'No-show', run: to('NS'), kind: 'danger' }];
    case 'NS': return [{ label: 'Check in (arrived late)', run: to('CK') }];
    default: return [];
  }
}

/**
 * What the toast offers after a move. "Undo" only where checking in again truly restores the previous state:
 * change-status cannot return an appointment to BK, so a booked patient marked no-show is offered a check-in for
 * when they turn up after all, and parking a booked patient offers nothing.
 */
function followUp(r: StatusChange): string | null {
  if (r.previous_status === r.status) return null;
  if ((r.status === 'NS' || r.status === 'PK') && r.previous_status === 'CK') return 'Undo';
  return r.status === 'NS' ? 'Arrived after all? Check in' : null;
}

function Queue({ session, onBookNew }: { session: SessionInfo; onBookNew: () => void }) {
  const qc = useQueryClient();
  const tz = session.workspace.timezone;
  const [date, setDate] = useState(clinicToday(tz));
  const day = useQuery({ queryKey: ['day', date], queryFn: () => clinic.dayAppointments(date), refetchInterval: 15_000 });
  const [toast, setToast] = useState<{ text: string; offer?: { label: string; run: () => void } } | null>(null);
  const act = useMutation({
    mutationFn: async ({ a, action }: { a: DayEntry; action: Action }) => action.run(a),
    onSuccess: (r, { a }) => {
      void qc.invalidateQueries({ queryKey: ['day'] });
      const label = followUp(r);
      const checkIn: Action = { label: 'Check in', run: (x) => clinic.setAppointmentStatus(x.appointment_id, 'CK') };
      setToast({
        text: r.status === 'NS' ? `${a.patient_name} marked no-show` : `${a.patient_name} is now ${STATUS_LABEL[r.status].toLowerCase()}`,
        offer: label ? { label, run: () => act.mutate({ a: { ...a, status: r.status }, action: checkIn }) } : undefined,
      });
    },
  });
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => setToast(null), 6000);
    return () => clearTimeout(t);
  }, [toast]);
  const rows = day.data?.appointments ?? [];
  const count = (s: AppointmentStatus) => rows.filter((r) => r.status === s).length;
  return (
    <div className="card">
      <div className="card-head">
        <div><h2>{date === clinicToday(tz) ? "Today's queue" : 'Queue'}</h2><p className="small muted">{prettyDate(date)}</p></div>
        <div className="row">
          <input aria-label="Queue date" type="date" value={date} onChange={(e) => e.target.value && setDate(e.target.value)} style={{ width: 160 }} />
          <button className="btn" type="button" onClick={onBookNew}><Icon name="plus" />Book</button>
        </div>
      </div>
      {rows.length > 0 && (
        <div className="card-body row wrap" style={{ paddingTop: 12, paddingBottom: 12, borderBottom: '1px solid var(--border)', gap: 16 }}>
          {(['BK', 'CK', 'OG', 'PK', 'CM', 'NS'] as const).map((s) => (
            <span key={s} className="row small"><StatusChip status={s} /><strong className="num">{count(s)}</strong></span>
          ))}
        </div>
      )}
      <div className="card-body flush">
        {day.isPending && <Loading label="Loading the queue…" />}
        {day.isError && <div className="card-body"><ErrorNote error={day.error} onRetry={() => void day.refetch()} /></div>}
        {act.isError && <div className="card-body" style={{ paddingBottom: 0 }}><ErrorNote error={act.error} /></div>}
        {day.data && rows.length === 0 && (
          <Empty title="No appointments on this day" icon="calendar">Find a patient on the left and book one, or pick another day.</Empty>
        )}
        {rows.length > 0 && (
          <table aria-label="Appointments">
            <thead><tr><th style={{ width: 90 }}>Time</th><th>Patient</th><th>Reason</th><th style={{ width: 130 }}>Status</th><th style={{ textAlign: 'right' }}>Actions</th></tr></thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.appointment_id} data-testid="queue-row" data-status={a.status}>
                  <td className="num nowrap"><strong>{time(a.scheduled_at, tz)}</strong></td>
                  <td><div className="patient-name">{a.patient_name}</div><div className="small muted num">{phone(a.patient_mobile)}</div></td>
                  <td className="muted">{a.reason || '—'}</td>
                  <td><StatusChip status={a.status} /></td>
                  <td>
                    <div className="actions">
                      {actionsFor(a.status, session.user.role).map((action) => (
                        <button key={action.label} type="button" className={`btn sm ${action.kind ?? ''}`} disabled={act.isPending}
                          aria-label={`${action.label}: ${a.patient_name} at ${time(a.scheduled_at, tz)}`}
                          onClick={() => act.mutate({ a, action })}>{action.label}</button>
                      ))}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {toast && (
        <div className="toast" role="status">
          <span>{toast.text}</span>
          {toast.offer && <button className="btn sm" type="button" onClick={() => { toast.offer!.run(); setToast(null); }}>{toast.offer.label}</button>}
          <button className="btn sm" type="button" aria-label="Dismiss" onClick={() => setToast(null)}><Icon name="x" size={14} /></button>
        </div>
      )}
    </div>
  );
}

export function FrontDesk({ session }: { session: SessionInfo }) {
  const [picked, setPicked] = useState<Patient | null>(null);
  const [form, setForm] = useState<{ kind: 'new'; mobile: string } | { kind: 'edit' } | { kind: 'book' } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <div className="page">
      <div className="page-head">
        <div><h1>Front desk</h1><p className="muted">Search, register, book, and keep the day's queue moving.</p></div>
      </div>
      {notice && <div className="alert ok" role="status"><Icon name="check" size={18} /><div className="grow">{notice}</div><button className="btn ghost sm" type="button" onClick={() => setNotice(null)}>Dismiss</button></div>}
      <div className="grid-2">
        <div className="stack loose">
          <Search picked={picked} onPick={setPicked} onRegister={(mobile) => setForm({ kind: 'new', mobile })} />
          {picked ? <PatientCard patient={picked} onEdit={() => setForm({ kind: 'edit' })} onBook={() => setForm({ kind: 'book' })} />
            : <div className="card"><Empty title="No patient selected" icon="user">Type a mobile number above, then pick the patient to see their details and book.</Empty></div>}
        </div>
        <Queue session={session} onBookNew={() => (picked ? setForm({ kind: 'book' }) : setNotice('Pick a patient first: search by their mobile number, then book.'))} />
      </div>
      {form?.kind === 'new' && <PatientForm mobile={form.mobile} onClose={() => setForm(null)} onSaved={(p) => { setPicked(p); setForm(null); setNotice(`${p.name} is registered.`); }} />}
      {form?.kind === 'edit' && picked && <PatientForm patient={picked} onClose={() => setForm(null)} onSaved={(p) => { setPicked(p); setForm(null); setNotice(`${p.name}'s details are saved.`); }} />}
      {form?.kind === 'book' && picked && <BookForm session={session} patient={picked} onClose={() => setForm(null)} onBooked={() => { setForm(null); setNotice(`Appointment booked for ${picked.name}.`); }} />}
    </div>
  );
}

export { STATUS_LABEL };
