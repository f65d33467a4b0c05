import { createHash } from 'node:crypto';
import { SCOPE_WORDS } from './scopes.js';

/**
 * The provider's browser pages: sign-in, consent and errors. Server-rendered, no script, no external asset;
 * one inline style sheet allowed by its hash in a strict Content-Security-Policy, and never framed.
 */

const CSS = `
:root{--ink:#0f172a;--muted:#475569;--faint:#94a3b8;--line:#e2e8f0;--bg:#f1f5f9;--card:#fff;--brand:#0f766e;--brand-ink:#fff;
--brand-dark:#115e59;--danger:#b91c1c;--danger-bg:#fef2f2;--warn-bg:#fffbeb;--warn:#92400e}
*{box-sizing:border-box}
html,body{margin:0;padding:0}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg);
min-height:100vh;display:flex;align-items:flex-start;justify-content:center;padding:48px 16px}
main{width:100%;max-width:440px}
.brand{display:flex;align-items:center;gap:10px;margin:0 0 20px 4px;color:var(--ink);font-weight:600;font-size:16px}
.brand svg{flex:none}
.brand small{font-weight:400;color:var(--muted);margin-left:auto;font-size:13px}
.card{background:var(--card);border:1px solid var(--line);border-radius:14px;box-shadow:0 1px 2px rgba(15,23,42,.04),0 8px 24px rgba(15,23,42,.06);padding:28px}
h1{font-size:20px;line-height:1.3;margin:0 0 6px}
p{margin:0 0 14px;color:var(--muted)}
.app{display:flex;align-items:center;gap:12px;padding:12px 14px;border:1px solid var(--line);border-radius:10px;margin:0 0 18px;background:#f8fafc}
.app .mark{width:36px;height:36px;border-radius:9px;background:var(--brand);color:var(--brand-ink);display:flex;align-items:center;justify-content:center;font-weight:700;flex:none}
.app b{display:block;color:var(--ink);word-break:break-word}
.app span{display:block;font-size:12px;color:var(--faint);word-break:break-all}
label{display:block;font-weight:600;font-size:13px;margin:0 0 6px}
input[type=text],input[type=password]{width:100%;font:inherit;padding:10px 12px;border:1px solid #cbd5e1;border-radius:8px;background:#fff;color:var(--ink);margin:0 0 16px}
input:focus{outline:2px solid var(--brand);outline-offset:1px;border-color:var(--brand)}
.actions{display:flex;gap:10px;margin-top:8px}
button{font:inherit;font-weight:600;border-radius:8px;padding:10px 16px;cursor:pointer;border:1px solid transparent;flex:1}
.primary{background:var(--brand);color:var(--brand-ink)}
.primary:hover{background:var(--brand-dark)}
.secondary{background:#fff;color:var(--ink);border-color:#cbd5e1}
.secondary:hover{background:#f8fafc}
.alert{border-radius:8px;padding:10px 12px;margin:0 0 16px;font-size:14px}
.alert.error{background:var(--danger-bg);color:var(--danger);border:1px solid #fecaca}
.alert.warn{background:var(--warn-bg);color:var(--warn);border:1px solid #fde68a}
.who{font-size:14px;color:var(--muted);margin:0 0 16px;padding:0 0 16px;border-bottom:1px solid var(--line)}
.who b{color:var(--ink)}
h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:0 0 8px}
ul{list-style:none;margin:0 0 16px;padding:0}
li{display:flex;gap:10px;padding:7px 0;font-size:14px;color:var(--ink)}
li::before{content:"";flex:none;width:16px;height:16px;margin-top:2px;border-radius:50%;background:var(--brand);
-webkit-mask:radial-gradient(circle,#000 35%,transparent 36%);mask:radial-gradient(circle,#000 35%,transparent 36%)}
li.no{color:var(--faint);text-decoration:line-through}
li.no::before{background:var(--faint)}
.fine{font-size:12px;color:var(--faint);margin:16px 0 0}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f1f5f9;padding:1px 4px;border-radius:4px}
`;

const STYLE_HASH = `sha256-${createHash('sha256').update(CSS).digest('base64')}`;

const LOGO = '<svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true"><rect width="28" height="28" rx="7" fill="#0f766e"/>'
  + '<path d="M12 7h4v5h5v4h-5v5h-4v-5H7v-4h5z" fill="#fff"/></svg>';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** At most `n` characters of text a client chose (its name), so a page cannot be flooded by it. */
