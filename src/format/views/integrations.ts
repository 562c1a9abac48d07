// How a project's integration looks to a person: its type and settings, secrets masked.
import type { Integration } from '../../api/client.js';
import type { ListView } from '../answers.js';
export const integrationList: ListView<Integration> = {
  columns: ['type', 'settings (secrets masked)'],
  row: (i: Integration) => [
    i.type,
    Object.entries(i)
      .filter(([k]) => k !== 'type' && k !== 'links')
      .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join(', '),
  ],
};
