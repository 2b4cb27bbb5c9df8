// The inputs of the daily quality score, gathered from what the service already keeps: the day's result and
// catalog, the week's daily results, the five-minute counters with their wall times, the per-day tallies of every
// hourly check (and, for files written before those, the kept hourly and five-minute observations),
// the day's well-known reads, and the registry facts kept by server id (state/registry-score-facts.json). Every rule
// of the score (what a category is worth, the probe-count gate, the flags) is @mcp-atlas/score's, and how checks
// become its inputs (the day's last second, the window, the uptime and percentiles, the protocol evidence) is
// @mcp-atlas/operations'; this file reads the files and wires them together.
//
// What the observatory cannot measure stays empty, and the score renormalises over the rest: error handling,
// fuzz and smoke (we never call a tool), behavioral security, agent usability (no model), and the repository
// dimensions when no GitHub reader is configured or the read fails.

import { shiftDay } from '@mcp-atlas/base';
import {
  deepProbeOf,
  type ReliabilityEvidence,
  reliabilityInputOf,
  reliabilityWindowOf,
  scoreInstantOf,
  staticAnalysisFrom,
} from '@mcp-atlas/operations';
import type { GitHubRepositoryRead } from '@mcp-atlas/probe/outside';
import { isAnsweringLetter } from '@mcp-atlas/reliability';
import {
  analyzeRepository,
  analyzeRuntimeSchemas,
  countDescriptions,
  type DayCheckCount,
  type FlagContext,
  type RepositoryAnalysis,
  type ScoreInput,
  type ScoreServer,
  specVersionFromProtocolVersion,
  toSpecVersionMetadata,
  type UptimeWindow,
  type UptimeWindowName,
  uptimeWindowsOf,
} from '@mcp-atlas/score';
import { RELIABILITY_RULES } from '@mcp-atlas/score/rules';
import { z } from 'zod';
import { readDayResults } from '../data/day-results.js';
import { readFiveMinuteChecks } from '../data/five-minute-checks.js';
import { dayCatalogPath, HOURLY_PATH, ORIGINS_PATH, serverStatePath } from '../data/paths.js';
import {
  CatalogSchema,
  HourlyFileSchema,
  type HourlyObservation,
  type RegistryScoreFacts,
  type ServerDayResult,
  type ServerState,
  ServerStateSchema,
  type WatchedServer,
} from '../data/schemas.js';
import { getJsonOrNull, type Storage } from '../storage/storage.js';
import { packagePagesOf, readRegistryScoreFacts, registryMetadataOf } from './registry-facts.js';

/** Reads a repository for the docs-and-maintenance dimensions: `readGitHubRepository` of @mcp-atlas/probe, bound to its options. */
export type RepositoryReader = (repoUrl: string) => Promise<GitHubRepositoryRead>;

/**
 * Builds the `server` part of a score input from a watched server's records on a day: its registry facts, the URL
 * checked, the spec version its answer named, and the repository's last commit.
 */
export function buildScoreServerFromRecords(
  server: WatchedServer,
  facts: RegistryScoreFacts | undefined,
  result: Pick<ServerDayResult, 'url' | 'protocolVersion'>,
  repository: RepositoryAnalysis | null,
): ScoreServer {
  const spec = toSpecVersionMetadata(specVersionFromProtocolVersion(result.protocolVersion));
  return {
    name: facts?.registryId || server.title || server.id,
    description: facts?.description ?? '',
    repoUrl: facts?.repositoryUrl ?? '',
    registryId: facts?.registryId ?? '',
    remoteEndpointUrl: result.url,
    isRemote: true,
    hasSandboxProbe: false,
    registryMetadata: registryMetadataOf(facts, { spec_version: spec }),
    ...packagePagesOf(server, facts),
    lastCommitAt: repository?.lastCommitAt ?? null,
  };
}

