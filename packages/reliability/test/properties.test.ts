import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkUptime,
  dailyUptime,
  decideIncident,
  type IncidentReport,
  type RankableServer,
  type Report,
  rankMostReliable,
  rateServer,
  reportDecay,
  reporterKey,
  reporterWeight,
  speedScore,
  stability,
  starsFor,
  successChance,
} from '../src/index.js';
import { countTopPlaces } from '../src/ranking.js';

const letters = fc.string({ unit: fc.constantFrom('o', 'a', 'p', 'd', 'n'), maxLength: 30 });
const share = fc.double({ min: 0, max: 1, noNaN: true });
const NOW = new Date('2025-06-30T12:00:00Z');

describe('uptime properties', () => {
  it('stays within [0, 100], is never 100 with a d, and is null only without observed days', () => {
    fc.assert(
      fc.property(letters, (l) => {
        const uptime = dailyUptime(l);
        const observed = [...l].filter((c) => c !== 'n').length;
        if (observed === 0) return uptime === null;
        return uptime !== null && uptime >= 0 && uptime <= 100 && (!l.includes('d') || uptime <= 99.9);
      }),
    );
  });

  it('is 100 for check counters only when nothing was missed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30_000 }), fc.integer({ min: 0, max: 30_000 }), (total, missed) => {
        const answered = Math.max(0, total - missed);
        const uptime = checkUptime(answered, total) as number;
        return uptime >= 0 && uptime <= 100 && (uptime === 100) === (answered === total);
      }),
    );
  });
});

describe('success chance properties', () => {
  it('stays strictly within (0, 1)', () => {
    fc.assert(
      fc.property(letters, (l) => {
        const chance = successChance(l);
        return chance > 0 && chance < 1;
      }),
    );
  });

  it('is lowered more by a recent failure than by an old one', () => {
    // Take any letters with an answering day at i and a d at j > i; moving the d to i (and the
    // answering day to j) must raise the chance, because day j weighs more than day i.
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('o', 'a', 'p', 'd', 'n'), minLength: 2, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('o', 'a', 'p'),
        (base, x, y, up) => {
          const i = x % base.length;
          const j = y % base.length;
          fc.pre(i !== j);
          const [early, late] = i < j ? [i, j] : [j, i];
          const recentFailure = [...base];
          recentFailure[early] = up;
          recentFailure[late] = 'd';
          const oldFailure = [...base];
          oldFailure[early] = 'd';
          oldFailure[late] = up;
          return successChance(recentFailure.join('')) < successChance(oldFailure.join(''));
        },
      ),
    );
  });
});

describe('rating properties', () => {
  it('keeps stars within [1, 5]', () => {
    fc.assert(
      fc.property(share, share, share, share, (reliability, accuracy, surpriseShare, speed) => {
        const stars = starsFor({ reliability, accuracy, surpriseShare, speed });
        return stars >= 1 && stars <= 5;
      }),
    );
  });

  it('keeps stability in (0, 1], decay in [0, 1] and non-increasing, speed in [0, 1]', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 30 }), (days) => stability(days) > 0 && stability(days) <= 1));
    fc.assert(
      fc.property(fc.double({ min: 0, max: 40, noNaN: true }), fc.double({ min: 0, max: 40, noNaN: true }), (a, b) => {
        const [young, old] = a <= b ? [a, b] : [b, a];
        return reportDecay(young) >= reportDecay(old) && reportDecay(old) >= 0 && reportDecay(young) <= 1;
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (ms) => speedScore(ms) >= 0 && speedScore(ms) <= 1),
    );
  });

  it('keeps a paid weight in (0.5, 1] and an anonymous one in (0.15, 0.3]', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (paid, agree, disagree) => {
          const w = reporterWeight({ paid, agree, disagree: disagree / 2 });
          return paid ? w > 0.5 && w <= 1 : w > 0.15 && w <= 0.3;
        },
      ),
    );
  });

  // The optional fields are left out of some records (requiredKeys), never set to undefined: a report read
  // from JSON has no undefined values.
  const reportArb: fc.Arbitrary<Report> = fc.record(
    {
      reporter: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'),
      paid: fc.boolean(),
      ok: fc.boolean(),
      at: fc.integer({ min: 0, max: 40 * 86_400_000 }).map((ms) => new Date(NOW.getTime() - ms)),
      ms: fc.integer({ min: 0, max: 20_000 }),
      matchedDescription: fc.boolean(),
      surprise: fc.option(
        fc.constantFrom('side_effect', 'unexpected_cost', 'data_leak_suspected', 'other') as fc.Arbitrary<
          NonNullable<Report['surprise']>
        >,
        {
          nil: null,
        },
      ),
      agrees: fc.constantFrom(true, false, 'half' as const),
    },
    { requiredKeys: ['reporter', 'paid', 'ok', 'at', 'surprise'] },
  );

  it('keeps reliability in [0, 1] and stars in [1, 5] for any reports', () => {
    fc.assert(
      fc.property(fc.array(reportArb, { maxLength: 60 }), (reports) => {
        const rating = rateServer(reports, NOW);
        if (rating.reliability === null) return rating.stars === null && rating.reportsCounted === 0;
        return rating.reliability >= 0 && rating.reliability <= 1 && rating.stars! >= 1 && rating.stars! <= 5;
      }),
    );
  });

  it('reads accuracy, surprise share and median time from exactly the newest 30 reports', () => {
    // Reference: sort everything newest first (later input first on equal times) and take 30.
    fc.assert(
      fc.property(fc.array(reportArb, { minLength: 0, maxLength: 80 }), (reports) => {
        const inWindow = reports
          .map((report, index) => ({ report, index, atMs: (report.at as Date).getTime() }))
          .filter(({ atMs }) => (NOW.getTime() - atMs) / 86_400_000 <= 30);
        // The per-reporter daily cap would drop some; compare only when it does not apply.
        const perDay = new Map<string, number>();
        for (const { report, atMs } of inWindow) {
          const key = `${report.reporter}|${Math.floor(atMs / 86_400_000)}`;
          perDay.set(key, (perDay.get(key) ?? 0) + 1);
        }
        fc.pre([...perDay.values()].every((n) => n <= 3));
        const newest = [...inWindow]
          .sort((a, b) => b.atMs - a.atMs || b.index - a.index)
          .slice(0, 30)
          .map((x) => x.report);
        const rating = rateServer(reports, NOW);
        const surprises = newest.filter((r) => r.surprise !== null && r.surprise !== undefined).length;
        const times = newest.flatMap((r) => (r.ms === undefined ? [] : [r.ms])).sort((a, b) => a - b);
        const middle = times.length >> 1;
        const median =
          times.length === 0 ? null : times.length % 2 ? times[middle]! : (times[middle - 1]! + times[middle]!) / 2;
        expect(rating.surpriseShare).toBeCloseTo(newest.length === 0 ? 0 : surprises / newest.length, 12);
        expect(rating.medianMs).toBe(median);
        expect(rating.accuracyAnswers).toBe(newest.filter((r) => r.matchedDescription !== undefined).length);
      }),
    );
  });

  it('is not changed by the order of the reports', () => {
    fc.assert(
      fc.property(fc.array(reportArb, { maxLength: 30 }), (reports) => {
        const forward = rateServer(reports, NOW);
        const backward = rateServer([...reports].reverse(), NOW);
        return (
          forward.reportsCounted === backward.reportsCounted &&
          forward.reporters === backward.reporters &&
          Math.abs((forward.reliability ?? -1) - (backward.reliability ?? -1)) < 1e-12
        );
      }),
    );
  });
});

