/**
 * When the service's scheduled work is due: the five-minute checks, the look for due checks of submitted
 * servers, the once-an-hour tasks (hourly check, agreement tallies, the review queue's incident decisions,
 * the daily aggregates), the seal of the previous UTC day and the monthly search evaluation. The daily check's slot is the UTC day itself
 * (`dayFromTime` of @mcp-atlas/history). Pure module: no I/O, no clock; `now` is an argument and the caller
 * keeps when each task last ran.
 */
import { SEAL_RULES } from '@mcp-atlas/history/rules';

const MS_PER_MINUTE = 60_000;

/** Five-minute checks (for owners who opted in) run once per this period. */
export const FIVE_MINUTE_CHECK_PERIOD_MS = 5 * MS_PER_MINUTE;

/**
 * How often the service looks for submitted servers whose check slot came (the slots themselves are
 * `SUBMISSION_RULES.checkIntervalHours` apart, @mcp-atlas/reliability) and for finished observation windows.
 */
export const SUBMISSION_LOOK_PERIOD_MS = 5 * MS_PER_MINUTE;

/**
 * The slot of a task run once per `periodMs` that `now` falls in: the number of whole periods since the
 * epoch, as text. Two processes reading the same slot at the same time agree that the task ran in it.
 *
 * @example
 * namePeriodSlot(new Date('1970-01-01T00:09:59.999Z'), FIVE_MINUTE_CHECK_PERIOD_MS); // '1'
 * namePeriodSlot(new Date('1970-01-01T00:10:00Z'), FIVE_MINUTE_CHECK_PERIOD_MS);     // '2'
 */
export function namePeriodSlot(now: Date, periodMs: number): string {
  return String(Math.floor(now.getTime() / periodMs));
}

/**
 * The UTC hour `now` falls in, as ISO 8601 text to the hour: the slot of every once-an-hour task (a task
 * whose last slot equals this one is not due again).
 *
 * @example
 * nameHourSlot(new Date('2026-11-10T04:59:59.999Z')); // '2026-11-10T04'
 */
export function nameHourSlot(now: Date): string {
  return now.toISOString().slice(0, 13);
}

/**
 * True when a task run once per `periodMs` is due at `now`, its last run having started at `lastRunMs`
 * (epoch milliseconds; `Number.NEGATIVE_INFINITY` or 0 when it never ran): a whole period has passed.
 *
 * @example
 * isPeriodOver(new Date(300_000), 0, FIVE_MINUTE_CHECK_PERIOD_MS); // true
 * isPeriodOver(new Date(299_999), 0, FIVE_MINUTE_CHECK_PERIOD_MS); // false
 */
export function isPeriodOver(now: Date, lastRunMs: number, periodMs: number): boolean {
  return now.getTime() - lastRunMs >= periodMs;
}

/**
 * True once `now` is at or after the seal time of its UTC day (`SEAL_RULES.sealTimeUtc` of
 * @mcp-atlas/history, 01:05): from then on the previous UTC day may be sealed, and any later run the same
 * day catches up.
 *
 * @example
 * isSealTime(new Date('2026-11-10T01:04:59.999Z')); // false
 * isSealTime(new Date('2026-11-10T01:05:00Z'));     // true
 */
export function isSealTime(now: Date): boolean {
  const minutes = now.getUTCHours() * 60 + now.getUTCMinutes();
  return minutes >= SEAL_RULES.sealTimeUtc.hour * 60 + SEAL_RULES.sealTimeUtc.minute;
}

/** The day of the month (UTC) the scheduled search evaluation runs on. */
export const SEARCH_EVAL_DAY_OF_MONTH = 1;

/** The runs of the search evaluation so far: when each was made and whether the schedule or a person ran it. */
export interface SearchEvalRuns {
  runs: readonly { source: string; date: string }[];
}

/**
 * True when the monthly search evaluation is due at `now`: on its day of the month (UTC), when no run of
 * that month came from the schedule (`source: 'schedule'`; a run by hand does not count). Each run's `date`
 * is ISO 8601 in UTC.
 *
 * @example
 * isSearchEvalDue(new Date('2026-12-01T10:00:00Z'), { runs: [] }); // true
 * isSearchEvalDue(new Date('2026-12-02T00:00:00Z'), { runs: [] }); // false
 */
export function isSearchEvalDue(now: Date, history: SearchEvalRuns): boolean {
  if (now.getUTCDate() !== SEARCH_EVAL_DAY_OF_MONTH) return false;
  const month = now.toISOString().slice(0, 7);
  return !history.runs.some((record) => record.source === 'schedule' && record.date.slice(0, 7) === month);
}
