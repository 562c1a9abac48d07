// The dedicated approval server for the stdio transport (and `dbops-mcp call`): loopback only, its own
// port (DBOPS_APPROVAL_PORT, 0 = ephemeral), serving nothing but the approval pages.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { Routes } from './routes.js';

export interface RunningApprovalServer {
  origin: string;
  close(): Promise<void>;
}

export async function startApprovalServer(opts: {
  port: number;
  routes: Routes;
  logger: Logger;
}): Promise<RunningApprovalServer> {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (await opts.routes(req, res, url)) return;
      if (url.pathname === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
        res.writeHead(303, { location: '/approvals' }).end();
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    } catch (e) {
      opts.logger.error('approval page request failed', { error: (e as Error).message });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error\n');
    }
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
