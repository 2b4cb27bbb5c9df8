// The read model's score trend kept as small per-day points: against a real folder store holding 45 days of scores
// files, a rebuild gives the same trends and newest scores as reading every file afresh, a second rebuild reads no
// scores file, a day rewritten before its seal (the newest, or an older one) shows in the next rebuild, a write that
// overtakes a read in flight is not hidden by what that read kept, and the kept days never pass their bound.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shiftDay } from '@mcp-atlas/base';
import { SHOWN_SCORE_RULES } from '@mcp-atlas/operations/rules';
import type { VisibilityLevel } from '@mcp-atlas/score';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dayScoresPath } from '../src/data/paths.js';
import { readDayScoresFile, type ServerScore, trendPointOf } from '../src/score/day-scores.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import type { Storage } from '../src/storage/storage.js';
import {
  cachedTrendDaysOf,
  readScoresView,
  SCORE_TREND_CACHED_DAYS,
  type ScoresView,
  scoreDropsOfTrends,
} from '../src/view/score-view.js';
import { handScore, writeScores } from './fixtures/score-files.js';

const FIRST_DAY = '2026-10-01';
const DAY_COUNT = 45;
const LAST_DAY = shiftDay(FIRST_DAY, DAY_COUNT - 1); // 2026-11-14
const SERVERS = 24;
const LEVELS: VisibilityLevel[] = ['complete', 'verified', 'assessed', 'limited', 'unscored'];

/** Server i's score on the d-th day, or null on the days the cost cap skipped it (some days, for some servers). */
function scoreOf(i: number, d: number, shift = 0): ServerScore | null {
  if ((i * d) % 13 === 5) return null;
  const composite = (i + d) % 11 === 0 ? null : (i * 7 + d * 3 + shift) % 101;
  return handScore(
    `server-${String(i).padStart(2, '0')}`,
    LEVELS[(i + d) % LEVELS.length] as VisibilityLevel,
    composite,
    {
      dimensionsScored: (i + d) % 6,
      dimensionsApplicable: 6,
    },
  );
}

/** Server i's composite on the d-th day; the test's servers and days are picked where it is a number. */
function compositeOf(i: number, d: number, shift = 0): number {
  const composite = scoreOf(i, d, shift)?.compositeScore;
  if (typeof composite !== 'number') throw new Error(`server ${i} has no composite on day ${d}`);
  return composite;
}

/** The composite a view shows on `day` in server i's trend. */
function trendCompositeOf(view: ScoresView, i: number, day: string): number | null | undefined {
  return view.trends.get(`server-${String(i).padStart(2, '0')}`)?.find((p) => p.day === day)?.compositeScore;
}

function scoresOfDay(d: number, shift = 0): ServerScore[] {
  return Array.from({ length: SERVERS }, (_, i) => scoreOf(i, d, shift)).filter((s) => s !== null);
}

/** A storage that counts reads of scores files and can hold one path's read after its bytes are fetched. */
interface CountingStorage extends Storage {
  scoreReads: number;
  /** Holds the next read of `path` once its bytes are in hand; `fetched` resolves then, `release()` lets it go. */
  holdNextRead(path: string): { fetched: Promise<void>; release: () => void };
}

