// What the three apps share: connecting to the host through ext-apps' App, the host's theme, building DOM
// from platform text (always textContent, never HTML), a time axis, and the consent card of a guarded call.
// Apps read a tool result's data through dataOf(): its structuredContent, or when the server had to shorten
// that part for the model (one output budget for text and structured content), the fuller copy it sends the
// app in the result's _meta. Either way its bounded shape is their contract.
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { span } from '../src/rules/index.js';

export type Json = Record<string, unknown>;
interface ToolResultLike {
  structuredContent?: Json;
  _meta?: Json;
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const ms = (iso: unknown): number => Date.parse(str(iso));

/** Where the server puts an app's fuller copy of the data (src/mcp/apps.ts APP_DATA, the same string). */
const APP_DATA = 'dbops-mcp/view-data';

/** A result's data for the app: the fuller copy when the server sent one, else structuredContent. */
export function dataOf(r: ToolResultLike): Json {
  const full = r._meta?.[APP_DATA];
  return full && typeof full === 'object' && !Array.isArray(full)
    ? (full as Json)
    : (r.structuredContent ?? {});
}

/** An element whose text is set as text: platform text can never become markup. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls = '',
  text?: unknown,
  ...children: Array<Node | null | undefined>
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null && text !== '') e.textContent = str(text);
  for (const c of children) if (c) e.append(c);
  return e;
}

export function button(label: string, onPress: () => void, cls = ''): HTMLButtonElement {
  const b = el('button', cls, label);
  b.type = 'button';
  b.addEventListener('click', onPress);
  return b;
}

/** The host's time zone when its context gives one (an IANA name), else UTC: every app's times are in it. */
let zone = 'UTC';
let clock: Intl.DateTimeFormat | undefined;
function parts(t: number): Record<string, string> {
  clock ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  return Object.fromEntries(clock.formatToParts(t).map((p) => [p.type, p.value]));
}

/** The one time form of every app: "2026-11-25 08:17 UTC", in the host's zone ("… 09:17 CET"). */
export function when(iso: unknown): string {
  const t = typeof iso === 'number' ? iso : ms(iso);
  if (!Number.isFinite(t)) return '—';
  const p = parts(t);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

/** "5 d ago" / "in 2 h", as the text answers say it. */
export function ago(iso: unknown, now = Date.now()): string {
  const t = typeof iso === 'number' ? iso : ms(iso);
  if (!Number.isFinite(t)) return '';
  return t <= now ? `${span(now - t)} ago` : `in ${span(t - now)}`;
}

/** "2026-11-25 08:17 UTC (5 d ago)". */
export const whenAgo = (iso: unknown): string => {
  const w = when(iso);
  return w === '—' ? w : `${w} (${ago(iso)})`;
};

/**
 * Server text (a preview's "2026-11-26 08:36 UTC (in 2 h)", an ISO "2026-11-26T05:36:48Z") in the one form:
 * every time a app shows reads the same, in the host's zone.
 */
function retime(v: unknown): string {
  return str(v)
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)\b/g, (m) => when(m))
    .replace(/\b(\d{4}-\d\d-\d\d) (\d\d:\d\d) UTC\b/g, (_m, d, t) => when(`${d}T${t}:00Z`));
}

const HEX = /\b[0-9a-f]{24}\b/gi;
/** Whether a string is a platform id (24 hex digits): a person reads its name instead. */
export const isId = (v: unknown): boolean => typeof v === 'string' && /^[0-9a-f]{24}$/i.test(v);

/**
 * Server text with names where it has ids: "`payments-prod` (09c5…)" reads "payments-prod"; "alertConfigId 5a0b…"
 * reads the configuration's name when `names` knows it. An id with no name known reads as what it is ("an
 * alert configuration"): the ids stay in the app's "Ids" list and on hover.
 */
