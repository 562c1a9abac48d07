// The maintenance planner for list_maintenance_windows and the window tools (get, create, update): the
// windows on a time axis, each by its description with when it runs and what it mutes; a proposed window (a
// create or update waiting for consent) drawn hatched, with its overlap with the windows already there and
// what it would mute. An update shows the window as it is now above the window as it would be.
import type { App } from '@modelcontextprotocol/ext-apps';
import {
  ago,
  arr,
  axis,
  callThroughHost,
  consentCard,
  dataOf,
  el,
  fitTicks,
  type Json,
  ms,
  obj,
  previewNames,
  shortened,
  startView,
  str,
  ticks,
  trackPx,
  when,
} from './shared.js';

const root = el('main');
document.body.append(root);
const HOUR = 3_600_000;

interface Win {
  id: string;
  /** How many windows alike (same description, times and types) this row stands for. */
  copies?: number;
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

/** Windows alike (same description, times and alert types) as one row that says how many. */
function alike(ws: Win[]): Win[] {
  const rows = new Map<string, Win>();
  for (const w of ws) {
    const key = JSON.stringify([w.description, w.start, w.end, w.types]);
    const r = rows.get(key);
    if (r) r.copies = (r.copies ?? 1) + 1;
    else rows.set(key, { ...w, copies: 1 });
  }
  return [...rows.values()];
}

/** The windows a result names: a page of them, one record, or the one a change returned. */
function windowsOf(s: Json): Json[] {
  if (Array.isArray(s.results)) return s.results.map(obj);
  const rec = obj(obj(s.result).record ?? s.record);
  return rec.startDate ? [rec] : [];
}

const stateOf = (w: Win, now: number) =>
  w.end <= now
    ? 'ended'
    : w.start <= now
      ? `in force, ends ${ago(w.end, now)}`
      : `starts ${ago(w.start, now)}`;

function draw(existing: Win[], proposed: Win | undefined, before: Win | undefined, s: Json, app: App): void {
  const preview = obj(s.preview);
  const names = previewNames(preview);
  const projectId = str(obj(preview.target).project);
  const project = names.get(projectId);
  root.replaceChildren(el('h1', '', `Maintenance windows${project ? ` · project ${project}` : ''}`));
  const now = Date.now();
  const others = alike(existing.filter((x) => x.id !== proposed?.id));
  const all = [...others, ...(before ? [before] : []), ...(proposed ? [proposed] : [])].filter((w) =>
    Number.isFinite(w.start),
  );
  const a = axis(
    Math.min(now - HOUR, ...all.map((w) => w.start)),
    Math.max(now + 6 * HOUR, ...all.map((w) => w.end).filter(Number.isFinite)),
  );
  const axisRow = ticks(a, trackPx(root.clientWidth));
  const total = Number(s.totalCount ?? existing.length);
  root.append(
    el(
      'p',
      'sub',
      `${existing.length} active or upcoming${total > existing.length ? ` (${total} in all)` : ''} · now ${when(now)}`,
    ),
    el(
      'div',
      'legend',
      undefined,
      el('span', '', '▒ window'),
      el('span', '', '▨ proposed'),
      el('span', '', '■ overlap'),
    ),
    axisRow,
  );
  fitTicks(axisRow);
  const span = (track: HTMLElement, from: number, to: number, cls: string, title: string) => {
    const x = el('div', `span ${cls}`);
    x.style.left = `${a.pct(from)}%`;
    x.style.width = `${Math.max(0.5, a.pct(to) - a.pct(from))}%`;
    x.title = title;
    track.append(x);
  };
  const row = (w: Win, label: string, cls: string) => {
    const track = el('div', 'track');
    span(track, w.start, w.end, cls, `${label}: ${when(w.start)} → ${when(w.end)}`);
    const nowMark = el('div', 'span now');
    nowMark.style.left = `${a.pct(now)}%`;
    nowMark.style.width = '0';
    nowMark.title = `now, ${when(now)}`;
    track.append(nowMark);
    const l = el('div', 'label', label);
    l.title = label;
    const r = el('div', `row ${cls}`.trim(), undefined, l, track);
    const info = el(
      'p',
      'sub hosts',
      `${when(w.start)} → ${when(w.end)} · ${stateOf(w, now)} · mutes ${w.types.join(', ') || '—'}`,
    );
    return { r, track, info };
  };
  for (const w of others) {
    const copies = (w.copies ?? 1) > 1 ? ` (×${w.copies}, alike)` : '';
    const { r, info } = row(w, `${w.description || 'a window with no description'}${copies}`, '');
    root.append(r, info);
  }
  if (!others.length && !proposed)
    root.append(
      el(
        'p',
        'empty',
        total
          ? `No active or upcoming maintenance windows: the ${total} listed have all ended.`
          : 'No maintenance windows: checked this project’s list, and it is empty.',
      ),
    );
  if (proposed) {
    root.append(el('h2', '', before ? 'Proposed change' : 'Proposed window'));
    if (before) {
      const { r, info } = row(before, `Now: ${before.description || 'this window'}`, 'current');
      root.append(r, info);
    }
    const { r, track, info } = row(
      proposed,
      `Proposed: ${proposed.description || before?.description || 'new window'}`,
      'proposed',
    );
    root.append(r, info);
    const overlaps = el('ul', 'notes');
    for (const w of others) {
      const from = Math.max(w.start, proposed.start);
      const to = Math.min(w.end, proposed.end);
      if (!(to > from)) continue;
      span(track, from, to, 'overlap', `overlaps ${w.description}`);
      const shared = proposed.types.filter((t) => w.types.includes(t));
      overlaps.append(
        el(
          'li',
          '',
          `Overlaps "${w.description || 'a window with no description'}"${(w.copies ?? 1) > 1 ? ` (×${w.copies})` : ''} from ${when(from)} to ${when(to)}${shared.length ? `; ${shared.join(', ')} already muted there` : ''}.`,
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
  root.append(shortened(s, 'ask the assistant for the next page (pageNum)') ?? '');
  if (s.outcome) root.append(consentCard(s, app));
}

startView('maintenance planner', (r, app) => {
  const s = dataOf(r);
  if (r.isError) {
    root.replaceChildren(el('p', 'status', str(r.content?.[0]?.text) || 'The call failed.'));
    return;
  }
  const preview = obj(s.preview);
  const p = obj(preview.proposed);
  // A proposal's description: the one it sets, else (an update that keeps it) the window's own.
  const set = arr(preview.changes)
    .map(obj)
    .find((c) => c.field === 'description');
  const current = obj(preview.current);
  const before = current.startDate
    ? toWin({
        ...current,
        id: p.maintenanceWindowId,
        alertTypeNames: str(current.alertTypeNames).split(', '),
      })
    : undefined;
  const proposed = p.startDate
    ? toWin({ ...p, description: set ? str(set.to) : str(current.description) })
    : undefined;
  const here = windowsOf(s).map(toWin);
  draw(here, proposed, before, s, app);
  // A proposal arrives without the windows already there: read them (a read; no consent involved).
  if (proposed && !here.length)
    void callThroughHost(app, 'list_maintenance_windows', {
      ...(obj(preview.target).project ? { projectId: obj(preview.target).project } : {}),
      itemsPerPage: 50,
    })
      .then((l) => draw(windowsOf(dataOf(l)).map(toWin), proposed, before, s, app))
      .catch(() => {});
});
