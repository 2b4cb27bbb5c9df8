// Runtime-neutral module: the injected clock and the per-step timer that turns "8 s for initialize, inside an
// overall deadline, unless the caller aborts" into one AbortSignal and a verdict on which one fired.

/**
 * Time as the probe sees it. `now` is a monotonic millisecond count (only differences matter);
 * `setTimeout`/`clearTimeout` schedule the step limits. Tests inject a scaled clock so that the real
 * limits (8 s, 5 s...) play out in a fraction of the time.
 */
export interface ProbeClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The clock used when none is injected: `performance.now` and the global timers. */
export const systemClock: ProbeClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** Which limit ended a step early. */
export type StopCause = 'timeout' | 'deadline' | 'aborted';

/** A running step: its signal, and once it fired, why. */
export interface StepTimer {
  readonly signal: AbortSignal;
  /** The limit that fired, or null while none has. */
  cause(): StopCause | null;
  /** Milliseconds since the step started, on the injected clock. */
  elapsed(): number;
  dispose(): void;
}

/** The overall deadline of one check, in clock time; null when the check has none. */
export interface Deadline {
  readonly clock: ProbeClock;
  readonly endsAt: number | null;
  readonly signal: AbortSignal | undefined;
}

/** Milliseconds left before the deadline (Infinity without one). */
export function remainingMs(deadline: Deadline): number {
  return deadline.endsAt === null ? Infinity : deadline.endsAt - deadline.clock.now();
}

/**
 * Starts a step limited to `limitMs` and to what is left of the deadline, whichever is shorter, and
 * aborted at once by the caller's signal. The returned signal goes to the request and the body reads.
 * With `limitMs` null the step has no limit of its own: only the deadline (and the signal) can end it,
 * as in the site check, whose 12 s cover the whole session and no single request.
 */
export function startStep(deadline: Deadline, limitMs: number | null): StepTimer {
  const { clock } = deadline;
  const startedAt = clock.now();
  const controller = new AbortController();
  let cause: StopCause | null = null;
  const stop = (why: StopCause): void => {
    if (cause !== null) return;
    cause = why;
    controller.abort();
  };
  const limit = limitMs ?? Infinity;
  const left = remainingMs(deadline);
  const deadlineFirst = left <= limit;
  const wait = Math.max(0, Math.min(limit, left));
  // No limit and no deadline: no timer at all (a timer of Infinity ms would fire at once on most runtimes).
  const handle = Number.isFinite(wait)
    ? clock.setTimeout(() => stop(deadlineFirst ? 'deadline' : 'timeout'), wait)
    : null;
  const onAbort = (): void => stop('aborted');
  if (deadline.signal !== undefined) {
    if (deadline.signal.aborted) stop('aborted');
    else deadline.signal.addEventListener('abort', onAbort, { once: true });
  }
  if (wait <= 0) stop(deadlineFirst ? 'deadline' : 'timeout');
  return {
    signal: controller.signal,
    cause: () => cause,
    elapsed: () => clock.now() - startedAt,
    dispose() {
      if (handle !== null) clock.clearTimeout(handle);
      deadline.signal?.removeEventListener('abort', onAbort);
    },
  };
}