export function unId(v: unknown, names: Map<string, string> = new Map()): string {
  return retime(v)
    .replace(/`([^`]+)` \(([0-9a-f]{24})\)/gi, '$1')
    .replace(/\b(\w*?)Ids? ([0-9a-f]{24}(?:, [0-9a-f]{24})*)/gi, (_m, kind: string, ids: string) =>
      ids
        .split(', ')
        .map((id) => names.get(id) ?? `${kind.replace(/([A-Z])/g, ' $1').toLowerCase()} (unnamed)`)
        .join(', '),
    )
    .replace(HEX, (id) => names.get(id) ?? '(unnamed)')
    .replace(/`([^`\n]+)`/g, '$1');
}

/** A collapsed list of the ids behind what a app names: for a follow-up question, off the visible text. */
export function idList(pairs: Array<[string, unknown]>): HTMLElement | null {
  const shown = pairs.filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (!shown.length) return null;
  const dl = el('dl', 'who mono');
  for (const [k, v] of shown) dl.append(el('dt', '', k), el('dd', '', v));
  const d = el('details', 'ids', undefined, el('summary', '', 'Ids'), dl);
  return d;
}

/** Below this width a app stacks each label above its track (style.css has the same number). */
export const NARROW = 560;
/** The width of a track in a app `width` px wide: the whole row when narrow, less the label column else. */
export const trackPx = (width: number): number =>
  Math.max(120, width < NARROW ? width : width - Math.max(180, 0.28 * width));

/** A time scale from [from, to] onto 0–100 %. */
export function axis(from: number, to: number) {
  const span = Math.max(1, to - from);
  const pct = (t: number) => Math.min(100, Math.max(0, ((t - from) / span) * 100));
  return { from, to, pct };
}

/**
 * Tick labels along an axis over [left, left + width] % of the row, as many as the row's width holds: the
 * first starts at its mark, the last ends at its own, none over another (a label that would touch its
 * neighbour steps aside). Call fitTicks(row) once the row is in the page.
 */
export function ticks(a: ReturnType<typeof axis>, px: number, left = 0, width = 100): HTMLElement {
  const row = el('div', 'ticks');
  row.setAttribute('aria-hidden', 'true');
  // A label is about 120 px wide: one every 190 px or so leaves room between them.
  const n = Math.max(1, Math.min(5, Math.floor((px * width) / 100 / 190)));
  for (let i = 0; i <= n; i++) {
    const t = a.from + ((a.to - a.from) * i) / n;
    const tick = el('span', `tick${i === n ? ' end' : i === 0 ? ' start' : ''}`, when(t));
    tick.style.left = `${left + (i / n) * width}%`;
    row.append(tick);
  }
  return row;
}

/** Drops the tick labels that would overlap the one before (the last one is kept, its neighbour goes). */
export function fitTicks(row: HTMLElement): void {
  const all = [...row.querySelectorAll<HTMLElement>('.tick')];
  let prev: DOMRect | undefined;
  for (const [i, t] of all.entries()) {
    const r = t.getBoundingClientRect();
    const last = i === all.length - 1;
    if (prev && r.left < prev.right + 6) {
      if (!last) {
        t.remove();
        continue;
      }
      all[i - 1]?.remove();
    }
    prev = r;
  }
}

/** Applies the host's context; true when what the app draws changes with it (its time zone). */
function applyContext(ctx: McpUiHostContext | undefined): boolean {
  if (!ctx) return false;
  let redraw = false;
  if (ctx.timeZone && ctx.timeZone !== zone) {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: ctx.timeZone });
      zone = ctx.timeZone;
      clock = undefined;
      redraw = true;
    } catch {
      // A zone this browser does not know: the times stay in UTC, which they say.
    }
  }
  // The layout follows the host's container: never wider than it offers.
  const c = ctx.containerDimensions as { width?: number; maxWidth?: number } | undefined;
  const w = c?.width ?? c?.maxWidth;
  if (w) document.documentElement.style.maxWidth = `${w}px`;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
  return redraw;
}