describe('reporter key properties', () => {
  const octet = fc.integer({ min: 0, max: 255 });
  const hextet = fc.integer({ min: 0, max: 0xffff });

  it('keys every IPv4 address by its first three octets', () => {
    fc.assert(
      fc.property(
        octet,
        octet,
        octet,
        octet,
        (a, b, c, d) => reporterKey(`${a}.${b}.${c}.${d}`) === `${a}.${b}.${c}.0/24`,
      ),
    );
  });

  it('gives IPv6 addresses sharing 48 bits one key, and a key that keys to itself', () => {
    fc.assert(
      fc.property(
        fc.array(hextet, { minLength: 8, maxLength: 8 }),
        fc.array(hextet, { minLength: 5, maxLength: 5 }),
        (groups, tail) => {
          // Leave out IPv4-mapped addresses, which are keyed as IPv4.
          fc.pre(!(groups[0] === 0 && groups[1] === 0 && groups[2] === 0));
          const first = groups.map((g) => g.toString(16)).join(':');
          const second = [...groups.slice(0, 3), ...tail].map((g) => g.toString(16)).join(':');
          const key = reporterKey(first);
          return key === reporterKey(second) && reporterKey(key.replace('/48', '')) === key;
        },
      ),
    );
  });
});

describe('ranking properties', () => {
  const serverArb = (id: number): fc.Arbitrary<RankableServer> =>
    fc.record({
      id: fc.constant(`s${id}`),
      url: fc.constantFrom('https://a.example/mcp', 'https://b.example/mcp', `https://s${id}.example/mcp`),
      category: fc.constantFrom('search', 'files', null),
      answeringNow: fc.boolean(),
      letters: fc.string({ unit: fc.constantFrom('o', 'd', 'n'), minLength: 10, maxLength: 30 }),
      handshakeMs: fc.constantFrom(100, 200, 300),
    });
  const serversArb = fc
    .integer({ min: 0, max: 40 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => serverArb(i))));

  it('ranks 1..k, marks exactly the top places, and ignores input order', () => {
    fc.assert(
      fc.property(serversArb, (servers) => {
        const result = rankMostReliable(servers);
        const shuffled = rankMostReliable([...servers].reverse());
        expect(shuffled).toEqual(result);
        for (const { ranked } of result) {
          expect(ranked.map((r) => r.rank)).toEqual(ranked.map((_, i) => i + 1));
          expect(ranked.filter((r) => r.topTenth)).toHaveLength(countTopPlaces(ranked.length));
          for (let i = 1; i < ranked.length; i++)
            expect(ranked[i - 1]!.uptime).toBeGreaterThanOrEqual(ranked[i]!.uptime);
        }
      }),
    );
  });
});

describe('incident properties', () => {
  it('never shows an incident from anonymous agents and sensors alone', () => {
    const minute = fc.integer({ min: 0, max: 180 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('n1', 'n2', 'n3', 'n4'), minute, fc.boolean()), { maxLength: 12 }),
        fc.array(fc.tuple(fc.constantFrom('g1', 'g2', 'g3'), minute, fc.boolean()), { maxLength: 12 }),
        (agents, sensors) => {
          const reports: IncidentReport[] = agents.map(([reporter, m, ok]) => ({
            reporter,
            paid: false,
            ok,
            at: new Date(NOW.getTime() - m * 60_000),
            reason: ok ? null : 'timeout',
          }));
          const sensorOutcomes = sensors.map(([sensor, m, ok]) => ({
            sensor,
            ok,
            at: new Date(NOW.getTime() - m * 60_000),
            reason: null,
          }));
          return decideIncident({ reports, sensorOutcomes }, NOW).shown === false;
        },
      ),
    );
  });
});