/** The map-wide facts of the context flags: how many servers share each description, and archived repositories. */
export function flagContextOf(
  facts: ReadonlyMap<string, RegistryScoreFacts>,
  repositories: ReadonlyMap<string, { repoUrl: string; archived: boolean }>,
): FlagContext {
  return {
    descriptionCounts: countDescriptions([...facts.values()].map((f) => f.description)),
    archivedRepos: [...repositories.values()].filter((r) => r.archived).map((r) => r.repoUrl),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Reading the files
// ---------------------------------------------------------------------------------------------------------

const OriginsWellKnownSchema = z.object({
  day: z.string(),
  origins: z.array(
    z.looseObject({
      origin: z.string(),
      wellKnown: z.looseObject({ oauthProtectedResource: z.looseObject({ found: z.boolean() }) }).nullable(),
    }),
  ),
});

/** Whether each origin publishes an OAuth protected-resource document, as the day's origin reads found; empty for another day. */
async function readAuthDocuments(storage: Storage, day: string): Promise<Map<string, boolean>> {
  const parsed = OriginsWellKnownSchema.safeParse(await getJsonOrNull(storage, ORIGINS_PATH));
  const found = new Map<string, boolean>();
  if (!parsed.success || parsed.data.day !== day) return found;
  for (const read of parsed.data.origins)
    if (read.wellKnown !== null) found.set(read.origin, read.wellKnown.oauthProtectedResource.found);
  return found;
}

/**
 * Whether a sign-in server publishes its protected resource metadata: what the check's own sign-in discovery
 * found (in the MCP spec's order, from the challenge's URL to the root), or for a result written before the check
 * kept it, the day's root well-known read of its origin.
 */
export function authDocumentFound(result: ServerDayResult, originRead: boolean | undefined): boolean | null {
  if (result.authDiscovery !== undefined && result.authDiscovery !== null)
    return result.authDiscovery.protectedResource !== null;
  return originRead ?? null;
}

/** The tools of a server's catalog of `day`, or null when there is none (nothing listed, or unreadable). */
export async function readCatalogTools(storage: Storage, day: string, serverId: string): Promise<unknown[] | null> {
  const parsed = CatalogSchema.safeParse(await getJsonOrNull(storage, dayCatalogPath(day, serverId)));
  return parsed.success ? parsed.data.tools : null;
}

async function readState(storage: Storage, serverId: string): Promise<ServerState | null> {
  const parsed = ServerStateSchema.safeParse(await getJsonOrNull(storage, serverStatePath(serverId)));
  return parsed.success ? parsed.data : null;
}

/** The UTC day of an ISO time, or null when it is not one. */
function utcDayOf(at: string): string | null {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}

function inWindow(at: string, window: readonly string[]): boolean {
  const day = utcDayOf(at);
  return day !== null && window.includes(day);
}

/** The days of the longest uptime window ending `day`, oldest first (the 30 days the 30-day uptime reads). */
function uptimeDaysOf(day: string): string[] {
  const days = RELIABILITY_RULES.uptimeWindowDays.last30d;
  return Array.from({ length: days }, (_, i) => shiftDay(day, i - (days - 1)));
}

/** A server's checks of the uptime windows' days, one count per kind and day. */
interface UptimeEvidence {
  /** Daily results by day (the scored day's included). */
  daily: ReadonlyMap<string, Pick<ServerDayResult, 'letter'>>;
  hourlyTallies: readonly DayCheckCount[] | undefined;
  /** Hourly observations still kept: counted only when there are no tallies (files written before them). */
  hourly: readonly HourlyObservation[];
  fiveMinuteCounters: readonly DayCheckCount[];
}

/** The counts uptimeWindowsOf reads: every daily, hourly and five-minute check, as the score counts them. */
export function uptimeCountsOf(evidence: UptimeEvidence): DayCheckCount[] {
  const counts: DayCheckCount[] = [];
  for (const [day, result] of evidence.daily)
    counts.push({ day, answered: isAnsweringLetter(result.letter) ? 1 : 0, checks: 1 });
  if (evidence.hourlyTallies !== undefined) counts.push(...evidence.hourlyTallies);
  else
    for (const observation of evidence.hourly) {
      const day = utcDayOf(observation.at);
      if (day !== null) counts.push({ day, answered: isAnsweringLetter(observation.letter) ? 1 : 0, checks: 1 });
    }
  counts.push(...evidence.fiveMinuteCounters);
  return counts;
}

/** What scoreInputsOf needs besides the storage. */
export interface ScoreInputsOptions {
  day: string;
  /** The day's results (one per checked server). */
  results: readonly ServerDayResult[];
  /** The watched servers checked that day (titles and packages; registry facts come from their own file). */
  servers: readonly WatchedServer[];
  /** Reads a GitHub repository; without it the repository dimensions stay pending. */
  readRepository?: RepositoryReader;
  /** The operator's verified publishers (lower case); without it the score's built-in list applies. */
  verifiedPublishers?: readonly string[];
}

/** One server's score input, with the tool list it was computed from (null when nothing was listed). */
export interface GatheredScoreInput {
  serverId: string;
  input: ScoreInput;
  tools: unknown[] | null;
  /** The 24-hour, 7-day and 30-day uptime ending the day, over every check (the 7-day one is the score's). */
  uptime: Record<UptimeWindowName, UptimeWindow>;
}

async function readRepositoryOf(
  reader: RepositoryReader | undefined,
  facts: RegistryScoreFacts | undefined,
  now: string,
): Promise<{ repoUrl: string; analysis: RepositoryAnalysis; archived: boolean } | null> {
  const repoUrl = facts?.repositoryUrl ?? null;
  if (reader === undefined || repoUrl === null) return null;
  try {
    const read = await reader(repoUrl);
    if (!read.ok) return null;
    const analysis = analyzeRepository(read.facts, { now, registryId: facts?.registryId ?? null });
    return { repoUrl, analysis, archived: read.facts.archived };
  } catch {
    // The reader returns failures as values; anything thrown still only leaves the dimensions pending.
    return null;
  }
}

/**
 * Gathers every checked server's score input for `day` from the stored files: protocol from the day's result,
 * catalog and origin reads; reliability over the seven days ending `day`; security and distribution from the
 * registry facts; schema quality from the runtime tool schemas; docs and maintenance from the repository when a
 * reader is given; the context flags over the day's servers. Call it after the day's fold (it reads the rolled
 * five-minute counters).
 */
export async function scoreInputsOf(storage: Storage, options: ScoreInputsOptions): Promise<GatheredScoreInput[]> {
  const { day } = options;
  const now = scoreInstantOf(day);
  const window = reliabilityWindowOf(day);
  const uptimeDays = uptimeDaysOf(day);
  const earlierByDay = new Map(
    await Promise.all(uptimeDays.slice(0, -1).map(async (d) => [d, await readDayResults(storage, d)] as const)),
  );
  const earlierDays = window.slice(0, -1).map((d) => earlierByDay.get(d) ?? new Map<string, ServerDayResult>());
  const hourlyFile = HourlyFileSchema.safeParse(await getJsonOrNull(storage, HOURLY_PATH));
  const hourly = hourlyFile.success ? hourlyFile.data.results : {};
  const fiveMinute = await readFiveMinuteChecks(storage);
  const authDocuments = await readAuthDocuments(storage, day);
  const byId = new Map(options.servers.map((s) => [s.id, s]));
  const registryFacts = await readRegistryScoreFacts(storage);

  const repositories = new Map<string, { repoUrl: string; analysis: RepositoryAnalysis; archived: boolean }>();
  for (const result of options.results) {
    const read = await readRepositoryOf(options.readRepository, registryFacts.get(result.id), now);
    if (read !== null) repositories.set(result.id, read);
  }
  // The map the duplicate-description flag counts over: every registry-listed server, checked today or not.
  const flagContext = flagContextOf(registryFacts, repositories);

  const gathered: GatheredScoreInput[] = [];
  for (const result of options.results) {
    const server = byId.get(result.id) ?? { id: result.id, url: result.url, source: 'registry' as const };
    const tools = result.letter === 'o' ? await readCatalogTools(storage, day, result.id) : null;
    const schemas = tools === null ? null : analyzeRuntimeSchemas(tools);
    const state = await readState(storage, result.id);
    const hourlyEntry = hourly[result.id];
    const kept = [hourlyEntry?.previous ?? null, hourlyEntry ?? null].filter(
      (o): o is HourlyObservation => o !== null && inWindow(o.at, window),
    );
    const evidence: ReliabilityEvidence = {
      daily: [
        ...earlierDays.flatMap((results) => {
          const earlier = results.get(result.id);
          return earlier === undefined ? [] : [earlier];
        }),
        result,
      ],
      fiveMinuteCounters: (state?.fiveMinute ?? []).filter((c) => window.includes(c.day)),
      // Every hourly check of the window, from the entry's per-day tallies; a file written before them has none.
      hourlyTallies: hourlyEntry?.tally?.filter((t) => window.includes(t.day)),
      hourly: kept,
      fiveMinuteTimings: (fiveMinute[result.id] ?? []).filter((o) => inWindow(o.at, window)),
    };
    const dailyByDay = new Map<string, ServerDayResult>();
    for (const [d, results] of earlierByDay) {
      const earlier = results.get(result.id);
      if (earlier !== undefined) dailyByDay.set(d, earlier);
    }
    dailyByDay.set(day, result);
    const uptime = uptimeWindowsOf(
      day,
      uptimeCountsOf({
        daily: dailyByDay,
        hourlyTallies: hourlyEntry?.tally,
        hourly: [hourlyEntry?.previous ?? null, hourlyEntry ?? null].filter((o): o is HourlyObservation => o !== null),
        fiveMinuteCounters: state?.fiveMinute ?? [],
      }),
    );
    const repository = repositories.get(result.id)?.analysis ?? null;
    const origin = URL.canParse(result.url) ? new URL(result.url).origin : '';
    gathered.push({
      serverId: result.id,
      tools,
      uptime,
      input: {
        server: buildScoreServerFromRecords(server, registryFacts.get(result.id), result, repository),
        staticAnalysis: staticAnalysisFrom(schemas, repository),
        deepProbe: deepProbeOf(result, schemas, authDocumentFound(result, authDocuments.get(origin))),
        reliability: reliabilityInputOf(evidence),
        agentUsability: null,
        ...(options.verifiedPublishers !== undefined ? { verifiedOrgs: options.verifiedPublishers } : {}),
        now,
        flagContext,
        // Set by the day's scoring once it has read the review queue: a scan match alone never counts.
        confirmedInjection: false,
      },
    });
  }
  return gathered;
}
