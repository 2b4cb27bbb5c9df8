// The day's scores file, days/<day>/scores.json: one entry per server checked that day, its whole quality
// score with its id. It sits in the day folder, so the day's seal covers it and score history is signed.
// Written once, when the day's scan folds (a re-run of the fold keeps the file the seal may already cover).
import type { ScoreResult, UptimeWindow, UptimeWindowName } from '@mcp-atlas/score';
import { z } from 'zod';
import { dayScoresPath } from '../data/paths.js';
import { DAY } from '../data/schemas.js';
import { getJsonOrNull, putJson, type Storage } from '../storage/storage.js';

const CategoryScoreSchema = z.number().min(0).max(100).nullable();
const BadgeSchema = z.object({ key: z.string(), label: z.string(), level: z.string() });

/** A ScoreResult of @mcp-atlas/score, as read back from a file. */
export const ScoreResultSchema = z.object({
  compositeScore: z.number().min(0).max(100).nullable(),
  grade: z.enum(['', 'A+', 'A', 'B', 'C', 'D', 'F']),
  visibilityLevel: z.enum(['complete', 'verified', 'assessed', 'limited', 'unscored']),
  dimensionsScored: z.number().int().nonnegative(),
  dimensionsApplicable: z.number().int().nonnegative(),
  categories: z.object({
    schemaQuality: CategoryScoreSchema,
    protocol: CategoryScoreSchema,
    reliability: CategoryScoreSchema,
    docsMaintenance: CategoryScoreSchema,
    security: CategoryScoreSchema,
    agentUsability: CategoryScoreSchema,
  }),
  flags: z.array(
    z.object({
      key: z.string(),
      severity: z.enum(['critical', 'warning']),
      label: z.string(),
      description: z.string(),
    }),
  ),
  badges: z.object({
    schema: z.array(BadgeSchema),
    protocol: z.array(BadgeSchema),
    reliability: z.array(BadgeSchema),
    maintenance: z.array(BadgeSchema),
    security: z.array(BadgeSchema),
  }),
  category: z.string(),
  targets: z.array(z.string()),
  publisher: z.string(),
  verifiedPublisher: z.boolean(),
});

const UptimeWindowSchema = z.object({
  uptimePct: z.number().min(0).max(100).nullable().describe('Answering checks over all checks, or null with none.'),
  checks: z.int().nonnegative().describe('Checks counted: daily, hourly and five-minute.'),
});

/** The uptime windows kept with a score: 24 hours, 7 days (the score's own) and 30 days, ending the scored day. */
export const UptimeWindowsSchema = z.object({
  last24h: UptimeWindowSchema,
  last7d: UptimeWindowSchema,
  last30d: UptimeWindowSchema,
});
export type UptimeWindows = Record<UptimeWindowName, UptimeWindow>;

/** One server's entry: its id, its whole score and its uptime windows (absent in files written before them). */
export const ServerScoreSchema = ScoreResultSchema.extend({
  serverId: z.string(),
  uptime: UptimeWindowsSchema.optional(),
});
export type ServerScore = z.infer<typeof ServerScoreSchema>;

/** The day's scores file. `errors` names servers our own code could not score (none on a normal day). */
export const DayScoresFileSchema = z.object({
  day: DAY,
  methodologyVersion: z.string(),
  /** When the scores were measured (the day's last second): the stale-data checks count from it. */
  scoredAt: z.string(),
  scores: z.array(ServerScoreSchema),
  errors: z.array(z.object({ serverId: z.string(), reason: z.string() })),
});
export type DayScoresFile = z.infer<typeof DayScoresFileSchema>;

/** A server's score as its entry keeps it, with its uptime windows when they were measured. */
export function serverScoreOf(serverId: string, result: ScoreResult, uptime?: UptimeWindows): ServerScore {
  return { serverId, ...result, ...(uptime !== undefined ? { uptime } : {}) };
}

/** Writes the day's scores file (atomic, through the storage layer), entries in server-id order. */
export async function writeDayScores(storage: Storage, file: DayScoresFile): Promise<void> {
  const scores = [...file.scores].sort((a, b) => a.serverId.localeCompare(b.serverId));
  await putJson(storage, dayScoresPath(file.day), { ...file, scores });
  const state = cacheOf(storage);
  state.days.delete(file.day);
  // Bumped after the put, so a read that started before it (and may hold the old bytes) is not cached, here or
  // in any cache kept from these files (the read model's trend points check it).
  state.writes.set(file.day, (state.writes.get(file.day) ?? 0) + 1);
}

