// One server's daily check, composed from the packages: probe it, cut its tool text to the probe's cap,
// classify its tools, list findings, hash the list. Every rule used here lives in a package; this file only
// decides what to keep. The catalog file is written from the raw tool text the server sent, never by
// re-serializing the parsed tools: a hostile list must not be able to break the day's save.
import { analyzeToolList, estimateTokens, hashTool, hashToolList } from '@mcp-atlas/findings';
import { nodeSha256 } from '@mcp-atlas/history/node';
import { capToolText, type ProbeResult } from '@mcp-atlas/probe';
import { classifyTools } from '@mcp-atlas/risk';
import { categorize } from '@mcp-atlas/route';
import type { Catalog, ServerDayResult, WatchedServer } from '../data/schemas.js';

/** Probes one URL; the app passes the probe package's `probeServer` with its options already bound. */
export type ProbeFn = (server: WatchedServer) => Promise<ProbeResult>;

/**
 * What one check produced: the result line for the day's shard, and the tool catalog when tools were
 * listed, with the kept tools' raw JSON text (`catalogToolsJson`, the text the catalog file stores).
 */
export interface ServerCheck {
  result: ServerDayResult;
  catalog: Catalog | null;
  catalogToolsJson: string | null;
}

/** The reason of a day's record when our own code failed on a server's check (the letter is d). */
export const INTERNAL_ERROR_REASON = 'internal-error';

/** The longest error message kept in an internal-error record. */
const INTERNAL_ERROR_MESSAGE_CHARS = 300;

function nameOf(tool: unknown): string {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}

/** The server version the server reported, or null: a serverInfo without one is read by the probe as ''. */
function reportedVersionOf(probe: ProbeResult): string | null {
  const version = probe.serverInfo?.version;
  return version === undefined || version === '' ? null : version;
}

/**
 * Turns a probe result into the day's record of that server, plus its catalog. `checkedAt` (ISO 8601) is
 * when the check started: it places the daily check in the incident rule's 2-hour window. Without it the
 * record is dated by its day only, as results written before it was kept are. `rateLimitWaitsMs`: the waits
 * taken before asking a rate-limited server again, kept when there were any.
 */
export function recordCheck(
  server: WatchedServer,
  day: string,
  probe: ProbeResult,
  checkedAt?: string,
  rateLimitWaitsMs: readonly number[] = [],
): ServerCheck {
  const answeredWithTools = probe.letter === 'o';
  // The kept tools' text (at most 500 tools) is what capToolText cuts to the stored part. The size of the list
  // is every tool listed over the pages (methodology: the 500-tool cap limits what is kept, not what is
  // measured), so the token estimate and heavy-tool-list read the whole list's text; a result without it
  // (probeStdio's, an older probe's) falls back to the kept text.
  const keptJson = answeredWithTools ? (probe.toolsJson ?? JSON.stringify(probe.tools)) : '[]';
  const listedJson = answeredWithTools ? (probe.listedJson ?? keptJson) : '[]';
  const kept = answeredWithTools ? capToolText(probe.tools, keptJson) : { tools: [], toolsJson: '[]', cut: null };
  const tools = kept.tools;
  const verdicts = classifyTools(tools);
  // The app runs on Node, so tool hashes use node:crypto (the packages default to portable JavaScript).
  const hashing = { sha256: nodeSha256 };
  const toolsHash = answeredWithTools ? hashToolList(tools, hashing) : null;
  const findings = answeredWithTools
    ? analyzeToolList({
        tools,
        toolsJson: listedJson,
        ...(probe.protocolVersion !== null ? { protocolVersion: probe.protocolVersion } : {}),
        elapsedMs: probe.elapsedMs,
        cut: kept.cut,
      })
    : [];
  const result: ServerDayResult = {
    id: server.id,
    url: server.url,
    letter: probe.letter,
    reason: probe.reason,
    message: probe.message,
    notStandardMcp: probe.notStandardMcp,
    protocolVersion: probe.protocolVersion,
    serverName: probe.serverInfo?.name ?? null,
    serverVersion: reportedVersionOf(probe),
    elapsedMs: Math.round(probe.elapsedMs),
    steps: probe.steps,
    toolCount: tools.length,
    toolsHash,
    tokens: answeredWithTools ? estimateTokens(listedJson) : null,
    findings: findings.map((f) => ({ ...f, id: f.id })),
    highRiskTools: verdicts.filter((v) => v.level === 'high-risk').length,
    paymentAddress: probe.paymentAddress,
    redirect: probe.redirect,
    authDiscovery: probe.authDiscovery ?? null,
    category: answeredWithTools ? categorize(tools) : null,
    ...(checkedAt !== undefined ? { checkedAt } : {}),
    ...(rateLimitWaitsMs.length > 0 ? { rateLimitWaitsMs: [...rateLimitWaitsMs] } : {}),
  };
  if (!answeredWithTools || toolsHash === null) return { result, catalog: null, catalogToolsJson: null };
  const catalog: Catalog = {
    id: server.id,
    day,
    toolsHash,
    serverVersion: reportedVersionOf(probe),
    tools,
    verdicts: tools.map((tool, i) => {
      const verdict = verdicts[i];
      // classifyTools answers one verdict per tool, in order; a missing one is a bug, not a server's doing.
      if (verdict === undefined) throw new Error(`recordCheck: no risk verdict for tool ${i} of ${tools.length}`);
      return {
        name: nameOf(tool),
        hash: hashTool(tool, hashing),
        level: verdict.level,
        rule: verdict.rule,
        raised: verdict.raised,
        reason: verdict.reason,
      };
    }),
  };
  return { result, catalog, catalogToolsJson: kept.toolsJson };
}

/**
 * The bytes of a catalog file: the catalog as JSON, with `tools` spliced in as the raw text the server sent
 * (`toolsJson`, the kept tools exactly as received) instead of a re-serialization of the parsed tools.
 * Readers parse it with CatalogSchema like any other catalog; only the fields around `tools` are written by
 * JSON.stringify, and they hold nothing nested that a server chose.
 */
export function encodeCatalog(catalog: Catalog, toolsJson: string): Uint8Array {
  const head = JSON.stringify({
    id: catalog.id,
    day: catalog.day,
    toolsHash: catalog.toolsHash,
    serverVersion: catalog.serverVersion,
  });
  const text = `${head.slice(0, -1)},"tools":${toolsJson},"verdicts":${JSON.stringify(catalog.verdicts)}}\n`;
  return new TextEncoder().encode(text);
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > INTERNAL_ERROR_MESSAGE_CHARS ? `${text.slice(0, INTERNAL_ERROR_MESSAGE_CHARS - 1)}…` : text;
}

/**
 * The day's record of a server whose check our own code could not finish (the probe, or what we do with
 * its answer, threw): letter d, reason `internal-error`, and the error's message. One server's failure
 * must not stop the day.
 */
export function internalErrorResult(server: WatchedServer, error: unknown, checkedAt?: string): ServerDayResult {
  return {
    id: server.id,
    url: server.url,
    letter: 'd',
    reason: INTERNAL_ERROR_REASON,
    message: `the check could not be recorded: ${describeError(error)}`,
    notStandardMcp: false,
    protocolVersion: null,
    serverName: null,
    serverVersion: null,
    elapsedMs: 0,
    steps: [],
    toolCount: 0,
    toolsHash: null,
    tokens: null,
    findings: [],
    highRiskTools: 0,
    paymentAddress: null,
    redirect: null,
    category: null,
    ...(checkedAt !== undefined ? { checkedAt } : {}),
  };
}
