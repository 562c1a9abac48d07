// The prompts the server offers, in the order prompts/list shows them.
import type { PromptDef } from './define.js';
import { explainDeploymentPlan } from './explain-deployment-plan.js';
import { planMaintenance } from './plan-maintenance.js';
import { reviewRecentChanges } from './review-recent-changes.js';
import { triageAlerts } from './triage-alerts.js';

export const prompts: PromptDef[] = [
  triageAlerts,
  explainDeploymentPlan,
  reviewRecentChanges,
  planMaintenance,
];
