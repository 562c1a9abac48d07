// The incident timeline for triage_project: the whole picture first (counts, automation, agents, the windows
// in force), then the causes most urgent first (not acknowledged and not muted, data availability, the newest)
// each on one time axis with its severity, what mutes it (the window's description) and a strip of its hosts;
// changes and windows on the same axis; the story newest first. A click on an alert shows its details, and
// "Acknowledge for 2 h" asks the server through the host: an ordinary tools/call that meets the server's
// consent like any other (this app never approves anything). When the server had to shorten the data it
// sent today's urgent alerts and the newest changes first (src/mcp/apps.ts), and the app says what it left out.
import type { App } from '@modelcontextprotocol/ext-apps';
import {
  acked,
  agentsLine,
  alertsLine,
  automationLine,
  causeHosts,
  causeName,
  changesLine,
  hostOf,
  knowWindows,
  maintenanceLine,
  muted,
  open,
  severity,
  type Triage,
  urgency,
  windowOf,
} from './incident-timeline-summary.js';
import {
  arr,
  axis,
  button,
  callThroughHost,
  consentCard,
  dataOf,
  el,
  fitTicks,
  idList,
  type Json,
  ms,
  NARROW,
  obj,
  shortened,
  startView,
  status,
  str,
  ticks,
  trackPx,
  unId,
  when,
  whenAgo,
} from './shared.js';

const root = el('main');
document.body.append(root);

/** The triage as the app draws it: sorted, its ids named, and the (hidden) details card. */
function readTriage(s: Json, app: App, say: Triage['say']): Triage {
  const win = obj(s.window);
  const alertsPart = s.alerts ? obj(s.alerts) : undefined;
  const groups = arr(alertsPart?.groups).map(obj).sort(urgency);
  const timeline = arr(s.timeline)
    .map(obj)
    .sort((x, y) => (ms(y.time) || 0) - (ms(x.time) || 0));
  const windows = arr(s.maintenanceWindows).map(obj);
  knowWindows(windows);
  // A configuration by its condition, a window by its description, the project by its name.
  const names = new Map<string, string>();
  for (const g of groups) for (const id of arr(g.alertConfigIds)) names.set(str(id), causeName(g));
  for (const w of windows) if (w.description) names.set(str(w.id), str(w.description));
  if (s.projectName) names.set(str(s.projectId), str(s.projectName));
  const details = el('section', 'card details');
  details.setAttribute('aria-label', 'Alert details');
  details.hidden = true;
  return {
    s,
    app,
    win,
    project: str(s.projectName) || 'this project',
    say,
    alertsPart,
    groups,
    timeline,
    changes: timeline.filter((e) => e.kind === 'change'),
    windows,
    alerts: groups.flatMap((g) => arr(g.alerts).map(obj)),
    errors: arr(s.errors).map(obj),
    names,
    details,
  };
}

/** The whole picture, in words, before any axis. */
function drawSummary(t: Triage): void {
  const summary = el('dl', 'who summary');
  const lines: Array<[string, (t: Triage) => string]> = [
    ['Alerts', alertsLine],
    ['Automation', automationLine],
    ['Agents', agentsLine],
    ['Maintenance', maintenanceLine],
    ['Changes', changesLine],
  ];
  for (const [k, v] of lines) summary.append(el('dt', '', k), el('dd', '', v(t)));
  root.append(
    summary,
    shortened(t.s, 'ask the assistant for the rest (triage_project, list_open_alerts)') ?? '',
  );
}

/** The time axis: the window's hours, with an "earlier" band at the left when older alerts are still open. */
interface Axis {
  from: number;
  to: number;
  pct(t: number): number;
  /** Width of the "earlier" band in %, 0 when there is none. */
  gutter: number;
  since: number;
  main: ReturnType<typeof axis>;
}

