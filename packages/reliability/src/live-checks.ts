/**
 * What our own checks say about a server right now: the daily check, and the hourly and five-minute
 * checks made after it. Pure module: times are arguments, nothing reads a clock.
 *
 * One set of observations feeds every live answer: the status a page shows, whether the server is
 * answering now (route, rankings, pages), its newest handshake time, the checks that can confirm an
 * incident, and the owner's second-failure alert.
 */

import { FAILURES_IN_A_ROW_TO_SHOW } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import type { IncidentCheck } from './incidents.js';
import { type CheckFacts, incidentCheckOf } from './own-check-outcome.js';
import {
  type CheckObservation,
  decideShownStatus,
  displayState,
  type ShownStatus,
  shouldAlertOwner,
} from './status.js';
import { instantOf, startOfDay } from './validate.js';

/** One hourly or five-minute check: what it saw, and when. */
export interface TimedObservation extends CheckFacts {
  /** When the check ran, ISO 8601 with offset. */
  at: string;
  /** The server answered, but not with MCP. */
  notMcp: boolean;
  /** Wall time of the whole check in milliseconds, when it was kept. (`undefined` is allowed so that a record
   * parsed by a zod schema with an optional field fits as it is.) */
  elapsedMs?: number | null | undefined;
}

/** The newest daily check of a server. */
export interface DailyObservation extends CheckFacts {
  /** The UTC day the check belongs to, `YYYY-MM-DD`; null when not known (then every later check counts as after it). */
  day: string | null;
  /**
   * When the check started, ISO 8601; null for results stored before the time was kept. An undated
   * daily check still sets the fallback status, but cannot be placed inside a 2-hour incident window.
   */
  checkedAt: string | null;
  notMcp: boolean;
  /** Wall time of the whole check in milliseconds. */
  elapsedMs: number | null;
}

/** Everything our own checks say about one server. */
export interface LiveChecks {
  daily: DailyObservation | null;
  /** Hourly checks kept (this hour's and the one before), any order. */
  hourly: readonly TimedObservation[];
  /** Five-minute checks kept (the newest two), any order. */
  fiveMinute: readonly TimedObservation[];
}

/** Five-minute observations kept per server: as many as the second-failure rule reads. */
export const FIVE_MINUTE_OBSERVATIONS_KEPT = FAILURES_IN_A_ROW_TO_SHOW;

interface Dated {
  atMs: number;
  observation: TimedObservation;
  kind: 'hourly' | 'five_minute';
}

function listOf(value: readonly TimedObservation[] | undefined, field: string): readonly TimedObservation[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new ReliabilityInputError('invalid-check', field, `expected an array, received ${describeValue(value)}`);
  return value;
}

/**
 * The hourly and five-minute checks made after the daily check, oldest first. With a dated daily
 * check, "after" is by time; with an undated one, any check on or after its day counts.
 */
function checksAfterDaily(live: LiveChecks): Dated[] {
  const daily = live.daily;
  const fromMs =
    daily === null
      ? Number.NEGATIVE_INFINITY
      : daily.checkedAt !== null
        ? instantOf(daily.checkedAt, 'daily.checkedAt', 'invalid-check')
        : daily.day !== null
          ? startOfDay(daily.day, 'daily.day')
          : Number.NEGATIVE_INFINITY;
  const dated: Dated[] = [];
  const add = (list: readonly TimedObservation[], kind: Dated['kind'], field: string): void => {
    list.forEach((observation, i) => {
      const atMs = instantOf(observation?.at, `${field}[${i}].at`, 'invalid-check');
      if (atMs >= fromMs) dated.push({ atMs, observation, kind });
    });
  };
  add(listOf(live.hourly, 'hourly'), 'hourly', 'hourly');
  add(listOf(live.fiveMinute, 'fiveMinute'), 'five_minute', 'fiveMinute');
  return dated.sort((a, b) => a.atMs - b.atMs);
}

function asCheck(facts: CheckFacts & { notMcp: boolean }): CheckObservation {
  return { letter: facts.letter, httpStatus: facts.httpStatus, notMcp: facts.notMcp };
}

/**
 * What a page shows now. The daily check is shown as it is; the hourly and five-minute checks made
 * after it come on top, in time order, under the second-failure rule: a single failed check falls
 * back to the check before it (the daily one included), two in a row show down.
 *
 * @example
 * shownStatusOf({
 *   daily: { day: '2026-11-30', checkedAt: '2026-11-30T00:10:00Z', letter: 'o', reason: 'ok', httpStatus: null, notMcp: false, elapsedMs: 300 },
 *   hourly: [{ at: '2026-11-30T05:00:00Z', letter: 'd', reason: 'timeout', httpStatus: null, notMcp: false }],
 *   fiveMinute: [],
 * }); // { state: 'answering', heldBack: true, failuresInARow: 1 }
 */
