// Day arithmetic on YYYY-MM-DD strings (UTC): distances between days, and the day each daily letter belongs to.
import { shiftDay } from '@mcp-atlas/history';
import { MS_PER_DAY } from '@mcp-atlas/reliability';

/** Whole days from `earlier` to `later` (negative when `later` comes first). */
export function daysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / MS_PER_DAY);
}

/**
 * The calendar day of each of a server's daily letters, oldest first: the last letter belongs to `lastDay`
 * and each one before it to the day before. Empty when the server has no day yet.
 */
export function daysOfLetters(letters: string, lastDay: string | null): string[] {
  if (lastDay === null) return [];
  return Array.from(letters, (_, i) => shiftDay(lastDay, i - (letters.length - 1)));
}
