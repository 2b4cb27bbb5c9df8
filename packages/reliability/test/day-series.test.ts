/**
 * The day series: each folded day's letter and handshake-time percentiles, kept 90 days, and the uptime chart's
 * reading of each day. Every expected figure is computed by hand in the comment beside it. Pure module under test.
 */
import { describe, expect, it } from 'vitest';
import { advanceDaySeries, daySeriesStatus, ReliabilityInputError, type SeriesDay } from '../src/index.js';
import { FOLD_RULES, UPTIME_RULES } from '../src/rules.js';

const DAY = '2026-12-02';
const YESTERDAY = '2026-12-01';

function openDay(day: string, letter: SeriesDay['letter'] = 'o', dailyMs: number | null = null): SeriesDay {
  return { day, letter, dailyMs };
}

/** `ms` repeated as `[ms, 1]` pairs: one answering check each. */
function counts(...ms: number[]): [number, number][] {
  return ms.map((value) => [value, 1]);
}

describe('advanceDaySeries: adding and closing days', () => {
  it('adds the folded day open, with the daily wall time rounded, when the letter answers', () => {
    const series = advanceDaySeries(
      { series: [], letters: '', lastDay: null },
      { day: DAY, letter: 'o', elapsedMs: 250.4 },
      {},
    );
    expect(series).toEqual([{ day: DAY, letter: 'o', dailyMs: 250 }]);
    expect('handshake' in (series[0] as SeriesDay)).toBe(false);
  });

  it('keeps no daily wall time for a day the server did not answer, nor for a day without a check', () => {
    for (const letter of ['d', 'n'] as const) {
      const series = advanceDaySeries(
        { series: [], letters: '', lastDay: null },
        { day: DAY, letter, elapsedMs: 9000 },
        {},
      );
      expect(series[0]?.dailyMs).toBeNull();
    }
    // Sign-in and payment answers count as answering, as in the uptime.
    const signIn = advanceDaySeries(
      { series: [], letters: '', lastDay: null },
      { day: DAY, letter: 'a', elapsedMs: 80 },
      {},
    );
    expect(signIn[0]?.dailyMs).toBe(80);
  });

  it('closes the day before with nearest-rank percentiles of its daily, hourly and five-minute wall times', () => {
    // Values 100, 200, 300: p50 rank ceil(0.5 x 3) = 2 -> 200; p95 rank ceil(0.95 x 3) = 3 -> 300.
    const series = advanceDaySeries(
      { series: [openDay(YESTERDAY, 'o', 300)], letters: 'o', lastDay: YESTERDAY },
      { day: DAY, letter: 'o', elapsedMs: 120 },
      {
        hourly: [{ day: YESTERDAY, answered: 1, checks: 2, latencyMs: [[100, 1]] }],
        fiveMinute: [{ day: YESTERDAY, answered: 1, checks: 1, latencyMs: [[200, 1]] }],
      },
    );
    expect(series).toEqual([
      { day: YESTERDAY, letter: 'o', dailyMs: 300, handshake: { p50Ms: 200, p95Ms: 300, samples: 3 } },
      { day: DAY, letter: 'o', dailyMs: 120 },
    ]);
  });

  it('reads the 95th percentile at rank 19 of 20 and rank 20 of 21', () => {
    // 20 values 1..20: p50 rank 10 -> 10, p95 rank ceil(19) = 19 -> 19.
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    const at20 = advanceDaySeries(
      { series: [openDay(YESTERDAY)], letters: 'o', lastDay: YESTERDAY },
      { day: DAY, letter: 'o' },
      { hourly: [{ day: YESTERDAY, answered: 20, checks: 20, latencyMs: counts(...twenty) }] },
    );
    expect(at20[0]?.handshake).toEqual({ p50Ms: 10, p95Ms: 19, samples: 20 });
    // 21 values 1..21: p50 rank ceil(10.5) = 11 -> 11, p95 rank ceil(19.95) = 20 -> 20.
    const at21 = advanceDaySeries(
      { series: [openDay(YESTERDAY)], letters: 'o', lastDay: YESTERDAY },
      { day: DAY, letter: 'o' },
      { hourly: [{ day: YESTERDAY, answered: 21, checks: 21, latencyMs: counts(...twenty, 21) }] },
    );
    expect(at21[0]?.handshake).toEqual({ p50Ms: 11, p95Ms: 20, samples: 21 });
  });

  it('counts repeated wall times by their counts, and one sample gives both percentiles', () => {
    // [100 x 19, 900 x 1]: p95 rank 19 -> 100; one more 900 makes 21 values, rank 20 -> 900.
    const series = advanceDaySeries(
      { series: [openDay(YESTERDAY, 'o', 900)], letters: 'o', lastDay: YESTERDAY },
      { day: DAY, letter: 'o' },
      {
        hourly: [
          {
            day: YESTERDAY,
            answered: 20,
            checks: 20,
            latencyMs: [
              [100, 19],
              [900, 1],
            ],
          },
        ],
      },
    );
    expect(series[0]?.handshake).toEqual({ p50Ms: 100, p95Ms: 900, samples: 21 });
    const single = advanceDaySeries(
      { series: [openDay(YESTERDAY, 'o', 340)], letters: 'o', lastDay: YESTERDAY },
      { day: DAY, letter: 'o' },
      {},
    );
    expect(single[0]?.handshake).toEqual({ p50Ms: 340, p95Ms: 340, samples: 1 });
  });

  it('closes a day without any kept wall time as null, and reads only that day of the tallies', () => {
    const series = advanceDaySeries(
      { series: [openDay(YESTERDAY, 'd')], letters: 'd', lastDay: YESTERDAY },
      { day: DAY, letter: 'o' },
      { hourly: [{ day: DAY, answered: 1, checks: 1, latencyMs: [[100, 1]] }] },
    );
    expect(series[0]?.handshake).toBeNull();
  });

  it('never changes a closed day, and a fold run again changes nothing', () => {
    const closed: SeriesDay = { ...openDay(YESTERDAY, 'o', 300), handshake: { p50Ms: 300, p95Ms: 300, samples: 1 } };
    const wallTimes = {
      hourly: [{ day: YESTERDAY, answered: 1, checks: 1, latencyMs: [[5, 1]] as [number, number][] }],
    };
    const once = advanceDaySeries(
      { series: [closed], letters: 'o', lastDay: YESTERDAY },
      { day: DAY, letter: 'o' },
      wallTimes,
    );
    expect(once[0]).toEqual(closed);
    const again = advanceDaySeries({ series: once, letters: 'oo', lastDay: DAY }, { day: DAY, letter: 'd' }, wallTimes);
    expect(again).toEqual(once);
  });

  it('leaves out wall-time entries that are not pairs of whole numbers', () => {
    const series = advanceDaySeries(
      { series: [openDay(YESTERDAY)], letters: 'o', lastDay: YESTERDAY },
      { day: DAY, letter: 'o' },
      {
        hourly: [
          {
            day: YESTERDAY,
            answered: 1,
            checks: 1,
            latencyMs: [
              [100, 1],
              [-5, 1],
              [7.5, 1],
              [200, 0],
            ] as [number, number][],
          },
        ],
      },
    );
    expect(series[0]?.handshake).toEqual({ p50Ms: 100, p95Ms: 100, samples: 1 });
  });
});