// A sealed day's file never changes, so its parsed entries are kept. The bound covers the week the read model
// shows whole scores from (and the drop alert's look-back); older days of a trend are not kept whole, because a
// day holds a whole score per server (about 1.5 KB each: 5,000 servers x 40 days would be about 300 MB); the read
// model keeps their small trend points instead (view/score-view.ts). Least recently used goes first.
const CACHED_DAYS = 8;

interface DayScoresCache {
  /** Parsed days, least recently used first. */
  days: Map<string, Map<string, ServerScore>>;
  /** How many times this process wrote each day's file: a cache entry read before a write is stale. */
  writes: Map<string, number>;
}

const caches = new WeakMap<Storage, DayScoresCache>();

function cacheOf(storage: Storage): DayScoresCache {
  let state = caches.get(storage);
  if (state === undefined) {
    state = { days: new Map(), writes: new Map() };
    caches.set(storage, state);
  }
  return state;
}

/**
 * How many times this process has written `day`'s scores file to `storage` (0 when never). A cache of anything
 * read from the file takes it before reading and keeps what it read only while it is unchanged: a scores file is
 * rewritten only before its day is sealed (by a test or a re-run), and never by another process once it exists.
 */
export function dayScoresWritesOf(storage: Storage, day: string): number {
  return cacheOf(storage).writes.get(day) ?? 0;
}

/**
 * Reads and parses one day's scores file without any cache, by server id: null when the day has no scores file
 * or one that does not parse (an edited file is what `verify` reports; a page shows no score rather than a
 * wrong one). For callers that keep their own, smaller, cache of the day (the read model's trend points).
 */
export async function readDayScoresFile(storage: Storage, day: string): Promise<Map<string, ServerScore> | null> {
  const parsed = DayScoresFileSchema.safeParse(await getJsonOrNull(storage, dayScoresPath(day)));
  if (!parsed.success) return null;
  return new Map(parsed.data.scores.map((entry) => [entry.serverId, entry]));
}

/**
 * The scores of one day, by server id: empty when the day has no scores file, or one that does not parse. The
 * {@link CACHED_DAYS} most recently read days are kept parsed.
 */
export async function readDayScores(storage: Storage, day: string): Promise<Map<string, ServerScore>> {
  const { days } = cacheOf(storage);
  const cached = days.get(day);
  if (cached !== undefined) {
    days.delete(day);
    days.set(day, cached);
    return cached;
  }
  const writes = dayScoresWritesOf(storage, day);
  const scores = await readDayScoresFile(storage, day);
  if (scores === null) return new Map();
  if (dayScoresWritesOf(storage, day) !== writes) return scores;
  days.set(day, scores);
  if (days.size > CACHED_DAYS) days.delete(days.keys().next().value as string);
  return scores;
}

/** One point of a server's score trend. */
export interface ScoreTrendPoint {
  day: string;
  compositeScore: number | null;
  grade: ServerScore['grade'];
  visibilityLevel: ServerScore['visibilityLevel'];
  dimensionsScored: number;
  dimensionsApplicable: number;
}

/** The six fields of a server's score on `day` that its trend shows. */
export function trendPointOf(day: string, score: ServerScore): ScoreTrendPoint {
  return {
    day,
    compositeScore: score.compositeScore,
    grade: score.grade,
    visibilityLevel: score.visibilityLevel,
    dimensionsScored: score.dimensionsScored,
    dimensionsApplicable: score.dimensionsApplicable,
  };
}

/**
 * A server's score on each of `days` that has one, oldest first (days without a scores file or without the
 * server are left out). Pass the days to show, e.g. the 30 days ending today.
 *
 * @example readScoreTrend(storage, 'weather', ['2026-11-30', '2026-12-01']) // [{ day: '2026-11-30', compositeScore: 91, ... }, ...]
 */
export async function readScoreTrend(
  storage: Storage,
  serverId: string,
  days: readonly string[],
): Promise<ScoreTrendPoint[]> {
  const points: ScoreTrendPoint[] = [];
  for (const day of [...new Set(days)].sort()) {
    const entry = (await readDayScores(storage, day)).get(serverId);
    if (entry === undefined) continue;
    points.push(trendPointOf(day, entry));
  }
  return points;
}
