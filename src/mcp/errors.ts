// Turns anything a tool call can throw into the text of an isError result: what happened and what to do.
// API details are untrusted text, so they are sanitized and capped; secrets never appear in API errors.

import { ApiError } from '../api/errors.js';
import { StateError } from '../state/errors.js';
import { ToolInputError } from '../tool/index.js';
import { cell } from '../untrusted.js';

export function errorMessage(e: unknown, tool: string): string {
  if (e instanceof ToolInputError) return cell(e.message, 600);
  if (e instanceof ApiError) return cell(e.message, 800);
  if (e instanceof StateError) return cell(e.message, 800);
  if (e instanceof Error && (e.name === 'AbortError' || e.name === 'TimeoutError'))
    return `${tool} was cancelled or timed out before the platform answered; nothing is known to have changed. Try again, or raise DBOPS_TIMEOUT_MS if the platform is slow.`;
  const msg = e instanceof Error ? e.message : String(e);
  return `${tool} failed unexpectedly: ${cell(msg, 400)}. This is a bug in the server or an unexpected answer from the platform; the server keeps running.`;
}
