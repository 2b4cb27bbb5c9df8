/**
 * The five measured category scores: schema quality, protocol, docs and maintenance, security (and
 * reliability, in reliability.ts). Pure module: no I/O, no clock.
 *
 * Numbers and order of arithmetic follow the open engine 0.9.0, so that the same input gives the same
 * integer: every category is a weighted average truncated toward zero (Python's `int()`).
 */

import { envVarsOf, isHighlySensitiveEnvVar, isSecretEnvVar } from './env-vars.js';
import { truncateScore } from './rounding.js';
import type { DeepProbe, ScoreServer, StaticAnalysis } from './types.js';
import { finiteOrNull, isRecord, recordOf } from './values.js';

// ---------------------------------------------------------------------------------------------
// Schema quality
// ---------------------------------------------------------------------------------------------

/** Schema quality weights (engine 0.9.0): schema completeness 60%, description quality 40%. */
export const SCHEMA_QUALITY_WEIGHTS = Object.freeze({ schemaCompleteness: 0.6, descriptionQuality: 0.4 });

/**
 * Points taken off schema quality when the server's description is a template placeholder (the
 * TEMPLATE_DESCRIPTION flag), never below 0 (engine 0.9.0: 15).
 */
export const TEMPLATE_DESCRIPTION_PENALTY = 15;

/**
 * Weighted average of the given parts (null parts left out, weights renormalised), truncated. Sums
 * left to right from 0, as Python's `sum()` does, so the float result is bit-for-bit the engine's.
 */
function weightedTruncatedAverage(parts: ReadonlyArray<readonly [number | null, number]>): number | null {
  let weightedSum = 0;
  let totalWeight = 0;
  let any = false;
  for (const [score, weight] of parts) {
    if (score == null) continue;
    weightedSum += score * weight;
    totalWeight += weight;
    any = true;
  }
  return any ? truncateScore(weightedSum / totalWeight) : null;
}

/**
 * Schema quality (0-100): `trunc(0.6 * schemaCompleteness + 0.4 * descriptionQuality)`, or null without
 * an analysis. Example: completeness 85 and description quality 78 give trunc(51 + 31.2) = 82.
 * The template-description penalty is applied by scoreServer, after the flags are known.
 */
export function computeSchemaQualityScore(analysis: StaticAnalysis | null | undefined): number | null {
  if (!analysis) return null;
  const w = SCHEMA_QUALITY_WEIGHTS;
  return weightedTruncatedAverage([
    [finiteOrNull(analysis.schemaCompleteness), w.schemaCompleteness],
    [finiteOrNull(analysis.descriptionQuality), w.descriptionQuality],
  ]);
}

/**
 * The runtime override of schema completeness: when the tool schemas a live session returned score
 * higher than the repository analysis, the runtime score wins; a lower runtime score never lowers it.
 * `preferRuntimeSchemaCompleteness(40, 90)` is 90, `(90, 40)` is 90, `(null, 70)` is 70, `(70, null)` is 70.
 */
export function preferRuntimeSchemaCompleteness(
  staticScore: number | null | undefined,
  runtimeScore: number | null | undefined,
): number | null {
  if (runtimeScore == null) return staticScore ?? null;
  if (staticScore == null) return runtimeScore;
  return Math.max(staticScore, runtimeScore);
}

/**
 * Returns the analysis with the runtime override applied to `schemaCompleteness` (see
 * {@link preferRuntimeSchemaCompleteness}); the input is not changed. This is the entry point for
 * completeness computed from a live tools/list (the engine's "runtime override"): pass its score here,
 * then give the result to scoreServer as `staticAnalysis`.
 */
export function applyRuntimeSchemaOverride(
  analysis: StaticAnalysis,
  runtimeCompleteness: number | null,
): StaticAnalysis {
  const schemaCompleteness = preferRuntimeSchemaCompleteness(analysis.schemaCompleteness, runtimeCompleteness);
  return { ...analysis, schemaCompleteness: schemaCompleteness ?? analysis.schemaCompleteness };
}

