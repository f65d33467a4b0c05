import { useQuery } from '@tanstack/react-query';
import { type ReactNode, createContext, Fragment, useContext, useEffect, useRef, useState } from 'react';
import type { DictationStatus, TemplateResult } from '../../../preload/contract';
import type { FlagCode } from '../../../server/clinical-nlp/facts';
import { clinic } from '../clinic';
import { Editor } from '../notes/Editor';
import type { Emr as EmrJson } from '../notes/emr';
import { PrescriptionPreview } from '../notes/Prescription';
import { ExportFhir } from '../notes/ExportFhir';
import { unnamed, useNote } from '../notes/useNote';
import { ErrorNote, Icon, Note, ReasonedButton, when } from '../ui';
import { KEPT_WITH_REASON } from '../../../server/notes/app-shapes';

type J = Record<string, unknown>;
const arr = (v: unknown): J[] => (Array.isArray(v) ? (v as J[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const qty = (v: unknown): string => {
  if (!v || typeof v !== 'object') return str(v);
  const q = v as J;
  return [str(q.value), str(q.unit)].filter(Boolean).join(' ');
};
/** What the prescription does with a drug that is not simply new: continued, changed, or one of alternatives. */
const statusNote = (m: J): string => {
  const was = qty(m.previous_strength);
  const alternatives = Array.isArray(m.alternatives) ? (m.alternatives as unknown[]).map(str).filter(Boolean) : [];
  return [
    m.status === 'continued' ? 'continue' : m.status === 'changed' ? (was ? `changed from ${was}` : 'dose changed') : '',
    alternatives.length ? `or ${alternatives.join(' or ')}` : '',
  ].filter(Boolean).join('; ');
};
const plural = (v: unknown): string => {
  const q = v as J | undefined;
  if (!q || typeof q !== 'object') return '';
  const n = Number(q.value);
  const unit = str(q.unit);
  return `${str(q.value)} ${unit}${n === 1 || !unit ? '' : 's'}`;
};
const cls = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;
const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

/** Where an item was said: character offsets [start, end) into the transcript's text, seconds when from audio. */
interface Span { start: number; end: number; start_s?: number }
/**
 * A safety flag of the EMR template: what to check, and the JSON pointer of the item it concerns; `key` when the
 * doctor can resolve it here (the note's working copy).
 */
interface Flag { code: string; message: string; pointer: string; key?: string }

/** The flag's kind in a word or two, after "Check": the doctor reads the sentence, this says what to look at. */
const FLAG_KINDS: Record<FlagCode, string> = {
  DOSE_UNIT: 'unit', DOSE_RANGE: 'dose', DAILY_MAX: 'daily total', ALLERGY_CONFLICT: 'allergy', DUPLICATE_THERAPY: 'duplicate',
  LOW_CONFIDENCE: 'unclear audio', FUZZY_MATCH: 'name guessed', UNRECOGNISED_DRUG: 'not in formulary',
  UNIT_NOT_SAID: 'unit not said', STRENGTH_MISSING: 'strength', STATUS_UNCLEAR: 'prescribed now?', VITAL_UNIT: 'unit assumed',
  STRENGTH_CONFLICT: 'which strength?',
};
// Read by code strings from the service: a code this build does not know has no kind.
const FLAG_KIND: Record<string, string | undefined> = FLAG_KINDS;
/** Flags that can harm if missed are shown in the danger colour; the others ask for a second look. */
const SERIOUS = new Set(['DOSE_UNIT', 'DOSE_RANGE', 'DAILY_MAX', 'ALLERGY_CONFLICT']);
/** A flag as data.output[].warnings carries it: "CODE /pointer: sentence". */
const FLAG_WARNING = /^([A-Z_]+) (\/\S*): ([\s\S]+)$/;

const readFlags = (v: unknown): Flag[] =>
  arr(v).filter((f) => typeof f.code === 'string' && typeof f.message === 'string' && typeof f.pointer === 'string') as unknown as Flag[];

/** Flags from warning strings, for results whose EMR JSON was not asked for: the same flags, without the JSON. */
function flagsInWarnings(warnings: string[]): Flag[] {
  const seen = new Set<string>();
  return warnings.flatMap((w) => {
    const m = FLAG_WARNING.exec(w);
    if (!m || !FLAG_KIND[m[1]!] || seen.has(w)) return [];
    seen.add(w);
    return [{ code: m[1]!, pointer: m[2]!, message: m[3]! }];
  });
}

/** The item a flag is shown on: "/medications/2/strength" is on the medication's row, "/vitals/bp" on its vital. */
function itemOf(pointer: string): string {
  const parts = pointer.split('/');
  return parts.slice(0, parts[1] === 'history' ? 4 : parts[1] === 'follow_up' ? 2 : 3).join('/');
}
const itemId = (pointer: string) => `emr${pointer.replace(/[^A-Za-z0-9]+/g, '-')}`;

function at(json: J, parts: string[]): unknown {
  let v: unknown = json;
  for (const p of parts) v = v && typeof v === 'object' ? (v as J)[p] : undefined;
  return v;
}

/** A span only when it lies inside the transcript shown: older sessions have none, and a bad one must not mark the wrong words. */
function spanIn(v: unknown, length: number): Span | null {
  const s = v as Partial<Span> | undefined;
  if (!s || typeof s.start !== 'number' || typeof s.end !== 'number') return null;
  return s.start >= 0 && s.end > s.start && s.end <= length ? (s as Span) : null;
}

/**
 * The evidence of the item at a JSON pointer: plain values (a vital, an advice line) are keyed by pointer in the
 * top-level evidence; objects carry their own; a medication's attribute is in its field_evidence.
 */
function evidenceAt(json: J, pointer: string, length: number): Span | null {
  const keyed = (json.evidence as J | undefined)?.[pointer];
  if (keyed !== undefined) return spanIn(keyed, length);
  const parts = pointer.split('/').slice(1);
  if (parts[0] === 'medications' && parts.length === 3) return spanIn(at(json, [...parts.slice(0, 2), 'field_evidence', parts[2]!]), length);
  return spanIn(at(json, [...parts, 'evidence']), length);
}

const VITALS: [key: string, label: string, value: (v: J) => string][] = [
  ['bp', 'BP', (v) => (v.bp ? `${str((v.bp as J).systolic)}/${str((v.bp as J).diastolic)} mmHg` : '')],
  ['pulse_bpm', 'Pulse', (v) => (v.pulse_bpm !== undefined ? `${str(v.pulse_bpm)} /min` : '')],
  ['temperature', 'Temperature', (v) => (v.temperature ? `${qty(v.temperature)}°`.replace(/ ([CF])°$/, ' °$1') : '')],
  ['spo2_percent', 'SpO₂', (v) => (v.spo2_percent !== undefined ? `${str(v.spo2_percent)} %` : '')],
  ['respiratory_rate', 'Resp. rate', (v) => (v.respiratory_rate !== undefined ? `${str(v.respiratory_rate)} /min` : '')],
  ['weight_kg', 'Weight', (v) => (v.weight_kg !== undefined ? `${str(v.weight_kg)} kg` : '')],
  ['height_cm', 'Height', (v) => (v.height_cm !== undefined ? `${str(v.height_cm)} cm` : '')],
  ['blood_glucose_mg_dl', 'Glucose', (v) => (v.blood_glucose_mg_dl !== undefined ? `${str(v.blood_glucose_mg_dl)} mg/dL` : '')],
];

/** What the doctor calls the item at a pointer, for the summary of flags and the transcript's caption. */
function describe(json: J | null, pointer: string): string {
  const [, list, index, field] = pointer.split('/');
  const item = json && list ? (at(json, [list, index ?? '']) as J | undefined) : undefined;
  const named = str(item?.brand) || str(item?.name);
  if (list === 'medications') return `${named || 'A medicine'}${field ? ` (${field})` : ''}`;
  if (list === 'diagnoses' || list === 'chief_complaints' || list === 'investigations') return named || 'An item';
  if (list === 'vitals') return VITALS.find(([k]) => k === index)?.[1] ?? 'A vital';
  if (list === 'advice') return 'Advice';
  if (list === 'follow_up') return 'Follow-up';
  if (list === 'history' && index === 'allergies') return `Allergy: ${str(at(json ?? {}, ['history', 'allergies', field ?? '']))}`;
  return 'The note';
}

interface Evidence {
  spanOf(pointer: string): Span | null;
  selected: string | null;
  select(pointer: string): void;
  flagsOn(item: string): Flag[];
  flagged(pointer: string): boolean;
  /** Resolves a flag as checked and kept as it is (with why, where its code needs it); null when flags cannot be resolved here. */
  keep: ((key: string, reason?: string) => void) | null;
}
const EvidenceContext = createContext<Evidence | null>(null);

/** Words of the note that show, when pressed, where they were said; plain words when there is no evidence. */
function Said({ at: pointer, children }: { at: string; children: ReactNode }) {
  const ev = useContext(EvidenceContext);
  if (!ev?.spanOf(pointer)) return <>{children}</>;
  return (
    <button type="button" className="said" aria-pressed={ev.selected === pointer} title="Show where this was said"
      // A field inside a medication's row is its own item: the row's click must not take it back.
      onClick={(e) => { e.stopPropagation(); ev.select(pointer); }}>
      {children}
    </button>
  );
}

/**
 * "Keep as is": one press for a flag that asks for a second look; for an allergy conflict or a dose outside the
 * usual range, the doctor says why first (the signed version keeps it).
 */
function KeepButton({ flag, keep }: { flag: Flag & { key: string }; keep: (key: string, reason?: string) => void }) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  if (!KEPT_WITH_REASON.has(flag.code)) {
    return (
      <button type="button" className="btn sm keep-btn no-print" title="You checked it and it is right: the flag is resolved, the item stays as it is"
        onClick={(e) => { e.stopPropagation(); keep(flag.key); }}>Keep as is</button>
    );
  }
  if (!asking) {
    return <button type="button" className="btn sm keep-btn no-print" onClick={(e) => { e.stopPropagation(); setAsking(true); }}>Keep as is…</button>;
  }
  return (
    <form className="keep-reason no-print row wrap" onClick={(e) => e.stopPropagation()}
      onSubmit={(e) => { e.preventDefault(); if (reason.trim()) keep(flag.key, reason.trim()); }}>
      <label className="field grow"><span>Why keep it as is?</span>
        <input className="input" autoFocus maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="e.g. tolerated it before without a reaction" />
      </label>
      <button className="btn sm" type="button" onClick={() => setAsking(false)}>Cancel</button>
      <ReasonedButton className="btn sm primary" type="submit" why={reason.trim() ? null : 'Say why first: it is kept with the signed note.'}>Keep as is</ReasonedButton>
    </form>
  );
}

function FlagNotes({ flags }: { flags: Flag[] }) {
  const ev = useContext(EvidenceContext);
  if (flags.length === 0) return null;
  return (
    <ul className="flag-notes" data-testid="flag-notes">
      {flags.map((f, i) => (
        <li key={i} className={cls('flag-note', SERIOUS.has(f.code) && 'serious')}>
          <span className="flag-label"><Icon name="alert" size={12} />Check{FLAG_KIND[f.code] ? `: ${FLAG_KIND[f.code]}` : ''}</span>
          <span>{f.message}</span>
          {ev?.keep && f.key && <KeepButton flag={{ ...f, key: f.key }} keep={ev.keep} />}
        </li>
      ))}
    </ul>
  );
}

/** The line at the top: how many items to check, each a link to where it stands in the EMR. */
function FlagSummary({ flags, json, onJump }: { flags: Flag[]; json: J | null; onJump: ((item: string) => void) | null }) {
  const items = new Map<string, Flag[]>();
  for (const f of flags) items.set(itemOf(f.pointer), [...(items.get(itemOf(f.pointer)) ?? []), f]);
  const n = items.size;
  return (
    <section className={cls('flag-summary', flags.some((f) => SERIOUS.has(f.code)) && 'serious')} aria-labelledby="flag-summary-title" data-testid="flag-summary">
      <div className="row">
        <Icon name="alert" size={18} />
        <strong id="flag-summary-title">{n} {n === 1 ? 'item' : 'items'} to check</strong>
        <span className="small">before this note is used</span>
      </div>
      <ul>
        {[...items].map(([item, fs]) => (
          <li key={item}>
            {onJump
              ? <button type="button" className="link-btn" onClick={() => onJump(item)}>{describe(json, item)}</button>
              : <strong>{describe(json, item)}</strong>}
            {': '}{fs.map((f) => f.message).join(' ')}
          </li>
        ))}
      </ul>
    </section>
  );
}

function CodeChip({ code }: { code: J }) {
  const system = str(code.system);
  const c = str(code.code);
  const href = /ICD-10/i.test(system) ? `https://icd.who.int/browse10/2019/en#/${encodeURIComponent(c)}` : /LOINC/i.test(system) ? `https://loinc.org/${encodeURIComponent(c)}` : undefined;
  const label = `${system} ${c}${str(code.display) ? `: ${str(code.display)}` : ''}`;
  return href
    ? <a className="chip code" href={href} target="_blank" rel="noreferrer" title={label} aria-label={label}>{c}</a>
    : <span className="chip code" title={label}>{c}</span>;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return <section className="note-section"><h4>{title}</h4>{children}</section>;
}

function ClinicalNotes({ json }: { json: J }) {
  const sections = arr(json.sections);
  if (sections.length === 0) return <p className="muted">The dictation did not give anything to put in the note.</p>;
  return <div>{sections.map((s, i) => <Section key={`${str(s.id)}-${i}`} title={str(s.title)}><p>{str(s.text)}</p></Section>)}</div>;
}

/** An item's place in the note: the summary jumps to it by id, its flags and selection show on it. */
const placeOf = (ev: Evidence) => (pointer: string, className?: string) => ({
  id: itemId(pointer),
  tabIndex: -1,
  className: cls(className, 'emr-item', ev.flagsOn(pointer).length > 0 && 'flagged',
    (ev.selected === pointer || ev.selected?.startsWith(`${pointer}/`)) && 'selected'),
});

/** Under an item in the editor: where it was said (when known) and its flags. */
function EditorNotes({ pointer }: { pointer: string }) {
  const ev = useContext(EvidenceContext)!;
  const flags = ev.flagsOn(pointer);
  if (!ev.spanOf(pointer) && flags.length === 0) return null;
  return (
    <div className="ed-notes">
      {ev.spanOf(pointer) && <Said at={pointer}><span className="small">Show where this was said</span></Said>}
      <FlagNotes flags={flags} />
    </div>
  );
}

function Emr({ json }: { json: J }) {
  const ev = useContext(EvidenceContext)!;
  const place = placeOf(ev);
  const complaints = arr(json.chief_complaints);
  const history = (json.history ?? {}) as J;
  const vitals = (json.vitals ?? {}) as J;
  const diagnoses = arr(json.diagnoses);
  const meds = arr(json.medications);
  const conditional = arr(json.conditional_medications);
  const inv = arr(json.investigations);
  const advice = Array.isArray(json.advice) ? (json.advice as unknown[]).map(str) : [];
  const exam = Array.isArray(json.examination) ? (json.examination as unknown[]).map(str) : [];
  const follow = json.follow_up as J | undefined;
  const vitalList = VITALS.map(([k, label, value]) => [k, label, value(vitals)] as const).filter(([, , v]) => v);
  const histLines: { text: string; pointer?: string }[] = [
    { text: str(history.present_illness) },
    ...(Array.isArray(history.past) ? (history.past as unknown[]).map((s) => ({ text: typeof s === 'string' ? `Past: ${s}` : '' })) : []),
    ...(Array.isArray(history.family) ? (history.family as unknown[]).map((s) => ({ text: `Family: ${str(s)}` })) : []),
    ...(Array.isArray(history.allergies) ? (history.allergies as unknown[]).map((s, i) => ({ text: `Allergy: ${str(s)}`, pointer: `/history/allergies/${i}` })) : []),
  ].filter((h, i, all) => h.text && all.findIndex((x) => x.text === h.text) === i);
  const nothing = !complaints.length && !vitalList.length && !diagnoses.length && !meds.length && !inv.length && !advice.length && !follow && !histLines.length && !exam.length;
  if (nothing) return <p className="muted">Nothing structured was found in the dictation.</p>;
  return (
    <div>
      {complaints.length > 0 && (
        <Section title="Chief complaints">
          <ul>{complaints.map((c, i) => {
            const p = `/chief_complaints/${i}`;
            return (
              <li key={i} {...place(p)}>
                <Said at={p}><strong>{str(c.name)}</strong>{c.duration ? ` for ${plural(c.duration)}` : ''}{str(c.notes) ? ` (${str(c.notes)})` : ''}</Said>
                <FlagNotes flags={ev.flagsOn(p)} />
              </li>
            );
          })}</ul>
        </Section>
      )}
      {histLines.length > 0 && (
        <Section title="History">
          <ul>{histLines.map((h) => (h.pointer
            ? <li key={h.text} {...place(h.pointer)}><Said at={h.pointer}>{h.text}</Said><FlagNotes flags={ev.flagsOn(h.pointer)} /></li>
            : <li key={h.text}>{h.text}</li>))}</ul>
        </Section>
      )}
      {vitalList.length > 0 && (
        <Section title="Vitals">
          <div className="vitals">{vitalList.map(([k, label, v]) => {
            const p = `/vitals/${k}`;
            return (
              <div key={k} {...place(p, 'vital')}>
                <Said at={p}><span>{label}</span><strong>{v}</strong></Said>
                <FlagNotes flags={ev.flagsOn(p)} />
              </div>
            );
          })}</div>
        </Section>
      )}
      {exam.length > 0 && <Section title="Examination"><ul>{exam.map((e, i) => <li key={i}><Said at={`/examination/${i}`}>{e}</Said></li>)}</ul></Section>}
      {diagnoses.length > 0 && (
        <Section title="Diagnosis">
          <div className="stack tight">
            {diagnoses.map((d, i) => {
              const p = `/diagnoses/${i}`;
              return (
                <div key={i} {...place(p)}>
                  <div className="row wrap">
                    <Said at={p}><strong>{str(d.name)}</strong></Said>
                    {str(d.certainty) === 'suspected' && <span className="chip outline">suspected</span>}
                    {arr(d.codes).map((c) => <CodeChip key={`${str(c.system)}${str(c.code)}`} code={c} />)}
                  </div>
                  <FlagNotes flags={ev.flagsOn(p)} />
                </div>
              );
            })}
          </div>
        </Section>
      )}
      {meds.length > 0 && (
        <Section title="Medications">
          <table className="med-table" aria-label="Medications">
            <thead><tr><th>Medicine</th><th>Strength</th><th>Dose</th><th>Frequency</th><th>Duration</th><th>Instructions</th></tr></thead>
            <tbody>
              {meds.map((m, i) => {
                const p = `/medications/${i}`;
                const freq = (m.frequency ?? {}) as J;
                const flags = ev.flagsOn(p);
                const heard = str(m.match) && str(m.match) !== 'exact' ? str(m.heard) : '';
                const cell = (field: string, content: ReactNode, className?: string) => (
                  <td className={cls(className, ev.flagged(`${p}/${field}`) && 'flag-field')}><Said at={`${p}/${field}`}>{content}</Said></td>
                );
                const instructions = [['timing', str(m.timing)], ['instructions', str(m.instructions)]].filter(([, t]) => t);
                return (
                  <Fragment key={i}>
                    <tr {...place(p)} onClick={ev.spanOf(p) ? () => ev.select(p) : undefined}>
                      <td className={cls(ev.flagged(`${p}/name`) && 'flag-field')}>
                        <Said at={p}><strong>{str(m.brand) || str(m.name)}</strong></Said>
                        {str(m.brand) && str(m.name) ? <div className="small muted">{str(m.name)}</div> : null}
                        {str(m.form) ? <div className="small faint">{str(m.form)}{str(m.route) ? `, ${str(m.route)}` : ''}</div> : null}
                        {heard && heard.toLowerCase() !== str(m.name).toLowerCase() ? <div className="small muted">heard “{heard}”</div> : null}
                        {statusNote(m) ? <div className="small muted">{statusNote(m)}</div> : null}
                      </td>
                      {cell('strength', qty(m.strength) || '—', 'nowrap')}
                      {cell('dose', qty(m.dose) || '—', 'nowrap')}
                      {cell('frequency', <>{str(freq.pattern) ? <span className="mono">{str(freq.pattern)}</span> : null}{str(freq.text) ? <div className="small muted">{str(freq.text)}</div> : null}{!str(freq.pattern) && !str(freq.text) ? '—' : null}</>)}
                      {cell('duration', m.duration ? plural(m.duration) : '—', 'nowrap')}
                      <td className={cls('small', instructions.some(([f]) => ev.flagged(`${p}/${f}`)) && 'flag-field')}>
                        {instructions.length
                          ? instructions.map(([f, t], k) => <Fragment key={f}>{k > 0 && '; '}<Said at={`${p}/${f}`}>{t}</Said></Fragment>)
                          : '—'}
                      </td>
                    </tr>
                    {flags.length > 0 && <tr className="flag-row"><td colSpan={6}><FlagNotes flags={flags} /></td></tr>}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </Section>
      )}
      {conditional.length > 0 && (
        <Section title="Not prescribed: only if needed later">
          <ul aria-label="Conditional medications">
            {conditional.map((m, i) => (
              <li key={i}><strong>{str(m.brand) || str(m.name)}</strong>{qty(m.strength) ? ` ${qty(m.strength)}` : ''}: {str(m.condition)}</li>
            ))}
          </ul>
        </Section>
      )}
      {inv.length > 0 && (
        <Section title="Investigations">
          <div className="stack tight">{inv.map((x, i) => {
            const p = `/investigations/${i}`;
            return (
              <div key={i} {...place(p)}>
                <div className="row wrap"><Said at={p}>{str(x.name)}</Said>{arr(x.codes).map((c) => <CodeChip key={str(c.code)} code={c} />)}</div>
                <FlagNotes flags={ev.flagsOn(p)} />
              </div>
            );
          })}</div>
        </Section>
      )}
      {advice.length > 0 && (
        <Section title="Advice">
          <ul>{advice.map((a, i) => <li key={i} {...place(`/advice/${i}`)}><Said at={`/advice/${i}`}>{a}</Said><FlagNotes flags={ev.flagsOn(`/advice/${i}`)} /></li>)}</ul>
        </Section>
      )}
      {follow && (
        <Section title="Follow-up">
          <div {...place('/follow_up')}>
            <p><Said at="/follow_up">{follow.after ? `After ${plural(follow.after)}` : ''}{str(follow.notes) ? `${follow.after ? '. ' : ''}${str(follow.notes).charAt(0).toUpperCase()}${str(follow.notes).slice(1)}` : ''}</Said></p>
            <FlagNotes flags={ev.flagsOn('/follow_up')} />
          </div>
        </Section>
      )}
    </div>
  );
}

/** Where each segment's text starts in the transcript's text (the text is the segments joined); null if it is not. */
function segmentStarts(text: string, segments: J[]): number[] | null {
  const starts: number[] = [];
  let from = 0;
  for (const s of segments) {
    const i = text.indexOf(str(s.text), from);
    if (i < 0) return null;
    starts.push(i);
    from = i + str(s.text).length;
  }
  return starts;
}

/** `piece` (which starts at `offset` in the transcript's text) with the part inside `mark` in a <mark>. */
function marked(piece: string, offset: number, mark: Span | null): ReactNode {
  if (!mark) return piece;
  const from = Math.max(0, mark.start - offset);
  const to = Math.min(piece.length, mark.end - offset);
  if (from >= to) return piece;
  return <>{piece.slice(0, from)}<mark>{piece.slice(from, to)}</mark>{piece.slice(to)}</>;
}

function Transcript({ json, mark = null }: { json: J | null; mark?: Span | null }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    const m = el?.querySelector('mark');
    if (!el || !m) return;
    // The transcript scrolls in its own box: bring the words to its upper third, then the box into view if it is not.
    el.scrollTop += m.getBoundingClientRect().top - el.getBoundingClientRect().top - el.clientHeight / 3;
    const r = m.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) m.scrollIntoView({ block: 'nearest' });
  }, [mark?.start, mark?.end]);
  if (!json) return <p className="muted">No transcript was requested for this dictation.</p>;
  const text = str(json.text);
  const segments = arr(json.segments);
  const starts = segments.length > 0 ? segmentStarts(text, segments) : null;
  return (
    <div className="transcript" data-testid="transcript" ref={box}>
      {segments.length > 0 && (starts || !mark)
        ? segments.map((s, i) => <div key={i}><span className="t">{clock(Number(s.start) || 0)}</span>{starts ? marked(str(s.text), starts[i]!, mark) : str(s.text)}</div>)
        : text ? marked(text, 0, mark) : <span className="muted">No speech was recognised.</span>}
    </div>
  );
}

export const asText = (r: TemplateResult): string => {
  const j = r.json ?? {};
  if (r.template_id === 'clinical_notes_template') return str(j.markdown) || arr(j.sections).map((s) => `${str(s.title)}\n${str(s.text)}`).join('\n\n');
  if (r.template_id === 'transcript_template') return str(j.text);
  return JSON.stringify(j, null, 2);
};

/** The note's state in a line: signed (version, who, when) or draft, and how the working copy is saved. */
function NoteBadge({ note }: { note: ReturnType<typeof useNote> }) {
  const v = note.versions.data;
  if (!v) return null;
  const last = v.versions.at(-1);
  if (v.status !== 'draft' && last) {
    return (
      <span className="row" data-testid="note-badge">
        <span className="chip signed"><Icon name="check" size={12} />{v.status === 'amended' ? 'Amended' : 'Signed'} · version {v.latest_version}</span>
        <span className="small muted">by {last.created_by_name ?? 'a doctor'}, {when(last.created_at)}{last.reason ? `: “${last.reason}”` : ''}</span>
      </span>
    );
  }
  const saving = note.save.isPending ? 'Saving…' : note.unsaved ? 'Changes not saved yet' : note.save.isSuccess || note.draft.data?.edited ? 'Draft saved' : null;
  return (
    <span className="row" data-testid="note-badge">
      <span className="chip outline">Draft, not signed</span>
      {saving && <span className="small muted" role="status">{saving}</span>}
    </span>
  );
}

/** A finished dictation: each template rendered for reading, the transcript beside it, copy and print; the doctor edits, signs and amends the note. */
export function Results({ status, title }: { status: DictationStatus; title: string }) {
  const shown = status.results.filter((r) => r.template_id !== 'transcript_template');
  const transcript = status.results.find((r) => r.template_id === 'transcript_template');
  const session = useQuery({ queryKey: ['session'], queryFn: () => clinic.session(), staleTime: Infinity });
  const user = session.data?.user;
  const isDoctor = user?.role === 'doctor';
  const [tab, setTab] = useState(0);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const [selected, setSelected] = useState<string | null>(null);
  const [jump, setJump] = useState<string | null>(null);
  const [printing, setPrinting] = useState(false);
  const current = shown[tab] ?? transcript;
  const emrTab = shown.findIndex((r) => r.json && r.template_id !== 'clinical_notes_template');
  const statusEmr = (shown[emrTab]?.json ?? null) as EmrJson | null;
  const note = useNote(status.txn_id, status.state === 'completed' || status.state === 'partial' ? statusEmr : null, isDoctor);
  const emr = note.emr as J | null;
  const noteFlags: Flag[] | null = note.work ? note.flags : null;
  const flags = noteFlags ?? (emr && Array.isArray(emr.flags) ? readFlags(emr.flags).filter((f) => !(f as { resolution?: string }).resolution) : flagsInWarnings(shown.flatMap((r) => r.warnings)));
  const text = str(transcript?.json?.text);
  const spanOf = (pointer: string) => (emr ? evidenceAt(emr, pointer, text.length) : null);
  const evidence: Evidence = {
    spanOf,
    selected,
    select: (pointer) => setSelected((s) => (s === pointer ? null : pointer)),
    flagsOn: (item) => flags.filter((f) => itemOf(f.pointer) === item),
    flagged: (pointer) => flags.some((f) => f.pointer === pointer),
    keep: note.work && isDoctor ? note.keep : null,
  };
  const mark = selected ? spanOf(selected) : null;
  const openTab = (i: number) => {
    setTab(i);
    setSelected(null);
  };
  const jumpTo = (item: string) => {
    setTab(emrTab);
    setSelected(spanOf(item) ? item : null);
    setJump(item);
  };
  useEffect(() => {
    if (!jump) return;
    const el = document.getElementById(itemId(jump));
    el?.scrollIntoView({ block: 'center' });
    (el?.querySelector<HTMLElement>('button.said') ?? el)?.focus({ preventScroll: true });
    setJump(null);
  }, [jump]);
  const copy = async () => {
    if (!current) return;
    // The browser may refuse (no permission, window not focused): say so rather than let a paste bring old text.
    const ok = await navigator.clipboard.writeText(asText(current)).then(() => true, () => false);
    setCopied(ok ? 'yes' : 'failed');
    setTimeout(() => setCopied('no'), ok ? 2000 : 6000);
  };
  const editing = note.mode !== 'view' && !!note.work;
  const edit = () => {
    note.setMode('edit');
    setTab(emrTab);
  };
  const amend = () => {
    note.startAmendment();
    setTab(emrTab);
  };
  const signed = note.versions.data && note.versions.data.status !== 'draft';
  const blank = note.work ? unnamed(note.work.emr) : 0;
  const unfinished = note.invalid.size > 0 ? 'Fix the fields marked in red first.'
    : blank > 0 ? `${blank} ${blank === 1 ? 'row has' : 'rows have'} no name: name ${blank === 1 ? 'it' : 'them'} or remove ${blank === 1 ? 'it' : 'them'} first.` : null;
  const whyNotSign = !isDoctor ? 'Only a doctor can sign a note.'
    : !note.work ? 'Loading the note…'
    : flags.length > 0 ? `Resolve ${flags.length === 1 ? 'the flagged item' : `the ${flags.length} flags`} first: edit it, or press Keep as is.`
    : unfinished ?? (note.sign.isPending ? 'Signing…' : null);
  const whyNotAmend = !note.reason.trim() ? 'Give the reason for the amendment first.'
    : note.work?.rev === 0 ? 'Change the note first.' : unfinished ?? (note.amend.isPending ? 'Saving…' : null);
  // Flags are listed in the summary above: the warning note keeps only what they do not say.
  const otherWarnings = current?.warnings.filter((w) => !flagsInWarnings([w]).length) ?? [];
  const onEmr = emrTab >= 0 && current === shown[emrTab];
  const hasEvidence = !!emr && onEmr && (
    Object.keys((emr.evidence ?? {}) as J).some((p) => spanOf(p))
    || ['chief_complaints', 'diagnoses', 'medications', 'investigations'].some((k) => arr(emr[k]).some((_, i) => spanOf(`/${k}/${i}`)))
    || !!spanOf('/follow_up'));
  return (
    <div className="grid-result" data-testid="scribe-result">
      <div className="card print-note">
        <div className="print-only" style={{ padding: '0 0 12px' }}><h1>{title}</h1></div>
        {shown.length > 0 && (
          <div className="tabs" role="tablist">
            {shown.map((r, i) => <button key={r.template_id} role="tab" type="button" aria-selected={i === tab} onClick={() => openTab(i)}>{r.name}</button>)}
          </div>
        )}
        <div className="card-body stack">
          <div className="row between no-print">
            <span className="small muted">{status.state === 'partial' ? 'Some templates could not be made.' : signed ? 'The signed note.' : 'Review before use: this was written by software from speech.'}</span>
            <div className="row">
              <button className="btn sm" type="button" onClick={copy} disabled={!current}><Icon name="copy" size={14} />{copied === 'yes' ? 'Copied' : 'Copy'}</button>
              <button className="btn sm" type="button" onClick={() => window.print()}><Icon name="print" size={14} />Print</button>
            </div>
          </div>
          {note.versions.data && (
            <div className="note-bar no-print" data-testid="note-bar">
              <NoteBadge note={note} />
              <div className="row wrap note-actions">
                {!signed && isDoctor && note.work && (
                  editing
                    ? <button className="btn sm" type="button" onClick={() => note.setMode('view')}>Done editing</button>
                    : <button className="btn sm" type="button" onClick={edit}>Edit note</button>
                )}
                {!signed && <ReasonedButton className="btn sm primary" type="button" why={whyNotSign} onClick={() => note.sign.mutate()}><Icon name="check" size={14} />Sign</ReasonedButton>}
                {signed && isDoctor && note.mode !== 'amend' && <button className="btn sm" type="button" onClick={amend}>Amend</button>}
                {signed && <button className="btn sm" type="button" onClick={() => setPrinting(true)}><Icon name="print" size={14} />Prescription</button>}
                {signed && <ExportFhir txnId={status.txn_id} version={note.versions.data.latest_version} />}
              </div>
            </div>
          )}
          {note.mode === 'amend' && note.work && (
            <div className="amend-bar no-print" role="group" aria-label="Amendment">
              <label className="field grow"><span>Reason for the amendment</span>
                <input className="input" value={note.reason} maxLength={1000} onChange={(e) => note.setReason(e.target.value)} placeholder="e.g. dose corrected after the patient's call" />
              </label>
              <div className="row">
                <button className="btn sm" type="button" onClick={note.cancelAmendment}>Cancel</button>
                <ReasonedButton className="btn sm primary" type="button" why={whyNotAmend} onClick={() => note.amend.mutate()}>Save amendment</ReasonedButton>
              </div>
            </div>
          )}
          <ErrorNote error={note.sign.error ?? note.amend.error ?? note.save.error ?? (isDoctor ? note.draft.error : null)} />
          {copied === 'failed' && <Note kind="error" title="Could not copy">This window was not allowed to use the clipboard. Select the text below and press Ctrl+C.</Note>}
          {flags.length > 0 && <FlagSummary flags={flags} json={emr} onJump={emrTab >= 0 ? jumpTo : null} />}
          {current && current.status === 'failure' && <Note kind="error" title={`${current.name} could not be made`}>{current.errors.join(' ') || 'The service gave no reason.'}</Note>}
          {otherWarnings.length > 0 && <Note kind="warn" title="Check these">{otherWarnings.join(' ')}</Note>}
          {current?.json && current.template_id === 'clinical_notes_template' && <ClinicalNotes json={current.json} />}
          {onEmr && emr && (
            <EvidenceContext.Provider value={evidence}>
              {editing && note.work
                ? <Editor onLeaveField={note.flush} emr={note.work.emr} set={note.editing.set} add={note.editing.add} remove={note.editing.remove} valid={note.editing.valid}
                    place={placeOf(evidence)} decorate={(p) => <EditorNotes pointer={p} />} />
                : <Emr json={emr} />}
            </EvidenceContext.Provider>
          )}
          {current?.json && current.template_id === 'transcript_template' && <Transcript json={current.json} />}
        </div>
      </div>
      <div className="card transcript-card">
        <div className="card-head"><h3>Transcript</h3>{transcript?.json && <span className="chip">{str(transcript.json.language)}</span>}</div>
        <div className="card-body stack tight">
          <p className="small muted no-print" role="status" aria-live="polite" data-testid="evidence-status">
            {mark && selected
              ? <>Highlighted where {describe(emr, selected)} was said{mark.start_s !== undefined ? ` (at ${clock(mark.start_s)})` : ''}<span className="sr-only">: {text.slice(mark.start, mark.end)}</span></>
              : hasEvidence ? 'Select an item of the note to see where it was said.' : null}
          </p>
          <Transcript json={transcript?.json ?? null} mark={mark} />
        </div>
      </div>
      {printing && session.data && (
        <PrescriptionPreview txnId={status.txn_id} patientId={note.versions.data?.patient_id ?? null} me={session.data.user.id}
          timeZone={session.data.workspace.timezone} clinicName={session.data.workspace.name} onClose={() => setPrinting(false)} />
      )}
    </div>
  );
}
