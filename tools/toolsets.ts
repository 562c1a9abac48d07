// The toolsets: the catalog grouped by the areas a person thinks in, each tool in exactly one set, and the
// tools every set carries (the context every area needs). DBOPS_TOOLSETS and the X-MCP-Toolsets header name
// them; src/policy/toolsets.ts applies them. test/unit/toolsets.test.ts checks every tool is placed once.
import type { ToolsetDef } from '../src/policy/toolsets.js';

/** In every set: the projects, which every area needs for its projectId. */
export const everySet = ['list_projects'];

export const toolsets: ToolsetDef[] = [
  {
    name: 'triage',
    summary:
      'What is wrong and why: triage, open alerts, and what triage points to (config, automation, agents, ack).',
    tools: [
      'triage_project',
      'triage_installation',
      'list_open_alerts',
      'get_alert_config',
      'get_automation_status',
      'list_agents',
      'acknowledge_alert',
    ],
  },
  {
    name: 'alerts',
    summary: 'Alert configurations (project and global), their open alerts, matcher field names.',
    tools: [
      'list_alert_configs',
      'set_alert_config_enabled',
      'list_open_alerts_for_config',
      'list_matcher_field_names',
      'list_global_alert_configs',
      'list_open_global_alerts_for_config',
      'acknowledge_global_alert',
    ],
  },
  {
    name: 'windows',
    summary: 'Maintenance windows: list, read, create, change, delete.',
    tools: [
      'list_maintenance_windows',
      'get_maintenance_window',
      'create_maintenance_window',
      'update_maintenance_window',
      'delete_maintenance_window',
    ],
  },
  {
    name: 'events',
    summary: 'What changed and who did it: project and global events.',
    tools: ['list_project_events', 'get_project_event', 'list_global_events'],
  },
  {
    name: 'deployment',
    summary: 'Hosts, disk partitions and agent links.',
    tools: ['list_hosts', 'get_disk_partition', 'get_agent_links'],
  },
  {
    name: 'access',
    summary: 'People and keys: users, roles, access lists, API keys, the first user.',
    tools: [
      'find_user',
      'get_user_access_list',
      'update_user_roles',
      'create_user',
      'create_first_user',
      'create_org_api_key',
      'create_project_api_key',
    ],
  },
  {
    name: 'integrations',
    summary: 'Third-party integrations (PagerDuty, Slack, webhooks): list and replace.',
    tools: ['list_integrations', 'put_integration'],
  },
];
