// The ten questions of an on-call shift (issue 32), asked of the demo installation the way a model would: the
// calls it makes, and the facts each answer must hold — cause, who, since when, what next — computed from the
// simulator's own records, so they hold for any demo world, not for one table's shape. Plain JavaScript with no
// imports: test/scenarios/oncall.test.ts and bench/scenarios.mjs (after a build) run the very same questions.

const MIN = 60_000;
const HOUR = 60 * MIN;

/** A host as answers may name it: its first label (answers say the shared domain once). */
const short = (h) => (h ?? '').replace(/:\d+$/, '').split('.')[0];
const hostOf = (a) => short(a.hostnameAndPort);
const projectName = (data, id) => data.projects.find((p) => p.id === id)?.name ?? id;
const isOpen = (a) => a.status === 'OPEN' || a.status === 'TRACKING';
/** Project alerts open or tracking, and global ones open (the API lists a global configuration's OPEN alerts only). */
const openAlerts = (data) => [
  ...data.alerts.filter(isOpen).map((a) => ({ ...a, global: false })),
  ...data.globalAlerts.filter((a) => a.status === 'OPEN' && a.groupId).map((a) => ({ ...a, global: true })),
];
const ms = (iso) => Date.parse(iso ?? '') || 0;

/** The part of an answer from the first line matching `start` up to the next heading of that level or above. */
export function section(text, start) {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => start.test(l));
  if (i < 0) return '';
  const level = /^(#+) /.exec(lines[i])?.[1].length ?? 3;
  const end = lines.findIndex((l, j) => j > i && /^(#+) /.test(l) && /^(#+) /.exec(l)[1].length <= level);
  return lines.slice(i, end < 0 ? undefined : end).join('\n');
}

/** True when some line of `text` holds every one of `parts`. */
const onOneLine = (text, ...parts) => text.split('\n').some((l) => parts.every((p) => l.includes(p)));

/** A call's arguments with "$priya" replaced by her id, as a model reads it in the answer before. */
export function argsFor(args, data) {
  const priya = data.users.find((u) => u.username.includes('priya'));
  return JSON.parse(JSON.stringify(args).replace('"$priya"', JSON.stringify(priya?.id)));
}

/** Makes the demo hold what the questions are about where a world may lack it: one monitoring agent silent. */
export function prepare(data, now) {
  const agents = data.agents.filter((a) => a.typeName === 'MONITORING' && a.stateName === 'ACTIVE');
  const silentAlready = data.agents.some(
    (a) => a.typeName === 'MONITORING' && now.getTime() - ms(a.lastPing) > 10 * MIN,
  );
  if (!silentAlready) {
    // The last project's active monitoring agent stopped pinging 45 minutes ago, and no alert says so yet.
    const a = agents.at(-1);
    a.lastPing = new Date(now.getTime() - 45 * MIN).toISOString().replace(/\.\d+Z$/, 'Z');
  }
}

/**
 * Each question: what a person asks, the calls a model makes (tool, arguments), and check(answers, data, now)
 * returning what the answers lack (empty when the answer holds every fact). `change`: a question that makes a
 * change (ask, then act: two calls allowed). `todo`: owned by another half of issue 32, not yet on main.
 */
export const questions = [
  {
    name: 'alerting',
    question: 'what is alerting in payments-prod, and why?',
    calls: [['triage_project', { projectId: 'payments-prod' }]],
    check([text], data, now) {
      const lacks = [];
      const p = data.projects.find((x) => x.name === 'payments-prod');
      for (const a of openAlerts(data).filter((x) => x.groupId === p.id))
        if (!text.includes(a.id)) lacks.push(`open alert ${a.id} (${a.eventTypeName})`);
      const active = data.maintenanceWindows.filter(
        (w) => w.groupId === p.id && ms(w.startDate) <= now.getTime() && ms(w.endDate) > now.getTime(),
      );
      for (const w of active) {
        // Answers may cut a long description: its start names the window.
        if (w.description && !onOneLine(text, 'muted', w.description.slice(0, 30)))
          lacks.push(`"muted" names window "${w.description}" by its description`);
      }
      if (active.length && !/project-wide/.test(text)) lacks.push('says windows mute project-wide');
      // "What changed, then what broke" holds only what happened in its window (24 h).
      const story = section(text, /^### What changed/);
      for (const a of openAlerts(data).filter((x) => x.groupId === p.id))
        if (ms(a.created) < now.getTime() - 24 * HOUR && story.includes(a.id))
          lacks.push(`alert ${a.id}, older than the window, under "what changed"`);
      return lacks;
    },
  },
  {
    name: 'backup-agent',
    question: 'is the backup agent running?',
    calls: [['triage_installation', {}]],
    check([text], data) {
      const lacks = [];
      for (const a of openAlerts(data).filter((x) => x.eventTypeName === 'BACKUP_AGENT_DOWN')) {
        const project = projectName(data, a.groupId);
        if (!onOneLine(text, 'BACKUP_AGENT_DOWN', hostOf(a)) || !text.includes(project))
          lacks.push(`open BACKUP_AGENT_DOWN on ${hostOf(a)} in ${project}`);
      }
      const backup = data.agents.filter((a) => a.typeName === 'BACKUP');
      if (backup.some((a) => a.stateName === 'NO_PROCESSES') && !/no processes assigned/i.test(text))
        lacks.push('NO_PROCESSES explained in words');
      if (backup.some((a) => a.stateName === 'STANDBY') && !/takes over/i.test(text))
        lacks.push('STANDBY explained in words');
      return lacks;
    },
  },
  {
    name: 'deployment-stuck',
    question: 'why is the deployment stuck?',
    calls: [['triage_installation', {}]],
    check([text], data) {
      const lacks = [];
      for (const s of data.automation) {
        for (const proc of s.processes.filter((x) => x.errorCode)) {
          const project = projectName(data, s.groupId);
          if (!text.includes(proc.name) || !text.includes(project))
            lacks.push(`failing process ${proc.name} of ${project}`);
          const status = /exit status \d+/.exec(`${proc.errorCodeDescription} ${proc.errorString}`)?.[0];
          if (status && !text.includes(status)) lacks.push(`its error "${status}"`);
          if (
            /address already in use/.test(proc.errorCodeDescription) &&
            !/address already in use/.test(text)
          )
            lacks.push('"address already in use"');
          if (proc.plan.length && !text.includes(proc.plan.join(' → ')))
            lacks.push(`its plan ${proc.plan.join(' → ')}`);
          const published = data.events.some(
            (e) => e.groupId === s.groupId && e.eventTypeName === 'AUTOMATION_CONFIG_PUBLISHED_AUDIT',
          );
          if (published && !/published [^;]*ago/.test(text))
            lacks.push('how long since the goal was published');
        }
      }
      return lacks;
    },
  },
  {
    name: 'silence-disk',
    question: "silence disk alerts during tonight's patching",
    change: true,
    // Asked the way a model would: a window from tonight, muting HOST (the type disk alerts belong to).
    get calls() {
      const at = (h) => new Date(Date.now() + h * HOUR).toISOString();
      return [
        [
          'create_maintenance_window',
          {
            projectId: 'payments-prod',
            startDate: at(1),
            endDate: at(3),
            alertTypeNames: ['HOST'],
            description: 'Kernel patching tonight',
          },
        ],
      ];
    },
    check([text], data) {
      const lacks = [];
      if (!/nothing has changed yet/i.test(text)) lacks.push('asks first (pages go quiet)');
      if (data.maintenanceWindows.some((w) => w.description === 'Kernel patching tonight'))
        lacks.push('nothing created before the person agrees');
      for (const fact of [
        'Project-wide',
        'Pages go quiet',
        'still open',
        'Disk alerts cannot be muted alone',
        'HOST_DOWN',
      ])
        if (!text.includes(fact)) lacks.push(`says "${fact}"`);
      if (!/Disk space used on data partition > \d+ %/.test(text)) lacks.push('names the disk configuration');
      return lacks;
    },
  },
  {
    name: 'threshold-change',
    question: 'who changed the disk threshold yesterday?',
    calls: [
      ['list_project_events', { projectId: 'payments-prod', eventType: ['ALERT_CONFIG_CHANGED_AUDIT'] }],
    ],
    check([text], data, now) {
      const lacks = [];
      const p = data.projects.find((x) => x.name === 'payments-prod');
      const changes = data.events.filter(
        (e) =>
          e.groupId === p.id &&
          e.eventTypeName === 'ALERT_CONFIG_CHANGED_AUDIT' &&
          ms(e.created) > now.getTime() - 48 * HOUR,
      );
      if (!changes.length) lacks.push('a threshold change in the world');
      for (const e of changes) {
        if (e.username && !text.includes(e.username)) lacks.push(`who: ${e.username}`);
        if (!text.includes(e.id)) lacks.push(`the event ${e.id}`);
      }
      if (!/\d+ → \d+/.test(text)) lacks.push('before → after');
      return lacks;
    },
  },
  {
    name: 'priya-access',
    question: 'give Priya read access to search-staging',
    change: true,
    // First who she is (by part of her name), then the change: the second call asks before it grants.
    calls: [
      ['find_user', { query: 'priya' }],
      [
        'update_user_roles',
        {
          userId: '$priya',
          mode: 'add',
          roles: [{ groupId: 'search-staging', roleName: 'GROUP_READ_ONLY' }],
        },
      ],
    ],
    check([found, asked], data) {
      const lacks = [];
      const priya = data.users.find((u) => u.username.includes('priya'));
      if (!found.includes(priya.username)) lacks.push('finds her by part of her name');
      for (const r of priya.roles.filter((x) => x.groupId))
        if (!found.includes(`${r.roleName} @ project ${projectName(data, r.groupId)}`))
          lacks.push(`her role ${r.roleName} in ${projectName(data, r.groupId)}, whole and named`);
      if (!/nothing has changed yet/i.test(asked)) lacks.push('asks before granting');
      if (!asked.includes('search-staging')) lacks.push('names the project the grant is for');
      return lacks;
    },
  },
  {
    name: 'pagerduty-rotate',
    question: 'rotate the PagerDuty key',
    change: true,
    calls: [
      [
        'put_integration',
        {
          projectId: 'payments-prod',
          integrationType: 'INCIDENT_PAGING_A',
          settings: { serviceKey: 'pd-rotated-key-00112233aabb' },
        },
      ],
    ],
    check([text]) {
      const lacks = [];
      if (!/nothing has changed yet/i.test(text)) lacks.push('asks before replacing a live key');
      if (!text.includes('Connections > 4000')) lacks.push('names the configuration still on an old key');
      if (!/re-added/.test(text)) lacks.push('says how to finish (re-add in the UI)');
      return lacks;
    },
  },
  {
    name: 'on-fire',
    question: 'what is on fire across all projects?',
    calls: [['triage_installation', {}]],
    check([text], data) {
      const lacks = [];
      const withAlerts = new Set(openAlerts(data).map((a) => a.groupId));
      const order = data.projects
        .map((p) => ({ p, at: text.search(new RegExp(`^#+ \\d+\\. \`?${p.name}\\b`, 'm')) }))
        .filter((x) => x.at >= 0)
        .sort((a, b) => a.at - b.at);
      for (const id of withAlerts)
        if (!order.some((x) => x.p.id === id))
          lacks.push(`project ${projectName(data, id)} ranked with its causes`);
      // A project whose automation is failing ranks above every project with no host down, no primary and no
      // failing automation.
      const rank = (id) => order.findIndex((x) => x.p.id === id);
      const failing = data.automation
        .filter((s) => s.processes.some((x) => x.errorCode))
        .map((s) => s.groupId);
      const available = (id) =>
        !failing.includes(id) &&
        !openAlerts(data).some((a) => a.groupId === id && /^(HOST_DOWN|NO_PRIMARY)$/.test(a.eventTypeName));
      for (const id of failing)
        for (const x of order.filter((o) => available(o.p.id)))
          if (rank(id) > rank(x.p.id))
            lacks.push(`${projectName(data, id)} (failing automation) above ${x.p.name}`);
      if (!/pag(es|ing)/.test(text)) lacks.push('says which causes page someone');
      return lacks;
    },
  },
  {
    name: 'agents-down',
    question: 'are any monitoring agents down or silent?',
    calls: [['triage_installation', {}]],
    check([text], data, now) {
      const lacks = [];
      for (const a of openAlerts(data).filter((x) => x.eventTypeName === 'MONITORING_AGENT_DOWN'))
        if (!onOneLine(text, 'MONITORING_AGENT_DOWN', hostOf(a)))
          lacks.push(`open MONITORING_AGENT_DOWN on ${hostOf(a)} (${projectName(data, a.groupId)})`);
      for (const a of data.agents.filter((x) => x.typeName === 'MONITORING' && x.lastPing))
        if (now.getTime() - ms(a.lastPing) > 10 * MIN && !onOneLine(text, short(a.hostname), 'SILENT'))
          lacks.push(`monitoring agent on ${a.hostname} silent since ${a.lastPing}`);
      return lacks;
    },
  },
  {
    name: 'last-hour',
    question: 'what changed in the last hour?',
    calls: [['triage_installation', { sinceHours: 1 }]],
    check([text], data, now) {
      const lacks = [];
      const since = now.getTime() - HOUR;
      const changed = section(text, /^## What changed/);
      if (!changed) return ['a "What changed" section'];
      for (const w of data.maintenanceWindows)
        if (
          ms(w.startDate) >= since - MIN &&
          ms(w.startDate) <= now.getTime() &&
          !changed.includes(w.description?.slice(0, 30) ?? w.id)
        )
          lacks.push(`window "${w.description ?? w.id}" that started ${w.startDate}`);
      for (const a of openAlerts(data).filter((x) => ms(x.created) >= since))
        if (
          !onOneLine(
            changed,
            hostOf(a) || a.clusterName || a.replicaSetName || '?',
            a.metricName ?? a.eventTypeName,
          )
        )
          lacks.push(`alert opened ${a.created}: ${a.metricName ?? a.eventTypeName} on ${hostOf(a)}`);
      for (const a of [...data.alerts, ...data.globalAlerts].filter(
        (x) => x.status === 'CLOSED' && ms(x.resolved) >= since && x.groupId,
      ))
        if (!changed.includes(a.id)) lacks.push(`alert ${a.id} closed ${a.resolved}`);
      for (const e of data.events.filter(
        (x) => ms(x.created) >= since && /_AUDIT$/.test(x.eventTypeName) && x.username,
      ))
        if (!changed.includes(e.username)) lacks.push(`who: ${e.username} (${e.eventTypeName})`);
      for (const a of openAlerts(data).filter((x) => ms(x.created) < since - 5 * MIN))
        if (changed.includes(a.id))
          lacks.push(`alert ${a.id} from ${a.created} listed as changed in the last hour`);
      return lacks;
    },
  },
];

/** Tool names in the answer's own "Next:" lines that the client was not offered. */
export function unknownNextTools(text, offered) {
  const names = text
    .split('\n')
    .filter((l) => l.startsWith('Next: '))
    .flatMap((l) => l.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []);
  return [...new Set(names)].filter(
    (n) => /^(list|get|triage|find|create|update|delete|acknowledge|set|put)_/.test(n) && !offered.has(n),
  );
}

/** The median of numbers (0 for none). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return 0;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : Math.round((s[m - 1] + s[m]) / 2);
}
