// The constants of `mcp-atlas check`: its file formats, names and CLI defaults. The rules it measures by (the
// deep-mode call limits, the fuzz inputs, the compliance score's parts, points and bonus) are
// @mcp-atlas/probe's (src/compliance.ts), re-exported here under the same names for the rest of the command.
import { FIVE_MINUTE_CHECK_DEADLINE_MS, MAX_TOOLS_KEPT, MAX_TOOLS_PAGES } from '@mcp-atlas/probe';

export {
  AUTH_DISCOVERY_BONUS,
  COMPLIANCE_MAX,
  COMPLIANCE_PARTS,
  DEEP_CALL_TIMEOUT_MS,
  DEEP_MAX_TOOLS,
  FUZZ_OVERSIZED_CHARS,
  FUZZ_POINTS,
  FUZZ_UNICODE_TEXT,
  PLAIN_VALUES,
  WRONG_TYPE_FOR_OTHER,
  WRONG_TYPE_FOR_STRING,
} from '@mcp-atlas/probe';

/** The version of the `--json` report shape; bumped on any change a reader could notice. */
export const CHECK_REPORT_SCHEMA = 'mcp-atlas.check/1';

/** The version of the baseline (lock) file shape written by `--update-baseline`. */
export const BASELINE_SCHEMA = 'mcp-atlas.lock/1';

/** The baseline file used by `--update-baseline` when `--baseline` names none. */
export const DEFAULT_BASELINE_FILE = 'mcp-atlas.lock.json';

/** The gates `--fail-on` accepts, besides `finding:<id>`. */
export const GATE_NAMES = ['not-answering', 'high-risk', 'risk-rise', 'change'] as const;

/** The prefix of a gate that trips on one finding id, e.g. `finding:slow`. */
export const FINDING_GATE_PREFIX = 'finding:';

/** With no `--fail-on`, a build fails only when the server does not answer. */
export const DEFAULT_GATES: readonly string[] = ['not-answering'];

/** The overall limit of the handshake in check: the probe's five-minute check deadline. */
export const CHECK_DEADLINE_MS = FIVE_MINUTE_CHECK_DEADLINE_MS;

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
export const LIST_ALL_MAX_PAGES = MAX_TOOLS_PAGES;

/** `--list-all`: entries kept per list, as for tools. */
export const LIST_ALL_MAX_ENTRIES = MAX_TOOLS_KEPT;

/**
 * The Host header deep mode sends to a local HTTP server to see whether it refuses a foreign name. A page on
 * another site can reach a local server through DNS rebinding; the request then names that site as its host.
 * `.invalid` is reserved (RFC 6761), so the name can never belong to anyone.
 */
export const FOREIGN_HOST_HEADER = 'rebinding-check.mcp-atlas.invalid';

/** Where the methodology lives on the web; SARIF rules link to its sections. */
export const METHODOLOGY_URL = 'https://github.com/mcp-atlas/mcp-atlas/blob/main/docs/methodology.md';

/** SARIF rule ids of the tripped gates that are not findings or risk rises. */
export const SARIF_GATE_RULES = {
  'not-answering': 'mcp-atlas/not-answering',
  'high-risk': 'mcp-atlas/high-risk',
  change: 'mcp-atlas/change',
} as const;
