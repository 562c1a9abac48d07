// The second on-call suite (issue 41): questions nobody here had written down before the answers were built —
// paging, acknowledgements, hosts and writability, people, agents — asked the way a model would (the calls it
// makes), each answer's facts computed from the simulator's own records with the platform's rules read here
// afresh, never from our answer code. Plain JavaScript with no imports of our code, so other suites and the
// bench can run it. To add a question: push one { name, question, calls(data), check(texts, data, now) } onto
// `questions` (a change sets `change: true` and may take three calls); `ask` runs one through any caller.

const MIN = 60_000;
const short = (h) => (h ?? '').replace(/:\d+$/, '').split('.')[0];
const project = (data, name) => data.projects.find((p) => p.name === name);
const projectName = (data, id) => data.projects.find((p) => p.id === id)?.name ?? id;
const ms = (iso) => Date.parse(iso ?? '') || 0;
const lineOf = (text, needle) => text.split('\n').find((l) => l.includes(needle)) ?? '';
const onOneLine = (text, ...parts) => text.split('\n').some((l) => parts.every((p) => l.includes(p)));

/** Open alerts, project (OPEN) and global (OPEN, in a project), with their configuration. */
function openAlerts(data) {
  const configs = [...data.alertConfigs, ...data.globalAlertConfigs];
  return [
    ...data.alerts.filter((a) => a.status === 'OPEN').map((a) => ({ ...a, global: false })),
    ...data.globalAlerts.filter((a) => a.status === 'OPEN' && a.groupId).map((a) => ({ ...a, global: true })),
  ].map((a) => ({ ...a, config: configs.find((c) => c.id === a.alertConfigId) }));
}

/** The platform's paging, read from the API reference: incident-paging integrations, SMS, a person with smsEnabled. */
const PAGER = {
  INCIDENT_PAGING_A: 'PagerDuty',
  INCIDENT_PAGING_B: 'OpsGenie',
  INCIDENT_PAGING_C: 'VictorOps',
};
export function pagesOf(config) {
  return (config?.notifications ?? []).flatMap((n) => {
    if (PAGER[n.typeName]) return [PAGER[n.typeName]];
    if (n.typeName === 'SMS') return ['SMS'];
    if (['USER', 'GROUP', 'ORG'].includes(n.typeName) && n.smsEnabled === true) return ['SMS'];
    return [];
  });
}

/** The window type of the world's alert event types (API reference › Alert). */
const WINDOW_TYPE = {
  HOST_DOWN: 'HOST',
  OUTSIDE_METRIC_THRESHOLD: 'HOST',
  REPLICATION_OPLOG_WINDOW_RUNNING_OUT: 'REPLICA_SET',
  NO_PRIMARY: 'REPLICA_SET',
  MONITORING_AGENT_DOWN: 'AGENT',
  BACKUP_AGENT_DOWN: 'BACKUP',
};
const mutedNow = (data, a, now) =>
  data.maintenanceWindows.some(
    (w) =>
      w.groupId === a.groupId &&
      ms(w.startDate) <= now.getTime() &&
      ms(w.endDate) > now.getTime() &&
      w.alertTypeNames.includes(WINDOW_TYPE[a.eventTypeName]),
  );
const ackedNow = (a, now) => ms(a.acknowledgedUntil) > now.getTime();

/** Notifications whose long values (keys) are not all the integration's of their type, by configuration. */
function staleKeys(data) {
  const out = [];
  const secrets = (r) => Object.values(r).filter((v) => typeof v === 'string' && v.length >= 20);
  for (const c of data.alertConfigs)
    for (const n of c.notifications) {
      const i = data.integrations.find((x) => x.groupId === c.groupId && x.type === n.typeName);
      if (i && !secrets(n).every((k) => secrets(i.fields).includes(k)))
        out.push({ config: c, type: n.typeName, integration: i });
    }
  return out;
}

/** Open alerts that page someone now: the configuration pages, and no window in force or acknowledgement stops it. */
const pagingNow = (data, now) =>
  openAlerts(data).filter((a) => pagesOf(a.config).length && !mutedNow(data, a, now) && !ackedNow(a, now));

