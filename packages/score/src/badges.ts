/**
 * Badges: short good/neutral/warning/critical pills, grouped by category. Pure module: no I/O, no clock.
 *
 * Facts come from `staticAnalysis.details` under the engine's key names (documentation_coverage.checks,
 * provenance.checks, description_quality.checks, maintenance_pulse, dependency_health.checks,
 * license_clarity, version_hygiene), from the deep probe, the reliability data and the registry entry.
 */

import { secretEnvVarNames } from './env-vars.js';
import type { Badge, BadgeGroup, DeepProbe, Flag, ReliabilityInput, ScoreServer, StaticAnalysis } from './types.js';
import { childRecord, finiteOrNull, isTruthy, recordOf } from './values.js';

/**
 * Uptime badge thresholds in percent (engine 0.9.0): 99 or more "99%+ Uptime", 95 or more "95%+ Uptime"
 * (both good), 80 or more "Degraded Uptime" (warning), below that "Low Uptime" (critical).
 */
export const UPTIME_BADGE_THRESHOLDS = Object.freeze({ high: 99, good: 95, degraded: 80 });

/**
 * p50 latency badge thresholds in ms (engine 0.9.0): below 200 fast (good), below 500 moderate (neutral),
 * below 1,000 slow (warning), else very slow (critical).
 */
export const LATENCY_BADGE_THRESHOLDS_MS = Object.freeze({ fast: 200, moderate: 500, slow: 1000 });

/**
 * Error-handling badge thresholds (engine 0.9.0): 70 or more "Good Error Handling", below 40 "Poor Error
 * Handling" (warning), nothing in between.
 */
export const ERROR_HANDLING_BADGE_THRESHOLDS = Object.freeze({ good: 70, poor: 40 });

/**
 * Days since the last push for the activity badge (engine 0.9.0): up to 30 active (good), up to 180
 * moderate (neutral), up to 365 stale (warning), more possibly abandoned (critical).
 */
export const ACTIVITY_BADGE_DAYS = Object.freeze({ active: 30, moderate: 180, stale: 365 });

/** Releases for "Regular Releases" (3) and "Has Releases" (1) (engine 0.9.0). */
export const RELEASE_BADGE_COUNTS = Object.freeze({ regular: 3, some: 1 });

/** Share of semver tags that earns the "Semver" badge (engine 0.9.0: 0.8). */
export const SEMVER_BADGE_RATIO = 0.8;

/** Most secret variables still shown as "few" (neutral) rather than "many" (warning) (engine 0.9.0: 2). */
export const FEW_SECRETS_MAX = 2;

/** Everything the badges read. */
export interface BadgeInput {
  server: ScoreServer;
  staticAnalysis: StaticAnalysis | null;
  deepProbe: DeepProbe | null;
  reliability: ReliabilityInput | null;
  flags: readonly Pick<Flag, 'key'>[];
}

function badge(key: string, label: string, level: string): Badge {
  return { key, label, level };
}

function schemaBadges(staticAnalysis: StaticAnalysis | null, flags: readonly Pick<Flag, 'key'>[]): Badge[] {
  const out: Badge[] = [];
  if (staticAnalysis) {
    const details = recordOf(staticAnalysis.details);
    const docs = childRecord(childRecord(details, 'documentation_coverage'), 'checks');
    if (isTruthy(docs.has_readme)) out.push(badge('has_readme', 'README', 'good'));
    else if (isTruthy(docs)) out.push(badge('no_readme', 'No README', 'critical'));
    if (isTruthy(docs.has_changelog)) out.push(badge('has_changelog', 'Changelog', 'good'));
    if (isTruthy(docs.has_examples)) out.push(badge('has_examples', 'Examples', 'good'));
    if (isTruthy(docs.has_contributing)) out.push(badge('has_contributing', 'Contributing Guide', 'good'));
    if (isTruthy(docs.has_docs_dir)) out.push(badge('has_docs_dir', 'Docs Dir', 'good'));

    const provenance = childRecord(childRecord(details, 'provenance'), 'checks');
    if (isTruthy(provenance.has_security_policy)) out.push(badge('security_policy', 'SECURITY.md', 'good'));
    if (isTruthy(provenance.has_code_of_conduct)) out.push(badge('code_of_conduct', 'Code of Conduct', 'good'));
    if (provenance.namespace_owner_match === true) out.push(badge('namespace_match', 'Namespace Match', 'good'));
    else if (provenance.namespace_owner_match === false)
      out.push(badge('namespace_mismatch', 'Namespace Mismatch', 'warning'));
    if (isTruthy(provenance.has_installable_package)) out.push(badge('installable', 'Installable', 'good'));

    const description = childRecord(childRecord(details, 'description_quality'), 'checks');
    if (isTruthy(description.has_usage_section)) out.push(badge('usage_docs', 'Usage Docs', 'good'));
    if (isTruthy(description.has_code_examples)) out.push(badge('code_examples', 'Code Examples', 'good'));
  }
  if (flags.some((f) => f.key === 'TEMPLATE_DESCRIPTION'))
    out.push(badge('template_desc', 'Template Description', 'warning'));
  return out;
}

function protocolBadges(probe: DeepProbe | null): Badge[] {
  if (!probe) return [];
  const out: Badge[] = [];
  out.push(
    probe.isReachable ? badge('reachable', 'Reachable', 'good') : badge('unreachable', 'Unreachable', 'critical'),
  );
  if (probe.schemaValid === true) out.push(badge('schema_valid', 'Schema Valid', 'good'));
  else if (probe.schemaValid === false) out.push(badge('schema_invalid', 'Schema Invalid', 'warning'));
  const tools = finiteOrNull(probe.toolsCount);
  if (tools != null && tools > 0) out.push(badge('has_tools', `${tools} Tools`, 'good'));
  const errors = finiteOrNull(probe.errorHandlingScore);
  if (errors != null) {
    if (errors >= ERROR_HANDLING_BADGE_THRESHOLDS.good) out.push(badge('good_errors', 'Good Error Handling', 'good'));
    else if (errors < ERROR_HANDLING_BADGE_THRESHOLDS.poor)
      out.push(badge('poor_errors', 'Poor Error Handling', 'warning'));
  }
  if (probe.authDiscoveryValid === true) out.push(badge('auth_discovery', 'Auth Discovery', 'good'));
  return out;
}

