import { describe, expect, it } from 'vitest';
import { ApiError, bodyExcerpt, describeAction, errorFromResponse, idAfter } from '../../src/api/errors.js';

const json = (o: object) => JSON.stringify(o);
const err = (
  status: number,
  body: string,
  method = 'GET',
  path = '/groups/p1/alertConfigs/c1',
  retryAfterSeconds?: number,
) => errorFromResponse({ status, body, method, path, retryAfterSeconds });

describe('ApiError messages', () => {
  it('401 without code: bad credentials, names the settings', () => {
    const e = err(
      401,
      json({ reason: 'Unauthorized', error: 401, detail: 'You are not authorized for this resource.' }),
    );
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(401);
    expect(e.errorCode).toBeUndefined();
    expect(e.message).toContain('DBOPS_PUBLIC_KEY');
    expect(e.message).toContain('DBOPS_PRIVATE_KEY');
    expect(e.toUserMessage()).toBe(e.message);
  });

  it('USER_UNAUTHORIZED: the key lacks the role, names the action', () => {
    const e = err(
      401,
      json({
        error: 401,
        errorCode: 'USER_UNAUTHORIZED',
        detail: 'Current user is not authorized to perform this action.',
      }),
      'PATCH',
      '/groups/p1/alertConfigs/c1',
    );
    expect(e.errorCode).toBe('USER_UNAUTHORIZED');
    expect(e.message).toContain('lacks the role');
    expect(e.message).toContain('update alert configuration "c1" in project "p1"');
    expect(e.message).not.toContain('DBOPS_PRIVATE_KEY');
  });

  it('USER_UNAUTHORIZED names the role the spec requires, where it does', () => {
    const e = err(401, json({ errorCode: 'USER_UNAUTHORIZED' }), 'GET', '/globalEvents');
    expect(e.message).toContain('Global Read Only');
    expect(e.message).toContain('list global events');
  });

  it('NOT_IN_GROUP: names the project', () => {
    const e = err(
      401,
      json({ errorCode: 'NOT_IN_GROUP', detail: 'not in group' }),
      'GET',
      '/groups/5e22/alertConfigs',
    );
    expect(e.message).toContain('not a member of project "5e22"');
  });

  it('403 access list: says to add this machine', () => {
    const e = err(
      403,
      json({ errorCode: 'IP_ADDRESS_NOT_ON_ACCESS_LIST', detail: 'IP address 10.1.2.3 is not allowed' }),
    );
    expect(e.message).toContain("Add this machine's address to the key's access list");
    expect(e.message).toContain('10.1.2.3');
  });

  it.each([
    [
      'ALERT_CONFIG_NOT_FOUND',
      '/groups/p1/alertConfigs/c9',
      'alert configuration "c9"',
      'alert configurations',
    ],
    [
      'INVALID_ALERT_CONFIG_ID',
      '/groups/p1/alertConfigs/zz',
      'alert configuration "zz"',
      'alert configurations',
    ],
    ['GROUP_NOT_FOUND', '/groups/p404/alertConfigs', 'project "p404"', 'projects'],
    ['ALERT_NOT_FOUND', '/globalAlerts/g1', 'alert "g1"', 'global alerts'],
    ['INVALID_WINDOW_ID', '/groups/p1/maintenanceWindows/w', 'maintenance window "w"', 'maintenance windows'],
    ['DEVICE_NOT_FOUND', '/groups/p1/hosts/h1/disks/sdz', 'disk partition "sdz"', 'disk partitions'],
    ['USER_NOT_FOUND', '/users/u1', 'user "u1"', 'users'],
  ])('%s says which id and to check it', (code, path, what, list) => {
    const e = err(404, json({ error: 404, errorCode: code, detail: 'No such thing.' }), 'GET', path);
    expect(e.message).toContain(what);
    expect(e.message).toContain('Check the id');
    expect(e.message).toContain(`List the ${list}`);
  });

  it('429: when to retry', () => {
    const e = err(
      429,
      json({ errorCode: 'RATE_LIMITED', detail: 'Resource x is limited to 10 requests every 1 minutes.' }),
      'GET',
      '/x',
      42,
    );
    expect(e.retryAfterSeconds).toBe(42);
    expect(e.message).toContain('Retry after 42 s');
  });

  it('5xx: server fault, try later', () => {
    expect(err(500, json({ errorCode: 'UNEXPECTED_ERROR', detail: 'boom' })).message).toMatch(
      /server-side fault.*try again later/,
    );
    expect(err(503, '').message).toContain('Try again later');
  });

  it('400: carries the detail', () => {
    const e = err(
      400,
      json({ errorCode: 'MISSING_ATTRIBUTE', detail: 'The required attribute enabled was not specified.' }),
      'PATCH',
    );
    expect(e.message).toContain('The required attribute enabled was not specified.');
    expect(e.message).toContain('MISSING_ATTRIBUTE');
  });

  it('a non-JSON body (proxy HTML page) gives status and a short clean excerpt, never a parse crash', () => {
    const html = `<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>${'x'.repeat(1000)}</body></html>`;
    const e = err(502, html);
    expect(e.status).toBe(502);
    expect(e.message).toContain('502 Bad Gateway');
    expect(e.message).toContain('not the API');
    expect(e.message).not.toContain('<');
    expect(e.message).not.toContain('color:red');
    expect(e.detail!.length).toBeLessThanOrEqual(200);
  });

  it('strips control and bidi characters from server text', () => {
    const e = err(400, json({ errorCode: 'X', detail: 'bad\u0007 \u202Evalue\u0000' }));
    expect(e.detail).toBe('bad value');
  });

  it('bodyExcerpt bounds and flattens', () => {
    expect(bodyExcerpt('<p>a\n\n  b</p>')).toBe('a b');
    expect(bodyExcerpt('y'.repeat(500))).toHaveLength(200);
  });
});

