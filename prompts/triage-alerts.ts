// "What is alerting in this project, and why?" — triage first, then detail, then proposals (no changes).
import { definePrompt, projectArg, SAFETY } from './define.js';

export const triageAlerts = definePrompt({
  name: 'triage_alerts',
  title: 'Triage the alerts of a project',
  description:
    'Find out what is alerting in a project, since when, and what changed just before; propose next steps.',
  args: { projectId: projectArg },
  render: ({ projectId }) => `Triage the open alerts of project ${projectId}.

1. Call triage_project with projectId=${projectId}. It returns the open alerts grouped by cause and host (acknowledged or not), the changes of the last 24 hours placed before the alerts they may explain, processes behind the automation goal, and maintenance windows in force. If the window is too short to explain the oldest alert, call it again with a larger sinceHours.
2. For each cause, tell me: what is failing and where, since when, whether someone acknowledged it (and until when), and which change — if any — came just before it. Use get_alert_config with an alertConfigId for the condition, get_project_event with an eventId for a change's details, list_open_alerts for every alert when triage_project shows only some.
3. Rank the causes by urgency and propose next steps for each (investigate, acknowledge while someone works on it, a maintenance window for planned work, or a fix).

${SAFETY}`,
});
