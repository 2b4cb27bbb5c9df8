import { describe, expect, it } from 'vitest';
import { FAILURES_IN_A_ROW_TO_SHOW } from '../src/constants.js';
import { decideIncident } from '../src/index.js';
import {
  type DailyObservation,
  decideOwnerAlert,
  incidentChecksOf,
  isAnsweringNow,
  newestHandshakeMs,
  shownStatusOf,
  type TimedObservation,
} from '../src/live.js';

const daily = (letter: DailyObservation['letter'], extra: Partial<DailyObservation> = {}): DailyObservation => ({
  day: '2026-11-30',
  checkedAt: '2026-11-30T00:10:00Z',
  letter,
  reason: letter === 'd' ? 'timeout' : 'ok',
  httpStatus: null,
  notMcp: false,
  elapsedMs: 900,
  ...extra,
});
const seen = (
  at: string,
  letter: TimedObservation['letter'],
  extra: Partial<TimedObservation> = {},
): TimedObservation => ({
  at: `2026-11-30T${at}:00Z`,
  letter,
  reason: letter === 'd' ? 'timeout' : 'ok',
  httpStatus: null,
  notMcp: false,
  ...extra,
});

describe('the shown status over daily, hourly and five-minute checks', () => {
  it('shows the daily check alone when nothing came after it', () => {
    expect(shownStatusOf({ daily: daily('d'), hourly: [], fiveMinute: [] })).toEqual({
      state: 'down',
      heldBack: false,
      failuresInARow: 0,
    });
    expect(shownStatusOf({ daily: null, hourly: [], fiveMinute: [] }).state).toBeNull();
  });

  it('holds back one failed five-minute check, and shows down from the second in a row', () => {
    expect(FAILURES_IN_A_ROW_TO_SHOW).toBe(2);
    const one = shownStatusOf({ daily: daily('o'), hourly: [], fiveMinute: [seen('05:00', 'd')] });
    expect(one).toEqual({ state: 'answering', heldBack: true, failuresInARow: 1 });
    const two = shownStatusOf({ daily: daily('o'), hourly: [], fiveMinute: [seen('05:00', 'd'), seen('05:05', 'd')] });
    expect(two).toEqual({ state: 'down', heldBack: false, failuresInARow: 2 });
  });

  it('counts failures in a row across hourly and five-minute checks, in time order', () => {
    // hourly 05:00 d, five-minute 05:02 d: two in a row.
    const status = shownStatusOf({
      daily: daily('o'),
      hourly: [seen('04:00', 'o'), seen('05:00', 'd')],
      fiveMinute: [seen('05:02', 'd')],
    });
    expect(status).toMatchObject({ state: 'down', failuresInARow: 2 });
    // A five-minute check that answered between two failed hourly checks breaks the run.
    const broken = shownStatusOf({
      daily: daily('o'),
      hourly: [seen('04:00', 'd'), seen('05:00', 'd')],
      fiveMinute: [seen('04:30', 'o')],
    });
    expect(broken).toEqual({ state: 'answering', heldBack: true, failuresInARow: 1 });
  });

  it('ignores checks made before the daily check ran, by time when it is dated, by day when not', () => {
    const before = { hourly: [seen('00:05', 'd')], fiveMinute: [seen('00:09', 'd')] };
    expect(shownStatusOf({ daily: daily('o'), ...before }).state).toBe('answering');
    // Undated daily (a result stored before the time was kept): every check of its day comes after it.
    expect(shownStatusOf({ daily: daily('o', { checkedAt: null }), ...before }).state).toBe('down');
    expect(
      shownStatusOf({
        daily: daily('o', { checkedAt: null }),
        hourly: [{ ...seen('23:00', 'd'), at: '2026-11-29T23:00:00Z' }],
        fiveMinute: [],
      }).state,
    ).toBe('answering');
  });

  it('counts every later check as after a daily check whose day and time are unknown', () => {
    const unknown = daily('o', { checkedAt: null, day: null });
    expect(
      shownStatusOf({ daily: unknown, hourly: [seen('00:05', 'd'), seen('00:06', 'd')], fiveMinute: [] }).state,
    ).toBe('down');
  });

  it('shows a non-standard answer as such', () => {
    expect(shownStatusOf({ daily: daily('d', { notMcp: true }), hourly: [], fiveMinute: [] }).state).toBe(
      'non_standard',
    );
    expect(
      shownStatusOf({
        daily: daily('o'),
        hourly: [],
        fiveMinute: [seen('05:00', 'd', { reason: 'http-error', httpStatus: 405 })],
      }).state,
    ).toBe('non_standard');
  });
});

