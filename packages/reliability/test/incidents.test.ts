import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRealCheckFailure } from '../src/incidents.js';
import {
  decideIncident,
  type IncidentCheck,
  type IncidentInput,
  type IncidentReport,
  type IncidentSensorOutcome,
  type OwnCheckOutcome,
  ReliabilityInputError,
} from '../src/index.js';

const NOW = new Date('2025-06-01T12:00:00Z');
const at = (hhmm: string): string => `2025-06-01T${hhmm}:00Z`;

const paid = (reporter: string, time: string, reason: IncidentReport['reason'] = 'timeout'): IncidentReport => ({
  reporter,
  paid: true,
  ok: false,
  at: at(time),
  reason,
});
const anon = (reporter: string, time: string, reason: IncidentReport['reason'] = 'timeout'): IncidentReport => ({
  reporter,
  paid: false,
  ok: false,
  at: at(time),
  reason,
});
const worked = (reporter: string, time: string): IncidentReport => ({ reporter, paid: false, ok: true, at: at(time) });
const check = (time: string, outcome: OwnCheckOutcome, kind: IncidentCheck['kind'] = 'five_minute'): IncidentCheck => ({
  kind,
  at: at(time),
  outcome,
});
const sensor = (
  id: string,
  time: string,
  ok: boolean,
  reason: IncidentSensorOutcome['reason'] = null,
): IncidentSensorOutcome => ({
  sensor: id,
  ok,
  at: at(time),
  reason,
});

describe('what confirms an incident', () => {
  it('counts timeouts, no connection, 5xx and broken handshakes as real failures of our check', () => {
    expect(isRealCheckFailure('timeout')).toBe(true);
    expect(isRealCheckFailure('no_connection')).toBe(true);
    expect(isRealCheckFailure('server_error')).toBe(true);
    expect(isRealCheckFailure('broken_handshake')).toBe(true);
    for (const outcome of ['not_found', 'redirect', 'sign_in', 'client_error', 'answered'] as const) {
      expect(isRealCheckFailure(outcome)).toBe(false);
    }
  });

  it('shows a paying reporter plus our own failed check', () => {
    const decision = decideIncident({ reports: [paid('acct-1', '11:30')], checks: [check('11:35', 'timeout')] }, NOW);
    expect(decision).toMatchObject({
      shown: true,
      confirmed: true,
      confirmedBy: ['own_check', 'paid_reporter'],
      failingReporters: ['acct-1'],
      paidFailingReporters: ['acct-1'],
      signalReporters: 1,
      since: '2025-06-01T11:30:00.000Z',
    });
    expect(decision.explanation).toMatch(/^shown/);
  });

  it('needs a second signal when only a paying reporter confirms', () => {
    const decision = decideIncident({ reports: [paid('acct-1', '11:30')] }, NOW);
    expect(decision).toMatchObject({ shown: false, confirmed: true, confirmedBy: ['paid_reporter'] });
    expect(decision.explanation).toMatch(/second signal/);
  });

  it('shows two paying reporters, or a paying and an anonymous one', () => {
    expect(decideIncident({ reports: [paid('a', '11:00'), paid('b', '11:10')] }, NOW).shown).toBe(true);
    expect(decideIncident({ reports: [paid('a', '11:00'), anon('203.0.113.0/24', '11:10')] }, NOW).shown).toBe(true);
  });

  it('counts one reporter once however often it reports', () => {
    const decision = decideIncident({ reports: [paid('a', '11:00'), paid('a', '11:10'), paid('a', '11:20')] }, NOW);
    expect(decision).toMatchObject({ shown: false, signalReporters: 1 });
  });

  it('never opens on anonymous agents alone, sensors alone, or both together', () => {
    const anonymous = [anon('n1', '11:00'), anon('n2', '11:10'), anon('n3', '11:20')];
    const sensors = [sensor('gw1', '11:00', false, 'timeout'), sensor('gw2', '11:05', false, 'timeout')];
    for (const input of [
      { reports: anonymous },
      { sensorOutcomes: sensors },
      { reports: anonymous, sensorOutcomes: sensors },
    ]) {
      const decision = decideIncident(input, NOW);
      expect(decision.shown).toBe(false);
      expect(decision.confirmed).toBe(false);
      expect(decision.explanation).toMatch(/unconfirmed/);
    }
  });

  it('shows our own failed check plus one anonymous reporter', () => {
    expect(
      decideIncident({ reports: [anon('n1', '11:50')], checks: [check('11:55', 'no_connection')] }, NOW).shown,
    ).toBe(true);
  });

  it('does not show our own failed check without any failing reporter', () => {
    const decision = decideIncident(
      { checks: [check('11:55', 'timeout'), check('11:00', 'broken_handshake', 'hourly')] },
      NOW,
    );
    expect(decision).toMatchObject({ shown: false, confirmed: true, ownCheckFailed: true, signalReporters: 0 });
    expect(decision.explanation).toMatch(/no failing reporter/);
  });

  it('does not let a 404, redirect, sign-in or other 4xx confirm', () => {
    for (const outcome of ['not_found', 'redirect', 'sign_in', 'client_error'] as const) {
      const decision = decideIncident(
        { reports: [anon('n1', '11:50'), anon('n2', '11:51')], checks: [check('11:55', outcome)] },
        NOW,
      );
      expect(decision.shown, outcome).toBe(false);
      expect(decision.confirmed, outcome).toBe(false);
    }
  });

  it('lets the hourly, five-minute and daily check confirm alike', () => {
    for (const kind of ['hourly', 'five_minute', 'daily'] as const) {
      expect(
        decideIncident({ reports: [anon('n1', '11:50')], checks: [check('10:30', 'server_error', kind)] }, NOW).shown,
        kind,
      ).toBe(true);
    }
  });
});