// ---------------------------------------------------------------------------------------------
// Protocol
// ---------------------------------------------------------------------------------------------

/** Protocol part for a reachable server (100) or an unreachable one (0) (engine 0.9.0). */
export const PROTOCOL_REACHABLE_POINTS = Object.freeze({ reachable: 100, unreachable: 0 });

/** Protocol part for a valid tool-list schema (100) or an invalid one (30) (engine 0.9.0). */
export const PROTOCOL_SCHEMA_POINTS = Object.freeze({ valid: 100, invalid: 30 });

/** Bonus added to the protocol score when OAuth discovery works (engine 0.9.0: 10), the result capped at 100. */
export const AUTH_DISCOVERY_BONUS = 10;

/**
 * Protocol (0-100), or null without a deep probe: the plain average of the parts that are known
 * (reachability always; schema validity, error handling, fuzz and smoke when measured), plus
 * {@link AUTH_DISCOVERY_BONUS} when auth discovery is valid, truncated and capped at 100.
 * Example: reachable, schema valid, nothing else measured, auth discovery valid: min(100, 100 + 10) = 100;
 * reachable with an invalid schema: (100 + 30) / 2 = 65.
 */
export function computeProtocolScore(probe: DeepProbe | null | undefined): number | null {
  if (!probe) return null;
  const parts: number[] = [
    probe.isReachable ? PROTOCOL_REACHABLE_POINTS.reachable : PROTOCOL_REACHABLE_POINTS.unreachable,
  ];
  if (probe.schemaValid != null)
    parts.push(probe.schemaValid ? PROTOCOL_SCHEMA_POINTS.valid : PROTOCOL_SCHEMA_POINTS.invalid);
  for (const measured of [probe.errorHandlingScore, probe.fuzzScore, probe.functionalSmokeScore]) {
    const value = finiteOrNull(measured);
    if (value != null) parts.push(value);
  }
  let sum = 0;
  for (const part of parts) sum += part;
  const bonus = probe.authDiscoveryValid === true ? AUTH_DISCOVERY_BONUS : 0;
  return Math.min(100, truncateScore(sum / parts.length + bonus));
}

// ---------------------------------------------------------------------------------------------
// Docs and maintenance
// ---------------------------------------------------------------------------------------------

/**
 * Docs and maintenance weights (engine 0.9.0): documentation coverage 30%, maintenance pulse 30%,
 * dependency health 15%, license clarity 15%, version hygiene 10%.
 */
export const DOCS_MAINTENANCE_WEIGHTS = Object.freeze({
  documentationCoverage: 0.3,
  maintenancePulse: 0.3,
  dependencyHealth: 0.15,
  licenseClarity: 0.15,
  versionHygiene: 0.1,
});

/** The newest MCP specification version (engine 0.9.0: 2025-11-25); implementing it earns the spec bonus. */
export const LATEST_SPEC_VERSION = '2025-11-25';

/** Points added to docs and maintenance for a server on {@link LATEST_SPEC_VERSION} or later, capped at 100 (engine 0.9.0: 5). */
export const SPEC_VERSION_BONUS = 5;

/**
 * Docs and maintenance (0-100), or null without an analysis: the weighted average of the five
 * repository sub-scores ({@link DOCS_MAINTENANCE_WEIGHTS}), truncated. The spec-version bonus is
 * separate ({@link applySpecVersionBonus}).
 */
export function computeDocsMaintenanceScore(analysis: StaticAnalysis | null | undefined): number | null {
  if (!analysis) return null;
  const w = DOCS_MAINTENANCE_WEIGHTS;
  return weightedTruncatedAverage([
    [finiteOrNull(analysis.documentationCoverage), w.documentationCoverage],
    [finiteOrNull(analysis.maintenancePulse), w.maintenancePulse],
    [finiteOrNull(analysis.dependencyHealth), w.dependencyHealth],
    [finiteOrNull(analysis.licenseClarity), w.licenseClarity],
    [finiteOrNull(analysis.versionHygiene), w.versionHygiene],
  ]);
}

