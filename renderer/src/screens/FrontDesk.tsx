import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Appointment, AppointmentStatus, ChangeStatusTarget, DayEntry, DayList, DayReminders, Patient, SessionInfo, StatusChange } from '../../../preload/contract';
import { asFailure, clinic, explain } from '../clinic';
import { PatientSearch } from '../PatientSearch';
import { PatientForm } from './RegisterPatient';
import { Dialog, Empty, ErrorNote, Field, GENDER, Icon, Loading, ReasonedButton, STATUS_LABEL, StatusChip, ageLabel, phone, time } from '../ui';

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

/** A booking's clash or timing refusal, in a sentence, and whether booking anyway (an overbook) is on offer. */
function bookingProblem(e: unknown, doctorName: string | undefined): { text: string; overbook: boolean } | null {
  const f = asFailure(e);
  if (f.code === 'SLOT_TAKEN') return { text: `This time is taken: ${doctorName ?? 'the doctor'} already has a patient then. Pick a free time, or book anyway as an overbook.`, overbook: true };
  if (f.code === 'PATIENT_DOUBLE_BOOKED') return { text: 'This patient already has an appointment at an overlapping time. Pick another time, or book anyway as an overbook.', overbook: true };
  if (f.code === 'TIME_IN_PAST') return { text: 'This time has already passed. Pick a later time, or tick "Walk-in" if the patient is here now.', overbook: false };
  return null;
}

const HOLDS_SLOT: readonly AppointmentStatus[] = ['BK', 'CK', 'OG', 'PK'];

