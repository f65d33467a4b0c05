import { useState } from 'react';
import type { DictationStatus, TemplateResult } from '../../../preload/contract';
import { Icon, Note } from '../ui';

type J = Record<string, unknown>;
const arr = (v: unknown): J[] => (Array.isArray(v) ? (v as J[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const qty = (v: unknown): string => {
  if (!v || typeof v !== 'object') return str(v);
  const q = v as J;
  return [str(q.value), str(q.unit)].filter(Boolean).join(' ');
};
const plural = (v: unknown): string => {
  const q = v as J | undefined;
  if (!q || typeof q !== 'object') return '';
  const n = Number(q.value);
  const unit = str(q.unit);
  return `${str(q.value)} ${unit}${n === 1 || !unit ? '' : 's'}`;
};

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

function Emr({ json }: { json: J }) {
  const complaints = arr(json.chief_complaints);
  const history = (json.history ?? {}) as J;
  const vitals = (json.vitals ?? {}) as J;
  const diagnoses = arr(json.diagnoses);
  const meds = arr(json.medications);
  const inv = arr(json.investigations);
  const advice = Array.isArray(json.advice) ? (json.advice as unknown[]).map(str) : [];
  const exam = Array.isArray(json.examination) ? (json.examination as unknown[]).map(str) : [];
  const follow = json.follow_up as J | undefined;
  const bp = vitals.bp as J | undefined;
  const vitalList: [string, string][] = [
    ['BP', bp ? `${str(bp.systolic)}/${str(bp.diastolic)} mmHg` : ''],
    ['Pulse', vitals.pulse_bpm !== undefined ? `${str(vitals.pulse_bpm)} /min` : ''],
    ['Temperature', vitals.temperature ? `${qty(vitals.temperature)}°`.replace(/ ([CF])°$/, ' °$1') : ''],
    ['SpO₂', vitals.spo2_percent !== undefined ? `${str(vitals.spo2_percent)} %` : ''],
    ['Resp. rate', vitals.respiratory_rate !== undefined ? `${str(vitals.respiratory_rate)} /min` : ''],
    ['Weight', vitals.weight_kg !== undefined ? `${str(vitals.weight_kg)} kg` : ''],
    ['Height', vitals.height_cm !== undefined ? `${str(vitals.height_cm)} cm` : ''],
    ['Glucose', vitals.blood_glucose_mg_dl !== undefined ? `${str(vitals.blood_glucose_mg_dl)} mg/dL` : ''],
  ].filter(([, v]) => v) as [string, string][];
  const histLines = [
    str(history.present_illness),
    ...(Array.isArray(history.past) ? (history.past as unknown[]).map((s) => (typeof s === 'string' ? `Past: ${s}` : '')) : []),
    ...(Array.isArray(history.family) ? (history.family as unknown[]).map((s) => `Family: ${str(s)}`) : []),
    ...(Array.isArray(history.allergies) ? (history.allergies as unknown[]).map((s) => `Allergy: ${str(s)}`) : []),
  ].filter(Boolean);
  const nothing = !complaints.length && !vitalList.length && !diagnoses.length && !meds.length && !inv.length && !advice.length && !follow && !histLines.length && !exam.length;
  if (nothing) return <p className="muted">Nothing structured was found in the dictation.</p>;
  return (
    <div>
      {complaints.length > 0 && (
        <Section title="Chief complaints">
          <ul>{complaints.map((c, i) => <li key={i}><strong>{str(c.name)}</strong>{c.duration ? ` for ${plural(c.duration)}` : ''}{str(c.notes) ? ` (${str(c.notes)})` : ''}</li>)}</ul>
        </Section>
      )}
      {histLines.length > 0 && <Section title="History"><ul>{[...new Set(histLines)].map((h) => <li key={h}>{h}</li>)}</ul></Section>}
      {vitalList.length > 0 && (
        <Section title="Vitals">
          <div className="vitals">{vitalList.map(([k, v]) => <div className="vital" key={k}><span>{k}</span><strong>{v}</strong></div>)}</div>
        </Section>
      )}
      {exam.length > 0 && <Section title="Examination"><ul>{exam.map((e) => <li key={e}>{e}</li>)}</ul></Section>}
      {diagnoses.length > 0 && (
        <Section title="Diagnosis">
          <div className="stack tight">
            {diagnoses.map((d, i) => (
              <div className="row wrap" key={i}>
                <strong>{str(d.name)}</strong>
                {str(d.certainty) === 'suspected' && <span className="chip outline">suspected</span>}
                {arr(d.codes).map((c) => <CodeChip key={`${str(c.system)}${str(c.code)}`} code={c} />)}
              </div>
            ))}
          </div>
        </Section>
      )}
      {meds.length > 0 && (
        <Section title="Medications">
          <table className="med-table" aria-label="Medications">
            <thead><tr><th>Medicine</th><th>Strength</th><th>Dose</th><th>Frequency</th><th>Duration</th><th>Instructions</th></tr></thead>
            <tbody>
              {meds.map((m, i) => {
                const freq = (m.frequency ?? {}) as J;
                return (
                  <tr key={i}>
                    <td><strong>{str(m.brand) || str(m.name)}</strong>{str(m.brand) && str(m.name) ? <div className="small muted">{str(m.name)}</div> : null}{str(m.form) ? <div className="small faint">{str(m.form)}{str(m.route) ? `, ${str(m.route)}` : ''}</div> : null}</td>
                    <td className="nowrap">{qty(m.strength) || '—'}</td>
                    <td className="nowrap">{qty(m.dose) || '—'}</td>
                    <td>{str(freq.pattern) ? <span className="mono">{str(freq.pattern)}</span> : null}{str(freq.text) ? <div className="small muted">{str(freq.text)}</div> : null}{!str(freq.pattern) && !str(freq.text) ? '—' : null}</td>
                    <td className="nowrap">{m.duration ? plural(m.duration) : '—'}</td>
                    <td className="small">{[str(m.timing), str(m.instructions)].filter(Boolean).join('; ') || '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Section>
      )}
      {inv.length > 0 && (
        <Section title="Investigations">
          <div className="stack tight">{inv.map((x, i) => <div className="row wrap" key={i}><span>{str(x.name)}</span>{arr(x.codes).map((c) => <CodeChip key={str(c.code)} code={c} />)}</div>)}</div>
        </Section>
      )}
      {advice.length > 0 && <Section title="Advice"><ul>{advice.map((a) => <li key={a}>{a}</li>)}</ul></Section>}
      {follow && <Section title="Follow-up"><p>{follow.after ? `After ${plural(follow.after)}` : ''}{str(follow.notes) ? `${follow.after ? '. ' : ''}${str(follow.notes).charAt(0).toUpperCase()}${str(follow.notes).slice(1)}` : ''}</p></Section>}
    </div>
  );
}

function Transcript({ json }: { json: J | null }) {
  if (!json) return <p className="muted">No transcript was requested for this dictation.</p>;
  const segments = arr(json.segments);
  const fmt = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
  return (
    <div className="transcript" data-testid="transcript">
      {segments.length > 0
        ? segments.map((s, i) => <div key={i}><span className="t">{fmt(Number(s.start) || 0)}</span>{str(s.text)}</div>)
        : str(json.text) || <span className="muted">No speech was recognised.</span>}
    </div>
  );
}

export const asText = (r: TemplateResult): string => {
  const j = r.json ?? {};
  if (r.template_id === 'clinical_notes_template') return str(j.markdown) || arr(j.sections).map((s) => `${str(s.title)}\n${str(s.text)}`).join('\n\n');
  if (r.template_id === 'transcript_template') return str(j.text);
  return JSON.stringify(j, null, 2);
};

/** A finished dictation: each template rendered for reading, the transcript beside it, copy and print. */
export function Results({ status, title }: { status: DictationStatus; title: string }) {
  const shown = status.results.filter((r) => r.template_id !== 'transcript_template');
  const transcript = status.results.find((r) => r.template_id === 'transcript_template');
  const [tab, setTab] = useState(0);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const current = shown[tab] ?? transcript;
  const copy = async () => {
    if (!current) return;
    // The browser may refuse (no permission, window not focused): say so rather than let a paste bring old text.
    const ok = await navigator.clipboard.writeText(asText(current)).then(() => true, () => false);
    setCopied(ok ? 'yes' : 'failed');
    setTimeout(() => setCopied('no'), ok ? 2000 : 6000);
  };
  return (
    <div className="grid-result" data-testid="scribe-result">
      <div className="card">
        <div className="print-only" style={{ padding: '0 0 12px' }}><h1>{title}</h1></div>
        {shown.length > 0 && (
          <div className="tabs" role="tablist">
            {shown.map((r, i) => <button key={r.template_id} role="tab" type="button" aria-selected={i === tab} onClick={() => setTab(i)}>{r.name}</button>)}
          </div>
        )}
        <div className="card-body stack">
          <div className="row between no-print">
            <span className="small muted">{status.state === 'partial' ? 'Some templates could not be made.' : 'Review before use: this was written by software from speech.'}</span>
            <div className="row">
              <button className="btn sm" type="button" onClick={copy} disabled={!current}><Icon name="copy" size={14} />{copied === 'yes' ? 'Copied' : 'Copy'}</button>
              <button className="btn sm" type="button" onClick={() => window.print()}><Icon name="print" size={14} />Print</button>
            </div>
          </div>
          {copied === 'failed' && <Note kind="error" title="Could not copy">This window was not allowed to use the clipboard. Select the text below and press Ctrl+C.</Note>}
          {current && current.status === 'failure' && <Note kind="error" title={`${current.name} could not be made`}>{current.errors.join(' ') || 'The service gave no reason.'}</Note>}
          {current && current.warnings.length > 0 && <Note kind="warn" title="Check these">{current.warnings.join(' ')}</Note>}
          {current?.json && current.template_id === 'clinical_notes_template' && <ClinicalNotes json={current.json} />}
          {current?.json && current.template_id !== 'clinical_notes_template' && current.template_id !== 'transcript_template' && <Emr json={current.json} />}
          {current?.json && current.template_id === 'transcript_template' && <Transcript json={current.json} />}
        </div>
      </div>
      <div className="card">
        <div className="card-head"><h3>Transcript</h3>{transcript?.json && <span className="chip">{str(transcript.json.language)}</span>}</div>
        <div className="card-body"><Transcript json={transcript?.json ?? null} /></div>
      </div>
    </div>
  );
}