/**
 * Adds {@link SPEC_VERSION_BONUS} (capped at 100) when `registryMetadata.spec_version.detected_spec_version`
 * is {@link LATEST_SPEC_VERSION} or later. Versions are dates written YYYY-MM-DD, so the engine compares
 * them as strings, and so do we. A null score stays null.
 */
export function applySpecVersionBonus(score: number | null, registryMetadata: Record<string, unknown>): number | null {
  if (score == null) return null;
  const spec = registryMetadata.spec_version ?? {};
  if (!isRecord(spec)) return score;
  const detected = spec.detected_spec_version ?? '';
  if (typeof detected === 'string' && detected >= LATEST_SPEC_VERSION) return Math.min(100, score + SPEC_VERSION_BONUS);
  return score;
}

// ---------------------------------------------------------------------------------------------
// Security
// ---------------------------------------------------------------------------------------------

/**
 * Points for how many secret variables the server needs (engine 0.9.0, out of 20): none 20, one 16,
 * two 11, three or four 6, five or more 0. Each row reads "up to `max` secrets: `points`".
 */
export const SECRET_COUNT_POINTS: readonly { readonly max: number; readonly points: number }[] = Object.freeze([
  Object.freeze({ max: 0, points: 20 }),
  Object.freeze({ max: 1, points: 16 }),
  Object.freeze({ max: 2, points: 11 }),
  Object.freeze({ max: 4, points: 6 }),
  Object.freeze({ max: Number.POSITIVE_INFINITY, points: 0 }),
]);

/**
 * Points for the transport (engine 0.9.0, out of 15): a local server on stdio 15, streamable HTTP 12,
 * SSE 9, a remote server with an unknown transport 6. The Scoreboard's page lists no streamable-HTTP row;
 * the engine gives it 12.
 */
export const TRANSPORT_POINTS = Object.freeze({ stdio: 15, streamableHttp: 12, sse: 9, unknownRemote: 6 });

/**
 * Points for credential sensitivity (engine 0.9.0, out of 15): no secret at all 15; secrets but none
 * highly sensitive 11; one or two highly sensitive 6; three or more 2.
 */
export const CREDENTIAL_POINTS = Object.freeze({ none: 15, noHighlySensitive: 11, fewHighlySensitive: 6, many: 2 });

/** Highly sensitive variables counted as "few" for {@link CREDENTIAL_POINTS} (engine 0.9.0: 2). */
export const FEW_HIGHLY_SENSITIVE_MAX = 2;

/**
 * Points for distribution clarity (engine 0.9.0, out of 15): a package (npm, PyPI or Docker Hub) and a
 * repository 15, a repository only 12, a package only 8, neither 3.
 */
export const DISTRIBUTION_POINTS = Object.freeze({ packageAndRepo: 15, repoOnly: 12, packageOnly: 8, neither: 3 });

/**
 * The most points behavioral security (the 0-100 `behavioral_security.behavioral_security_score` of
 * the registry metadata) adds (engine 0.9.0: 20; the Scoreboard's page says 35 with a default of 50/100).
 */
export const BEHAVIORAL_SECURITY_MAX_POINTS = 20;

/** Most points of the four static security parts: 20 + 15 + 15 + 15 = 65. */
export const SECURITY_STATIC_MAX_POINTS = 65;

/** Most points with behavioral security: 65 + 20 = 85. */
export const SECURITY_MAX_POINTS = SECURITY_STATIC_MAX_POINTS + BEHAVIORAL_SECURITY_MAX_POINTS;

/** The security score's parts, so a security figure can explain itself. */
export interface SecurityParts {
  secretCount: number;
  secretPoints: number;
  transportPoints: number;
  highlySensitiveCount: number;
  credentialPoints: number;
  distributionPoints: number;
  /** 0-20, or null when the registry metadata has no behavioral security score (left out, renormalised). */
  behavioralPoints: number | null;
  /** The security score (0-100). */
  score: number;
}

