import { type ReactNode, useCallback, useState } from 'react';
import { type Duration, type Emr, type Medication, blankMedication, durationWords, frequencyWords, patternPerDay, patternWords } from './emr';
import { AddButton, LinesField, ParsedField, RemoveButton, type Suggestion, SuggestField, TextField } from './Fields';
import { type Drug, searchDrugs, searchIcd10 } from './vocab';

/** What the editor changes the note through: every change names the JSON pointer it is at (flags are settled by it). */
export interface EditorProps {
  emr: Emr;
  /** Sets the value at a pointer; undefined removes it. */
  set(pointer: string, value: unknown): void;
  add(list: string, item: unknown): void;
  remove(list: string, index: number): void;
  /** Where the item was said and its flags, shown under it. */
  decorate(pointer: string): ReactNode;
  /** The item's place in the note (id, classes) so the flag summary can jump to it. */
  place(pointer: string, className?: string): { id: string; tabIndex: number; className?: string };
  /** Stable: whether the text typed at a pointer reads as a value. */
  valid(pointer: string, ok: boolean): void;
  /** A field lost the focus: what was typed is saved then, not only after the pause. */
  onLeaveField?(): void;
}

const NUMBER = /^\d+(?:\.\d+)?$/;
const UNITS: Record<string, Duration['unit']> = { d: 'day', day: 'day', days: 'day', w: 'week', wk: 'week', week: 'week', weeks: 'week', m: 'month', month: 'month', months: 'month', y: 'year', year: 'year', years: 'year' };

/** "650 mg" → {650, mg}; blank → cleared; anything else does not read (null). */
export function parseAmount(s: string): { value: number; unit: string } | undefined | null {
  const t = s.trim();
  if (!t) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*(\S.*)$/.exec(t);
  return m ? { value: Number(m[1]), unit: m[2]!.trim() } : null;
}
export const showAmount = (a: { value: number; unit: string }) => `${a.value} ${a.unit}`;

/** "3 days", "2 weeks", "1 month"; blank → cleared. */
export function parseDuration(s: string): Duration | undefined | null {
  const t = s.trim().toLowerCase();
  if (!t) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/.exec(t);
  const unit = m ? UNITS[m[2]!] : undefined;
  return m && unit && Number(m[1]) > 0 ? { value: Number(m[1]), unit } : null;
}

const parseNumber = (s: string): number | undefined | null => (s.trim() ? (NUMBER.test(s.trim()) ? Number(s.trim()) : null) : undefined);
const parseBp = (s: string) => {
  if (!s.trim()) return undefined;
  const m = /^(\d{2,3})\s*\/\s*(\d{2,3})$/.exec(s.trim());
  return m ? { systolic: Number(m[1]), diastolic: Number(m[2]) } : null;
};
const parseTemperature = (s: string) => {
  if (!s.trim()) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*°?\s*([CFcf])$/.exec(s.trim());
  return m ? { value: Number(m[1]), unit: m[2]!.toUpperCase() as 'C' | 'F' } : null;
};

/**
 * The pattern (1-0-1) is the frequency's one value: how many times a day and the words are made from it, so the
 * note, the prescription and the FHIR dosage cannot say two things. Cleared, the words go with it.
 */
function withPattern(f: Medication['frequency'], pattern: string): NonNullable<Medication['frequency']> {
  const { pattern: _old, ...base } = f ?? { per_day: null, as_needed: false, text: '' };
  if (!pattern) return _old ? { ...base, per_day: null, text: '' } : base;
  return { ...base, per_day: patternPerDay(pattern) ?? base.per_day, pattern, text: patternWords(pattern) };
}

const TIMING = ['before food', 'after food', 'with food', 'empty stomach', 'at bedtime', 'in the morning'];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return <section className="note-section ed-section"><h4>{title}</h4>{children}</section>;
}

