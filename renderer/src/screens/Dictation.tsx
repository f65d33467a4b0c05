import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DictationLanguage, DictationOptions, Language, Patient, Recording, ScribeSessionSummary, SessionInfo, TemplateId, UploadProgress } from '../../../preload/contract';
import { TEMPLATE_NAMES } from '../../../preload/scribe-flow';
import { asFailure, clinic, explain } from '../clinic';
import { LANGUAGES } from '../languages';
import { PatientSearch } from '../PatientSearch';
import { Dialog, Empty, ErrorNote, Field, Icon, Loading, Note, Progress, bytes, phone, time, when } from '../ui';
import { clinicToday } from './FrontDesk';
import { Results } from './Results';

/** The label after a language's name in the list, by what the server says of it (ready needs none). */
const LANGUAGE_LABEL: Record<DictationLanguage['status'], string> = {
  ready: '', needs_model: ' · needs a model download', unavailable: ' · not on this server',
};
const TEMPLATE_HELP: Record<TemplateId, string> = {
  clinical_notes_template: 'A readable note in sections',
  service_emr_template: 'Structured: vitals, diagnoses with codes, medicines',
  transcript_template: 'What was said, with timings',
};
/** A past session's status (the service's words) as the history shows it: label and chip colour. */
const SESSION_STATUS: Record<string, [string, string]> = {
  awaiting_init: ['Not started', 'PK'], queued: ['Queued', 'BK'], processing: ['Transcribing', 'BK'],
  completed: ['Done', 'CK'], partial: ['Partly done', 'PK'], failed: ['Failed', 'NS'],
};

/** Signed notes are the record; a draft is the scribe's (or the doctor's unfinished) and is marked as one. */
const NOTE_LABEL: Record<NonNullable<ScribeSessionSummary['note_status']>, string> = { draft: 'Draft', signed: 'Signed', amended: 'Amended' };

function HistoryRow({ h, onOpen }: { h: ScribeSessionSummary; onOpen: () => void }) {
  const [label, chip] = SESSION_STATUS[h.status] ?? [h.status, ''];
  const running = h.status === 'processing';
  return (
    <div className="row between" data-testid="history-row">
      <span className="nowrap">{when(h.created_at)}</span>
      <span className="small muted grow">
        {h.templates.map((t) => TEMPLATE_NAMES[t] ?? t).join(', ')}
        {h.status === 'failed' && h.errors[0] ? <span style={{ color: 'var(--danger)' }}> · {h.errors[0]}</span> : null}
      </span>
      <span className={`chip ${chip}`}>{label}{running && h.percent !== null ? ` · ${h.stage ?? ''} ${h.percent}%` : ''}</span>
      {h.note_status && <span className={`chip ${h.note_status === 'draft' ? '' : 'CM'}`} data-testid="note-badge">{NOTE_LABEL[h.note_status]}{h.note_version > 0 ? ` · v${h.note_version}` : ''}</span>}
      <button className="btn sm" type="button" disabled={h.status === 'awaiting_init'} onClick={onOpen}>Open</button>
    </div>
  );
}

const SILENCE_RMS = 0.01;
const SILENCE_WARN_MS = 4000;

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

type RecState = 'idle' | 'recording' | 'paused' | 'saving';