describe('the 2-hour window', () => {
  it('counts a failure exactly 2 hours old and not one a millisecond older', () => {
    const edge = decideIncident({ reports: [paid('a', '10:00'), paid('b', '11:00')] }, NOW);
    expect(edge.shown).toBe(true);
    expect(edge.since).toBe('2025-06-01T10:00:00.000Z');
    const older = decideIncident(
      { reports: [{ ...paid('a', '10:00'), at: '2025-06-01T09:59:59.999Z' }, paid('b', '11:00')] },
      NOW,
    );
    expect(older.shown).toBe(false);
    expect(older.failingReporters).toEqual(['b']);
  });

  it('does not let a check older than 2 hours confirm', () => {
    expect(decideIncident({ reports: [anon('n1', '11:50')], checks: [check('09:59', 'timeout')] }, NOW).confirmed).toBe(
      false,
    );
  });

  it('ignores anything dated after now', () => {
    const decision = decideIncident(
      { reports: [paid('a', '12:01'), paid('b', '12:30')], checks: [check('12:05', 'timeout')] },
      NOW,
    );
    expect(decision).toMatchObject({ shown: false, confirmed: false, failingReporters: [] });
    expect(decision.explanation).toMatch(/no failure counts/);
  });
});

describe('a call that works', () => {
  it('cancels the failures before it', () => {
    const decision = decideIncident({ reports: [paid('a', '11:00'), worked('n9', '11:10'), paid('b', '11:20')] }, NOW);
    expect(decision).toMatchObject({ shown: false, failingReporters: ['b'], lastWorkedAt: '2025-06-01T11:10:00.000Z' });
  });

  it('includes a sensor call that worked', () => {
    expect(
      decideIncident(
        { reports: [paid('a', '11:00'), paid('b', '11:10')], sensorOutcomes: [sensor('gw', '11:15', true)] },
        NOW,
      ).shown,
    ).toBe(false);
  });

  it('does not include our own check answering: our checks confirm, they are not calls', () => {
    const decision = decideIncident(
      { reports: [paid('a', '11:00'), paid('b', '11:10')], checks: [check('11:30', 'answered')] },
      NOW,
    );
    expect(decision).toMatchObject({
      shown: true,
      failingReporters: ['a', 'b'],
      lastWorkedAt: null,
      confirmedBy: ['paid_reporter'],
    });
  });

  it('includes a call seen working elsewhere', () => {
    const decision = decideIncident(
      { reports: [paid('a', '11:00'), paid('b', '11:10')], lastWorkedAt: at('11:05') },
      NOW,
    );
    expect(decision.failingReporters).toEqual(['b']);
  });

  it('does not cancel on a failure at the same instant', () => {
    expect(
      decideIncident({ reports: [paid('a', '11:00'), worked('n', '11:00'), paid('b', '11:05')] }, NOW).failingReporters,
    ).toEqual(['b']);
  });
});

