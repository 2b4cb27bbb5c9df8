// Pure module: the protocol compliance score of a deep check (`mcp-atlas check --deep`) and the limits and
// inputs of the calls it is measured from. No I/O: the caller runs the calls and counts what came back; this
// file decides what the counts are worth. A change to any value here changes published CI verdicts, so it
// needs a line in docs/methodology/checks.md.
import { PROTOCOL_RULES } from '@mcp-atlas/score/rules';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Letter } from './schemas.js';

// ---------------------------------------------------------------------------------------------------
// How the calls are made
// ---------------------------------------------------------------------------------------------------

/** How long one deep-mode tools/call may take before it counts as a hang (the peer's smoke-test limit). */
export const DEEP_CALL_TIMEOUT_MS = 10_000;

/** At most this many read-only tools are called per case, so a big server's deep check stays short. */
export const DEEP_MAX_TOOLS = 5;

/** Fuzz: the length of the oversized string, in characters (far past any sane field). */
export const FUZZ_OVERSIZED_CHARS = 100_000;

/**
 * Fuzz: unicode edge cases in one string: a NUL, a lone high surrogate, a right-to-left override, a
 * zero-width joiner emoji sequence, a combining mark on its own and a byte-order mark.
 */
export const FUZZ_UNICODE_TEXT = '\u0000\ud800\u202e\u{1F469}\u200d\u{1F4BB}\u0301\ufeff';

/**
 * The plain value given to a required field a case does not test, by JSON type. An enum gets its first
 * value, a number with a `minimum` gets that minimum, an array `[]` and an object `{}`; a field with no
 * known type gets the string value.
 */
export const PLAIN_VALUES = Object.freeze({ string: 'x', number: 1, integer: 1, boolean: true, null: null } as const);

/** The wrong-type value sent to a string field in the wrong-type case. */
export const WRONG_TYPE_FOR_STRING = 12_345;

/** The wrong-type value sent to a field of any type other than string in the wrong-type case. */
export const WRONG_TYPE_FOR_OTHER = 'not-a-valid-value';

// ---------------------------------------------------------------------------------------------------
// What the outcomes are worth
// ---------------------------------------------------------------------------------------------------

/**
 * How one deep-mode call can end: a proper error (a JSON-RPC error, or a tool result with `isError: true`),
 * accepted (a normal result), a crash (the connection closed or the transport failed) or a hang (no answer
 * within DEEP_CALL_TIMEOUT_MS).
 */
export const DEEP_CALL_OUTCOMES = ['proper-error', 'accepted', 'crash', 'hang'] as const;

/** One of DEEP_CALL_OUTCOMES. */
export type DeepCallOutcome = (typeof DEEP_CALL_OUTCOMES)[number];

/**
 * Points per fuzz outcome, out of COMPLIANCE_MAX. A proper error shows the input was checked; an accepted
 * input is allowed but proves nothing, so it earns half; a crash or a hang earns nothing.
 */
export const FUZZ_POINTS: Readonly<Record<DeepCallOutcome, number>> = Object.freeze({
  'proper-error': 100,
  accepted: 50,
  crash: 0,
  hang: 0,
});

/** The outcome an error-handling case (unknown tool, missing field, wrong type) must give to count as passed. */
export const ERROR_HANDLING_PASS_OUTCOME: DeepCallOutcome = 'proper-error';

/** The outcome a smoke call (plain, schema-valid arguments) must give to count as passed. */
export const SMOKE_PASS_OUTCOME: DeepCallOutcome = 'accepted';

/** How one call ended, and a short detail (the error's message or code) when there is one. */
export interface DeepCallClassification {
  outcome: DeepCallOutcome;
  detail: string | null;
}

// By name as well as by class: a caller may hold another copy of the SDK, whose McpError is another class.
function isMcpError(error: unknown): error is McpError {
  return (
    error instanceof McpError ||
    (error instanceof Error && error.name === 'McpError' && typeof (error as { code?: unknown }).code === 'number')
  );
}

/**
 * Sorts one tools/call answer into DEEP_CALL_OUTCOMES: a result flagged `isError` is a proper error and any
 * other result is accepted; a JSON-RPC error is a proper error, except the SDK's request timeout (a hang)
 * and its connection-closed error (a crash); any other thrown error (transport, HTTP, process exit) is a crash.
 *
 * @example classifyDeepCall({ error: new McpError(-32602, 'bad') }) // { outcome: 'proper-error', detail: 'JSON-RPC error -32602' }
 */
export function classifyDeepCall(answer: { result: unknown } | { error: unknown }): DeepCallClassification {
  if ('result' in answer) {
    const result = answer.result;
    const isError = result !== null && typeof result === 'object' && (result as { isError?: unknown }).isError === true;
    return { outcome: isError ? 'proper-error' : 'accepted', detail: isError ? 'tool error result' : null };
  }
  const error = answer.error;
  if (isMcpError(error)) {
    if (error.code === ErrorCode.RequestTimeout) return { outcome: 'hang', detail: error.message };
    if (error.code === ErrorCode.ConnectionClosed) return { outcome: 'crash', detail: error.message };
    return { outcome: 'proper-error', detail: `JSON-RPC error ${error.code}` };
  }
  return { outcome: 'crash', detail: error instanceof Error ? error.message : String(error) };
}

