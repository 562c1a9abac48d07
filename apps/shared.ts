// What the three views share: connecting to the host through ext-apps' App, the host's theme, building DOM
// from platform text (always textContent, never HTML), a time axis, and the consent card of a guarded call.
// Views read a tool result's data through dataOf(): its structuredContent, or when the server had to shorten
// that part for the model (one output budget for text and structured content), the fuller copy it sends the
// view in the result's _meta. Either way its bounded shape is their contract.
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';

export type Json = Record<string, unknown>;
export interface ToolResultLike {
  structuredContent?: Json;
  _meta?: Json;
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const ms = (iso: unknown): number => Date.parse(str(iso));

/** Where the server puts a view's fuller copy of the data (src/mcp/apps.ts VIEW_DATA, the same string). */
export const VIEW_DATA = 'dbops-mcp/view-data';

/** A result's data for the view: the fuller copy when the server sent one, else structuredContent. */
export function dataOf(r: ToolResultLike): Json {
  const full = r._meta?.[VIEW_DATA];
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

/** "2026-11-25 08:17 UTC": absolute, as the platform stores it. */
export function utc(iso: unknown): string {
  const t = typeof iso === 'number' ? iso : ms(iso);
  return Number.isFinite(t) ? `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '—';
}

/** A time scale from [from, to] onto 0–100 %. */
export function axis(from: number, to: number) {
  const span = Math.max(1, to - from);
  const pct = (t: number) => Math.min(100, Math.max(0, ((t - from) / span) * 100));
  return { from, to, pct };
}

/** Tick labels along an axis: a handful, evenly spaced, over [left, left + width] % of the row. */
export function ticks(a: ReturnType<typeof axis>, n = 5, left = 0, width = 100): HTMLElement {
  const row = el('div', 'ticks');
  row.setAttribute('aria-hidden', 'true');
  // With a band on the left, its own label stands where the first tick would.
  for (let i = left > 0 ? 1 : 0; i <= n; i++) {
    const t = a.from + ((a.to - a.from) * i) / n;
    const tick = el('span', 'tick', new Date(t).toISOString().slice(5, 16).replace('T', ' '));
    tick.style.left = `${left + (i / n) * width}%`;
    row.append(tick);
  }
  return row;
}

function applyContext(ctx: McpUiHostContext | undefined): void {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
}

/** Connects the view to its host; `render` gets every tool result the host passes on. */
export function startView(name: string, render: (r: ToolResultLike, app: App) => void): App {
  const app = new App({ name: `dbops-mcp ${name}`, version: '1' }, {}, { autoResize: true });
  app.ontoolresult = (r) => render(r as ToolResultLike, app);
  app.onhostcontextchanged = (ctx) => applyContext(ctx);
  void app.connect().then(() => applyContext(app.getHostContext()));
  return app;
}

/** The view's status line, read out by screen readers when it changes. */
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

/** What the server left out of a result it shortened (structuredContent is bounded): said, not hidden. */
export function shortened(s: Json): HTMLElement | null {
  const cuts = arr(s.leftOut).map(obj);
  if (!cuts.length) return null;
  const list = cuts.map((c) => `${str(c.path)}: ${str(c.kept)} of ${str(c.of)}`).join('; ');
  return el('p', 'status', `Shortened by the server (${list}); ask the assistant for the rest.`);
}

const OUTCOMES: Record<string, string> = {
  approval_pending: 'Approval needed — nothing has changed yet',
  confirmation_required: 'Confirmation needed — nothing has changed yet',
  declined: 'Declined — nothing changed',
  executed: 'Done',
};

/**
 * The consent card: what a guarded call would change (action, who and what is affected, from → to, notes)
 * and where the person approves. The card shows; it never approves: approval stays on the approval page (or
 * in the client's own dialog).
 */
export function consentCard(s: Json, app?: App): HTMLElement {
  const outcome = str(s.outcome);
  const preview = obj(s.preview);
  const card = el('section', `card consent ${outcome}`);
  card.setAttribute('aria-label', 'Consent');
  card.append(el('h2', '', OUTCOMES[outcome] ?? outcome));
  if (preview.action) card.append(el('p', 'action', preview.action));
  const target = obj(preview.target);
  if (Object.keys(target).length) {
    const dl = el('dl', 'who');
    for (const [k, v] of Object.entries(target)) dl.append(el('dt', '', k), el('dd', '', v));
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
      const tr = el('tr', '', undefined, el('td', '', c.field), el('td', 'lost', c.from ?? '—'));
      tr.append(el('td', 'gained', c.to ?? '—'));
      body.append(tr);
    }
    table.append(body);
    card.append(table);
  }
  // What stands now (for a delete: all of it goes), when the change has no field-by-field list.
  const kept = Object.entries(current).filter(([k]) => !changes.some((c) => c.field === k));
  if (kept.length) {
    const dl = el('dl', 'who');
    for (const [k, v] of kept) dl.append(el('dt', '', k), el('dd', '', v));
    card.append(el('h3', '', changes.length ? 'Also now' : 'Now'), dl);
  }
  const notes = arr(preview.notes);
  if (notes.length) card.append(el('ul', 'notes', undefined, ...notes.map((n) => el('li', '', n))));
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
      el('p', 'mono', c.approvalId ? `approvalId ${str(c.approvalId)} · expires ${utc(c.expiresAt)}` : ''),
    );
  } else if (outcome === 'confirmation_required') {
    card.append(
      el('p', 'how', 'The assistant asks you in the chat before it goes ahead; this card cannot approve.'),
    );
  }
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
