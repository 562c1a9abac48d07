// The catalog: every tool the server can offer, in the order tools/list shows them.
import { alertConfigTools } from './alert-configs.js';
import { alertTools } from './alerts.js';
import type { AnyTool } from './define.js';

export const catalog: AnyTool[] = [...alertConfigTools, ...alertTools];
