import { describe, expect, it } from 'vitest';
import { FIVE_MINUTE_DAYS_KEPT } from '../src/constants.js';
import { keepFiveMinuteDays } from '../src/five-minute.js';
import { ReliabilityInputError } from '../src/index.js';
import { recordFiveMinuteCheck, recordFiveMinuteObservation, uptimeInputOf } from '../src/live.js';

const TODAY = '2026-12-01';
const pair = (day: string, answered = 1, checks = 1) => ({ day, answered, checks });

describe('five-minute counters are kept 92 days, not 92 entries', () => {
  it('keeps the 92 UTC days ending today: 91 days back stays, 92 and 93 go', () => {
    expect(FIVE_MINUTE_DAYS_KEPT).toBe(92);
    // 2026-12-01 minus 91 days is 2026-09-01; minus 92 is 2026-08-31; minus 93 is 2026-08-30.
    const kept = keepFiveMinuteDays([pair('2026-08-30'), pair('2026-08-31'), pair('2026-09-01'), pair(TODAY)], TODAY);
    expect(kept.map((p) => p.day)).toEqual(['2026-09-01', TODAY]);
  });

  it('keeps a sparse history whole when it spans fewer than 92 days, however many entries', () => {
    const sparse = [pair('2026-09-01'), pair('2026-10-01'), pair('2026-11-01'), pair(TODAY)];
    expect(keepFiveMinuteDays(sparse, TODAY)).toEqual(sparse);
  });

  it('drops a 93-day-old pair even when only two pairs are kept', () => {
    expect(keepFiveMinuteDays([pair('2026-08-30'), pair(TODAY)], TODAY)).toEqual([pair(TODAY)]);
  });

  it('counts a check on today and drops what aged out', () => {
    expect(recordFiveMinuteCheck([], TODAY, true)).toEqual([pair(TODAY, 1, 1)]);
    expect(recordFiveMinuteCheck([pair('2026-08-31'), pair(TODAY, 3, 4)], TODAY, false)).toEqual([pair(TODAY, 3, 5)]);
    expect(recordFiveMinuteCheck([pair('2026-11-30', 2, 2)], TODAY, true)).toEqual([
      pair('2026-11-30', 2, 2),
      pair(TODAY, 1, 1),
    ]);
  });

  it('refuses counters that do not add up', () => {
    expect(() => keepFiveMinuteDays([pair(TODAY, 3, 2)], TODAY)).toThrow(ReliabilityInputError);
    expect(() => keepFiveMinuteDays([pair('2026-13-01')], TODAY)).toThrow(ReliabilityInputError);
  });
});

describe('uptime inputs from the five-minute counters', () => {
  it('use the letters alone without counters or before any day', () => {
    expect(uptimeInputOf('ood', [], '2026-11-30')).toEqual({ letters: 'ood' });
    expect(uptimeInputOf('ood', [pair('2026-11-30')], null)).toEqual({ letters: 'ood' });
  });

  it('sum the 30 and 90 UTC days ending today, today included', () => {
    const pairs = [
      pair('2026-09-01', 100, 100), // 90 days back: outside both windows
      pair('2026-09-02', 50, 60), // 89 back: the 90-day window's oldest day
      pair('2026-10-31', 280, 288), // 30 back: 90-day window only
      pair('2026-11-01', 288, 288), // 29 back: the 30-day window's oldest day
      pair('2026-11-30', 10, 12),
    ];
    expect(uptimeInputOf('oo', pairs, '2026-11-30')).toEqual({
      letters: 'oo',
      fiveMinute: { answered: 298, total: 300 },
      fiveMinuteLong: { answered: 628, total: 648 },
    });
  });
});

describe('the five-minute observations kept', () => {
  const obs = (at: string, letter: 'o' | 'd' = 'o') => ({
    at,
    letter,
    reason: letter === 'o' ? 'ok' : 'timeout',
    httpStatus: null,
    notMcp: false,
  });
  it('are the newest two, oldest first', () => {
    let kept = recordFiveMinuteObservation([], obs('2026-12-01T00:00:00Z'));
    expect(kept).toHaveLength(1);
    kept = recordFiveMinuteObservation(kept, obs('2026-12-01T00:05:00Z', 'd'));
    kept = recordFiveMinuteObservation(kept, obs('2026-12-01T00:10:00Z', 'd'));
    expect(kept.map((o) => o.at)).toEqual(['2026-12-01T00:05:00Z', '2026-12-01T00:10:00Z']);
  });
});
