// Turns one probe result into the parts of the check report: tools with their risk verdicts and hashes,
// findings and the token estimate. Every rule is the packages'; this file only joins their answers.
import { analyzeToolList, estimateTokens, FINDING_TITLES, hashTool, readToolName } from '@mcp-atlas/findings';
import type { ProbeResult } from '@mcp-atlas/probe';
import { classifyTools } from '@mcp-atlas/risk';
import type { CheckedTool, CheckFinding, CheckStep } from './report-schema.js';

/** The tools of a probe result, each with its level, rule, reason and hash, in the server's order. */
export function describeTools(tools: readonly unknown[]): CheckedTool[] {
  const verdicts = classifyTools(tools);
  return tools.map((tool, index) => {
    const verdict = verdicts[index];
    if (verdict === undefined) throw new Error(`classifyTools returned no verdict for tools[${index}]`);
    return {
      name: readToolName(tool) ?? `tools[${index}]`,
      level: verdict.level,
      rule: verdict.rule,
      raised: verdict.raised,
      reason: verdict.reason,
      hash: hashTool(tool),
    };
  });
}

/** The text of every tool the server listed (past the 500 kept too), or null when no list was read. */
function listedJsonOf(result: ProbeResult): string | null {
  return result.listedJson ?? result.toolsJson;
}

/** The findings of a probe result; none when the server sent no tool list to read. */
export function describeFindings(result: ProbeResult): CheckFinding[] {
  const listedJson = listedJsonOf(result);
  if (listedJson === null) return [];
  const findings = analyzeToolList({
    tools: result.tools,
    toolsJson: listedJson,
    protocolVersion: result.protocolVersion,
    elapsedMs: result.elapsedMs,
  });
  return findings.map((finding) => ({ ...finding, title: FINDING_TITLES[finding.id] }));
}

/** The token estimate of the tool list as sent, or null when no list was read. */
export function describeTokens(result: ProbeResult): number | null {
  const listedJson = listedJsonOf(result);
  return listedJson === null ? null : estimateTokens(listedJson);
}

/** The handshake steps with their timings, in the order they ran. */
export function describeSteps(result: ProbeResult): CheckStep[] {
  return result.steps.map((step) => ({
    name: step.page === null ? step.name : `${step.name} (page ${step.page})`,
    outcome: step.outcome,
    elapsedMs: step.elapsedMs,
    detail: step.detail,
  }));
}