/** The projects an installation's triage draws in full, by id: each one's lines, heading to next heading. */
function drawn(text) {
  const out = new Map();
  let id;
  for (const line of text.split('\n')) {
    const head = /^## \d+\. .* \(([0-9a-f]{24})\) — /.exec(line);
    if (head) {
      id = head[1];
      out.set(id, []);
    } else if (!line.startsWith('- ')) id = undefined;
    else if (id) out.get(id).push(line);
  }
  return new Map([...out].map(([k, lines]) => [k, lines.join('\n')]));
}

/**
 * Projects the answer leaves out that page someone now: how many must be said, with where to see their alerts.
 * An installation of hundreds cannot be drawn whole; a paging project behind "N more projects" must not hide.
 */
function pagingLeftOut(text, data, now) {
  const shown = drawn(text);
  const left = new Set(pagingNow(data, now).flatMap((a) => (shown.has(a.groupId) ? [] : [a.groupId])));
  if (!left.size) return [];
  const said = /(\d+) of them paging/.exec(text);
  const lacks = Number(said?.[1]) === left.size ? [] : [`${left.size} projects left out page someone now`];
  if (!text.includes('list_open_alerts with projectId "all" and paging true'))
    lacks.push('where to see every paging alert');
  return lacks;
}

const hostDownGlobal = (data) => data.globalAlertConfigs.find((c) => c.eventTypeName === 'HOST_DOWN');

/**
 * Each question: what a person asks, calls(data) the model makes ([tool, arguments] in order, the later ones
 * may use what the earlier ones' answers said, taken here from the records), and check(texts, data, now)
 * returning what the answers lack.
 */
