// "Why is this deployment not done?" — the automation plan of the processes behind the goal, explained.
import { definePrompt, projectArg, SAFETY } from './define.js';

export const explainDeploymentPlan = definePrompt({
  name: 'explain_deployment_plan',
  title: 'Explain the deployment plan of a project',
  description:
    'Explain which processes have not reached the automation goal, what their remaining plan steps do, and what holds them back.',
  args: { projectId: projectArg },
  render: ({ projectId }) => `Explain the current deployment state of project ${projectId}.

1. Call get_automation_status with projectId=${projectId}. Processes whose last goal version is below the goal version have not deployed the current configuration yet.
2. For each of them, explain the remaining plan steps in order in plain words (for example Download: fetch the database binaries; Start: start the process; WaitRsInit: wait for the replica set to be initiated; WaitFeatureCompatibilityVersionCorrect: wait for the cluster's feature compatibility version; AdjustRoles: update database roles) and which step it is most likely stuck on. Quote the error of a failing process and say what it usually means (for example "address already in use": another process holds the port).
3. Call list_project_events with projectId=${projectId} and eventType ["AUTOMATION_CONFIG_PUBLISHED_AUDIT"] to find who published the goal configuration and when; get_project_event with an eventId shows what that publish changed.
4. Say whether waiting is enough or someone must act, and what they should check first.

This is a read-only review: the tools above change nothing.
${SAFETY}`,
});
