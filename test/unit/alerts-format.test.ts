import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/api/client.js';
import { ackState, alertRow } from '../../src/format/views/alerts.js';

const now = new Date('2026-11-21T12:00:00Z');
const alert = (fields: Partial<Alert>): Alert => ({ id: 'a'.repeat(24), status: 'OPEN', ...fields }) as Alert;

describe('alert rows', () => {
  it('say how long an acknowledgement has left and who gave it', () => {
    expect(ackState(alert({}), now)).toBe('no');
    expect(
      ackState(alert({ acknowledgedUntil: '2026-11-21T21:00:00Z', acknowledgingUsername: 'ann' }), now),
    ).toBe('yes, 9 h left, until 2026-11-21 21:00 UTC, by ann');
    expect(
      ackState(alert({ acknowledgedUntil: '2026-11-25T21:00:00Z', acknowledgingUsername: 'ann' }), now),
    ).toBe('yes, 4 d left, by ann');
    expect(
      ackState(alert({ acknowledgedUntil: '2126-11-21T12:00:00Z', acknowledgingUsername: 'bo' }), now),
    ).toBe('yes, until further notice, by bo');
    expect(
      ackState(alert({ acknowledgedUntil: '2026-11-21T11:00:00Z', acknowledgingUsername: 'cy' }), now),
    ).toBe('no');
  });
  it('show a current value that has no number (seen in the field) without "undefined"', () => {
    const row = alertRow(alert({ currentValue: { units: 'RAW' } } as Partial<Alert>), now);
    expect(row[5]).toBe('— RAW');
    expect(alertRow(alert({ currentValue: {} } as Partial<Alert>), now)[5]).toBe('—');
  });

  it('show value, place and age', () => {
    const row = alertRow(
      alert({
        eventTypeName: 'OUTSIDE_METRIC_THRESHOLD',
        metricName: 'CONNECTIONS',
        created: '2026-11-21T10:00:00Z',
        hostnameAndPort: 'db-1:27017',
        currentValue: { number: 5347.7, units: 'RAW' },
      }),
      now,
    );
    expect(row).toEqual([
      'a'.repeat(24),
      'OPEN',
      'OUTSIDE_METRIC_THRESHOLD CONNECTIONS',
      '2026-11-21 10:00 (2 h ago)',
      'db-1:27017',
      '5347.7 RAW',
      'no',
      // An open alert with no lastNotified has not notified anyone yet.
      'not yet',
    ]);
  });
});
