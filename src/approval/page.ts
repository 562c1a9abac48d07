// Server-rendered approval pages: small, readable on a phone, usable with a keyboard and a screen reader,
// and working without JavaScript. Every value that came from the platform or the assistant is untrusted:
// it is stripped of control and bidi characters and HTML-escaped here, in one place (esc).

import type { DecisionPoint } from '../policy/decide.js';
import { sanitize } from '../untrusted.js';
import type { Approval, Refusal, Viewer } from './store.js';

export function esc(value: unknown): string {
  return sanitize(typeof value === 'string' ? value : String(value))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const CSS = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--line:#d0d7de;--ok:#1a7f37;--no:#cf222e;--box:#f6f8fa;--focus:#0969da}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9da7b3;--line:#3d444d;--ok:#3fb950;--no:#ff7b72;--box:#161b22;--focus:#58a6ff}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:46rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.5rem 0}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
p,dl,ul{margin:.5rem 0}
.muted{color:var(--muted)}
.action{font-size:1.1rem;font-weight:600;padding:.75rem;border-left:4px solid var(--no);background:var(--box);overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.25rem 1rem}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.table{overflow-x:auto}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid var(--line);padding:.4rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:var(--box)}
caption{text-align:left;padding-bottom:.25rem}
del{color:var(--no)}ins{color:var(--ok);text-decoration:none;font-weight:600}
pre{background:var(--box);padding:.75rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9rem}
.buttons{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.5rem 0}
button,input{font:inherit}
button{min-height:44px;padding:.6rem 1.4rem;border-radius:6px;border:2px solid transparent;font-weight:600;cursor:pointer}
.approve{background:var(--ok);color:#fff}.decline{background:var(--bg);color:var(--fg);border-color:var(--line)}
@media (prefers-color-scheme:dark){.approve{color:#0d1117}}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.status{padding:.75rem;border:2px solid var(--line);border-radius:6px;font-weight:600}
.status.approved,.status.used{border-color:var(--ok)}.status.declined,.status.expired{border-color:var(--no)}
input[type=password]{width:100%;max-width:24rem;padding:.5rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
a{color:var(--focus)}
@media (max-width:30rem){dl{grid-template-columns:1fr}dt{margin-top:.5rem}button{flex:1 1 100%}}
`;

export interface PageOptions {
  /** Per-response nonce for the inline stylesheet (Content-Security-Policy). */
  nonce: string;
}

function layout(title: string, body: string, o: PageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${esc(title)} — dbops-mcp</title>
<style nonce="${esc(o.nonce)}">${CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** "9 min 30 s", "1 h 5 min", or "expired". */
export function timeLeft(expiresAt: Date, now: Date): string {
  const s = Math.floor((expiresAt.getTime() - now.getTime()) / 1000);
  if (s <= 0) return 'expired';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h) return `${h} h${m ? ` ${m} min` : ''}`;
  return m ? `${m} min${s % 60 ? ` ${s % 60} s` : ''}` : `${s} s`;
}

function utc(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function show(v: unknown): string {
  if (v === undefined || v === null || v === '') return '(none)';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return JSON.stringify(v);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** One table row per changed leaf: objects are compared key by key, lists item by item. */
export function diffRows(field: string, from: unknown, to: unknown, depth = 0): string[] {
  if (depth < 3 && (isObject(from) || isObject(to)) && !Array.isArray(from) && !Array.isArray(to)) {
    const a = isObject(from) ? from : {};
    const b = isObject(to) ? to : {};
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    const rows = keys
      .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
      .flatMap((k) => diffRows(`${field}.${k}`, a[k], b[k], depth + 1));
    return rows.length ? rows : [row(field, esc(show(from)), esc(show(to)))];
  }
  if (Array.isArray(from) || Array.isArray(to)) {
    const a = (Array.isArray(from) ? from : []).map(show);
    const b = (Array.isArray(to) ? to : []).map(show);
    const before = a.map((x) => (b.includes(x) ? esc(x) : `<del>− ${esc(x)}</del>`));
    const after = b.map((x) => (a.includes(x) ? esc(x) : `<ins>+ ${esc(x)}</ins>`));
    const list = (items: string[]) =>
      items.length ? `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>` : '(none)';
    return [row(field, list(before), list(after))];
  }
  return [row(field, esc(show(from)), esc(show(to)))];
}

function row(field: string, from: string, to: string): string {
  return `<tr><th scope="row">${esc(field)}</th><td>${from}</td><td>${to}</td></tr>`;
}

function pairs(obj: Record<string, unknown>): string {
  const items = Object.entries(obj).filter(([, v]) => v !== undefined);
  if (!items.length) return '<p class="muted">(none)</p>';
  return `<dl>${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(show(v))}</dd>`).join('')}</dl>`;
}

const HEADING: Record<Approval['state'], string> = {
  pending: 'Approve this change?',
  approved: 'Change approved',
  declined: 'Change declined',
  expired: 'Approval expired',
  used: 'Change applied',
};

const STATUS: Record<Approval['state'], string> = {
  pending: '',
  approved: 'Approved. Go back to your assistant: the change is applied when it calls the tool again.',
  declined: 'Declined. Nothing will change.',
  expired:
    'This approval has expired. Nothing changed; ask your assistant to try again if you still want it.',
  used: 'Approved, and the change has been applied.',
};

/** Who asked, in words: "priya@example.com with Claude Code 2.1.3 (session 3f2a…)". */
function requestedBy(a: Approval): string {
  const r = a.requester;
  if (!r) return 'an assistant';
  return `${r.name ?? r.person} with ${r.client}${r.session ? ` (session ${r.session.slice(0, 8)}…)` : ''}`;
}

/** The page's view of who looks and what they may do. */
export interface Looker {
  viewer?: Viewer;
  refusal?: Refusal;
  /** Opened by the signed link where people sign in: it shows the request; deciding needs a sign-in. */
  viewOnly?: boolean;
  /** The four-eyes sentence, from the decision point. */
  fourEyes?: string;
}

export function approvalPage(
  a: Approval,
  now: Date,
  o: PageOptions,
  problem?: string,
  look: Looker = {},
): string {
  const p = a.preview;
  const left = timeLeft(a.expiresAt, now);
  const decided = a.state !== 'pending';
  const own = look.viewer !== undefined && a.requester?.person === look.viewer.person;
  const decider = a.decidedByName ?? a.decidedBy;
  const parts = [
    `<h1>${decided ? HEADING[a.state] : 'Approve this change?'}</h1>`,
    `<p class="muted">${esc(a.title)}, requested by <strong>${esc(own && !look.viewer?.alone ? `you (${requestedBy(a)})` : requestedBy(a))}</strong> through the <code>${esc(a.tool)}</code> tool. Nothing changes until it is approved.</p>`,
    look.viewer && !look.viewer.alone
      ? `<p class="muted">Signed in as ${esc(look.viewer.name ?? look.viewer.person)}${look.viewer.approver ? ' (approver)' : ''}.</p>`
      : '',
    problem ? `<p class="status declined" role="alert">${esc(problem)}</p>` : '',
    decided
      ? `<p class="status ${a.state}" role="status">${esc(STATUS[a.state])}${decider && !look.viewer?.alone ? ` (${esc(decider)})` : ''}</p>`
      : '',
    !decided && look.refusal === 'four-eyes'
      ? `<p class="status declined" role="status">${esc(look.fourEyes ?? 'An approver other than you must approve this change (DBOPS_APPROVERS).')} You can decline it.</p>`
      : '',
    !decided && look.viewOnly
      ? `<p class="status" role="status">This link shows the request only. To approve or decline it, <a href="/approvals/login?next=${esc(encodeURIComponent(`/approvals/${a.id}`))}">sign in as yourself</a>.</p>`
      : '',
    `<p class="action">${esc(p.action)}</p>`,
    `<h2>Target</h2>${pairs(p.target)}`,
  ];
  if (p.changes?.length)
    parts.push(
      `<h2>Change</h2><div class="table"><table><caption class="muted">Current value and the value after the change</caption><thead><tr><th scope="col">Field</th><th scope="col">Now</th><th scope="col">After</th></tr></thead><tbody>${p.changes
        .flatMap((c) => diffRows(c.field, c.from, c.to))
        .join('')}</tbody></table></div>`,
    );
  if (p.current) parts.push(`<h2>Current state</h2>${pairs(p.current)}`);
  if (p.notes?.length)
    parts.push(`<h2>Please note</h2><ul>${p.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
  parts.push(
    `<h2>Arguments</h2><pre>${esc(JSON.stringify(a.args, null, 2))}</pre>`,
    `<p>Expires <time datetime="${a.expiresAt.toISOString()}">${utc(a.expiresAt)}</time> (${decided && a.state !== 'approved' ? esc(a.state) : `${esc(left)} left`}).</p>`,
  );
  if (!decided && !look.viewOnly) {
    const action = `/approvals/${esc(a.id)}`;
    const approve =
      look.refusal === 'four-eyes'
        ? ''
        : '<button class="approve" type="submit" name="decision" value="approve">Approve</button>';
    parts.push(
      `<form method="post" action="${action}"><input type="hidden" name="csrf" value="${esc(a.secret)}"><div class="buttons">${approve}<button class="decline" type="submit" name="decision" value="decline">Decline</button></div></form>`,
    );
  }
  parts.push(
    `<p class="muted">Approval <code>${esc(a.id)}</code> is single use and bound to exactly these arguments. <a href="/approvals">All pending approvals</a></p>`,
  );
  return layout(`${decided ? a.state : 'Approve'}: ${a.title}`, parts.join('\n'), o);
}

export function listPage(items: Approval[], now: Date, o: PageOptions, viewer?: Viewer): string {
  const whose =
    viewer && !viewer.alone ? (viewer.approver ? ' (everyone’s: you are an approver)' : ' (yours)') : '';
  const body = items.length
    ? `<div class="table"><table><thead><tr><th scope="col">Change</th><th scope="col">Requested by</th><th scope="col">Tool</th><th scope="col">Time left</th></tr></thead><tbody>${items
        .map(
          (a) =>
            `<tr><td><a href="/approvals/${esc(a.id)}">${esc(a.preview.action)}</a></td><td>${esc(requestedBy(a))}</td><td><code>${esc(a.tool)}</code></td><td>${esc(timeLeft(a.expiresAt, now))}</td></tr>`,
        )
        .join('')}</tbody></table></div>`
    : '<p>No approvals are waiting. Decided and expired approvals are recorded in the audit log.</p>';
  const who =
    viewer && !viewer.alone ? `<p class="muted">Signed in as ${esc(viewer.name ?? viewer.person)}.</p>` : '';
  return layout('Pending approvals', `<h1>Pending approvals${esc(whose)}</h1>\n${who}${body}`, o);
}

export function loginPage(next: string, o: PageOptions, problem?: string, issuer = false): string {
  const how = issuer
    ? `<p>Approvals need you to sign in, so that each person sees their own requests.</p>
<p><a class="approve" href="/approvals/login?next=${esc(encodeURIComponent(next))}">Sign in with your organisation’s account</a></p>`
    : `<p>This server is reachable beyond this computer, so approvals need your access token (the one your MCP client sends: <code>DBOPS_HTTP_TOKEN</code> or your line of <code>DBOPS_HTTP_TOKENS_FILE</code>).</p>
<form method="post" action="/approvals/login">
<input type="hidden" name="next" value="${esc(next)}">
<p><label for="token">Access token</label><br><input id="token" name="token" type="password" autocomplete="current-password" required autofocus></p>
<div class="buttons"><button class="approve" type="submit">Sign in</button></div>
</form>`;
  return layout(
    'Sign in',
    `<h1>Sign in to approve changes</h1>
${problem ? `<p class="status declined" role="alert">${esc(problem)}</p>` : ''}
${how}`,
    o,
  );
}

/** A page that moves on to `to` by itself: a navigation from this origin carries the Strict sign-in cookie. */
export function bouncePage(to: string, o: PageOptions): string {
  return layout(
    'One moment',
    `<meta http-equiv="refresh" content="0;url=${esc(to)}">
<h1>One moment…</h1>
<p><a href="${esc(to)}">Continue</a></p>`,
    o,
  );
}

/** One approval for scripts (GET/POST with a bearer token): what it is, who asked, what the viewer may do. */
export function approvalJson(a: Approval, v: Viewer, decisions: DecisionPoint) {
  return {
    id: a.id,
    tool: a.tool,
    action: sanitize(a.preview.action),
    state: a.state,
    requester: a.requester
      ? { person: a.requester.name ?? a.requester.person, client: a.requester.client }
      : null,
    expiresAt: a.expiresAt.toISOString(),
    ...(a.decidedBy ? { decidedBy: a.decidedByName ?? a.decidedBy } : {}),
    fourEyes: decisions.secondPerson(a) !== undefined,
    mayApprove: a.state === 'pending' && decisions.mayDecide(a, v, 'approve') === undefined,
  };
}

export function messagePage(title: string, text: string, o: PageOptions): string {
  return layout(
    title,
    `<h1>${esc(title)}</h1>\n<p>${esc(text)}</p>\n<p><a href="/approvals">Pending approvals</a></p>`,
    o,
  );
}
