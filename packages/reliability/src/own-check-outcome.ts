/**
 * Our own check results (daily, hourly, five-minute) in the words of the incident rule and of the
 * agreement rule. Pure module: no I/O, no clock.
 *
 * A probe's reason code says why a check failed; which of those failures are real failures of the
 * server (and so can confirm an incident) is decided here, once, for every kind of check.
 */

import type { OwnCheckView } from './agreement.js';
import { OWN_CHECK_KINDS } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import type { IncidentCheck, OwnCheckKind, OwnCheckOutcome } from './incidents.js';
import type { ObservedLetter } from './letters.js';
import { instantOf } from './validate.js';

/** Probe reasons that mean the server could not be reached at all: no name, no connection, no TLS. */
export const NO_CONNECTION_REASONS = ['dns-failed', 'no-connection', 'tls-error'] as const;

/** Probe reasons that mean a step, or the whole check, ran out of time. */
export const TIMEOUT_REASONS = ['timeout', 'deadline'] as const;

/**
 * Probe reasons that mean the server answered but the MCP handshake broke: a JSON-RPC error on
 * initialize, an answer that is not MCP, malformed HTTP, an answer over the size cap, or an answer nested
 * deeper than the probe's nesting limit (refused unread, like one over the size cap).
 */
export const BROKEN_HANDSHAKE_REASONS = [
  'jsonrpc-error',
  'not-mcp',
  'invalid-http',
  'answer-too-large',
  'too-deep',
] as const;

/** The probe reason of an HTTP error answer; its status decides the outcome. */
export const HTTP_ERROR_REASON = 'http-error';

/** Probe reasons that start with this are redirects to another domain (recorded, not followed). */
export const REDIRECT_REASON_PREFIX = 'redirect-';

/** What one of our checks says, as the day's results, the hourly file and the five-minute file keep it. */
export interface CheckFacts {
  letter: ObservedLetter;
  /** The probe's reason code (`ok`, `timeout`, `http-error`, ...). */
  reason: string;
  /** The HTTP status of the answer that failed the check, when there was one. */
  httpStatus: number | null;
}

/** One probe step, as far as {@link failedHttpStatus} needs it. */
export interface StepStatus {
  httpStatus: number | null;
  /** `ok` for a step that worked; any other value is a failed step. */
  outcome: string;
}

const NO_CONNECTION_SET: ReadonlySet<string> = new Set(NO_CONNECTION_REASONS);
const TIMEOUT_SET: ReadonlySet<string> = new Set(TIMEOUT_REASONS);
const BROKEN_HANDSHAKE_SET: ReadonlySet<string> = new Set(BROKEN_HANDSHAKE_REASONS);
const SERVER_ERROR_FROM = 500;
const CLIENT_ERROR_FROM = 400;
const NOT_FOUND = 404;

/**
 * The incident rule's outcome for one check, or null when the check says nothing about the server
 * (our guard refused it, or it was aborted). An HTTP error is read by its status: 404 `not_found`,
 * 5xx `server_error`, any other 4xx `client_error`, no status `broken_handshake`.
 *
 * @example
 * ownCheckOutcomeOf({ letter: 'd', reason: 'http-error', httpStatus: 503 }); // 'server_error'
 * ownCheckOutcomeOf({ letter: 'd', reason: 'guard:ip-literal', httpStatus: null }); // null
 */
export function ownCheckOutcomeOf(facts: CheckFacts): OwnCheckOutcome | null {
  if (facts === null || typeof facts !== 'object') {
    throw new ReliabilityInputError('invalid-check', 'facts', `expected check facts, received ${describeValue(facts)}`);
  }
  if (facts.letter === 'o') return 'answered';
  if (facts.letter === 'a' || facts.letter === 'p') return 'sign_in';
  if (facts.letter !== 'd') {
    throw new ReliabilityInputError(
      'invalid-check',
      'facts.letter',
      `expected one of o, a, p, d, received ${describeValue(facts.letter)}`,
    );
  }
  const reason = typeof facts.reason === 'string' ? facts.reason : '';
  if (TIMEOUT_SET.has(reason)) return 'timeout';
  if (NO_CONNECTION_SET.has(reason)) return 'no_connection';
  if (reason.startsWith(REDIRECT_REASON_PREFIX)) return 'redirect';
  if (BROKEN_HANDSHAKE_SET.has(reason)) return 'broken_handshake';
  if (reason === HTTP_ERROR_REASON) {
    const status = facts.httpStatus;
    if (status === NOT_FOUND) return 'not_found';
    if (typeof status === 'number' && status >= SERVER_ERROR_FROM) return 'server_error';
    if (typeof status === 'number' && status >= CLIENT_ERROR_FROM) return 'client_error';
    return 'broken_handshake';
  }
  return null;
}

/**
 * One check as the incident rule reads it, or null when it says nothing about the server.
 *
 * @example
 * incidentCheckOf('hourly', '2026-11-30T11:05:00Z', { letter: 'd', reason: 'timeout', httpStatus: null });
 * // { kind: 'hourly', at: '2026-11-30T11:05:00Z', outcome: 'timeout' }
 */
export function incidentCheckOf(kind: OwnCheckKind, at: string, facts: CheckFacts): IncidentCheck | null {
  if (!(OWN_CHECK_KINDS as readonly string[]).includes(kind)) {
    throw new ReliabilityInputError(
      'invalid-check',
      'kind',
      `expected one of ${OWN_CHECK_KINDS.join(', ')}, received ${describeValue(kind)}`,
    );
  }
  instantOf(at, 'at', 'invalid-check');
  const outcome = ownCheckOutcomeOf(facts);
  return outcome === null ? null : { kind, at, outcome };
}

/**
 * What one of our checks says for the agreement rule: answering (sign-in and payment answers
 * included) and whether it saw a server error (an HTTP 5xx). Null when the check says nothing.
 *
 * @example
 * ownCheckViewOf({ letter: 'd', reason: 'http-error', httpStatus: 502 }); // { answering: false, serverError: true }
 */
export function ownCheckViewOf(facts: CheckFacts): OwnCheckView | null {
  const outcome = ownCheckOutcomeOf(facts);
  if (outcome === null) return null;
  return { answering: outcome === 'answered' || outcome === 'sign_in', serverError: outcome === 'server_error' };
}

/**
 * The HTTP status of the step that failed a check: the last failed step that carries a status, or
 * null when no failed step has one.
 *
 * @example
 * failedHttpStatus([{ httpStatus: 200, outcome: 'ok' }, { httpStatus: 502, outcome: 'http-error' }]); // 502
 */
export function failedHttpStatus(steps: readonly StepStatus[]): number | null {
  for (const step of [...steps].reverse()) {
    if (step.outcome !== 'ok' && step.httpStatus !== null) return step.httpStatus;
  }
  return null;
}
