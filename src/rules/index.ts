// The platform's rules, each once: pure functions over records, no I/O and no text to show, importing
// src/vocabulary/ only, so the server and the MCP Apps (apps/) decide alike. What each is for:
//
// - alerts.ts — severity and data availability (one set of event types), the alert type a window mutes an
//   alert by, the agent an agent-down alert is about, configuration changes and acknowledgement events.
// - acknowledgements.ts — acknowledged (by whom, until when, the comment) and lapsed (an acknowledgement event
//   for an alert open and unacknowledged now).
// - windows.ts — a window's state, muted (which window, and the alert type that makes it apply: windows are
//   project-wide by alert type), a window's name.
// - paging.ts — paging (an incident-paging integration of either dialect, an SMS, or a USER/GROUP/ORG target
//   with smsEnabled) and a notification key that differs from the project's integration of that type.
// - hosts.ts — a host's state (pinging, or down since; its role then last known) and a replica set's or
//   shard's writability (a primary that pings, or none); disagreeing records are kept, not resolved.
// - agents.ts — an agent silent past its threshold (its configuration's, else the default), and whether a
//   type's work is still done (an active agent heard from).
// - automation.ts — a process at its goal, or behind it since the goal's publish.
// - events.ts — what kind of change an event records, or none (what "what changed" keeps).
// - names.ts — a host as people type it (short, with domain or port, or id), and names near a typo.
// - history.ts — episodes: outages paired from events (else an agent-down alert's close), alerts opened → closed.
// - ranking.ts — causes by urgency (apps and the server's cut alike), projects and causes by tier.
// - durations.ts — a length of time in words, as text and apps both write it (the one text here besides a
//   window's name).

export * from './acknowledgements.js';
export * from './agents.js';
export * from './alerts.js';
export * from './automation.js';
export * from './durations.js';
export * from './events.js';
export * from './history.js';
export * from './hosts.js';
export * from './names.js';
export * from './paging.js';
export * from './ranking.js';
export * from './windows.js';
