/**
 * The composite: a weighted average of the scored categories, renormalised over the ones present,
 * rounded half to even, then capped by critical flags. Pure module: no I/O, no clock.
 */

import { FLAG_SCORE_CAPS } from './flags.js';
import { roundHalfEven } from './rounding.js';
import type { CategoryScores, Flag } from './types.js';
import { DIMENSIONS, MIN_DIMENSIONS_FOR_COMPOSITE } from './visibility.js';

/** Category weights without an agent-usability score (engine 0.9.0): 25/20/20/15/20. */
export const STANDARD_WEIGHTS = Object.freeze({
  schemaQuality: 0.25,
  protocol: 0.2,
  reliability: 0.2,
  docsMaintenance: 0.15,
  security: 0.2,
});

/** Category weights with an agent-usability score (engine 0.9.0): 20/18/18/12/17, agent usability 15. */
export const ENHANCED_WEIGHTS = Object.freeze({
  schemaQuality: 0.2,
  protocol: 0.18,
  reliability: 0.18,
  docsMaintenance: 0.12,
  security: 0.17,
  agentUsability: 0.15,
});

/** Which weight set a composite used. */
export type WeightSet = 'standard' | 'enhanced';

/** The composite before caps, with what it rests on. */
export interface CompositeParts {
  weightSet: WeightSet;
  /** Sum of the weights of the scored categories (the renormalisation divisor). */
  totalWeight: number;
  /** The weighted average before rounding, or null when no category is scored. */
  rawScore: number | null;
  /** rawScore rounded half to even and clamped to 0-100, or null. */
  score: number | null;
}

/** The order the engine adds the categories in; float sums depend on it. */
const CATEGORY_ORDER = ['schemaQuality', 'protocol', 'reliability', 'docsMaintenance', 'security'] as const;

/**
 * Weighs the scored categories: enhanced weights when `agentUsability` is a number, standard weights
 * otherwise; a null category is left out and the weights of the others are renormalised (divided by
 * their sum). The average is rounded half to even (Python's `round`) and clamped to 0-100.
 * Example: schema 80, docs 60, security 90 on standard weights: (20 + 9 + 18) / 0.6 = 78.33 -> 78.
 * This does not decide whether a composite is shown (see decideVisibility: an unscored server has none).
 */
export function computeComposite(categories: CategoryScores): CompositeParts {
  const enhanced = categories.agentUsability != null;
  const weights: Readonly<Record<string, number>> = enhanced ? ENHANCED_WEIGHTS : STANDARD_WEIGHTS;
  let weightedSum = 0;
  let totalWeight = 0;
  for (const key of CATEGORY_ORDER) {
    const score = categories[key];
    if (score == null) continue;
    const weight = weights[key] as number;
    weightedSum += score * weight;
    totalWeight += weight;
  }
  if (enhanced) {
    weightedSum += (categories.agentUsability as number) * ENHANCED_WEIGHTS.agentUsability;
    totalWeight += ENHANCED_WEIGHTS.agentUsability;
  }
  const weightSet: WeightSet = enhanced ? 'enhanced' : 'standard';
  if (totalWeight === 0) return { weightSet, totalWeight, rawScore: null, score: null };
  const rawScore = weightedSum / totalWeight;
  return { weightSet, totalWeight, rawScore, score: Math.max(0, Math.min(100, roundHalfEven(rawScore))) };
}

/**
 * Caps a composite by the critical flags it carries: the lowest cap of any flag whose key is in `caps`
 * wins, and flags without a cap change nothing. Category scores are never capped, only the composite.
 * `applyFlagCaps(88, [{ key: 'REPO_ARCHIVED', ... }], FLAG_SCORE_CAPS)` is 40.
 */
export function applyFlagCaps(
  score: number,
  flags: readonly Pick<Flag, 'key'>[],
  caps: Readonly<Record<string, number>>,
): number {
  let capped = score;
  for (const flag of flags) {
    if (Object.hasOwn(caps, flag.key)) capped = Math.min(capped, caps[flag.key] as number);
  }
  return capped;
}

/**
 * The composite a server with these categories and flags is given: null with fewer than
 * MIN_DIMENSIONS_FOR_COMPOSITE scored dimensions (an unscored server has no composite), else
 * {@link computeComposite}'s score capped by the flags' composite caps (FLAG_SCORE_CAPS). scoreServer gives its
 * composite through this function, so a caller asking "what if this category or flag changed" gets the same
 * gate, rounding and caps.
 *
 * @example
 * computeCappedComposite({ ...categories, schemaQuality: 100 }, result.flags); // the composite with full schema quality
 */
export function computeCappedComposite(categories: CategoryScores, flags: readonly Pick<Flag, 'key'>[]): number | null {
  const scored = DIMENSIONS.filter((dimension) => categories[dimension] != null).length;
  if (scored < MIN_DIMENSIONS_FOR_COMPOSITE) return null;
  const { score } = computeComposite(categories);
  return score === null ? null : applyFlagCaps(score, flags, FLAG_SCORE_CAPS);
}
