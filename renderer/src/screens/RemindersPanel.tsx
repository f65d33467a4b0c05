import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { ReminderSettings, ReminderSettingsInput } from '../../../preload/contract';
import { clinic } from '../clinic';
import { Empty, ErrorNote, Field, Loading, Panel } from '../ui';

/** The form's fields, all text: secrets start empty (empty keeps the stored one). */
interface Form {
  provider: 'whatsapp' | 'twilio';
  enabled: boolean;
  language: 'en' | 'hi';
  clinic_address: string;
  public_url: string;
  evening: string;
  before: string;
  on_booking: boolean;
  quiet_start: string;
  quiet_end: string;
  phone_number_id: string;
  access_token: string;
  app_secret: string;
  verify_token: string;
  account_sid: string;
  auth_token: string;
  from: string;
  base_url: string;
}

function formOf(s: ReminderSettings | null | undefined): Form {
  const sch = s?.schedule;
  return {
    provider: s?.provider ?? 'whatsapp', enabled: s?.enabled ?? true, language: s?.language ?? 'en', clinic_address: s?.clinic_address ?? '',
    public_url: s?.public_url ?? '', evening: sch ? sch.evening_before ?? '' : '18:00', before: String(sch?.minutes_before[0] ?? 120),
    on_booking: sch?.on_booking ?? false, quiet_start: sch ? sch.quiet_hours?.start ?? '' : '21:00', quiet_end: sch ? sch.quiet_hours?.end ?? '' : '08:00',
    phone_number_id: s?.whatsapp?.phone_number_id ?? '', access_token: '', app_secret: '', verify_token: '',
    account_sid: s?.twilio?.account_sid ?? '', auth_token: '', from: s?.twilio?.from ?? '', base_url: s?.twilio?.base_url ?? '',
  };
}

/** The PUT body: omitted secrets keep the stored ones. */
function inputOf(f: Form): ReminderSettingsInput {
  const secret = (v: string) => (v.trim() ? v.trim() : undefined);
  return {
    provider: f.provider, enabled: f.enabled, language: f.language, clinic_address: f.clinic_address, public_url: f.public_url.trim() || null,
    schedule: {
      evening_before: f.evening || null, minutes_before: f.before.trim() ? [Number(f.before)] : [], on_booking: f.on_booking,
      quiet_hours: f.quiet_start && f.quiet_end ? { start: f.quiet_start, end: f.quiet_end } : null,
    },
    ...(f.provider === 'whatsapp'
      ? { whatsapp: { phone_number_id: f.phone_number_id.trim(), access_token: secret(f.access_token), app_secret: secret(f.app_secret), verify_token: secret(f.verify_token) } }
      : { twilio: { account_sid: f.account_sid.trim(), auth_token: secret(f.auth_token), from: f.from.trim(), base_url: f.base_url.trim() || undefined } }),
  };
}

const pct = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);