describe('advanceDaySeries: the window and older states', () => {
  it(`keeps ${FOLD_RULES.daySeriesDaysKept} days, today included: 89 days back stays, 90 back goes`, () => {
    expect(FOLD_RULES.daySeriesDaysKept).toBe(90);
    // 2026-12-02 - 89 days = 2026-09-04; - 90 days = 2026-09-03.
    const old: SeriesDay[] = [
      { ...openDay('2026-09-03'), handshake: null },
      { ...openDay('2026-09-04'), handshake: null },
    ];
    const series = advanceDaySeries({ series: old, letters: '', lastDay: null }, { day: DAY, letter: 'o' }, {});
    expect(series.map((entry) => entry.day)).toEqual(['2026-09-04', DAY]);
  });

  it('starts a series from the letters of a state that has none, ending on its last day', () => {
    const series = advanceDaySeries(
      { letters: 'odn', lastDay: YESTERDAY },
      { day: DAY, letter: 'o' },
      { hourly: [{ day: YESTERDAY, answered: 1, checks: 1, latencyMs: [[150, 1]] }] },
    );
    expect(series).toEqual([
      { day: '2026-11-29', letter: 'o', dailyMs: null, handshake: null },
      { day: '2026-11-30', letter: 'd', dailyMs: null, handshake: null },
      { day: YESTERDAY, letter: 'n', dailyMs: null, handshake: { p50Ms: 150, p95Ms: 150, samples: 1 } },
      { day: DAY, letter: 'o', dailyMs: null },
    ]);
  });

  it('drops stored entries that do not read as a series day', () => {
    const torn = [
      { day: 'yesterday', letter: 'o', dailyMs: null },
      { day: YESTERDAY, letter: 'x', dailyMs: null },
    ];
    const series = advanceDaySeries(
      { series: torn as SeriesDay[], letters: '', lastDay: null },
      { day: DAY, letter: 'o' },
      {},
    );
    expect(series).toEqual([{ day: DAY, letter: 'o', dailyMs: null }]);
  });

  it('throws a typed error for a fold without a day or with a letter that is not one', () => {
    expect(() => advanceDaySeries({ letters: '', lastDay: null }, { day: '12/02', letter: 'o' }, {})).toThrow(
      ReliabilityInputError,
    );
    expect(() =>
      advanceDaySeries({ letters: '', lastDay: null }, { day: DAY, letter: 'oo' as SeriesDay['letter'] }, {}),
    ).toThrow(ReliabilityInputError);
  });
});

