// The catalog: every tool the server can offer, in the order tools/list shows them.

import type { AnyTool } from '../src/tool/index.js';
import { agentTools } from './agents.js';
import { alertConfigTools } from './alert-configs.js';
import { alertTools } from './alerts.js';
import { apiKeyTools } from './api-keys.js';
import { automationTools } from './automation.js';
import { eventTools } from './events.js';
import { hostTools } from './hosts.js';
import { installationTools } from './installation.js';
import { integrationTools } from './integrations.js';
import { maintenanceWindowTools } from './maintenance-windows.js';
import { openAlertTools } from './open-alerts.js';
import { globalAlertConfigTools, projectTools } from './projects.js';
import { triageTools } from './triage.js';
import { userTools } from './users.js';

export const catalog: AnyTool[] = [
  ...triageTools,
  ...installationTools,
  ...openAlertTools,
  ...projectTools,
  ...alertConfigTools,
  ...globalAlertConfigTools,
  ...alertTools,
  ...maintenanceWindowTools,
  ...eventTools,
  ...automationTools,
  ...agentTools,
  ...hostTools,
  ...integrationTools,
  ...userTools,
  ...apiKeyTools,
];

export { everySet, toolsets } from './toolsets.js';
