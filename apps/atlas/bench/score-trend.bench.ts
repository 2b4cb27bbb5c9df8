// The read model's scores (readScoresView: 30-day trends and each server's newest score) on 2,000 servers x 30 days
// of scores files in a temporary folder store, each entry a whole score of about 1.5 KB as the daily scoring writes
// it. The baseline is the old way: every rebuild reads and parses the 30 files (the uncached read, which is what the
// old 8-day cache amounted to, since a pass over 30 days in order pushed out each day before it was read again).
// The candidates: the new way cold (a store the process has not read yet: the first rebuild after start) and warm
// (every day's trend points kept: every later rebuild). Also prints what the kept points weigh in memory.
// Run: npx vitest bench --run bench/score-trend.bench.ts

import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { shiftDay } from '@mcp-atlas/base';
import { SHOWN_SCORE_RULES } from '@mcp-atlas/operations/rules';
import { gradeFor } from '@mcp-atlas/score';
import { afterAll, bench, describe } from 'vitest';
import {
  readDayScores,
  readDayScoresFile,
  type ServerScore,
  trendPointOf,
  writeDayScores,
} from '../src/score/day-scores.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import type { Storage } from '../src/storage/storage.js';
import { readScoresView, type ScoresView, scoreDropsOfTrends } from '../src/view/score-view.js';

const SERVERS = 2_000;
const DAY = '2026-11-30';
const RUN = { time: 2_000, iterations: 5, warmupIterations: 1 };
const LEVELS = ['complete', 'verified', 'assessed', 'limited'] as const;

const idOf = (i: number) => `server-${String(i).padStart(4, '0')}`;

/** A whole score the size the daily scoring writes: six categories, two flags, a badge in each group. */
function scoreOf(i: number, d: number): ServerScore {
  const composite = 40 + ((i * 7 + d * 3) % 60);
  const badge = (key: string) => ({ key, label: `${key} passed`, level: (i + d) % 2 === 0 ? 'pass' : 'warn' });
  return {
    serverId: idOf(i),
    compositeScore: composite,
    grade: gradeFor(composite),
    visibilityLevel: LEVELS[(i + d) % LEVELS.length] as (typeof LEVELS)[number],
    dimensionsScored: 4 + ((i + d) % 3),
    dimensionsApplicable: 6,
    categories: {
      schemaQuality: 60 + ((i + d) % 40),
      protocol: 100,
      reliability: 50 + (d % 50),
      docsMaintenance: 70,
      security: 83,
      agentUsability: null,
    },
    flags: [
      {
        key: 'NO_DESCRIPTION',
        severity: 'warning',
        label: 'Tools Without Descriptions',
        description: 'Some tools have no description, so an agent has to guess what they do from their names.',
      },
      {
        key: 'STAGING_ARTIFACT',
        severity: 'warning',
        label: 'Staging Endpoint',
        description: 'Remote endpoint URL contains localhost or staging patterns.',
      },
    ],
    badges: {
      schema: [badge('typed-inputs')],
      protocol: [badge('streamable-http')],
      reliability: [badge('uptime-99')],
      maintenance: [badge('recent-release')],
      security: [badge('no-secrets-in-url')],
    },
    category: 'productivity',
    targets: ['claude', 'cursor'],
    publisher: `publisher-${i % 97}`,
    verifiedPublisher: i % 3 === 0,
  };
}

/** The read model's scores as every rebuild read them before: each of the 30 files read and parsed afresh. */
async function readScoresViewOldWay(storage: Storage, day: string): Promise<ScoresView> {
  const view: ScoresView = { latest: new Map(), trends: new Map(), drops: [] };
  const shownFrom = shiftDay(day, -(SHOWN_SCORE_RULES.maxDays - 1));
  for (let back = SHOWN_SCORE_RULES.trendDays - 1; back >= 0; back--) {
    const scoredDay = shiftDay(day, -back);
    for (const [id, score] of (await readDayScoresFile(storage, scoredDay)) ?? []) {
      const trend = view.trends.get(id);
      if (trend === undefined) view.trends.set(id, [trendPointOf(scoredDay, score)]);
      else trend.push(trendPointOf(scoredDay, score));
      if (scoredDay >= shownFrom) view.latest.set(id, { day: scoredDay, score });
    }
  }
  view.drops = scoreDropsOfTrends(view.trends);
  return view;
}

const scratch = await mkdtemp(join(tmpdir(), 'atlas-score-trend-bench-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const folder = join(scratch, 'data');

const writer = createFsStorage(folder);
for (let back = SHOWN_SCORE_RULES.trendDays - 1; back >= 0; back--) {
  const day = shiftDay(DAY, -back);
  const scores = Array.from({ length: SERVERS }, (_, i) => scoreOf(i, back));
  await writeDayScores(writer, { day, methodologyVersion: '1.0.0', scoredAt: `${day}T23:59:59Z`, scores, errors: [] });
}
const fileBytes = (await writer.get(`days/${DAY}/scores.json`))?.byteLength ?? 0;

// Both ways must give the same view before their speeds mean anything.
const warm = createFsStorage(folder);
const oldView = await readScoresViewOldWay(createFsStorage(folder), DAY);
const newView = await readScoresView(warm, DAY);
if (JSON.stringify([...oldView.trends]) !== JSON.stringify([...newView.trends])) throw new Error('trends differ');
if (JSON.stringify([...oldView.latest]) !== JSON.stringify([...newView.latest])) throw new Error('newest differ');

// What the kept trend points weigh: heap after a rebuild (points of 30 days and whole scores of the shown week)
// minus heap after reading only the shown week whole, on stores of their own, after a full collection each time.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
async function heapGrowthOf(fill: (storage: Storage) => Promise<unknown>): Promise<{ bytes: number; keep: Storage }> {
  const keep = createFsStorage(folder);
  collect();
  const before = process.memoryUsage().heapUsed;
  await fill(keep);
  collect();
  return { bytes: process.memoryUsage().heapUsed - before, keep };
}
const wholeWeek = await heapGrowthOf(async (storage) => {
  for (let back = 0; back < SHOWN_SCORE_RULES.maxDays; back++) await readDayScores(storage, shiftDay(DAY, -back));
});
const rebuilt = await heapGrowthOf((storage) => readScoresView(storage, DAY));
const points = SERVERS * SHOWN_SCORE_RULES.trendDays;
console.log(
  `scores files: ${SHOWN_SCORE_RULES.trendDays} x ${(fileBytes / 1e6).toFixed(2)} MB (${Math.round(fileBytes / SERVERS)} bytes a server); ` +
    `whole scores of the shown week kept: ${(wholeWeek.bytes / 1e6).toFixed(1)} MB; ` +
    `trend points kept: ${((rebuilt.bytes - wholeWeek.bytes) / 1e6).toFixed(1)} MB, ` +
    `${Math.round((rebuilt.bytes - wholeWeek.bytes) / points)} bytes a point`,
);

describe(`the scores of a rebuild, ${SERVERS} servers x ${SHOWN_SCORE_RULES.trendDays} days of scores files`, () => {
  bench(
    'old way: every file read and parsed (baseline)',
    async () => {
      await readScoresViewOldWay(warm, DAY);
    },
    RUN,
  );
  bench(
    'new way, cold: first rebuild of a store',
    async () => {
      await readScoresView(createFsStorage(folder), DAY);
    },
    RUN,
  );
  bench(
    'new way, warm: every later rebuild',
    async () => {
      await readScoresView(warm, DAY);
    },
    { ...RUN, iterations: 50 },
  );
});