const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * Headers of every page: a strict CSP (only our hashed style; forms post here, or to the client's redirect
 * origin, which the sign-in redirect chain ends at: Chromium applies form-action to redirects after a POST),
 * no framing (a framed consent page is clickjacking), no caching, no referrer to other origins ('same-origin', not
 * 'no-referrer': under 'no-referrer' a browser sends `Origin: null` with the form post, which the cross-site check
 * in routes.ts must refuse).
 */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  const targets = ["'self'", ...formTargets.filter((o) => /^https?:\/\/[^\s;,']+$/.test(o))].join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src '${STYLE_HASH}'; img-src data:; form-action ${targets}; `
      + "frame-ancestors 'none'; base-uri 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}

function layout(title: string, body: string, aside = '') {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Clinic Desk</title><style>${CSS}</style></head>
<body><main><div class="brand">${LOGO}<span>Clinic Desk</span>${aside ? `<small>${aside}</small>` : ''}</div>
<div class="card">${body}</div></main></body></html>`;
}

export interface ClientView {
  clientId: string;
  name: string | null;
  /** Where the user returns after deciding (the redirect URI of this request). */
  redirectUri: string | null;
}

const isLoopback = (u: URL) => ['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname);

function appCard(c: ClientView) {
  const name = clip(c.name?.trim() || 'An unnamed app');
  let where = '';
  try {
    const u = c.redirectUri ? new URL(c.redirectUri) : null;
    if (u) where = isLoopback(u) ? `an app on this computer (${u.host})` : u.host;
  } catch {
    where = '';
  }
  return `<div class="app"><div class="mark">${escapeHtml(name.slice(0, 1).toUpperCase())}</div><div><b>${escapeHtml(name)}</b>`
    + `<span>${where ? `Returns to ${escapeHtml(where)} · ` : ''}client ${escapeHtml(clip(c.clientId, 48))}</span></div></div>`;
}

export interface LoginView {
  uid: string;
  client: ClientView;
  username?: string;
  error?: string;
  /** Seconds until another attempt is allowed: the form is replaced by the wait. */
  retryAfter?: number;
}

export function loginPage(v: LoginView) {
  const minutes = v.retryAfter ? Math.max(1, Math.ceil(v.retryAfter / 60)) : 0;
  const alert = v.retryAfter
    ? `<div class="alert error" role="alert">Too many failed sign-ins. For your account's safety, try again in ${minutes} minute${minutes === 1 ? '' : 's'}.</div>`
    : v.error ? `<div class="alert error" role="alert">${escapeHtml(v.error)}</div>` : '';
  const body = `<h1>Sign in to connect an assistant</h1>
<p>Use your Clinic Desk username and password. The assistant never sees your password.</p>
${appCard(v.client)}${alert}
<form method="post" action="/oauth2/interaction/${encodeURIComponent(v.uid)}/login" autocomplete="on">
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="200" value="${escapeHtml(v.username ?? '')}"${v.username ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${v.username ? ' autofocus' : ''}>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>
<p class="fine">Not expecting this? Close this window: nothing is connected until you sign in and approve.</p>`;
  return layout('Sign in', body);
}

export interface ConsentView {
  uid: string;
  client: ClientView;
  user: { name: string; username: string; role: string; clinic: string };
  /** Scopes asked for that the user can grant. */
  granted: string[];
  /** Scopes asked for that the user's role does not hold: shown struck through, never granted. */
  beyondRole: string[];
}

export function consentPage(v: ConsentView) {
  const words = (s: string) => escapeHtml(SCOPE_WORDS[s] ?? s);
  const list = v.granted.length
    ? `<ul>${v.granted.map((s) => `<li>${words(s)}</li>`).join('')}${v.beyondRole.map((s) => `<li class="no">${words(s)}</li>`).join('')}</ul>`
    : '<ul><li>Nothing beyond knowing that you approved it</li></ul>';
  const beyond = v.beyondRole.length
    ? `<p class="fine">Struck-through items need a role other than ${escapeHtml(v.user.role)}: the assistant will not get them.</p>`
    : '';
  const body = `<h1>Allow this assistant to act for you?</h1>
${appCard(v.client)}
<div class="who">Signed in as <b>${escapeHtml(v.user.name)}</b> (${escapeHtml(v.user.username)}, ${escapeHtml(v.user.role)}) at <b>${escapeHtml(v.user.clinic)}</b></div>
<h2>It will be able to</h2>
${list}${beyond}
<div class="alert warn">Clinic Desk has not verified this app. Allow it only if you started this connection yourself. It acts as you: everything it does is recorded under your name, and you can disconnect it at any time in Clinic Desk's settings.</div>
<form method="post" action="/oauth2/interaction/${encodeURIComponent(v.uid)}/confirm">
<div class="actions"><button class="secondary" type="submit" name="decision" value="deny">Deny</button>
<button class="primary" type="submit" name="decision" value="allow">Allow</button></div>
</form>`;
  return layout('Allow access', body);
}

export function errorPage(title: string, message: string, detail?: string) {
  const body = `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${detail ? `<p class="fine"><code>${escapeHtml(clip(detail, 300))}</code></p>` : ''}`;
  return layout(title, body);
}
