// The quality score of a local server, computed when its version is checked. The score package scores a server
// without a remote endpoint as its engine does: schema quality from the tools the sandbox listed, security and
// distribution from the registry entry, protocol from the sandbox's session (equivalent to a deep probe) when one
// ran, and no reliability, since a local server has no uptime. Repository dimensions stay pending.
import { deepProbeOf, scoreInstantOf, staticAnalysisFrom } from '@mcp-atlas/operations';
import {
  analyzeRuntimeSchemas,
  type ScoreServer,
  scoreServer,
  specVersionFromProtocolVersion,
  toSpecVersionMetadata,
} from '@mcp-atlas/score';
import type { RegistryScoreFacts, ServerDayResult } from '../data/schemas.js';
import type { LocalRecord, LocalServer } from '../scan/local-servers.js';
import { type ServerScore, serverScoreOf } from './day-scores.js';
import { packagePagesOf, registryMetadataOf } from './registry-facts.js';
import { flagContextOf } from './score-inputs.js';

/** Outcomes where a session ran in the sandbox: the score's "sandbox probe" (it may have failed). */
const SANDBOX_RAN: ReadonlySet<LocalRecord['outcome']> = new Set(['listed', 'stopped', 'not-listed']);

/** What the score reads of a local server: its entry's facts, the package it ships as, and no endpoint. */
function localScoreServer(
  server: LocalServer,
  facts: RegistryScoreFacts | undefined,
  result: ServerDayResult,
  sandboxRan: boolean,
): ScoreServer {
  const spec = toSpecVersionMetadata(specVersionFromProtocolVersion(result.protocolVersion));
  const { registryType, identifier, version } = server.package;
  return {
    name: facts?.registryId || server.title,
    description: facts?.description ?? '',
    repoUrl: facts?.repositoryUrl ?? '',
    registryId: facts?.registryId ?? server.title,
    remoteEndpointUrl: '',
    isRemote: false,
    hasSandboxProbe: sandboxRan,
    registryMetadata: registryMetadataOf(facts, { spec_version: spec }),
    ...packagePagesOf(
      { id: server.id, url: result.url, source: 'registry', packages: [{ registryType, identifier, version }] },
      facts,
    ),
    lastCommitAt: null,
  };
}

/**
 * Scores one local server's check of `day`; `tools` is what the sandbox listed (null when nothing was). Null when
 * the score package refuses the input: the check is kept either way.
 */
export function scoreLocalCheck(input: {
  server: LocalServer;
  outcome: LocalRecord['outcome'];
  result: ServerDayResult;
  tools: readonly unknown[] | null;
  day: string;
  facts: ReadonlyMap<string, RegistryScoreFacts>;
  /** Whether a person confirmed one of its tool descriptions as an injection attempt. */
  confirmedInjection: boolean;
}): ServerScore | null {
  const sandboxRan = SANDBOX_RAN.has(input.outcome);
  const schemas = input.tools === null ? null : analyzeRuntimeSchemas([...input.tools]);
  try {
    const score = scoreServer({
      server: localScoreServer(input.server, input.facts.get(input.server.id), input.result, sandboxRan),
      staticAnalysis: staticAnalysisFrom(schemas, null),
      deepProbe: sandboxRan ? deepProbeOf(input.result, schemas, null) : null,
      reliability: null,
      agentUsability: null,
      now: scoreInstantOf(input.day),
      flagContext: flagContextOf(input.facts, new Map()),
      confirmedInjection: input.confirmedInjection,
    });
    return serverScoreOf(input.server.id, score);
  } catch {
    return null;
  }
}
