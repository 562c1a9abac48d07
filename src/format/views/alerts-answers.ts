// The answers and previews of the alerts toolset's own tools, drawn from the alert and configuration views:
// enabling or disabling a configuration, acknowledging a global alert, the matchers' field names.
import type { Alert, AlertConfig } from '../../api/types.js';
import { alertWhat, alertWhere, condition } from '../../model/index.js';
import { named } from '../../untrusted.js';
import { type FormatContext, recordAnswer, type ToolAnswer } from '../answers.js';
import type { Preview } from '../consent.js';
import { fields } from '../markdown.js';
import { ackState, configName } from './alerts.js';

/** Enabling or disabling one configuration, as the person is asked: its state now and what changes. */
export function enabledPreview(
  current: AlertConfig,
  args: { projectId: string; alertConfigId: string; enabled: boolean },
): Preview {
  return {
    action: `${args.enabled ? 'Enable' : 'Disable'} alert configuration ${named(configName(current), args.alertConfigId)}`,
    target: { project: args.projectId, alertConfigId: args.alertConfigId },
    current: { eventType: current.eventTypeName, enabled: current.enabled, condition: condition(current) },
    changes: [{ field: 'enabled', from: current.enabled, to: args.enabled }],
    notes: args.enabled
      ? []
      : ['While disabled, this configuration raises no alerts and sends no notifications.'],
  };
}

export const enabledAnswer = (c: AlertConfig, alertConfigId: string, f: FormatContext): ToolAnswer =>
  recordAnswer(
    `Alert configuration ${named(configName(c), alertConfigId)} is now ${c.enabled ? 'enabled' : 'disabled'}`,
    c,
    (s) => [
      ['Event type', s.eventTypeName],
      ['Condition', condition(s)],
    ],
    f,
  );

export const globalAckAnswer = (a: Alert, alertId: string, f: FormatContext): ToolAnswer =>
  recordAnswer(
    `Global alert ${alertId}`,
    a,
    (s) => [
      ['Status', s.status],
      ['What', alertWhat(s)],
      ['Where', alertWhere(s)],
      ['Acknowledged', ackState(s, f.now, f.names)],
      ['Comment', s.acknowledgementComment],
    ],
    f,
  );

export const matcherNamesAnswer = (names: string[], f: FormatContext): ToolAnswer => ({
  text: `# Matcher field names — ${names.length}\n${f.fence.wrap(fields([['Field names', names]]))}`,
  structured: { fieldNames: names },
});
