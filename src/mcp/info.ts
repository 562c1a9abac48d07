// Who this server says it is, and what that costs every result on the 2026-07-28 era.
import { packageVersion } from '../version.js';

export const SERVER_NAME = 'dbops-mcp';
export const SERVER_VERSION = packageVersion();
export const SERVER_INFO = {
  name: SERVER_NAME,
  version: SERVER_VERSION,
  title: 'dbops — database deployment operations',
};
/**
 * What the 2026-07-28 era adds around every result, outside the answer: `resultType` and the server's identity
 * in `_meta` (about 160 characters). Counted in DBOPS_MAX_OUTPUT_CHARS on every era, so a client handing its
 * model the whole result stays within the budget whichever era it speaks.
 */
export const RESULT_FRAME = JSON.stringify({
  resultType: 'complete',
  _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
}).length;
