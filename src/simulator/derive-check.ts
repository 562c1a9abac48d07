// Whether the demo's world (data/world.ts) holds together: every host, person, project and alert
// configuration it names exists, every span starts before it ends and lies in the past, every invitation is
// a pending role of people.ts and the other way round. data/index.ts refuses to build a world that fails.

import { USERS } from './data/people.js';
import { TOPOLOGY, type Topology } from './data/topology.js';
import { PERCENT_METRICS } from './data/world.js';
import type { ConfigRef, Host, Person, World } from './data/world-types.js';

interface ConfigLike {
  project?: string;
  event: string;
  metric?: string;
}

/** The hosts of a project as the topology names them (short names, in creation order). */
function shortHostsOf(topo: Topology): Host[] {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const out: Host[] = [];
  for (const set of topo.sets)
    for (let n = 0; n < set.count; n++) out.push(`${set.prefix}-${pad(set.from + n)}`);
  if (topo.mongos !== undefined)
    for (let n = 1; n <= topo.mongos.count; n++) out.push(`${topo.mongos.prefix}-${pad(n)}`);
  if (topo.standalone !== undefined) out.push(topo.standalone);
  return out;
}

/** The checks every part of the world shares, each adding `where: reason` to `problems`. */
function checker(configs: ConfigLike[], topology: Topology[]) {
  const problems: string[] = [];
  const bad = (where: string, why: string): void => {
    problems.push(`${where}: ${why}`);
  };
  const projectOf = new Map<Host, string>();
  for (const topo of topology) for (const h of shortHostsOf(topo)) projectOf.set(h, topo.name);
  const projects = new Set(topology.map((t) => t.name));
  const people = new Set(USERS.map((u) => u.username));
  const hostIn = (where: string, host: Host, project?: string): void => {
    const p = projectOf.get(host);
    if (p === undefined) bad(where, `host ${host} does not exist`);
    else if (project !== undefined && p !== project) bad(where, `host ${host} is in ${p}, not in ${project}`);
  };
  const person = (where: string, who: Person): void => {
    if (!people.has(who)) bad(where, `nobody is called ${who}`);
  };
  const config = (where: string, ref: ConfigRef): void => {
    if (ref.project !== undefined && !projects.has(ref.project))
      bad(where, `project ${ref.project} does not exist`);
    const n = configs.filter(
      (c) =>
        c.project === ref.project &&
        c.event === ref.event &&
        (ref.metric === undefined || c.metric === ref.metric),
    ).length;
    if (n !== 1)
      bad(
        where,
        `${n === 0 ? 'no' : 'more than one'} alert configuration ${ref.event}${ref.metric ? ` ${ref.metric}` : ''} in ${ref.project ?? 'the global configurations'}`,
      );
  };
  const span = (where: string, from: number, to: number | undefined): void => {
    if (from > 0) bad(where, 'starts in the future');
    if (to !== undefined && to <= from) bad(where, 'ends before it starts');
    if (to !== undefined && to > 0) bad(where, 'ends in the future (leave the end out while it lasts)');
  };
  return { problems, bad, projects, hostIn, person, config, span };
}

type Checker = ReturnType<typeof checker>;

/** Agents and deployments: on hosts of their project, goals the topology allows. */
function checkPlacement(world: World, c: Checker, topology: Topology[]): void {
  const { bad, hostIn, person } = c;
  for (const [project, agents] of Object.entries(world.agents)) {
    if (!c.projects.has(project)) bad(`agents.${project}`, 'no such project');
    for (const [i, a] of agents.entries())
      hostIn(`agents.${project}[${i}] (${a.type} on ${a.host})`, a.host, project);
  }
  for (const host of Object.keys(world.automationAgents)) hostIn(`automationAgents.${host}`, host);
  world.deployments.forEach((d, i) => {
    const where = `deployments[${i}] (${d.project}, ${d.change.param})`;
    person(where, d.by);
    if (d.at > 0) bad(where, 'is in the future');
    for (const h of [...d.hosts, ...d.done]) hostIn(where, h, d.project);
    for (const h of d.done) if (!d.hosts.includes(h)) bad(where, `${h} is done but not part of it`);
    if (d.fails !== undefined) {
      hostIn(where, d.fails.host, d.project);
      if (d.done.includes(d.fails.host)) bad(where, `${d.fails.host} both reached the goal and failed`);
      if (d.fails.at < d.at) bad(where, 'fails before it was published');
    }
    const goal = topology.find((t) => t.name === d.project)?.goalVersion;
    if (goal !== undefined && d.goalVersion > goal)
      bad(where, `goal version ${d.goalVersion} is past the project's ${goal}`);
  });
}

