import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/index.js';
import { forCall } from '../../src/mcp/cli/call.js';

describe('dbops-mcp call and the approval page', () => {
  it('leaves the page out of a one-shot call unless the call waits for the decision', () => {
    expect(forCall(configSchema.parse({})).confirmVia).toEqual(['elicitation', 'token']);
    const open = forCall(configSchema.parse({ approvalOpen: true }));
    expect(open.confirmVia).toEqual(['elicitation', 'approval-page', 'token']);
    const only = forCall(configSchema.parse({ confirmVia: 'approval-page' }));
    expect(only.confirmVia).toEqual(['approval-page']);
    expect(only.approvalOpen).toBe(true);
    expect(forCall(configSchema.parse({ transport: 'http' })).transport).toBe('stdio');
  });
});
