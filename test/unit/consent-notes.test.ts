// Each change tool's description says when it asks first and when a second person decides, drawn from the
// consent rules (needsConsent, the tool's kinds) and the decision point: a change of either changes the words.
import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/catalog.js';
import { listingOf } from '../../src/mcp/server.js';
import { consentNote } from '../../src/policy/consent.js';
import { createDecisionPoint } from '../../src/policy/decide.js';
import { maxKindOf } from '../../src/tool/index.js';

const tool = (name: string) => catalog.find((t) => t.name === name)!;

describe('consent in descriptions', () => {
  it('every change tool says when it asks first; read tools say nothing', () => {
    for (const t of catalog) {
      const note = consentNote(t, { confirm: 'destructive' });
      if (maxKindOf(t) === 'read') expect(note, t.name).toBeUndefined();
      else expect(note, t.name).toMatch(/^(Asks first|Runs at once)/);
    }
  });

  it('a tool whose need to ask varies says when (no generic words)', () => {
    for (const t of catalog.filter((x) => typeof x.kind === 'function' || x.kindFromPreview))
      expect(consentNote(t, { confirm: 'destructive' }), t.name).not.toContain('when destructive');
    expect(consentNote(tool('create_maintenance_window'), { confirm: 'destructive' })).toBe(
      'Asks first if it silences paging alerts.',
    );
    expect(consentNote(tool('set_alert_config_enabled'), { confirm: 'destructive' })).toBe(
      'Asks first when disabling.',
    );
  });

  it('follows DBOPS_CONFIRM', () => {
    const ack = tool('acknowledge_alert');
    expect(consentNote(ack, { confirm: 'destructive' })).toBe('Runs at once.');
    expect(consentNote(ack, { confirm: 'write' })).toBe('Asks first.');
    expect(consentNote(tool('create_user'), { confirm: 'never' })).toBe(
      'Runs at once (DBOPS_CONFIRM=never).',
    );
  });

  it('names the second person when the decision point wants one, and only then', () => {
    const on = createDecisionPoint({ approvers: ['ana'], tellsPeopleApart: true });
    const off = createDecisionPoint({ approvers: [], tellsPeopleApart: true });
    const with_ = (d: typeof on) => ({
      confirm: 'destructive' as const,
      ...(d.fourEyesOn ? { fourEyes: d.settings } : {}),
    });
    expect(consentNote(tool('create_user'), with_(on))).toBe(
      'Asks first. An approver, not the asker, decides when it grants or changes access.',
    );
    expect(consentNote(tool('create_user'), with_(off))).toBe('Asks first.');
    expect(consentNote(tool('acknowledge_alert'), with_(on))).toBe('Runs at once.');
  });

  it('the listed description ends with the note', () => {
    const d = listingOf(tool('delete_maintenance_window'), { confirm: 'write' }).description ?? '';
    expect(d.startsWith(tool('delete_maintenance_window').description)).toBe(true);
    expect(d.endsWith(' Asks first.')).toBe(true);
  });
});