describe('our own failed check in the same 2 hours', () => {
  // A mixed case: our check failed at 10:00, a call worked at 10:05, two anonymous agents failed after it.
  const mixedCase = {
    checks: [check('10:00', 'timeout', 'hourly')],
    reports: [worked('A', '10:05'), anon('B', '10:20'), anon('C', '10:25')],
  };

  it('confirms failures reported after a call that worked since the check', () => {
    const decision = decideIncident(mixedCase, new Date(at('10:30')));
    expect(decision).toMatchObject({
      shown: true,
      confirmed: true,
      confirmedBy: ['own_check'],
      ownCheckFailed: true,
      failingReporters: ['B', 'C'],
      lastWorkedAt: '2025-06-01T10:05:00.000Z',
      // The failures shown start after the call that worked; the check before it only confirms them.
      since: '2025-06-01T10:20:00.000Z',
    });
  });

  it('stops confirming when the check leaves the 2 hours, not when the failures do', () => {
    expect(decideIncident(mixedCase, new Date('2025-06-01T12:00:00.000Z')).shown).toBe(true); // at the edge
    const after = decideIncident(mixedCase, new Date('2025-06-01T12:00:00.001Z'));
    expect(after).toMatchObject({
      shown: false,
      confirmed: false,
      ownCheckFailed: false,
      failingReporters: ['B', 'C'],
    });
  });

  it('does not confirm with a check at or before a person closed the incident', () => {
    for (const closedAt of [at('10:00'), at('10:10')]) {
      const decision = decideIncident({ ...mixedCase, closedAt }, new Date(at('10:30')));
      expect(decision, closedAt).toMatchObject({ shown: false, confirmed: false, ownCheckFailed: false });
    }
    const justAfter = decideIncident({ ...mixedCase, closedAt: '2025-06-01T09:59:59.999Z' }, new Date(at('10:30')));
    expect(justAfter.shown).toBe(true);
  });
});