/**
 * Connects the app to its host; `render` gets every tool result the host passes on, and draws it again when
 * the host's time zone or the app's width class changes (labels and ticks depend on both).
 */
export function startView(name: string, render: (r: ToolResultLike, app: App) => void): App {
  const app = new App({ name: `dbops-mcp ${name}`, version: '1' }, {}, { autoResize: true });
  let last: ToolResultLike | undefined;
  const draw = () => last && render(last, app);
  app.ontoolresult = (r) => {
    last = r as ToolResultLike;
    draw();
  };
  app.onhostcontextchanged = (ctx) => applyContext(ctx) && draw();
  void app.connect().then(() => applyContext(app.getHostContext()) && draw());
  let width = document.documentElement.clientWidth;
  new ResizeObserver(() => {
    const now = document.documentElement.clientWidth;
    if (Math.abs(now - width) > 40) {
      width = now;
      draw();
    }
  }).observe(document.documentElement);
  return app;
}

/** The app's status line, read out by screen readers when it changes. */
export function status(root: HTMLElement): (text: string, tone?: 'ok' | 'warn' | 'error') => void {
  const line = el('p', 'status');
  line.setAttribute('role', 'status');
  line.setAttribute('aria-live', 'polite');
  root.append(line);
  return (text, tone) => {
    line.textContent = text;
    line.dataset.tone = tone ?? '';
  };
}

/** How a person calls the lists the server may shorten; an unknown path is shown as it is. */
const LISTS: Record<string, string> = {
  'alerts.groups': 'causes (the least urgent)',
  'alerts.groups[].alerts': 'alerts in a cause (acknowledged and oldest first)',
  timeline: 'timeline entries (the oldest)',
  maintenanceWindows: 'maintenance windows (the latest to start)',
  'automation.behind': 'processes behind the goal',
  results: 'items of this page',
};

/**
 * What the server left out of a result it shortened (structuredContent is bounded): said in words, with how to
 * see it, not hidden. `how` names the call that shows the rest.
 */
export function shortened(s: Json, how = 'ask the assistant for the rest'): HTMLElement | null {
  const cuts = arr(s.leftOut)
    .map(obj)
    .filter((c) => !str(c.path).endsWith('(characters)') && !str(c.path).endsWith('(fields)'));
  if (!cuts.length) return null;
  const list = cuts
    .map(
      (c) =>
        `${str(c.of) === '' ? '' : `${Number(c.of) - Number(c.kept)} of ${str(c.of)} `}${LISTS[str(c.path)] ?? str(c.path)}`,
    )
    .join('; ');
  return el('p', 'status left-out', `Left out: ${list} — ${how}.`);
}

const OUTCOMES: Record<string, string> = {
  approval_pending: 'Approval needed — nothing has changed yet',
  confirmation_required: 'Confirmation needed — nothing has changed yet',
  declined: 'Declined — nothing changed',
  executed: 'Done',
};

/** What a preview's target keys are to a person. */
const TARGETS: Record<string, string> = {
  project: 'project',
  projectId: 'project',
  maintenanceWindowId: 'window',
  alertConfigId: 'alert configuration',
  globalAlertConfigId: 'global alert configuration',
  alertId: 'alert',
  userId: 'person',
  hostId: 'host',
  orgId: 'organization',
};

