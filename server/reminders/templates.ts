import en from './templates/en.json' with { type: 'json' };
import hi from './templates/hi.json' with { type: 'json' };
import type { MessageFacts, Reply } from './store.js';

/**
 * Message texts per language are data (templates/<language>.json), so a language is added by adding a file; a clinic
 * may override any text in its settings. WhatsApp sends the clinic's approved template instead, with the same facts
 * as its parameters in this order: name, doctor, date, time, clinic, address, token.
 */
export type Texts = typeof en;
export const LANGUAGES: { en: Texts; hi: Texts } = { en, hi };
export type Language = keyof typeof LANGUAGES;

export interface Filled {
  name: string;
  doctor: string;
  date: string;
  time: string;
  clinic: string;
  address: string;
  token: string;
}

/** The facts a message names, in the clinic's time zone and language. */
export function fill(f: MessageFacts, texts: Texts, address: string): Filled {
  const at = new Date(f.scheduled_at);
  const locale = texts.language === 'hi' ? 'hi-IN' : 'en-IN';
  return {
    name: [f.first_name, f.last_name].filter(Boolean).join(' '),
    doctor: f.doctor_name ?? texts.any_doctor,
    date: new Intl.DateTimeFormat(locale, { timeZone: f.timezone, weekday: 'short', day: 'numeric', month: 'short' }).format(at),
    time: new Intl.DateTimeFormat(locale, { timeZone: f.timezone, hour: 'numeric', minute: '2-digit' }).format(at),
    clinic: f.clinic_name,
    address,
    token: f.token === null ? '' : String(f.token),
  };
}

/** For a text about the number rather than an appointment (STOP's answer names the clinic only). */
export const NO_FACTS: Filled = { name: '', doctor: '', date: '', time: '', clinic: '', address: '', token: '' };

export const render = (text: string, v: Filled) => text.replace(/\{(\w+)\}/g, (m, key: string) => (key in v ? v[key as keyof Filled] : m)).trim();

/** The SMS text of a reminder (point 'booking' is the booking confirmation), with the token once checked in and the reply keywords. */
export function smsText(point: string, v: Filled, texts: Texts): string {
  const main = render(point === 'booking' ? texts.booking : texts.reminder, v);
  return [main, v.token ? render(texts.token, v) : '', texts.sms_replies].filter(Boolean).join(' ');
}

export const answerText = (answer: Reply | 'stopped' | 'too_late', v: Filled, texts: Texts) => render(texts.answers[answer], v);