function countScoreReads(inner: Storage): CountingStorage {
  let held: { path: string; fetched: () => void; released: Promise<void> } | null = null;
  const storage: CountingStorage = {
    scoreReads: 0,
    async get(path) {
      if (path.endsWith('/scores.json')) storage.scoreReads++;
      const bytes = await inner.get(path);
      if (held !== null && held.path === path) {
        const { fetched, released } = held;
        held = null;
        fetched();
        await released;
      }
      return bytes;
    },
    put: (path, bytes) => inner.put(path, bytes),
    list: (prefix) => inner.list(prefix),
    createRoot: (day, makeRoot) => inner.createRoot(day, makeRoot),
    delete: (path) => inner.delete(path),
    append: (path, bytes) => inner.append(path, bytes),
    createIfAbsent: (path, bytes) => inner.createIfAbsent(path, bytes),
    holdNextRead(path) {
      let fetched!: () => void;
      let release!: () => void;
      const fetchedPromise = new Promise<void>((resolve) => {
        fetched = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      held = { path, fetched, released };
      return { fetched: fetchedPromise, release };
    },
  };
  return storage;
}

/** The read model's scores as read from every file afresh, with no cache: what the cached rebuild must equal. */
async function scoresViewUncached(storage: Storage, day: string): Promise<ScoresView> {
  const view: ScoresView = { latest: new Map(), trends: new Map(), drops: [] };
  for (let back = SHOWN_SCORE_RULES.trendDays - 1; back >= 0; back--) {
    const scoredDay = shiftDay(day, -back);
    for (const [id, score] of (await readDayScoresFile(storage, scoredDay)) ?? new Map<string, ServerScore>()) {
      view.trends.set(id, [...(view.trends.get(id) ?? []), trendPointOf(scoredDay, score)]);
      if (back < SHOWN_SCORE_RULES.maxDays) view.latest.set(id, { day: scoredDay, score });
    }
  }
  view.drops = scoreDropsOfTrends(view.trends);
  return view;
}

/** Equal content and equal order of servers (the pages list trends in the view's order). */
function expectSameView(actual: ScoresView, expected: ScoresView): void {
  expect([...actual.trends.keys()]).toEqual([...expected.trends.keys()]);
  expect([...actual.latest.keys()]).toEqual([...expected.latest.keys()]);
  expect(Object.fromEntries(actual.trends)).toEqual(Object.fromEntries(expected.trends));
  expect(Object.fromEntries(actual.latest)).toEqual(Object.fromEntries(expected.latest));
}

let scratch: string;
let folder: string;
let storage: CountingStorage;

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'atlas-score-trend-'));
  folder = join(scratch, 'data');
  const writer = createFsStorage(folder);
  for (let d = 0; d < DAY_COUNT; d++) await writeScores(writer, shiftDay(FIRST_DAY, d), scoresOfDay(d));
  // A fresh storage object per test: the caches are kept per storage, so each test starts cold.
  storage = countScoreReads(createFsStorage(folder));
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the score trend cache', () => {
  it('gives the same trends and newest scores as reading every file afresh, cold and warm', async () => {
    const expected = await scoresViewUncached(createFsStorage(folder), LAST_DAY);
    expect(expected.trends.size).toBe(SERVERS);
    // Some servers have a day missing in the window, so trends differ in length: the check is not trivial.
    expect(new Set([...expected.trends.values()].map((t) => t.length)).size).toBeGreaterThan(1);
    expectSameView(await readScoresView(storage, LAST_DAY), expected);
    expectSameView(await readScoresView(storage, LAST_DAY), expected);
  });

  it('reads each scores file of the window once, then none on a second rebuild, then only a new day', async () => {
    const newest = shiftDay(LAST_DAY, -1);
    await readScoresView(storage, newest);
    expect(storage.scoreReads).toBe(SHOWN_SCORE_RULES.trendDays);
    storage.scoreReads = 0;
    await readScoresView(storage, newest);
    expect(storage.scoreReads).toBe(0);
    // The next day's rebuild reads the one day that joined the window.
    expectSameView(
      await readScoresView(storage, LAST_DAY),
      await scoresViewUncached(createFsStorage(folder), LAST_DAY),
    );
    expect(storage.scoreReads).toBe(1); // the reference view reads through a storage of its own
  });

  it('shows a rewritten unsealed day in the next rebuild, the newest day and an older one', async () => {
    const older = shiftDay(LAST_DAY, -20); // outside the shown week: only its trend points are kept
    await readScoresView(storage, LAST_DAY);
    await writeScores(storage, LAST_DAY, scoresOfDay(DAY_COUNT - 1, 40));
    await writeScores(storage, older, scoresOfDay(DAY_COUNT - 21, 40));
    storage.scoreReads = 0;
    const view = await readScoresView(storage, LAST_DAY);
    expect(storage.scoreReads).toBe(2);
    expectSameView(view, await scoresViewUncached(createFsStorage(folder), LAST_DAY));
    expect(compositeOf(3, 44, 40)).not.toBe(compositeOf(3, 44));
    expect(trendCompositeOf(view, 3, LAST_DAY)).toBe(compositeOf(3, 44, 40));
    expect(trendCompositeOf(view, 3, older)).toBe(compositeOf(3, 24, 40));
    expect(view.latest.get('server-03')?.score.compositeScore).toBe(compositeOf(3, 44, 40));
  });

  it('does not keep what a read in flight saw when a write overtakes it', async () => {
    // The newest day (kept whole and as points) and an older one (kept as points only), each on a cold store.
    for (const back of [0, 20]) {
      const cold = countScoreReads(createFsStorage(folder));
      const day = shiftDay(LAST_DAY, -back);
      const d = DAY_COUNT - 1 - back;
      const hold = cold.holdNextRead(dayScoresPath(day));
      const building = readScoresView(cold, LAST_DAY);
      await Promise.race([hold.fetched, building.then(() => Promise.reject(new Error('the day was never read')))]);
      await writeScores(cold, day, scoresOfDay(d, 50 + back)); // the old bytes are in hand, the new ones land
      hold.release();
      await building;
      expect(compositeOf(3, d, 50 + back)).not.toBe(compositeOf(3, d));
      expect(trendCompositeOf(await readScoresView(cold, LAST_DAY), 3, day)).toBe(compositeOf(3, d, 50 + back));
      if (back === 0) {
        const latest = (await readScoresView(cold, LAST_DAY)).latest.get('server-03')?.score.compositeScore;
        expect(latest).toBe(compositeOf(3, d, 50 + back));
      }
      expectSameView(await readScoresView(cold, LAST_DAY), await scoresViewUncached(createFsStorage(folder), LAST_DAY));
    }
  });

  it('never keeps more days than its bound, and keeps the newest view whole', async () => {
    expect(SCORE_TREND_CACHED_DAYS).toBeGreaterThanOrEqual(SHOWN_SCORE_RULES.trendDays);
    // Views of every newest day from the 30th to the 45th file touch 45 days, more than the bound.
    for (let d = SHOWN_SCORE_RULES.trendDays - 1; d < DAY_COUNT; d++) {
      await readScoresView(storage, shiftDay(FIRST_DAY, d));
      expect(cachedTrendDaysOf(storage).length).toBeLessThanOrEqual(SCORE_TREND_CACHED_DAYS);
    }
    expect(cachedTrendDaysOf(storage).length).toBe(SCORE_TREND_CACHED_DAYS);
    expect(cachedTrendDaysOf(storage)).toEqual(
      expect.arrayContaining(
        Array.from({ length: SHOWN_SCORE_RULES.trendDays }, (_, back) => shiftDay(LAST_DAY, -back)),
      ),
    );
    // The oldest days went first: the first five files are no longer kept.
    expect(cachedTrendDaysOf(storage)).not.toContain(shiftDay(FIRST_DAY, 4));
    storage.scoreReads = 0;
    await readScoresView(storage, LAST_DAY);
    expect(storage.scoreReads).toBe(0);
  });
});
