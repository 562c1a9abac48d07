// The platform's vocabulary: its enumerations, in one place, imported by the client, the tools, the
// prompts and the simulator. This folder imports nothing of the project.

export * from './agents.js';
export * from './alerts.js';
export * from './events.js';
export * from './integrations.js';
export * from './roles.js';
export * from './units.js';
