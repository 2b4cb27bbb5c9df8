// The day each of a server's daily letters belongs to (UTC, YYYY-MM-DD). The counting is @mcp-atlas/base's,
// the one day helper module every package uses; distances between days are its daysBetween.
import { shiftDay } from '@mcp-atlas/base';

/**
 * The calendar day of each of a server's daily letters, oldest first: the last letter belongs to `lastDay`
 * and each one before it to the day before. Empty when the server has no day yet.
 */
export function daysOfLetters(letters: string, lastDay: string | null): string[] {
  if (lastDay === null) return [];
  return Array.from(letters, (_, i) => shiftDay(lastDay, i - (letters.length - 1)));
}