function reliabilityBadges(server: ScoreServer, reliability: ReliabilityInput | null): Badge[] {
  const out: Badge[] = [];
  const uptime = finiteOrNull(reliability?.uptimePct);
  if (uptime != null) {
    const t = UPTIME_BADGE_THRESHOLDS;
    if (uptime >= t.high) out.push(badge('high_uptime', '99%+ Uptime', 'good'));
    else if (uptime >= t.good) out.push(badge('good_uptime', '95%+ Uptime', 'good'));
    else if (uptime >= t.degraded) out.push(badge('degraded_uptime', 'Degraded Uptime', 'warning'));
    else out.push(badge('low_uptime', 'Low Uptime', 'critical'));
  }
  const p50 = finiteOrNull(reliability?.latencyP50Ms);
  if (p50 != null) {
    const t = LATENCY_BADGE_THRESHOLDS_MS;
    if (p50 < t.fast) out.push(badge('low_latency', 'Fast (<200ms)', 'good'));
    else if (p50 < t.moderate) out.push(badge('med_latency', 'Moderate Latency', 'neutral'));
    else if (p50 < t.slow) out.push(badge('high_latency', 'Slow (>500ms)', 'warning'));
    else out.push(badge('very_high_latency', 'Very Slow (>1s)', 'critical'));
  }
  if (!server.isRemote) out.push(badge('local_only', 'Local Only', 'neutral'));
  return out;
}

function maintenanceBadges(staticAnalysis: StaticAnalysis | null): Badge[] {
  if (!staticAnalysis) return [];
  const out: Badge[] = [];
  const details = recordOf(staticAnalysis.details);
  const pulse = childRecord(details, 'maintenance_pulse');
  const days = finiteOrNull(pulse.days_since_last_push);
  if (days != null) {
    const t = ACTIVITY_BADGE_DAYS;
    if (days <= t.active) out.push(badge('active', 'Active Development', 'good'));
    else if (days <= t.moderate) out.push(badge('moderate', 'Moderate Activity', 'neutral'));
    else if (days <= t.stale) out.push(badge('stale', 'Stale', 'warning'));
    else out.push(badge('abandoned', 'Possibly Abandoned', 'critical'));
  }
  const releases = finiteOrNull(pulse.release_count) ?? 0;
  if (releases >= RELEASE_BADGE_COUNTS.regular) out.push(badge('regular_releases', 'Regular Releases', 'good'));
  else if (releases >= RELEASE_BADGE_COUNTS.some) out.push(badge('has_releases', 'Has Releases', 'good'));

  const deps = childRecord(childRecord(details, 'dependency_health'), 'checks');
  if (isTruthy(deps.has_ci)) out.push(badge('has_ci', 'CI/CD', 'good'));
  if (isTruthy(deps.has_lock_file)) out.push(badge('lock_file', 'Lock File', 'good'));
  if (isTruthy(deps.has_dependency_automation)) out.push(badge('dep_automation', 'Dep Automation', 'good'));

  const license = childRecord(details, 'license_clarity');
  if (isTruthy(license.spdx_id) && license.spdx_id !== 'NOASSERTION')
    out.push(badge('licensed', String(license.spdx_id), 'good'));
  else if (license.issue === 'no_license_detected') out.push(badge('no_license', 'No License', 'warning'));

  const semverRatio = finiteOrNull(childRecord(details, 'version_hygiene').semver_ratio) ?? 0;
  if (semverRatio >= SEMVER_BADGE_RATIO) out.push(badge('semver', 'Semver', 'good'));
  return out;
}

function securityBadges(server: ScoreServer): Badge[] {
  const out: Badge[] = [];
  const secrets = secretEnvVarNames(recordOf(server.registryMetadata)).length;
  if (secrets === 0) out.push(badge('no_secrets', 'No Secrets Required', 'good'));
  else if (secrets <= FEW_SECRETS_MAX) out.push(badge('few_secrets', `${secrets} Secret(s)`, 'neutral'));
  else out.push(badge('many_secrets', `${secrets} Secrets`, 'warning'));
  out.push(server.isRemote ? badge('remote', 'Remote Endpoint', 'neutral') : badge('stdio', 'STDIO Only', 'good'));
  if (server.npmUrl || server.pypiUrl || server.dockerhubUrl) out.push(badge('published', 'Published Package', 'good'));
  return out;
}

/**
 * The badges of a server by group, in the engine's order (engine 0.9.0 keys, labels and levels):
 * schema (README, changelog, examples, provenance, usage docs, template description), protocol
 * (reachable, schema valid, tool count, error handling, auth discovery), reliability (uptime, p50
 * latency, local only), maintenance (activity, releases, CI, lock file, dependency automation, license,
 * semver) and security (secret count, transport, published package).
 */
export function generateBadges(input: BadgeInput): Record<BadgeGroup, Badge[]> {
  return {
    schema: schemaBadges(input.staticAnalysis, input.flags),
    protocol: protocolBadges(input.deepProbe),
    reliability: reliabilityBadges(input.server, input.reliability),
    maintenance: maintenanceBadges(input.staticAnalysis),
    security: securityBadges(input.server),
  };
}