describe('when time alone changes the decision', () => {
  // Two paying reporters fail at 09:05: shown until their 2 hours pass, the first millisecond after 11:05.
  const twoPaid = { reports: [paid('a', '09:05'), paid('b', '09:05')] };
  const END = '2025-06-01T11:05:00.001Z';

  it('names the first millisecond after the oldest counted failure leaves the 2 hours', () => {
    const shown = decideIncident(twoPaid, new Date(at('11:04')));
    expect(shown).toMatchObject({ shown: true, changesAt: END, until: END, since: '2025-06-01T09:05:00.000Z' });
    // Just before: the same decision.
    expect(decideIncident(twoPaid, new Date('2025-06-01T11:05:00.000Z'))).toEqual(shown);
    // At it: nothing counts any more, and nothing is left to expire.
    const ended = decideIncident(twoPaid, new Date(END));
    expect(ended).toMatchObject({ shown: false, failingReporters: [], since: null, changesAt: null, until: null });
    // Just after.
    expect(decideIncident(twoPaid, new Date(at('11:06'))).shown).toBe(false);
  });

  it('gives the end of a shown incident that outlives its oldest failure', () => {
    const input = { reports: [paid('a', '09:05'), paid('b', '09:30'), paid('c', '10:00')] };
    const decision = decideIncident(input, new Date(at('11:00')));
    // a leaves first, then b: from then on c alone is confirmed but lacks a second signal.
    expect(decision).toMatchObject({ shown: true, changesAt: END, until: '2025-06-01T11:30:00.001Z' });
    expect(decideIncident(input, new Date(END))).toMatchObject({
      shown: true,
      failingReporters: ['b', 'c'],
      changesAt: '2025-06-01T11:30:00.001Z',
      until: '2025-06-01T11:30:00.001Z',
    });
    expect(decideIncident(input, new Date('2025-06-01T11:30:00.000Z')).shown).toBe(true);
    expect(decideIncident(input, new Date('2025-06-01T11:30:00.001Z'))).toMatchObject({
      shown: false,
      failingReporters: ['c'],
      changesAt: '2025-06-01T12:00:00.001Z',
      until: null,
    });
  });

  it('counts a confirming check leaving the 2 hours as a change', () => {
    const input = { reports: [anon('n1', '10:50')], checks: [check('10:00', 'timeout', 'hourly')] };
    expect(decideIncident(input, new Date(at('11:00')))).toMatchObject({
      shown: true,
      changesAt: '2025-06-01T12:00:00.001Z',
      until: '2025-06-01T12:00:00.001Z',
    });
    expect(decideIncident(input, new Date('2025-06-01T12:00:00.000Z')).shown).toBe(true);
    expect(decideIncident(input, new Date('2025-06-01T12:00:00.001Z'))).toMatchObject({
      shown: false,
      confirmed: false,
      changesAt: '2025-06-01T12:50:00.001Z',
    });
  });

  it('names a change for failures that are not shown too, and none when nothing counted can expire', () => {
    expect(decideIncident({ reports: [anon('n1', '11:00')] }, NOW)).toMatchObject({
      shown: false,
      changesAt: '2025-06-01T13:00:00.001Z',
      until: null,
    });
    expect(decideIncident({}, NOW).changesAt).toBeNull();
    expect(decideIncident({ reports: [worked('n1', '11:00')] }, NOW).changesAt).toBeNull();
    expect(decideIncident({ reports: [paid('a', '09:00'), paid('b', '09:30')] }, NOW).changesAt).toBeNull();
    expect(decideIncident({ ...twoPaid, closedAt: at('09:10') }, new Date(at('10:00'))).changesAt).toBeNull();
    // A check that is no real failure never counts, so it never expires either.
    expect(decideIncident({ checks: [check('11:30', 'not_found')] }, NOW).changesAt).toBeNull();
  });

  it('names the time of a report dated after now, when it becomes known', () => {
    const decision = decideIncident({ reports: [paid('a', '11:00'), paid('b', '12:30')] }, NOW);
    expect(decision).toMatchObject({ shown: false, changesAt: '2025-06-01T12:30:00.000Z' });
    expect(decideIncident({ reports: [paid('a', '11:00'), paid('b', '12:30')] }, new Date(at('12:30'))).shown).toBe(
      true,
    );
  });

  it('gives the same decision at every instant from now until changesAt, and decides again at it', () => {
    const minute = fc.integer({ min: -30, max: 180 });
    const reason = fc.constantFrom('timeout', 'server_error', 'rate_limited', null);
    const outcome = fc.constantFrom<OwnCheckOutcome>('timeout', 'server_error', 'answered', 'not_found');
    const dated = (m: number): string => new Date(NOW.getTime() - m * 60_000).toISOString();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.boolean(), fc.boolean(), minute, reason), {
          maxLength: 8,
        }),
        fc.array(fc.tuple(fc.constantFrom('g1', 'g2'), fc.boolean(), minute, reason), { maxLength: 6 }),
        fc.array(fc.tuple(outcome, minute), { maxLength: 3 }),
        fc.option(minute, { nil: null }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (agents, sensors, checks, closed, share) => {
          const input: IncidentInput = {
            reports: agents.map(([reporter, isPaid, ok, m, r]) => ({
              reporter,
              paid: isPaid,
              ok,
              at: dated(m),
              ...(ok ? {} : { reason: r }),
            })),
            sensorOutcomes: sensors.map(([sensorId, ok, m, r]) => ({
              sensor: sensorId,
              ok,
              at: dated(m),
              ...(ok ? {} : { reason: r }),
            })),
            checks: checks.map(([o, m]) => ({ kind: 'hourly', at: dated(m), outcome: o })),
            closedAt: closed === null ? null : dated(closed),
          };
          const decision = decideIncident(input, NOW);
          if (decision.changesAt === null) {
            // Nothing left to expire: a day later, the same decision.
            expect(decideIncident(input, new Date(NOW.getTime() + 86_400_000))).toEqual(decision);
            return;
          }
          const changesAtMs = Date.parse(decision.changesAt);
          expect(changesAtMs).toBeGreaterThan(NOW.getTime());
          const between = NOW.getTime() + Math.floor(share * (changesAtMs - 1 - NOW.getTime()));
          expect(decideIncident(input, new Date(between))).toEqual(decision);
          expect(decideIncident(input, new Date(changesAtMs - 1))).toEqual(decision);
          // A shown incident ends exactly at `until`, and not a millisecond before.
          if (decision.until !== null) {
            const untilMs = Date.parse(decision.until);
            expect(decideIncident(input, new Date(untilMs - 1)).shown).toBe(true);
            expect(decideIncident(input, new Date(untilMs)).shown).toBe(false);
          }
        },
      ),
    );
  });
});

describe('a person closing the incident', () => {
  it('drops failures up to the moment it was closed', () => {
    const input = { reports: [paid('a', '11:00'), paid('b', '11:10')] };
    expect(decideIncident(input, NOW).shown).toBe(true);
    expect(decideIncident({ ...input, closedAt: at('11:10') }, NOW).shown).toBe(false);
    expect(
      decideIncident({ ...input, reports: [...input.reports, paid('c', '11:20')], closedAt: at('11:10') }, NOW),
    ).toMatchObject({
      shown: false,
      failingReporters: ['c'],
    });
  });
});

