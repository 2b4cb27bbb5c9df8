/**
 * The status a server page, badge or widget shows. Pure module.
 *
 * A single failed five-minute or hourly check is often a blip on our side or the network's, so
 * the shown status turns to down only from the second failure in a row (owner alerts follow the
 * same rule).
 */

import { FAILURES_IN_A_ROW_TO_SHOW, NON_STANDARD_HTTP_STATUSES, SHOWN_STATE_WORDS } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import type { ObservedLetter } from './letters.js';

/**
 * What a page shows: answering with tools, asking for sign-in, asking for payment, answering but
 * not as a standard MCP endpoint, or down.
 */
export type ShownState = 'answering' | 'sign_in' | 'payment' | 'non_standard' | 'down';

/** One check's result as the display needs it. */
export interface CheckObservation {
  /** The check's letter: `o`, `a`, `p` or `d`. */
  letter: ObservedLetter;
  /** The HTTP status of the failing answer, when there was one. */
  httpStatus?: number | null;
  /** The server answered, but not with MCP. */
  notMcp?: boolean;
}

/** The shown status and whether a single failure was held back. */
export interface ShownStatus {
  /** null when the only check failed once and no earlier state is known. */
  state: ShownState | null;
  /** True when the newest check failed but is not shown yet (first failure in a row). */
  heldBack: boolean;
  /** Failed checks in a row at the end of the list. */
  failuresInARow: number;
}

const NON_STANDARD_SET: ReadonlySet<number> = new Set(NON_STANDARD_HTTP_STATUSES);
const STATE_OF_LETTER: Readonly<Record<ObservedLetter, ShownState>> = {
  o: 'answering',
  a: 'sign_in',
  p: 'payment',
  d: 'down',
};

/**
 * How one check is displayed. A `d` caused by HTTP 400, 405, 406, 415 or 422, or by an answer
 * that is not MCP, is shown as `non_standard` ("answers, but not as a standard MCP endpoint"),
 * never as down; the daily history still records it as `d`.
 *
 * @example
 * displayState({ letter: 'd', httpStatus: 405 }); // 'non_standard'
 * displayState({ letter: 'd', httpStatus: 503 }); // 'down'
 */
export function displayState(check: CheckObservation): ShownState {
  if (check === null || typeof check !== 'object' || !Object.hasOwn(STATE_OF_LETTER, check.letter)) {
    throw new ReliabilityInputError(
      'invalid-check',
      'check.letter',
      `expected one of o, a, p, d, received ${describeValue(check?.letter)}`,
    );
  }
  if (check.letter !== 'd') return STATE_OF_LETTER[check.letter];
  const status = check.httpStatus;
  if (check.notMcp === true || (typeof status === 'number' && NON_STANDARD_SET.has(status))) return 'non_standard';
  return 'down';
}

/** The words a page uses for a shown state. */
export function describeShownState(state: ShownState): string {
  if (!Object.hasOwn(SHOWN_STATE_WORDS, state)) {
    throw new ReliabilityInputError('invalid-check', 'state', `unknown state ${describeValue(state)}`);
  }
  return SHOWN_STATE_WORDS[state];
}

/**
 * The status to show from the five-minute and hourly checks, oldest first. A failed check (one
 * displayed as down) shows only from the second failure in a row; a single failure falls back to
 * the check before it, or to `fallback` (say, the daily check's state) when there is none.
 *
 * @example
 * decideShownStatus([{ letter: 'o' }, { letter: 'd' }]);              // { state: 'answering', heldBack: true, failuresInARow: 1 }
 * decideShownStatus([{ letter: 'o' }, { letter: 'd' }, { letter: 'd' }]); // { state: 'down', heldBack: false, failuresInARow: 2 }
 */
export function decideShownStatus(
  checks: readonly CheckObservation[],
  fallback: ShownState | null = null,
): ShownStatus {
  if (!Array.isArray(checks)) {
    throw new ReliabilityInputError('invalid-check', 'checks', `expected an array, received ${describeValue(checks)}`);
  }
  const states = checks.map(displayState);
  let failuresInARow = 0;
  for (let i = states.length - 1; i >= 0 && states[i] === 'down'; i--) failuresInARow++;
  if (failuresInARow === 0 || failuresInARow >= FAILURES_IN_A_ROW_TO_SHOW) {
    return { state: states[states.length - 1] ?? fallback, heldBack: false, failuresInARow };
  }
  const before = states[states.length - 1 - failuresInARow];
  return { state: before ?? fallback, heldBack: true, failuresInARow };
}

/**
 * True once failures in a row reach the alert threshold (2), the same rule as the shown status.
 *
 * @example
 * shouldAlertOwner([{ letter: 'o' }, { letter: 'd' }, { letter: 'd' }]); // true
 */
export function shouldAlertOwner(checks: readonly CheckObservation[]): boolean {
  return decideShownStatus(checks).failuresInARow >= FAILURES_IN_A_ROW_TO_SHOW;
}