export const questions = [
  {
    name: 'paged-now',
    question: 'who is being paged right now?',
    calls: () => [['triage_installation', {}]],
    check([text], data, now) {
      const lacks = [];
      // Each paging alert of a project drawn in full on a line of its project; the others counted.
      const shown = drawn(text);
      for (const a of pagingNow(data, now).filter((x) => shown.has(x.groupId))) {
        const where = short(a.hostnameAndPort) || a.replicaSetName;
        for (const p of pagesOf(a.config))
          if (!onOneLine(shown.get(a.groupId), a.eventTypeName, where, p))
            lacks.push(`${a.eventTypeName} on ${where} pages ${p}`);
      }
      lacks.push(...pagingLeftOut(text, data, now));
      if (!lacks.length && !/pages (PagerDuty|OpsGenie|VictorOps|SMS)/.test(text))
        lacks.push('someone paged');
      return lacks;
    },
  },
  {
    name: 'paging-not-hidden',
    question: 'is a paging cause hidden anywhere in the installation?',
    calls: () => [['triage_installation', {}]],
    check([text], data, now) {
      const hidden = text
        .split('\n')
        .filter((l) => /\+\d+ more unmuted cause/.test(l) && !/none pages/.test(l));
      return [
        ...hidden.map((l) => `a "+N more" that may hide a paging cause: ${l}`),
        ...pagingLeftOut(text, data, now),
      ];
    },
  },
  {
    name: 'stale-key-on-alert',
    question: 'will the connections alert page the right PagerDuty service?',
    calls: () => [['list_open_alerts', { projectId: 'payments-prod' }]],
    check([text], data) {
      const lacks = [];
      const p = project(data, 'payments-prod');
      for (const s of staleKeys(data).filter((x) => x.config.groupId === p.id && PAGER[x.type])) {
        const service = PAGER[s.type];
        if (!text.includes(`carries a different key from the project's ${service} integration`))
          lacks.push(
            `the ${service} notification of ${s.config.metricThreshold?.metricName} carries a different key`,
          );
        const rot = data.events.find((e) => e.groupId === p.id && e.eventTypeName === 'INTEGRATION_UPDATED');
        if (rot && !text.includes(rot.username)) lacks.push(`who replaced the key: ${rot.username}`);
        if (!/may page the old service/.test(text)) lacks.push('that it may page the old service');
      }
      if (/pages nobody/.test(text)) lacks.push('never "pages nobody": the old key may still work');
      return lacks;
    },
  },
  {
    name: 'stale-key-on-config',
    question: 'which configuration still carries the old PagerDuty key?',
    calls: (data) => [
      ['list_alert_configs', { projectId: 'payments-prod' }],
      [
        'get_alert_config',
        { projectId: 'payments-prod', alertConfigId: staleKeys(data).find((s) => PAGER[s.type])?.config.id },
      ],
    ],
    check([, text]) {
      const lacks = [];
      if (
        !/carries a different key from the project's PagerDuty integration \(replaced \d+ d ago by /.test(
          text,
        )
      )
        lacks.push('the key flag with when and by whom the integration was replaced');
      if (!/may page the old service/.test(text)) lacks.push('that it may page the old service');
      return lacks;
    },
  },
  {
    name: 'own-key-not-flagged',
    question: 'does the analytics backup-agent PagerDuty notification use a stale key?',
    calls: (data) => [
      [
        'get_alert_config',
        {
          projectId: 'analytics-prod',
          alertConfigId: data.alertConfigs.find(
            (c) =>
              c.groupId === project(data, 'analytics-prod').id && c.eventTypeName === 'BACKUP_AGENT_DOWN',
          ).id,
        },
      ],
    ],
    check([text], data) {
      const lacks = [];
      const p = project(data, 'analytics-prod');
      const has = data.integrations.some((i) => i.groupId === p.id && i.type === 'INCIDENT_PAGING_A');
      if (!has && /different key/.test(text))
        lacks.push('no flag: the project has no PagerDuty integration to differ from');
      if (!/Pages\*\*: PagerDuty/.test(text)) lacks.push('says it pages PagerDuty');
      return lacks;
    },
  },
  {
    name: 'sms-user',
    question: "who gets a text message for payments-prod's disk alerts?",
    calls: () => [['list_alert_configs', { projectId: 'payments-prod' }]],
    check([text], data) {
      const lacks = [];
      const p = project(data, 'payments-prod');
      for (const c of data.alertConfigs.filter((x) => x.groupId === p.id))
        for (const n of c.notifications.filter((x) => x.typeName === 'USER' && x.smsEnabled))
          if (!onOneLine(text, c.id, `SMS to ${n.username}`)) lacks.push(`${c.id}: SMS to ${n.username}`);
      return lacks;
    },
  },
  {
    name: 'who-acked',
    question: 'who acknowledged what, and why?',
    calls: () => [['triage_installation', {}]],
    check([text], data, now) {
      const lacks = [];
      for (const a of openAlerts(data).filter((x) => ackedNow(x, now) && !mutedNow(data, x, now)))
        if (
          !onOneLine(
            text,
            short(a.hostnameAndPort),
            a.acknowledgingUsername,
            a.acknowledgementComment.slice(0, 20),
          )
        )
          lacks.push(
            `${short(a.hostnameAndPort)} acknowledged by ${a.acknowledgingUsername}: "${a.acknowledgementComment}"`,
          );
      return lacks;
    },
  },
  {
    name: 'rack-b',
    question: "why is db-analytics-04's host-down acknowledged?",
    calls: () => [['triage_project', { projectId: 'analytics-prod' }]],
    check([text], data, now) {
      const a = openAlerts(data).find((x) => x.eventTypeName === 'HOST_DOWN' && ackedNow(x, now));
      if (!a) return ['an acknowledged HOST_DOWN in the world'];
      return onOneLine(text, a.id, a.acknowledgingUsername, a.acknowledgementComment)
        ? []
        : [`alert ${a.id}: by ${a.acknowledgingUsername}, "${a.acknowledgementComment}"`];
    },
  },
  {
    name: 'lapsed-ack',
    question: 'has any acknowledgement lapsed in analytics-prod?',
    calls: () => [['list_open_alerts', { projectId: 'analytics-prod' }]],
    check([text], data, now) {
      const lacks = [];
      const p = project(data, 'analytics-prod');
      const lapsed = openAlerts(data).filter(
        (a) =>
          a.groupId === p.id &&
          !ackedNow(a, now) &&
          data.events.some((e) => e.eventTypeName === 'ALERT_ACKNOWLEDGED_AUDIT' && e.alertId === a.id),
      );
      if (!lapsed.length) lacks.push('a lapsed acknowledgement in the world');
      for (const a of lapsed) {
        const e = data.events.find(
          (x) => x.eventTypeName === 'ALERT_ACKNOWLEDGED_AUDIT' && x.alertId === a.id,
        );
        if (!onOneLine(text, a.id, 'lapsed', e.username))
          lacks.push(`alert ${a.id}: acknowledgement by ${e.username} lapsed`);
      }
      return lacks;
    },
  },
  {
    name: 'muted-quiet',
    question: 'when was each payments-prod alert last notified, and why are they quiet?',
    calls: () => [['list_open_alerts', { projectId: 'payments-prod' }]],
    check([text], data, now) {
      const lacks = [];
      const p = project(data, 'payments-prod');
      for (const a of openAlerts(data).filter((x) => x.groupId === p.id)) {
        const line = lineOf(text, a.id);
        if (a.lastNotified ? !/notified \d/.test(line) : !/not notified yet/.test(line))
          lacks.push(`alert ${a.id}: ${a.lastNotified ? `notified ${a.lastNotified}` : 'not notified yet'}`);
        if (mutedNow(data, a, now) && a.lastNotified) {
          const w = data.maintenanceWindows.find(
            (x) => x.groupId === p.id && ms(x.startDate) <= now.getTime() && ms(x.endDate) > now.getTime(),
          );
          if (ms(a.lastNotified) > ms(w.startDate))
            lacks.push(`the world: ${a.id} notified inside its window`);
        }
      }
      if (!/muted by/.test(text)) lacks.push('which window mutes them');
      return lacks;
    },
  },
  {
    name: 'analytics-writes',
    question: 'can the analytics cluster take writes?',
    calls: () => [['list_hosts', { projectId: 'analytics-prod' }]],
    check([text], data, now) {
      const lacks = [];
      const p = project(data, 'analytics-prod');
      const hosts = data.hosts.filter((h) => h.groupId === p.id && h.replicaSetName);
      for (const set of new Set(hosts.map((h) => h.replicaSetName))) {
        const members = hosts.filter((h) => h.replicaSetName === set);
        if (!members.some((h) => /PRIMARY|SECONDARY/.test(h.typeName))) continue;
        const live = members.some(
          (h) => /PRIMARY$/.test(h.typeName) && now.getTime() - ms(h.lastPing) <= 5 * MIN,
        );
        const line = lineOf(text, `- ${set}:`);
        if (live ? !/takes writes/.test(line) : !/NO primary that pings/.test(line))
          lacks.push(`${set}: ${live ? 'takes writes' : 'no primary that pings'}`);
      }
      return lacks;
    },
  },
  {
    name: 'host-down',
    question: 'is db-analytics-04 up?',
    calls: () => [['list_hosts', { projectId: 'analytics-prod' }]],
    check([text], data, now) {
      const lacks = [];
      const p = project(data, 'analytics-prod');
      // "DOWN since" is how the host search (issue 43) says it too: one words for a host's state.
      for (const h of data.hosts.filter(
        (x) => x.groupId === p.id && now.getTime() - ms(x.lastPing) > 5 * MIN,
      ))
        if (!onOneLine(text.replace(/DOWN since/g, 'down since'), h.hostname, 'down', 'role last known'))
          lacks.push(`${short(h.hostname)} down, role last known`);
      return lacks;
    },
  },
  {
    name: 'marcus',
    question: 'what can Marcus do in search-staging?',
    calls: () => [
      ['find_user', { query: 'marcus' }],
      [
        'list_project_events',
        { projectId: 'search-staging', eventType: ['INVITED_TO_GROUP', 'JOINED_GROUP'] },
      ],
    ],
    check([found, events], data) {
      const lacks = [];
      const m = data.users.find((u) => u.username.startsWith('marcus'));
      const s = project(data, 'search-staging');
      if (m.roles.some((r) => r.groupId === s.id)) lacks.push('the world: Marcus has no role there yet');
      for (const r of m.roles.filter((x) => x.groupId))
        if (!found.includes(`${r.roleName} @ project ${projectName(data, r.groupId)}`))
          lacks.push(`his role ${r.roleName}`);
      const invite = data.events.find(
        (e) =>
          e.groupId === s.id && e.eventTypeName === 'INVITED_TO_GROUP' && e.targetUsername === m.username,
      );
      if (!invite) lacks.push('the world: an invitation event');
      else if (!onOneLine(events, 'INVITED_TO_GROUP', invite.username, m.username))
        lacks.push(`invited by ${invite.username}`);
      return lacks;
    },
  },
  {
    name: 'silent-agent',
    question: 'is the monitoring agent on db-prod-04 reporting?',
    calls: () => [['list_agents', { projectId: 'payments-prod', agentType: 'MONITORING' }]],
    check([text], data, now) {
      const lacks = [];
      const p = project(data, 'payments-prod');
      for (const a of data.agents.filter((x) => x.groupId === p.id && x.typeName === 'MONITORING'))
        if (now.getTime() - ms(a.lastPing) > 10 * MIN && !onOneLine(text, short(a.hostname), 'SILENT'))
          lacks.push(`${short(a.hostname)} silent since ${a.lastPing}`);
      return lacks;
    },
  },
  {
    name: 'behind-since',
    question: 'since when is the payments deployment behind, and who published it?',
    calls: () => [['triage_project', { projectId: 'payments-prod' }]],
    check([text], data) {
      const lacks = [];
      const p = project(data, 'payments-prod');
      const s = data.automation.find((x) => x.groupId === p.id);
      const pub = data.events
        .filter((e) => e.groupId === p.id && e.eventTypeName === 'AUTOMATION_CONFIG_PUBLISHED_AUDIT')
        .sort((x, y) => ms(y.created) - ms(x.created))[0];
      for (const proc of s.processes.filter((x) => x.lastGoalVersionAchieved !== s.goalVersion))
        if (!onOneLine(text, proc.name, 'published', pub.username))
          lacks.push(`${proc.name}: published ... by ${pub.username}`);
      return lacks;
    },
  },
  {
    name: 'global-projects',
    question: 'which projects have global host-down alerts open?',
    calls: (data) => [
      ['list_global_alert_configs', {}],
      ['list_open_global_alerts_for_config', { globalAlertConfigId: hostDownGlobal(data).id }],
    ],
    check([, text], data) {
      const lacks = [];
      for (const a of data.globalAlerts.filter(
        (x) => x.alertConfigId === hostDownGlobal(data).id && x.status === 'OPEN',
      ))
        if (!onOneLine(text, a.id, `\`${projectName(data, a.groupId)}\``))
          lacks.push(`alert ${a.id} in ${projectName(data, a.groupId)}`);
      return lacks;
    },
  },
  {
    name: 'grant-names',
    question: 'give Lee read access to platform-dev',
    change: true,
    calls: (data) => [
      ['find_user', { query: 'lee' }],
      [
        'update_user_roles',
        {
          userId: data.users.find((u) => u.username.startsWith('lee.')).id,
          mode: 'add',
          roles: [{ groupId: 'platform-dev', roleName: 'GROUP_READ_ONLY' }],
        },
      ],
    ],
    check([, asked], data) {
      const lacks = [];
      const org = data.orgs[0];
      if (!asked.includes(`@ org \`${org.name}\``)) lacks.push(`the organization by name (${org.name})`);
      const lee = data.users.find((u) => u.username.startsWith('lee.'));
      for (const r of lee.roles.filter((x) => x.groupId))
        if (!asked.includes(`${r.roleName} @ project \`${projectName(data, r.groupId)}\``))
          lacks.push(`role in ${projectName(data, r.groupId)} by name`);
      if (!/nothing has changed yet/i.test(asked)) lacks.push('asks first');
      return lacks;
    },
  },
];

/** Runs one question through `call(name, args)` → { text, isError }: its texts, calls, characters and lacks. */
export async function ask(q, call, data, now = new Date()) {
  const texts = [];
  const calls = q.calls(data);
  for (const [name, args] of calls) {
    const r = await call(name, args);
    texts.push(r.isError ? `(error) ${r.text}` : r.text);
  }
  return {
    name: q.name,
    calls: calls.length,
    chars: texts.reduce((n, t) => n + t.length, 0),
    texts,
    lacks: q.check(texts, data, now),
  };
}
