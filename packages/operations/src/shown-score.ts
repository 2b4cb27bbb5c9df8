/**
 * Which quality score a page shows for a server: its newest score within the shown window, so a server the
 * daily cost cap skipped keeps the score of the day it was last checked for a while. Pure module: no I/O, no
 * clock; the newest day is an argument.
 */
import { shiftDay } from '@mcp-atlas/base';
import { SHOWN_SCORE_RULES } from './score-rules.js';

/**
 * The oldest day whose score may still be shown when `day` is the newest scored day: a server's shown score is
 * its newest score from this day to `day`, both included.
 *
 * @example
 * firstShownScoreDay('2026-12-08'); // '2026-12-02': seven days, the newest included
 */
export function firstShownScoreDay(day: string): string {
  return shiftDay(day, -(SHOWN_SCORE_RULES.maxDays - 1));
}
