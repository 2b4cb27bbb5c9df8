/**
 * How the quality score's inputs are assembled from the service's own checks: the instant a day is scored at, the
 * reliability window, the uptime over every check of every kind with the p50 and p95 of the successful ones, and the
 * protocol and schema evidence of the day's check. Every rule of the score itself (what a category is worth, the
 * probe-count gate, the flags) is @mcp-atlas/score's; these functions only decide which records feed it. Pure
 * module: no I/O, no clock; the day is an argument.
 */
import { shiftDay } from '@mcp-atlas/base';
import { isAnsweringLetter } from '@mcp-atlas/reliability';
import { latencyValuesOf } from '@mcp-atlas/reliability/live';
import {
  type DeepProbe,
  latencyPercentile,
  type ReliabilityInput,
  type RepositoryAnalysis,
  type RuntimeSchemaAnalysis,
  type StaticAnalysis,
  staticAnalysisOf,
} from '@mcp-atlas/score';
import { DAILY_SCORE_RULES } from './score-rules.js';

/**
 * The instant a day's scores are measured at: its last second, so scoring a day again gives the same ages.
 *
 * @example
 * scoreInstantOf('2026-12-02'); // '2026-12-02T23:59:59Z'
 */
export function scoreInstantOf(day: string): string {
  return `${day}T${DAILY_SCORE_RULES.scoredAtTimeOfDay}Z`;
}

/**
 * The days of the reliability window ending `day`, oldest first.
 *
 * @example
 * reliabilityWindowOf('2026-12-02'); // ['2026-11-26', ..., '2026-12-02'] (seven days)
 */
export function reliabilityWindowOf(day: string): string[] {
  const days = DAILY_SCORE_RULES.reliabilityWindowDays;
  return Array.from({ length: days }, (_, i) => shiftDay(day, i - (days - 1)));
}

/** One check as the reliability input reads it: its daily letter and, when it recorded one, its wall time. */
export interface TimedCheck {
  letter: string;
  elapsedMs?: number | undefined;
}

/**
 * One day's count of one kind of check: how many answered, how many ran, and, when kept, the answering checks' wall
 * times as `[whole milliseconds, count]` pairs (@mcp-atlas/reliability's CheckTallyDay and five-minute pairs).
 */
export interface CheckCount {
  answered: number;
  checks: number;
  latencyMs?: readonly (readonly [number, number])[] | undefined;
}

/** One server's own checks within the reliability window. */
export interface ReliabilityEvidence {
  /** Daily results of the window's days (the scored day's included). */
  daily: readonly TimedCheck[];
  /** Five-minute counters of the window's days, with their wall times where they were kept. */
  fiveMinuteCounters: readonly CheckCount[];
  /**
   * The per-day tallies of every hourly check in the window. When given, they are the hourly checks counted, and
   * `hourly` is not read (its observations are in the tallies already).
   */
  hourlyTallies?: readonly CheckCount[] | undefined;
  /** Hourly observations still kept that fall in the window: counted only when there are no tallies. */
  hourly: readonly TimedCheck[];
  /**
   * Five-minute observations still kept that fall in the window: their timings (their counts are in the counters).
   * Read only when no counter of the window kept wall times, as counters written before they were kept.
   */
  fiveMinuteTimings: readonly TimedCheck[];
}

/** Adds the checks and answering wall times of `counts` to the running totals. */
function addCounts(totals: { checks: number; answered: number; times: number[] }, counts: readonly CheckCount[]) {
  for (const count of counts) {
    totals.checks += count.checks;
    totals.answered += count.answered;
    totals.times.push(...latencyValuesOf(count.latencyMs));
  }
}

/**
 * The reliability input over the window, counting every check as the engine counts probes: uptime is answering
 * checks over all checks (daily, hourly and five-minute), the probe count is every check counted, and p50 and p95
 * are nearest-rank percentiles of the wall times of the answering ones. Hourly checks are read from their per-day
 * tallies when there are any, five-minute wall times from the counters that kept them; the kept observations stand
 * in only for records written before the tallies. No check: uptime null, count 0.
 *
 * @example
 * reliabilityInputOf({ daily: [{ letter: 'o', elapsedMs: 120 }], hourly: [], fiveMinuteCounters: [], fiveMinuteTimings: [] });
 * // { uptimePct: 100, latencyP50Ms: 120, latencyP95Ms: 120, probeCount: 1 }
 */