/** The parts of the compliance score, averaged with equal weight over those that could be measured. */
export const COMPLIANCE_PARTS = ['reachability', 'schemaValidity', 'errorHandling', 'fuzz', 'smoke'] as const;

/** One of COMPLIANCE_PARTS. */
export type CompliancePart = (typeof COMPLIANCE_PARTS)[number];

/** The letter of a server that did not answer: its reachability part is 0. */
export const UNREACHABLE_LETTER: Letter = 'd';

/** The top of the compliance score and of each part. */
export const COMPLIANCE_MAX = 100;

// ---------------------------------------------------------------------------------------------------
// The score
// ---------------------------------------------------------------------------------------------------

/** What the compliance score is computed from: the handshake's letter and the counted call outcomes. */
export interface ComplianceInput {
  /** The handshake's letter; UNREACHABLE_LETTER gives reachability 0, any other letter COMPLIANCE_MAX. */
  readonly letter: string;
  /** Tools the server listed. */
  readonly toolCount: number;
  /** Of those, the tools whose input schema is usable (the caller decides, e.g. with findings' isUsableSchema). */
  readonly usableSchemaCount: number;
  readonly errorHandling: readonly DeepCallOutcome[];
  readonly fuzz: readonly DeepCallOutcome[];
  readonly smoke: readonly DeepCallOutcome[];
  /** Whether a server that asked for sign-in publishes its OAuth metadata; null when it asked for none. */
  readonly authDiscovery: boolean | null;
}

/** The score (null when no part could be measured), each part (null = not measured) and the bonus added. */
export interface ComplianceScore {
  score: number | null;
  parts: Record<CompliancePart, number | null>;
  authDiscovery: boolean | null;
  /** 0 or the quality score's auth-discovery bonus (`PROTOCOL_RULES.authDiscoveryBonus`), before the cap. */
  authBonus: number;
}

/**
 * `passed` of `total` as a whole number out of COMPLIANCE_MAX, rounded half up; null when `total` is 0,
 * because a part with nothing to measure is left out rather than counted as zero.
 *
 * @example scoreShare(1, 3) // 33
 * @example scoreShare(0, 0) // null
 */
export function scoreShare(passed: number, total: number): number | null {
  if (total === 0) return null;
  return Math.round((passed / total) * COMPLIANCE_MAX);
}

/**
 * The fuzz part: the mean of FUZZ_POINTS over the fuzz outcomes, rounded half up; null with no fuzz case.
 *
 * @example scoreFuzz(['proper-error', 'accepted']) // 75
 */
export function scoreFuzz(outcomes: readonly DeepCallOutcome[]): number | null {
  if (outcomes.length === 0) return null;
  return Math.round(outcomes.reduce((sum, outcome) => sum + FUZZ_POINTS[outcome], 0) / outcomes.length);
}

function countOutcome(outcomes: readonly DeepCallOutcome[], wanted: DeepCallOutcome): number {
  return outcomes.filter((outcome) => outcome === wanted).length;
}

/**
 * The protocol compliance score of a deep check. Each part is 0..COMPLIANCE_MAX, or null when it could not
 * be measured (no tools, no case of that kind); the score is the equal-weight mean of the measured parts,
 * rounded half up, plus the quality score's PROTOCOL_RULES.authDiscoveryBonus when a sign-in server publishes its
 * OAuth metadata, capped at COMPLIANCE_MAX. Reachability is always measured, so a score is null only if that rule changes.
 *
 * @example
 * scoreCompliance({ letter: 'a', toolCount: 2, usableSchemaCount: 1, errorHandling: [], fuzz: [], smoke: [], authDiscovery: true })
 * // parts 100 and 50: mean 75, plus 10 = { score: 85, authBonus: 10, ... }
 */
export function scoreCompliance(input: ComplianceInput): ComplianceScore {
  const parts: Record<CompliancePart, number | null> = {
    reachability: input.letter === UNREACHABLE_LETTER ? 0 : COMPLIANCE_MAX,
    schemaValidity: scoreShare(input.usableSchemaCount, input.toolCount),
    errorHandling: scoreShare(
      countOutcome(input.errorHandling, ERROR_HANDLING_PASS_OUTCOME),
      input.errorHandling.length,
    ),
    fuzz: scoreFuzz(input.fuzz),
    smoke: scoreShare(countOutcome(input.smoke, SMOKE_PASS_OUTCOME), input.smoke.length),
  };
  const measured = COMPLIANCE_PARTS.map((part) => parts[part]).filter((value): value is number => value !== null);
  // The quality score's own bonus (one definition): a server that asks for no sign-in, or publishes none, loses nothing.
  const authBonus = input.authDiscovery === true ? PROTOCOL_RULES.authDiscoveryBonus : 0;
  const score =
    measured.length === 0
      ? null
      : Math.min(COMPLIANCE_MAX, Math.round(measured.reduce((a, b) => a + b, 0) / measured.length) + authBonus);
  return { score, parts, authDiscovery: input.authDiscovery, authBonus };
}
