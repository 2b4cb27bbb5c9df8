/**
 * scoreServer: every part of the quality score put together, in the engine's order. Pure module:
 * no I/O; `now` comes in with the input.
 *
 * Order matters and is the engine's (0.9.0): category scores; the spec-version bonus on docs and
 * maintenance; classification and publisher; flags; the template-description penalty on schema quality;
 * applicability and visibility; the composite (only above "unscored"), its flag caps and grade; badges.
 */

import { generateBadges } from './badges.js';
import {
  applySpecVersionBonus,
  computeDocsMaintenanceScore,
  computeProtocolScore,
  computeSchemaQualityScore,
  computeSecurityScore,
  TEMPLATE_DESCRIPTION_PENALTY,
} from './categories.js';
import { classifyServer, publisherOf } from './classification.js';
import { computeCappedComposite } from './composite.js';
import { detectFlags } from './flags.js';
import { gradeFor } from './grade.js';
import { computeReliabilityScore } from './reliability.js';
import type { CategoryScores, Flag, ScoreInput, ScoreResult } from './types.js';
import { finiteOrNull, recordOf } from './values.js';
import { decideVisibility } from './visibility.js';

/** Schema quality after the template-description penalty, never below 0. */
function penaliseTemplate(schemaQuality: number | null, flags: readonly Flag[]): number | null {
  if (schemaQuality == null || !flags.some((f) => f.key === 'TEMPLATE_DESCRIPTION')) return schemaQuality;
  return Math.max(0, schemaQuality - TEMPLATE_DESCRIPTION_PENALTY);
}

/**
 * Scores one server: six category scores, the composite (0-100, or null when fewer than two dimensions
 * are scored), its grade, the visibility tier with its "n/m dimensions", flags, badges, category, target
 * platforms and publisher. Same input, same output: `now` is the only time it uses (for the stale
 * flags). On cases taken from the open engine 0.9.0 it gives the engine's answers.
 *
 * @example
 * const result = scoreServer({
 *   server, staticAnalysis: null, deepProbe: { isReachable: true, schemaValid: true, toolsCount: 4 },
 *   reliability: { uptimePct: 99.9, latencyP50Ms: 180, latencyP95Ms: 420, probeCount: 96 },
 *   agentUsability: null, now: '2026-12-02T00:00:00Z',
 * });
 * result.grade; // e.g. 'A'
 */
export function scoreServer(input: ScoreInput): ScoreResult {
  const { server, staticAnalysis, deepProbe, reliability } = input;
  const registryMetadata = recordOf(server.registryMetadata);
  const agentUsability = finiteOrNull(input.agentUsability);

  const schemaQualityBeforeFlags = computeSchemaQualityScore(staticAnalysis);
  const protocol = computeProtocolScore(deepProbe);
  const reliabilityScore = computeReliabilityScore(reliability);
  const docsMaintenance = applySpecVersionBonus(computeDocsMaintenanceScore(staticAnalysis), registryMetadata);
  const security = computeSecurityScore(server);

  const { category, targets } = classifyServer(server);
  const { publisher, verifiedPublisher } = publisherOf(server, input.verifiedOrgs);

  const flags = detectFlags(server, {
    now: input.now,
    ...(input.flagContext ? { context: input.flagContext } : {}),
    staticAnalysis,
    deepProbe,
    confirmedInjection: input.confirmedInjection === true,
  });

  const categories: CategoryScores = {
    schemaQuality: penaliseTemplate(schemaQualityBeforeFlags, flags),
    protocol,
    reliability: reliabilityScore,
    docsMaintenance,
    security,
    agentUsability,
  };

  const visibility = decideVisibility({
    categories,
    isRemote: server.isRemote,
    hasSandboxProbe: server.hasSandboxProbe,
    hasReliabilityData: reliability != null,
    hasDeepProbe: deepProbe != null,
  });

  // Only above "unscored" is there a composite: the same gate as computeCappedComposite's dimension minimum, since
  // every tier above it rests on at least MIN_DIMENSIONS_FOR_COMPOSITE scored dimensions.
  const compositeScore = computeCappedComposite(categories, flags);

  return {
    compositeScore,
    grade: gradeFor(compositeScore),
    visibilityLevel: visibility.visibilityLevel,
    dimensionsScored: visibility.dimensionsScored,
    dimensionsApplicable: visibility.dimensionsApplicable,
    categories,
    flags,
    badges: generateBadges({ server, staticAnalysis, deepProbe, reliability, flags }),
    category,
    targets,
    publisher,
    verifiedPublisher,
  };
}
