// `dbops-mcp tools`: the tools the settings allow, one line each with its kind and toolset (--json for scripts).

import { catalog, toolsets } from '../../catalog.js';
import { type Config, loadConfig, unknownSettings } from '../../config/index.js';
import {
  checkToolFilters,
  clientSetsOf,
  enabledTools,
  notListedSet,
  parseToolsets,
  toolsetOf,
} from '../../policy/toolsets.js';
import { maxKindOf } from '../../tool/index.js';
import { fail, quietOnClosedPipe } from './common.js';

/**
 * A description's first sentence, for one line per tool: it ends at ". " outside parentheses and not after an
 * abbreviation ("e.g. ", "i.e. "), so "(e.g. …)" is never cut in half.
 */
function firstSentence(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (
      c === '.' &&
      depth === 0 &&
      /\s/.test(text[i + 1] ?? '') &&
      !/\b(e\.g|i\.e|etc|vs)$/i.test(text.slice(0, i))
    )
      return text.slice(0, i);
  }
  return text.replace(/\.$/, '');
}

export async function runTools(args: string[]): Promise<number> {
  quietOnClosedPipe();
  const json = args.includes('--json');
  let config: Config;
  try {
    config = loadConfig(args.filter((a) => a !== '--json'));
    checkToolFilters(config, catalog, toolsets);
  } catch (e) {
    return fail(e);
  }
  for (const warning of unknownSettings()) process.stderr.write(`dbops-mcp: warning: ${warning}\n`);
  // The tools the settings allow, each with its toolset; in dynamic mode those not listed at first say so.
  const choice = parseToolsets(config.toolsets, toolsets);
  const clientSets = clientSetsOf(choice, config.toolsets);
  const tools = enabledTools(config, catalog)
    .filter((t) => choice.dynamic || notListedSet(toolsets, clientSets, t.name) === undefined)
    .map((t) => ({
      name: t.name,
      kind: maxKindOf(t),
      toolset: toolsetOf(toolsets, t.name) ?? 'every set',
      ...(choice.dynamic ? { listedAtStart: notListedSet(toolsets, clientSets, t.name) === undefined } : {}),
      title: t.title,
      description: t.description,
    }));
  if (json) process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
  else {
    const width = Math.max(...tools.map((t) => t.name.length));
    const setWidth = Math.max(...tools.map((t) => t.toolset.length));
    for (const t of tools)
      process.stdout.write(
        `${t.name.padEnd(width)}  ${t.kind.padEnd(11)}  ${t.toolset.padEnd(setWidth)}  ${firstSentence(t.description)}\n`,
      );
    if (choice.dynamic)
      process.stdout.write(
        `\nDBOPS_TOOLSETS=${config.toolsets.join(',')}: clients start with list_toolsets, get_toolset_tools, enable_toolset, call_read_tool${
          clientSets.enabled === 'all' || clientSets.enabled.size === 0
            ? ''
            : ` and the sets ${[...clientSets.enabled].join(', ')}`
        }, plus list_projects; the rest is read by name or enabled per client.\n`,
      );
  }
  return 0;
}
