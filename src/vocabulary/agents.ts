// Agents and automation (API reference › Agent, Automation status, endpoint 16).

/** Agent typeName values, also the {agentType} path segment. */
export const AGENT_TYPES = ['MONITORING', 'BACKUP', 'AUTOMATION'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

const AGENT_STATES = ['ACTIVE', 'STANDBY', 'NO_PROCESSES'] as const;
export type AgentState = (typeof AGENT_STATES)[number];