describe('sensors joining a confirmed incident', () => {
  it('join when our own check confirms', () => {
    const decision = decideIncident(
      { sensorOutcomes: [sensor('gw', '11:40', false, 'timeout')], checks: [check('11:45', 'timeout')] },
      NOW,
    );
    expect(decision).toMatchObject({ shown: true, joinedSensors: ['gw'], failingSensors: ['gw'], signalReporters: 1 });
  });

  it('join when our check confirms even without a stated reason', () => {
    expect(
      decideIncident({ sensorOutcomes: [sensor('gw', '11:40', false)], checks: [check('11:45', 'no_connection')] }, NOW)
        .shown,
    ).toBe(true);
  });

  it('with only server_error, join only when our check saw a server error too', () => {
    const sensors = [sensor('gw', '11:40', false, 'server_error')];
    expect(
      decideIncident({ sensorOutcomes: sensors, checks: [check('11:45', 'server_error')] }, NOW).joinedSensors,
    ).toEqual(['gw']);
    const timeoutOnly = decideIncident({ sensorOutcomes: sensors, checks: [check('11:45', 'timeout')] }, NOW);
    expect(timeoutOnly).toMatchObject({ shown: false, confirmed: true, failingSensors: ['gw'], joinedSensors: [] });
  });

  it('with server_error among other reasons, join on any real failure of our check', () => {
    const sensors = [sensor('gw', '11:30', false, 'server_error'), sensor('gw', '11:40', false, 'timeout')];
    expect(decideIncident({ sensorOutcomes: sensors, checks: [check('11:45', 'timeout')] }, NOW).joinedSensors).toEqual(
      ['gw'],
    );
  });

  it('join when a paying reporter gave the same reason, never server_error', () => {
    const same = decideIncident(
      {
        reports: [paid('acct', '11:30', 'rate_limited')],
        sensorOutcomes: [sensor('gw', '11:40', false, 'rate_limited')],
      },
      NOW,
    );
    expect(same).toMatchObject({ shown: true, joinedSensors: ['gw'], signalReporters: 2 });
    const other = decideIncident(
      { reports: [paid('acct', '11:30', 'auth')], sensorOutcomes: [sensor('gw', '11:40', false, 'rate_limited')] },
      NOW,
    );
    expect(other).toMatchObject({ shown: false, joinedSensors: [] });
    const fiveHundred = decideIncident(
      {
        reports: [paid('acct', '11:30', 'server_error')],
        sensorOutcomes: [sensor('gw', '11:40', false, 'server_error')],
      },
      NOW,
    );
    expect(fiveHundred).toMatchObject({ shown: false, confirmed: true, joinedSensors: [] });
  });

  it('count only when the sensor newest outcome failed', () => {
    const recovered = [sensor('gw', '11:40', false, 'timeout'), sensor('gw', '11:50', true)];
    const decision = decideIncident({ sensorOutcomes: recovered, checks: [check('11:45', 'timeout')] }, NOW);
    expect(decision.failingSensors).toEqual([]);
    expect(decision.shown).toBe(false);
  });

  it('do not count a newest failure outside the window', () => {
    const decision = decideIncident(
      { sensorOutcomes: [sensor('gw', '09:00', false, 'timeout')], checks: [check('11:45', 'timeout')] },
      NOW,
    );
    expect(decision.failingSensors).toEqual([]);
  });
});

describe('bad input', () => {
  it('throws typed errors naming the item', () => {
    expect(() =>
      decideIncident({ checks: [{ kind: 'weekly' as 'daily', at: at('11:00'), outcome: 'timeout' }] }, NOW),
    ).toThrow(/checks\[0\]\.kind/);
    expect(() =>
      decideIncident({ checks: [{ kind: 'daily', at: at('11:00'), outcome: 'meh' as 'timeout' }] }, NOW),
    ).toThrow(/checks\[0\]\.outcome/);
    expect(() => decideIncident({ checks: [null as unknown as IncidentCheck] }, NOW)).toThrow(/checks\[0\]/);
    expect(() => decideIncident({ reports: [{ ...paid('a', '11:00'), at: 'noon' }] }, NOW)).toThrow(/reports\[0\]\.at/);
    expect(() => decideIncident({ sensorOutcomes: [{ ...sensor('gw', '11:00', false), sensor: '' }] }, NOW)).toThrow(
      /sensorOutcomes\[0\]\.sensor/,
    );
    expect(() => decideIncident({ closedAt: 'later' }, NOW)).toThrow(/closedAt/);
    expect(() => decideIncident({}, new Date(Number.NaN))).toThrow(ReliabilityInputError);
    expect(() => decideIncident({ reports: {} as unknown as IncidentReport[] }, NOW)).toThrow(
      /reports: expected an array/,
    );
  });

  it('decides nothing from nothing', () => {
    expect(decideIncident({}, NOW)).toMatchObject({ shown: false, confirmed: false, since: null, lastWorkedAt: null });
  });
});
