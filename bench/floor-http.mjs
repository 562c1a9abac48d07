// The floor for the HTTP benchmark: a minimal Streamable HTTP server on the same SDK (v2; the bench's clients
// speak 2025, so a session per initialize as our server keeps for them) — one echo tool, no checks of its
// own. Prints its URL on stdout. Usage: node bench/floor-http.mjs
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const sessions = new Map();
const newServer = () => {
  const server = new McpServer({ name: 'floor', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns its input.', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
};
const http = createServer(async (req, res) => {
  let body;
  if (req.method === 'POST') {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? sessions.get(id) : undefined;
  if (!transport) {
    transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    await newServer().connect(transport);
  }
  await transport.handleRequest(req, res, body);
});
http.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${http.address().port}/mcp`));
process.once('SIGTERM', () => process.exit(0));
