/**
 * Which dimensions apply to a server, how many are scored, and the visibility tier that says how much
 * of the score rests on measurement. Pure module: no I/O, no clock.
 */

import type { CategoryScores, VisibilityLevel } from './types.js';

/** The six dimensions, in the order the engine lists them. */
export const DIMENSIONS = Object.freeze([
  'schemaQuality',
  'protocol',
  'reliability',
  'docsMaintenance',
  'security',
  'agentUsability',
] as const);

/** One of the six dimensions (the keys of CategoryScores). */
export type Dimension = (typeof DIMENSIONS)[number];

/**
 * Visibility tiers, best first: a leaderboard sorts by this order, then by composite. complete: every
 * applicable dimension plus agent usability; verified: every applicable standard dimension with live
 * probe data; assessed: every applicable standard dimension without a live probe; limited: two or more
 * dimensions scored but not all applicable ones; unscored: 0 or 1 dimension, no composite.
 */
export const VISIBILITY_LEVELS: readonly VisibilityLevel[] = Object.freeze([
  'complete',
  'verified',
  'assessed',
  'limited',
  'unscored',
]);

/** Fewest scored dimensions for a composite and a grade (engine 0.9.0: 2); fewer is unscored. */
export const MIN_DIMENSIONS_FOR_COMPOSITE = 2;

/** What applicability depends on. */
export interface ApplicabilityInput {
  isRemote: boolean;
  hasSandboxProbe: boolean;
  /** True when reliability data was given at all (even if it scored nothing). */
  hasReliabilityData: boolean;
  hasAgentUsability: boolean;
}

/**
 * Which dimensions apply (engine 0.9.0): schema quality, docs and maintenance and security always;
 * protocol for a remote server or one with a sandbox probe; reliability for a remote server with
 * reliability data; agent usability only when an evaluation exists. A local server without a sandbox
 * probe therefore has 3; a remote one with history 5; with agent usability 6.
 */
export function applicableDimensions(input: ApplicabilityInput): Record<Dimension, boolean> {
  return {
    schemaQuality: true,
    protocol: input.isRemote || input.hasSandboxProbe,
    reliability: input.isRemote && input.hasReliabilityData,
    docsMaintenance: true,
    security: true,
    agentUsability: input.hasAgentUsability,
  };
}

/** Everything decideVisibility needs. */
export interface VisibilityInput extends Omit<ApplicabilityInput, 'hasAgentUsability'> {
  categories: CategoryScores;
  /** True when a deep probe (a live session) was given; with a sandbox probe it is the "live probe". */
  hasDeepProbe: boolean;
}

/** The tier and the "n/m dimensions" indicator. */
export interface Visibility {
  visibilityLevel: VisibilityLevel;
  dimensionsScored: number;
  dimensionsApplicable: number;
  applicable: Record<Dimension, boolean>;
}

/**
 * Decides the tier (engine 0.9.0). dimensionsScored counts every non-null category, applicable or
 * not (a local server scored on protocol by other means can show 4/3, as the engine does);
 * dimensionsApplicable counts the applicable ones. The live probe needs a protocol score and either a
 * deep probe or a sandbox probe.
 */
export function decideVisibility(input: VisibilityInput): Visibility {
  const { categories } = input;
  const hasAgentUsability = categories.agentUsability != null;
  const applicable = applicableDimensions({ ...input, hasAgentUsability });
  const standard = DIMENSIONS.filter((d) => d !== 'agentUsability');
  const allApplicableFilled = standard.every((d) => !applicable[d] || categories[d] != null);
  const dimensionsScored = DIMENSIONS.filter((d) => categories[d] != null).length;
  const dimensionsApplicable = DIMENSIONS.filter((d) => applicable[d]).length;
  const hasLiveProbe = categories.protocol != null && (input.hasDeepProbe || input.hasSandboxProbe);

  let visibilityLevel: VisibilityLevel;
  if (allApplicableFilled && hasAgentUsability) visibilityLevel = 'complete';
  else if (allApplicableFilled && hasLiveProbe) visibilityLevel = 'verified';
  else if (allApplicableFilled) visibilityLevel = 'assessed';
  else if (dimensionsScored >= MIN_DIMENSIONS_FOR_COMPOSITE) visibilityLevel = 'limited';
  else visibilityLevel = 'unscored';
  return { visibilityLevel, dimensionsScored, dimensionsApplicable, applicable };
}

/** A dimension's place on the checklist: scored, applicable but not yet scored, or not applicable. */
export type DimensionStatus = 'scored' | 'pending' | 'not-applicable';

/**
 * The dimension checklist a server page shows: a scored dimension is 'scored' (even where it does not
 * apply), an applicable one without a score is 'pending', the rest 'not-applicable'. Agent usability is
 * applicable only once an evaluation exists, so without one it is 'not-applicable', as in the counts.
 */
export function dimensionChecklist(
  categories: CategoryScores,
  applicable: Record<Dimension, boolean>,
): Record<Dimension, DimensionStatus> {
  const entries = DIMENSIONS.map((d): [Dimension, DimensionStatus] => [
    d,
    categories[d] != null ? 'scored' : applicable[d] ? 'pending' : 'not-applicable',
  ]);
  return Object.fromEntries(entries) as Record<Dimension, DimensionStatus>;
}

/** 0 for complete up to 4 for unscored: the leaderboard's first sort key. */
export function visibilityRank(level: VisibilityLevel): number {
  return VISIBILITY_LEVELS.indexOf(level);
}

/**
 * Leaderboard order: better tier first, then higher composite; a missing composite sorts last within
 * its tier. Use with `Array.prototype.sort`: `rows.sort(compareForLeaderboard)`.
 */
export function compareForLeaderboard(
  a: { visibilityLevel: VisibilityLevel; compositeScore: number | null },
  b: { visibilityLevel: VisibilityLevel; compositeScore: number | null },
): number {
  const byTier = visibilityRank(a.visibilityLevel) - visibilityRank(b.visibilityLevel);
  if (byTier !== 0) return byTier;
  return (b.compositeScore ?? Number.NEGATIVE_INFINITY) - (a.compositeScore ?? Number.NEGATIVE_INFINITY) || 0;
}
