// Per-day check tallies: every hourly check counted in its UTC day, wall times kept per whole millisecond, eight
// days kept; and the five-minute counters' wall times, kept for the same eight days while their counts stay 92.
import { describe, expect, it } from 'vitest';
import { CHECK_COUNT_DAYS_KEPT, CHECK_TALLY_DAYS_KEPT } from '../src/constants.js';
import { ReliabilityInputError } from '../src/index.js';
import { type CheckTallyDay, latencyValuesOf, recordCheckTally, recordFiveMinuteCheck } from '../src/live.js';
import { FOLD_RULES } from '../src/rules.js';

/** A day of hourly checks at 00:00, 01:00, ... with these wall times; `null` is a check that failed. */
function dayOfChecks(day: string, times: readonly (number | null)[], start: CheckTallyDay[] = []): CheckTallyDay[] {
  let days = start;
  times.forEach((ms, hour) => {
    const at = `${day}T${String(hour).padStart(2, '0')}:00:00Z`;
    days = recordCheckTally(days, { at, answered: ms !== null, elapsedMs: ms });
  });
  return days;
}

describe('recordCheckTally', () => {
  it('counts every check of a day, and keeps the answering ones wall times rounded to whole milliseconds', () => {
    const days = dayOfChecks('2026-12-01', [120, 119.6, null, 300.4, 120.49]);
    expect(days).toEqual([
      {
        day: '2026-12-01',
        answered: 4,
        checks: 5,
        latencyMs: [
          [120, 3],
          [300, 1],
        ],
      },
    ]);
    expect(latencyValuesOf(days[0]?.latencyMs)).toEqual([120, 120, 120, 300]);
  });

  it('counts an answer without a wall time, and leaves a negative or non-finite time out of the latencies', () => {
    let days = recordCheckTally([], { at: '2026-12-01T01:00:00Z', answered: true });
    days = recordCheckTally(days, { at: '2026-12-01T02:00:00Z', answered: true, elapsedMs: -5 });
    days = recordCheckTally(days, { at: '2026-12-01T03:00:00Z', answered: true, elapsedMs: Number.NaN });
    expect(days).toEqual([{ day: '2026-12-01', answered: 3, checks: 3, latencyMs: [] }]);
  });

  it('counts a check in the UTC day of its own time, whatever the offset it is written with', () => {
    const days = recordCheckTally([], { at: '2026-12-02T01:30:00+02:00', answered: true, elapsedMs: 50 });
    expect(days.map((d) => d.day)).toEqual(['2026-12-01']);
  });

  it(`keeps wall times for the ${CHECK_TALLY_DAYS_KEPT} UTC days ending the newest check: 7 days back stays, 8 loses them`, () => {
    expect(FOLD_RULES.checkTallyDaysKept).toBe(8);
    const old = (day: string): CheckTallyDay => ({ day, answered: 1, checks: 1, latencyMs: [[100, 1]] });
    // 2026-12-09 minus 7 days is 2026-12-02 (kept whole); minus 8 is 2026-12-01 (its counts only).
    const days = recordCheckTally([old('2026-12-01'), old('2026-12-02')], {
      at: '2026-12-09T00:00:00Z',
      answered: false,
    });
    expect(days).toEqual([
      { day: '2026-12-01', answered: 1, checks: 1, latencyMs: [] },
      old('2026-12-02'),
      { day: '2026-12-09', answered: 0, checks: 1, latencyMs: [] },
    ]);
  });

  it(`keeps the counts of the ${CHECK_COUNT_DAYS_KEPT} UTC days ending the newest check: 30 days back stays, 31 goes`, () => {
    expect(FOLD_RULES.checkCountDaysKept).toBe(31);
    const old = (day: string): CheckTallyDay => ({ day, answered: 2, checks: 3, latencyMs: [] });
    // 2026-12-31 minus 30 days is 2026-12-01 (kept); minus 31 is 2026-11-30 (dropped).
    const days = recordCheckTally([old('2026-11-30'), old('2026-12-01')], {
      at: '2026-12-31T23:59:59Z',
      answered: true,
      elapsedMs: 90,
    });
    expect(days).toEqual([old('2026-12-01'), { day: '2026-12-31', answered: 1, checks: 1, latencyMs: [[90, 1]] }]);
  });

  it('keeps a week of hourly checks whole: 168 checks, one count per day', () => {
    let days: CheckTallyDay[] = [];
    for (let d = 1; d <= 7; d++) days = dayOfChecks(`2026-12-0${d}`, Array(24).fill(200), days);
    expect(days).toHaveLength(7);
    expect(days.reduce((n, d) => n + d.checks, 0)).toBe(168);
    // One entry per distinct millisecond: a steady server's 24 checks a day are one pair.
    expect(days.every((d) => d.latencyMs.length === 1 && d.latencyMs[0]?.[1] === 24)).toBe(true);
  });

  it('drops a tally day a torn file left unreadable, and refuses a check that is not one', () => {
    const torn = [
      { day: 'yesterday', answered: 1, checks: 1, latencyMs: [] },
      { day: '2026-12-01', answered: 3, checks: 2, latencyMs: [] },
      { day: '2026-12-01', answered: 1, checks: 1, latencyMs: [[1.5, 1], 'x', [90, 0], [80, 2]] },
    ] as unknown as CheckTallyDay[];
    const days = recordCheckTally(torn, { at: '2026-12-01T05:00:00Z', answered: true, elapsedMs: 80 });
    expect(days).toEqual([{ day: '2026-12-01', answered: 2, checks: 2, latencyMs: [[80, 3]] }]);
    expect(() => recordCheckTally([], { at: 'noon', answered: true })).toThrow(ReliabilityInputError);
    expect(() => recordCheckTally([], { at: '2026-12-01T05:00:00Z', answered: 'yes' as unknown as boolean })).toThrow(
      ReliabilityInputError,
    );
  });
});

describe('latencyValuesOf', () => {
  it('gives one value per check, fastest first, and nothing for what is not a tally', () => {
    expect(
      latencyValuesOf([
        [250, 1],
        [100, 2],
      ]),
    ).toEqual([100, 100, 250]);
    expect(latencyValuesOf(undefined)).toEqual([]);
    expect(latencyValuesOf([['a', 1]])).toEqual([]);
  });
});

describe('five-minute wall times', () => {
  it('are counted beside the pair when the check answered and one is given', () => {
    let pairs = recordFiveMinuteCheck([], '2026-12-01', true, 140);
    pairs = recordFiveMinuteCheck(pairs, '2026-12-01', false, 9000);
    pairs = recordFiveMinuteCheck(pairs, '2026-12-01', true, 139.7);
    pairs = recordFiveMinuteCheck(pairs, '2026-12-01', true);
    expect(pairs).toEqual([{ day: '2026-12-01', answered: 3, checks: 4, latencyMs: [[140, 2]] }]);
  });

  it('are dropped after eight days while the counts stay for 92', () => {
    const pairs = [
      { day: '2026-11-01', answered: 5, checks: 5, latencyMs: [[100, 5]] as [number, number][] },
      { day: '2026-12-02', answered: 1, checks: 1, latencyMs: [[100, 1]] as [number, number][] },
    ];
    expect(recordFiveMinuteCheck(pairs, '2026-12-09', true, 90)).toEqual([
      { day: '2026-11-01', answered: 5, checks: 5 },
      { day: '2026-12-02', answered: 1, checks: 1, latencyMs: [[100, 1]] },
      { day: '2026-12-09', answered: 1, checks: 1, latencyMs: [[90, 1]] },
    ]);
  });
});