// The triage's window (last N hours) takes the axis; what started before it (old alerts still open) sits in
// a narrow "earlier" band at the left, in order, so the window itself stays readable.
function timeAxis(t: Triage): Axis {
  const since = ms(t.win.since);
  const until = ms(t.win.until);
  const times = [...t.timeline.map((e) => ms(e.time)), ...t.alerts.map((x) => ms(x.created))].filter(
    Number.isFinite,
  );
  const earliest = Math.min(since, ...times);
  const gutter = earliest < since ? 12 : 0;
  // Windows in force run on past now: the axis shows them up to half a day ahead.
  const ends = t.windows.map((w) => Math.min(ms(w.endDate), until + 12 * 3_600_000)).filter(Number.isFinite);
  const main = axis(since, Math.max(until, ...times, ...ends));
  const early = axis(earliest, since);
  return {
    from: earliest,
    to: main.to,
    pct: (x: number) =>
      x < since ? (early.pct(x) * gutter) / 100 : gutter + (main.pct(x) * (100 - gutter)) / 100,
    gutter,
    since,
    main,
  };
}

/** The legend and the row of ticks above the tracks. */
function drawAxis(ax: Axis): void {
  const legend = el(
    'div',
    'legend',
    undefined,
    el('span', 'key change', '■ change'),
    el('span', 'key alert', '■ alert'),
  );
  legend.append(el('span', '', '▒ maintenance window'), el('span', 'key acked', '■ acknowledged'));
  // The track's width: the whole row on a narrow panel (labels above), less the label column on a wide one.
  const narrow = root.clientWidth < NARROW;
  const axisRow = ticks(ax.main, trackPx(root.clientWidth), ax.gutter, 100 - ax.gutter);
  if (ax.gutter) {
    const e = el('span', 'tick early', narrow ? '◂' : '◂ earlier');
    e.style.left = '0';
    e.title = `before ${when(ax.since)}`;
    axisRow.prepend(e);
  }
  root.append(legend, axisRow);
  fitTicks(axisRow);
}

/** A track with the "earlier" divider and the maintenance windows shaded on it. */
function shadedTrack(t: Triage, ax: Axis): HTMLElement {
  const track = el('div', 'track');
  if (ax.gutter) {
    const d = el('div', 'divider');
    d.style.left = `${ax.gutter}%`;
    track.append(d);
  }
  for (const w of t.windows) {
    const from = Math.max(ax.from, ms(w.startDate));
    const to = Math.min(ax.to, ms(w.endDate));
    if (!(to > from)) continue;
    const span = el('div', 'span');
    span.style.left = `${ax.pct(from)}%`;
    span.style.width = `${ax.pct(to) - ax.pct(from)}%`;
    span.title = `${str(w.description)} (mutes ${arr(w.alertTypeNames).join(', ')})`;
    track.append(span);
  }
  return track;
}

const row = (label: HTMLElement, track: HTMLElement, cls = '') =>
  el('div', `row ${cls}`.trim(), undefined, label, track);

/** Changes: one mark each on the shared axis; then windows in force or upcoming, a row of their own. */
function drawChangesAndWindows(t: Triage, ax: Axis): void {
  const changeTrack = shadedTrack(t, ax);
  for (const e of t.changes) {
    const m = button('', () => showChange(t, e), 'mark change');
    m.style.left = `${ax.pct(ms(e.time))}%`;
    m.setAttribute(
      'aria-label',
      `${when(e.time)} changed ${str(e.eventTypeName)}: ${unId(e.summary, t.names)}`,
    );
    m.title = m.getAttribute('aria-label') ?? '';
    changeTrack.append(m);
  }
  root.append(row(el('div', 'label', 'Changes'), changeTrack));
  // So a span is seen even with no alert under it.
  if (t.windows.length) root.append(row(el('div', 'label', 'Maintenance'), shadedTrack(t, ax)));
}

/** What mutes a cause (or will), or that nothing does. */
function muteState(g: Json): string {
  const w = windowOf(g);
  return muted(g)
    ? `muted by “${str(w.description) || 'a maintenance window'}” until ${when(w.endDate)}`
    : !open(g)
      ? 'all acknowledged'
      : w.state === 'upcoming'
        ? `will be muted by “${str(w.description) || 'a window'}” from ${when(w.startDate)}`
        : 'not muted';
}

