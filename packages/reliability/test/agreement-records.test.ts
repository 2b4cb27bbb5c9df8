import { describe, expect, it } from 'vitest';
import { computeAgreementFactor } from '../src/agreement.js';
import { ReliabilityInputError, rateServer, type TimedCheckView, tallyAgreementRecords } from '../src/index.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const up = (at: string): TimedCheckView => ({ at, answering: true, serverError: false });
const down = (at: string, serverError = false): TimedCheckView => ({ at, answering: false, serverError });
const report = (by: string, at: string, ok: boolean, reason: string | null = null) => ({
  by,
  server: 's',
  ok,
  at,
  reason: reason as never,
});

describe('each reporter’s agreement with our newest check at the time of its report', () => {
  const checks = new Map([
    ['s', [up('2026-11-30T09:00:00Z'), down('2026-11-30T10:00:00Z', true), up('2026-11-30T11:00:00Z')]],
  ]);

  it('compares with the check that was newest when the report came, not the newest now', () => {
    const records = tallyAgreementRecords(
      [
        report('a', '2026-11-30T09:30:00Z', true), // check up: agrees
        report('a', '2026-11-30T10:30:00Z', false, 'timeout'), // check down: agrees by matching
        report('b', '2026-11-30T10:30:00Z', true), // check down: disagrees
        report('b', '2026-11-30T11:00:00Z', true), // a check at the same instant counts as before it: agrees
      ],
      checks,
      NOW,
    );
    expect(records.get('a')).toEqual({ agree: 2, disagree: 0, compared: 2 });
    expect(records.get('b')).toEqual({ agree: 1, disagree: 0.5, compared: 2 });
  });

  it('lets failures our handshake cannot see agree, and server_error only when our check saw one', () => {
    const records = tallyAgreementRecords(
      [
        report('args', '2026-11-30T11:30:00Z', false, 'args'),
        report('wrong', '2026-11-30T11:30:00Z', false, 'wrong_result'),
        report('se-up', '2026-11-30T11:30:00Z', false, 'server_error'),
        report('se-down', '2026-11-30T10:30:00Z', false, 'server_error'),
        report('unreach', '2026-11-30T11:30:00Z', false, 'unreachable'),
        report('noreason', '2026-11-30T11:30:00Z', false),
      ],
      checks,
      NOW,
    );
    expect(Object.fromEntries([...records].map(([k, v]) => [k, v.agree]))).toEqual({
      args: 1,
      wrong: 1,
      'se-up': 0,
      'se-down': 1,
      unreach: 0,
      noreason: 0,
    });
    expect(records.get('unreach')!.disagree).toBe(0.5);
  });

  it('does not compare a report with no check before it, of another server, or outside the 30 days', () => {
    const records = tallyAgreementRecords(
      [
        report('early', '2026-11-30T08:59:59Z', true),
        { by: 'other', server: 'elsewhere', ok: true, at: '2026-11-30T11:30:00Z' },
        report('old', '2026-10-30T11:59:59Z', true), // 30 days and 1 second before now
        report('future', '2026-11-30T12:00:01Z', true),
      ],
      new Map([['s', [up('2026-10-01T00:00:00Z'), ...checks.get('s')!]]]),
      NOW,
    );
    expect(records.get('early')).toEqual({ agree: 1, disagree: 0, compared: 1 }); // the October check was newest then
    expect(records.has('other')).toBe(false);
    expect(records.has('old')).toBe(false);
    expect(records.has('future')).toBe(false);
    const edge = tallyAgreementRecords(
      [report('edge', '2026-10-31T12:00:00Z', true)],
      new Map([['s', [up('2026-10-01T00:00:00Z')]]]),
      NOW,
    );
    expect(edge.get('edge')).toEqual({ agree: 1, disagree: 0, compared: 1 }); // exactly 30 days: still in
  });

  it('gives the weight of the agreement formula once passed to ratings', () => {
    // Two agreements and one disagreement: 0.5 + 0.5 x 3 / 4.5 = 0.8333...
    expect(computeAgreementFactor({ agree: 2, disagree: 0.5 })).toBeCloseTo(0.5 + (0.5 * 3) / 4.5, 12);
    const reports = [{ reporter: 'a', paid: true, ok: false, at: '2026-11-30T11:00:00Z' }];
    const without = rateServer(reports, NOW);
    const withRecord = rateServer(reports, NOW, { reporterAgreement: new Map([['a', { agree: 2, disagree: 0.5 }]]) });
    expect(without.totalWeight / 0.75).toBeCloseTo(withRecord.totalWeight / (0.5 + (0.5 * 3) / 4.5), 12);
  });

  it('refuses malformed input', () => {
    expect(() => tallyAgreementRecords([report('a', 'yesterday', true)], checks, NOW)).toThrow(ReliabilityInputError);
    expect(() => tallyAgreementRecords([], {} as never, NOW)).toThrow(ReliabilityInputError);
  });
});