describe('path helpers', () => {
  it('idAfter decodes the id', () => {
    expect(idAfter('/groups/a%20b/alerts/c', 'groups')).toBe('a b');
    expect(idAfter('/groups/a/alerts', 'alerts')).toBeUndefined();
  });
  it('describeAction reads like an action', () => {
    expect(describeAction('GET', '/groups/p/alertConfigs')).toBe('list alert configurations of project "p"');
    expect(describeAction('POST', '/orgs/o/apiKeys')).toBe('create an API key in organization "o"');
    expect(describeAction('DELETE', '/groups/p/maintenanceWindows/w')).toBe(
      'delete maintenance window "w" in project "p"',
    );
    expect(describeAction('GET', '/groups/p/automationStatus/full')).toBe(
      'read automation status of project "p"',
    );
    expect(describeAction('GET', '/groups/p/alertConfigs/c/alerts')).toBe(
      'list alerts of alert configuration "c" in project "p"',
    );
    expect(describeAction('POST', '/unauth/users')).toBe('create the first user');
  });
});

describe('advice added to an error', () => {
  it('keeps every field and the cause, and marks it uncertain only when asked', () => {
    const e = new ApiError({
      status: 404,
      errorCode: 'MAINTENANCE_WINDOW_NOT_FOUND',
      detail: 'No window',
      method: 'GET',
      path: '/groups/p/maintenanceWindows/w',
      message: 'Not found.',
    });
    const a = e.withAdvice('It may have ended.');
    expect(a).toMatchObject({
      status: 404,
      errorCode: 'MAINTENANCE_WINDOW_NOT_FOUND',
      detail: 'No window',
      method: 'GET',
      path: '/groups/p/maintenanceWindows/w',
      uncertain: false,
      message: 'Not found. It may have ended.',
    });
    expect(a.cause).toBe(e);
    expect(e.withAdvice('Check before retrying.', { uncertain: true }).uncertain).toBe(true);
  });
});
