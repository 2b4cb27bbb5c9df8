// Red flags of the open engine (0.9.0): fifteen checks over a server's registry facts, each a key, a severity, a
// label and a description, with the same keys and thresholds as the engine. Pure and synchronous: `now` is an
// input, and facts from across the whole map (duplicate descriptions, archived repositories) come in `context`.
//
// PROMPT_INJECTION is raised, as in the engine, when `registryMetadata.behavioral_security.prompt_injection_found`
// is true. `confirmedInjection` is a separate, added input: a person confirmed one of our own description-scan
// matches (the scan alone raises nothing, so no unreviewed match reaches a page).

import { MS_PER_DAY } from '@mcp-atlas/base';
import { envVarName, envVarsOf, isSecretEnvVar } from './env-vars.js';
import { parseIsoTime } from './iso-time.js';
import { codePointLength, sliceCodePoints, stripPython } from './python-text.js';
import type { DeepProbe, DetectFlagsOptions, Flag, ScoreServer, StaticAnalysis } from './types.js';
import { isRecord, isTruthy, recordOf } from './values.js';

/** Every flag key, in the order detectFlags checks them. */
export const FLAG_KEYS = Object.freeze([
  'DEAD_REPO',
  'NO_SOURCE',
  'SENSITIVE_CREDS',
  'HIGH_SECRET_DEMAND',
  'REPO_ARCHIVED',
  'STALE_PROJECT',
  'STAGING_ARTIFACT',
  'TEMPLATE_DESCRIPTION',
  'DESCRIPTION_DUPLICATE',
  'SCHEMA_DRIFT',
  'AMBIGUOUS_SCHEMA',
  'OUTDATED_SPEC',
  'PROMPT_INJECTION',
  'EXFILTRATION_RISK',
  'STALE_ANALYSIS',
] as const);

/** A flag key. */
export type FlagKey = (typeof FLAG_KEYS)[number];

/** What every flag of one key shares: its severity and label. */
export interface FlagDefinition {
  readonly severity: Flag['severity'];
  readonly label: string;
}

/** Severity and label of each flag key (the engine's). Four are critical; the rest are warnings. */
export const FLAG_DEFINITIONS: Readonly<Record<FlagKey, FlagDefinition>> = Object.freeze({
  DEAD_REPO: { severity: 'critical', label: 'Dead Repository' },
  NO_SOURCE: { severity: 'warning', label: 'No Source Code' },
  SENSITIVE_CREDS: { severity: 'warning', label: 'Many Secrets Required' },
  HIGH_SECRET_DEMAND: { severity: 'warning', label: 'High Config Demand' },
  REPO_ARCHIVED: { severity: 'critical', label: 'Archived Repository' },
  STALE_PROJECT: { severity: 'warning', label: 'Stale Project' },
  STAGING_ARTIFACT: { severity: 'warning', label: 'Staging Endpoint' },
  TEMPLATE_DESCRIPTION: { severity: 'warning', label: 'Template Description' },
  DESCRIPTION_DUPLICATE: { severity: 'warning', label: 'Duplicate Description' },
  SCHEMA_DRIFT: { severity: 'warning', label: 'Schema Drift' },
  AMBIGUOUS_SCHEMA: { severity: 'warning', label: 'Ambiguous Schemas' },
  OUTDATED_SPEC: { severity: 'warning', label: 'Outdated MCP Spec' },
  PROMPT_INJECTION: { severity: 'critical', label: 'Prompt Injection Risk' },
  EXFILTRATION_RISK: { severity: 'critical', label: 'Exfiltration Risk' },
  STALE_ANALYSIS: { severity: 'warning', label: 'Stale Analysis' },
});

/**
 * The composite caps (engine 0.9.0): a server with one of these flags scores at most this much, whatever its
 * categories say. DEAD_REPO 0, EXFILTRATION_RISK 25, PROMPT_INJECTION 30, REPO_ARCHIVED 40 (a D at best),
 * STAGING_ARTIFACT 55 (a C at best; the one capped flag that is only a warning).
 */
export const FLAG_SCORE_CAPS: Readonly<Record<string, number>> = Object.freeze({
  DEAD_REPO: 0,
  REPO_ARCHIVED: 40,
  STAGING_ARTIFACT: 55,
  PROMPT_INJECTION: 30,
  EXFILTRATION_RISK: 25,
});

/** `registryMetadata.repo_status` values that mean the repository is gone (engine: the strings '404', 'gone'). */
export const DEAD_REPO_STATUSES: readonly string[] = Object.freeze(['404', 'gone']);

/** SENSITIVE_CREDS fires at this many secret environment variables or more (engine: 3). */
export const SENSITIVE_CREDS_MIN_SECRETS = 3;

/** Names listed in the SENSITIVE_CREDS description, at most (engine: 3). */
export const SENSITIVE_CREDS_NAMES_SHOWN = 3;

