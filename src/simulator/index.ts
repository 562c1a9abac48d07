// Starts the simulator in-process: store (from the dataset or the snapshot file), routes, HTTP layer,
// faults and stats. Used by the CLI, the MCP server's demo mode, tests and benchmarks.

import type { AddressInfo, Socket } from 'node:net';
import { type Logger, silentLogger } from '../log.js';
import { createDigestVerifier } from './digest-server.js';
import { applyFaults, defaultFaults, type Faults } from './faults.js';
import { exclusive, fileStamp, loadSnapshot, saveSnapshot } from './persistence.js';
import { routes as defaultRoutes } from './routes/index.js';
import { API_PREFIX, createSimServer } from './server.js';
import { createStats, type Stats } from './stats.js';
import { createStore, Store } from './store.js';
import type { SimContext, SimOptions, SimRoute } from './types.js';

export interface StartSimulatorOptions {
  host?: string;
  /** 0 = an ephemeral port. */
  port?: number;
  dataset?: 'demo' | 'empty';
  /** The demo grown to an installation of this many projects (the demo's four first). */
  projects?: number;
  /** Snapshot file: loaded at start when it exists, written atomically after every change. */
  dataFile?: string;
  seed?: number;
  /** The simulator's clock (acknowledgement expiry, window dates, events). Nonce lifetimes use real time. */
  now?: () => Date;
  faults?: Partial<Faults>;
  usernameValidation?: SimOptions['usernameValidation'];
  bypassInvite?: boolean;
  dialect?: SimOptions['dialect'];
  logger?: Logger;
  /** Largest accepted request body in bytes (413 above). */
  maxBodyBytes?: number;
  /** Replaces the store (tests of the HTTP layer with a store of their own). */
  store?: Store;
  /** Replaces the route table. */
  routes?: readonly SimRoute[];
}

export interface Simulator {
  /** Full prefix URL, e.g. http://127.0.0.1:8080/api/public/v1.0 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:8080 */
  origin: string;
  keys: { publicKey: string; privateKey: string };
  orgId: string;
  projectIds: string[];
  store: Store;
  stats: Stats;
  /** The live fault settings; change them with setFaults. */
  faults: Faults;
  setFaults(change: Partial<Faults>): Faults;
  /** Serves a connection accepted elsewhere (on-demand.ts: the port demo mode listens on before the world exists). */
  accept(socket: Socket): void;
  close(): Promise<void>;
}

export async function startSimulator(options: StartSimulatorOptions = {}): Promise<Simulator> {
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? silentLogger;
  const faults = applyFaults(defaultFaults(), options.faults ?? {});
  const stats = createStats();

  const dataFile = options.dataFile;
  const saved = options.store || dataFile === undefined ? undefined : loadSnapshot(dataFile);
  const store =
    options.store ??
    (saved === undefined
      ? createStore({
          dataset: options.dataset ?? 'demo',
          seed: options.seed,
          projects: options.projects,
          now,
        })
      : Store.fromSnapshot(saved, now));
  // Serialised straight from the live data: a copy first (store.snapshot()) would only be thrown away.
  let stamp: string | undefined;
  const persist =
    dataFile === undefined
      ? undefined
      : () => {
          saveSnapshot(dataFile, store.data);
          stamp = fileStamp(dataFile);
        };
  if (saved === undefined)
    persist?.(); // the file exists from the first moment on
  else {
    stamp = fileStamp(dataFile as string);
    logger.info('simulator data loaded', { file: dataFile });
  }
  /** Another process sharing the file saved since: take its data (saves are atomic renames). */
  const refresh =
    dataFile === undefined
      ? undefined
      : () => {
          const now2 = fileStamp(dataFile);
          if (now2 === undefined || now2 === stamp) return;
          Object.assign(store.data, Store.fromSnapshot(loadSnapshot(dataFile), now).data);
          stamp = now2;
        };
  const shared =
    dataFile === undefined
      ? undefined
      : <T>(change: () => T): T =>
          exclusive(dataFile, () => {
            refresh?.();
            return change();
          });

  const ctx: SimContext = {
    store,
    options: {
      usernameValidation: options.usernameValidation ?? 'false',
      bypassInvite: options.bypassInvite ?? false,
      dialect: options.dialect ?? 'spec',
    },
    now,
  };
  const server = createSimServer({
    ctx,
    routes: options.routes ?? defaultRoutes,
    digest: createDigestVerifier(() => ({ ttlMs: faults.nonceTtlMs, maxUses: faults.nonceMaxUses })),
    faults,
    stats,
    logger,
    persist,
    refresh,
    shared,
    maxBodyBytes: options.maxBodyBytes,
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  // A wildcard bind is reached through loopback.
  const bound = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  const host = bound.includes(':') ? `[${bound}]` : bound;
  const origin = `http://${host}:${address.port}`;
  logger.info('simulator listening', { origin });

  const demo = store.demo;
  return {
    baseUrl: `${origin}${API_PREFIX}`,
    origin,
    keys: { publicKey: demo.publicKey, privateKey: demo.privateKey },
    orgId: demo.orgId,
    projectIds: [...demo.projectIds],
    store,
    stats,
    faults,
    setFaults: (change) => applyFaults(faults, change),
    accept(socket) {
      server.emit('connection', socket);
      socket.resume();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
