// "Who changed what lately?" — an audit of a project's changes since a time, linked to what broke after.
import { definePrompt, projectArg, SAFETY } from './define.js';

/** "48h", "7d" or an ISO time → the ISO time it means. */
function sinceToIso(since: string, now: Date): string {
  const rel = /^(\d{1,4})\s*([hd])$/.exec(since.trim());
  if (!rel) return new Date(since).toISOString();
  const hours = Number(rel[1]) * (rel[2] === 'd' ? 24 : 1);
  return new Date(now.getTime() - hours * 3_600_000).toISOString();
}

export const reviewRecentChanges = definePrompt({
  name: 'review_recent_changes',
  title: 'Review the recent changes of a project',
  description:
    'Review who changed what in a project since a time — configuration publishes, roles, keys, alert settings, maintenance windows — and whether alerts followed.',
  args: {
    projectId: projectArg,
    since: {
      description: 'Since when: hours or days back such as 24h or 7d (at most 30d), or an ISO 8601 time',
      required: true,
      pattern: {
        regex: /^(\d{1,4}\s*[hd]|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))$/,
        message: 'since must be like 24h, 7d or an ISO 8601 time such as 2026-11-20T08:00:00Z',
      },
      complete: 'sinceHours',
    },
  },
  render: ({ projectId, since }, now) => {
    const minDate = sinceToIso(since ?? '24h', now);
    const hours = Math.min(720, Math.max(1, Math.ceil((now.getTime() - Date.parse(minDate)) / 3_600_000)));
    return `Review the changes made in project ${projectId} since ${minDate}.

1. Call list_project_events with projectId=${projectId} and minDate=${minDate} (page through with pageNum while more remain). Leave out alert and metric noise and data reads; keep the changes people and keys made: configuration publishes, role and membership changes, API keys, alert configuration and integration changes, maintenance windows.
2. Group the changes by who made them (user or API key) and list them oldest first, each with when, what and the eventId. Use get_project_event with an eventId for the details of a configuration publish (its diffs).
3. Flag the risky ones: roles granted or removed, keys added, alert configurations disabled or changed, maintenance windows that mute alerts, configuration publishes that changed versions or members.
4. Call triage_project with projectId=${projectId} and sinceHours=${hours} to see whether alerts opened after any of these changes, and say which change each alert may follow.

This is a read-only review.
${SAFETY}`;
  },
});