/**
 * Environment-variable names that are plain configuration, never a secret (engine 0.9.0), matched against the
 * whole name, case-insensitive: port, host, log level, debug, worker(s), timeout, env, node env, base URL, app
 * name, version, region, locale, lang or language.
 */
export const NON_SENSITIVE_ENV_VAR_PATTERN =
  /^(port|host|log[_-]?level|debug|workers?|timeout|env|node[_-]?env|base[_-]?url|app[_-]?name|version|region|locale|lang(uage)?)$/i;

/** HIGH_SECRET_DEMAND fires at this many environment variables that are not plain configuration (engine: 5). */
export const HIGH_SECRET_DEMAND_MIN_VARS = 5;

/** STALE_PROJECT fires when the last commit is more than this many days before `now` (engine: 365). */
export const STALE_PROJECT_DAYS = 365;

/**
 * Remote endpoint URLs that look like a test deployment (engine 0.9.0), case-insensitive, anywhere in the URL:
 * localhost, 127.0.0.1, example.com, `staging.`, `.local:`, test-server.
 */
export const STAGING_URL_PATTERN = /(localhost|127\.0\.0\.1|example\.com|staging\.|\.local:|test-server)/i;

/**
 * Placeholder descriptions (engine 0.9.0): a description that, trimmed and in lower case, starts with one of
 * these is TEMPLATE_DESCRIPTION (which also costs 15 points of schema quality in the composite).
 */
export const TEMPLATE_DESCRIPTIONS: readonly string[] = Object.freeze([
  'a model context protocol server',
  'an mcp server',
  'mcp server for',
  'a mcp server',
  'description of my mcp server',
  'your mcp server description',
  'todo: add description',
  'add your description here',
]);

/** Descriptions are compared on their first this many code points, trimmed and in lower case (engine: 200). */
export const DESCRIPTION_KEY_MAX_CHARS = 200;

/** A description key shorter than this (code points) is never a duplicate (engine: 20). */
export const DESCRIPTION_DUPLICATE_MIN_LENGTH = 20;

/** DESCRIPTION_DUPLICATE fires when this many servers or more share the description key (engine: 3). */
export const DESCRIPTION_DUPLICATE_MIN_COUNT = 3;

/** AMBIGUOUS_SCHEMA fires at this many ambiguous tools or more (engine: 2). */
export const AMBIGUOUS_SCHEMA_MIN_TOOLS = 2;

/** Tool names listed in the AMBIGUOUS_SCHEMA description, at most (engine: 5). */
export const AMBIGUOUS_SCHEMA_NAMES_SHOWN = 5;

/** The spec version OUTDATED_SPEC names: the original MCP specification. */
export const OUTDATED_SPEC_VERSION = '2024-11-05';

/** STALE_ANALYSIS fires when the analysis is more than this many days old (engine: 60). */
export const STALE_ANALYSIS_DAYS = 60;

/** Options of detectFlags: the agreed ones plus what our rules need. */
export interface DetectFlagsInput extends DetectFlagsOptions {
  /**
   * The repository analysis. When `registryMetadata.last_analyzed_at` is missing, STALE_ANALYSIS reads
   * `details.last_analyzed_at` from it (where the observatory keeps the analysis time).
   */
  staticAnalysis?: StaticAnalysis | null;
  /** Accepted so scoreServer can pass its whole input; no flag of engine 0.9.0 reads the probe. */
  deepProbe?: DeepProbe | null;
  /**
   * True when a person reviewed one of our description-scan matches and confirmed it is an injection attempt:
   * raises PROMPT_INJECTION (and its cap of 30) as the engine's `behavioral_security.prompt_injection_found`
   * does. Unset or false adds nothing: the engine's own input still raises the flag by itself.
   */
  confirmedInjection?: boolean;
}

function flag(key: FlagKey, description: string): Flag {
  const { severity, label } = FLAG_DEFINITIONS[key];
  return { key, severity, label, description };
}

/**
 * The key under which a description is counted for DESCRIPTION_DUPLICATE: trimmed, in lower case, its first 200
 * code points. Build `context.descriptionCounts` with these keys (see countDescriptions).
 */
export function descriptionKey(description: string): string {
  const lowered = stripPython(typeof description === 'string' ? description : '').toLowerCase();
  return sliceCodePoints(lowered, 0, DESCRIPTION_KEY_MAX_CHARS);
}

/**
 * Counts descriptions across the whole map by their descriptionKey, for `context.descriptionCounts`. Empty
 * descriptions are not counted.
 *
 * @example countDescriptions(['Fetch web pages.', 'fetch web pages.  ']) // { 'fetch web pages.': 2 }
 */
