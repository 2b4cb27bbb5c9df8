// Day arithmetic on YYYY-MM-DD strings (UTC): distances between days, and the day each daily letter belongs to.
// The counting is @mcp-atlas/risk/time's, the one day helper module every package uses.
import { shiftDay } from '@mcp-atlas/history';
import { daysBetween as countDaysBetween } from '@mcp-atlas/risk/time';

/**
 * Whole days from `earlier` to `later` (negative when `later` comes first). Both are days the app read through
 * its schemas, so one that is not a real day is a bug: it throws a RangeError naming both.
 */
export function daysBetween(earlier: string, later: string): number {
  const days = countDaysBetween(earlier, later);
  if (days === null) throw new RangeError(`daysBetween needs two real YYYY-MM-DD days, got ${earlier} and ${later}`);
  return days;
}

/**
 * The calendar day of each of a server's daily letters, oldest first: the last letter belongs to `lastDay`
 * and each one before it to the day before. Empty when the server has no day yet.
 */
export function daysOfLetters(letters: string, lastDay: string | null): string[] {
  if (lastDay === null) return [];
  return Array.from(letters, (_, i) => shiftDay(lastDay, i - (letters.length - 1)));
}
