import { type ButtonHTMLAttributes, type ReactNode, useEffect, useId, useRef } from 'react';
import type { AppointmentStatus } from '../../preload/contract';
import { ageOf } from '../../server/patients/birth';
import { asFailure, explain } from './clinic';

export function Icon({ name, size = 16 }: { name: 'search' | 'user' | 'calendar' | 'mic' | 'settings' | 'check' | 'alert' | 'inbox' | 'plus' | 'copy' | 'print' | 'clock' | 'x'; size?: number }) {
  const paths: Record<typeof name, ReactNode> = {
    search: <><circle cx="11" cy="11" r="7" /><path d="m20 20-3.5-3.5" /></>,
    user: <><circle cx="12" cy="8" r="4" /><path d="M4 21a8 8 0 0 1 16 0" /></>,
    calendar: <><rect x="3" y="5" width="18" height="16" rx="2" /><path d="M3 10h18M8 3v4M16 3v4" /></>,
    mic: <><rect x="9" y="3" width="6" height="12" rx="3" /><path d="M5 11a7 7 0 0 0 14 0M12 18v3" /></>,
    settings: <><circle cx="12" cy="12" r="3" /><path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 0 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 0 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 0 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 0 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" /></>,
    check: <path d="m5 12 5 5L20 7" />,
    alert: <><path d="M12 9v4M12 17h.01" /><path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" /></>,
    inbox: <><path d="M22 12h-6l-2 3h-4l-2-3H2" /><path d="M5.5 5.1 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.5-6.9A2 2 0 0 0 16.8 4H7.2a2 2 0 0 0-1.7 1.1z" /></>,
    plus: <path d="M12 5v14M5 12h14" />,
    copy: <><rect x="9" y="9" width="12" height="12" rx="2" /><path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" /></>,
    print: <><path d="M6 9V2h12v7M6 18H4a2 2 0 0 1-2-2v-5a2 2 0 0 1 2-2h16a2 2 0 0 1 2 2v5a2 2 0 0 1-2 2h-2" /><rect x="6" y="14" width="12" height="8" /></>,
    clock: <><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 2" /></>,
    x: <path d="M18 6 6 18M6 6l12 12" />,
  };
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {paths[name]}
    </svg>
  );
}

export const STATUS_LABEL: Record<AppointmentStatus, string> = {
  BK: 'Booked', CK: 'Checked in', OG: 'With doctor', PK: 'Parked', CM: 'Completed', CN: 'Cancelled', NS: 'No-show',
};

/** A Settings card: its title, a sentence on what it is for, an action beside the title, and its body. */
export function Panel({ title, intro, action, children }: { title: string; intro?: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <div className="card">
      <div className="card-head"><div><h2>{title}</h2>{intro && <p className="small muted">{intro}</p>}</div>{action}</div>
      {children}
    </div>
  );
}

export function StatusChip({ status }: { status: AppointmentStatus }) {
  return <span className={`chip ${status}`} data-status={status}><span className="dot" />{STATUS_LABEL[status]}</span>;
}

/** A failure in words; `what` names what failed ("The queue could not be updated") when the screen shows more than one thing. */
export function ErrorNote({ error, onRetry, what }: { error: unknown; onRetry?: () => void; what?: string }) {
  if (!error) return null;
  const { title, detail } = explain(error);
  return (
    <div className="alert error" role="alert">
      <Icon name="alert" size={18} />
      <div className="grow"><strong>{what ? `${what}: ${title.charAt(0).toLowerCase()}${title.slice(1)}` : title}</strong><span>{detail}</span></div>
      {onRetry && <button className="btn sm" type="button" onClick={onRetry}>Try again</button>}
    </div>
  );
}

export function Note({ kind = 'info', title, children }: { kind?: 'info' | 'warn' | 'ok' | 'error'; title?: string; children?: ReactNode }) {
  return (
    <div className={`alert ${kind}`} role={kind === 'error' || kind === 'warn' ? 'alert' : 'status'}>
      <Icon name={kind === 'ok' ? 'check' : kind === 'info' ? 'inbox' : 'alert'} size={18} />
      <div className="grow">{title && <strong>{title}</strong>}{children}</div>
    </div>
  );
}

export function Empty({ title, children, icon = 'inbox' }: { title: string; children?: ReactNode; icon?: 'inbox' | 'search' | 'calendar' | 'mic' | 'user' }) {
  return (
    <div className="empty">
      <div className="icon"><Icon name={icon} size={20} /></div>
      <strong>{title}</strong>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return <div className="row muted" role="status" style={{ padding: 16 }}><span className="spinner" />{label}</div>;
}

export function Field({ label, hint, error, children }: { label: string; hint?: string; error?: string | null; children: ReactNode }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
      {error ? <span className="err">{error}</span> : hint ? <span className="hint">{hint}</span> : null}
    </label>
  );
}

