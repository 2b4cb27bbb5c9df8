// The quality scores in the read model: each server's newest score and its trend, read once per view from the
// days' scores files (days/<day>/scores.json, covered by each day's seal). The pages and the API show them from
// here, as they show everything else from the view. A rebuild parses only the days it has not seen: each day's
// trend points are kept (see SCORE_TREND_CACHED_DAYS), and the shown week's whole scores are kept by readDayScores.
import { shiftDay } from '@mcp-atlas/base';
import { firstShownScoreDay } from '@mcp-atlas/operations';
import { DAILY_SCORE_RULES, SHOWN_SCORE_RULES } from '@mcp-atlas/operations/rules';
import { type ScoreDrop, scoreDropsOf } from '@mcp-atlas/score';
import {
  dayScoresWritesOf,
  readDayScores,
  readDayScoresFile,
  type ScoreTrendPoint,
  type ServerScore,
  trendPointOf,
} from '../score/day-scores.js';
import type { Storage } from '../storage/storage.js';

/**
 * Days of trend points kept per store: the trend's window, plus ten days so that views of nearby newest days (a
 * rebuild after midnight, the demo's views of earlier instants) do not push out each other's days. A point is the
 * six small fields of {@link ScoreTrendPoint}, its map entry and its server id, about 150 bytes on the heap
 * (bench/score-trend.bench.ts measured 146), so 5,000 servers x 40 days is about 30 MB. Whole scores take 1.5 to
 * 2 KB each on the heap (the benchmark's took 1.9 KB), which for the same days would be 300 to 400 MB.
 */
export const SCORE_TREND_CACHED_DAYS = SHOWN_SCORE_RULES.trendDays + 10;

/** The scores part of the read model. */
export interface ScoresView {
  /** Each server's newest score within `SHOWN_SCORE_RULES.maxDays` (@mcp-atlas/operations), with the day it is from. */
  latest: Map<string, { day: string; score: ServerScore }>;
  /** Each server's scores over the last `SHOWN_SCORE_RULES.trendDays` days, oldest first. */
  trends: Map<string, ScoreTrendPoint[]>;
  /** Every server's score drops within its trend, newest day first (then the largest drop, then the id). */
  drops: ServerScoreDrop[];
}

/** One score drop of the public feed, with its server. */
export interface ServerScoreDrop extends ScoreDrop {
  serverId: string;
}

/** A read model without scores (before the first scan). */
export function emptyScoresView(): ScoresView {
  return { latest: new Map(), trends: new Map(), drops: [] };
}

/**
 * Every server's drops within its trend, by the score package's rule (a fall of 10 points or more from the
 * newest scored day before, at most `DAILY_SCORE_RULES.dropLookbackDays` back), newest first.
 */
export function scoreDropsOfTrends(trends: ReadonlyMap<string, readonly ScoreTrendPoint[]>): ServerScoreDrop[] {
  const drops: ServerScoreDrop[] = [];
  for (const [serverId, trend] of trends)
    for (const drop of scoreDropsOf(trend, DAILY_SCORE_RULES.dropLookbackDays)) drops.push({ serverId, ...drop });
  return drops.sort((a, b) => b.day.localeCompare(a.day) || b.drop - a.drop || a.serverId.localeCompare(b.serverId));
}

interface CachedTrendDay {
  /** The day's file writes (dayScoresWritesOf) when it was read: a later write makes the entry stale. */
  writes: number;
  points: Map<string, ScoreTrendPoint>;
}

// Per store, each day's trend points by server id, least recently used first. A sealed day's file never changes,
// so its points never go stale; a day rewritten before its seal is read again (its writes count moved).
const trendCaches = new WeakMap<Storage, Map<string, CachedTrendDay>>();

function trendCacheOf(storage: Storage): Map<string, CachedTrendDay> {
  let days = trendCaches.get(storage);
  if (days === undefined) {
    days = new Map();
    trendCaches.set(storage, days);
  }
  return days;
}

/** The days whose trend points are kept for `storage`, least recently used first (the tests hold it to its bound). */
export function cachedTrendDaysOf(storage: Storage): string[] {
  return [...trendCacheOf(storage).keys()];
}

function pointsOf(day: string, scores: Map<string, ServerScore>): Map<string, ScoreTrendPoint> {
  const points = new Map<string, ScoreTrendPoint>();
  for (const [id, score] of scores) points.set(id, trendPointOf(day, score));
  return points;
}

/**
 * One day's trend points, from the cache or read once. `writes` is the day's writes count taken before `scores`
 * was read: `scores` is the day's whole scores when the caller already has them (the shown week); otherwise the
 * file is read here, around the whole-score cache, so that older days do not push the shown week out of it. A day
 * without a file, with one that does not parse, or without scores, is not kept (its file may yet be written).
 */
async function readDayTrendPoints(
  storage: Storage,
  day: string,
  writes: number,
  scores: Map<string, ServerScore> | null,
): Promise<Map<string, ScoreTrendPoint>> {
  const days = trendCacheOf(storage);
  const cached = days.get(day);
  days.delete(day);
  if (cached !== undefined && cached.writes === dayScoresWritesOf(storage, day)) {
    days.set(day, cached);
    return cached.points;
  }
  const read = scores ?? (await readDayScoresFile(storage, day));
  if (read === null || read.size === 0) return new Map();
  const points = pointsOf(day, read);
  // A write that landed while the file was read leaves this entry stale at once, so the next rebuild reads again.
  days.set(day, { writes, points });
  while (days.size > SCORE_TREND_CACHED_DAYS) days.delete(days.keys().next().value as string);
  return points;
}

/**
 * Reads the scores of the `SHOWN_SCORE_RULES.trendDays` days ending `day` (the view's newest scanned day) once, for
 * every server: the trends, and each server's newest score of the shown window (`firstShownScoreDay` of
 * @mcp-atlas/operations: the last `SHOWN_SCORE_RULES.maxDays` days). A day without a scores file, or with one that
 * does not parse, adds nothing.
 */
export async function readScoresView(storage: Storage, day: string | null): Promise<ScoresView> {
  const view = emptyScoresView();
  if (day === null) return view;
  const shownFrom = firstShownScoreDay(day);
  for (let back = SHOWN_SCORE_RULES.trendDays - 1; back >= 0; back--) {
    const scoredDay = shiftDay(day, -back);
    // Taken before any read of the day, so points from a read that a write overtook are not kept as current.
    const writes = dayScoresWritesOf(storage, scoredDay);
    const scores = scoredDay >= shownFrom ? await readDayScores(storage, scoredDay) : null;
    for (const [id, point] of await readDayTrendPoints(storage, scoredDay, writes, scores)) {
      const trend = view.trends.get(id);
      if (trend === undefined) view.trends.set(id, [point]);
      else trend.push(point);
    }
    for (const [id, score] of scores ?? []) view.latest.set(id, { day: scoredDay, score });
  }
  view.drops = scoreDropsOfTrends(view.trends);
  return view;
}
