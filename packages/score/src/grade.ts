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

/** One day's score of a server, as a drop is read from its history. */
export interface ScoredDay {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  compositeScore: number | null;
  grade: string;
}

/** A fall of a server's composite by {@link SCORE_DROP_ALERT_POINTS} or more, from one scored day to a later one. */
export interface ScoreDrop {
  day: string;
  previousDay: string;
  from: number;
  to: number;
  drop: number;
  fromGrade: string;
  toGrade: string;
}

const DAY_MS = 86_400_000;

/** Whole days from `earlier` to `later`, both `YYYY-MM-DD`; NaN when either is not a day. */
function daysBetween(earlier: string, later: string): number {
  return (Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / DAY_MS;
}

/**
 * The drops in one server's score history: each scored day compared with the newest scored day before it, when
 * that day is at most `lookbackDays` before (a day the server was not scored does not hide a fall; a gap longer
 * than that starts afresh). The days may come in any order; drops come oldest first.
 *
 * @example
 * scoreDropsOf([
 *   { day: '2026-12-01', compositeScore: 82, grade: 'B' },
 *   { day: '2026-12-03', compositeScore: 70, grade: 'C' },
 * ], 7);
 * // [{ day: '2026-12-03', previousDay: '2026-12-01', from: 82, to: 70, drop: 12, fromGrade: 'B', toGrade: 'C' }]
 */
export function scoreDropsOf(days: readonly ScoredDay[], lookbackDays: number): ScoreDrop[] {
  const sorted = [...days]
    .filter((d) => !Number.isNaN(Date.parse(`${d.day}T00:00:00Z`)))
    .sort((a, b) => a.day.localeCompare(b.day));
  const drops: ScoreDrop[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1] as ScoredDay;
    const current = sorted[i] as ScoredDay;
    const gap = daysBetween(previous.day, current.day);
    if (gap < 1 || gap > lookbackDays) continue;
    const drop = scoreDropOf(previous.compositeScore, current.compositeScore);
    if (drop === null) continue;
    drops.push({
      day: current.day,
      previousDay: previous.day,
      from: previous.compositeScore as number,
      to: current.compositeScore as number,
      drop,
      fromGrade: previous.grade,
      toGrade: current.grade,
    });
  }
  return drops;
}