export function reliabilityInputOf(evidence: ReliabilityEvidence): ReliabilityInput {
  const totals = { checks: 0, answered: 0, times: [] as number[] };
  const hourlyChecks = evidence.hourlyTallies === undefined ? evidence.hourly : [];
  for (const check of [...evidence.daily, ...hourlyChecks]) {
    totals.checks += 1;
    if (!isAnsweringLetter(check.letter)) continue;
    totals.answered += 1;
    if (typeof check.elapsedMs === 'number') totals.times.push(check.elapsedMs);
  }
  addCounts(totals, evidence.hourlyTallies ?? []);
  addCounts(totals, evidence.fiveMinuteCounters);
  const fiveMinuteTimesKept = evidence.fiveMinuteCounters.some((c) => c.latencyMs !== undefined);
  if (!fiveMinuteTimesKept)
    for (const check of evidence.fiveMinuteTimings)
      if (isAnsweringLetter(check.letter) && typeof check.elapsedMs === 'number') totals.times.push(check.elapsedMs);
  const { p50, p95 } = DAILY_SCORE_RULES.latencyPercentiles;
  return {
    uptimePct: totals.checks === 0 ? null : (totals.answered * 100) / totals.checks,
    latencyP50Ms: latencyPercentile(totals.times, p50),
    latencyP95Ms: latencyPercentile(totals.times, p95),
    probeCount: totals.checks,
  };
}

/**
 * Schema validity from the runtime analysis: valid when the list gave tools and the analysis raised none of the
 * engine's schema issues (no tool definitions, no input schema, no descriptions) nor skipped an entry that is
 * not a tool.
 */
export function isSchemaValid(schemas: RuntimeSchemaAnalysis): boolean {
  return schemas.details.schema_completeness.issues.length === 0 && schemas.details.skipped_entries === 0;
}

/** The day's check as the protocol evidence reads it. */
export interface ProtocolCheck {
  letter: string;
  elapsedMs: number;
  toolCount: number;
}

/**
 * The protocol evidence of a check: reachable when the letter is an answering one; tool count and schema
 * validity only when tools were listed (letter `o`); auth discovery only when the server asked for sign-in
 * (letter `a`): whether its origin publishes an OAuth protected-resource document. Error handling, fuzz and smoke
 * stay null: the service never calls a tool.
 *
 * @example
 * deepProbeOf({ letter: 'a', elapsedMs: 50, toolCount: 0 }, null, true).authDiscoveryValid; // true
 */
export function deepProbeOf(
  result: ProtocolCheck,
  schemas: RuntimeSchemaAnalysis | null,
  authDocumentFound: boolean | null,
): DeepProbe {
  const reachable = isAnsweringLetter(result.letter);
  const listed = result.letter === 'o' && schemas !== null;
  return {
    isReachable: reachable,
    connectionMs: reachable ? result.elapsedMs : null,
    schemaValid: listed ? isSchemaValid(schemas) : null,
    errorHandlingScore: null,
    fuzzScore: null,
    functionalSmokeScore: null,
    authDiscoveryValid: result.letter === 'a' ? authDocumentFound : null,
    toolsCount: listed ? result.toolCount : null,
  };
}

// The two schema parts when no runtime schemas were read: not finite, so the score reads them as not measured
// (its category functions skip non-finite parts). The five repository parts say it with null instead.
const NOT_MEASURED = Number.NaN;

/**
 * The static analysis: schema completeness and description quality from the runtime tool schemas (the engine's
 * runtime override), and the five repository parts from the repository analysis. Null when neither exists.
 *
 * @example
 * staticAnalysisFrom(analyzeRuntimeSchemas(tools), null)?.documentationCoverage; // null: no repository was read
 */
export function staticAnalysisFrom(
  schemas: RuntimeSchemaAnalysis | null,
  repository: RepositoryAnalysis | null,
): StaticAnalysis | null {
  if (schemas === null && repository === null) return null;
  const schemaPart = schemas ?? { schemaCompleteness: NOT_MEASURED, descriptionQuality: NOT_MEASURED, details: {} };
  if (repository !== null) return staticAnalysisOf(repository, schemaPart);
  return {
    schemaCompleteness: schemaPart.schemaCompleteness,
    descriptionQuality: schemaPart.descriptionQuality,
    // No repository was read: the five repository parts are not measured, and docs and maintenance stays pending.
    documentationCoverage: null,
    maintenancePulse: null,
    dependencyHealth: null,
    licenseClarity: null,
    versionHygiene: null,
    details: { ...schemaPart.details },
  };
}
