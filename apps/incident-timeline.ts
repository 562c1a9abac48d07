// The incident timeline for triage_project: the whole picture first (counts, automation, agents, the windows
// in force), then the causes most urgent first (not acknowledged and not muted, data availability, the newest)
// each on one time axis with its severity, what mutes it (the window's description) and a strip of its hosts;
// changes and windows on the same axis; the story newest first. A click on an alert shows its details, and
// "Acknowledge for 2 h" asks the server through the host: an ordinary tools/call that meets the server's
// consent like any other (this view never approves anything). When the server had to shorten the data it
// sent today's urgent alerts and the newest changes first (src/mcp/apps.ts), and the view says what it left out.
import type { App } from '@modelcontextprotocol/ext-apps';
import {
  ago,
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

function hostOf(a: Json): string {
  return str(a.hostnameAndPort) || str(a.clusterName) || str(a.replicaSetName) || 'project-wide';
}

const acked = (a: Json) => ms(a.acknowledgedUntil) > Date.now();
/**
 * Data availability (a host, primary or agent down) is critical, the rest a warning: the platform gives alerts
 * no severity (src/mcp/apps.ts ranks the server's cut by the same rule).
 */
const AVAILABILITY = /^(HOST_DOWN|NO_PRIMARY|RESYNC_REQUIRED|[A-Z]+_AGENT_DOWN)$/;
const severity = (g: Json) => (AVAILABILITY.test(str(g.eventTypeName)) ? 'critical' : 'warning');
const newest = (g: Json) => Math.max(ms(g.oldest) || 0, ...arr(g.alerts).map((a) => ms(obj(a).created) || 0));
/** The window that mutes a cause (or will), from the triage's windows: its description names it. */
let windowsById = new Map<string, Json>();
const windowOf = (g: Json): Json => {
  const w = obj(g.maintenanceWindow);
  return { ...windowsById.get(str(w.id)), ...w };
};
const muted = (g: Json) => obj(g.maintenanceWindow).state === 'active';
/** Still to be dealt with: an alert in it is neither acknowledged nor (when the cause has none listed) counted so. */
const open = (g: Json) => {
  const alerts = arr(g.alerts).map(obj);
  return alerts.length ? alerts.some((a) => !acked(a)) : Number(g.acknowledged) < Number(g.count);
};
/** Most urgent first: open, unmuted, data availability (critical), the newest. */
function urgency(x: Json, y: Json): number {
  const r = (g: Json) => [open(g) ? 0 : 1, muted(g) ? 1 : 0, severity(g) === 'critical' ? 0 : 1, -newest(g)];
  const [a, b] = [r(x), r(y)];
  return a.map((n, i) => n - b[i]!).find((d) => d !== 0) ?? 0;
}

/**
 * An agent's log line without its clock stamp ("[07:27:26.418]": a time of day with no date or zone, in the
 * agent's own clock): the words stay, the one time form of the view is not broken by a second one.
 */
const logWords = (v: unknown) =>
  str(v)
    .replace(/\s*\[\d\d:\d\d:\d\d(?:\.\d+)?\]\s*/g, ' ')
    .trim();

/** "DISK_PARTITION_SPACE_USED_DATA > 85 RAW (AVERAGE)" as the text answer names the cause, "(global)" kept. */
const causeName = (g: Json) => {
  const what = str(g.metricName) || str(g.eventTypeName);
  const conds = arr(g.conditions)
    .map(str)
    .map((c) => (/^[<>=!]/.test(c) && what ? `${what} ${c}` : c));
  return `${conds.join('; ') || str(g.cause)}${g.global ? ' (global)' : ''}`;
};

function render(s: Json, app: App): void {
  root.replaceChildren();
  const win = obj(s.window);
  const project = str(s.projectName) || 'this project';
  root.append(
    el('h1', '', 'Incident timeline'),
    el('p', 'sub', `Project ${project} · last ${str(win.hours)} h, to ${when(win.until)}`),
  );
  const say = status(root);
  const alertsPart = s.alerts ? obj(s.alerts) : undefined;
  const groups = arr(alertsPart?.groups).map(obj).sort(urgency);
  const timeline = arr(s.timeline)
    .map(obj)
    .sort((x, y) => (ms(y.time) || 0) - (ms(x.time) || 0));
  const windows = arr(s.maintenanceWindows).map(obj);
  windowsById = new Map(windows.map((w) => [str(w.id), w]));
  const alerts = groups.flatMap((g) => arr(g.alerts).map(obj));
  const errors = arr(s.errors).map(obj);
  const failed = (section: string) => errors.find((e) => e.section === section);
  // What a person calls the ids the timeline's changes name: a configuration by its condition, a window by its
  // description, the project by its name.
  const names = new Map<string, string>();
  for (const g of groups) for (const id of arr(g.alertConfigIds)) names.set(str(id), causeName(g));
  for (const w of windows) if (w.description) names.set(str(w.id), str(w.description));
  if (s.projectName) names.set(str(s.projectId), str(s.projectName));

  // The whole picture, in words, before any axis.
  const summary = el('dl', 'who summary');
  const line = (k: string, v: string) => summary.append(el('dt', '', k), el('dd', '', v));
  if (alertsPart) {
    const total = Number(alertsPart.totalCount ?? alerts.length);
    const tracking = Number(alertsPart.trackingCount ?? 0);
    const ack = Number(alertsPart.acknowledgedCount ?? 0);
    const critical = groups.filter((g) => severity(g) === 'critical' && open(g)).length;
    line(
      'Alerts',
      total
        ? `${total} alerts (${total - tracking} open, ${tracking} tracking), ${ack} acknowledged, in ${groups.length} cause${groups.length === 1 ? '' : 's'}${critical ? `; ${critical} critical (data availability)` : ''}`
        : 'none open in this project',
    );
  } else line('Alerts', `not read: ${str(failed('alerts')?.message) || 'unavailable'}`);
  const auto = s.automation ? obj(s.automation) : undefined;
  if (auto) {
    const behind = arr(auto.behind).map(obj);
    const n = Number(auto.processCount ?? 0);
    const err = behind.find((p) => p.errorString || Number(p.errorCode));
    line(
      'Automation',
      behind.length
        ? `${behind.length} of ${n} processes behind goal version ${str(auto.goalVersion)}: ${behind
            .slice(0, 2)
            .map((p) => `${str(p.name)} on ${str(p.hostname)}`)
            .join(
              ', ',
            )}${n && behind.length > 2 ? ` +${behind.length - 2} more` : ''}${err ? `; error: ${logWords(err.errorString || err.errorCodeHumanReadable)}` : ''}`
        : `all ${n} processes at goal version ${str(auto.goalVersion)}`,
    );
  } else line('Automation', `not read: ${str(failed('automation')?.message) || 'unavailable'}`);
  const agentsDown = groups.filter((g) => /_AGENT_DOWN$/.test(str(g.eventTypeName)));
  line(
    'Agents',
    !alertsPart
      ? 'unknown (alerts not read)'
      : agentsDown.length
        ? agentsDown
            .map(
              (g) =>
                `${str(g.count)} ${str(g.eventTypeName)
                  .replace(/_AGENT_DOWN$/, '')
                  .toLowerCase()} agent${Number(g.count) === 1 ? '' : 's'} down (${[...new Set(arr(g.alerts).map((a) => hostOf(obj(a))))].join(', ')})`,
            )
            .join('; ')
        : 'no agent-down alert open',
  );
  const inForce = windows.filter((w) => ms(w.startDate) <= Date.now() && ms(w.endDate) > Date.now());
  const upcoming = windows.filter((w) => ms(w.startDate) > Date.now());
  line(
    'Maintenance',
    s.maintenanceWindows === null
      ? 'this server lists no maintenance windows'
      : inForce.length || upcoming.length
        ? [
            ...new Set(
              [...inForce, ...upcoming].map(
                (w) =>
                  `${str(w.description) || 'a window'} (${ms(w.startDate) <= Date.now() ? 'in force' : `from ${whenAgo(w.startDate)}`} until ${whenAgo(w.endDate)}; mutes ${arr(w.alertTypeNames).join(', ')})`,
              ),
            ),
          ]
            .slice(0, 3)
            .join('; ')
        : 'none in force or upcoming',
  );
  const changes = timeline.filter((e) => e.kind === 'change');
  const cutTimeline = arr(s.leftOut).some((c) => obj(c).path === 'timeline');
  line(
    'Changes',
    s.timeline && !failed('events')
      ? changes.length
        ? `${changes.length}${cutTimeline ? ' shown, the newest (more were left out)' : ' in the window'}, the latest ${ago(changes[0]?.time)}`
        : `none in the last ${str(win.hours)} h`
      : `not read: ${str(failed('events')?.message) || 'unavailable'}`,
  );
  root.append(
    summary,
    shortened(s, 'ask the assistant for the rest (triage_project, list_open_alerts)') ?? '',
  );

  // The triage's window (last N hours) takes the axis; what started before it (old alerts still open) sits in
  // a narrow "earlier" band at the left, in order, so the window itself stays readable.
  const since = ms(win.since);
  const until = ms(win.until);
  const times = [...timeline.map((e) => ms(e.time)), ...alerts.map((x) => ms(x.created))].filter(
    Number.isFinite,
  );
  const earliest = Math.min(since, ...times);
  const gutter = earliest < since ? 12 : 0;
  // Windows in force run on past now: the axis shows them up to half a day ahead.
  const ends = windows.map((w) => Math.min(ms(w.endDate), until + 12 * 3_600_000)).filter(Number.isFinite);
  const main = axis(since, Math.max(until, ...times, ...ends));
  const early = axis(earliest, since);
  const a = {
    from: earliest,
    to: main.to,
    pct: (t: number) =>
      t < since ? (early.pct(t) * gutter) / 100 : gutter + (main.pct(t) * (100 - gutter)) / 100,
  };

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
  const axisRow = ticks(main, trackPx(root.clientWidth), gutter, 100 - gutter);
  if (gutter) {
    const e = el('span', 'tick early', narrow ? '◂' : '◂ earlier');
    e.style.left = '0';
    e.title = `before ${when(since)}`;
    axisRow.prepend(e);
  }
  root.append(legend, axisRow);
  fitTicks(axisRow);

  const shade = (track: HTMLElement) => {
    if (gutter) {
      const d = el('div', 'divider');
      d.style.left = `${gutter}%`;
      track.append(d);
    }
    for (const w of windows) {
      const from = Math.max(a.from, ms(w.startDate));
      const to = Math.min(a.to, ms(w.endDate));
      if (!(to > from)) continue;
      const span = el('div', 'span');
      span.style.left = `${a.pct(from)}%`;
      span.style.width = `${a.pct(to) - a.pct(from)}%`;
      span.title = `${str(w.description)} (mutes ${arr(w.alertTypeNames).join(', ')})`;
      track.append(span);
    }
  };
  const row = (label: HTMLElement, track: HTMLElement, cls = '') =>
    el('div', `row ${cls}`.trim(), undefined, label, track);

  const details = el('section', 'card details');
  details.setAttribute('aria-label', 'Alert details');
  details.hidden = true;

  // Changes: one mark each on the shared axis.
  const changeTrack = el('div', 'track');
  shade(changeTrack);
  for (const e of changes) {
    const m = button('', () => showChange(e), 'mark change');
    m.style.left = `${a.pct(ms(e.time))}%`;
    m.setAttribute(
      'aria-label',
      `${when(e.time)} changed ${str(e.eventTypeName)}: ${unId(e.summary, names)}`,
    );
    m.title = m.getAttribute('aria-label') ?? '';
    changeTrack.append(m);
  }
  root.append(row(el('div', 'label', 'Changes'), changeTrack));

  // Windows in force or upcoming: a row of their own, so a span is seen even with no alert under it.
  if (windows.length) {
    const t = el('div', 'track');
    shade(t);
    root.append(row(el('div', 'label', 'Maintenance'), t));
  }

  // Causes, most urgent first: the cause with its severity and state, a row of alert marks, the hosts.
  for (const g of groups) {
    const track = el('div', 'track');
    shade(track);
    const strip = el('div', 'hosts');
    strip.setAttribute('aria-label', `Hosts of ${causeName(g)}`);
    const shown = arr(g.alerts).map(obj);
    for (const al of shown) {
      const isAcked = acked(al);
      const show = () => showAlert(al, g);
      const m = button('', show, `mark alert${isAcked ? ' acked' : ''}`);
      m.style.left = `${a.pct(ms(al.created))}%`;
      m.setAttribute('aria-label', `${causeName(g)} on ${hostOf(al)} since ${whenAgo(al.created)}`);
      m.title = m.getAttribute('aria-label') ?? '';
      track.append(m);
      strip.append(
        button(`${hostOf(al)}${isAcked ? ' (acknowledged)' : ''}`, show, `host${isAcked ? ' acked' : ''}`),
      );
    }
    const more = Number(g.count) - shown.length;
    if (more > 0) strip.append(el('span', 'sub', `+${more} more (ask the assistant: list_open_alerts)`));
    const w = windowOf(g);
    const state = muted(g)
      ? `muted by “${str(w.description) || 'a maintenance window'}” until ${when(w.endDate)}`
      : !open(g)
        ? 'all acknowledged'
        : w.state === 'upcoming'
          ? `will be muted by “${str(w.description) || 'a window'}” from ${when(w.startDate)}`
          : 'not muted';
    const label = el(
      'div',
      'label',
      undefined,
      el('span', `sev ${severity(g)}`, severity(g)),
      el('span', 'what', ` ${causeName(g)} · ${str(g.count)}`),
      el('span', 'state', ` · ${state}`),
    );
    label.title = `${str(g.cause)}: ${arr(g.conditions).join('; ')}`;
    root.append(row(label, track, `cause ${open(g) && !muted(g) ? 'urgent' : ''}`), strip);
  }
  if (alertsPart && !groups.length)
    root.append(
      el(
        'p',
        'empty',
        `No open alerts: checked the open alerts of ${project}${s.notChecked && arr(s.notChecked).length ? ` (${arr(s.notChecked).map(str).join('; ')})` : ' and of the global configurations'}.`,
      ),
    );
  root.append(details);

  // The same story as text, newest first: what a screen reader (or a glance) reads in order.
  // Entries alike (same time and words) are one line that says how many.
  const story = el('ol', 'story');
  let prev: { text: string; li: HTMLElement; n: number } | undefined;
  for (const e of timeline) {
    const text = `${whenAgo(e.time)} — ${e.kind === 'change' ? `changed ${str(e.eventTypeName)}${e.who ? ` by ${unId(e.who, names)}` : ''}: ${unId(e.summary, names)}` : `broke: ${unId(e.summary, names)}`}`;
    if (prev?.text === text) {
      prev.n += 1;
      prev.li.textContent = `${text} (×${prev.n})`;
      continue;
    }
    prev = { text, li: el('li', '', text), n: 1 };
    story.append(prev.li);
  }
  if (timeline.length) root.append(el('h2', '', 'Newest first: what broke and what changed'), story);
  else if (s.timeline)
    root.append(
      el(
        'p',
        'empty',
        `Nothing changed and nothing broke in the last ${str(win.hours)} h: checked the project's events and open alerts since ${when(win.since)}.`,
      ),
    );
  for (const e of errors) say(`${str(e.section)} unavailable: ${str(e.message)}`, 'warn');

  function focusDetails() {
    details.querySelector('h2')?.setAttribute('tabindex', '-1');
    (details.querySelector('h2') as HTMLElement | null)?.focus();
  }

  function showChange(e: Json) {
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
    focusDetails();
  }

  function showAlert(al: Json, g: Json) {
    details.hidden = false;
    const value = obj(al.currentValue);
    const result = el('div', 'result');
    // Acknowledged for longer already: 2 hours from now would shorten it, so it is not offered.
    const longer = ms(al.acknowledgedUntil) > Date.now() + 2 * 3_600_000;
    const ack: HTMLElement = longer
      ? el(
          'p',
          'sub',
          `Acknowledged until ${whenAgo(al.acknowledgedUntil)}: acknowledging for 2 h now would shorten it.`,
        )
      : button('Acknowledge for 2 h', () => void acknowledge(al, g, ack as HTMLButtonElement, result), 'ack');
    const w = windowOf(g);
    details.replaceChildren(
      el('h2', '', `${causeName(g)} on ${hostOf(al)}`),
      fields([
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
      ]),
      idList([
        ['alertId', al.id],
        [g.global ? 'globalAlertConfigId' : 'alertConfigId', al.alertConfigId],
      ]) ?? '',
      ack,
      result,
    );
    focusDetails();
  }

  async function acknowledge(al: Json, g: Json, b: HTMLButtonElement, out: HTMLElement) {
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
        outcome === 'executed'
          ? 'Acknowledged.'
          : 'The server asks the person first: nothing has changed yet.',
        'ok',
      );
    } catch (e) {
      say(`The host could not call the server: ${e instanceof Error ? e.message : str(e)}`, 'error');
      b.disabled = false;
    }
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
