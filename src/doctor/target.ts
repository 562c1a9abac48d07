// What the doctor checks: the platform of DBOPS_BASE_URL, or in demo mode the embedded simulator.
import { normaliseBaseUrl } from '../api/transport.js';
import type { Config } from '../config/index.js';

export interface Target {
  baseUrl: string;
  publicKey?: string;
  privateKey?: string;
  demo: boolean;
  close(): Promise<void>;
}

/** The platform to check: DBOPS_BASE_URL, or in demo mode the embedded simulator with its demo key. */
export async function targetOf(config: Config): Promise<Target> {
  if (config.baseUrl && !config.demo)
    return {
      baseUrl: normaliseBaseUrl(config.baseUrl),
      publicKey: config.publicKey,
      privateKey: config.privateKey,
      demo: false,
      close: async () => {},
    };
  const { startSimulator } = await import('../simulator/index.js');
  const sim = await startSimulator({
    dataset: 'demo',
    port: 0,
    dialect: config.dialect === 'field' ? 'field' : 'spec',
  });
  return { baseUrl: sim.baseUrl, ...sim.keys, demo: true, close: () => sim.close() };
}
