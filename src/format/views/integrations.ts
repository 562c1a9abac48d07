// How a project's integration looks to a person: its type and settings, secrets masked.
import type { Integration, Page } from '../../api/types.js';
import { cell } from '../../untrusted.js';
import {
  type Dialect,
  fieldNameIn,
  type IntegrationType,
  otherIntegrationName,
} from '../../vocabulary/index.js';
import { type FormatContext, type ListView, listAnswer, type ToolAnswer } from '../answers.js';
import type { Preview } from '../consent.js';
import { isSecretKey, mask, redact } from '../redact.js';

/** The platform's own word for the type, the other dialect's in parentheses: "PAGER_DUTY (INCIDENT_PAGING_A)". */
const typeLabel = (t: unknown) => {
  const other = otherIntegrationName(String(t));
  return other ? `${String(t)} (${other})` : t;
};

const integrationList: ListView<Integration> = {
  columns: ['type', 'settings (secrets masked)'],
  row: (i: Integration) => [
    typeLabel(i.type),
    Object.entries(i)
      .filter(([k]) => k !== 'type' && k !== 'links')
      .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join(', '),
  ],
};

/** An alert configuration that notifies through an integration, with the ending of the key it holds. */
export interface KeyedNotification {
  alertConfigId: string;
  /** What it watches, in words (conditionWords). */
  condition: string;
  /** The visible ending of the key in its notification, when the platform shows one. */
  ending?: string;
  /** Its notification holds the integration's key as it was before the change. */
  usesOld: boolean;
}

/** "`Connections > 4000` (alertConfigId ca88…)": sanitized and code-quoted, for lines outside a fence. */
const configLabel = (k: KeyedNotification) =>
  `\`${cell(k.condition, 100).replace(/`/g, "'")}\` (alertConfigId ${cell(k.alertConfigId, 40)})`;

/**
 * What a key rotation leaves behind, in words: the alert configurations whose notifications still hold the
 * old key (matched by the masked key's ending), and how to finish — in the platform's UI, since this API
 * cannot edit notifications.
 */
function rotationNotes(type: string, oldEnding: string | undefined, found: KeyedNotification[]): string[] {
  if (!found.length)
    return [
      `No alert configuration of this project notifies through ${type}: nothing else uses the old key.`,
    ];
  const old = found.filter((k) => k.usesOld);
  const other = found.filter((k) => !k.usesOld);
  const notes: string[] = [];
  if (old.length)
    notes.push(
      `Still on the old key${oldEnding ? ` (ending ${oldEnding})` : ''} after the change — ${old.length} alert configuration${old.length === 1 ? '' : 's'}: ${old.map(configLabel).join('; ')}.`,
    );
  if (other.length)
    notes.push(
      `Notifying through ${type} with a key of their own${oldEnding ? ' (not ending ' + oldEnding + ')' : ''}, which they keep too: ${other.map(configLabel).join('; ')}.`,
    );
  notes.push(
    `To finish, each must be re-added: this API cannot edit alert notifications, so in the platform's UI open each configuration above (Alerts › Alert Settings), remove its ${type} notification and add it again; it then takes the new key.`,
  );
  return notes;
}

// Beyond the shared secret names: every key, token or password of any type (APM_SAAS's licenseKey, …).
const SECRETISH = /key|token|secret|password/i;

/** One field as it may be shown: secrets masked (URLs keep their origin). */
function shown(k: string, v: unknown): unknown {
  if (typeof v === 'string' && v !== '' && !isSecretKey(k) && SECRETISH.test(k)) return mask(v);
  return (redact({ [k]: v }) as Record<string, unknown>)[k];
}

const masked = (i: Integration): Integration =>
  Object.fromEntries(Object.entries(i).map(([k, v]) => [k, k === 'type' ? v : shown(k, v)])) as Integration;

