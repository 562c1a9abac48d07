// The toolsets: the areas a person thinks in, each with its line. Which tools a set holds is said by each tool
// (its `toolset`) and gathered in tools/index.ts; the tools of `projects` are in every set (the context every
// area needs). DBOPS_TOOLSETS and the X-MCP-Toolsets header name them; src/policy/toolsets.ts applies them.

/** Its tools come with every set: the projects, which every area needs for its projectId. */
export const EVERY_SET = 'projects';

export const SETS: Array<{ name: string; summary: string }> = [
  {
    name: 'triage',
    summary:
      'What is wrong and why: triage, open alerts, and what triage points to (config, automation, agents, ack).',
  },
  {
    name: 'alerts',
    summary: 'Alert configurations (project and global), their open alerts, matcher field names.',
  },
  { name: 'windows', summary: 'Maintenance windows: list, read, create, change, delete.' },
  { name: 'events', summary: 'What changed and who did it: project and global events.' },
  { name: 'deployment', summary: 'Hosts, disk partitions and agent links.' },
  { name: 'access', summary: 'People and keys: users, roles, access lists, API keys, the first user.' },
  {
    name: 'integrations',
    summary: 'Third-party integrations (PagerDuty, Slack, webhooks): list and replace.',
  },
];
