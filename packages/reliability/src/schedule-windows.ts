/**
 * When the service's day-bound jobs may act: a day counts as closed for its aggregates, the OSV check is
 * due, and which days the pages search for a package layer. Pure module: no I/O, no clock; `now` and
 * `today` are arguments, and the OSV check's time of day (the probe's `OSV_CHECK_TIME_UTC`) is passed in,
 * because this package depends on nothing.
 */

import { MS_PER_DAY, MS_PER_HOUR } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { instantOf, instantOfDate, shiftDay, startOfDay } from './validate.js';
import { AGGREGATE_GRACE_MINUTES, OSV_RETRY_HOURS, PACKAGE_LAYER_LOOKBACK_DAYS } from './windows.js';

const MS_PER_MINUTE = 60_000;

/**
 * True once `day` has ended by the aggregates' grace period at `now`: from 00:05 UTC of the next day its raw
 * demand records and sensor batches may be summed into the day's aggregate.
 *
 * @example
 * isDayClosed('2026-11-10', new Date('2026-11-11T00:04:59.999Z')); // false
 * isDayClosed('2026-11-10', new Date('2026-11-11T00:05:00Z'));     // true
 */
export function isDayClosed(day: string, now: Date): boolean {
  return instantOfDate(now, 'now') >= startOfDay(day, 'day') + MS_PER_DAY + AGGREGATE_GRACE_MINUTES * MS_PER_MINUTE;
}

/** A time of day in UTC. */
export interface UtcTimeOfDay {
  hour: number;
  minute: number;
}

function assertTimeOfDay(time: UtcTimeOfDay): number {
  const ok =
    time !== null &&
    typeof time === 'object' &&
    Number.isInteger(time.hour) &&
    Number.isInteger(time.minute) &&
    time.hour >= 0 &&
    time.hour < 24 &&
    time.minute >= 0 &&
    time.minute < 60;
  if (!ok)
    throw new ReliabilityInputError(
      'invalid-date',
      'checkTimeUtc',
      `expected { hour: 0-23, minute: 0-59 }, received ${describeValue(time)}`,
    );
  return time.hour * 60 + time.minute;
}

/**
 * True once `now` is at or after `checkTimeUtc` on its UTC day.
 *
 * @example
 * isAtOrAfterTimeOfDay(new Date('2026-11-10T04:05:00Z'), { hour: 4, minute: 5 }); // true
 */
export function isAtOrAfterTimeOfDay(now: Date, checkTimeUtc: UtcTimeOfDay): boolean {
  const ms = instantOfDate(now, 'now');
  // UTC has no daylight saving, so the time of day is the remainder of a whole day.
  const minutes = Math.floor((((ms % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) / MS_PER_MINUTE);
  return minutes >= assertTimeOfDay(checkTimeUtc);
}

/** The day's OSV check so far: null before the first try. */
export interface OsvCheckState {
  ok: boolean;
  /** When the last try ended, ISO 8601 with offset. */
  checkedAt: string;
}

/**
 * True when the day's OSV check should run at `now`: at or after its time of day, not yet answered, and
 * either never tried or last tried at least `OSV_RETRY_HOURS` ago. The caller keeps one state per day, so a
 * check still failing at midnight is simply owed by the next day's own run.
 *
 * @example
 * isOsvCheckDue(new Date('2026-11-10T05:04:00Z'), { hour: 4, minute: 5 }, { ok: false, checkedAt: '2026-11-10T04:05:00Z' }); // false
 * isOsvCheckDue(new Date('2026-11-10T05:05:00Z'), { hour: 4, minute: 5 }, { ok: false, checkedAt: '2026-11-10T04:05:00Z' }); // true
 */
export function isOsvCheckDue(now: Date, checkTimeUtc: UtcTimeOfDay, last: OsvCheckState | null): boolean {
  if (!isAtOrAfterTimeOfDay(now, checkTimeUtc)) return false;
  if (last === null) return true;
  if (last.ok) return false;
  return now.getTime() - instantOf(last.checkedAt, 'last.checkedAt') >= OSV_RETRY_HOURS * MS_PER_HOUR;
}

/**
 * The days searched, newest first, for the package layer pages show: today and the 7 days before it.
 *
 * @example
 * packageLayerDays('2026-11-10').length; // 8, from '2026-11-10' down to '2026-11-03'
 */
export function packageLayerDays(today: string): string[] {
  startOfDay(today, 'today');
  return Array.from({ length: PACKAGE_LAYER_LOOKBACK_DAYS + 1 }, (_, back) => shiftDay(today, -back));
}
