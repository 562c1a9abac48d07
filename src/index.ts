// The package as a library: embed the server, the API client or the simulator in another program.
import type { Simulator, StartSimulatorOptions } from './simulator/index.js';

export { type ApiClient, type ApiClientConfig, createApiClient } from './api/client.js';
export { ApiError } from './api/errors.js';
export { catalog } from './catalog.js';
export { type Config, loadConfig } from './config/index.js';
export { createLogger } from './log.js';
export { createRuntime } from './mcp/runtime.js';
export { createMcpServer, type ServerDeps } from './mcp/server.js';

/** The embedded platform simulator; its code is loaded on the first start, not by importing the package. */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<Simulator> {
  return (await import('./simulator/index.js')).startSimulator(options);
}
