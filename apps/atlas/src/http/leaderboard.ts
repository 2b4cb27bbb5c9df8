// The quality-score leaderboard (GET /api/leaderboard and the /leaderboard page) and the `score` field of
// GET /api/servers/:id. The order is the score package's (tier, then composite), ids break ties; the scores are
// the days' signed scores files as the read model holds them. Schemas travel with their types, as in schemas.ts.
import { scoreInstantOf } from '@mcp-atlas/operations';
import { ageInDays } from '@mcp-atlas/score';
import { RELIABILITY_RULES } from '@mcp-atlas/score/rules';
import { z } from 'zod';
import { METHODOLOGY_VERSION } from '../methodology.js';
import { ScoreResultSchema, type ServerScore, UptimeWindowsSchema } from '../score/day-scores.js';
import { badgeListOf, compareScoredServers, gradeLabelOf, UPTIME_WINDOWS_PHRASE } from '../score/shown-score.js';
import type { AtlasView, ServerView } from '../view/build-view.js';
import { ServerDetailSchema } from './schemas.js';

/** Rows GET /api/leaderboard gives when no `limit` is asked for. */
export const LEADERBOARD_DEFAULT_LIMIT = 100;

/** The most rows one GET /api/leaderboard gives. */
export const LEADERBOARD_MAX_LIMIT = 1000;

const RANGE_TEXT = `must be a whole number from 1 to ${LEADERBOARD_MAX_LIMIT}`;

// A query arrives as text: whole numbers in decimal digits only, so "1e3" or " 5" are refused, not guessed at.
const LIMIT_TEXT = z
  .string()
  .regex(/^\d{1,4}$/, RANGE_TEXT)
  .transform(Number)
  .pipe(z.number().int().min(1, RANGE_TEXT).max(LEADERBOARD_MAX_LIMIT, RANGE_TEXT));
const OFFSET_TEXT = z
  .string()
  .regex(/^\d{1,7}$/, 'must be a whole number of rows to skip')
  .transform(Number);

/** GET /api/leaderboard: `limit` (1 to 1000, default 100) and `offset` (rows to skip, default 0). */
export const LeaderboardQuerySchema = z.strictObject({
  limit: LIMIT_TEXT.optional(),
  offset: OFFSET_TEXT.optional(),
});
export type LeaderboardQuery = z.infer<typeof LeaderboardQuerySchema>;

/**
 * The response header every API answer carries with the version of the methodology whose score rules made its
 * numbers (the score follows the open engine mcp-scoring-engine 0.9.0), so a consumer can tell a rescore by new
 * rules from a change of the server.
 */
export const SCORING_VERSION_HEADER = 'X-Scoring-Version';

/** The value of {@link SCORING_VERSION_HEADER}. */
export const SCORING_VERSION = METHODOLOGY_VERSION;

/** How fresh a score is, in the Scoreboard's field names. */
export const ScoreFreshnessSchema = z.object({
  last_scored_at: z
    .string()
    .nullable()
    .describe("When the score was measured (its day's last second, UTC), or null for a server not scored yet."),
  score_age_days: z
    .int()
    .nonnegative()
    .nullable()
    .describe('Whole days from `last_scored_at` to this answer, or null for a server not scored yet.'),
});
export type ScoreFreshness = z.infer<typeof ScoreFreshnessSchema>;

/**
 * The freshness of a score measured on `day`, as of `now`: measured at the day's last second, aged in whole days
 * (a day not yet over, as the demo's views of earlier instants may show, counts as 0).
 *
 * @example
 * scoreFreshnessOf('2026-12-01', new Date('2026-12-04T12:00:00Z')); // { last_scored_at: '2026-12-01T23:59:59Z', score_age_days: 2 }
 */
export function scoreFreshnessOf(day: string | null, now: Date): ScoreFreshness {
  if (day === null) return { last_scored_at: null, score_age_days: null };
  const at = scoreInstantOf(day);
  return { last_scored_at: at, score_age_days: Math.max(0, ageInDays(at, now.toISOString()) ?? 0) };
}

/** A flag as the leaderboard lists it (the server's `score` has its description). */
const LeaderboardFlagSchema = z.object({
  key: z.string(),
  severity: z.enum(['critical', 'warning']),
  label: z.string(),
});

/** A badge as the leaderboard lists it: the score's badge with the group it sits in. */
const LeaderboardBadgeSchema = z.object({
  group: z.enum(['schema', 'protocol', 'reliability', 'maintenance', 'security']),
  key: z.string(),
  label: z.string(),
  level: z.string().describe('good, neutral, warning or critical.'),
});