/** One cause: its severity and state, a row of alert marks on the axis, the strip of its hosts. */
function drawCause(t: Triage, ax: Axis, g: Json): void {
  const track = shadedTrack(t, ax);
  const strip = el('div', 'hosts');
  strip.setAttribute('aria-label', `Hosts of ${causeName(g)}`);
  const shown = arr(g.alerts).map(obj);
  for (const al of shown) {
    const isAcked = acked(al);
    const m = button('', () => showAlert(t, al, g), `mark alert${isAcked ? ' acked' : ''}`);
    m.style.left = `${ax.pct(ms(al.created))}%`;
    m.setAttribute('aria-label', `${causeName(g)} on ${hostOf(al)} since ${whenAgo(al.created)}`);
    m.title = m.getAttribute('aria-label') ?? '';
    track.append(m);
  }
  // One chip per host, with how many of the cause's alerts it holds: a host copied a hundred times is one
  // chip "×100". It opens the host's first alert the copy holds, if any.
  const { hosts, total } = causeHosts(g);
  for (const h of hosts) {
    const label = `${h.host}${h.count > 1 ? ` ×${h.count}` : ''}${h.acked ? ' (acknowledged)' : ''}`;
    const al = shown.find((a) => hostOf(a) === h.host);
    const cls = `host${h.acked ? ' acked' : ''}`;
    strip.append(al ? button(label, () => showAlert(t, al, g), cls) : el('span', cls, label));
  }
  const more = total - hosts.length;
  if (more > 0) strip.append(el('span', 'sub', `+${more} more hosts (ask the assistant: list_open_alerts)`));
  const label = el(
    'div',
    'label',
    undefined,
    el('span', `sev ${severity(g)}`, severity(g)),
    el('span', 'what', ` ${causeName(g)} · ${str(g.count)}`),
    el('span', 'state', ` · ${muteState(g)}`),
  );
  label.title = `${str(g.cause)}: ${arr(g.conditions).join('; ')}`;
  root.append(row(label, track, `cause ${open(g) && !muted(g) ? 'urgent' : ''}`), strip);
}

/** Causes, most urgent first; or, when alerts were read and none is open, what was checked. */
function drawCauses(t: Triage, ax: Axis): void {
  for (const g of t.groups) drawCause(t, ax, g);
  const { s } = t;
  if (t.alertsPart && !t.groups.length)
    root.append(
      el(
        'p',
        'empty',
        `No open alerts: checked the open alerts of ${t.project}${s.notChecked && arr(s.notChecked).length ? ` (${arr(s.notChecked).map(str).join('; ')})` : ' and of the global configurations'}.`,
      ),
    );
}

/**
 * The same story as text, newest first: what a screen reader (or a glance) reads in order. Entries alike
 * (same time and words) are one line that says how many.
 */
function drawStory(t: Triage): void {
  const { names, timeline, win } = t;
  const story = el('ol', 'story');
  let prev: { text: string; li: HTMLElement; n: number } | undefined;
  for (const e of timeline) {
    const text = `${whenAgo(e.time)} — ${e.kind === 'change' ? `changed ${str(e.eventTypeName)}${e.who ? ` by ${unId(e.who, names)}` : ''}: ${unId(e.summary, names)}` : `broke: ${unId(e.summary, names)}`}`;
    // The server's copy says how many times one entry repeats (count); alike neighbours add up.
    const n = Number(e.count) || 1;
    if (prev?.text === text) prev.n += n;
    else {
      prev = { text, li: el('li', '', text), n };
      story.append(prev.li);
    }
    if (prev.n > 1) prev.li.textContent = `${text} (×${prev.n})`;
  }
  if (timeline.length) root.append(el('h2', '', 'Newest first: what broke and what changed'), story);
  else if (t.s.timeline)
    root.append(
      el(
        'p',
        'empty',
        `Nothing changed and nothing broke in the last ${str(win.hours)} h: checked the project's events and open alerts since ${when(win.since)}.`,
      ),
    );
}

function render(s: Json, app: App): void {
  root.replaceChildren();
  const win = obj(s.window);
  root.append(
    el('h1', '', 'Incident timeline'),
    el(
      'p',
      'sub',
      `Project ${str(s.projectName) || 'this project'} · last ${str(win.hours)} h, to ${when(win.until)}`,
    ),
  );
  const t = readTriage(s, app, status(root));
  drawSummary(t);
  const ax = timeAxis(t);
  drawAxis(ax);
  drawChangesAndWindows(t, ax);
  drawCauses(t, ax);
  root.append(t.details);
  drawStory(t);
  for (const e of t.errors) t.say(`${str(e.section)} unavailable: ${str(e.message)}`, 'warn');
}

function focusDetails(details: HTMLElement) {
  details.querySelector('h2')?.setAttribute('tabindex', '-1');
  (details.querySelector('h2') as HTMLElement | null)?.focus();
}

