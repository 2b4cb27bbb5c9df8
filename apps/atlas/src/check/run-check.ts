// One check, from target to report: the probe's handshake, the risk verdicts, the findings, the baseline
// comparison, deep mode and the gates. It writes nothing; the command decides what to print and save.
import { chooseConformanceScenarios, type ProbeResult, probeServer } from '@mcp-atlas/probe';
import {
  checkLocalPackage,
  type InstallSettings,
  type LocalPackage,
  nodeNetwork,
  probeStdio,
  type StdioIsolation,
} from '@mcp-atlas/probe/node';
import { PROBE_RULES_VERSION } from '@mcp-atlas/probe/rules';
import { RISK_RULES_VERSION } from '@mcp-atlas/risk/rules';
import { APP_VERSION } from '../methodology.js';
import { describeFindings, describeSteps, describeTokens, describeTools } from './analyze.js';
import { buildBaseline, compareWithBaseline } from './baseline.js';
import { scoreCheckAt } from './check-score.js';
import { type ConformanceSuite, runConformance } from './conformance.js';
import { CHECK_CLIENT_NAME, CHECK_DEADLINE_MS, CHECK_REPORT_SCHEMA, DEEP_CALL_TIMEOUT_MS } from './constants.js';
import { runDeep } from './deep.js';
import { evaluateGates, type Gate, gateName } from './gates.js';
import { listAll } from './list-all.js';
import { redactCommandWords, redactHeader, redactUrl } from './redact.js';
import type { BaselineFile, CheckReport } from './report-schema.js';
import type { SessionTarget } from './session.js';
import { type ExtraHeader, headerRecord, isLoopbackUrl, splitUserInfo } from './target-access.js';

/**
 * What to check: a URL (Streamable HTTP), a local command speaking MCP on stdio, or a published package, installed
 * at its exact version and run in the probe's sandbox (`spec` is how the user wrote it: `npm:name@version`).
 */
export type CheckTarget =
  | { kind: 'http'; url: string }
  | { kind: 'stdio'; command: string; args: readonly string[] }
  | { kind: 'package'; spec: string; package: LocalPackage; install: InstallSettings };

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
  /** How to reach the server: extra headers, passed variables, the time limit. Default: none of them. */
  access?: CheckAccessSettings;
  /** `--list-all`: also read resources and prompts. */
  listAll?: boolean;
  /** Hides known secrets in what the server sent, before anything is hashed or recorded. */
  scrub?: <T>(value: T) => T;
  /** The time the quality score's age checks count from; default the wall clock. */
  now?: () => Date;
  /** `--published-url`: score the check as if the server were reached at this URL. */
  publishedUrl?: string | null;
  /** `--conformance`: the suite, and the scenarios asked for by name (none: the default choice). */
  conformance?: { suite: ConformanceSuite; scenarios: readonly string[]; timeoutMs?: number } | null;
}

/** The secrets and limits of one check, in memory only; the report records names, never values. */
export interface CheckAccessSettings {
  headers: readonly ExtraHeader[];
  /** `--env` variables handed to a stdio server, name to value. */
  env: Readonly<Record<string, string>>;
  /** `--timeout`: the handshake's overall limit and each later request's limit; null for the defaults. */
  timeoutMs: number | null;
  /** `--stdio-isolation`: what a stdio server's processes run in; absent means `auto`. */
  stdioIsolation?: StdioIsolation;
}

const NO_ACCESS: CheckAccessSettings = { headers: [], env: {}, timeoutMs: null };

/** A finished check: the report, the raw probe result, and the baseline that describes what was seen. */
export interface CheckOutcome {
  report: CheckReport;
  probe: ProbeResult;
  /** The baseline of this run, or null when no tool list was read (nothing worth locking in). */
  freshBaseline: BaselineFile | null;
}

/** The target as it may be recorded: the URL or the command line, with every secret-looking value as `***`. */
export function describeTarget(target: CheckTarget): string {
  if (target.kind === 'http') return redactUrl(target.url);
  if (target.kind === 'package') return target.spec;
  return redactCommandWords([target.command, ...target.args]).join(' ');
}

/** The transport a report names: a package runs over stdio, in the sandbox. */
function transportOf(target: CheckTarget): 'http' | 'stdio' {
  return target.kind === 'http' ? 'http' : 'stdio';
}

/** Where sessions connect, reached the same way as the handshake: user info moved into a header, variables passed. */
export function sessionTargetOf(settings: CheckSettings, endpoint: string): SessionTarget {
  const { target } = settings;
  const access = settings.access ?? NO_ACCESS;
  // The parser refuses --deep and --list-all for a package: a session outside the sandbox is never opened.
  if (target.kind === 'package') throw new Error('a package is checked in the sandbox only, with no other session');
  if (target.kind === 'stdio')
    return {
      kind: 'stdio',
      command: target.command,
      args: target.args,
      env: access.env,
      ...(access.stdioIsolation === undefined ? {} : { isolation: access.stdioIsolation }),
    };
  // The sign-in comes from the URL the user gave; the endpoint (maybe after a redirect) never carries user info.
  const { authorization } = splitUserInfo(target.url);
  const headers = authorization === null ? access.headers : [authorization, ...access.headers];
  const url = splitUserInfo(endpoint).url;
  return { kind: 'http', url, headers, ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }) };
}

