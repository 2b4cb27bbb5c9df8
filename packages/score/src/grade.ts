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
