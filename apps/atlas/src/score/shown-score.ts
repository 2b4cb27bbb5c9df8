// How a quality score is shown: the "A (5/5)" label, the dimension checklist (scored, pending, not applicable)
// and what would raise the composite most. Every number comes from @mcp-atlas/score (its composite with its
// dimension gate and caps, `computeCappedComposite`, and its checklist); the best category score tried comes from
// @mcp-atlas/operations' SHOWN_SCORE_RULES. This file only asks "what if" and chooses the words. The API, the pages
// and `check` share it.
import { SHOWN_SCORE_RULES } from '@mcp-atlas/operations/rules';
import {
  applicableDimensions,
  type Badge,
  type BadgeGroup,
  compareForLeaderboard,
  computeCappedComposite,
  DIMENSIONS,
  type Dimension,
  type DimensionStatus,
  dimensionChecklist,
  type ScoreResult,
  type VisibilityLevel,
} from '@mcp-atlas/score';
import { RELIABILITY_RULES, SCHEMA_QUALITY_RULES, VISIBILITY_RULES } from '@mcp-atlas/score/rules';

/** The words for each dimension, in the order the score lists them. */
export const DIMENSION_LABELS: Readonly<Record<Dimension, string>> = Object.freeze({
  schemaQuality: 'schema quality',
  protocol: 'protocol',
  reliability: 'reliability',
  docsMaintenance: 'docs and maintenance',
  security: 'security',
  agentUsability: 'agent usability',
});

const HOURS_PER_DAY = 24;
const WINDOW_DAYS = RELIABILITY_RULES.uptimeWindowDays;

/** Each uptime window's span in words, from the score's window lengths: "24 hours", "7 days", "30 days". */
export const UPTIME_WINDOW_SPANS = Object.freeze({
  last24h: `${WINDOW_DAYS.last24h * HOURS_PER_DAY} hours`,
  last7d: `${WINDOW_DAYS.last7d} days`,
  last30d: `${WINDOW_DAYS.last30d} days`,
});

/** The three windows as one phrase, "the 24-hour, 7-day and 30-day uptime". */
export const UPTIME_WINDOWS_PHRASE = `the ${WINDOW_DAYS.last24h * HOURS_PER_DAY}-hour, ${WINDOW_DAYS.last7d}-day and ${WINDOW_DAYS.last30d}-day uptime`;

/** The badge groups in the order the pages show them, with their headings. */
export const BADGE_GROUP_LABELS: Readonly<Record<BadgeGroup, string>> = Object.freeze({
  schema: 'schema',
  protocol: 'protocol',
  reliability: 'reliability',
  maintenance: 'maintenance',
  security: 'security',
});

/** A score's badges in one list, each with its group, in the pages' group order. */
export function badgeListOf(badges: ScoreResult['badges']): (Badge & { group: BadgeGroup })[] {
  return (Object.keys(BADGE_GROUP_LABELS) as BadgeGroup[]).flatMap((group) =>
    badges[group].map((badge) => ({ group, ...badge })),
  );
}

/** What each visibility tier means, in a few words. */
export const VISIBILITY_DESCRIPTIONS: Readonly<Record<VisibilityLevel, string>> = Object.freeze({
  complete: 'every applicable dimension scored, agent usability included',
  verified: 'every applicable dimension scored, protocol from a live session',
  assessed: 'every applicable dimension scored, without a live session',
  limited: 'some applicable dimensions still pending',
  unscored: `fewer than ${VISIBILITY_RULES.minDimensionsForComposite} dimensions scored, so no composite`,
});

/**
 * Where a score was measured, which decides the dimensions that apply to it (the score package's
 * `applicableDimensions` reads the same three facts).
 */
export interface ScoreScope {
  isRemote: boolean;
  hasSandboxProbe: boolean;
  /** True when reliability data was given to the score at all, even too little to score. */
  hasReliabilityData: boolean;
}

/**
 * The scope of every score the observatory keeps: a remote endpoint, no sandbox, reliability data always given
 * (the daily scoring passes the week's checks, whatever their count).
 */
export const ATLAS_SCORE_SCOPE: ScoreScope = Object.freeze({
  isRemote: true,
  hasSandboxProbe: false,
  hasReliabilityData: true,
});

/**
 * The grade with its "n/m dimensions" indicator, as the leaderboard shows it: "A (5/5)", or "no grade (1/5)"
 * for a server with too few dimensions for a composite.
 *
 * @example gradeLabelOf({ grade: 'A', dimensionsScored: 3, dimensionsApplicable: 5 }) // 'A (3/5)'
 */
