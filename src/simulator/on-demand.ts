// The demo platform for demo mode: it listens at once and draws its world when first asked. Drawing the demo
// world takes a good part of a second (more on a busy machine), all of it on the server's one thread; a client
// that gives up on `initialize` after a second would never see an answer. So the MCP server starts against
// this address and the demo key, which are known before the world is, and the world is drawn once the client
// is past its handshake (warm) or at the first request to the platform, whichever comes first.
import { createServer, type Server, type Socket } from 'node:net';
import type { Simulator, StartSimulatorOptions } from './index.js';

/** The demo world's own key and ids (test/unit/simulator-dataset.test.ts checks them against the world drawn). */
export const DEMO_IDENTITY = {
  publicKey: 'rbhitzao',
  privateKey: 'b594f73d-e5df-4762-a698-5eedfcdb6ec5',
  orgId: '49cfb165133d04c155d2e6cf',
  projectId: '09c5e5335e3468205c5422b1',
} as const;

interface OnDemandSimulator {
  /** Full prefix URL, e.g. http://127.0.0.1:8080/api/public/v1.0 */
  baseUrl: string;
  keys: { publicKey: string; privateKey: string };
  orgId: string;
  projectId: string;
  /** Starts drawing the world now, before the first request asks for it (when the client is past its handshake). */
  warm(): void;
  close(): Promise<void>;
}

const listening = (server: Server, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

/** The demo dataset behind a loopback port; the simulator starts on the first connection (`options` as for startSimulator). */
export async function startSimulatorOnDemand(
  options: Omit<StartSimulatorOptions, 'dataset' | 'port' | 'host' | 'dataFile'>,
): Promise<OnDemandSimulator> {
  const host = '127.0.0.1';
  let sim: Promise<Simulator> | undefined;
  const warm = () => {
    sim ??= import('./index.js').then((m) =>
      m.startSimulator({ ...options, dataset: 'demo', port: 0, host }),
    );
    return sim;
  };
  // Connections are held unread until the simulator takes them (the same socket: its address is the caller's).
  const front = createServer({ pauseOnConnect: true }, (socket: Socket) => {
    warm().then(
      (s) => s.accept(socket),
      (e: Error) => {
        options.logger?.error('the demo simulator failed to start', { error: e.message });
        socket.destroy();
      },
    );
  });
  await listening(front, host);
  const { port } = front.address() as { port: number };
  return {
    baseUrl: `http://${host}:${port}/api/public/v1.0`,
    keys: { publicKey: DEMO_IDENTITY.publicKey, privateKey: DEMO_IDENTITY.privateKey },
    orgId: DEMO_IDENTITY.orgId,
    projectId: DEMO_IDENTITY.projectId,
    warm: () => void warm().catch(() => {}),
    async close() {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await (await sim?.catch(() => undefined))?.close();
    },
  };
}