/** The names a preview knows for its ids: the server's (preview.names), a window's own description. */
export function previewNames(preview: Json): Map<string, string> {
  const names = new Map<string, string>(Object.entries(obj(preview.names)).map(([k, v]) => [k, str(v)]));
  const target = obj(preview.target);
  const desc = str(obj(preview.current).description);
  if (isId(target.maintenanceWindowId) && desc && !names.has(str(target.maintenanceWindowId)))
    names.set(str(target.maintenanceWindowId), desc);
  // "`payments-prod` (09c5…)" in the action line: the name the text answer gives that id.
  for (const m of str(preview.action).matchAll(/`([^`]+)` \(([0-9a-f]{24})\)/gi))
    if (!names.has(m[2]!)) names.set(m[2]!, m[1]!);
  return names;
}

/**
 * The consent card: what a guarded call would change (action, who and what is affected, from → to, notes)
 * and where the person approves, with names where the platform has ids and times in the one form. The card
 * shows; it never approves: approval stays on the approval page (or in the client's own dialog).
 */
export function consentCard(s: Json, app?: App): HTMLElement {
  const outcome = str(s.outcome);
  const preview = obj(s.preview);
  const names = previewNames(preview);
  const card = el('section', `card consent ${outcome}`);
  card.setAttribute('aria-label', 'Consent');
  card.append(el('h2', '', OUTCOMES[outcome] ?? outcome));
  if (preview.action) card.append(el('p', 'action', unId(preview.action, names)));
  const target = obj(preview.target);
  const ids: Array<[string, unknown]> = [];
  if (Object.keys(target).length) {
    const dl = el('dl', 'who');
    for (const [k, v] of Object.entries(target)) {
      if (isId(v)) ids.push([k, v]);
      const shown = isId(v) ? (names.get(str(v)) ?? 'unnamed (its id is under Ids)') : unId(v, names);
      dl.append(el('dt', '', TARGETS[k] ?? k), el('dd', '', shown));
    }
    card.append(el('h3', '', 'Affected'), dl);
  }
  const current = obj(preview.current);
  const changes = arr(preview.changes).map(obj);
  if (changes.length) {
    const table = el('table', 'changes');
    const head = el('tr', '', undefined, el('th', '', 'field'), el('th', 'lost', 'now (lost)'));
    head.append(el('th', 'gained', 'after (gained)'));
    table.append(el('thead', '', undefined, head));
    const body = el('tbody');
    for (const c of changes) {
      const tr = el('tr', '', undefined, el('td', '', c.field), el('td', 'lost', unId(c.from ?? '—', names)));
      tr.append(el('td', 'gained', unId(c.to ?? '—', names)));
      body.append(tr);
    }
    table.append(body);
    card.append(table);
  }
  // What stands now (for a delete: all of it goes), when the change has no field-by-field list.
  const kept = Object.entries(current).filter(([k]) => !changes.some((c) => c.field === k));
  if (kept.length) {
    const dl = el('dl', 'who');
    for (const [k, v] of kept) dl.append(el('dt', '', k), el('dd', '', unId(v, names)));
    card.append(el('h3', '', changes.length ? 'Also now' : 'Now'), dl);
  }
  const notes = arr(preview.notes);
  if (notes.length)
    card.append(el('ul', 'notes', undefined, ...notes.map((n) => el('li', '', unId(n, names)))));
  const c = obj(s.confirmation);
  const url = str(c.url);
  if (outcome === 'approval_pending' && /^https?:\/\//.test(url)) {
    const link = el('a', 'approve', 'Open the approval page');
    link.href = url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    // In a sandboxed frame a plain link may not open: ask the host to open it (the person still decides there).
    if (app)
      link.addEventListener('click', (e) => {
        e.preventDefault();
        void app.openLink({ url });
      });
    card.append(
      el('p', 'how', 'The person approves or declines on the approval page; this card cannot approve.'),
      link,
      el('p', 'sub', c.expiresAt ? `The request expires ${when(c.expiresAt)} (${ago(c.expiresAt)}).` : ''),
    );
    ids.push(['approvalId', c.approvalId]);
  } else if (outcome === 'confirmation_required') {
    card.append(
      el('p', 'how', 'The assistant asks you in the chat before it goes ahead; this card cannot approve.'),
    );
  }
  card.append(idList(ids) ?? '');
  return card;
}

/** Calls a server tool through the host: an ordinary tools/call, so the server's consent applies. */
export async function callThroughHost(
  app: App,
  name: string,
  args: Json,
): Promise<ToolResultLike & { structuredContent?: Json }> {
  return (await app.callServerTool({ name, arguments: args })) as ToolResultLike;
}
