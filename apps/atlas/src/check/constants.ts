// The constants of `mcp-atlas check`: its file formats, names and CLI defaults. The rules it measures by (the
// deep-mode call limits, the fuzz inputs, the compliance score's points and bonus) are @mcp-atlas/probe's
// DEEP_CHECK_RULES (`@mcp-atlas/probe/rules`), named here once for the rest of the command.
import { DEEP_CHECK_RULES, SESSION_RULES } from '@mcp-atlas/probe/rules';

/** How long one deep-mode call may take: the probe's `DEEP_CHECK_RULES.callTimeoutMs`. */
export const DEEP_CALL_TIMEOUT_MS = DEEP_CHECK_RULES.callTimeoutMs;

/** Tools a deep check calls at most: the probe's `DEEP_CHECK_RULES.maxTools`. */
export const DEEP_MAX_TOOLS = DEEP_CHECK_RULES.maxTools;

/** Length of the oversized fuzz string: the probe's `DEEP_CHECK_RULES.fuzzOversizedChars`. */
export const FUZZ_OVERSIZED_CHARS = DEEP_CHECK_RULES.fuzzOversizedChars;

/** Points per fuzz outcome: the probe's `DEEP_CHECK_RULES.fuzzPoints`. */
export const FUZZ_POINTS = DEEP_CHECK_RULES.fuzzPoints;

/** The awkward-Unicode fuzz string: the probe's `DEEP_CHECK_RULES.fuzzUnicodeText`. */
export const FUZZ_UNICODE_TEXT = DEEP_CHECK_RULES.fuzzUnicodeText;

/** A plain valid value per JSON Schema type: the probe's `DEEP_CHECK_RULES.plainValues`. */
export const PLAIN_VALUES = DEEP_CHECK_RULES.plainValues;

/** The wrong-type value for a non-string parameter: the probe's `DEEP_CHECK_RULES.wrongTypeForOther`. */
export const WRONG_TYPE_FOR_OTHER = DEEP_CHECK_RULES.wrongTypeForOther;

/** The wrong-type value for a string parameter: the probe's `DEEP_CHECK_RULES.wrongTypeForString`. */
export const WRONG_TYPE_FOR_STRING = DEEP_CHECK_RULES.wrongTypeForString;

/** The environment variable that sets `--stdio-isolation` when the flag is not given. */
export const STDIO_ISOLATION_VARIABLE = 'MCP_ATLAS_STDIO_ISOLATION';

/** The version of the `--json` report shape; bumped on any change a reader could notice. */
export const CHECK_REPORT_SCHEMA = 'mcp-atlas.check/1';

/** The version of the baseline (lock) file shape written by `--update-baseline`. */
export const BASELINE_SCHEMA = 'mcp-atlas.lock/1';

/** The baseline file used by `--update-baseline` when `--baseline` names none. */
export const DEFAULT_BASELINE_FILE = 'mcp-atlas.lock.json';

/** The gates `--fail-on` accepts, besides `finding:<id>`. */
export const GATE_NAMES = ['not-answering', 'high-risk', 'risk-rise', 'change', 'conformance'] as const;

/** The prefix of a gate that trips on one finding id, e.g. `finding:slow`. */
export const FINDING_GATE_PREFIX = 'finding:';

/** With no `--fail-on`, a build fails only when the server does not answer. */
export const DEFAULT_GATES: readonly string[] = ['not-answering'];

/** The overall limit of the handshake in check: the probe's five-minute check deadline. */
export const CHECK_DEADLINE_MS = SESSION_RULES.fiveMinuteCheckDeadlineMs;

/** The client name check sends in initialize, so a server's logs tell a CI run from the daily scan. */
export const CHECK_CLIENT_NAME = 'mcp-atlas-check';

/** SARIF: the version written and the schema URI it names. */
export const SARIF_VERSION = '2.1.0';
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

/** SARIF rule id of a tool whose risk level went up against the baseline. */
export const SARIF_RISK_RISE_RULE = 'mcp-atlas/risk-rise';

/** SARIF rule id prefix of a finding (the finding id follows). */
export const SARIF_FINDING_RULE_PREFIX = 'mcp-atlas/finding/';

/** Deep mode: the tool name no server should know, for the unknown-tool case. */
export const DEEP_UNKNOWN_TOOL_NAME = 'mcp_atlas_check_no_such_tool_7f3a';

/** A changed tool's description is shown shortened to this many characters, old and new. */
export const CHANGE_EXCERPT_CHARS = 120;

/** At most this many input-schema paths are listed per kind (added, removed, changed) for a changed tool. */
export const CHANGE_MAX_PATHS = 20;

/** `--list-all`: pages of resources/list and prompts/list followed, as for tools/list. */
export const LIST_ALL_MAX_PAGES = SESSION_RULES.maxToolsPages;

/** `--list-all`: entries kept per list, as for tools. */
export const LIST_ALL_MAX_ENTRIES = SESSION_RULES.maxToolsKept;

/**
 * The Host header deep mode sends to a local HTTP server to see whether it refuses a foreign name. A page on
 * another site can reach a local server through DNS rebinding; the request then names that site as its host.
 * `.invalid` is reserved (RFC 6761), so the name can never belong to anyone.
 */
export const FOREIGN_HOST_HEADER = 'rebinding-check.mcp-atlas.invalid';

/** Where the methodology's folder (one file per area) lives on the web; SARIF rules link to its sections. */
export const METHODOLOGY_URL = 'https://github.com/mcp-atlas/mcp-atlas/blob/main/docs/methodology';

/** SARIF rule ids of the tripped gates that are not findings or risk rises. */
export const SARIF_GATE_RULES = {
  'not-answering': 'mcp-atlas/not-answering',
  'high-risk': 'mcp-atlas/high-risk',
  change: 'mcp-atlas/change',
} as const;

/** SARIF rule id of a check of the MCP conformance suite that failed (`--conformance`). */
export const SARIF_CONFORMANCE_RULE = 'mcp-atlas/conformance';

/** The package of the official MCP conformance suite, which `--conformance` runs. */
export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance';

// Which of the suite's scenarios run, and each one's limit, are rules of the probe package: CONFORMANCE_RULES
// and chooseConformanceScenarios of @mcp-atlas/probe.

/** How much of a scenario's printed output is kept to explain a scenario that wrote no results. */
export const CONFORMANCE_OUTPUT_TAIL_CHARS = 4_000;