/** One row of the leaderboard. */
export const LeaderboardRowSchema = z.object({
  rank: z.int().min(1).describe('Place on the leaderboard, from 1.'),
  id: z.string(),
  title: z.string().nullable(),
  url: z.string(),
  grade: ScoreResultSchema.shape.grade.describe("The letter grade, or '' without a composite."),
  gradeLabel: z.string().describe('The grade with its dimensions scored out of applicable, such as "A (5/5)".'),
  compositeScore: z.number().nullable().describe('The 0-100 composite after flag caps, or null when unscored.'),
  visibilityLevel: ScoreResultSchema.shape.visibilityLevel,
  dimensionsScored: z.int(),
  dimensionsApplicable: z.int(),
  flags: z.array(LeaderboardFlagSchema),
  badges: z.array(LeaderboardBadgeSchema).describe("The score's badges, group by group."),
  scoredDay: z.string().nullable().describe('The day the score was measured, or null for a server not scored yet.'),
  ...ScoreFreshnessSchema.shape,
});
export type LeaderboardRow = z.infer<typeof LeaderboardRowSchema>;

/** GET /api/leaderboard. */
export const LeaderboardSchema = z.object({
  day: z.string().nullable().describe('The newest scanned day.'),
  total: z.int().describe('Servers on the leaderboard: every server on the map.'),
  offset: z.int(),
  limit: z.int(),
  servers: z.array(LeaderboardRowSchema),
});
export type Leaderboard = z.infer<typeof LeaderboardSchema>;

/** GET /api/servers/:id: the server with its quality score. */
export const ServerDetailWithScoreSchema = ServerDetailSchema.extend({
  score: ScoreResultSchema.nullable().describe(
    "The server's newest quality score (the Scoreboard's composite, grade, tier, categories, flags, badges), or null when it has not been scored.",
  ),
  scoredDay: z.string().nullable().describe('The day `score` was measured (its signed scores file), or null.'),
  ...ScoreFreshnessSchema.shape,
  scoreUptime: UptimeWindowsSchema.nullable().describe(
    `${UPTIME_WINDOWS_PHRASE} ending the scored day, over every daily, hourly and five-minute check; the ${RELIABILITY_RULES.windowDays}-day one is the score’s. Null when not scored, or scored before the windows were kept.`,
  ),
});
export type ServerDetailWithScore = z.infer<typeof ServerDetailWithScoreSchema>;

/** A server's newest quality score in the read model, with its day; null when it has none. */
export function scoreOf(view: AtlasView, serverId: string): { day: string; score: ServerScore } | null {
  return view.scores.latest.get(serverId) ?? null;
}

/** A stored score without its server id: the ScoreResult of the score package, as the API gives it. */
export function presentScore(score: ServerScore | null): z.infer<typeof ScoreResultSchema> | null {
  if (score === null) return null;
  const { serverId: _id, uptime: _uptime, ...result } = score;
  return result;
}

/** A row as cached with its view: everything but the freshness, which moves with the clock. */
export type LeaderboardPlace = Omit<LeaderboardRow, keyof ScoreFreshness>;

function rowOf(view: AtlasView, server: ServerView, rank: number): LeaderboardPlace {
  const scored = scoreOf(view, server.id);
  const score = scored?.score ?? null;
  return {
    rank,
    id: server.id,
    title: server.title,
    url: server.url,
    grade: score?.grade ?? '',
    gradeLabel: score === null ? 'not scored yet' : gradeLabelOf(score),
    compositeScore: score?.compositeScore ?? null,
    visibilityLevel: score?.visibilityLevel ?? 'unscored',
    dimensionsScored: score?.dimensionsScored ?? 0,
    dimensionsApplicable: score?.dimensionsApplicable ?? 0,
    flags: (score?.flags ?? []).map((f) => ({ key: f.key, severity: f.severity, label: f.label })),
    badges: score === null ? [] : badgeListOf(score.badges),
    scoredDay: scored?.day ?? null,
  };
}

// The view never changes once built, so its order is computed once and reused until the next view.
const ordered = new WeakMap<AtlasView, LeaderboardPlace[]>();

/**
 * Every server on the map in leaderboard order: tier (complete, verified, assessed, limited, unscored; a server
 * without a score counts as unscored), then composite, higher first, then id.
 */
export function leaderboardRowsOf(view: AtlasView): LeaderboardPlace[] {
  let rows = ordered.get(view);
  if (rows === undefined) {
    const sorted = view.servers
      .map((server) => ({ id: server.id, server, score: scoreOf(view, server.id)?.score ?? null }))
      .sort(compareScoredServers);
    rows = sorted.map((entry, index) => rowOf(view, entry.server, index + 1));
    ordered.set(view, rows);
  }
  return rows;
}

/** One page of the leaderboard, as GET /api/leaderboard answers at `now`. */
export function presentLeaderboard(view: AtlasView, query: LeaderboardQuery, now: Date): Leaderboard {
  const rows = leaderboardRowsOf(view);
  const limit = query.limit ?? LEADERBOARD_DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const servers = rows
    .slice(offset, offset + limit)
    .map((row) => ({ ...row, ...scoreFreshnessOf(row.scoredDay, now) }));
  return { day: view.day, total: rows.length, offset, limit, servers };
}