function showChange(t: Triage, e: Json) {
  const { details, names } = t;
  details.hidden = false;
  details.replaceChildren(
    el('h2', '', `Change: ${str(e.eventTypeName)}`),
    fields([
      ['when', whenAgo(e.time)],
      ['who', unId(e.who, names)],
      ['what', unId(e.summary, names)],
    ]),
    idList([['eventId', e.eventId]]) ?? '',
  );
  focusDetails(details);
}

/** What the details say of an alert, in order (empty values are left out). */
function alertFields(al: Json, g: Json): Array<[string, unknown]> {
  const value = obj(al.currentValue);
  const w = windowOf(g);
  return [
    ['severity', severity(g)],
    ['status', al.status],
    ['since', whenAgo(al.created)],
    ['host', al.hostnameAndPort],
    ['replica set', al.replicaSetName],
    ['value', value.number !== undefined ? `${str(value.number)} ${str(value.units)}` : ''],
    ['condition', causeName(g)],
    ['acknowledged until', acked(al) ? whenAgo(al.acknowledgedUntil) : 'no'],
    ['acknowledged by', al.acknowledgingUsername],
    ['comment', al.acknowledgementComment],
    [
      'muted by',
      w.id
        ? `“${str(w.description) || 'a maintenance window'}” ${w.state === 'active' ? 'until' : 'from'} ${whenAgo(w.state === 'active' ? w.endDate : w.startDate)}`
        : '',
    ],
  ];
}

function showAlert(t: Triage, al: Json, g: Json) {
  const { details } = t;
  details.hidden = false;
  const result = el('div', 'result');
  // Acknowledged for longer already: 2 hours from now would shorten it, so it is not offered.
  const longer = ms(al.acknowledgedUntil) > Date.now() + 2 * 3_600_000;
  const ack: HTMLElement = longer
    ? el(
        'p',
        'sub',
        `Acknowledged until ${whenAgo(al.acknowledgedUntil)}: acknowledging for 2 h now would shorten it.`,
      )
    : button(
        'Acknowledge for 2 h',
        () => void acknowledge(t, al, g, ack as HTMLButtonElement, result),
        'ack',
      );
  details.replaceChildren(
    el('h2', '', `${causeName(g)} on ${hostOf(al)}`),
    fields(alertFields(al, g)),
    idList([
      ['alertId', al.id],
      [g.global ? 'globalAlertConfigId' : 'alertConfigId', al.alertConfigId],
    ]) ?? '',
    ack,
    result,
  );
  focusDetails(details);
}

async function acknowledge(t: Triage, al: Json, g: Json, b: HTMLButtonElement, out: HTMLElement) {
  const { app, say, s } = t;
  b.disabled = true;
  say('Asking the server…');
  try {
    const args: Json = g.global
      ? { alertId: al.id, acknowledgedUntil: new Date(Date.now() + 2 * 3_600_000).toISOString() }
      : { projectId: s.projectId, alertId: al.id, forHours: 2 };
    const r = await callThroughHost(app, g.global ? 'acknowledge_global_alert' : 'acknowledge_alert', args);
    const sc = dataOf(r);
    if (r.isError) {
      say(str(r.content?.[0]?.text) || 'The server refused the call.', 'error');
      b.disabled = false;
      return;
    }
    // A write the live policy does not guard runs at once and answers with its own record.
    const outcome = str(sc.outcome) || 'executed';
    out.replaceChildren(consentCard({ ...sc, outcome }, app));
    say(
      outcome === 'executed' ? 'Acknowledged.' : 'The server asks the person first: nothing has changed yet.',
      'ok',
    );
  } catch (e) {
    say(`The host could not call the server: ${e instanceof Error ? e.message : str(e)}`, 'error');
    b.disabled = false;
  }
}

function fields(pairs: Array<[string, unknown]>): HTMLElement {
  const dl = el('dl', 'who');
  for (const [k, v] of pairs)
    if (v !== undefined && v !== null && v !== '') dl.append(el('dt', '', k), el('dd', '', v));
  return dl;
}

startView('incident timeline', (r, app) => {
  const s = dataOf(r);
  if (r.isError || !s.timeline) {
    root.replaceChildren(el('p', 'status', str(r.content?.[0]?.text) || 'This result has no timeline.'));
    return;
  }
  render(s, app);
});
