// Every rule, limit and score constant of `mcp-atlas check`, in one place, exported by name. Changing one
// changes what a CI build decides, so each is documented in the README's check section.

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

/** The overall limit of the handshake in check, the same as the probe's five-minute check. */
export const CHECK_DEADLINE_MS = 30_000;

/** The client name check sends in initialize, so a server's logs tell a CI run from the daily scan. */
export const CHECK_CLIENT_NAME = 'mcp-atlas-check';

/** SARIF: the version written and the schema URI it names. */
export const SARIF_VERSION = '2.1.0';
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

/** SARIF rule id of a tool whose risk level went up against the baseline. */
export const SARIF_RISK_RISE_RULE = 'mcp-atlas/risk-rise';

/** SARIF rule id prefix of a finding (the finding id follows). */
export const SARIF_FINDING_RULE_PREFIX = 'mcp-atlas/finding/';

/** Deep mode: how long one tools/call may take before it counts as a hang (the peer's smoke-test limit). */
export const DEEP_CALL_TIMEOUT_MS = 10_000;

/** Deep mode: at most this many read-only tools are called per case, so a big server's check stays short. */
export const DEEP_MAX_TOOLS = 5;

/** Deep mode: the tool name no server should know, for the unknown-tool case. */
export const DEEP_UNKNOWN_TOOL_NAME = 'mcp_atlas_check_no_such_tool_7f3a';

/** Deep mode fuzz: the length of the oversized string (100 000 characters, well past any sane field). */
export const FUZZ_OVERSIZED_CHARS = 100_000;

/**
 * Deep mode fuzz: unicode edge cases in one string: a NUL, a lone high surrogate, a right-to-left
 * override, a zero-width joiner emoji sequence, a combining mark on its own and a byte-order mark.
 */
export const FUZZ_UNICODE_TEXT = '\u0000\ud800\u202e\u{1F469}\u200d\u{1F4BB}\u0301\ufeff';

/**
 * Points per fuzz outcome, out of 100. A proper error shows the input was checked; an accepted input
 * is allowed but proves nothing, so it earns half; a crash or a hang earns nothing.
 */
export const FUZZ_POINTS = { 'proper-error': 100, accepted: 50, crash: 0, hang: 0 } as const;

/** The parts of the protocol compliance score, averaged with equal weight over those that could be measured. */
export const COMPLIANCE_PARTS = ['reachability', 'schemaValidity', 'errorHandling', 'fuzz', 'smoke'] as const;

/**
 * Points added to the compliance score when a server that asks for sign-in publishes its OAuth protected
 * resource metadata (`/.well-known/oauth-protected-resource`); the sum is capped at COMPLIANCE_MAX. A server
 * that asks for no sign-in, or publishes none, loses nothing.
 */
export const AUTH_DISCOVERY_BONUS = 10;

/** The top of the compliance score and of each part. */
export const COMPLIANCE_MAX = 100;

/**
 * Deep mode: the plain value given to a required field a case does not test, by JSON type. An enum gets
 * its first value, a number with a `minimum` gets that minimum, an array `[]` and an object `{}`; a field
 * with no known type gets the string value.
 */
export const PLAIN_VALUES = { string: 'x', number: 1, integer: 1, boolean: true, null: null } as const;

/** Deep mode: the wrong-type value for a string field, and for a field of any other type. */
export const WRONG_TYPE_FOR_STRING = 12_345;
export const WRONG_TYPE_FOR_OTHER = 'not-a-valid-value';
