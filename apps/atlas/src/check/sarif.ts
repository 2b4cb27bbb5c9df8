// SARIF 2.1.0 output for code-scanning uploads. Every finding and every risk rise is a result, and so is every
// tripped gate (not answering, a high-risk tool, a change against the baseline, a finding gate) and every failed
// check of the conformance suite. A server has no source line; the nearest thing a repository holds is the lock
// file, so a result about a tool points at the line where that tool's entry starts in the lock file, a result
// about the whole server points at the lock file, and without a lock file a result carries only a logical location
// (the tool or the server), never a made-up file.
import { FINDING_IDS, FINDING_TITLES, type FindingId } from '@mcp-atlas/findings';
import {
  METHODOLOGY_URL,
  SARIF_CONFORMANCE_RULE,
  SARIF_FINDING_RULE_PREFIX,
  SARIF_GATE_RULES,
  SARIF_RISK_RISE_RULE,
  SARIF_SCHEMA_URI,
  SARIF_VERSION,
} from './constants.js';
import { changeDetailLines } from './describe-change.js';
import type { CheckReport } from './report-schema.js';

/** The SARIF log `mcp-atlas check --sarif` writes, as a plain JSON value. */
export interface SarifLog {
  $schema: string;
  version: string;
  runs: SarifRun[];
}

type SarifLevel = 'note' | 'warning' | 'error';

/** One rule of the driver, with the texts code scanning shows next to a result. */
export interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri: string;
  defaultConfiguration: { level: SarifLevel };
}

type SarifLocation =
  | { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }
  | { logicalLocations: { name: string; kind: string }[] };

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: SarifLocation[];
  partialFingerprints: Record<string, string>;
}

interface SarifRun {
  tool: { driver: { name: string; informationUri: string; version: string; rules: SarifRule[] } };
  results: SarifResult[];
  properties: { target: string; letter: string; reason: string };
}

/** The lock file the results point into: its path relative to the working folder, and its text. */
export interface SarifLockFile {
  uri: string;
  text: string;
}

/** The methodology sections the rules link to: the area's file and GitHub's heading anchor in it. */
export const METHODOLOGY_ANCHORS = {
  findings: 'findings.md#findings',
  change: 'findings.md#change-detection-between-two-daily-checks',
  risk: 'risk.md#tool-risk-levels',
  letter: 'checks.md#the-letter',
  conformance: 'conformance.md#your-server-against-the-suite',
} as const;

const helpUri = (anchor: keyof typeof METHODOLOGY_ANCHORS): string =>
  `${METHODOLOGY_URL}/${METHODOLOGY_ANCHORS[anchor]}`;

/** Why each finding matters and what to do, in the words a server author reads in code scanning. */
// The thresholds themselves are in the finding's message and the methodology; the help says why it matters.
const FINDING_HELP: Readonly<Record<FindingId, string>> = {
  'heavy-tool-list':
    'The JSON of the tool list is longer than the heavy-list threshold. Every agent pays for the whole list in its context before the first call; shorten descriptions and schemas, or split the server.',
  'very-long-description':
    'A tool description is longer than the very-long threshold. Long descriptions cost context and bury the sentence that says what the tool does; keep the essentials first and move the rest to documentation.',
  'missing-descriptions':
    'At least one tool has no usable description. An agent picks tools by their descriptions; a tool without one is guessed at or ignored.',
  'no-annotations':
    'No tool carries annotations (readOnlyHint, destructiveHint, ...). Gateways use these hints to decide which calls need a person; without them every tool is judged from its name alone.',
  'missing-schema':
    'At least one tool has no usable input schema (missing, not an object, or too deep or too large to read). Agents cannot build valid arguments without one.',
  'duplicate-names': 'Two or more tools share a name. A call by name is ambiguous; give every tool its own name.',
  'older-protocol':
    'The server answered with a protocol version older than the one the checker expects at least. Newer clients may refuse it or miss features such as tool annotations; update the MCP SDK.',
  slow: 'The whole handshake (initialize, the notification and tools/list) took longer than the slow threshold. Agents time out or give up on slow servers.',
  'tool-list-cut':
    'The tool list was larger than the size the checker keeps, so only its first tools were read. Such a list is also too large for most agents.',
};

// heavy-tool-list -> HeavyToolList: the readable PascalCase name code scanning shows.
const pascalName = (id: string): string =>
  id
    .split(/[^a-z0-9]+/i)
    .filter((part) => part !== '')
    .map((part) => `${part[0]?.toUpperCase() ?? ''}${part.slice(1)}`)
    .join('');

