/**
 * Stale-data decay: repository-analysis scores lose weight as the analysis ages. Pure module: no I/O;
 * `now` is an argument.
 *
 * The Scoreboard's page describes this decay; engine 0.9.0's compute_score does not apply it (it only
 * raises the STALE_ANALYSIS flag past 60 days), so scoreServer does not either. A caller that keeps an
 * old analysis applies {@link decayStaticAnalysis} before scoring.
 */

import { MS_PER_DAY } from '@mcp-atlas/base';
import { parseIsoTime } from './iso-time.js';
import { truncateScore } from './rounding.js';
import type { StaticAnalysis } from './types.js';

/** One step of the decay: an analysis at most `maxDays` old keeps `factor` of its value. */
export interface StaleDecayStep {
  readonly maxDays: number;
  readonly factor: number;
}

/**
 * Decay steps by whole days of age: up to 7 days 1.0, 14 days 0.97, 30 days 0.90, 60 days 0.75,
 * 90 days 0.55, older 0.40 (the floor).
 */
export const STALE_DECAY_STEPS: readonly StaleDecayStep[] = Object.freeze([
  Object.freeze({ maxDays: 7, factor: 1 }),
  Object.freeze({ maxDays: 14, factor: 0.97 }),
  Object.freeze({ maxDays: 30, factor: 0.9 }),
  Object.freeze({ maxDays: 60, factor: 0.75 }),
  Object.freeze({ maxDays: 90, factor: 0.55 }),
]);

/** The factor for an analysis older than the last step (0.40). */
export const STALE_DECAY_FLOOR = 0.4;

/**
 * Whole days between an ISO time and `now` (fractions dropped, like Python's `timedelta.days`); a time
 * without an offset is UTC. null when either time cannot be read. A time in the future gives a negative age.
 */
export function ageInDays(since: string, now: string): number | null {
  const from = parseIsoTime(since);
  const to = parseIsoTime(now);
  if (from === null || to === null) return null;
  return Math.floor((to - from) / MS_PER_DAY);
}

/**
 * The decay factor for an age in whole days: `staleDecayFactor(7)` is 1, `(8)` 0.97, `(30)` 0.9,
 * `(31)` 0.75, `(90)` 0.55, `(91)` 0.4. A negative age (clock skew) counts as fresh.
 */
export function staleDecayFactor(ageDays: number): number {
  for (const step of STALE_DECAY_STEPS) if (ageDays <= step.maxDays) return step.factor;
  return STALE_DECAY_FLOOR;
}

/**
 * Returns the analysis with its seven sub-scores multiplied by the decay factor of `ageDays` and
 * truncated to integers (as the engine keeps them); `details` is kept as is and the input is not changed.
 */
export function decayStaticAnalysis(analysis: StaticAnalysis, ageDays: number): StaticAnalysis {
  const factor = staleDecayFactor(ageDays);
  const decay = (value: number): number => truncateScore(value * factor);
  // A repository part that was not measured stays not measured.
  const decayPart = (value: number | null): number | null => (value === null ? null : decay(value));
  return {
    ...analysis,
    schemaCompleteness: decay(analysis.schemaCompleteness),
    descriptionQuality: decay(analysis.descriptionQuality),
    documentationCoverage: decayPart(analysis.documentationCoverage),
    maintenancePulse: decayPart(analysis.maintenancePulse),
    dependencyHealth: decayPart(analysis.dependencyHealth),
    licenseClarity: decayPart(analysis.licenseClarity),
    versionHygiene: decayPart(analysis.versionHygiene),
  };
}
