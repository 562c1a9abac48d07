// How a project's integration looks to a person: its type and settings, secrets masked.
import type { Integration } from '../../api/types.js';
import { otherIntegrationName } from '../../platform/index.js';
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
