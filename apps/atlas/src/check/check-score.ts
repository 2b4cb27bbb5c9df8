// The quality score of one `check`: @mcp-atlas/score over what this check measured, shaped as the daily
// scoring shapes the observatory's own checks (score/score-inputs.ts), so the same server gets the same reading
// here and on its page where the inputs are the same. What one check cannot know stays pending: reliability needs
// history (the score's probe-count minimum), docs and maintenance need the repository, security sees no registry
// entry. Deep mode adds its error-handling, fuzz and smoke parts to the protocol dimension.
import { deepProbeOf, reliabilityInputOf, staticAnalysisFrom } from '@mcp-atlas/operations';
import type { ProbeResult } from '@mcp-atlas/probe';
import {
  analyzeRuntimeSchemas,
  type DeepProbe,
  type ScoreInput,
  type ScoreResult,
  scoreServer,
  specVersionFromProtocolVersion,
  toSpecVersionMetadata,
} from '@mcp-atlas/score';
import { WATCHED_TRANSPORT } from '../score/registry-facts.js';
import { ATLAS_SCORE_SCOPE, type ScoreScope } from '../score/shown-score.js';
import type { DeepReport } from './report-schema.js';

/** The transport a stdio target is recorded under in the score's registry metadata (the engine's word). */
export const STDIO_TRANSPORT = 'stdio';

/**
 * Where a check's score was measured: an HTTP target as the observatory scores remotes; a stdio target is a
 * local server this check ran itself, so its protocol comes from that session, as from a sandbox.
 */
export function checkScoreScope(transport: 'http' | 'stdio'): ScoreScope {
  return transport === 'http'
    ? ATLAS_SCORE_SCOPE
    : { isRemote: false, hasSandboxProbe: true, hasReliabilityData: false };
}

/** The protocol evidence: the handshake's (as the daily scoring reads it), plus deep mode's parts when it ran. */
export function checkDeepProbeOf(probe: ProbeResult, tools: unknown[] | null, deep: DeepReport | null): DeepProbe {
  const schemas = tools === null ? null : analyzeRuntimeSchemas(tools);
  const base = deepProbeOf(
    { letter: probe.letter, elapsedMs: probe.elapsedMs, toolCount: probe.toolCount },
    schemas,
    deep?.compliance.authDiscovery ?? null,
  );
  if (deep === null || deep.skipped !== null) return base;
  const { parts } = deep.compliance;
  return {
    ...base,
    errorHandlingScore: parts.errorHandling,
    fuzzScore: parts.fuzz,
    functionalSmokeScore: parts.smoke,
  };
}

/** What scoreCheck needs: the probe's result, deep mode's report (or null), and the time of the check. */
export interface CheckScoreInput {
  transport: 'http' | 'stdio';
  /** The URL checked (already without secrets), or the command line for stdio. */
  target: string;
  probe: ProbeResult;
  deep: DeepReport | null;
  now: Date;
  /**
   * `--published-url`: the URL the server will be reached at once deployed. The score then reads the check as a
   * remote at that URL, whatever the transport checked; absent or null, as the check was made.
   */
  publishedUrl?: string | null;
}

/**
 * The scope a check is scored in: as made, or, with a published URL, as the observatory scores a remote (a local
 * stdio build that will be served over HTTP is scored as what it will be).
 */
function scopeOf(input: Pick<CheckScoreInput, 'transport' | 'publishedUrl'>): ScoreScope {
  return input.publishedUrl ? ATLAS_SCORE_SCOPE : checkScoreScope(input.transport);
}

/** The score input of one check: the same shape the daily scoring builds, from this check alone. */
export function checkScoreInputOf(input: CheckScoreInput): ScoreInput {
  const { probe } = input;
  const published = input.publishedUrl ?? null;
  const remote = published !== null || input.transport === 'http';
  const endpoint = published ?? input.target;
  const tools = probe.letter === 'o' && probe.toolsJson !== null ? probe.tools : null;
  const scope = scopeOf(input);
  const spec = toSpecVersionMetadata(specVersionFromProtocolVersion(probe.protocolVersion));
  return {
    server: {
      name: probe.serverInfo?.name ?? endpoint,
      description: '',
      repoUrl: '',
      registryId: '',
      remoteEndpointUrl: remote ? endpoint : '',
      isRemote: scope.isRemote,
      hasSandboxProbe: scope.hasSandboxProbe,
      registryMetadata: { env_vars: [], transport: remote ? WATCHED_TRANSPORT : STDIO_TRANSPORT, spec_version: spec },
      npmUrl: '',
      pypiUrl: '',
      dockerhubUrl: '',
      lastCommitAt: null,
    },
    staticAnalysis: staticAnalysisFrom(tools === null ? null : analyzeRuntimeSchemas(tools), null),
    deepProbe: checkDeepProbeOf(probe, tools, input.deep),
    // One handshake is one probe: below the score's minimum, so reliability stays pending for a remote.
    reliability: scope.hasReliabilityData
      ? reliabilityInputOf({
          daily: [{ letter: probe.letter, elapsedMs: probe.elapsedMs }],
          fiveMinuteCounters: [],
          hourly: [],
          fiveMinuteTimings: [],
        })
      : null,
    agentUsability: null,
    now: input.now.toISOString(),
  };
}

/** Scores one check with @mcp-atlas/score. */
export function scoreCheck(input: CheckScoreInput): ScoreResult {
  return scoreServer(checkScoreInputOf(input));
}

/** How a `--published-url` score differs from the check's own: the URL, and the flags of the local one it left out. */
export interface PublishedScoreNote {
  url: string;
  /** Flags the check as made raised (from its local address, such as STAGING_ARTIFACT for 127.0.0.1) that the score at the published URL does not. */
  localFlagsLeftOut: { key: string; label: string }[];
}

/**
 * The check's score, at the published URL when one is given, with a note naming the published URL and the local
 * flags that score leaves out (null without a published URL). Both scores read the same probe: only where the
 * server is reached differs.
 *
 * @example scoreCheckAt({ ...input, publishedUrl: 'https://mcp.weather.net/mcp' }).published
 * // { url: 'https://mcp.weather.net/mcp', localFlagsLeftOut: [{ key: 'STAGING_ARTIFACT', label: 'Staging Endpoint' }] }
 */
export function scoreCheckAt(input: CheckScoreInput): { score: ScoreResult; published: PublishedScoreNote | null } {
  const published = input.publishedUrl ?? null;
  if (published === null) return { score: scoreCheck(input), published: null };
  const score = scoreCheck(input);
  const local = scoreCheck({ ...input, publishedUrl: null });
  const kept = new Set(score.flags.map((f) => f.key));
  const localFlagsLeftOut = local.flags.filter((f) => !kept.has(f.key)).map((f) => ({ key: f.key, label: f.label }));
  return { score, published: { url: published, localFlagsLeftOut } };
}

/**
 * Checks a `--published-url` value: an absolute http or https URL without user info (it is printed in the report).
 * Returns the URL as given, or a sentence saying what is wrong with it.
 */
export function checkPublishedUrl(text: string): { ok: true; url: string } | { ok: false; reason: string } {
  if (!URL.canParse(text)) return { ok: false, reason: '--published-url must be an absolute URL' };
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: `--published-url must be http or https, got ${url.protocol.slice(0, -1)}` };
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: '--published-url must not carry a user name or password' };
  return { ok: true, url: text };
}
