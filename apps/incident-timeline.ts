// The incident timeline for triage_project: what changed, then what broke, oldest first on one time axis;
// alerts grouped by cause with a strip of their hosts; maintenance windows as shaded spans. A click on an
// alert shows its details, and "Acknowledge for 2 h" asks the server through the host: an ordinary
// tools/call that meets the server's consent like any other (this view never approves anything).
import type { App } from '@modelcontextprotocol/ext-apps';
import {
  arr,
  axis,
  button,
  callThroughHost,
  consentCard,
  dataOf,
  el,
  type Json,
  ms,
  obj,
  shortened,
  startView,
  status,
  str,
  ticks,
  utc,
} from './shared.js';

const root = el('main');
document.body.append(root);

function hostOf(a: Json): string {
  return str(a.hostnameAndPort) || str(a.clusterName) || str(a.replicaSetName) || 'project';
}

function render(s: Json, app: App): void {
  root.replaceChildren();
  const win = obj(s.window);
  root.append(
    el('h1', '', 'Incident timeline'),
    el(
      'p',
      'sub',
      `Project ${str(s.projectName) || str(s.projectId)} · last ${str(win.hours)} h · oldest first, changes before what broke`,
    ),
  );
  const say = status(root);
  const groups = arr(obj(s.alerts).groups).map(obj);
  const timeline = arr(s.timeline).map(obj);
  const windows = arr(s.maintenanceWindows).map(obj);
  const alerts = groups.flatMap((g) => arr(g.alerts).map(obj));
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
  const axisRow = ticks(main, 4, gutter, 100 - gutter);
  if (gutter) {
    const e = el('span', 'tick early', '◂ earlier');
    e.style.left = '0';
    axisRow.prepend(e);
  }
  root.append(legend, axisRow);

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
  const row = (label: string, track: HTMLElement) => {
    const r = el('div', 'row', undefined, el('div', 'label', label), track);
    r.querySelector('.label')?.setAttribute('title', label);
    return r;
  };

  const details = el('section', 'card details');
  details.setAttribute('aria-label', 'Alert details');
  details.hidden = true;

  // Changes: one mark each on the shared axis.
  const changeTrack = el('div', 'track');
  shade(changeTrack);
  for (const e of timeline.filter((x) => x.kind === 'change')) {
    const m = button('', () => showChange(e), 'mark change');
    m.style.left = `${a.pct(ms(e.time))}%`;
    m.setAttribute('aria-label', `${utc(e.time)} changed ${str(e.eventTypeName)}: ${str(e.summary)}`);
    m.title = m.getAttribute('aria-label') ?? '';
    changeTrack.append(m);
  }
  root.append(row('Changes', changeTrack));

  // Windows in force or upcoming: a row of their own, so a span is seen even with no alert under it.
  if (windows.length) {
    const t = el('div', 'track');
    shade(t);
    root.append(row('Maintenance', t));
  }

  // Causes, oldest first: a row of alert marks, then the strip of hosts.
  const byFirst = [...groups].sort((x, y) => (ms(x.oldest) || 0) - (ms(y.oldest) || 0));
  for (const g of byFirst) {
    const track = el('div', 'track');
    shade(track);
    const strip = el('div', 'hosts');
    strip.setAttribute('aria-label', `Hosts of ${str(g.cause)}`);
    for (const al of arr(g.alerts).map(obj)) {
      const acked = Boolean(al.acknowledgedUntil);
      const open = () => showAlert(al, g);
      const m = button('', open, `mark alert${acked ? ' acked' : ''}`);
      m.style.left = `${a.pct(ms(al.created))}%`;
      m.setAttribute('aria-label', `${str(g.cause)} on ${hostOf(al)} since ${utc(al.created)}`);
      m.title = m.getAttribute('aria-label') ?? '';
      track.append(m);
      strip.append(
        button(`${hostOf(al)}${acked ? ' (acknowledged)' : ''}`, open, `host${acked ? ' acked' : ''}`),
      );
    }
    const what = `${str(g.metricName) || str(g.eventTypeName) || str(g.cause)}${g.global ? ' (global)' : ''}`;
    const r = row(`${what} (${str(g.count)})`, track);
    r.querySelector('.label')?.setAttribute('title', `${str(g.cause)}: ${arr(g.conditions).join('; ')}`);
    root.append(r, strip);
  }
  if (!groups.length) root.append(el('p', 'empty', 'No open alerts.'));
  root.append(details);

  // The same story as text, oldest first: what a screen reader (or a glance) reads in order.
  const story = el('ol', 'story');
  for (const e of timeline)
    story.append(
      el(
        'li',
        '',
        `${utc(e.time)} — ${e.kind === 'change' ? `changed ${str(e.eventTypeName)}${e.who ? ` by ${str(e.who)}` : ''}: ${str(e.summary)}` : `broke: ${str(e.summary)}`}`,
      ),
    );
  root.append(el('h2', '', 'What changed, then what broke'), story);
  root.append(shortened(s) ?? '');
  for (const e of arr(s.errors).map(obj)) say(`${str(e.section)} unavailable: ${str(e.message)}`, 'warn');

  function showChange(e: Json) {
    details.hidden = false;
    details.replaceChildren(
      el('h2', '', `Change: ${str(e.eventTypeName)}`),
      fields([
        ['when', utc(e.time)],
        ['who', e.who],
        ['what', e.summary],
        ['eventId', e.eventId],
      ]),
    );
    details.querySelector('h2')?.setAttribute('tabindex', '-1');
    (details.querySelector('h2') as HTMLElement | null)?.focus();
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
          `Acknowledged until ${utc(al.acknowledgedUntil)}: acknowledging for 2 h now would shorten it.`,
        )
      : button('Acknowledge for 2 h', () => void acknowledge(al, g, ack as HTMLButtonElement, result), 'ack');
    details.replaceChildren(
      el('h2', '', `${str(g.cause)} on ${hostOf(al)}`),
      fields([
        ['status', al.status],
        ['since', utc(al.created)],
        ['host', al.hostnameAndPort],
        ['replica set', al.replicaSetName],
        ['value', value.number !== undefined ? `${str(value.number)} ${str(value.units)}` : ''],
        ['condition', arr(g.conditions).join('; ')],
        ['acknowledged until', al.acknowledgedUntil ? utc(al.acknowledgedUntil) : 'no'],
        ['acknowledged by', al.acknowledgingUsername],
        ['comment', al.acknowledgementComment],
        [
          'muted by',
          obj(g.maintenanceWindow).id
            ? `maintenance window until ${utc(obj(g.maintenanceWindow).endDate)}`
            : '',
        ],
        ['alertId', al.id],
      ]),
      ack,
      result,
    );
    details.querySelector('h2')?.setAttribute('tabindex', '-1');
    (details.querySelector('h2') as HTMLElement | null)?.focus();
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
