// "Silence alerts for planned work" — check the current state and overlaps, then propose one window.
import { ALERT_TYPE_NAMES } from '../src/vocabulary/index.js';
import { definePrompt, isoTimeArg, projectArg, SAFETY } from './define.js';

// src/mcp/prompts.ts completes alertTypes from this list (it imports it from here).

export const planMaintenance = definePrompt({
  name: 'plan_maintenance',
  title: 'Plan a maintenance window',
  description:
    'Plan a maintenance window for planned work: check what is alerting and what windows exist, then propose one window and create it only after confirmation.',
  args: {
    projectId: projectArg,
    start: isoTimeArg('When the work starts', '2026-11-21T22:00:00Z'),
    end: isoTimeArg('When the work ends', '2026-11-22T02:00:00Z'),
    alertTypes: {
      description: `Alert types to mute, comma-separated (${ALERT_TYPE_NAMES.join(', ')}); default HOST, REPLICA_SET`,
      required: false,
      pattern: {
        regex: /^\s*[A-Z][A-Z0-9_]*(\s*,\s*[A-Z][A-Z0-9_]*)*\s*$/,
        message: `alertTypes must be a comma-separated list of upper-case names such as ${ALERT_TYPE_NAMES.slice(0, 2).join(',')}`,
      },
      complete: 'alertTypeNames',
    },
  },
  render: ({ projectId, start, end, alertTypes }, _now, asksFirst) => {
    const types = (alertTypes ?? 'HOST,REPLICA_SET')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    return `Plan a maintenance window in project ${projectId} from ${start} to ${end}, muting ${types.join(', ')} alerts.

1. Call list_maintenance_windows with projectId=${projectId} and check for windows that overlap this time or already mute these alert types; say whether a new window is needed or an existing one should be changed instead.
2. Call triage_project with projectId=${projectId} to see what is alerting now: a window mutes notifications only, so open alerts that are not part of the planned work still need attention and must not be hidden by it.
3. Check the plan: the start must be before the end, the end in the future, and the alert types should cover only what the work will trip.
4. Propose exactly one change — create_maintenance_window with startDate=${start}, endDate=${end}, alertTypeNames=${JSON.stringify(types)} and a short description of the work (or update_maintenance_window for an existing window) — and wait for my explicit yes before calling it. ${asksFirst('create_maintenance_window') ? 'The server will also ask for consent; show me its preview.' : 'The server will not ask me again: it applies the change as soon as you call it.'}

${SAFETY}`;
  },
});
