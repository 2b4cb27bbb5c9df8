// Backing off a scheduled task that keeps failing. When the network is down every task fails on every
// 30-second tick; without a pause the log fills with one identical error per task per tick. A failing task
// waits twice as long after each failure in a row (one tick, two, four, ... up to half an hour), and each
// failure is logged once, with the pause that follows it, so the log shows one line per backoff step.

/** The pause after the first failure: one tick of the schedule. */
export const TASK_BACKOFF_FIRST_MS = 30_000;

/** The longest pause between two attempts of a failing task. */
export const TASK_BACKOFF_MAX_MS = 30 * 60_000;

/**
 * The pause after `failures` failures in a row: TASK_BACKOFF_FIRST_MS doubled for each failure after the
 * first, at most TASK_BACKOFF_MAX_MS.
 *
 * @example
 * backoffDelayMs(1); // 30_000
 * backoffDelayMs(3); // 120_000
 * backoffDelayMs(20); // 1_800_000
 */
export function backoffDelayMs(failures: number): number {
  if (failures <= 0) return 0;
  const steps = Math.min(failures - 1, 30);
  return Math.min(TASK_BACKOFF_FIRST_MS * 2 ** steps, TASK_BACKOFF_MAX_MS);
}

/** One failure's place in its run: how many in a row, and how long until the next attempt. */
export interface BackoffStep {
  failures: number;
  retryInMs: number;
}

/** Failures in a row per task, and when each failing task may run again. */
export class TaskBackoff {
  private readonly state = new Map<string, { failures: number; nextAt: number }>();

  /** True when `task` is not in a pause at `nowMs`. */
  isDue(task: string, nowMs: number): boolean {
    const entry = this.state.get(task);
    return entry === undefined || nowMs >= entry.nextAt;
  }

  /** Records a failure at `nowMs` and returns the step it starts. */
  failed(task: string, nowMs: number): BackoffStep {
    const failures = (this.state.get(task)?.failures ?? 0) + 1;
    const retryInMs = backoffDelayMs(failures);
    this.state.set(task, { failures, nextAt: nowMs + retryInMs });
    return { failures, retryInMs };
  }

  /** Records a success; returns how many failures in a row it ends (0 when the task was not failing). */
  succeeded(task: string): number {
    const failures = this.state.get(task)?.failures ?? 0;
    this.state.delete(task);
    return failures;
  }
}
