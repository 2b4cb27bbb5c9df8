import { describe, expect, it } from 'vitest';
import {
  describePublicRating,
  ReliabilityInputError,
  type Report,
  rateServer,
  reportDecay,
  speedScore,
  starsFor,
} from '../src/index.js';
import { isRatingVisible } from '../src/ratings.js';

const NOW = new Date('2025-06-30T12:00:00Z');
const DAY = 86_400_000;
const HOUR = 3_600_000;

function ago(ms: number): Date {
  return new Date(NOW.getTime() - ms);
}

function report(overrides: Partial<Report>): Report {
  return { reporter: 'anon-1', paid: false, ok: true, at: NOW, ...overrides };
}

describe('reportDecay', () => {
  it('halves every 7 days', () => {
    expect(reportDecay(0)).toBe(1);
    expect(reportDecay(3.5)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(reportDecay(7)).toBe(0.5);
    expect(reportDecay(14)).toBe(0.25);
  });

  it('counts a report exactly 30 days old and nothing older', () => {
    expect(reportDecay(30)).toBeCloseTo(0.051271, 6);
    expect(reportDecay(30.000001)).toBe(0);
    expect(reportDecay(31)).toBe(0);
  });

  it('throws on a negative or non-finite age', () => {
    expect(() => reportDecay(-1)).toThrow(/ageDays/);
    expect(() => reportDecay(Number.NaN)).toThrow(ReliabilityInputError);
  });
});

describe('speedScore', () => {
  it('is 0.7 without times', () => {
    expect(speedScore(null)).toBe(0.7);
  });

  it('is clamp(1 - (ms - 500) / 5000, 0, 1)', () => {
    expect(speedScore(0)).toBe(1);
    expect(speedScore(499)).toBe(1);
    expect(speedScore(500)).toBe(1);
    expect(speedScore(501)).toBeCloseTo(0.9998, 12);
    expect(speedScore(3000)).toBe(0.5);
    expect(speedScore(5499)).toBeCloseTo(0.0002, 12);
    expect(speedScore(5500)).toBe(0);
    expect(speedScore(5501)).toBe(0);
    expect(speedScore(60_000)).toBe(0);
  });

  it('throws on a negative time', () => {
    expect(() => speedScore(-5)).toThrow(/medianMs/);
  });
});

describe('starsFor', () => {
  it('is 1 + 4 x (0.45 r + 0.2 a + 0.2 (1 - s) + 0.15 speed)', () => {
    expect(starsFor({ reliability: 1, accuracy: 1, surpriseShare: 0, speed: 1 })).toBeCloseTo(5, 12);
    expect(starsFor({ reliability: 0, accuracy: 0, surpriseShare: 1, speed: 0 })).toBe(1);
    expect(starsFor({ reliability: 0.5, accuracy: 0.5, surpriseShare: 0.5, speed: 0.5 })).toBeCloseTo(3, 12);
    expect(starsFor({ reliability: 1, accuracy: 0.7, surpriseShare: 0, speed: 0.7 })).toBeCloseTo(4.58, 12);
    expect(starsFor({ reliability: 0, accuracy: 0, surpriseShare: 0, speed: 0 })).toBeCloseTo(1.8, 12);
  });

  it('throws on a part outside 0..1', () => {
    expect(() => starsFor({ reliability: 1.1, accuracy: 1, surpriseShare: 0, speed: 1 })).toThrow(/reliability/);
    expect(() => starsFor({ reliability: 1, accuracy: 1, surpriseShare: -0.1, speed: 1 })).toThrow(/surpriseShare/);
    expect(() => starsFor({ reliability: 1, accuracy: Number.NaN, surpriseShare: 0, speed: 1 })).toThrow(
      ReliabilityInputError,
    );
  });
});

describe('isRatingVisible', () => {
  it('needs 3 distinct reporters and a paid decayed weight of 1.0', () => {
    expect(isRatingVisible(3, 1.0)).toBe(true);
    expect(isRatingVisible(4, 2.5)).toBe(true);
    expect(isRatingVisible(2, 1.0)).toBe(false);
    expect(isRatingVisible(3, 0.999)).toBe(false);
    expect(isRatingVisible(0, 0)).toBe(false);
  });
});

describe('rateServer', () => {
  it('has no reliability or stars without reports', () => {
    const rating = rateServer([], NOW);
    expect(rating).toEqual({
      reliability: null,
      accuracy: 0.7,
      accuracyAnswers: 0,
      surpriseShare: 0,
      medianMs: null,
      speed: 0.7,
      stars: null,
      reporters: 0,
      paidWeight: 0,
      totalWeight: 0,
      reportsCounted: 0,
      sensorEntriesCounted: 0,
      visible: false,
    });
    expect(describePublicRating(rating)).toEqual({ shown: false, label: 'not enough reports' });
  });

  // A: paid, tally 0/2 -> 0.625, fresh, worked. B: paid, new -> 0.75, 7 days old -> 0.375, failed.
  // C: anonymous, new -> 0.225, fresh, worked. Paid weight 0.625 + 0.375 = 1.0 exactly.
  const agreement = { A: { agree: 0, disagree: 2 }, B: { agree: 0, disagree: 0 }, C: { agree: 0, disagree: 0 } };
  const threshold: Report[] = [
    report({ reporter: 'A', paid: true, ok: true, at: NOW }),
    report({ reporter: 'B', paid: true, ok: false, reason: 'timeout', at: ago(7 * DAY) }),
    report({ reporter: 'C', paid: false, ok: true, at: NOW }),
  ];

  it('is visible at exactly 3 reporters and paid weight 1.0, with hand-computed figures', () => {
    const rating = rateServer(threshold, NOW, { reporterAgreement: agreement });
    expect(rating.paidWeight).toBe(1);
    expect(rating.reporters).toBe(3);
    expect(rating.visible).toBe(true);
    expect(rating.totalWeight).toBeCloseTo(1.225, 12);
    expect(rating.reliability).toBeCloseTo(0.85 / 1.225, 12);
    expect(rating.stars).toBeCloseTo(1 + 4 * (0.45 * (0.85 / 1.225) + 0.2 * 0.7 + 0.2 + 0.15 * 0.7), 12);
    expect(describePublicRating(rating)).toEqual({ shown: true, stars: rating.stars, reliability: rating.reliability });
  });

  it('is not visible with one reporter fewer', () => {
    const rating = rateServer(threshold.slice(0, 2), NOW, { reporterAgreement: agreement });
    expect(rating.reporters).toBe(2);
    expect(rating.paidWeight).toBe(1);
    expect(rating.visible).toBe(false);
    expect(rating.stars).not.toBeNull(); // internal rating still exists
  });

  it('is not visible once the paid weight decays just under 1.0', () => {
    const older = [threshold[0]!, { ...threshold[1]!, at: ago(7 * DAY + HOUR) }, threshold[2]!];
    const rating = rateServer(older, NOW, { reporterAgreement: agreement });
    expect(rating.paidWeight).toBeLessThan(1);
    expect(rating.visible).toBe(false);
  });

  it('accepts a Map for agreement tallies', () => {
    const rating = rateServer(threshold, NOW, { reporterAgreement: new Map(Object.entries(agreement)) });
    expect(rating.paidWeight).toBe(1);
  });

  it('counts many reports from one reporter as one reporter', () => {
    const reports = [0, 1, 2].map((d) => report({ reporter: 'P', paid: true, at: ago(d * DAY) }));
    const rating = rateServer(reports, NOW);
    expect(rating.reporters).toBe(1);
    expect(rating.paidWeight).toBeCloseTo(0.75 * (1 + 0.5 ** (1 / 7) + 0.5 ** (2 / 7)), 12);
    expect(rating.visible).toBe(false);
  });

  it('counts a report exactly 30 days old and drops one a millisecond older or from the future', () => {
    const edge = rateServer([report({ ok: false, at: ago(30 * DAY) })], NOW);
    expect(edge.reportsCounted).toBe(1);
    expect(edge.reliability).toBe(0);
    expect(edge.totalWeight).toBeCloseTo(0.225 * 0.5 ** (30 / 7), 12);
    expect(rateServer([report({ at: ago(30 * DAY + 1) })], NOW).reportsCounted).toBe(0);
    expect(rateServer([report({ at: new Date(NOW.getTime() + 1) })], NOW).reportsCounted).toBe(0);
  });

  it('weighs a recent failure more than an old one', () => {
    const recentFailure = rateServer(
      [report({ reporter: 'x', ok: false, at: ago(HOUR) }), report({ reporter: 'y', ok: true, at: ago(10 * DAY) })],
      NOW,
    );
    const oldFailure = rateServer(
      [report({ reporter: 'x', ok: false, at: ago(10 * DAY) }), report({ reporter: 'y', ok: true, at: ago(HOUR) })],
      NOW,
    );
    expect(recentFailure.reliability!).toBeLessThan(oldFailure.reliability!);
  });

  it('tallies a reporter without a record from the agrees fields of its reports', () => {
    // agree 2 -> factor 0.875 -> anonymous weight 0.2625 per report
    const rating = rateServer(
      [
        report({ reporter: 'X', ok: true, agrees: true }),
        report({ reporter: 'X', ok: false, reason: 'args', agrees: true }),
      ],
      NOW,
    );
    expect(rating.totalWeight).toBeCloseTo(0.525, 12);
    expect(rating.reliability).toBeCloseTo(0.5, 12);
    // agree 1, disagree 0.5 ('half' and false both count half)
    const mixed = rateServer(
      [
        report({ reporter: 'X', agrees: true }),
        report({ reporter: 'X', agrees: 'half' }),
        report({ reporter: 'X', agrees: null }),
      ],
      NOW,
    );
    expect(mixed.totalWeight).toBeCloseTo(3 * 0.3 * (0.5 + 0.5 * (2 / 3.5)), 12);
  });

  it('counts at most 3 reports per reporter per UTC day, the earliest ones', () => {
    const day = Date.parse('2025-06-29T00:00:00Z');
    const reports = [
      report({ reporter: 'R', ok: false, at: new Date(day + 4 * HOUR) }), // 4th of the day: dropped
      report({ reporter: 'R', ok: true, at: new Date(day + 1 * HOUR) }),
      report({ reporter: 'R', ok: true, at: new Date(day + 2 * HOUR) }),
      report({ reporter: 'R', ok: true, at: new Date(day + 3 * HOUR) }),
      report({ reporter: 'R', ok: false, at: new Date(day + 25 * HOUR) }), // next day: counts
      report({ reporter: 'S', ok: true, at: new Date(day + 5 * HOUR) }), // another reporter: counts
    ];
    const rating = rateServer(reports, NOW);
    expect(rating.reportsCounted).toBe(5);
    expect(rateServer(reports.slice(0, 4), NOW).reliability).toBe(1);
  });

  it('reads accuracy, surprise share and speed from the newest 30 reports only', () => {
    const reports: Report[] = [];
    // the oldest report: a surprise and a mismatch that must not count
    reports.push(
      report({ reporter: 'old', at: ago(20 * DAY), surprise: 'side_effect', matchedDescription: false, ms: 90_000 }),
    );
    for (let i = 0; i < 30; i++) {
      reports.push(
        report({
          reporter: `r${i}`,
          at: ago(i * HOUR),
          surprise: i < 3 ? 'unexpected_cost' : null,
          // 20 say whether it matched, 15 of them yes
          ...(i < 20 ? { matchedDescription: i < 15 } : {}),
          ...(i < 4 ? { ms: [100, 300, 900, 700][i]! } : {}),
        }),
      );
    }
    const rating = rateServer(reports, NOW);
    expect(rating.reportsCounted).toBe(31);
    expect(rating.surpriseShare).toBeCloseTo(0.1, 12);
    expect(rating.accuracy).toBe(0.75);
    expect(rating.accuracyAnswers).toBe(20);
    expect(rating.medianMs).toBe(500); // mean of 300 and 700
    expect(rating.speed).toBe(1);
  });

  it('takes the middle time for an odd number of times', () => {
    const rating = rateServer(
      [report({ reporter: 'a', ms: 3000 }), report({ reporter: 'b', ms: 100 }), report({ reporter: 'c', ms: 8000 })],
      NOW,
    );
    expect(rating.medianMs).toBe(3000);
    expect(rating.speed).toBe(0.5);
  });

  describe('with sensors', () => {
    const MIDNIGHT = new Date('2025-06-30T00:00:00Z');

    it('counts a sensor entry as 0.3 x agreement, its share of calls that worked', () => {
      const rating = rateServer([], MIDNIGHT, { sensors: [{ sensor: 'gw', day: '2025-06-30', worked: 3, calls: 4 }] });
      expect(rating.totalWeight).toBeCloseTo(0.225, 12);
      expect(rating.reliability).toBeCloseTo(0.75, 12);
      expect(rating.reporters).toBe(1);
      expect(rating.paidWeight).toBe(0);
      expect(rating.visible).toBe(false);
    });

    it('decays an entry from the start of its day, inside 30 days only', () => {
      const at = (day: string) => rateServer([], MIDNIGHT, { sensors: [{ sensor: 'gw', day, worked: 1, calls: 1 }] });
      expect(at('2025-06-23').totalWeight).toBeCloseTo(0.1125, 12);
      expect(at('2025-05-31').sensorEntriesCounted).toBe(1); // 30 days
      expect(at('2025-05-30').sensorEntriesCounted).toBe(0); // 31 days
      expect(at('2025-07-01').sensorEntriesCounted).toBe(0); // a day not begun
    });

    it('uses the sensor agreement tally', () => {
      const rating = rateServer([], MIDNIGHT, {
        sensors: [{ sensor: 'gw', day: '2025-06-30', worked: 1, calls: 1 }],
        sensorAgreement: { gw: { agree: 8, disagree: 0 } },
      });
      expect(rating.totalWeight).toBeCloseTo(0.285, 12);
    });

    it('counts each sensor as one reporter toward visibility', () => {
      const reports = [
        report({ reporter: 'P', paid: true, at: MIDNIGHT }),
        report({ reporter: 'Q', paid: true, at: MIDNIGHT }),
      ];
      expect(rateServer(reports, MIDNIGHT).visible).toBe(false); // 2 reporters, paid 1.5
      const rating = rateServer(reports, MIDNIGHT, {
        sensors: [
          { sensor: 'gw', day: '2025-06-29', worked: 0, calls: 10 },
          { sensor: 'gw', day: '2025-06-30', worked: 10, calls: 10 },
        ],
      });
      expect(rating.reporters).toBe(3);
      expect(rating.visible).toBe(true);
    });

    it('throws on duplicate or impossible entries', () => {
      const entry = { sensor: 'gw', day: '2025-06-30', worked: 1, calls: 1 };
      expect(() => rateServer([], MIDNIGHT, { sensors: [entry, entry] })).toThrow(/more than one entry/);
      expect(() => rateServer([], MIDNIGHT, { sensors: [{ ...entry, worked: 2 }] })).toThrow(/worked <= calls/);
      expect(() => rateServer([], MIDNIGHT, { sensors: [{ ...entry, calls: 0, worked: 0 }] })).toThrow(/calls >= 1/);
      expect(() => rateServer([], MIDNIGHT, { sensors: [{ ...entry, day: '30/06/2025' }] })).toThrow(
        /sensors\[0\]\.day/,
      );
    });
  });

  it('throws a typed error naming the report and field at fault', () => {
    const bad = (r: Partial<Report>) => () => rateServer([report({}), report(r)], NOW);
    expect(bad({ at: 'yesterday' })).toThrow(/reports\[1\]\.at/);
    expect(bad({ at: '2025-06-30 12:00' })).toThrow(/ISO 8601/); // no offset
    expect(bad({ reporter: '' })).toThrow(/reports\[1\]\.reporter/);
    expect(bad({ ms: -3 })).toThrow(/reports\[1\]\.ms/);
    expect(bad({ reason: 'nope' as NonNullable<Report['reason']> })).toThrow(/reports\[1\]\.reason/);
    expect(bad({ surprise: 'fun' as NonNullable<Report['surprise']> })).toThrow(/reports\[1\]\.surprise/);
    expect(bad({ agrees: 'yes' as unknown as boolean })).toThrow(/reports\[1\]\.agrees/);
    expect(bad({ paid: 'no' as unknown as boolean })).toThrow(ReliabilityInputError);
    expect(() => rateServer([], new Date('nope'))).toThrow(/now/);
    expect(() => rateServer([null as unknown as Report], NOW)).toThrow(/reports\[0\]/);
  });

  it('accepts ISO strings with offsets and fractional seconds', () => {
    const rating = rateServer(
      [report({ at: '2025-06-30T13:00:00+02:00' }), report({ reporter: 'b', at: '2025-06-30T11:59:59.123456Z' })],
      NOW,
    );
    expect(rating.reportsCounted).toBe(2);
  });
});
