import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { Patient, SessionInfo } from '../../preload/contract';
import { mobileToSearch } from '../../server/patients/mobile';
import { clinic } from './clinic';
import { Empty, ErrorNote, GENDER, Icon, Loading, ageLabel } from './ui';

/** How long a number that could still grow ("91…" at 10 digits) waits for another keystroke before it is searched. */
const SETTLE_MS = 800;

/**
 * Search-as-you-type by 10-digit mobile, as two card bodies for the caller's card: the box, then the family on that
 * number. Without onRegister the screen cannot register, so `unknown` says where to go instead.
 */
export function PatientSearch({ onPick, picked, onRegister, unknown, autoFocus = false }: {
  onPick: (p: Patient) => void; picked: Patient | null; onRegister?: (mobile: string) => void; unknown?: ReactNode; autoFocus?: boolean;
}) {
  const country = useQueryClient().getQueryData<SessionInfo | null>(['session'])?.workspace.country ?? 'IN';
  const [text, setText] = useState('');
  const [nudge, setNudge] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus]);
  const read = mobileToSearch(text, country);
  // "91" and 8 more digits is a mobile, or the country code of one still being typed: searched once typing pauses.
  const [settled, setSettled] = useState('');
  useEffect(() => {
    if (!('digits' in read) || !read.mayGrow) return;
    const t = setTimeout(() => setSettled(text), SETTLE_MS);
    return () => clearTimeout(t);
  }, [text, country]);
  const digits = 'digits' in read && (!read.mayGrow || settled === text) ? read.digits : '';
  const complete = digits !== '';
  const waiting = !complete && !('reason' in read) && (text.trim() !== '' || nudge);
  const results = useQuery({ queryKey: ['search', digits], queryFn: () => clinic.searchPatients(digits), enabled: complete, staleTime: 5_000 });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // Enter says the number is complete: a "91…" that could still grow is searched as it stands.
    if ('digits' in read && !complete) setSettled(text);
    else if (!complete) setNudge(true);
    else void results.refetch();
  };
  return (
    <>
      <div className="card-body stack">
        <form className="search-box" role="search" onSubmit={onSubmit}>
          <Icon name="search" size={20} />
          <input ref={input} aria-label="Mobile number" name="mobile" type="tel" inputMode="tel" autoComplete="off" placeholder="98765 43210"
            maxLength={20} value={text} onChange={(e) => { setNudge(false); setText(e.target.value); }} />
        </form>
        {waiting && (
          <p className={`small ${nudge ? '' : 'faint'}`} role={nudge ? 'alert' : undefined} style={nudge ? { color: 'var(--warn)' } : undefined}>
            {'missing' in read && read.missing !== null ? `${read.missing} more digit${read.missing === 1 ? '' : 's'} to search. ` : ''}Mobile numbers have 10 digits, after +91, 91 or 0 if you type one.
          </p>
        )}
        {'reason' in read && <p className="small" role="alert" style={{ color: 'var(--warn)' }}>{read.reason}</p>}
      </div>
      {complete && (
        <div className="card-body flush" style={{ borderTop: '1px solid var(--border)' }}>
          {results.isPending && <Loading label="Searching…" />}
          {results.isError && <div className="card-body"><ErrorNote error={results.error} onRetry={() => void results.refetch()} /></div>}
          {results.data && results.data.length === 0 && (
            <Empty title="No patient with this number" icon="user">
              {onRegister ? (
                <div className="stack tight" style={{ alignItems: 'center' }}>
                  <span>Check the number with the patient, or register them.</span>
                  <button className="btn primary" type="button" onClick={() => onRegister(digits)}><Icon name="plus" />Register new patient</button>
                </div>
              ) : unknown}
            </Empty>
          )}
          {results.data && results.data.length > 0 && (
            <div className="list" data-testid="search-results">
              <div className="list-item small muted" style={{ justifyContent: 'space-between' }}>
                <span>{results.data.length} patient{results.data.length === 1 ? '' : 's'} on this number</span>
                {onRegister && <button className="btn sm" type="button" onClick={() => onRegister(digits)}><Icon name="plus" size={14} />Add family member</button>}
              </div>
              {/* Options only inside the listbox: a button among them would break the pattern for screen readers. */}
              <div role="listbox" aria-label="Search results">
                {results.data.map((p) => (
                  <div key={p.id} className="list-item selectable" role="option" aria-selected={picked?.id === p.id} tabIndex={0}
                    onClick={() => onPick(p)} onKeyDown={(e) => e.key === 'Enter' && onPick(p)} data-testid="patient-result">
                    <div className="avatar" aria-hidden="true">{p.first_name[0]}{p.last_name[0]}</div>
                    <div className="grow">
                      <div className="patient-name">{p.name}</div>
                      <div className="meta"><span>{GENDER[p.gender]}, {ageLabel(p)}</span><span>{p.dob_estimated ? `Born about ${p.dob.slice(0, 4)}` : `Born ${p.dob}`}</span></div>
                    </div>
                  </div>
                ))}
              </div>
            </div>
          )}
        </div>
      )}
    </>
  );
}
