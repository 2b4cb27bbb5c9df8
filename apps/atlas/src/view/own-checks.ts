// Translates our own check results into the words of the incident rule (@mcp-atlas/reliability). This is
// vocabulary, not a rule: which outcomes count as real failures is decided in the reliability package.
import type { IncidentCheck, OwnCheckOutcome } from '@mcp-atlas/reliability';

/** What a check result says, as the day's results and the hourly file keep it. */
export interface CheckFacts {
  letter: 'o' | 'a' | 'p' | 'd';
  reason: string;
  /** The HTTP status of the answer that failed the check, when there was one. */
  httpStatus: number | null;
}

const NO_CONNECTION_REASONS: ReadonlySet<string> = new Set(['dns-failed', 'no-connection', 'tls-error']);
const TIMEOUT_REASONS: ReadonlySet<string> = new Set(['timeout', 'deadline']);
const BROKEN_HANDSHAKE_REASONS: ReadonlySet<string> = new Set(['jsonrpc-error', 'not-mcp', 'invalid-http', 'answer-too-large']);

/** The incident rule's outcome for one check, or null when the check says nothing about the server (refused by our guard, aborted). */
export function ownCheckOutcomeOf(facts: CheckFacts): OwnCheckOutcome | null {
  if (facts.letter === 'o') return 'answered';
  if (facts.letter === 'a' || facts.letter === 'p') return 'sign_in';
  if (TIMEOUT_REASONS.has(facts.reason)) return 'timeout';
  if (NO_CONNECTION_REASONS.has(facts.reason)) return 'no_connection';
  if (facts.reason.startsWith('redirect-')) return 'redirect';
  if (BROKEN_HANDSHAKE_REASONS.has(facts.reason)) return 'broken_handshake';
  if (facts.reason === 'http-error') {
    const status = facts.httpStatus;
    if (status === 404) return 'not_found';
    if (status !== null && status >= 500) return 'server_error';
    if (status !== null && status >= 400) return 'client_error';
    return 'broken_handshake';
  }
  return null;
}

/** One check as the incident rule reads it, or null when it says nothing. */
export function incidentCheckOf(kind: IncidentCheck['kind'], at: string, facts: CheckFacts): IncidentCheck | null {
  const outcome = ownCheckOutcomeOf(facts);
  return outcome === null ? null : { kind, at, outcome };
}

/** The HTTP status of the step that failed a check (the last step with a status), or null. */
export function failedHttpStatus(steps: readonly { httpStatus: number | null; outcome: string }[]): number | null {
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    if (step.outcome !== 'ok' && step.httpStatus !== null) return step.httpStatus;
  }
  return null;
}
