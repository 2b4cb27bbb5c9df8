/**
 * Daily letters: one result per UTC day, oldest first. Pure module.
 */

import { ANSWERING_LETTERS, DAILY_LETTERS, DOWN_LETTER, LETTER_WINDOW_DAYS, NO_DATA_LETTER } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { assertCount } from './validate.js';

/** One day's result: `o` tools listed, `a` sign-in asked, `p` payment asked, `d` down, `n` no data. */
export type DailyLetter = (typeof DAILY_LETTERS)[number];

/** A result of a check that ran: every daily letter except `n`. */
export type ObservedLetter = Exclude<DailyLetter, 'n'>;

/** Counts read from a string of daily letters. */
export interface LetterCounts {
  /** Letters in the string, `n` days included (the n of the day weights). */
  days: number;
  /** Days that are not `n`. */
  observed: number;
  /** Days that are `o`, `a` or `p`. */
  answering: number;
  /** Days that are `d`. */
  down: number;
}

const LETTER_SET: ReadonlySet<string> = new Set(DAILY_LETTERS);
const ANSWERING_SET: ReadonlySet<string> = new Set(ANSWERING_LETTERS);

/**
 * True when `value` is a valid string of daily letters: only `o a p d n`, at most 30 of them.
 * The empty string is valid (a server seen on no day yet).
 *
 * @example
 * isDailyLetters('ooadn'); // true
 * isDailyLetters('oox');   // false
 */
export function isDailyLetters(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > LETTER_WINDOW_DAYS) return false;
  for (const letter of value) if (!LETTER_SET.has(letter)) return false;
  return true;
}

/** @internal Throws a typed error unless `value` is a valid string of daily letters. */
export function assertLetters(value: unknown, field = 'letters'): string {
  if (!isDailyLetters(value)) {
    throw new ReliabilityInputError(
      'invalid-letters',
      field,
      `expected at most ${LETTER_WINDOW_DAYS} letters from "${DAILY_LETTERS.join('')}", oldest first, received ${describeValue(value)}`,
    );
  }
  return value;
}

/** True when a letter counts as up (`o`, `a`, `p`). */
export function isAnsweringLetter(letter: string): boolean {
  return ANSWERING_SET.has(letter);
}

/**
 * Counts days, observed days, answering days and down days in a string of daily letters.
 * Throws {@link ReliabilityInputError} (`invalid-letters`) on anything but `o a p d n`.
 *
 * @example
 * countLetters('oondd'); // { days: 5, observed: 4, answering: 2, down: 2 }
 */
export function countLetters(letters: string): LetterCounts {
  return tallyLetters(letters, 'letters');
}

/** @internal {@link countLetters} with the field name used in error messages. */
export function tallyLetters(letters: string, field: string): LetterCounts {
  assertLetters(letters, field);
  let answering = 0;
  let down = 0;
  for (let i = 0; i < letters.length; i++) {
    const letter = letters[i] as string;
    if (letter === DOWN_LETTER) down++;
    else if (letter !== NO_DATA_LETTER) answering++;
  }
  return { days: letters.length, observed: answering + down, answering, down };
}

/** Days observed (not `n`) in a string of daily letters. */
export function countObservedDays(letters: string): number {
  return countLetters(letters).observed;
}

/**
 * Adds one day's result to a server's letters and keeps the newest 30. `skippedDays` days on which
 * the daily check did not run come first as `n`, so every other result stays on its own date.
 *
 * @example
 * appendDailyLetter('oo', 'd', 1); // 'oond'
 */
export function appendDailyLetter(letters: string, letter: ObservedLetter | 'n', skippedDays = 0): string {
  assertLetters(letters);
  if (typeof letter !== 'string' || letter.length !== 1 || !LETTER_SET.has(letter)) {
    throw new ReliabilityInputError(
      'invalid-letters',
      'letter',
      `expected one of "${DAILY_LETTERS.join('')}", received ${describeValue(letter)}`,
    );
  }
  assertCount(skippedDays, 'skippedDays');
  const gap = NO_DATA_LETTER.repeat(Math.min(skippedDays, LETTER_WINDOW_DAYS));
  const next = letters + gap + letter;
  return next.length > LETTER_WINDOW_DAYS ? next.slice(next.length - LETTER_WINDOW_DAYS) : next;
}
