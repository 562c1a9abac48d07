// The maintenance planner for list_maintenance_windows and the window tools (get, create, update): the
// windows on a time axis with what they mute; a proposed window (a create or update waiting for consent)
// drawn hatched, with its overlap with the windows already there and what it would mute.
import type { App } from '@modelcontextprotocol/ext-apps';
import {
  arr,
  axis,
  callThroughHost,
  consentCard,
  dataOf,
  el,
  type Json,
  ms,
  obj,
  shortened,
  startView,
  str,
  ticks,
  utc,
} from './shared.js';

const root = el('main');
document.body.append(root);
const HOUR = 3_600_000;

interface Win {
  id: string;
  start: number;
  end: number;
  types: string[];
  description: string;
}

const toWin = (w: Json): Win => ({
  id: str(w.id ?? w.maintenanceWindowId),
  start: ms(w.startDate),
  end: ms(w.endDate),
  types: arr(w.alertTypeNames).map(str),
  description: str(w.description),
});

/** The windows a result names: a page of them, one record, or the one a change returned. */
function windowsOf(s: Json): Json[] {
  if (Array.isArray(s.results)) return s.results.map(obj);
  const rec = obj(obj(s.result).record ?? s.record);
  return rec.startDate ? [rec] : [];
}

function draw(existing: Win[], proposed: Win | undefined, s: Json, app: App): void {
  root.replaceChildren(el('h1', '', 'Maintenance windows'));
  const now = Date.now();
  const all = [...existing, ...(proposed ? [proposed] : [])].filter((w) => Number.isFinite(w.start));
  const a = axis(
    Math.min(now - HOUR, ...all.map((w) => w.start)),
    Math.max(now + 6 * HOUR, ...all.map((w) => w.end).filter(Number.isFinite)),
  );
  root.append(
    el('p', 'sub', `${existing.length} active or upcoming · now ${utc(now)}`),
    el(
      'div',
      'legend',
      undefined,
      el('span', '', '▒ window'),
      el('span', '', '▨ proposed'),
      el('span', '', '■ overlap'),
    ),
    ticks(a),
  );
  const span = (track: HTMLElement, from: number, to: number, cls: string, title: string) => {
    const x = el('div', `span ${cls}`);
    x.style.left = `${a.pct(from)}%`;
    x.style.width = `${Math.max(0.5, a.pct(to) - a.pct(from))}%`;
    x.title = title;
    track.append(x);
  };
  const row = (w: Win, cls: string) => {
    const track = el('div', 'track');
    span(track, w.start, w.end, cls, `${utc(w.start)} → ${utc(w.end)}`);
    const nowMark = el('div', 'span');
    nowMark.style.left = `${a.pct(now)}%`;
    nowMark.style.width = '0';
    track.append(nowMark);
    const r = el('div', 'row', undefined, el('div', 'label', w.description || w.id), track);
    const info = el('p', 'sub hosts', `${utc(w.start)} → ${utc(w.end)} · mutes ${w.types.join(', ') || '—'}`);
    return { r, track, info };
  };
  for (const w of existing.filter((x) => x.id !== proposed?.id)) {
    const { r, info } = row(w, '');
    root.append(r, info);
  }
  if (!existing.length && !proposed)
    root.append(el('p', 'empty', 'No active or upcoming maintenance windows.'));
  if (proposed) {
    const { r, track, info } = row(
      { ...proposed, description: `Proposed: ${proposed.description || proposed.id || 'new window'}` },
      'proposed',
    );
    root.append(el('h2', '', 'Proposed window'), r, info);
    const overlaps = el('ul', 'notes');
    for (const w of existing.filter((x) => x.id !== proposed.id)) {
      const from = Math.max(w.start, proposed.start);
      const to = Math.min(w.end, proposed.end);
      if (!(to > from)) continue;
      span(track, from, to, 'overlap', `overlaps ${w.description}`);
      const shared = proposed.types.filter((t) => w.types.includes(t));
      overlaps.append(
        el(
          'li',
          '',
          `Overlaps "${w.description || w.id}" from ${utc(from)} to ${utc(to)}${shared.length ? `; ${shared.join(', ')} already muted there` : ''}.`,
        ),
      );
    }
    const mutes = el(
      'p',
      '',
      `Would mute ${proposed.types.join(', ') || '—'} notifications for ${Math.round(((proposed.end - proposed.start) / HOUR) * 10) / 10} h.`,
    );
    root.append(
      mutes,
      overlaps.childElementCount ? overlaps : el('p', 'sub', 'No overlap with other windows.'),
    );
  }
  root.append(shortened(s) ?? '');
  if (s.outcome) root.append(consentCard(s, app));
}

startView('maintenance planner', (r, app) => {
  const s = dataOf(r);
  if (r.isError) {
    root.replaceChildren(el('p', 'status', str(r.content?.[0]?.text) || 'The call failed.'));
    return;
  }
  const p = obj(obj(s.preview).proposed);
  const proposed = p.startDate ? toWin({ ...p, description: '' }) : undefined;
  const here = windowsOf(s).map(toWin);
  draw(here, proposed, s, app);
  // A proposal arrives without the windows already there: read them (a read; no consent involved).
  if (proposed && !here.length)
    void callThroughHost(app, 'list_maintenance_windows', {
      ...(obj(obj(s.preview).target).project ? { projectId: obj(obj(s.preview).target).project } : {}),
      itemsPerPage: 50,
    })
      .then((l) => draw(windowsOf(dataOf(l)).map(toWin), proposed, s, app))
      .catch(() => {});
});
