import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../ui';

/**
 * The editor's inputs. A value typed as words ("650 mg", "3 days", "130/85") is kept as typed while the doctor
 * types, and reaches the note only once it reads as a value; until then the field says what it expects and tells
 * the editor it is unfinished (so the note cannot be signed with a value the doctor did not mean).
 */

export function Labelled({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return <label className={`ed-field${wide ? ' wide' : ''}`}><span>{label}</span>{children}</label>;
}

export function TextField({ label, value, onChange, wide, multiline, list, placeholder }: {
  label: string; value: string; onChange: (v: string) => void; wide?: boolean; multiline?: boolean; list?: string; placeholder?: string;
}) {
  return (
    <Labelled label={label} wide={wide}>
      {multiline
        ? <textarea className="input" rows={2} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
        : <input className="input" value={value} list={list} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />}
    </Labelled>
  );
}

/**
 * A value written as words: `parse` turns the text into the value (undefined: cleared) or null when it does not
 * read as one; `show` writes a value as text. `onValid` (stable) hears whether the text at `path` reads, for the
 * sign button.
 */
export function ParsedField<T>({ label, path, value, parse, show, onChange, onValid, hint }: {
  label: string; path: string; value: T | undefined; parse: (s: string) => T | undefined | null; show: (v: T) => string;
  onChange: (v: T | undefined) => void; onValid: (path: string, ok: boolean) => void; hint: string;
}) {
  const shown = value === undefined ? '' : show(value);
  const [text, setText] = useState(shown);
  const bad = parse(text) === null;
  // A value changed from outside (another field, a pick from the formulary) replaces what was typed.
  const last = useRef(shown);
  useEffect(() => {
    if (shown !== last.current) { last.current = shown; setText(shown); }
  }, [shown]);
  useEffect(() => {
    onValid(path, !bad);
    return () => onValid(path, true);
  }, [bad, onValid, path]);
  const id = useId();
  return (
    <label className={`ed-field${bad ? ' bad' : ''}`}>
      <span>{label}</span>
      <input className="input" value={text} aria-invalid={bad} aria-describedby={bad ? id : undefined} placeholder={hint}
        onChange={(e) => {
          setText(e.target.value);
          const v = parse(e.target.value);
          if (v !== null) {
            last.current = v === undefined ? '' : show(v);
            onChange(v);
          }
        }} />
      {bad && <span className="err" id={id}>Write it as {hint}</span>}
    </label>
  );
}

export interface Suggestion { key: string; label: string; detail?: string }

/**
 * A text field with suggestions as the doctor types (a combobox: arrows move, Enter picks, Escape closes). What is
 * typed stays the value whether or not a suggestion is picked.
 */
export function SuggestField({ label, value, onChange, search, onPick, wide }: {
  label: string; value: string; onChange: (v: string) => void; search: (q: string) => Promise<Suggestion[]>;
  onPick: (s: Suggestion) => void; wide?: boolean;
}) {
  const [items, setItems] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [query, setQuery] = useState<string | null>(null);
  const listId = useId();
  useEffect(() => {
    if (query === null) return;
    let live = true;
    const t = setTimeout(() => void search(query).then((r) => {
      if (!live) return;
      setItems(r);
      setActive(0);
      setOpen(r.length > 0);
    }, () => undefined), 120);
    return () => { live = false; clearTimeout(t); };
  }, [query, search]);
  const pick = (s: Suggestion) => {
    onPick(s);
    setOpen(false);
    setQuery(null);
  };
  return (
    <label className={`ed-field suggest${wide ? ' wide' : ''}`}>
      <span>{label}</span>
      <input className="input" value={value} role="combobox" aria-expanded={open} aria-controls={listId} aria-autocomplete="list"
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        onChange={(e) => { onChange(e.target.value); setQuery(e.target.value); }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (!open) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            pick(items[active]!);
          } else if (e.key === 'Escape') setOpen(false);
        }} />
      {open && (
        <ul className="suggestions" role="listbox" id={listId} aria-label={`${label} suggestions`}>
          {items.map((s, i) => (
            <li key={s.key} id={`${listId}-${i}`} role="option" aria-selected={i === active}
              onMouseDown={(e) => { e.preventDefault(); pick(s); }}>
              <strong>{s.label}</strong>{s.detail && <span className="small muted"> {s.detail}</span>}
            </li>
          ))}
        </ul>
      )}
    </label>
  );
}

/** A list of one-line entries (allergies, advice, past history): edit, remove, add. */
export function LinesField({ label, item, lines, onEdit, onRemove, onAdd, decorate }: {
  label: string; item: string; lines: string[]; onEdit: (index: number, text: string) => void; onRemove: (index: number) => void;
  onAdd: () => void; decorate?: (index: number) => ReactNode;
}) {
  return (
    <div className="stack tight" role="group" aria-label={label}>
      {lines.map((l, i) => (
        <div key={i}>
          <div className="ed-line">
            <input className="input" value={l} aria-label={`${item} ${i + 1}`} onChange={(e) => onEdit(i, e.target.value)} />
            <RemoveButton label={`Remove ${item.toLowerCase()} ${i + 1}`} onClick={() => onRemove(i)} />
          </div>
          {decorate?.(i)}
        </div>
      ))}
      <div><AddButton onClick={onAdd}>Add {item.toLowerCase()}</AddButton></div>
    </div>
  );
}

export function AddButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return <button type="button" className="btn sm ghost" onClick={onClick}><Icon name="plus" size={14} />{children}</button>;
}

export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <button type="button" className="btn sm ghost ed-remove" aria-label={label} title={label} onClick={onClick}><Icon name="x" size={14} /></button>;
}