/** Outages, silences and readings: real hosts and agents, spans in the past, values that can be. */
function checkSpans(world: World, c: Checker): void {
  const { bad, hostIn, span } = c;
  world.outages.forEach((o, i) => {
    const where = `outages[${i}] (${o.host})`;
    hostIn(where, o.host);
    span(where, o.from, o.to);
  });
  world.silences.forEach((s, i) => {
    const where = `silences[${i}] (${s.type} on ${s.host})`;
    span(where, s.from, s.to);
    if (!(world.agents[s.project] ?? []).some((a) => a.type === s.type && a.host === s.host))
      bad(where, `no ${s.type} agent runs on ${s.host} in ${s.project}`);
  });
  world.readings.forEach((r, i) => {
    const where = `readings[${i}] (${r.metric} on ${r.host})`;
    hostIn(where, r.host);
    span(where, r.since, r.until);
    if (r.value < 0) bad(where, 'a negative value');
    if (PERCENT_METRICS.includes(r.metric) && r.value > 100) bad(where, `${r.value} % is more than 100 %`);
  });
}

/** What people did: changes, toggles, rotations, windows and acknowledgements, by people who exist. */
function checkChanges(world: World, c: Checker): void {
  const { bad, hostIn, person, config } = c;
  world.thresholdChanges.forEach((t, i) => {
    const where = `thresholdChanges[${i}]`;
    config(where, t.config);
    person(where, t.by);
    if (t.at > 0) bad(where, 'is in the future');
  });
  world.toggles.forEach((t, i) => {
    config(`toggles[${i}]`, t.config);
    person(`toggles[${i}]`, t.by);
  });
  world.rotations.forEach((r, i) => {
    const where = `rotations[${i}] (${r.integration} of ${r.project})`;
    person(where, r.by);
    for (const ref of r.stale) config(where, ref);
  });
  world.windows.forEach((w, i) => {
    const where = `windows[${i}] (${w.project}${w.description ? `, ${w.description.slice(0, 30)}` : ''})`;
    if (!c.projects.has(w.project)) bad(where, 'no such project');
    if (w.end <= w.start) bad(where, 'ends before it starts');
    if (w.alertTypeNames.length === 0) bad(where, 'mutes nothing');
    person(where, w.by);
  });
  world.acks.forEach((a, i) => {
    const where = `acks[${i}] (${a.host})`;
    config(where, a.config);
    hostIn(where, a.host, a.config.project);
    person(where, a.by);
    if (a.at > 0) bad(where, 'acknowledged in the future');
    if (a.until <= a.at) bad(where, 'expires before it was given');
  });
}

/** Each invitation is a pending role of people.ts, and each pending role an invitation. */
function checkInvitations(world: World, c: Checker): void {
  const { bad, person } = c;
  world.invitations.forEach((v, i) => {
    const where = `invitations[${i}] (${v.person} to ${v.project})`;
    person(where, v.by);
    if (v.at > 0) bad(where, 'is in the future');
    const pending = USERS.find((u) => u.username === v.person)?.pending ?? [];
    if (!pending.some((r) => Array.isArray(r) && r[0] === v.project && r[1] === v.role))
      bad(where, `people.ts does not hold ${v.role} in ${v.project} as pending for ${v.person}`);
  });
  for (const u of USERS)
    for (const r of u.pending ?? [])
      if (Array.isArray(r) && !world.invitations.some((v) => v.person === u.username && v.project === r[0]))
        bad(`people: ${u.username}`, `pending ${r[1]} in ${r[0]} that no invitation of the world explains`);
}

/**
 * What is wrong with a world, one line each (`where: reason`); empty when it holds together. The
 * configurations are those of data/alert-configs.ts (project and global).
 */
export function checkWorld(world: World, configs: ConfigLike[], topology: Topology[] = TOPOLOGY): string[] {
  const c = checker(configs, topology);
  checkPlacement(world, c, topology);
  checkSpans(world, c);
  checkChanges(world, c);
  checkInvitations(world, c);
  return c.problems;
}
