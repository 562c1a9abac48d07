// The model: the installation's records read through the client (src/api) and joined once by the rules
// (src/rules). Feeds, views and tools take their facts from here.
// - project.ts — a project's parts read on demand, each once (readProject, projectReader).
// - join.ts — the parts joined: alerts with configuration, window, pages, acknowledgement; hosts with state,
//   sets with writability; agents with silence; processes behind their goal; contradictions kept.
// - causes.ts — open alerts by cause (configurations, window, pages, changes), an alert's what and where.
// - alerts.ts, agents.ts, events.ts — the reads behind the parts (open alerts and windows, agents, events).

export * from './agents.js';
export * from './alerts.js';
export * from './causes.js';
export * from './events.js';
export * from './fates.js';
export * from './join.js';
export * from './project.js';
