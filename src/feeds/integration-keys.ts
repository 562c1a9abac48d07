// Which alert notifications still hold an integration's key: a notification keeps the copy of the key it was
// added with, so replacing the integration's key leaves them on the old one until each is edited.
import type { Integration } from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import { conditionWords } from '../format/views/alerts.js';
import type { Keyed, KeyedNotification } from '../format/views/integrations.js';
import { keyEnding, sameKey } from '../rules/index.js';
import type { ToolContext } from '../tool/index.js';
import {
  fieldNameIn,
  type IntegrationType,
  NOTIFICATION_KEY_FIELDS,
  specIntegrationType,
} from '../vocabulary/index.js';

/**
 * The alert configurations whose notifications copied this type's key, when the change replaces the key:
 * each keeps the copy it was added with. Matched to the old key by the masked key's ending.
 */
export async function keyedNotifications(
  ctx: ToolContext,
  projectId: string,
  type: IntegrationType,
  settings: Record<string, unknown>,
  current: Integration | undefined,
): Promise<Keyed | undefined> {
  const k = NOTIFICATION_KEY_FIELDS[type];
  if (!k || settings[k.key] === undefined) return undefined;
  const oldKey = current?.[fieldNameIn(k.key, ctx.api.dialect.current())];
  const oldEnding = keyEnding(oldKey);
  const configs = await fetchAll((q) => ctx.api.alertConfigs.list(projectId, q, ctx.req), {
    signal: ctx.signal,
    maxItems: 2_000,
  });
  const found: KeyedNotification[] = [];
  for (const c of configs.items)
    for (const n of c.notifications ?? []) {
      if (specIntegrationType(String(n.typeName)) !== type) continue;
      const held = k.notification.map((f) => (n as Record<string, unknown>)[f]).find((v) => v !== undefined);
      const ending = keyEnding(held);
      found.push({
        alertConfigId: c.id ?? '?',
        condition: conditionWords(c),
        ...(ending ? { ending } : {}),
        // What cannot be told may well hold the old key.
        usesOld: sameKey(held, oldKey) !== false,
      });
    }
  return { ...(oldEnding ? { oldEnding } : {}), found };
}