export function countDescriptions(descriptions: Iterable<string>): Record<string, number> {
  // A Map, then own properties: a description such as '__proto__' must stay an ordinary key.
  const counts = new Map<string, number>();
  for (const description of descriptions) {
    const key = descriptionKey(description);
    if (key !== '') counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Object.fromEntries(counts);
}

function checkDeadRepo(meta: Record<string, unknown>): Flag[] {
  const status = meta.repo_status;
  if (typeof status !== 'string' || !DEAD_REPO_STATUSES.includes(status)) return [];
  return [flag('DEAD_REPO', 'The linked GitHub repository returns 404 or has been deleted.')];
}

function checkNoSource(server: ScoreServer, meta: Record<string, unknown>): Flag[] {
  if (server.repoUrl || isTruthy(meta.source_url) || isTruthy(meta.homepage)) return [];
  return [flag('NO_SOURCE', 'No repository URL or source code link found.')];
}

function checkSensitiveCreds(meta: Record<string, unknown>): Flag[] {
  const secrets = envVarsOf(meta).filter(isSecretEnvVar).map(envVarName);
  if (secrets.length < SENSITIVE_CREDS_MIN_SECRETS) return [];
  const shown = secrets.slice(0, SENSITIVE_CREDS_NAMES_SHOWN).join(', ');
  return [flag('SENSITIVE_CREDS', `Requires ${secrets.length} sensitive environment variables (${shown}).`)];
}

/** A variable counts toward HIGH_SECRET_DEMAND unless its name is plain configuration and the registry does
 *  not mark it secret. Entries without a name count, as they would in the engine's list of names. */
function mayBeSensitive(entry: unknown): boolean {
  if (isRecord(entry) && entry.isSecret === true) return true;
  // Python's `$` also matches before one final newline; JavaScript's does not.
  const name = envVarName(entry);
  return !NON_SENSITIVE_ENV_VAR_PATTERN.test(name.endsWith('\n') ? name.slice(0, -1) : name);
}

function checkHighSecretDemand(meta: Record<string, unknown>): Flag[] {
  const count = envVarsOf(meta).filter(mayBeSensitive).length;
  if (count < HIGH_SECRET_DEMAND_MIN_VARS) return [];
  return [flag('HIGH_SECRET_DEMAND', `Requires ${count} potentially-sensitive environment variables.`)];
}

function checkRepoArchived(server: ScoreServer, meta: Record<string, unknown>, options: DetectFlagsInput): Flag[] {
  const archivedOnMap = Boolean(server.repoUrl) && (options.context?.archivedRepos ?? []).includes(server.repoUrl);
  if (!isTruthy(meta.archived) && !archivedOnMap) return [];
  return [flag('REPO_ARCHIVED', 'The GitHub repository is archived and no longer maintained.')];
}

function checkStaleProject(server: ScoreServer, now: number): Flag[] {
  const lastCommit = parseIsoTime(server.lastCommitAt);
  if (lastCommit === null || !(lastCommit < now - STALE_PROJECT_DAYS * MS_PER_DAY)) return [];
  return [flag('STALE_PROJECT', 'No commits in over 12 months.')];
}

function checkStagingArtifact(server: ScoreServer): Flag[] {
  const url = typeof server.remoteEndpointUrl === 'string' ? server.remoteEndpointUrl : '';
  if (!url || !STAGING_URL_PATTERN.test(url)) return [];
  return [flag('STAGING_ARTIFACT', 'Remote endpoint URL contains localhost/staging patterns.')];
}

function checkTemplateDescription(server: ScoreServer): Flag[] {
  const description = stripPython(typeof server.description === 'string' ? server.description : '').toLowerCase();
  if (!description || !TEMPLATE_DESCRIPTIONS.some((template) => description.startsWith(template))) return [];
  return [flag('TEMPLATE_DESCRIPTION', 'Server description appears to be a default template placeholder.')];
}

function checkDescriptionDuplicate(server: ScoreServer, options: DetectFlagsInput): Flag[] {
  const counts = options.context?.descriptionCounts;
  if (!counts) return [];
  const key = descriptionKey(server.description);
  if (codePointLength(key) < DESCRIPTION_DUPLICATE_MIN_LENGTH) return [];
  const count = Object.hasOwn(counts, key) ? counts[key] : 0;
  if (typeof count !== 'number' || !(count >= DESCRIPTION_DUPLICATE_MIN_COUNT)) return [];
  return [flag('DESCRIPTION_DUPLICATE', `This description is shared by ${count} servers — likely copy-pasted.`)];
}

function countOf(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

function checkSchemaDrift(meta: Record<string, unknown>): Flag[] {
  const drift = meta.schema_drift;
  if (!isRecord(drift) || !isTruthy(drift.has_drift)) return [];
  const parts: string[] = [];
  const missing = countOf(drift.missing_at_runtime);
  const extra = countOf(drift.extra_at_runtime);
  if (missing > 0) parts.push(`${missing} tool(s) missing at runtime`);
  if (extra > 0) parts.push(`${extra} tool(s) only found at runtime`);
  const detail = parts.length > 0 ? parts.join('; ') : 'Tool sets differ';
  return [flag('SCHEMA_DRIFT', `Source code and runtime expose different tools. ${detail}.`)];
}

function checkAmbiguousSchema(meta: Record<string, unknown>): Flag[] {
  const ambiguous = meta.ambiguous_tools;
  if (!Array.isArray(ambiguous) || ambiguous.length < AMBIGUOUS_SCHEMA_MIN_TOOLS) return [];
  const names = ambiguous.slice(0, AMBIGUOUS_SCHEMA_NAMES_SHOWN).map(String).join(', ');
  return [
    flag(
      'AMBIGUOUS_SCHEMA',
      `${ambiguous.length} tool(s) have ambiguous schemas that AI models interpret differently: ${names}.`,
    ),
  ];
}

function checkOutdatedSpec(meta: Record<string, unknown>): Flag[] {
  const spec = meta.spec_version;
  if (!isRecord(spec) || spec.detected_spec_version !== OUTDATED_SPEC_VERSION) return [];
  return [
    flag(
      'OUTDATED_SPEC',
      'Implements the original MCP spec (2024-11-05). Missing StreamableHTTP, OAuth 2.1, and modern features.',
    ),
  ];
}

function checkPromptInjection(meta: Record<string, unknown>, options: DetectFlagsInput): Flag[] {
  const behavioral = meta.behavioral_security;
  const found = isRecord(behavioral) && isTruthy(behavioral.prompt_injection_found);
  if (!found && options.confirmedInjection !== true) return [];
  return [flag('PROMPT_INJECTION', 'Tool descriptions contain patterns that could manipulate AI agents.')];
}

function checkExfiltrationRisk(meta: Record<string, unknown>): Flag[] {
  const behavioral = meta.behavioral_security;
  if (!isRecord(behavioral) || !isTruthy(behavioral.exfiltration_risk)) return [];
  return [flag('EXFILTRATION_RISK', 'Source code contains patterns that may send data to unexpected destinations.')];
}

function checkStaleAnalysis(meta: Record<string, unknown>, options: DetectFlagsInput, now: number): Flag[] {
  const fromDetails = recordOf(options.staticAnalysis?.details).last_analyzed_at;
  const recorded = isTruthy(meta.last_analyzed_at) ? meta.last_analyzed_at : fromDetails;
  const analyzedAt = parseIsoTime(recorded);
  if (analyzedAt === null) return [];
  const ageMs = now - analyzedAt;
  if (!(ageMs > STALE_ANALYSIS_DAYS * MS_PER_DAY)) return [];
  const days = Math.floor(ageMs / MS_PER_DAY);
  return [flag('STALE_ANALYSIS', `Static analysis data is ${days} days old. Results may not reflect current state.`)];
}

/**
 * Runs every flag check on a server and returns the flags raised, in FLAG_KEYS order. Flags that need the whole
 * map (DESCRIPTION_DUPLICATE, and REPO_ARCHIVED from a list of archived repositories) read `options.context`;
 * time-based flags (STALE_PROJECT, STALE_ANALYSIS) measure from `options.now`. PROMPT_INJECTION comes from
 * `behavioral_security.prompt_injection_found` or from `confirmedInjection: true`. Throws a RangeError when `now` is not an ISO 8601 time (a caller's bug).
 *
 * @example
 * detectFlags(server, { now: '2026-12-02T00:00:00Z', context: { descriptionCounts, archivedRepos: [] } });
 * // [{ key: 'STAGING_ARTIFACT', severity: 'warning', label: 'Staging Endpoint', description: '...' }]
 */
export function detectFlags(server: ScoreServer, options: DetectFlagsInput): Flag[] {
  const now = parseIsoTime(options?.now);
  if (now === null)
    throw new RangeError(`detectFlags: options.now must be an ISO 8601 time, got ${String(options?.now)}`);
  const meta = recordOf(server.registryMetadata);
  return [
    ...checkDeadRepo(meta),
    ...checkNoSource(server, meta),
    ...checkSensitiveCreds(meta),
    ...checkHighSecretDemand(meta),
    ...checkRepoArchived(server, meta, options),
    ...checkStaleProject(server, now),
    ...checkStagingArtifact(server),
    ...checkTemplateDescription(server),
    ...checkDescriptionDuplicate(server, options),
    ...checkSchemaDrift(meta),
    ...checkAmbiguousSchema(meta),
    ...checkOutdatedSpec(meta),
    ...checkPromptInjection(meta, options),
    ...checkExfiltrationRisk(meta),
    ...checkStaleAnalysis(meta, options, now),
  ];
}
