// The catalog: every tool the server can offer, in the order tools/list shows them. Each toolset's tools live
// in the file of that name (tools/toolsets.ts says which set holds which tool).
import type { AnyTool } from '../src/tool/index.js';
import * as access from './access.js';
import * as alerts from './alerts.js';
import * as deployment from './deployment.js';
import * as events from './events.js';
import * as integrations from './integrations.js';
import * as projects from './projects.js';
import * as triage from './triage.js';
import * as windows from './windows.js';

export const catalog: AnyTool[] = [
  triage.triageProject,
  triage.triageInstallation,
  triage.listOpenAlerts,
  projects.listProjects,
  alerts.listAlertConfigs,
  triage.getAlertConfig,
  alerts.setAlertConfigEnabled,
  alerts.listOpenAlertsForConfig,
  alerts.listMatcherFieldNames,
  alerts.listGlobalAlertConfigs,
  triage.acknowledgeAlert,
  alerts.acknowledgeGlobalAlert,
  alerts.listOpenGlobalAlertsForConfig,
  windows.listMaintenanceWindows,
  windows.getMaintenanceWindow,
  windows.createMaintenanceWindow,
  windows.updateMaintenanceWindow,
  windows.deleteMaintenanceWindow,
  events.listProjectEvents,
  events.getProjectEvent,
  events.listGlobalEvents,
  triage.getAutomationStatus,
  triage.listAgents,
  deployment.getAgentLinks,
  deployment.listHosts,
  deployment.getDiskPartition,
  integrations.listIntegrations,
  integrations.putIntegration,
  access.createFirstUser,
  access.createUser,
  access.updateUserRoles,
  access.getUserAccessList,
  access.findUser,
  access.createOrgApiKey,
  access.createProjectApiKey,
];

export { everySet, toolsets } from './toolsets.js';
