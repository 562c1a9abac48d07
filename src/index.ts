// The package as a library: embed the server, the API client or the simulator in another program.

export { type ApiClient, type ApiClientConfig, createApiClient } from './api/client.js';
export { ApiError } from './api/errors.js';
export { type Config, loadConfig } from './config/index.js';
export { createLogger } from './log.js';
export { catalog } from './mcp/catalog.js';
export { createRuntime } from './mcp/runtime.js';
export { createMcpServer, type ServerDeps } from './mcp/server.js';
export { startSimulator } from './simulator/index.js';
