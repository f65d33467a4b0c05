import { createHmac, randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';

/**
 * Local stand-ins for the two messaging providers, written from their published wire formats rather than from our
 * adapters: the WhatsApp Cloud API (`POST /{version}/{phone-number-id}/messages`, Bearer token, template messages;
 * answers `{messaging_product, contacts, messages: [{id: "wamid…"}]}` or a Graph error) and Twilio's Messages
 * resource (`POST /2010-04-01/Accounts/{sid}/Messages.json`, form body, Basic auth; answers 201 with the message's
 * `sid`, or `{code, message, more_info, status}`). Both check the credentials and the request shape the way the
 * real ones do, and can be told to fail the next requests.
 */

export interface SentWhatsApp { to: string; template: { name: string; language: { code: string }; components: any[] }; id: string }
export interface SentSms { To: string; From?: string; MessagingServiceSid?: string; Body: string; StatusCallback?: string; sid: string }

export const WA_TOKEN = 'EAAtest-access-token-never-logged';
export const WA_PHONE_ID = '106540352242922';
export const TW_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const TW_TOKEN = 'twilio-auth-token-secret';

const read = (req: IncomingMessage) => new Promise<string>((resolve) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
});

/** `delayMs`: how long each accepted message waits for its answer. */
export async function startProviders(opts: { delayMs?: number } = {}) {
  const whatsapp: SentWhatsApp[] = [];
  /** Free-form text messages (type text), which Meta takes within 24 hours of the patient's own message. */
  const whatsappTexts: { to: string; body: string; id: string }[] = [];
  const sms: SentSms[] = [];
  let requests = 0;
  const failures: { status: number; body: unknown }[] = [];

  // The message is taken (recorded here) before the answer goes: a sender that dies meanwhile never learns it was sent.
  const settle = () => new Promise((r) => setTimeout(r, opts.delayMs ?? 0));
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void read(req).then(async (body) => {
      requests += 1;
      const url = new URL(req.url ?? '/', 'http://x');
      const wa = /^\/(v\d+\.\d+)\/(\d+)\/messages$/.exec(url.pathname);
      const tw = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/.exec(url.pathname);
      if (req.method !== 'POST' || (!wa && !tw)) return json(res, 404, { error: { message: 'Unknown path', code: 803 } });
      if (wa) {
        if (req.headers.authorization !== `Bearer ${WA_TOKEN}`) {
          return json(res, 401, { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'A1' } });
        }
        const fail = failures.shift();
        if (fail) return json(res, fail.status, fail.body);
        const m = JSON.parse(body) as { messaging_product?: string; to?: string; type?: string; template?: SentWhatsApp['template']; text?: { body?: string } };
        if (wa[2] === WA_PHONE_ID && m.messaging_product === 'whatsapp' && m.type === 'text' && m.to && m.text?.body) {
          const id = `wamid.${randomBytes(12).toString('base64url')}`;
          whatsappTexts.push({ to: m.to, body: m.text.body, id });
          return json(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: m.to, wa_id: m.to }], messages: [{ id }] });
        }
        if (wa[2] !== WA_PHONE_ID || m.messaging_product !== 'whatsapp' || m.type !== 'template' || !m.template?.name || !m.template.language?.code || !m.to) {
          return json(res, 400, { error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, fbtrace_id: 'A2' } });
        }
        const id = `wamid.${randomBytes(12).toString('base64url')}`;
        whatsapp.push({ to: m.to, template: m.template, id });
        await settle();
        return json(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: m.to, wa_id: m.to }], messages: [{ id }] });
      }
      const expected = `Basic ${Buffer.from(`${TW_SID}:${TW_TOKEN}`).toString('base64')}`;
      if (tw![1] !== TW_SID || req.headers.authorization !== expected) {
        return json(res, 401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 });
      }
      const fail = failures.shift();
      if (fail) return json(res, fail.status, fail.body);
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        return json(res, 400, { code: 20001, message: 'Unsupported content type', status: 400 });
      }
      const p = Object.fromEntries(new URLSearchParams(body)) as Record<string, string>;
      if (!p.To || !p.Body || !(p.From || p.MessagingServiceSid)) {
        return json(res, 400, { code: 21604, message: "A 'To' phone number is required.", more_info: 'https://www.twilio.com/docs/errors/21604', status: 400 });
      }
      const sid = `SM${randomBytes(16).toString('hex')}`;
      sms.push({ ...(p as unknown as SentSms), sid });
      await settle();
      return json(res, 201, { sid, account_sid: TW_SID, to: p.To, from: p.From ?? null, body: p.Body, status: 'queued', num_segments: '1' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    baseUrl, whatsapp, whatsappTexts, sms,
    requests: () => requests,
    /** The next request (after the credentials check) is answered with this instead. */
    failNext: (status: number, body: unknown) => void failures.push({ status, body }),
    close: () => new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }),
  };
}

/** Meta's webhook signature: sha256=<hex HMAC-SHA256 of the raw body with the app secret>. */
export const metaSignature = (appSecret: string, raw: string) => `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;

/** Twilio's request signature, as its helper libraries compute it: the URL, then each parameter's name and value sorted by name. */
export function twilioRequestSignature(authToken: string, url: string, params: Record<string, string>) {
  let data = url;
  for (const key of Object.keys(params).sort()) data += key + params[key];
  return createHmac('sha1', authToken).update(data).digest('base64');
}