/**
 * The sentence for the field a failure is about, or null when it names none of `labels`' fields. The service starts a
 * field's refusal with the field's path, then words (docs/API.md, Patient records): `body.first_name must be at most
 * 100 characters` (schema checks, HTTP; `input.` / `patch.` over IPC) or `mobile: An Indian mobile number has …` (the
 * service's own rules, already a sentence). Show it with <Field error>, next to its field.
 */
export function fieldProblem(error: unknown, labels: Record<string, string>): { field: string; sentence: string } | null {
  if (!error) return null;
  const m = /^(?:(?:body|input|patch)\.)?([a-z_]+)(: | )(.+)$/s.exec(asFailure(error).message);
  const label = m ? labels[m[1]!] : undefined;
  if (!m || !label) return null;
  const text = m[2] === ': ' ? m[3]! : `${label} ${m[3]}`;
  return { field: m[1]!, sentence: /[.!?]$/.test(text) ? text : `${text}.` };
}

/**
 * A button that says why it is disabled: `why` (a sentence, or null when it is enabled) shows beside it, is its
 * tooltip, and is linked with aria-describedby so a screen reader reads it with the button.
 */
export function ReasonedButton({ why, children, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { why: string | null }) {
  const id = useId();
  return (
    <>
      {why && <span id={id} className="small muted" style={{ marginRight: 'auto', alignSelf: 'center' }} data-testid="disabled-reason">{why}</span>}
      <button {...props} disabled={Boolean(why) || props.disabled} title={why ?? props.title} aria-describedby={why ? id : undefined}>{children}</button>
    </>
  );
}

const TABBABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside a modal: from its last control to its first and back (aria-modal alone does not). */
function trapTab(box: HTMLElement, e: KeyboardEvent) {
  const all = [...box.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => el.offsetParent !== null);
  if (all.length === 0) return;
  const first = all[0]!;
  const last = all[all.length - 1]!;
  const inside = box.contains(document.activeElement);
  if (e.shiftKey && (document.activeElement === first || !inside)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
    e.preventDefault();
    first.focus();
  }
}

/**
 * A modal. Without onClose it can be left only through its own buttons (no Escape, backdrop click or ×): for a
 * dialog whose content is lost once closed, such as a secret shown once.
 */
export function Dialog({ title, onClose, children, footer }: { title: string; onClose?: () => void; children: ReactNode; footer?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Focus goes back where it was when the dialog opened (its opener), not to <body> (WCAG 2.4.3).
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.querySelector<HTMLElement>('input, select, textarea, button:not(.close)')?.focus();
    // After the closing render: the opener may be re-rendered by what the dialog did (a booking refreshes the queue).
    return () => void requestAnimationFrame(() => opener?.isConnected && opener.focus());
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && onClose) onClose();
      if (e.key === 'Tab' && ref.current) trapTab(ref.current, e);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="backdrop" onMouseDown={(e) => onClose && e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-label={title} ref={ref}>
        <div className="dialog-head"><h2>{title}</h2>{onClose && <button className="btn ghost sm close" type="button" onClick={onClose} aria-label="Close"><Icon name="x" /></button>}</div>
        <div className="dialog-body">{children}</div>
        {footer && <div className="dialog-foot">{footer}</div>}
      </div>
    </div>
  );
}

/**
 * Asks before an action that cannot be taken back (revoking access, deleting): `children` says what it does, the
 * danger button labelled `action` does it. Cancel has the focus, so a hurried Enter does nothing.
 */
export function Confirm({ title, action, onConfirm, onCancel, children }: { title: string; action: string; onConfirm: () => void; onCancel: () => void; children: ReactNode }) {
  return (
    <Dialog title={title} onClose={onCancel}
      footer={<><button className="btn" type="button" onClick={onCancel}>Cancel</button><button className="btn danger" type="button" onClick={onConfirm}>{action}</button></>}>
      <p>{children}</p>
    </Dialog>
  );
}

export function Progress({ value, label }: { value: number | null; label?: string }) {
  return (
    <div className={`progress${value === null ? ' indeterminate' : ''}`} role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value ?? undefined}>
      <div style={value === null ? undefined : { width: `${Math.max(2, Math.min(100, value))}%` }} />
    </div>
  );
}

export const initials = (name: string) => name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join('');

/** "45 y", "7 mo", and "(estimated)" when the date of birth was estimated from an age. */
export const ageLabel = (p: { dob: string; dob_estimated?: boolean }) =>
  `${ageOf(p.dob, Boolean(p.dob_estimated), new Date().toLocaleDateString('en-CA'))}${p.dob_estimated ? ' (estimated)' : ''}`;

export const GENDER: Record<string, string> = { M: 'Male', F: 'Female', O: 'Other' };

export function time(iso: string, timeZone?: string) {
  return new Date(iso).toLocaleTimeString('en-IN', { hour: 'numeric', minute: '2-digit', timeZone });
}

export function bytes(n: number) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function when(iso: string | null) {
  if (!iso) return '—';
  return new Date(iso).toLocaleString('en-IN', { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
}

/** +919876543210 → +91 98765 43210 (other numbers as they are). */
export const phone = (m: string) => m.replace(/^\+91(\d{5})(\d{5})$/, '+91 $1 $2');
