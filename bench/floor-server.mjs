// The floor for the cold-start benchmark: the smallest useful MCP server on the same SDK (v2, both eras
// through serveStdio) — one tool with a zod input schema, served over stdio. Whatever our server costs above
// this is our own doing.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'floor', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns its input.',
      inputSchema: z.object({ text: z.string().describe('What to echo') }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
});