/** Microphone capture with a level meter, a silence warning, pause, and every chunk saved as it arrives. */
function useRecorder() {
  const [state, setState] = useState<RecState>('idle');
  const [level, setLevel] = useState(0);
  const [silent, setSilent] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [finishError, setFinishError] = useState<unknown>(null);
  const r = useRef<{ stream?: MediaStream; mr?: MediaRecorder; ctx?: AudioContext; raf?: number; chain: Promise<void>; seq: number; id?: string; startedAt: number; banked: number; quietSince: number | null; timer?: number }>({ chain: Promise.resolve(), seq: 0, startedAt: 0, banked: 0, quietSince: null });

  const cleanup = () => {
    const x = r.current;
    if (x.raf) cancelAnimationFrame(x.raf);
    if (x.timer) clearInterval(x.timer);
    x.stream?.getTracks().forEach((t) => t.stop());
    void x.ctx?.close().catch(() => undefined);
    x.stream = undefined;
    x.ctx = undefined;
    setLevel(0);
    setSilent(false);
  };
  useEffect(() => cleanup, []);

  async function start(deviceId: string, meta: { patient_id?: string; patient_name?: string; appointment_id?: string }) {
    setError(null);
    setSaveError(null);
    setFinishError(null);
    let micOpen = false;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: { deviceId: deviceId ? { exact: deviceId } : undefined, echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 } });
      // Kept before anything else can fail, so that cleanup() turns the microphone off whatever fails next.
      r.current.stream = stream;
      micOpen = true;
      const mime = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm'].find((m) => MediaRecorder.isTypeSupported(m)) ?? '';
      const rec = await clinic.recordingStart({ ...meta, mime_type: mime || 'audio/webm' });
      const x = r.current;
      Object.assign(x, { stream, id: rec.id, seq: 0, chain: Promise.resolve(), banked: 0, startedAt: Date.now(), quietSince: null });
      const mr = new MediaRecorder(stream, mime ? { mimeType: mime } : undefined);
      x.mr = mr;
      mr.ondataavailable = (ev) => {
        if (!ev.data.size) return;
        const seq = x.seq++;
        const id = rec.id;
        x.chain = x.chain.then(async () => clinic.recordingAppend(id, seq, new Uint8Array(await ev.data.arrayBuffer()))).catch((e: unknown) => setSaveError(e));
      };
      mr.start(1000);
      // Level meter and silence detection from the same stream.
      const ctx = new AudioContext();
      x.ctx = ctx;
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 2048;
      ctx.createMediaStreamSource(stream).connect(analyser);
      const buf = new Float32Array(analyser.fftSize);
      const tick = () => {
        analyser.getFloatTimeDomainData(buf);
        let sum = 0;
        for (const v of buf) sum += v * v;
        const rms = Math.sqrt(sum / buf.length);
        setLevel(Math.min(1, rms * 4));
        if (x.mr?.state === 'recording') {
          if (rms < SILENCE_RMS) {
            x.quietSince ??= Date.now();
            setSilent(Date.now() - x.quietSince > SILENCE_WARN_MS);
          } else {
            x.quietSince = null;
            setSilent(false);
          }
        }
        x.raf = requestAnimationFrame(tick);
      };
      tick();
      x.timer = window.setInterval(() => setElapsed(x.banked + (x.mr?.state === 'recording' ? Date.now() - x.startedAt : 0)), 200);
      setState('recording');
      setElapsed(0);
    } catch (e) {
      cleanup();
      // Storage errors are DOMExceptions too, with names such as NotFoundError: only getUserMedia's are about the microphone.
      const name = micOpen ? undefined : (e as { name?: string }).name;
      const f = asFailure(e);
      setError(name === 'NotAllowedError'
        ? { status: 0, code: 'MIC_BLOCKED', message: 'Microphone access was refused. Allow the microphone for Clinic Desk (the icon in the address bar, or your system settings), then press Record again.' }
        : name === 'NotFoundError' || name === 'OverconstrainedError'
          ? { status: 0, code: 'NO_MIC', message: 'No microphone was found. Plug one in (or pick another in the list), then press Record again.' }
          : f.status === 0 && f.code === 'ERROR'
            ? { status: 0, code: 'RECORDING_NOT_STARTED', message: `Clinic Desk could not save audio on this computer (${f.message}), so nothing was recorded and the microphone is off. Reload Clinic Desk, then press Record again.` }
            : f);
    }
  }

  function pause() {
    const x = r.current;
    if (x.mr?.state !== 'recording') return;
    x.mr.pause();
    x.banked += Date.now() - x.startedAt;
    x.startedAt = 0;
    setElapsed(x.banked);
    setSilent(false);
    setState('paused');
  }

  function resume() {
    const x = r.current;
    if (x.mr?.state !== 'paused') return;
    x.mr.resume();
    x.startedAt = Date.now();
    x.quietSince = null;
    setState('recording');
  }

  async function stop(): Promise<Recording | null> {
    const x = r.current;
    if (!x.mr || !x.id) return null;
    if (x.mr.state === 'recording') x.banked += Date.now() - x.startedAt;
    x.startedAt = 0;
    setState('saving');
    const stopped = new Promise<void>((res) => x.mr!.addEventListener('stop', () => res(), { once: true }));
    x.mr.stop();
    await stopped;
    await x.chain;
    cleanup();
    x.mr = undefined;
    setElapsed(x.banked);
    try {
      return await clinic.recordingFinish(x.id, Math.round(x.banked / 100) / 10);
    } catch (e) {
      setFinishError(e);
      return null;
    } finally {
      setState('idle');
    }
  }

  return { state, level, silent, elapsed, error, saveError, finishError, start, pause, resume, stop };
}