function BookForm({ session, patient, onClose, onBooked }: { session: SessionInfo; patient: Patient; onClose: () => void; onBooked: (a: Appointment) => void }) {
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
  const [walkIn, setWalkIn] = useState(false);
  useEffect(() => {
    if (!doctor && doctors.data?.[0]) setDoctor(doctors.data.find((d) => d.role === 'doctor')?.id ?? doctors.data[0].id);
  }, [doctors.data, doctor]);
  const day = useQuery({ queryKey: ['day', date], queryFn: () => clinic.dayAppointments(date), enabled: !walkIn && Boolean(date) });
  const taken = (day.data?.appointments ?? []).filter((a) => a.doctor_id === doctor && HOLDS_SLOT.includes(a.status));
  const book = useMutation({
    mutationFn: (overbook: boolean) => clinic.bookAppointment({
      patient_id: patient.id, doctor_id: doctor || undefined, reason: reason.trim() || undefined,
      ...(walkIn ? { walk_in: true } : { scheduled_at: clinicInstant(date, at, tz) }), ...(overbook ? { overbook: true } : {}),
    }),
    onSuccess: (a) => {
      void qc.invalidateQueries({ queryKey: ['day'] });
      onBooked(a);
    },
  });
  const doctorName = doctors.data?.find((d) => d.id === doctor)?.display_name;
  const problem = book.error ? bookingProblem(book.error, doctorName) : null;
  return (
    <Dialog title={`Book an appointment for ${patient.name}`} onClose={onClose}
      footer={<><button className="btn" type="button" onClick={onClose}>Cancel</button><ReasonedButton className="btn primary" type="submit" form="book-form" disabled={book.isPending} why={!walkIn && (!date || !at) ? 'Choose a day and a time, or tick walk-in.' : null}>{book.isPending ? 'Booking…' : 'Book appointment'}</ReasonedButton></>}>
      <form id="book-form" className="stack" onSubmit={(e) => { e.preventDefault(); book.mutate(false); }}>
        <label className="row small"><input type="checkbox" name="walk_in" checked={walkIn} onChange={(e) => { setWalkIn(e.target.checked); book.reset(); }} />Walk-in: the patient is here now</label>
        {!walkIn && (
          <div className="cols-2">
            <Field label="Date"><input name="date" type="date" value={date} min={clinicToday(tz)} onChange={(e) => { setDate(e.target.value); book.reset(); }} /></Field>
            <Field label="Time" hint={`Clinic time (${tz})`}><input name="time" type="time" step={300} value={at} onChange={(e) => { setAt(e.target.value); book.reset(); }} /></Field>
          </div>
        )}
        <Field label="Doctor">
          <select name="doctor" value={doctor} onChange={(e) => { setDoctor(e.target.value); book.reset(); }}>
            {doctors.isPending && <option>Loading…</option>}
            {doctors.data?.map((d) => <option key={d.id} value={d.id}>{d.display_name}</option>)}
          </select>
        </Field>
        {!walkIn && doctor && (
          <div className="taken-slots" aria-label="Taken slots">
            <span className="small muted">{taken.length ? `Taken on this day (${doctorName ?? 'doctor'}):` : `${doctorName ?? 'The doctor'} has no bookings on this day yet.`}</span>
            {taken.map((a) => (
              <span key={a.appointment_id} className="chip outline num" data-testid="taken-slot">
                {time(a.scheduled_at, tz)}–{time(new Date(new Date(a.scheduled_at).getTime() + a.duration_minutes * 60_000).toISOString(), tz)}
              </span>
            ))}
          </div>
        )}
        <Field label="Reason (optional)"><input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="e.g. Fever, follow-up" /></Field>
        {problem ? (
          <div className="alert warn" role="alert">
            <Icon name="alert" size={18} />
            <div className="grow"><strong>Not booked</strong><span>{problem.text}</span></div>
            {problem.overbook && <button className="btn sm" type="button" onClick={() => book.mutate(true)} disabled={book.isPending}>Book anyway (overbook)</button>}
          </div>
        ) : <ErrorNote error={book.error ?? doctors.error} />}
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
    <div className="card" role="region" aria-label="Selected patient">
      <div className="card-head">
        <div className="row"><div className="avatar" aria-hidden="true">{patient.first_name[0]}{patient.last_name[0]}</div><div><h2>{patient.name}</h2><p className="small muted">{GENDER[patient.gender]}, {ageLabel(patient)}</p></div></div>
        <button className="btn sm" type="button" onClick={onEdit}>Edit</button>
      </div>
      <div className="card-body stack">
        <dl className="kv">
          <dt>Mobile</dt><dd className="num">{phone(patient.mobile)}</dd>
          <dt>Date of birth</dt><dd>{patient.dob}{patient.dob_estimated && <span className="faint"> (estimated from an age)</span>}</dd>
          <dt>Email</dt><dd>{patient.email || <span className="faint">Not given</span>}</dd>
          <dt>Allergies</dt><dd>{patient.allergies.join(', ') || <span className="faint">None recorded</span>}</dd>
        </dl>
        <button className="btn primary" type="button" onClick={onBook}><Icon name="calendar" />Book appointment</button>
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------------

/** A row's move: `label` is what the button shows; `says` (default: label) is its full meaning, read out and shown on hover. */
interface Action { label: string; says?: string; run: (a: DayEntry) => Promise<StatusChange>; kind?: 'primary' | 'danger'; checksIn?: boolean }

function actionsFor(status: AppointmentStatus, role: SessionInfo['user']['role']): Action[] {
  const to = (s: ChangeStatusTarget) => (a: DayEntry) => clinic.setAppointmentStatus(a.appointment_id, s);
  const park = (a: DayEntry) => clinic.parkAppointment(a.appointment_id);
  const clinical = role !== 'reception';
  switch (status) {
    case 'BK': return [{ label: 'Check in', run: to('CK'), kind: 'primary', checksIn: true }, { label: 'Park', run: park }, { label: 'No-show', run: to('NS'), kind: 'danger' }];
    case 'CK': return [...(clinical ? [{ label: 'Start', run: to('OG'), kind: 'primary' as const }] : []), { label: 'Park', run: park }, { label: 'No-show', run: to('NS'), kind: 'danger' }];
    case 'OG': return clinical ? [{ label: 'Complete', run: to('CM'), kind: 'primary' }, { label: 'Park', run: park }] : [];
    case 'PK': return [...(clinical ? [{ label: 'Resume', run: to('OG'), kind: 'primary' as const }] : []), { label: 'Check in', says: 'Check in (back in waiting room)', run: to('CK'), checksIn: true }, { label: 'No-show', run: to('NS'), kind: 'danger' }];
    case 'NS': return [{ label: 'Check in', says: 'Check in (arrived late)', run: to('CK'), checksIn: true }];
    default: return [];
  }
}

/** The front desk's own moves, which an undo within the window reverses exactly. */
const UNDOABLE: readonly AppointmentStatus[] = ['CK', 'PK', 'NS'];
const undoMove: Action = { label: 'Undo', run: (a) => clinic.undoAppointment(a.appointment_id) };

/** The patient's other appointment of the same day that is checked in or with the doctor, from the queue as shown. */
function checkedInElsewhere(days: DayList[], a: DayEntry): DayEntry | undefined {
  const day = days.find((d) => d.appointments.some((x) => x.appointment_id === a.appointment_id));
  return day?.appointments.find((x) => x.patient_id === a.patient_id && x.appointment_id !== a.appointment_id && (x.status === 'CK' || x.status === 'OG'));
}

/**
 * The queue's moves and their toast, shared by the table and the selected patient's card. Checking in a patient who
 * is already checked in (or with the doctor) that day asks first: the board would show them twice.
 */
function useQueueActions() {
  const qc = useQueryClient();
  const [toast, setToast] = useState<{ text: string; offer?: () => void } | null>(null);
  const [asking, setAsking] = useState<{ a: DayEntry; action: Action; other: DayEntry } | null>(null);
  const act = useMutation({
    mutationFn: async ({ a, action }: { a: DayEntry; action: Action }) => action.run(a),
    onSuccess: (r, { a, action }) => {
      void qc.invalidateQueries({ queryKey: ['day'] });
      const text = action === undoMove ? `Undone: ${a.patient_name} is ${STATUS_LABEL[r.status].toLowerCase()} again`
        : r.status === 'NS' ? `${a.patient_name} marked no-show`
          : `${a.patient_name} is now ${STATUS_LABEL[r.status].toLowerCase()}${r.status === 'CK' && r.token ? `, token ${r.token}` : ''}`;
      const undoable = action !== undoMove && r.previous_status !== r.status && UNDOABLE.includes(r.status);
      setToast({ text, offer: undoable ? () => act.mutate({ a: { ...a, status: r.status }, action: undoMove }) : undefined });
    },
  });
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => setToast(null), 6000);
    return () => clearTimeout(t);
  }, [toast]);
  const start = (a: DayEntry, action: Action) => {
    const days = qc.getQueriesData<DayList>({ queryKey: ['day'] }).flatMap(([, d]) => (d ? [d] : []));
    const other = action.checksIn ? checkedInElsewhere(days, a) : undefined;
    if (other) setAsking({ a, action, other });
    else act.mutate({ a, action });
  };
  const view = (
    <>
      {toast && (
        <div className="toast" role="status">
          <span>{toast.text}</span>
          {toast.offer && <button className="btn sm" type="button" onClick={() => { toast.offer!(); setToast(null); }}>Undo</button>}
          <button className="btn sm" type="button" aria-label="Dismiss" onClick={() => setToast(null)}><Icon name="x" size={14} /></button>
        </div>
      )}
      {asking && (
        <Dialog title="Already checked in today" onClose={() => setAsking(null)}
          footer={<>
            <button className="btn" type="button" onClick={() => setAsking(null)}>Cancel</button>
            <button className="btn primary" type="button" onClick={() => { act.mutate({ a: asking.a, action: asking.action }); setAsking(null); }}>Check in again</button>
          </>}>
          <p>{asking.a.patient_name} is {STATUS_LABEL[asking.other.status].toLowerCase()}{asking.other.token !== null ? ` with token ${asking.other.token}` : ''} for another appointment today. Checked in again, they are in the queue and on the board twice.</p>
        </Dialog>
      )}
    </>
  );
  return { act: { ...act, start }, toast: view };
}
type QueueActions = ReturnType<typeof useQueueActions>['act'];