function secretCountPoints(count: number): number {
  for (const row of SECRET_COUNT_POINTS) if (count <= row.max) return row.points;
  return 0;
}

function transportPoints(isRemote: boolean, transport: unknown): number {
  const t = TRANSPORT_POINTS;
  if (!isRemote && transport !== 'sse' && transport !== 'streamable-http') return t.stdio;
  if (transport === 'streamable-http') return t.streamableHttp;
  if (transport === 'sse') return t.sse;
  return t.unknownRemote;
}

function credentialPoints(secretCount: number, highlySensitiveCount: number): number {
  const c = CREDENTIAL_POINTS;
  if (highlySensitiveCount === 0) return secretCount === 0 ? c.none : c.noHighlySensitive;
  return highlySensitiveCount <= FEW_HIGHLY_SENSITIVE_MAX ? c.fewHighlySensitive : c.many;
}

function distributionPoints(server: ScoreServer): number {
  const d = DISTRIBUTION_POINTS;
  const hasPackage = Boolean(server.npmUrl || server.pypiUrl || server.dockerhubUrl);
  const hasRepo = Boolean(server.repoUrl);
  if (hasPackage && hasRepo) return d.packageAndRepo;
  if (hasRepo) return d.repoOnly;
  if (hasPackage) return d.packageOnly;
  return d.neither;
}

/**
 * Behavioral points (0-20) from `registryMetadata.behavioral_security.behavioral_security_score`
 * clamped to 0-100, or null when absent. A present but non-numeric value (the engine would fail on
 * it) counts as absent.
 */
function behavioralPoints(registryMetadata: Record<string, unknown>): number | null {
  const behavioral = registryMetadata.behavioral_security;
  if (!isRecord(behavioral)) return null;
  const raw = finiteOrNull(behavioral.behavioral_security_score);
  if (raw == null) return null;
  const clamped = Math.max(0, Math.min(100, raw));
  return truncateScore((clamped * BEHAVIORAL_SECURITY_MAX_POINTS) / 100);
}

/**
 * Scores security hygiene from the registry entry alone, with every part: secret variables (see
 * env-vars.ts, `isSecret` included), transport (`registryMetadata.transport`), highly sensitive
 * credentials, distribution, and behavioral security when present. Without behavioral security the
 * four parts (out of 65) are scaled to 100; with it, the five (out of 85). Truncated, 0-100.
 * Example: one API key, streamable HTTP, npm package and repository: 16 + 12 + 11 + 15 = 54 of 65 -> 83.
 */
export function scoreSecurityParts(server: ScoreServer): SecurityParts {
  const meta = recordOf(server.registryMetadata);
  const envVars = envVarsOf(meta);
  const secretCount = envVars.filter(isSecretEnvVar).length;
  const highlySensitiveCount = envVars.filter(isHighlySensitiveEnvVar).length;
  const parts = {
    secretCount,
    secretPoints: secretCountPoints(secretCount),
    transportPoints: transportPoints(server.isRemote, meta.transport ?? ''),
    highlySensitiveCount,
    credentialPoints: credentialPoints(secretCount, highlySensitiveCount),
    distributionPoints: distributionPoints(server),
    behavioralPoints: behavioralPoints(meta),
  };
  const staticTotal = parts.secretPoints + parts.transportPoints + parts.credentialPoints + parts.distributionPoints;
  const score =
    parts.behavioralPoints == null
      ? truncateScore((staticTotal * 100) / SECURITY_STATIC_MAX_POINTS)
      : truncateScore(((staticTotal + parts.behavioralPoints) * 100) / SECURITY_MAX_POINTS);
  return { ...parts, score: Math.max(0, Math.min(100, score)) };
}

/** The security score (0-100) of {@link scoreSecurityParts}. Always a number: the registry entry is always there. */
export function computeSecurityScore(server: ScoreServer): number {
  return scoreSecurityParts(server).score;
}