function useMicrophones(active: boolean) {
  const [mics, setMics] = useState<MediaDeviceInfo[]>([]);
  useEffect(() => {
    const load = () => {
      void navigator.mediaDevices?.enumerateDevices().then((d) => setMics(d.filter((x) => x.kind === 'audioinput'))).catch(() => setMics([]));
    };
    load();
    navigator.mediaDevices?.addEventListener('devicechange', load);
    return () => navigator.mediaDevices?.removeEventListener('devicechange', load);
  }, [active]);
  return mics;
}

function TranscriptionProgress({ txnId, onDone, recordingHere = true }: { txnId: string; onDone?: () => void; recordingHere?: boolean }) {
  const status = useQuery({
    queryKey: ['dictation', txnId],
    queryFn: () => clinic.dictationStatus(txnId),
    refetchInterval: (q) => (q.state.data && q.state.data.state !== 'processing' ? false : 1000),
  });
  useEffect(() => {
    if (status.data && status.data.state !== 'processing') onDone?.();
  }, [status.data, onDone]);
  if (status.isError) return <ErrorNote error={status.error} onRetry={() => void status.refetch()} />;
  const s = status.data;
  if (!s || s.state === 'processing') {
    return (
      <div className="stack tight" data-testid="transcribing">
        <div className="row between"><strong>Transcribing…</strong><span className="small muted">{s?.stage ? `${s.stage}${s.percent !== null ? ` · ${Math.round(s.percent)}%` : ''}` : 'Waiting for the scribe service'}</span></div>
        <Progress value={s?.percent ?? null} label="Transcription progress" />
        <span className="small faint">You can leave this screen: the result is kept and listed below.</span>
      </div>
    );
  }
  if (s.state === 'failed') {
    return (
      <Note kind="error" title="Transcription failed">
        {s.errors.length ? <ul style={{ margin: '4px 0', paddingLeft: 18 }}>{s.errors.map((e) => <li key={e}>{e}</li>)}</ul> : <p>The scribe service gave no reason.</p>}
        {recordingHere && <p>The recording is still saved here: you can upload it again.</p>}
      </Note>
    );
  }
  return <Note kind="ok" title={s.state === 'partial' ? 'Transcribed, with some templates missing' : 'Transcribed'}>The result is below.</Note>;
}

/** The allergies in the patient's record, which the scribe checks this dictation's prescriptions against. */
function RecordAllergies({ patientId }: { patientId: string }) {
  const record = useQuery({ queryKey: ['patient', patientId], queryFn: () => clinic.getPatient(patientId), retry: false });
  if (!record.data) return null;
  const { allergies } = record.data;
  return (
    <span className="small" data-testid="patient-allergies">
      {allergies.length ? <>Allergies: <strong style={{ color: 'var(--danger)' }}>{allergies.join(', ')}</strong></> : <span className="muted">Allergies: none recorded</span>}
    </span>
  );
}

