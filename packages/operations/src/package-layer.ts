/**
 * The package layer's timing (methodology, "Domain age and the package layer" > "Package layer"): when the
 * day's OSV check is due, how long a failed one waits, and which days the pages search for a package layer.
 * Pure module: no I/O, no clock; `now` and `today` are arguments, and the OSV check's time of day (the probe's
 * `OSV_CHECK_TIME_UTC`) is passed in.
 */

import { MS_PER_DAY, shiftDay } from '@mcp-atlas/base';
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describeValue, instantOf, instantOfDate, startOfDay } from './validate.js';

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

/** npm and PyPI packages read per registry entry; an entry listing more is cut here (no real server ships so many). */
export const PACKAGES_PER_SERVER_MAX = 10;

/**
 * Days before today the pages look back for a package layer OSV answered for: today and the 7 days before
 * it (8 day files). Before the day's 04:05 UTC check this keeps yesterday's answer on show rather than a
 * blank; older than that, nothing is shown as checked.
 */
export const PACKAGE_LAYER_LOOKBACK_DAYS = 7;

/** Hours a failed OSV check waits before it is tried again; the day's check is still owed until the day ends. */
export const OSV_RETRY_HOURS = 1;

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