/**
 * A move that did not go through (the server down, or refused): which one and for whom, offered again. Once the
 * queue has been read from the server since, the outage is over: the note stops being an error and only offers it.
 */
function FailedAction({ act, answeredAt }: { act: QueueActions; answeredAt: number }) {
  const failed = act.isError ? act.variables : undefined;
  if (!failed) return null;
  const what = `${failed.action.says ?? failed.action.label} for ${failed.a.patient_name}`;
  const back = asFailure(act.error).code === 'SERVICE_UNREACHABLE' && answeredAt > act.submittedAt;
  return (
    <div className={`alert ${back ? 'warn' : 'error'}`} role="alert" data-testid="failed-action">
      <Icon name="alert" size={18} />
      <div className="grow">
        <strong>{what} did not go through</strong>
        <span>{back ? 'The clinic server was not answering; it is back now.' : explain(act.error).title}</span>
      </div>
      <button className="btn sm" type="button" disabled={act.isPending} onClick={() => act.mutate(failed)}>Try again</button>
      <button className="btn sm" type="button" aria-label="Dismiss" onClick={() => act.reset()}><Icon name="x" size={14} /></button>
    </div>
  );
}

/** A clock that moves every `ms`, so an undo offer disappears when its window passes. */
function useNow(ms: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

function RowActions({ a, role, act, tz }: { a: DayEntry; role: SessionInfo['user']['role']; act: QueueActions; tz: string }) {
  const box = useRef<HTMLDivElement>(null);
  // The status a move was pressed from: once the row has moved on, its buttons are new.
  const movedFrom = useRef<string | null>(null);
  useEffect(() => {
    // A move replaces the row's buttons (Check in becomes Send in): focus stays in the row, not on <body>.
    if (movedFrom.current === null || movedFrom.current === a.status || act.isPending) return;
    movedFrom.current = null;
    const at = document.activeElement;
    if (!at || at === document.body || !at.isConnected) box.current?.closest('tr, .list-item')?.querySelector<HTMLElement>('button:not(:disabled)')?.focus();
  }, [a.status, act.isPending]);
  return (
    <div className="actions" ref={box}>
      {actionsFor(a.status, role).map((action) => (
        <button key={action.label} type="button" className={`btn sm ${action.kind ?? ''}`} disabled={act.isPending} title={action.says}
          aria-label={`${action.says ?? action.label}: ${a.patient_name} at ${time(a.scheduled_at, tz)}`}
          onClick={() => { movedFrom.current = a.status; act.start(a, action); }}>{action.label}</button>
      ))}
    </div>
  );
}

/** The undo of a row's latest move while its window lasts; once it has passed, the row says so. */
function UndoOffer({ a, act, now, tz }: { a: DayEntry; act: QueueActions; now: number; tz: string }) {
  if (!a.undo_until) return null;
  // `now` ticks every 15 s to re-render; the minutes left are read from the clock itself, so a fresh move never
  // shows more than the window.
  const left = new Date(a.undo_until).getTime() - Math.max(now, Date.now());
  if (left <= 0) return <div className="tiny faint" data-testid="undo-passed">Undo time passed</div>;
  return (
    <button type="button" className="link-btn tiny" disabled={act.isPending} title={`Undo the last change (until ${time(a.undo_until, tz)})`}
      aria-label={`Undo: ${a.patient_name} at ${time(a.scheduled_at, tz)}`} onClick={() => act.mutate({ a, action: undoMove })}>
      Undo · {Math.max(1, Math.ceil(left / 60_000))} min
    </button>
  );
}

const FILTER_STATUSES = ['BK', 'CK', 'OG', 'PK', 'CM', 'NS'] as const;

type DayReminder = DayReminders['appointments'][number];

/** What the patient said to the reminder, else how far the latest reminder got; nothing where the clinic sends none. */
const REPLY_LABEL = { confirmed: 'Confirmed', cancelled: 'Cancelled by patient', reschedule: 'Wants another time' } as const;
const REMINDER_LABEL: Record<string, string> = {
  pending: 'Reminder due', sending: 'Reminder due', sent: 'Reminded', delivered: 'Reminder delivered', read: 'Reminder read', failed: 'Reminder failed',
};

function ReminderChip({ r }: { r: DayReminder | undefined }) {
  if (!r) return null;
  if (r.reply) return <span className={`chip reply-${r.reply}`} data-testid="reminder-state" data-reply={r.reply}>{REPLY_LABEL[r.reply]}</span>;
  if (!r.reminder || !REMINDER_LABEL[r.reminder]) return null;
  return <span className={`chip reminder-${r.reminder}`} data-testid="reminder-state" data-reminder={r.reminder}>{REMINDER_LABEL[r.reminder]}</span>;
}

function Queue({ session, onBookNew, highlight, act, date, setDate }: {
  session: SessionInfo; onBookNew: () => void; highlight: string | null; act: QueueActions; date: string; setDate: (d: string) => void;
}) {
  const tz = session.workspace.timezone;
  const role = session.user.role;
  const qc = useQueryClient();
  const now = useNow(15_000);
  const day = useQuery({ queryKey: ['day', date], queryFn: () => clinic.dayAppointments(date), refetchInterval: 15_000 });
  // Reminders and the patients' answers (issue 29), which come from outside the clinic: refreshed more often than the queue.
  const reminders = useQuery({ queryKey: ['day', date, 'reminders'], queryFn: () => clinic.dayReminders(date), refetchInterval: 5_000 });
  const reminderOf = new Map(reminders.data?.appointments.map((r) => [r.appointment_id, r]));
  const doctors = useQuery({ queryKey: ['doctors'], queryFn: () => clinic.doctors() });
  const doctorName = (id: string | null) => (id ? doctors.data?.find((d) => d.id === id)?.display_name ?? '—' : '—');
  const [doctorFilter, setDoctorFilter] = useState('');
  const [statusFilter, setStatusFilter] = useState<AppointmentStatus | null>(null);
  const callFor = role === 'doctor' ? session.user.id : role === 'admin' && doctorFilter ? doctorFilter : null;
  // A patient still with the doctor is not left there: the service refuses, and the desk asks to mark them done.
  const [stillIn, setStillIn] = useState<string | null>(null);
  const callNext = useMutation({
    mutationFn: (current?: 'complete') => clinic.callNextPatient(callFor ?? undefined, current),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['day'] }),
    onError: (e) => {
      if (asFailure(e).code === 'PATIENT_WITH_DOCTOR') setStillIn(asFailure(e).message);
    },
  });
  const callNextError = callNext.error && asFailure(callNext.error).code !== 'PATIENT_WITH_DOCTOR' ? callNext.error : null;
  const all = day.data?.appointments ?? [];
  const ofDoctor = doctorFilter ? all.filter((r) => r.doctor_id === doctorFilter) : all;
  const rows = statusFilter ? ofDoctor.filter((r) => r.status === statusFilter) : ofDoctor;
  const count = (s: AppointmentStatus) => ofDoctor.filter((r) => r.status === s).length;
  const highlighted = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (highlight) highlighted.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [highlight, rows.length]);
  return (
    <div className="card queue-card">
      <div className="card-head">
        <div><h2>{date === clinicToday(tz) ? "Today's queue" : 'Queue'}</h2><p className="small muted">{prettyDate(date)}</p></div>
        <div className="row">
          {callFor && date === clinicToday(tz) && (
            <button className="btn primary" type="button" disabled={callNext.isPending} onClick={() => callNext.mutate(undefined)}>Call next patient</button>
          )}
          <input aria-label="Queue date" type="date" value={date} onChange={(e) => e.target.value && setDate(e.target.value)} style={{ width: 150 }} />
          <button className="btn" type="button" onClick={onBookNew}><Icon name="plus" />Book</button>
        </div>
      </div>
      <div className="card-body row wrap queue-filters">
        <select aria-label="Doctor" value={doctorFilter} onChange={(e) => setDoctorFilter(e.target.value)} style={{ width: 'auto', maxWidth: 200 }}>
          <option value="">All doctors</option>
          {doctors.data?.map((d) => <option key={d.id} value={d.id}>{d.display_name}</option>)}
        </select>
        <div className="row wrap" role="group" aria-label="Filter by status">
          {FILTER_STATUSES.map((s) => (
            <button key={s} type="button" className="status-filter" aria-pressed={statusFilter === s}
              onClick={() => setStatusFilter(statusFilter === s ? null : s)}>
              <StatusChip status={s} />{' '}<strong className="num">{count(s)}</strong>
            </button>
          ))}
        </div>
      </div>
      <div className="card-body flush">
        {day.isPending && <Loading label="Loading the queue…" />}
        {day.isError && <div className="card-body"><ErrorNote what={day.data ? 'The queue could not be updated' : 'The queue could not be loaded'} error={day.error} onRetry={() => void day.refetch()} /></div>}
        {act.isError && <div className="card-body" style={{ paddingBottom: 0 }}><FailedAction act={act} answeredAt={day.dataUpdatedAt} /></div>}
        {callNextError && <div className="card-body" style={{ paddingBottom: 0 }}><ErrorNote error={callNextError} onRetry={() => callNext.mutate(undefined)} /></div>}
        {stillIn && (
          <Dialog title="A patient is still with the doctor" onClose={() => setStillIn(null)}
            footer={<>
              <button className="btn" type="button" onClick={() => setStillIn(null)}>Cancel</button>
              <button className="btn primary" type="button" onClick={() => { callNext.mutate('complete'); setStillIn(null); }}>Mark done and call next</button>
            </>}>
            <p>{stillIn.replace(/: mark .*$/, '.')} Mark them done and call the next patient in?</p>
          </Dialog>
        )}
        {day.data && all.length === 0 && (
          <Empty title="No appointments on this day" icon="calendar">Find a patient on the left and book one, or pick another day.</Empty>
        )}
        {all.length > 0 && rows.length === 0 && <Empty title="No appointments match the filters" icon="calendar">Choose another doctor or status.</Empty>}
        {rows.length > 0 && (
          <table aria-label="Appointments" className="queue-table">
            <colgroup><col className="c-time" /><col /><col className="c-doctor" /><col className="c-status" /><col className="c-actions" /></colgroup>
            <thead><tr><th>Time</th><th>Patient</th><th>Doctor</th><th>Status</th><th style={{ textAlign: 'right' }}>Actions</th></tr></thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.appointment_id} data-testid="queue-row" data-status={a.status} ref={a.appointment_id === highlight ? highlighted : undefined}
                  className={a.appointment_id === highlight ? 'highlight' : undefined}>
                  <td className="num nowrap"><strong>{time(a.scheduled_at, tz)}</strong>{a.token !== null && <div className="small muted" aria-label={`Token ${a.token}`}>#{a.token}</div>}</td>
                  <td>
                    <div className="patient-name whole">{a.patient_name}</div>
                    <div className="small muted clip" title={a.reason || undefined}>{a.reason || phone(a.patient_mobile)}{a.walk_in ? ' · walk-in' : ''}{a.overbook ? ' · overbooked' : ''}</div>
                  </td>
                  <td className="whole small">{doctorName(a.doctor_id)}</td>
                  <td><div className="row wrap tight"><StatusChip status={a.status} /><ReminderChip r={reminderOf.get(a.appointment_id)} /></div><UndoOffer a={a} act={act} now={now} tz={tz} /></td>
                  <td><RowActions a={a} role={role} act={act} tz={tz} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

/** The selected patient's appointments on the queue's day, with the same moves as their row. */
function PatientToday({ session, patient, act, date }: { session: SessionInfo; patient: Patient; act: QueueActions; date: string }) {
  const tz = session.workspace.timezone;
  const now = useNow(15_000);
  const day = useQuery({ queryKey: ['day', date], queryFn: () => clinic.dayAppointments(date), refetchInterval: 15_000 });
  const mine = (day.data?.appointments ?? []).filter((a) => a.patient_id === patient.id);
  if (mine.length === 0) return null;
  return (
    <div className="card" role="region" aria-label="Selected patient's appointments">
      <div className="card-head"><h2>{date === clinicToday(tz) ? 'Today' : prettyDate(date)}</h2></div>
      <div className="list">
        {mine.map((a) => (
          <div key={a.appointment_id} className="list-item" data-testid="patient-appointment" data-status={a.status}>
            <div className="grow">
              <div className="row"><strong className="num">{time(a.scheduled_at, tz)}</strong><StatusChip status={a.status} />{a.token !== null && <span className="small muted">Token {a.token}</span>}</div>
              <UndoOffer a={a} act={act} now={now} tz={tz} />
            </div>
            <RowActions a={a} role={session.user.role} act={act} tz={tz} />
          </div>
        ))}
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------------

export function FrontDesk({ session }: { session: SessionInfo }) {
  const tz = session.workspace.timezone;
  const [picked, setPicked] = useState<Patient | null>(null);
  const [form, setForm] = useState<{ kind: 'new'; mobile: string } | { kind: 'edit' } | { kind: 'book' } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [date, setDate] = useState(clinicToday(tz));
  const [highlight, setHighlight] = useState<string | null>(null);
  const { act, toast } = useQueueActions();
  return (
    <div className="page">
      <div className="page-head">
        <div><h1>Front desk</h1><p className="muted">Search, register, book, and keep the day's queue moving.</p></div>
      </div>
      {notice && <div className="alert ok" role="status"><Icon name="check" size={18} /><div className="grow">{notice}</div><button className="btn ghost sm" type="button" onClick={() => setNotice(null)}>Dismiss</button></div>}
      <div className="grid-2 front-desk-grid">
        <div className="stack loose">
          <Search picked={picked} onPick={setPicked} onRegister={(mobile) => setForm({ kind: 'new', mobile })} />
          {picked ? <PatientCard patient={picked} onEdit={() => setForm({ kind: 'edit' })} onBook={() => setForm({ kind: 'book' })} />
            : <div className="card"><Empty title="No patient selected" icon="user">Type a mobile number above, then pick the patient to see their details and book.</Empty></div>}
          {picked && <PatientToday session={session} patient={picked} act={act} date={date} />}
        </div>
        <Queue session={session} highlight={highlight} act={act} date={date} setDate={setDate}
          onBookNew={() => (picked ? setForm({ kind: 'book' }) : setNotice('Pick a patient first: search by their mobile number, then book.'))} />
      </div>
      {toast}
      {form?.kind === 'new' && <PatientForm mobile={form.mobile} onClose={() => setForm(null)} onSaved={(p) => { setPicked(p); setForm(null); setNotice(`${p.name} is registered.`); }} />}
      {form?.kind === 'edit' && picked && <PatientForm patient={picked} onClose={() => setForm(null)} onSaved={(p) => { setPicked(p); setForm(null); setNotice(`${p.name}'s details are saved.`); }} />}
      {form?.kind === 'book' && picked && (
        <BookForm session={session} patient={picked} onClose={() => setForm(null)}
          onBooked={(a) => { setForm(null); setDate(a.date); setHighlight(a.appointment_id); setNotice(`Appointment booked for ${picked.name}.`); }} />
      )}
    </div>
  );
}

export { STATUS_LABEL };