export default function Dictation({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const tz = session.workspace.timezone;
  const recorder = useRecorder();
  const mics = useMicrophones(recorder.state !== 'idle');
  const [mic, setMic] = useState('');
  const day = useQuery({ queryKey: ['day', clinicToday(tz)], queryFn: () => clinic.dayAppointments(clinicToday(tz)) });
  const [appointmentId, setAppointmentId] = useState('');
  /** A patient found by mobile (a walk-in, yesterday's patient): used when no appointment of today is chosen. */
  const [found, setFound] = useState<Patient | null>(null);
  const [templates, setTemplates] = useState<TemplateId[]>(['clinical_notes_template', 'service_emr_template', 'transcript_template']);
  const [language, setLanguage] = useState<Language>('en-IN');
  // Which languages the server recognises now: a model downloaded in Settings shows here on the next visit or focus.
  const languageList = useQuery({ queryKey: ['dictation-languages'], queryFn: () => clinic.dictationLanguages() });
  const support = languageList.data?.available ? new Map(languageList.data.value.map((l) => [l.id, l])) : null;
  const chosen = support?.get(language);
  const [mode, setMode] = useState<DictationOptions['mode']>('dictation');
  const [model, setModel] = useState<DictationOptions['model_type']>('pro');
  const [codify, setCodify] = useState(true);
  const [last, setLast] = useState<Recording | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [txn, setTxn] = useState<string | null>(null);
  /** When the shown result was recorded, for its title; null for the dictation just uploaded. */
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const recordings = useQuery({ queryKey: ['recordings'], queryFn: () => clinic.recordings() });
  const appt = day.data?.appointments.find((a) => a.appointment_id === appointmentId);
  /** Who the dictation is filed under; the appointment only when the patient was chosen from today's list. */
  const patient: { patient_id: string; patient_name: string; appointment_id?: string } | null = appt
    ? { patient_id: appt.patient_id, patient_name: appt.patient_name, appointment_id: appt.appointment_id }
    : found ? { patient_id: found.id, patient_name: found.name } : null;
  const history = useInfiniteQuery({
    queryKey: ['scribe-history', patient?.patient_id],
    queryFn: ({ pageParam }) => clinic.scribeHistory(patient!.patient_id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    enabled: !!patient,
  });
  const pastSessions = history.data?.pages.flatMap((p) => p.sessions) ?? [];
  const result = useQuery({
    queryKey: ['dictation', txn],
    queryFn: () => clinic.dictationStatus(txn!),
    enabled: false,
  });
  const finished = result.data && result.data.state !== 'processing' ? result.data : undefined;
  const refetchResult = result.refetch;
  // Stable, because TranscriptionProgress calls it from an effect that depends on it.
  const onTranscribed = useCallback(() => {
    void refetchResult();
    void qc.invalidateQueries({ queryKey: ['scribe-history'] });
  }, [refetchResult, qc]);
  /** Shows a session's result (or its progress, or why it failed) where a new dictation's result appears. */
  const openSession = (txnId: string, recordedAt: string, rec: Recording | null) => {
    setLast(rec);
    setTxn(txnId);
    setOpenedAt(recordedAt);
    void qc.fetchQuery({ queryKey: ['dictation', txnId], queryFn: () => clinic.dictationStatus(txnId) })
      .then(() => requestAnimationFrame(() => document.getElementById('dictation-result')?.scrollIntoView({ block: 'start' })), () => undefined);
  };

  const upload = useMutation({
    mutationFn: (rec: Recording) => clinic.uploadDictation(rec.id, { templates, language, mode, model_type: model, codify }, setProgress),
    onSuccess: (r) => {
      setTxn(r.txn_id);
      setOpenedAt(null);
      void qc.invalidateQueries({ queryKey: ['recordings'] });
      void qc.invalidateQueries({ queryKey: ['scribe-history'] });
    },
    onSettled: () => setProgress(null),
  });
  const discard = useMutation({
    mutationFn: (id: string) => clinic.recordingDiscard(id),
    onSuccess: (_, id) => {
      if (last?.id === id) setLast(null);
      void qc.invalidateQueries({ queryKey: ['recordings'] });
    },
  });
  /** A recording not yet uploaded, waiting for the doctor to confirm its discard: this computer has its only copy. */
  const [discarding, setDiscarding] = useState<Recording | null>(null);

  const onRecord = () => {
    setLast(null);
    setTxn(null);
    setOpenedAt(null);
    void recorder.start(mic, patient ?? {});
  };
  const onStop = async () => {
    const rec = await recorder.stop();
    setLast(rec);
    void qc.invalidateQueries({ queryKey: ['recordings'] });
  };
  const toggle = (t: TemplateId) => setTemplates((ts) => (ts.includes(t) ? ts.filter((x) => x !== t) : [...ts, t]));
  const busy = recorder.state !== 'idle';
  const mine = (recordings.data ?? []).filter((r) => !patient || r.patient_id === patient.patient_id);

  return (
    <div className="page">
      <div className="page-head">
        <div><h1>Dictation</h1><p className="muted">Record, and get a clinical note, structured EMR data and a transcript.</p></div>
      </div>
      <div className="grid-2">
        <div className="stack loose">
          <div className="card">
            <div className="card-head"><h2>Patient</h2></div>
            <div className="card-body stack">
              <Field label="Today's appointment" hint="The dictation is filed with this patient.">
                <select name="appointment" value={appointmentId} onChange={(e) => { setAppointmentId(e.target.value); setFound(null); }} disabled={busy}>
                  <option value="">{found ? 'None: patient found by mobile, below' : 'No patient (general dictation)'}</option>
                  {day.data?.appointments.filter((a) => a.status !== 'CN').map((a) => (
                    <option key={a.appointment_id} value={a.appointment_id}>{time(a.scheduled_at, tz)} · {a.patient_name}</option>
                  ))}
                </select>
              </Field>
              {found && (
                <div className="row between" data-testid="found-patient">
                  <span>Filed under <strong>{found.name}</strong> <span className="small muted num">{phone(found.mobile)}</span></span>
                  <button className="btn sm" type="button" disabled={busy} onClick={() => setFound(null)}>General dictation instead</button>
                </div>
              )}
              {patient && <RecordAllergies patientId={patient.patient_id} />}
              <span className="small muted">Not on today's list? Find the patient by mobile number:</span>
            </div>
            {/* While recording, the patient the recording was started for stays. */}
            {!busy && (
              <PatientSearch picked={found} onPick={(p) => { setFound(p); setAppointmentId(''); }}
                unknown="Check the number with the patient. New patients are registered on the Front desk screen." />
            )}
          </div>
          <div className="card">
            <div className="card-head"><h2>Output</h2></div>
            <div className="card-body stack">
              <div className="stack tight" role="group" aria-label="Templates">
                {(Object.keys(TEMPLATE_HELP) as TemplateId[]).map((t) => (
                  <label className="option-card" key={t}>
                    <input type="checkbox" checked={templates.includes(t)} onChange={() => toggle(t)} disabled={upload.isPending} />
                    <span><strong>{TEMPLATE_NAMES[t]}</strong><span className="small muted">{TEMPLATE_HELP[t]}</span></span>
                  </label>
                ))}
              </div>
              <div className="cols-2">
                <Field label="Language spoken"
                  hint={support && [...support.values()].some((l) => l.status === 'needs_model')
                    ? 'A language marked “needs a model download” works once an administrator downloads a speech model in Settings → Speech models.'
                    : undefined}>
                  <select name="language" value={language} onChange={(e) => setLanguage(e.target.value as Language)}>
                    {LANGUAGES.map(([id, name]) => {
                      const status = support?.get(id)?.status;
                      // A recording in a language the server cannot recognise would be refused when it is sent.
                      return <option key={id} value={id} disabled={status !== undefined && status !== 'ready'}>{name}{status ? LANGUAGE_LABEL[status] : ''}</option>;
                    })}
                  </select>
                </Field>
                <div className="field">
                  <span>Mode</span>
                  <div className="seg" role="group" aria-label="Mode">
                    <button type="button" aria-pressed={mode === 'dictation'} onClick={() => setMode('dictation')}>Dictation</button>
                    <button type="button" aria-pressed={mode === 'consultation'} onClick={() => setMode('consultation')}>Consultation</button>
                  </div>
                </div>
              </div>
              {chosen && chosen.status !== 'ready' && (
                <Note kind="warn" title={`${chosen.name} cannot be transcribed on this server yet`}>{chosen.reason}</Note>
              )}
              <div className="row between wrap">
                <div className="seg" role="group" aria-label="Accuracy">
                  <button type="button" aria-pressed={model === 'pro'} onClick={() => setModel('pro')}>Most accurate</button>
                  <button type="button" aria-pressed={model === 'lite'} onClick={() => setModel('lite')}>Fastest</button>
                </div>
                <label className="check"><input type="checkbox" checked={codify} onChange={(e) => setCodify(e.target.checked)} />Add ICD-10 codes</label>
              </div>
            </div>
          </div>
        </div>

        <div className="stack loose">
          <div className="card">
            <div className="card-head">
              <div><h2>Recorder</h2><p className="small muted">{patient ? `For ${patient.patient_name}` : 'Not linked to a patient'}</p></div>
              {recorder.state === 'recording' && <span className="row small" style={{ color: 'var(--danger)', fontWeight: 600 }}><span className="rec-dot" />Recording</span>}
              {recorder.state === 'paused' && <span className="chip PK">Paused</span>}
            </div>
            <div className="card-body recorder">
              <Field label="Microphone">
                <select name="microphone" value={mic} onChange={(e) => setMic(e.target.value)} disabled={busy}>
                  <option value="">System default</option>
                  {mics.filter((m) => m.deviceId && m.deviceId !== 'default').map((m, i) => <option key={m.deviceId} value={m.deviceId}>{m.label || `Microphone ${i + 1}`}</option>)}
                </select>
              </Field>
              <div className="row" style={{ gap: 20 }}>
                <div className="clock" aria-label="Elapsed time" data-testid="elapsed">{clock(recorder.elapsed)}</div>
                <div className="grow stack tight">
                  <span className="small muted">Input level</span>
                  <div className="meter" role="meter" aria-label="Microphone level" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(recorder.level * 100)} data-testid="level">
                    <div style={{ width: `${Math.round(recorder.level * 100)}%` }} />
                  </div>
                </div>
              </div>
              {recorder.silent && <Note kind="warn" title="No sound for a few seconds">Check the microphone is plugged in, not muted, and close enough; the level bar should move when you speak.</Note>}
              <ErrorNote error={recorder.error} />
              {recorder.saveError ? <ErrorNote error={recorder.saveError} /> : null}
              {recorder.finishError ? (
                <Note kind="error" title="The recording stopped, but could not be marked as finished">
                  <p>{explain(recorder.finishError).title}: {explain(recorder.finishError).detail}</p>
                  <p>{asFailure(recorder.finishError).code === 'NOT_FOUND'
                    ? 'It was discarded (perhaps in another window), so there is no audio left to upload. Press Record to start again.'
                    : 'The audio saved up to now is still on this computer: it is listed under Dictations as “Recovered (unfinished)”, where Upload sends it for transcription as it is.'}</p>
                </Note>
              ) : null}
              <div className="row">
                {recorder.state === 'idle' && <button className="btn record lg" type="button" onClick={onRecord}><Icon name="mic" />Record</button>}
                {recorder.state === 'recording' && <button className="btn lg" type="button" onClick={recorder.pause}>Pause</button>}
                {recorder.state === 'paused' && <button className="btn record lg" type="button" onClick={recorder.resume}>Resume</button>}
                {(recorder.state === 'recording' || recorder.state === 'paused') && <button className="btn primary lg" type="button" onClick={() => void onStop()}>Stop</button>}
                {recorder.state === 'saving' && <span className="row muted"><span className="spinner" />Saving the recording…</span>}
              </div>
              <p className="small faint">Audio is saved on this computer every second while you record, so nothing is lost if the app closes.</p>

              {last && (
                <div className="stack" style={{ borderTop: '1px solid var(--border)', paddingTop: 16 }}>
                  <div className="row between">
                    <div><strong>Recording ready</strong><div className="small muted">{clock((last.duration_s ?? 0) * 1000)} · {bytes(last.bytes)}</div></div>
                    <button className="btn primary" type="button" disabled={upload.isPending || templates.length === 0 || (!!txn && result.data?.state !== 'failed')}
                      onClick={() => upload.mutate(last)}>Upload and transcribe</button>
                  </div>
                  {templates.length === 0 && <span className="small" style={{ color: 'var(--warn)' }}>Pick at least one output template.</span>}
                  {progress && (
                    <div className="stack tight" data-testid="upload-progress">
                      <div className="row between small"><span>{progress.phase === 'uploading' ? 'Uploading audio…' : progress.phase === 'starting' ? 'Starting transcription…' : 'Preparing…'}</span><span className="num">{progress.total ? Math.round((progress.loaded / progress.total) * 100) : 0}%</span></div>
                      <Progress value={progress.total ? (progress.loaded / progress.total) * 100 : null} label="Upload progress" />
                    </div>
                  )}
                  <ErrorNote error={upload.error} />
                  {txn && <TranscriptionProgress txnId={txn} onDone={onTranscribed} />}
                </div>
              )}
            </div>
          </div>
        </div>
      </div>

      {txn && (
        <div id="dictation-result" className="stack loose">
          {!last && (!finished || finished.state === 'failed') && (
            <div className="card"><div className="card-body"><TranscriptionProgress txnId={txn} onDone={onTranscribed} recordingHere={false} /></div></div>
          )}
          {finished && finished.state !== 'failed' && finished.results.some((r) => r.json) && (
            <Results key={txn} status={finished} title={`Dictation${patient ? `: ${patient.patient_name}` : ''} · ${when(openedAt ?? new Date().toISOString())}`} />
          )}
        </div>
      )}

      <div className="card">
        <div className="card-head"><div><h2>{patient ? `Dictations for ${patient.patient_name}` : 'Dictations on this computer'}</h2><p className="small muted">Kept here until you discard them; an unfinished one survived a crash and can still be uploaded.</p></div></div>
        {patient && history.isError && <div className="card-body" style={{ paddingBottom: 0 }}><ErrorNote error={history.error} onRetry={() => void history.refetch()} /></div>}
        {patient && pastSessions.length > 0 && (
          <div className="card-body" style={{ paddingBottom: 0 }}>
            <div className="stack tight" data-testid="scribe-history">
              <span className="small muted">On the clinic server, newest first</span>
              {pastSessions.map((h) => <HistoryRow key={h.txn_id} h={h} onOpen={() => openSession(h.txn_id, h.created_at, null)} />)}
              {history.hasNextPage && (
                <div>
                  <button type="button" className="btn sm" disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
                    {history.isFetchingNextPage ? 'Loading older dictations…' : 'Show older dictations'}
                  </button>
                </div>
              )}
            </div>
          </div>
        )}
        <div className="card-body flush">
          {recordings.isPending && <Loading />}
          {recordings.isError && <div className="card-body"><ErrorNote error={recordings.error} /></div>}
          {discard.isError && <div className="card-body"><ErrorNote error={discard.error} /></div>}
          {/* The card lists the server's sessions and this computer's recordings: empty only when both are. */}
          {recordings.data && mine.length === 0 && pastSessions.length === 0 && !(patient && history.isPending) && (
            <Empty title="No dictations yet" icon="mic">Press Record to start one.</Empty>
          )}
          {mine.length > 0 && (
            <table aria-label="Recordings">
              <thead><tr><th>Recorded</th><th>Patient</th><th>Length</th><th>Status</th><th style={{ textAlign: 'right' }}>Actions</th></tr></thead>
              <tbody>
                {mine.map((r) => (
                  <tr key={r.id} data-testid="recording-row">
                    <td className="nowrap">{when(r.created_at)}</td>
                    <td>{r.patient_name ?? <span className="faint">—</span>}</td>
                    <td className="num">{r.duration_s !== null ? clock(r.duration_s * 1000) : '—'} <span className="small faint">· {r.chunks} chunks, {bytes(r.bytes)}</span></td>
                    <td>{r.txn_id ? <span className="chip CK">Uploaded</span> : r.finished ? <span className="chip BK">Saved</span> : <span className="chip PK">Recovered (unfinished)</span>}</td>
                    <td>
                      <div className="actions">
                        {r.txn_id && <button className="btn sm" type="button" onClick={() => openSession(r.txn_id!, r.created_at, r)}>Open result</button>}
                        {!r.txn_id && <button className="btn sm" type="button" disabled={upload.isPending || busy} onClick={() => { setLast(r); setTxn(null); upload.mutate(r); }}>Upload</button>}
                        <button className="btn sm danger" type="button" disabled={discard.isPending || busy} onClick={() => (r.txn_id ? discard.mutate(r.id) : setDiscarding(r))}>Discard</button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>

      {discarding && (
        <Dialog title="Discard this recording?" onClose={() => setDiscarding(null)}
          footer={<><button className="btn" type="button" onClick={() => setDiscarding(null)}>Keep it</button>
            <button className="btn danger" type="button" onClick={() => { discard.mutate(discarding.id); setDiscarding(null); }}>Discard recording</button></>}>
          <p>
            {discarding.patient_name ? `The dictation for ${discarding.patient_name}` : 'This dictation'} ({when(discarding.created_at)}, {bytes(discarding.bytes)}) has not been uploaded:
            this computer holds its only copy, and a discarded recording cannot be brought back.
          </p>
        </Dialog>
      )}
    </div>
  );
}