/** Settings → Reminders: the provider, the schedule, and whether reminders help (issue 29). */
export function RemindersPanel() {
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: ['reminder-settings'], queryFn: () => clinic.reminderSettings() });
  const report = useQuery({ queryKey: ['no-show-report'], queryFn: () => clinic.noShowReport(8) });
  const [f, setF] = useState<Form>(() => formOf(null));
  useEffect(() => setF(formOf(settings.data)), [settings.data]);
  const save = useMutation({ mutationFn: (input: ReminderSettingsInput) => clinic.setReminderSettings(input), onSuccess: (s) => qc.setQueryData(['reminder-settings'], s) });
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setF({ ...f, [k]: v });
  const text = (k: keyof Form, label: string, props: { type?: string; placeholder?: string; hint?: string } = {}) => (
    <Field label={label} hint={props.hint}>
      <input type={props.type ?? 'text'} value={String(f[k])} placeholder={props.placeholder} onChange={(e) => set(k, e.target.value as never)} />
    </Field>
  );
  const stored = settings.data ? 'Stored; leave empty to keep' : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(inputOf(f));
  };
  return (
    <div className="stack loose">
      <Panel title="Reminders" intro="Appointment reminders and confirmations by WhatsApp or SMS. Patients answer Confirm, Cancel or Reschedule, and the queue shows it. Nothing is sent until a provider is set here.">
        <form className="card-body stack" onSubmit={submit} aria-label="Reminder settings">
          {settings.isPending && <Loading />}
          <ErrorNote error={settings.error ?? save.error} />
          <div className="row wrap" role="radiogroup" aria-label="Provider">
            <label className="row"><input type="radio" name="provider" checked={f.provider === 'whatsapp'} onChange={() => set('provider', 'whatsapp')} />WhatsApp Business (Cloud API)</label>
            <label className="row"><input type="radio" name="provider" checked={f.provider === 'twilio'} onChange={() => set('provider', 'twilio')} />SMS (Twilio or compatible)</label>
            <label className="row"><input type="checkbox" checked={f.enabled} onChange={(e) => set('enabled', e.target.checked)} />Send reminders</label>
          </div>
          {f.provider === 'whatsapp' ? (
            <div className="cols-2">
              {text('phone_number_id', 'Phone number id')}
              {text('access_token', 'Access token', { type: 'password', placeholder: stored })}
              {text('app_secret', 'App secret', { type: 'password', placeholder: stored, hint: 'Checks that webhooks come from Meta' })}
              {text('verify_token', 'Verify token', { type: 'password', placeholder: stored })}
            </div>
          ) : (
            <div className="cols-2">
              {text('account_sid', 'Account SID', { placeholder: 'AC…' })}
              {text('auth_token', 'Auth token', { type: 'password', placeholder: stored })}
              {text('from', 'Sender', { placeholder: '+1… or MG…' })}
              {text('base_url', 'API address', { placeholder: 'https://api.twilio.com', hint: 'For a gateway with Twilio\'s API' })}
            </div>
          )}
          <div className="cols-2">
            <Field label="Language">
              <select value={f.language} onChange={(e) => set('language', e.target.value as Form['language'])}>
                <option value="en">English</option><option value="hi">हिन्दी (Hindi)</option>
              </select>
            </Field>
            {text('clinic_address', 'Clinic address', { hint: 'Named in every message' })}
            {text('public_url', 'Public address of this server', { placeholder: 'https://clinic.example.com', hint: 'Where the provider sends delivery reports and replies' })}
          </div>
          <div className="cols-2">
            {text('evening', 'Evening before, at', { type: 'time', hint: 'Empty: none' })}
            {text('before', 'Minutes before', { type: 'number', hint: 'Empty: none' })}
            {text('quiet_start', 'Quiet hours from', { type: 'time' })}
            {text('quiet_end', 'Quiet hours until', { type: 'time' })}
          </div>
          <label className="row"><input type="checkbox" checked={f.on_booking} onChange={(e) => set('on_booking', e.target.checked)} />Confirm each booking at once</label>
          {settings.data && <p className="small">Webhook address for the provider: <span className="mono" data-testid="reminder-webhook">{settings.data.webhook_url}</span></p>}
          <div className="row"><button className="btn primary" type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save'}</button>{save.isSuccess && <span className="small muted" role="status">Saved</span>}</div>
          <p className="small faint">Tokens and secrets are stored encrypted and never shown again.</p>
        </form>
      </Panel>
      <Panel title="No-shows and reminders" intro="Per week: how often patients who confirmed, who were reminded without answering, and who were not reminded failed to come.">
        <div className="card-body flush">
          <ErrorNote error={report.error} />
          {report.data && report.data.weeks.every((w) => Object.values(w.groups).every((g) => g.appointments === 0))
            ? <Empty title="No past appointments yet" icon="calendar">The rates appear once appointments have been attended or missed.</Empty>
            : report.data && (
              <table aria-label="No-show rate per week">
                <thead><tr><th>Week of</th><th>Confirmed</th><th>Reminded, no reply</th><th>Not reminded</th></tr></thead>
                <tbody>
                  {report.data.weeks.map((w) => (
                    <tr key={w.week_start}>
                      <td className="num">{w.week_start}</td>
                      {(['confirmed', 'no_reply', 'not_reminded'] as const).map((g) => (
                        <td key={g} className="num">{pct(w.groups[g].no_show_rate)} <span className="small muted">({w.groups[g].no_shows}/{w.groups[g].appointments})</span></td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
        </div>
      </Panel>
    </div>
  );
}
