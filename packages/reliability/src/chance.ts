/**
 * Chance the next handshake works, and tool-list stability. Pure module.
 *
 * Both describe the handshake and the tool list as our checks see them, not a tool call.
 */

import {
  DAY_WEIGHT_BASE,
  DOWN_LETTER,
  MS_PER_DAY,
  NO_DATA_LETTER,
  STABILITY_PENALTY_PER_CHANGE_DAY,
  STABILITY_WINDOW_DAYS,
  SUCCESS_PRIOR_SUCCESSES,
  SUCCESS_PRIOR_TRIALS,
} from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { assertLetters } from './letters.js';
import { assertCount, startOfDay } from './validate.js';

/**
 * The weight of day `i` (1 = oldest) of `n` days: 0.5 + i / n, so the newest day weighs 1.5 and
 * the oldest just over 0.5. `n` counts every letter, `n` days included.
 *
 * @example
 * weighDay(1, 4); // 0.75
 * weighDay(4, 4); // 1.5
 */
export function weighDay(i: number, n: number): number {
  assertCount(n, 'n');
  assertCount(i, 'i');
  if (i < 1 || i > n) {
    throw new ReliabilityInputError('invalid-number', 'i', `expected a day from 1 to ${n}, received ${i}`);
  }
  return DAY_WEIGHT_BASE + i / n;
}

/**
 * Chance the next check works: (1 + Σw over answering days) / (2 + Σw over observed days), with
 * w = 0.5 + i / n for day i of n, oldest first. `a` and `p` days count as answering; `n` days count
 * toward n but add to neither sum. With no observed day it is 0.5; it always stays strictly
 * between 0 and 1, and a recent `d` lowers it more than an old one.
 *
 * @example
 * successChance('');    // 0.5
 * successChance('od');  // (1 + 1) / (2 + 1 + 1.5) = 0.444...
 */
export function successChance(letters: string): number {
  assertLetters(letters);
  const n = letters.length;
  let answering = 0;
  let observed = 0;
  for (let i = 1; i <= n; i++) {
    const letter = letters[i - 1];
    if (letter === NO_DATA_LETTER) continue;
    const weight = DAY_WEIGHT_BASE + i / n;
    observed += weight;
    if (letter !== DOWN_LETTER) answering += weight;
  }
  return (SUCCESS_PRIOR_SUCCESSES + answering) / (SUCCESS_PRIOR_TRIALS + observed);
}

/**
 * Stability of the tool list: 1 / (1 + 0.5 x days it changed in the last 30). 1 for a list that
 * never changed, 0.5 after two change days. Throws unless the count is a whole number from 0 to 30.
 *
 * @example
 * stability(0); // 1
 * stability(3); // 0.4
 */
export function stability(changeDaysLast30: number): number {
  assertCount(changeDaysLast30, 'changeDaysLast30');
  if (changeDaysLast30 > STABILITY_WINDOW_DAYS) {
    throw new ReliabilityInputError(
      'invalid-number',
      'changeDaysLast30',
      `a ${STABILITY_WINDOW_DAYS}-day window holds at most ${STABILITY_WINDOW_DAYS} change days, received ${changeDaysLast30}`,
    );
  }
  return 1 / (1 + STABILITY_PENALTY_PER_CHANGE_DAY * changeDaysLast30);
}

/**
 * Counts the distinct days, among a server's recorded tool-list change days (`YYYY-MM-DD`, kept
 * for 60 days), that fall in the 30 days ending with `today` (today included). Days after `today`
 * are ignored. The result is what {@link stability} takes.
 *
 * @example
 * countChangeDays(['2025-05-02', '2025-05-31', '2025-06-01'], '2025-06-01'); // 2 (May 2 is 31 days back)
 */
export function countChangeDays(changeDays: readonly string[], today: string): number {
  const end = startOfDay(today, 'today');
  const start = end - (STABILITY_WINDOW_DAYS - 1) * MS_PER_DAY;
  if (!Array.isArray(changeDays)) {
    throw new ReliabilityInputError(
      'invalid-day',
      'changeDays',
      `expected an array of days, received ${describeValue(changeDays)}`,
    );
  }
  const inWindow = new Set<number>();
  changeDays.forEach((day, index) => {
    const ms = startOfDay(day, `changeDays[${index}]`);
    if (ms >= start && ms <= end) inWindow.add(ms);
  });
  return inWindow.size;
}
