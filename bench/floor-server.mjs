// The floor for the cold-start benchmark: the smallest useful MCP server on the same SDK — one tool with a
// zod input schema, served over stdio. Whatever our server costs above this is our own doing.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'floor', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    title: 'Echo',
    description: 'Returns its input.',
    inputSchema: { text: z.string().describe('What to echo') },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