export function gradeLabelOf(score: Pick<ScoreResult, 'grade' | 'dimensionsScored' | 'dimensionsApplicable'>): string {
  return `${score.grade === '' ? 'no grade' : score.grade} (${score.dimensionsScored}/${score.dimensionsApplicable})`;
}

/** One line of the dimension checklist. */
export interface ChecklistEntry {
  dimension: Dimension;
  label: string;
  status: DimensionStatus;
  /** The category score (0-100), or null when not scored. */
  score: number | null;
}

/** The dimension checklist of a score: every dimension with its status and score, in the score's order. */
export function checklistOf(score: Pick<ScoreResult, 'categories'>, scope: ScoreScope): ChecklistEntry[] {
  const applicable = applicableDimensions({ ...scope, hasAgentUsability: score.categories.agentUsability != null });
  const statuses = dimensionChecklist(score.categories, applicable);
  return DIMENSIONS.map((dimension) => ({
    dimension,
    label: DIMENSION_LABELS[dimension],
    status: statuses[dimension],
    score: score.categories[dimension],
  }));
}

/** One thing that would raise the composite, and by how many points at most. */
export interface ScoreRaiser {
  /** A dimension still pending, a scored category below the best, or a flag that caps or lowers the score. */
  kind: 'pending' | 'category' | 'flag';
  /** The dimension or the flag key. */
  key: string;
  /** What to do, in words. */
  label: string;
  /** The composite it would give. */
  to: number;
  /** How many points that adds to the composite (from 0 for a server without one). */
  points: number;
}

type Categories = ScoreResult['categories'];

// Removing the template-description flag gives schema quality back its penalty; a capping flag lifts its cap.
function withoutFlag(score: ScoreResult, key: string): { categories: Categories; flags: ScoreResult['flags'] } {
  const flags = score.flags.filter((f) => f.key !== key);
  const quality = score.categories.schemaQuality;
  if (key !== 'TEMPLATE_DESCRIPTION' || quality == null) return { categories: score.categories, flags };
  const restored = Math.min(
    SHOWN_SCORE_RULES.bestCategoryScore,
    quality + SCHEMA_QUALITY_RULES.templateDescriptionPenalty,
  );
  return { categories: { ...score.categories, schemaQuality: restored }, flags };
}

/**
 * What would raise the composite, most points first: each pending dimension scored at its best, each scored
 * category brought to its best, each flag that caps the composite (or, for a template description, lowers schema
 * quality) cleared. Changes that add nothing are left out; ties keep pending, then flags, then categories.
 *
 * @example scoreRaisersOf(score, ATLAS_SCORE_SCOPE)[0] // { kind: 'pending', key: 'docsMaintenance', points: 6, ... }
 */
export function scoreRaisersOf(score: ScoreResult, scope: ScoreScope): ScoreRaiser[] {
  const from = score.compositeScore ?? 0;
  const raisers: ScoreRaiser[] = [];
  const add = (kind: ScoreRaiser['kind'], key: string, label: string, to: number | null) => {
    if (to !== null && to > from) raisers.push({ kind, key, label, to, points: to - from });
  };
  for (const entry of checklistOf(score, scope)) {
    const best = { ...score.categories, [entry.dimension]: SHOWN_SCORE_RULES.bestCategoryScore };
    if (entry.status === 'pending')
      add('pending', entry.dimension, `${entry.label} is still pending`, computeCappedComposite(best, score.flags));
    else if (entry.status === 'scored' && (entry.score ?? 0) < SHOWN_SCORE_RULES.bestCategoryScore)
      add('category', entry.dimension, `${entry.label} at ${entry.score}`, computeCappedComposite(best, score.flags));
  }
  for (const flag of score.flags) {
    const cleared = withoutFlag(score, flag.key);
    add('flag', flag.key, flag.label, computeCappedComposite(cleared.categories, cleared.flags));
  }
  const order = { pending: 0, flag: 1, category: 2 };
  return raisers.sort((a, b) => b.points - a.points || order[a.kind] - order[b.kind] || a.key.localeCompare(b.key));
}

/**
 * The leaderboard's order over scores that may be missing: better tier first (a missing score counts as
 * unscored), then higher composite, then id, so the order never depends on the input's.
 */
export function compareScoredServers(
  a: { id: string; score: Pick<ScoreResult, 'visibilityLevel' | 'compositeScore'> | null },
  b: { id: string; score: Pick<ScoreResult, 'visibilityLevel' | 'compositeScore'> | null },
): number {
  const unscored = { visibilityLevel: 'unscored' as const, compositeScore: null };
  return compareForLeaderboard(a.score ?? unscored, b.score ?? unscored) || a.id.localeCompare(b.id);
}