/** A project's integrations, all on one page, secrets masked. */
export function integrationsAnswer(
  page: Page<Integration>,
  title: string,
  f: FormatContext,
  next: string,
): ToolAnswer {
  const all = Math.max(page.totalCount, page.results.length, 1);
  return listAnswer(
    { ...page, results: page.results.map(masked) },
    { pageNum: 1, itemsPerPage: all },
    {
      title,
      ...integrationList,
      next,
      empty: 'This project has no third-party integrations.',
    },
    f,
  );
}

const PAGING_A_CAVEAT =
  'Existing alert notifications keep the old key: each must be removed and re-added to use the new one.';

/** The alert configurations whose notifications hold this type's key, when the change replaces the key. */
export interface Keyed {
  oldEnding?: string;
  found: KeyedNotification[];
}

/** A change of integration as read before it: the integration of this type now (if any) and the settings. */
interface IntegrationChange {
  projectId: string;
  /** The type as the caller named it. */
  integrationType: string;
  /** The type under the spec's name. */
  type: IntegrationType;
  settings: Record<string, string | boolean>;
  current?: Integration;
  dialect: Dialect;
  keyed?: Keyed;
}

/** Each setting given, with what it replaces: secrets are sent masked, so a secret is always listed. */
function settingChanges(c: IntegrationChange): NonNullable<Preview['changes']> {
  const changes: NonNullable<Preview['changes']> = [];
  for (const [k, v] of Object.entries(c.settings)) {
    const from = shown(k, c.current?.[fieldNameIn(k, c.dialect)]);
    const to = shown(k, v);
    if (isSecretKey(k) || SECRETISH.test(k) || from !== to) changes.push({ field: k, from, to });
  }
  return changes;
}

function changeNotes(c: IntegrationChange): string[] {
  const notes: string[] = [];
  if (c.keyed) notes.push(...rotationNotes(c.integrationType, c.keyed.oldEnding, c.keyed.found));
  else if (c.type === 'INCIDENT_PAGING_A') notes.push(PAGING_A_CAVEAT);
  if (c.type === 'TEAM_CHAT_B' && !c.current)
    notes.push(
      'TEAM_CHAT_B is first set up in the web console; this call only reconfigures an existing one.',
    );
  if (c.settings.region === 'EU') notes.push('The EU region needs the region API URL setting on the server.');
  notes.push(
    c.current
      ? 'Secrets show only their last 4 characters; unchanged secrets look the same on both sides.'
      : 'No integration of this type exists yet: it will be added.',
  );
  return notes;
}

export function integrationPreview(c: IntegrationChange, project: string): Preview {
  return {
    action: `${c.current ? 'Replace' : 'Add'} the ${c.integrationType} integration of project ${project}`,
    target: { project: c.projectId, integrationType: c.integrationType },
    current: c.current ? masked(c.current) : undefined,
    changes: settingChanges(c),
    notes: changeNotes(c),
  };
}

/**
 * The key is copied into each notification when it is added: the answer names the configurations that keep
 * the old one and how to finish, as the preview did, and never claims the new key is in use there.
 */
export function integrationSavedAnswer(
  page: Page<Integration>,
  keyed: Keyed | undefined,
  args: { projectId: string; integrationType: string; pagingA: boolean },
  f: FormatContext,
): ToolAnswer {
  const answer = integrationsAnswer(
    page,
    `${args.integrationType} integration saved — integrations of project ${f.names.project(args.projectId)}`,
    f,
    keyed?.found.length
      ? 'get_alert_config with an alertConfigId above shows its notifications'
      : args.pagingA && !keyed
        ? 'get_alert_config shows which alert notifications use INCIDENT_PAGING_A'
        : 'new notifications of this type now use the new settings',
  );
  if (keyed) {
    const notes = rotationNotes(args.integrationType, keyed.oldEnding, keyed.found);
    answer.text += `\n${notes.map((n) => `- ${n}`).join('\n')}`;
    answer.structured.stillOnOldKey = keyed.found.filter((k) => k.usesOld);
  } else if (args.pagingA) answer.text += `\n${PAGING_A_CAVEAT}`;
  return answer;
}
