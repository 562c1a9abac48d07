// The prompts of prompts/ as MCP prompts: string arguments with their descriptions, checks and completion.
import { completable, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { catalog, prompts } from '../catalog.js';
import { completeIds, projectChoices } from '../feeds/lookup.js';
import { consentFacts } from '../policy/consent.js';
import { enabledTools } from '../policy/toolsets.js';
import type { Completion, PromptArg } from '../tool/prompt.js';
import { ALERT_TYPE_NAMES } from '../vocabulary/index.js';
import type { ServerDeps } from './server.js';

const SINCE_CHOICES = ['1h', '6h', '24h', '48h', '7d', '30d'];

export function registerPrompts(server: McpServer, deps: ServerDeps): void {
  const now = deps.now ?? (() => new Date());
  const consent = consentFacts(deps.config.confirm, enabledTools(deps.config, deps.catalog ?? catalog));
  const completers: Record<Completion, (value: string) => Promise<string[]> | string[]> = {
    projectId: async (value) =>
      completeIds(await projectChoices(deps.api, deps.config.projectId, deps.logger), value),
    sinceHours: (value) => SINCE_CHOICES.filter((c) => c.startsWith(value.trim())),
    // A comma-separated list: complete its last item, keeping what came before.
    alertTypeNames: (value) => {
      const parts = value.split(',').map((p) => p.trim());
      const last = (parts.pop() ?? '').toUpperCase();
      const head = parts.filter(Boolean);
      return ALERT_TYPE_NAMES.filter((t) => t.startsWith(last) && !head.includes(t)).map((t) =>
        [...head, t].join(','),
      );
    },
  };

  // Schemas are built per server: completable() marks the schema object itself.
  const schemaFor = (arg: PromptArg) => {
    let s = z.string().max(200);
    if (arg.pattern) s = s.regex(arg.pattern.regex, arg.pattern.message);
    // completable() marks the very schema object (describe() makes a new one), and the SDK looks for it
    // inside .optional(): mark last for a required argument, before .optional() for an optional one.
    const complete = arg.complete && completers[arg.complete];
    const mark = (x: z.ZodString) => (complete ? completable(x, (value) => complete(value ?? '')) : x);
    return arg.required ? mark(s.describe(arg.description)) : mark(s).optional().describe(arg.description);
  };

  for (const p of prompts) {
    const argsSchema = Object.fromEntries(
      Object.entries(p.args).map(([name, arg]) => [name, schemaFor(arg)]),
    );
    server.registerPrompt(
      p.name,
      { title: p.title, description: p.description, argsSchema: z.object(argsSchema) },
      (args) => ({
        description: p.description,
        messages: [
          {
            role: 'user' as const,
            content: {
              type: 'text' as const,
              text: p.render(args as Record<string, string | undefined>, now(), consent.asksFirst),
            },
          },
        ],
      }),
    );
  }
}
