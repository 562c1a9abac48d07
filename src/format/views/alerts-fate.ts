// What happens to an open alert, as a person reads it beside the alert: whom it pages and how, when it last
// notified, who acknowledged it until when and why — or that an acknowledgement lapsed — and a notification
// whose key differs from the project's integration of its type. The facts come joined from the records
// (src/model/fates.ts, by the rules of src/rules/); this module only draws them.
import type { Alert } from '../../api/types.js';
import type { AlertFate, KeyFlag } from '../../model/index.js';
import type { Page } from '../../rules/index.js';
import { cell } from '../../untrusted.js';
import { age } from '../markdown.js';

/** "SMS to priya.raman@example.com", "SMS to GROUP_OWNER", "PagerDuty". */
export function pageLabel(p: Page): string {
  if (p.service !== 'SMS') return p.service;
  const to = p.to?.username ?? p.to?.roles?.join('/') ?? p.to?.mobileNumber;
  return to ? `SMS to ${cell(to, 60)}` : 'SMS';
}

/** For a cause's heading: " · pages PagerDuty, SMS to …", or what it notifies instead. */
export function fateHeading(f: AlertFate | undefined): string {
  if (f === undefined) return '';
  if (f.pages.length) return ` · pages ${f.pages.map(pageLabel).join(', ')}`;
  // Pages nobody by pager or SMS: said by saying nothing (get_alert_config lists what it notifies).
  return '';
}

/** The words of the platform: a different key may still work, so never "pages nobody". */
export function keyFlagLine(k: KeyFlag, now: Date): string {
  return `⚠ its ${k.service} notification carries ${keyFlagWords(k, now)}; it may page the old service.`;
}

/** "a different key from the project's PagerDuty integration (replaced 3 d ago by priya)". */
export function keyFlagWords(k: KeyFlag, now: Date): string {
  const by = k.replaced?.by ? ` by ${cell(k.replaced.by, 60)}` : '';
  const when = k.replaced?.at ? ` (replaced ${age(k.replaced.at, now)}${by})` : '';
  return `a different key from the project's ${k.service} integration${when}`;
}

export const fateNotes = (f: AlertFate | undefined, now: Date): string[] =>
  (f?.keyFlags ?? []).map((k) => keyFlagLine(k, now));

/** When the alert last notified anyone: "12 min ago", or "not yet" for an open alert that never did. */
export function lastNotified(a: Alert, now: Date): string {
  if (a.lastNotified) return age(a.lastNotified, now) ?? '?';
  return a.status === 'OPEN' || a.status === 'TRACKING' ? 'not yet' : '—';
}

/** For an alert's line: "last notified 12 min ago", "not notified yet". */
export const notifiedWords = (shown: string): string =>
  shown === 'not yet' ? 'not notified yet' : `notified ${shown}`;

/**
 * A lapsed acknowledgement (src/rules: its event, on an alert open and unacknowledged now), for the alert's
 * line: by whom, when it was given, and when it ended where the alert still says (a past acknowledgedUntil).
 */
export function lapsedNote(a: Alert, f: AlertFate | undefined, now: Date): string {
  const e = f?.lapsed[a.id];
  if (!e) return '';
  const who = e.username ?? a.acknowledgingUsername;
  const by = who ? ` by ${cell(who, 60)}` : '';
  const ended = a.acknowledgedUntil
    ? `lapsed ${age(a.acknowledgedUntil, now) ?? '?'}`
    : 'has lapsed (the records do not say when)';
  return `acknowledgement${by} (given ${age(e.created, now)}) ${ended}`;
}

/** An acknowledgement in force in words: by whom, how long left, and why. */
export function ackWords(a: Alert, now: Date, who: (u: string) => string = (u) => u): string {
  const by = a.acknowledgingUsername ? ` by ${who(a.acknowledgingUsername)}` : '';
  const left = age(a.acknowledgedUntil, now);
  const until =
    left === 'indefinitely' ? ' until further notice' : left ? ` (${left.replace(/^in /, '')} left)` : '';
  const why = a.acknowledgementComment ? `: "${cell(a.acknowledgementComment, 100)}"` : '';
  return `acknowledged${by}${until}${why}`;
}

/**
 * What happens to a cause's alerts, in short parts for a one-line cause (triage of the installation): whom
 * it pages, each acknowledgement with its comment, lapsed acknowledgements, a differing key.
 */
export function causeFate(
  alerts: readonly Alert[],
  f: AlertFate,
  now: Date,
  where: (a: Alert) => string,
  acked: (a: Alert) => boolean,
): string[] {
  const parts: string[] = [];
  if (f.pages.length) parts.push(`pages ${f.pages.map(pageLabel).join(', ')}`);
  for (const k of f.keyFlags) parts.push(keyFlagLine(k, now).replace(/\.$/, ''));
  for (const a of alerts.filter(acked)) parts.push(`${where(a)} ${ackWords(a, now)}`);
  for (const a of alerts.filter((x) => f.lapsed[x.id])) parts.push(`${where(a)}: ${lapsedNote(a, f, now)}`);
  return parts;
}
