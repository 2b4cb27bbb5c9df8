// One server's daily check, composed from the packages: probe it, classify its tools, list findings, hash
// the list. Every rule used here lives in a package; this file only decides what to keep.
import { analyzeToolList, estimateTokens, hashTool, hashToolList } from '@mcp-atlas/findings';
import { nodeSha256 } from '@mcp-atlas/history/node';
import type { ProbeResult } from '@mcp-atlas/probe';
import { classifyTools } from '@mcp-atlas/risk';
import { categorize } from '@mcp-atlas/route';
import type { Catalog, ServerDayResult, WatchedServer } from '../data/schemas.js';

/** Probes one URL; the app passes the probe package's `probeServer` with its options already bound. */
export type ProbeFn = (server: WatchedServer) => Promise<ProbeResult>;

/** What one check produced: the result line for the day's shard, and the tool catalog when tools were listed. */
export interface ServerCheck {
  result: ServerDayResult;
  catalog: Catalog | null;
}

function nameOf(tool: unknown): string {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}

/** Turns a probe result into the day's record of that server, plus its catalog. */
export function recordCheck(server: WatchedServer, day: string, probe: ProbeResult): ServerCheck {
  const answeredWithTools = probe.letter === 'o';
  const tools = answeredWithTools ? probe.tools : [];
  const verdicts = classifyTools(tools);
  // The app runs on Node, so tool hashes use node:crypto (the packages default to portable JavaScript).
  const hashing = { sha256: nodeSha256 };
  const toolsHash = answeredWithTools ? hashToolList(tools, hashing) : null;
  const toolsJson = probe.toolsJson ?? JSON.stringify(tools);
  const findings = answeredWithTools
    ? analyzeToolList({
        tools,
        toolsJson,
        ...(probe.protocolVersion !== null ? { protocolVersion: probe.protocolVersion } : {}),
        elapsedMs: probe.elapsedMs,
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
    serverVersion: probe.serverInfo?.version ?? null,
    elapsedMs: Math.round(probe.elapsedMs),
    steps: probe.steps,
    toolCount: tools.length,
    toolsHash,
    tokens: answeredWithTools ? estimateTokens(toolsJson) : null,
    findings: findings.map((f) => ({ ...f, id: f.id })),
    highRiskTools: verdicts.filter((v) => v.level === 'high-risk').length,
    paymentAddress: probe.paymentAddress,
    redirect: probe.redirect,
    category: answeredWithTools ? categorize(tools) : null,
  };
  if (!answeredWithTools || toolsHash === null) return { result, catalog: null };
  const catalog: Catalog = {
    id: server.id,
    day,
    toolsHash,
    serverVersion: probe.serverInfo?.version ?? null,
    tools,
    verdicts: tools.map((tool, i) => {
      const verdict = verdicts[i]!;
      return { name: nameOf(tool), hash: hashTool(tool, hashing), level: verdict.level, rule: verdict.rule, raised: verdict.raised, reason: verdict.reason };
    }),
  };
  return { result, catalog };
}
