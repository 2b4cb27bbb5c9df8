/**
 * Benchmarks of the three heavy paths, each against a naive baseline measured in the same run:
 * ranking 10,000 servers (baseline: one plain sort by uptime share), rating one server with
 * 100,000 reports, and rating 20,000 servers with 30 days of reports each (baseline: a plain loop
 * summing decayed ok-weights, with no checks, caps or newest-30 figures). Data come from a seeded
 * generator, so every run measures the same input.
 *
 * It measures the built package (dist/, which the bench script builds first), as users run it:
 * under vitest the source would run through Vite's module runner, which turns every call across
 * our module boundaries into a property read on a namespace object and roughly doubles the time
 * of the hot loops, a cost no user pays.
 */
import { bench, describe } from 'vitest';
import { rankMostReliable, rateServer } from '../dist/index.js';
import type { RankableServer, Report } from '../src/index.js';

const NOW = new Date('2025-06-30T12:00:00Z');
const NOW_MS = NOW.getTime();
const DAY = 86_400_000;

// A small linear congruential generator: deterministic and fast enough not to matter.
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const CATEGORIES = ['search', 'files', 'email', 'calendar', 'code', 'weather', 'finance', 'maps', 'docs', 'chat'];

function makeServers(count: number): RankableServer[] {
  const random = seeded(1);
  return Array.from({ length: count }, (_, i) => {
    let letters = '';
    for (let d = 0; d < 30; d++) {
      const r = random();
      letters += r < 0.05 ? 'n' : r < 0.12 ? 'd' : r < 0.15 ? 'a' : 'o';
    }
    return {
      id: `srv-${i}`,
      url: `https://srv-${i}.example/mcp`,
      category: random() < 0.1 ? null : (CATEGORIES[Math.floor(random() * CATEGORIES.length)] as string),
      answeringNow: random() < 0.9,
      letters,
      handshakeMs: Math.floor(100 + random() * 2000),
    };
  });
}

function makeReports(count: number, reporters: number, seed: number): Report[] {
  const random = seeded(seed);
  return Array.from({ length: count }, () => {
    const reporter = Math.floor(random() * reporters);
    const ok = random() < 0.9;
    return {
      reporter: `r${reporter}`,
      paid: reporter % 4 === 0,
      ok,
      at: new Date(NOW_MS - Math.floor(random() * 30 * DAY)).toISOString(),
      ms: Math.floor(100 + random() * 3000),
      reason: ok ? null : 'timeout',
      matchedDescription: random() < 0.95,
      surprise: random() < 0.02 ? 'side_effect' : null,
      agrees: random() < 0.9,
    };
  });
}

// The naive baseline: what anyone would write first, with none of the rules' checks.
function naiveReliability(reports: readonly Report[]): number {
  let weighted = 0;
  let ok = 0;
  for (const r of reports) {
    const age = (NOW_MS - Date.parse(r.at as string)) / DAY;
    if (age < 0 || age > 30) continue;
    const w = (r.paid ? 1 : 0.3) * 0.75 * 0.5 ** (age / 7);
    weighted += w;
    if (r.ok) ok += w;
  }
  return weighted === 0 ? 0 : ok / weighted;
}

function naiveRank(servers: readonly RankableServer[]): RankableServer[] {
  const share = (s: RankableServer) => {
    let up = 0;
    let seen = 0;
    for (const c of s.letters) {
      if (c === 'n') continue;
      seen++;
      if (c !== 'd') up++;
    }
    return seen === 0 ? 0 : up / seen;
  };
  return [...servers].sort((a, b) => share(b) - share(a));
}

const servers = makeServers(10_000);
const manyReports = makeReports(100_000, 5_000, 2);
const fleet = Array.from({ length: 20_000 }, (_, i) => makeReports(30, 12, 100 + i));

describe('rank 10,000 servers', () => {
  bench('baseline: plain sort by uptime share', () => {
    naiveRank(servers);
  });
  bench('rankMostReliable', () => {
    rankMostReliable(servers);
  });
});

describe('rate one server from 100,000 reports', () => {
  bench('baseline: plain decayed sum loop', () => {
    naiveReliability(manyReports);
  });
  bench('rateServer', () => {
    rateServer(manyReports, NOW);
  });
});

describe('rate 20,000 servers with 30 days of reports each (600,000 reports)', () => {
  bench(
    'baseline: plain decayed sum loop per server',
    () => {
      for (const reports of fleet) naiveReliability(reports);
    },
    { iterations: 5, time: 0 },
  );
  bench(
    'rateServer per server',
    () => {
      for (const reports of fleet) rateServer(reports, NOW);
    },
    { iterations: 5, time: 0 },
  );
});
