/**
 * Letter grades from the composite. Pure module: no I/O, no clock.
 */

import type { Grade } from './types.js';

/** One grade row: a composite of at least `min` earns `grade`. */
export interface GradeThreshold {
  readonly min: number;
  readonly grade: Exclude<Grade, ''>;
}

/**
 * Grade thresholds, best first (engine 0.9.0): A+ from 95, A from 85, B from 70, C from 55, D from 40,
 * F below 40. The composite is an integer by the time it is graded.
 */
export const GRADE_THRESHOLDS: readonly GradeThreshold[] = Object.freeze([
  Object.freeze({ min: 95, grade: 'A+' }),
  Object.freeze({ min: 85, grade: 'A' }),
  Object.freeze({ min: 70, grade: 'B' }),
  Object.freeze({ min: 55, grade: 'C' }),
  Object.freeze({ min: 40, grade: 'D' }),
  Object.freeze({ min: 0, grade: 'F' }),
] as const);

/**
 * The letter grade of a composite score: `gradeFor(95)` is 'A+', `gradeFor(94)` is 'A', `gradeFor(39)`
 * is 'F'; null (no composite) gives ''. Anything below 0 is an F.
 */
export function gradeFor(score: number | null): Grade {
  if (score == null || Number.isNaN(score)) return '';
  for (const row of GRADE_THRESHOLDS) if (score >= row.min) return row.grade;
  return 'F';
}

/**
 * A fall of the composite by this many points or more from one scored day to the next is an alert for the
 * server's owner (the Scoreboard's score-drop alerts: 10 points).
 */
export const SCORE_DROP_ALERT_POINTS = 10;

/**
 * The drop between two composites when it reaches {@link SCORE_DROP_ALERT_POINTS}, else null. A day without a
 * composite on either side is no drop: there is no number to fall from or to.
 *
 * @example
 * scoreDropOf(80, 70) // 10
 * scoreDropOf(80, 71) // null (9 points)
 */
export function scoreDropOf(previous: number | null, current: number | null): number | null {
  if (previous === null || current === null) return null;
  const drop = previous - current;
  return drop >= SCORE_DROP_ALERT_POINTS ? drop : null;
}
