// How a project's integration looks to a person: its type and settings, secrets masked.
import type { Integration } from '../../api/types.js';
import { cell } from '../../untrusted.js';
import { otherIntegrationName } from '../../vocabulary/index.js';
import type { ListView } from '../answers.js';

/** The platform's own word for the type, the other dialect's in parentheses: "PAGER_DUTY (INCIDENT_PAGING_A)". */
const typeLabel = (t: unknown) => {
  const other = otherIntegrationName(String(t));
  return other ? `${String(t)} (${other})` : t;
};

export const integrationList: ListView<Integration> = {
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
export function rotationNotes(
  type: string,
  oldEnding: string | undefined,
  found: KeyedNotification[],
): string[] {
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
