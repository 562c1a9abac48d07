// The toolsets step: which toolsets clients start with and how many tools each brings.

import { catalog, toolsets } from '../catalog.js';
import { type Config, settingHint } from '../config/index.js';
import {
  type ClientSets,
  clientSetsOf,
  enabledTools,
  parseToolsets,
  toolsetOf,
  unknownToolsets,
} from '../policy/toolsets.js';
import { type Check, fail, pass } from './check.js';

/** The toolsets a client starts with (DBOPS_TOOLSETS; dynamic mode offers every tool the settings allow). */
function startView(config: Config): ClientSets | undefined {
  if (unknownToolsets(config.toolsets, toolsets)) return undefined;
  const choice = parseToolsets(config.toolsets, toolsets);
  return choice.dynamic ? undefined : clientSetsOf(choice, config.toolsets);
}

/** The tools the server offers: the settings, then the toolsets (all of them in dynamic mode). */
export const offeredTools = (config: Config) => enabledTools(config, catalog, toolsets, startView(config));

/** Which toolsets are listed and how many tools each brings; an unknown name fails with the valid ones. */
export function toolsetsCheck(config: Config): Check {
  const step = 'toolsets';
  const refused = unknownToolsets(config.toolsets, toolsets);
  if (refused)
    return fail(
      step,
      `${settingHint('toolsets')}: ${refused}`,
      'Name toolsets from the list (or all, or dynamic)',
    );
  const choice = parseToolsets(config.toolsets, toolsets);
  const allowed = enabledTools(config, catalog);
  const clientSets = clientSetsOf(choice, config.toolsets);
  const count = (set: string) => allowed.filter((t) => toolsetOf(toolsets, t.name) === set).length;
  const shown = toolsets.sets
    .filter((s) => clientSets.enabled === 'all' || clientSets.enabled.has(s.name))
    .map((s) => `${s.name} ${count(s.name)}`);
  const listed = enabledTools(config, catalog, toolsets, clientSets).length;
  const setting = settingHint('toolsets', config.toolsets.join(',') || 'all');
  if (choice.dynamic)
    return pass(
      step,
      `${setting}: clients start with list_toolsets, get_toolset_tools, enable_toolset, call_read_tool and ${
        shown.length
          ? `${listed} tools (${shown.join(', ')}, ${toolsets.everySet.join(', ')})`
          : toolsets.everySet.join(', ')
      }; each client reads by name or enables what it needs of ${allowed.length} tools (${toolsets.sets.map((s) => `${s.name} ${count(s.name)}`).join(', ')})`,
    );
  return pass(step, `${setting}: ${listed} of ${allowed.length} tools listed (${shown.join(', ')})`);
}