function rule(
  id: string,
  name: string,
  short: string,
  full: string,
  anchor: keyof typeof METHODOLOGY_ANCHORS,
  level: SarifLevel,
): SarifRule {
  const uri = helpUri(anchor);
  return {
    id,
    name,
    shortDescription: { text: short },
    fullDescription: { text: full },
    help: { text: `${full} See ${uri}`, markdown: `**${short}.** ${full}\n\n[How mcp-atlas decides this](${uri})` },
    helpUri: uri,
    defaultConfiguration: { level },
  };
}

/** The rules every log lists, in a fixed order so rule indexes never move: findings, risk rise, then gates. */
export function sarifRules(): SarifRule[] {
  const findingRules = FINDING_IDS.map((id) =>
    rule(
      `${SARIF_FINDING_RULE_PREFIX}${id}`,
      pascalName(id),
      FINDING_TITLES[id],
      FINDING_HELP[id],
      'findings',
      'warning',
    ),
  );
  return [
    ...findingRules,
    rule(
      SARIF_RISK_RISE_RULE,
      'RiskRise',
      'A tool can do more than the lock file says',
      'A tool was added as high-risk, or a tool present in the lock file now has a higher risk level (read-only, then changes data, then high risk). Agents and gateways that trusted the old level may now run it without asking. If the change is intended, write the lock file again with --update-baseline.',
      'change',
      'error',
    ),
    rule(
      SARIF_GATE_RULES['not-answering'],
      'NotAnswering',
      'The server did not answer the MCP handshake',
      'The check could not complete initialize and tools/list (a timeout, no connection, an HTTP error, a JSON-RPC error, or an answer that is not MCP). A sign-in or payment request counts as an answer.',
      'letter',
      'error',
    ),
    rule(
      SARIF_GATE_RULES['high-risk'],
      'HighRiskTool',
      'The server offers a high-risk tool',
      'A tool deletes, pays, grants access, deploys or runs code, judged from its annotations, the verb in its name and its description. The level is a heuristic; gateways ask a person before such a call.',
      'risk',
      'error',
    ),
    rule(
      SARIF_GATE_RULES.change,
      'ToolListChanged',
      'The tool list differs from the lock file',
      'A tool (or, with --list-all, a resource, resource template or prompt) was added, removed, changed or renamed since the lock file was written. The result says what changed. If the change is intended, write the lock file again with --update-baseline.',
      'change',
      'error',
    ),
    rule(
      SARIF_CONFORMANCE_RULE,
      'ConformanceCheckFailed',
      'A check of the MCP conformance suite failed',
      "A server scenario of the official MCP conformance suite (@modelcontextprotocol/conformance), run by --conformance, found the server answering differently from what the MCP specification requires. The result names the scenario, the suite's check and its message.",
      'conformance',
      'error',
    ),
  ];
}

/** The 1-based line where a tool's entry starts in the lock file (the `{` that opens it), or null when it has none. */
export function findToolLine(lockText: string, toolName: string): number | null {
  const needle = `"name": ${JSON.stringify(toolName)}`;
  const lines = lockText.split('\n');
  // The tools array comes after the header fields; entries are written by JSON.stringify with 2-space indent.
  const toolsAt = lines.findIndex((line) => line.startsWith('  "tools": ['));
  if (toolsAt === -1) return null;
  for (let i = toolsAt + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('  ]')) break;
    // An entry's own name sits at 6 spaces, on the line after its `{`; deeper "name" keys belong to its definition.
    // `i` is that `{` line's 1-based number.
    if (line.startsWith(`      ${needle}`)) return i;
  }
  return null;
}

function locate(lock: SarifLockFile | null, tool: string | null): SarifLocation[] {
  if (lock === null)
    return [{ logicalLocations: [{ name: tool ?? 'server', kind: tool === null ? 'module' : 'function' }] }];
  const line = tool === null ? null : findToolLine(lock.text, tool);
  return [
    {
      physicalLocation: {
        artifactLocation: { uri: lock.uri },
        ...(line === null ? {} : { region: { startLine: line } }),
      },
    },
  ];
}

/**
 * Builds the SARIF log of a check report. `lock` is the lock file results point into (null when it does not
 * exist). Fingerprints name the rule, the target and the tool, so code scanning follows one result across runs.
 */
