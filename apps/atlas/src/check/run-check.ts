// One check, from target to report: the probe's handshake, the risk verdicts, the findings, the baseline
// comparison, deep mode and the gates. It writes nothing; the command decides what to print and save.
import { PROBE_RULES_VERSION, type ProbeResult, probeServer } from '@mcp-atlas/probe';
import { nodeNetwork, probeStdio } from '@mcp-atlas/probe/node';
import { RISK_RULES_VERSION } from '@mcp-atlas/risk';
import { APP_VERSION } from '../methodology.js';
import { describeFindings, describeSteps, describeTokens, describeTools } from './analyze.js';
import { buildBaseline, compareWithBaseline } from './baseline.js';
import { CHECK_CLIENT_NAME, CHECK_DEADLINE_MS, CHECK_REPORT_SCHEMA } from './constants.js';
import { runDeep } from './deep.js';
import { evaluateGates, type Gate, gateName } from './gates.js';
import type { BaselineFile, CheckReport } from './report-schema.js';

/** What to check: a URL (Streamable HTTP) or a local command speaking MCP on stdio. */
export type CheckTarget = { kind: 'http'; url: string } | { kind: 'stdio'; command: string; args: readonly string[] };

/** The settings of one check. */
export interface CheckSettings {
  target: CheckTarget;
  gates: readonly Gate[];
  /** The baseline to compare with and the file it came from, or null. */
  baseline: { file: string; content: BaselineFile } | null;
  deep: boolean;
  /** A WHATWG fetch for HTTP targets instead of the Node pinning client (tests use it to add headers). */
  fetch?: typeof fetch;
  /** Per-call limit of deep mode. */
  deepCallTimeoutMs?: number;
}

/** A finished check: the report, the raw probe result, and the baseline that describes what was seen. */
export interface CheckOutcome {
  report: CheckReport;
  probe: ProbeResult;
  /** The baseline of this run, or null when no tool list was read (nothing worth locking in). */
  freshBaseline: BaselineFile | null;
}

/** The target as one line of text: the URL, or the command line. */
export function describeTarget(target: CheckTarget): string {
  return target.kind === 'http' ? target.url : [target.command, ...target.args].join(' ');
}

async function probeTarget(settings: CheckSettings): Promise<ProbeResult> {
  const options = { clientInfo: { name: CHECK_CLIENT_NAME, version: APP_VERSION }, deadlineMs: CHECK_DEADLINE_MS };
  const { target } = settings;
  if (target.kind === 'stdio') return probeStdio({ command: target.command, args: target.args }, options);
  // The author's own server: loopback and plain http are allowed here, and only here.
  const network = settings.fetch === undefined ? { ...nodeNetwork } : { fetch: settings.fetch };
  return probeServer(target.url, { ...options, ...network, allowPrivate: true });
}

/** Runs one check and builds its report. A misbehaving server is a letter d in the report, never a throw. */
export async function runCheck(settings: CheckSettings): Promise<CheckOutcome> {
  const targetText = describeTarget(settings.target);
  const probe = await probeTarget(settings);
  const tools = describeTools(probe.tools);
  const findings = describeFindings(probe);
  const listRead = probe.toolsJson !== null;
  // Without a tool list there is nothing to compare: a server that did not answer is the not-answering gate's business.
  const baseline =
    settings.baseline !== null && listRead
      ? compareWithBaseline(settings.baseline.file, settings.baseline.content, probe)
      : null;
  const deep = settings.deep
    ? await runDeep({
        target:
          settings.target.kind === 'http'
            ? { kind: 'http', url: probe.endpoint, ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }) }
            : settings.target,
        letter: probe.letter,
        tools: probe.tools,
        checked: tools,
        version: APP_VERSION,
        ...(settings.deepCallTimeoutMs === undefined ? {} : { callTimeoutMs: settings.deepCallTimeoutMs }),
      })
    : null;
  const tripped = evaluateGates(settings.gates, {
    letter: probe.letter,
    reason: probe.reason,
    tools,
    findings,
    baseline,
  });
  const report: CheckReport = {
    schema: CHECK_REPORT_SCHEMA,
    target: targetText,
    transport: settings.target.kind,
    letter: probe.letter,
    reason: probe.reason,
    message: probe.message,
    protocolVersion: probe.protocolVersion,
    serverInfo: probe.serverInfo,
    steps: describeSteps(probe),
    tools,
    toolCount: probe.toolCount,
    findings,
    tokens: describeTokens(probe),
    elapsedMs: probe.elapsedMs,
    baseline,
    deep,
    gates: { failOn: settings.gates.map(gateName), tripped },
    passed: tripped.length === 0,
    rulesVersions: { probe: PROBE_RULES_VERSION, risk: RISK_RULES_VERSION },
  };
  return { report, probe, freshBaseline: listRead ? buildBaseline(targetText, probe, tools) : null };
}