describe('daySeriesStatus: the uptime chart', () => {
  const pair = (day: string, answered: number, checks: number) => ({ day, answered, checks });

  it(`returns the ${FOLD_RULES.daySeriesDaysKept} days ending the last day, oldest first, none without data`, () => {
    const days = daySeriesStatus({ series: [], letters: '', lastDay: null }, [], DAY);
    expect(days).toHaveLength(90);
    expect(days[0]?.day).toBe('2026-09-04');
    expect(days.at(-1)).toEqual({ day: DAY, status: 'none', percent: null, source: null, checks: 0 });
  });

  it('reads the daily letter: o, a and p up, d down, n none', () => {
    const series: SeriesDay[] = [
      openDay('2026-11-28', 'o'),
      openDay('2026-11-29', 'a'),
      openDay('2026-11-30', 'p'),
      openDay(YESTERDAY, 'd'),
      openDay(DAY, 'n'),
    ];
    const days = daySeriesStatus({ series, letters: '', lastDay: null }, [], DAY).slice(-5);
    expect(days.map((day) => day.status)).toEqual(['up', 'up', 'up', 'down', 'none']);
    expect(days.map((day) => day.percent)).toEqual([100, 100, 100, 0, null]);
  });

  it('reads the letters of a state from before the series was kept', () => {
    const days = daySeriesStatus({ letters: 'od', lastDay: YESTERDAY }, [], DAY).slice(-3);
    expect(days.map((day) => day.status)).toEqual(['up', 'down', 'none']);
  });

  it(`switches to the five-minute checks from ${UPTIME_RULES.fiveMinuteMinChecks} of them on the day`, () => {
    const series = [openDay(YESTERDAY, 'o'), openDay(DAY, 'o')];
    // 11 checks on YESTERDAY: below the switch, so its letter `o` reads up; 12 on DAY: 6 of 12 answered = 50.0.
    const days = daySeriesStatus(
      { series, letters: '', lastDay: null },
      [pair(YESTERDAY, 0, 11), pair(DAY, 6, 12)],
      DAY,
    ).slice(-2);
    expect(days).toEqual([
      { day: YESTERDAY, status: 'up', percent: 100, source: 'daily', checks: 1 },
      { day: DAY, status: 'partial', percent: 50, source: 'five_minute', checks: 12 },
    ]);
  });

  it('caps a day with one missed five-minute check at 99.9, and reads all or none answered as up or down', () => {
    // 287 of 288: 99.65... rounds to 99.7; 1999 of 2000 would round to 100.0 but is capped at 99.9.
    const days = daySeriesStatus(
      { series: [], letters: '', lastDay: null },
      [pair('2026-11-29', 287, 288), pair('2026-11-30', 1999, 2000), pair(YESTERDAY, 288, 288), pair(DAY, 0, 288)],
      DAY,
    ).slice(-4);
    expect(days.map((day) => [day.status, day.percent])).toEqual([
      ['partial', 99.7],
      ['partial', 99.9],
      ['up', 100],
      ['down', 0],
    ]);
  });
});