export function shownStatusOf(live: LiveChecks): ShownStatus {
  const fallback = live.daily === null ? null : displayState(asCheck(live.daily));
  const after = checksAfterDaily(live);
  if (after.length === 0) return { state: fallback, heldBack: false, failuresInARow: 0 };
  return decideShownStatus(
    after.map((d) => asCheck(d.observation)),
    fallback,
  );
}

/**
 * The one meaning of "answering with tools right now", used by the route, the rankings and the
 * pages: the status a page shows (the newest of the hourly and five-minute checks when newer than
 * the daily check, else the daily check, under the second-failure rule) is answering with tools.
 * Sign-in and payment answers are up, but not answering with tools.
 *
 * @example
 * isAnsweringNow({ state: 'answering', heldBack: false, failuresInARow: 0 }); // true
 * isAnsweringNow({ state: 'sign_in', heldBack: false, failuresInARow: 0 });   // false
 */
export function isAnsweringNow(shown: ShownStatus): boolean {
  if (shown === null || typeof shown !== 'object') {
    throw new ReliabilityInputError(
      'invalid-check',
      'shown',
      `expected a shown status, received ${describeValue(shown)}`,
    );
  }
  return shown.state === 'answering';
}

/**
 * The handshake time of the newest check that answered with tools and kept its time: an hourly or
 * five-minute check made after the daily check, else the daily check, else `fallbackMs` (say, the
 * time kept in the server's state). The rankings break ties on it, lowest first.
 *
 * @example
 * newestHandshakeMs({ daily: { ...daily, elapsedMs: 900 }, hourly: [{ ...hour, letter: 'o', elapsedMs: 400 }], fiveMinute: [] }, null); // 400
 */
export function newestHandshakeMs(live: LiveChecks, fallbackMs: number | null): number | null {
  const after = checksAfterDaily(live);
  for (const { observation } of [...after].reverse()) {
    if (
      observation.letter === 'o' &&
      typeof observation.elapsedMs === 'number' &&
      Number.isFinite(observation.elapsedMs)
    )
      return observation.elapsedMs;
  }
  const daily = live.daily;
  if (daily !== null && typeof daily.elapsedMs === 'number' && Number.isFinite(daily.elapsedMs)) return daily.elapsedMs;
  return fallbackMs;
}

/**
 * Our own checks that can confirm an incident: the daily check at the time it ran (an undated one is
 * left out, as it cannot be placed in the 2-hour window), and every hourly and five-minute check
 * kept. The incident rule itself keeps only those inside its window.
 *
 * @example
 * incidentChecksOf({ daily: null, hourly: [], fiveMinute: [{ at: '2026-11-30T11:55:00Z', letter: 'd', reason: 'timeout', httpStatus: null, notMcp: false }] });
 * // [{ kind: 'five_minute', at: '2026-11-30T11:55:00Z', outcome: 'timeout' }]
 */
export function incidentChecksOf(live: LiveChecks): IncidentCheck[] {
  const checks: IncidentCheck[] = [];
  const push = (check: IncidentCheck | null): void => {
    if (check !== null) checks.push(check);
  };
  if (live.daily !== null && live.daily.checkedAt !== null)
    push(incidentCheckOf('daily', live.daily.checkedAt, live.daily));
  for (const o of listOf(live.hourly, 'hourly')) push(incidentCheckOf('hourly', o.at, o));
  for (const o of listOf(live.fiveMinute, 'fiveMinute')) push(incidentCheckOf('five_minute', o.at, o));
  return checks;
}

/** Whether to alert an owner now, and whether an alert is open after this check. */
export interface OwnerAlertDecision {
  /** Send (record) an alert now: the failures in a row just reached the threshold. */
  alert: boolean;
  /** An alert is open: the failures in a row are at or past the threshold. A check that did not fail closes it. */
  open: boolean;
  failuresInARow: number;
}

/**
 * The owner's alert after one more hourly or five-minute check. `checks` are the server's kept
 * hourly and five-minute checks, any order; `alertOpen` says whether an alert was already sent for
 * the failures in a row so far. An alert goes out once per run of failures, from the second
 * failure in a row (the same rule as the shown status), and never on the first.
 *
 * @example
 * decideOwnerAlert([{ at: 't1', letter: 'd', ... }], false);                      // { alert: false, open: false, failuresInARow: 1 }
 * decideOwnerAlert([{ at: 't1', letter: 'd', ... }, { at: 't2', letter: 'd', ... }], false); // { alert: true, open: true, failuresInARow: 2 }
 */
export function decideOwnerAlert(checks: readonly TimedObservation[], alertOpen: boolean): OwnerAlertDecision {
  if (typeof alertOpen !== 'boolean')
    throw new ReliabilityInputError(
      'invalid-check',
      'alertOpen',
      `expected a boolean, received ${describeValue(alertOpen)}`,
    );
  const ordered = checksAfterDaily({ daily: null, hourly: listOf(checks, 'checks'), fiveMinute: [] }).map((d) =>
    asCheck(d.observation),
  );
  const open = shouldAlertOwner(ordered);
  const failuresInARow = decideShownStatus(ordered).failuresInARow;
  return { alert: open && !alertOpen, open, failuresInARow };
}