describe('answering with tools right now', () => {
  it('follows the hourly check when it is newer than the daily check', () => {
    const hourlyDown = { daily: daily('o'), hourly: [seen('04:00', 'd'), seen('05:00', 'd')], fiveMinute: [] };
    expect(isAnsweringNow(shownStatusOf(hourlyDown))).toBe(false);
    const hourlyBack = { daily: daily('d'), hourly: [seen('05:00', 'o')], fiveMinute: [] };
    expect(isAnsweringNow(shownStatusOf(hourlyBack))).toBe(true);
  });

  it('follows the daily check when no check is newer, and is not answering with tools on sign-in', () => {
    expect(
      isAnsweringNow(
        shownStatusOf({ daily: daily('o'), hourly: [seen('00:05', 'd'), seen('00:06', 'd')], fiveMinute: [] }),
      ),
    ).toBe(true);
    expect(isAnsweringNow(shownStatusOf({ daily: daily('a'), hourly: [], fiveMinute: [] }))).toBe(false);
    expect(isAnsweringNow(shownStatusOf({ daily: null, hourly: [], fiveMinute: [] }))).toBe(false);
  });

  it('keeps a single failure held back as answering, like the page', () => {
    expect(isAnsweringNow(shownStatusOf({ daily: daily('o'), hourly: [seen('05:00', 'd')], fiveMinute: [] }))).toBe(
      true,
    );
  });
});

describe('the newest handshake time', () => {
  it('is the newest answering check’s that kept its time', () => {
    const live = {
      daily: daily('o'),
      hourly: [seen('04:00', 'o', { elapsedMs: 400 })],
      fiveMinute: [seen('05:00', 'o', { elapsedMs: 250 }), seen('05:05', 'd', { elapsedMs: 30_000 })],
    };
    expect(newestHandshakeMs(live, 1234)).toBe(250);
  });
  it('falls back to the daily check, then to the time given', () => {
    expect(newestHandshakeMs({ daily: daily('o'), hourly: [seen('04:00', 'o')], fiveMinute: [] }, 1234)).toBe(900);
    expect(newestHandshakeMs({ daily: daily('o', { elapsedMs: null }), hourly: [], fiveMinute: [] }, 1234)).toBe(1234);
    expect(newestHandshakeMs({ daily: null, hourly: [], fiveMinute: [] }, null)).toBeNull();
  });
});

describe('our checks that can confirm an incident', () => {
  const NOW = new Date('2026-11-30T12:00:00Z');
  it('date the daily check at the time it ran, and take hourly and five-minute checks', () => {
    const checks = incidentChecksOf({
      daily: daily('d', { checkedAt: '2026-11-30T11:00:00Z', reason: 'http-error', httpStatus: 502 }),
      hourly: [seen('11:05', 'o')],
      fiveMinute: [seen('11:55', 'd')],
    });
    expect(checks).toEqual([
      { kind: 'daily', at: '2026-11-30T11:00:00Z', outcome: 'server_error' },
      { kind: 'hourly', at: '2026-11-30T11:05:00Z', outcome: 'answered' },
      { kind: 'five_minute', at: '2026-11-30T11:55:00Z', outcome: 'timeout' },
    ]);
  });

  it('leave out an undated daily check, which cannot be placed in the 2-hour window', () => {
    expect(incidentChecksOf({ daily: daily('d', { checkedAt: null }), hourly: [], fiveMinute: [] })).toEqual([]);
  });

  it('a daily check that answered early today no longer hides the failures after it', () => {
    const checks = incidentChecksOf({
      daily: daily('o', { checkedAt: '2026-11-30T10:30:00Z' }),
      hourly: [seen('11:05', 'd')],
      fiveMinute: [],
    });
    const decision = decideIncident(
      {
        checks,
        reports: [
          { reporter: 'anon:a', paid: false, ok: false, at: '2026-11-30T10:15:00Z', reason: 'timeout' },
          { reporter: 'anon:b', paid: false, ok: false, at: '2026-11-30T11:15:00Z', reason: 'timeout' },
        ],
      },
      NOW,
    );
    expect(decision).toMatchObject({
      shown: true,
      failingReporters: ['anon:a', 'anon:b'],
      since: '2026-11-30T10:15:00.000Z',
    });
  });
});

describe('the owner’s second-failure alert', () => {
  it('does not go out on the first failure, goes out on the second, and once per run of failures', () => {
    expect(decideOwnerAlert([seen('05:00', 'o'), seen('05:05', 'd')], false)).toEqual({
      alert: false,
      open: false,
      failuresInARow: 1,
    });
    expect(decideOwnerAlert([seen('05:05', 'd'), seen('05:10', 'd')], false)).toEqual({
      alert: true,
      open: true,
      failuresInARow: 2,
    });
    expect(decideOwnerAlert([seen('05:10', 'd'), seen('05:15', 'd')], true)).toEqual({
      alert: false,
      open: true,
      failuresInARow: 2,
    });
  });

  it('closes once a check answers, so the next run of failures alerts again', () => {
    expect(decideOwnerAlert([seen('05:15', 'd'), seen('05:20', 'o')], true)).toEqual({
      alert: false,
      open: false,
      failuresInARow: 0,
    });
    expect(decideOwnerAlert([seen('06:00', 'd'), seen('06:05', 'd')], false).alert).toBe(true);
  });

  it('reads hourly and five-minute checks together in time order', () => {
    expect(decideOwnerAlert([seen('05:05', 'd'), seen('05:00', 'd'), seen('04:00', 'o')], false)).toMatchObject({
      alert: true,
      failuresInARow: 2,
    });
  });

  it('never alerts on an answer that is not standard MCP', () => {
    expect(
      decideOwnerAlert([seen('05:00', 'd', { notMcp: true }), seen('05:05', 'd', { notMcp: true })], false).alert,
    ).toBe(false);
  });
});