export function buildSarif(report: CheckReport, lock: SarifLockFile | null, toolVersion: string): SarifLog {
  const rules = sarifRules();
  const indexOf = (id: string): number => rules.findIndex((r) => r.id === id);
  const results: SarifResult[] = [];
  // `subject` names what a result is about when that is not a tool (a resource, template or prompt): it has no
  // line of its own, but its fingerprint must still differ from its neighbours' or code scanning merges them.
  const add = (ruleId: string, level: SarifLevel, text: string, tool: string | null, subject = tool): void => {
    results.push({
      ruleId,
      ruleIndex: indexOf(ruleId),
      level,
      message: { text: `${report.target}: ${text}` },
      locations: locate(lock, tool),
      partialFingerprints: {
        'mcpAtlasRule/v1': [ruleId, report.target, ...(subject === null ? [] : [subject])].join('|'),
      },
    });
  };
  const tripped = new Set(report.gates.tripped.map((gate) => gate.gate));
  for (const finding of report.findings) {
    const gated = tripped.has(`finding:${finding.id}`);
    add(
      `${SARIF_FINDING_RULE_PREFIX}${finding.id}`,
      gated ? 'error' : 'warning',
      finding.message,
      finding.tools?.[0] ?? null,
    );
  }
  for (const rise of report.baseline?.riskRises ?? [])
    add(
      SARIF_RISK_RISE_RULE,
      'error',
      `tool "${rise.name}" rose from ${rise.from ?? 'absent'} to ${rise.to}`,
      rise.name,
    );
  for (const gate of report.gates.tripped) {
    if (gate.gate === 'not-answering') add(SARIF_GATE_RULES['not-answering'], 'error', gate.detail, null);
    if (gate.gate === 'high-risk')
      for (const tool of report.tools.filter((t) => t.level === 'high-risk'))
        add(SARIF_GATE_RULES['high-risk'], 'error', `tool "${tool.name}" is high-risk: ${tool.reason}`, tool.name);
    if (gate.gate === 'change' && report.baseline !== null) addChangeResults(report.baseline, add);
  }
  addConformanceResults(report, tripped.has('conformance') ? 'error' : 'warning', add);
  return {
    $schema: SARIF_SCHEMA_URI,
    version: SARIF_VERSION,
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-atlas check',
            informationUri: 'https://github.com/mcp-atlas/mcp-atlas',
            version: toolVersion,
            rules,
          },
        },
        results,
        properties: { target: report.target, letter: report.letter, reason: report.reason },
      },
    ],
  };
}

type AddResult = (ruleId: string, level: SarifLevel, text: string, tool: string | null, subject?: string) => void;

// One result per failed check of the suite, or per failed scenario that reported no check (a time limit, a crash).
function addConformanceResults(report: CheckReport, level: SarifLevel, add: AddResult): void {
  for (const scenario of report.conformance?.scenarios ?? []) {
    if (scenario.passed) continue;
    const failed = scenario.checks.filter((check) => check.status === 'FAILURE');
    if (failed.length === 0)
      add(SARIF_CONFORMANCE_RULE, level, `scenario ${scenario.name} failed: ${scenario.reason}`, null, scenario.name);
    for (const check of failed)
      add(
        SARIF_CONFORMANCE_RULE,
        level,
        `scenario ${scenario.name}, check ${check.id} failed: ${check.message ?? check.description}`,
        null,
        `${scenario.name}:${check.id}`,
      );
  }
}

// One result per tool that changed, so each lands on its own line of the lock file.
function addChangeResults(baseline: NonNullable<CheckReport['baseline']>, add: AddResult): void {
  const id = SARIF_GATE_RULES.change;
  // An added tool has a line only when --update-baseline just wrote it; otherwise the result points at the file.
  for (const name of baseline.added) add(id, 'error', `tool "${name}" was added`, name);
  for (const name of baseline.removed) add(id, 'error', `tool "${name}" was removed`, name);
  for (const name of baseline.changed) {
    const detail = baseline.details.find((d) => d.name === name);
    const lines = detail === undefined ? [] : changeDetailLines(detail);
    add(id, 'error', `tool "${name}" changed${lines.length === 0 ? '' : `: ${lines.join('; ')}`}`, name);
  }
  for (const rename of baseline.renamed)
    add(id, 'error', `tool "${rename.from}" was renamed to "${rename.to}"`, rename.from);
  for (const [label, diff] of [
    ['resource', baseline.resources],
    ['resource template', baseline.resourceTemplates],
    ['prompt', baseline.prompts],
  ] as const) {
    if (diff === null) continue;
    for (const key of diff.added) add(id, 'error', `${label} "${key}" was added`, null, `${label}:${key}`);
    for (const key of diff.removed) add(id, 'error', `${label} "${key}" was removed`, null, `${label}:${key}`);
    for (const key of diff.changed) add(id, 'error', `${label} "${key}" changed`, null, `${label}:${key}`);
  }
}