async function probeTarget(settings: CheckSettings): Promise<ProbeResult> {
  const access = settings.access ?? NO_ACCESS;
  const options = {
    clientInfo: { name: CHECK_CLIENT_NAME, version: APP_VERSION },
    deadlineMs: access.timeoutMs ?? CHECK_DEADLINE_MS,
  };
  const { target } = settings;
  if (target.kind === 'package') return (await checkLocalPackage(target.package, target.install)).probe;
  if (target.kind === 'stdio')
    return probeStdio(
      { command: target.command, args: target.args, env: { ...access.env } },
      { ...options, ...(access.stdioIsolation === undefined ? {} : { isolation: access.stdioIsolation }) },
    );
  const session = sessionTargetOf(settings, target.url);
  const headers = session.kind === 'http' ? (session.headers ?? []) : [];
  const url = session.kind === 'http' ? session.url : target.url;
  // The author's own server: loopback and plain http are allowed here, and only here. The headers go to the
  // server's own origin only, never to an authorization server that sign-in discovery reads.
  const network = settings.fetch === undefined ? nodeNetwork : { fetch: settings.fetch };
  return probeServer(url, { ...options, ...network, headers: headerRecord(headers), allowPrivate: true });
}

/**
 * The conformance suite's results for an HTTP target with `--conformance`, else null. The suite is given the URL
 * as the user wrote it (its query may hold a token); what it reports is scrubbed like everything else.
 */
async function runConformanceOf(settings: CheckSettings, raw: ProbeResult): Promise<CheckReport['conformance']> {
  const asked = settings.conformance;
  if (asked === undefined || asked === null || settings.target.kind !== 'http') return null;
  const scrub = settings.scrub ?? (<T>(value: T): T => value);
  const url = settings.target.url;
  const report = await runConformance({
    suite: asked.suite,
    url,
    scenarios: chooseConformanceScenarios({
      loopback: isLoopbackUrl(url),
      capabilities: raw.capabilities,
      asked: asked.scenarios,
    }),
    ...(asked.timeoutMs === undefined ? {} : { timeoutMs: asked.timeoutMs }),
  });
  return scrub(report);
}

/** Runs one check and builds its report. A misbehaving server is a letter d in the report, never a throw. */
export async function runCheck(settings: CheckSettings): Promise<CheckOutcome> {
  const targetText = describeTarget(settings.target);
  const scrub = settings.scrub ?? (<T>(value: T): T => value);
  const raw = await probeTarget(settings);
  const probe = scrub(raw);
  const tools = describeTools(probe.tools);
  const findings = describeFindings(probe);
  const listRead = probe.toolsJson !== null;
  const access = settings.access ?? NO_ACCESS;
  // The endpoint to reconnect to is the real one: its query may hold the token the scrubbed copy hides.
  const session =
    settings.listAll === true || settings.deep
      ? sessionTargetOf(settings, settings.target.kind === 'http' ? raw.endpoint : '')
      : null;
  const requestTimeoutMs = settings.deepCallTimeoutMs ?? access.timeoutMs ?? DEEP_CALL_TIMEOUT_MS;
  const listed =
    session !== null && settings.listAll === true
      ? scrub(await listAll(session, probe.letter, APP_VERSION, requestTimeoutMs))
      : null;
  const definitions =
    listed === null
      ? null
      : { resources: listed.resources, resourceTemplates: listed.resourceTemplates, prompts: listed.prompts };
  // Without a tool list there is nothing to compare: a server that did not answer is the not-answering gate's business.
  const baseline =
    settings.baseline !== null && listRead
      ? compareWithBaseline(settings.baseline.file, settings.baseline.content, probe, definitions)
      : null;
  const deep =
    session !== null && settings.deep
      ? await runDeep({
          target: session,
          letter: probe.letter,
          tools: probe.tools,
          checked: tools,
          version: APP_VERSION,
          callTimeoutMs: requestTimeoutMs,
          authDiscovery: probe.authDiscovery ?? null,
        })
      : null;
  const conformance = await runConformanceOf(settings, raw);
  const tripped = evaluateGates(settings.gates, {
    letter: probe.letter,
    reason: probe.reason,
    tools,
    findings,
    baseline,
    conformance,
  });
  const report: CheckReport = {
    schema: CHECK_REPORT_SCHEMA,
    target: targetText,
    transport: transportOf(settings.target),
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
    listAll: listed === null ? null : listed.report,
    conformance,
    access: {
      headers: access.headers.map((header) => redactHeader(header.name)),
      env: Object.keys(access.env),
      timeoutMs: access.timeoutMs,
    },
    gates: { failOn: settings.gates.map(gateName), tripped },
    passed: tripped.length === 0,
    ...scoreCheckAt({
      transport: transportOf(settings.target),
      target: targetText,
      probe,
      deep,
      now: (settings.now ?? (() => new Date()))(),
      publishedUrl: settings.publishedUrl ?? null,
    }),
    rulesVersions: { probe: PROBE_RULES_VERSION, risk: RISK_RULES_VERSION },
  };
  return { report, probe, freshBaseline: listRead ? buildBaseline(targetText, probe, tools, definitions) : null };
}