/** The structured note as form fields: what the doctor corrects before signing, or changes in an amendment. */
export function Editor(props: EditorProps) {
  const { emr, set, add, remove, decorate, place, valid, onLeaveField } = props;
  const [forms, setForms] = useState<Record<number, string[]>>({});
  const drugSearch = useCallback(async (q: string): Promise<Suggestion[]> => (await searchDrugs(q)).map(({ drug, brand }) => ({
    key: `${drug.name}|${brand ?? ''}`, label: brand ? `${brand} (${drug.name})` : drug.name,
    detail: [drug.forms.slice(0, 3).join(', '), drug.strengths.slice(0, 4).join(', ')].filter(Boolean).join(' · '),
  })), []);
  const icdSearch = useCallback(async (q: string): Promise<Suggestion[]> => (await searchIcd10(q)).map((e) => ({ key: e.code, label: e.code, detail: e.display })), []);
  const pickDrug = (i: number, s: Suggestion) => {
    const [name, brand] = s.key.split('|') as [string, string];
    const form = emr.medications[i]?.form;
    set(`/medications/${i}/name`, name);
    set(`/medications/${i}/brand`, brand || undefined);
    // The drug's own forms are offered in its Form field; a form it does not come in (azithromycin as a capsule)
    // becomes its first.
    void searchDrugs(name, 20).then((found) => {
      const drug: Drug | undefined = found.find((m) => m.drug.name === name)?.drug;
      if (!drug) return;
      setForms((f) => ({ ...f, [i]: drug.forms }));
      if (drug.forms.length && !drug.forms.includes(form?.toLowerCase() ?? '')) set(`/medications/${i}/form`, drug.forms[0]);
    });
  };
  const v = emr.vitals;
  const h = emr.history;
  return (
    <div className="editor" data-testid="note-editor" onBlur={onLeaveField}>
      <Section title="Chief complaints">
        <div className="stack tight">
          {emr.chief_complaints.map((c, i) => {
            const p = `/chief_complaints/${i}`;
            return (
              <div key={i} {...place(p, 'ed-item')}>
                <div className="ed-row">
                  <TextField label="Complaint" value={c.name} onChange={(t) => set(`${p}/name`, t)} wide />
                  <ParsedField label="For" path={`${p}/duration`} value={c.duration} parse={parseDuration} show={durationWords} hint="3 days" onChange={(d) => set(`${p}/duration`, d)} onValid={valid} />
                  <TextField label="Notes" value={c.notes ?? ''} onChange={(t) => set(`${p}/notes`, t || undefined)} wide />
                  <RemoveButton label={`Remove complaint ${c.name || i + 1}`} onClick={() => remove('chief_complaints', i)} />
                </div>
                {decorate(p)}
              </div>
            );
          })}
          <div><AddButton onClick={() => add('chief_complaints', { name: '' })}>Add complaint</AddButton></div>
        </div>
      </Section>

      <Section title="History">
        <div className="stack tight">
          <TextField label="Present illness" value={h.present_illness ?? ''} onChange={(t) => set('/history/present_illness', t || undefined)} multiline wide />
          <LinesField label="Past history" item="Past history line" lines={h.past} onEdit={(i, t) => set(`/history/past/${i}`, t)} onRemove={(i) => remove('history/past', i)} onAdd={() => add('history/past', '')} />
          <LinesField label="Family history" item="Family history line" lines={h.family} onEdit={(i, t) => set(`/history/family/${i}`, t)} onRemove={(i) => remove('history/family', i)} onAdd={() => add('history/family', '')} />
        </div>
      </Section>

      <Section title="Allergies">
        <LinesField label="Allergies" item="Allergy" lines={h.allergies} onEdit={(i, t) => set(`/history/allergies/${i}`, t)} onRemove={(i) => remove('history/allergies', i)}
          onAdd={() => add('history/allergies', '')} decorate={(i) => decorate(`/history/allergies/${i}`)} />
      </Section>

      <Section title="Vitals">
        <div className="ed-row wrap">
          {([
            ['bp', 'BP (mmHg)', '120/80', parseBp, (b: { systolic: number; diastolic: number }) => `${b.systolic}/${b.diastolic}`],
            ['pulse_bpm', 'Pulse (/min)', '72', parseNumber, String],
            ['temperature', 'Temperature', '98.6 F', parseTemperature, (t: { value: number; unit: string }) => `${t.value} ${t.unit}`],
            ['spo2_percent', 'SpO₂ (%)', '98', parseNumber, String],
            ['respiratory_rate', 'Resp. rate (/min)', '16', parseNumber, String],
            ['weight_kg', 'Weight (kg)', '60', parseNumber, String],
            ['height_cm', 'Height (cm)', '165', parseNumber, String],
            ['blood_glucose_mg_dl', 'Glucose (mg/dL)', '110', parseNumber, String],
          ] as const).map(([key, label, hint, parse, show]) => (
            <div key={key} {...place(`/vitals/${key}`, 'ed-vital')}>
              <ParsedField label={label} path={`/vitals/${key}`} value={v[key] as never} parse={parse as (s: string) => never} show={show as (x: never) => string}
                hint={hint} onChange={(x) => set(`/vitals/${key}`, x)} onValid={valid} />
              {decorate(`/vitals/${key}`)}
            </div>
          ))}
        </div>
      </Section>

      <Section title="Examination">
        <LinesField label="Examination" item="Finding" lines={emr.examination} onEdit={(i, t) => set(`/examination/${i}`, t)} onRemove={(i) => remove('examination', i)} onAdd={() => add('examination', '')} />
      </Section>

      <Section title="Diagnosis">
        <div className="stack tight">
          {emr.diagnoses.map((d, i) => {
            const p = `/diagnoses/${i}`;
            return (
              <div key={i} {...place(p, 'ed-item')}>
                <div className="ed-row">
                  <SuggestField label="Diagnosis" value={d.name} wide onChange={(t) => set(`${p}/name`, t)} search={icdSearch}
                    onPick={(s) => {
                      if (!d.name.trim()) set(`${p}/name`, s.detail);
                      set(`${p}/codes`, [{ system: 'ICD-10', code: s.label, display: s.detail ?? '' }, ...d.codes.filter((c) => c.system !== 'ICD-10')]);
                    }} />
                  <label className="ed-field"><span>Certainty</span>
                    <select className="input" value={d.certainty} onChange={(e) => set(`${p}/certainty`, e.target.value)}>
                      <option value="confirmed">confirmed</option><option value="suspected">suspected</option>
                    </select>
                  </label>
                  <div className="ed-field"><span>ICD-10</span>
                    <div className="row wrap">
                      {d.codes.length === 0 && <span className="small muted">Type in Diagnosis to find a code</span>}
                      {d.codes.map((c, k) => (
                        <span key={`${c.system}${c.code}`} className="chip code" title={c.display}>{c.code}
                          <button type="button" className="chip-x" aria-label={`Remove code ${c.code}`} onClick={() => set(`${p}/codes`, d.codes.filter((_, j) => j !== k))}>×</button>
                        </span>
                      ))}
                    </div>
                  </div>
                  <RemoveButton label={`Remove diagnosis ${d.name || i + 1}`} onClick={() => remove('diagnoses', i)} />
                </div>
                {decorate(p)}
              </div>
            );
          })}
          <div><AddButton onClick={() => add('diagnoses', { name: '', certainty: 'confirmed', codes: [] })}>Add diagnosis</AddButton></div>
        </div>
      </Section>

      <Section title="Medications">
        <div className="stack tight">
          {emr.medications.map((m, i) => {
            const p = `/medications/${i}`;
            const f = m.frequency;
            return (
              <div key={i} {...place(p, 'ed-item ed-med')} aria-label={`Medicine ${i + 1}${m.name ? `: ${m.name}` : ''}`} role="group">
                <div className="ed-row wrap">
                  <SuggestField label="Medicine (generic)" value={m.name} wide onChange={(t) => set(`${p}/name`, t)} search={drugSearch} onPick={(s) => pickDrug(i, s)} />
                  <TextField label="Brand" value={m.brand ?? ''} onChange={(t) => set(`${p}/brand`, t || undefined)} />
                  <TextField label="Form" value={m.form ?? ''} list={`forms-${i}`} onChange={(t) => set(`${p}/form`, t || undefined)} />
                  <datalist id={`forms-${i}`}>{(forms[i] ?? ['tablet', 'capsule', 'syrup', 'injection', 'drops', 'cream', 'inhaler']).map((x) => <option key={x} value={x} />)}</datalist>
                  <ParsedField label="Strength" path={`${p}/strength`} value={m.strength} parse={parseAmount} show={showAmount} hint="500 mg" onChange={(a) => set(`${p}/strength`, a)} onValid={valid} />
                  <ParsedField label="Dose" path={`${p}/dose`} value={m.dose} parse={parseAmount} show={showAmount} hint="1 tablet" onChange={(a) => set(`${p}/dose`, a)} onValid={valid} />
                  <ParsedField label="Frequency (1-0-1)" path={`${p}/frequency/pattern`} value={f?.pattern} hint="1-0-1"
                    parse={(s) => (!s.trim() ? undefined : /^\d(?:\s*-\s*\d){2,3}$/.test(s.trim()) ? s.replace(/\s+/g, '') : null)} show={String}
                    onChange={(pattern) => set(`${p}/frequency`, withPattern(f, pattern ?? ''))} onValid={valid} />
                  {f?.pattern
                    ? <label className="ed-field"><span>Frequency in words</span><output className="input" data-testid="frequency-words">{frequencyWords(m)}</output></label>
                    : <TextField label="Frequency in words" value={f?.text ?? ''} onChange={(t) => set(`${p}/frequency`, { ...(f ?? { per_day: null, as_needed: false }), text: t })} />}
                  <ParsedField label="Duration" path={`${p}/duration`} value={m.duration} parse={parseDuration} show={durationWords} hint="5 days" onChange={(d) => set(`${p}/duration`, d)} onValid={valid} />
                  <TextField label="Timing" value={m.timing ?? ''} list="timings" onChange={(t) => set(`${p}/timing`, t || undefined)} />
                  <TextField label="Instructions" value={m.instructions ?? ''} wide onChange={(t) => set(`${p}/instructions`, t || undefined)} />
                  <RemoveButton label={`Remove medicine ${m.name || i + 1}`} onClick={() => remove('medications', i)} />
                </div>
                {decorate(p)}
              </div>
            );
          })}
          <datalist id="timings">{TIMING.map((t) => <option key={t} value={t} />)}</datalist>
          <div><AddButton onClick={() => add('medications', blankMedication())}>Add medicine</AddButton></div>
        </div>
      </Section>

      <Section title="Investigations">
        <div className="stack tight">
          {emr.investigations.map((x, i) => {
            const p = `/investigations/${i}`;
            return (
              <div key={i} {...place(p, 'ed-item')}>
                <div className="ed-line">
                  <input className="input" aria-label={`Investigation ${i + 1}`} value={x.name} onChange={(e) => set(`${p}/name`, e.target.value)} />
                  <RemoveButton label={`Remove investigation ${x.name || i + 1}`} onClick={() => remove('investigations', i)} />
                </div>
                {decorate(p)}
              </div>
            );
          })}
          <div><AddButton onClick={() => add('investigations', { name: '' })}>Add investigation</AddButton></div>
        </div>
      </Section>

      <Section title="Advice">
        <LinesField label="Advice" item="Advice" lines={emr.advice} onEdit={(i, t) => set(`/advice/${i}`, t)} onRemove={(i) => remove('advice', i)} onAdd={() => add('advice', '')}
          decorate={(i) => decorate(`/advice/${i}`)} />
      </Section>

      <Section title="Follow-up">
        <div {...place('/follow_up', 'ed-item')}>
          <div className="ed-row">
            <ParsedField label="After" path="/follow_up/after" value={emr.follow_up?.after} parse={parseDuration} show={durationWords} hint="1 week" onValid={valid}
              onChange={(d) => set('/follow_up', d ? { ...emr.follow_up, after: d } : undefined)} />
            <TextField label="Notes" value={emr.follow_up?.notes ?? ''} wide
              onChange={(t) => emr.follow_up && set('/follow_up/notes', t || undefined)} placeholder={emr.follow_up ? '' : 'Give the interval first'} />
          </div>
          {decorate('/follow_up')}
        </div>
      </Section>
    </div>
  );
}
