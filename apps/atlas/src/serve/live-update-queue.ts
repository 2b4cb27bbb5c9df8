// The debounced per-server update queue: news about a server (a report, a sensor batch, one of our checks)
// marks it pending, and one run a little later updates every pending server at once. Many reports about one
// server within the window cause one update, and reports about several servers share one read of the
// evidence. The window starts at the first pending event and is never pushed back by later ones, so an
// event waits at most the window plus a run already under way. The wake alarm below is how news that comes by
// time alone (an incident's 2 hours passing) enters the same queue.

import type { ScheduleClock } from './scheduler.js';

/** Seconds from the first pending event to the update that covers it (the coalescing window). */
export const LIVE_UPDATE_DELAY_SECONDS = 5;

/**
 * The most an event waits before a live update covers it, in seconds: the window plus a run under way (a
 * run reads the report window's evidence and may rebuild the tool index; well under a second on a 2,000-server
 * view, see apps/atlas/README.md). The service promises a minute.
 */
export const LIVE_UPDATE_MAX_WAIT_SECONDS = 60;

/** What the queue does with a batch of servers; it runs one batch at a time. */
export type LiveUpdateRun = (serverIds: readonly string[]) => Promise<void>;

/** A debounced queue of servers waiting for a live update. */
export interface LiveUpdateQueue {
  /** Marks servers as having news. Returns at once. */
  enqueue(serverIds: readonly string[]): void;
  /** Runs the pending servers now (without waiting for the window) and resolves when they are done. */
  flush(): Promise<void>;
  /** Stops the timer and drops what is pending; later `enqueue` calls are ignored. */
  close(): Promise<void>;
}

/** Options of {@link createLiveUpdateQueue}. */
export interface LiveUpdateQueueOptions {
  run: LiveUpdateRun;
  /** The coalescing window in milliseconds (default {@link LIVE_UPDATE_DELAY_SECONDS}). */
  delayMs?: number;
  logger?: { warn(fields: object, message?: string): void };
}

/** Creates the queue. A failed run is logged and its servers wait for the next event or rebuild. */
export function createLiveUpdateQueue(options: LiveUpdateQueueOptions): LiveUpdateQueue {
  const delayMs = options.delayMs ?? LIVE_UPDATE_DELAY_SECONDS * 1000;
  if (!(delayMs >= 0 && delayMs <= LIVE_UPDATE_MAX_WAIT_SECONDS * 1000)) {
    throw new TypeError(
      `live update delay must be 0 to ${LIVE_UPDATE_MAX_WAIT_SECONDS * 1000} ms, got ${String(options.delayMs)}`,
    );
  }
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  function runPending(): Promise<void> {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    running = running.then(async () => {
      if (pending.size === 0 || closed) return;
      const batch = [...pending];
      pending.clear();
      try {
        await options.run(batch);
      } catch (error) {
        options.logger?.warn(
          {
            event: 'live_update_failed',
            servers: batch.length,
            error: error instanceof Error ? error.message : String(error),
          },
          'live update failed',
        );
      }
    });
    return running;
  }

  return {
    enqueue(serverIds) {
      if (closed || serverIds.length === 0) return;
      for (const id of serverIds) pending.add(id);
      if (timer === null) {
        timer = setTimeout(() => void runPending(), delayMs);
        timer.unref?.();
      }
    },
    flush: runPending,
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending.clear();
      await running;
    },
  };
}

/**
 * Timers a service wakes itself with: Node's by default; a test that moves the clock by hand gives its own. The
 * schedule's clock has the same two, so one test clock serves both.
 */
export type WakeTimers = Pick<ScheduleClock, 'setTimeout' | 'clearTimeout'>;

/** Node's timers, unreferenced so that a pending wake never keeps the process alive. */
export const systemWakeTimers: WakeTimers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The longest delay Node's setTimeout keeps (a longer one fires at once); a later wake is re-armed on the way. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** One timer set to a single instant at a time. */
export interface WakeAlarm {
  /** Replaces the pending wake with one at `atMs` (milliseconds since the epoch), or with none for null. */
  set(atMs: number | null): void;
  /** Clears the pending wake; later `set` calls are ignored. */
  close(): void;
}

/** Options of {@link createWakeAlarm}. */
export interface WakeAlarmOptions {
  /** The service's clock: the wake fires once it reads at least the instant set. */
  now: () => Date;
  timers?: WakeTimers;
  onWake: () => void;
}

/**
 * Creates an alarm that calls `onWake` once `now()` has reached the instant last set. The timer's delay is
 * worked out from `now()` when it is set; if it fires before the clock reads the instant (a clock stepped
 * back, a delay longer than a timer holds), it is set again for what is left.
 *
 * @example
 * const alarm = createWakeAlarm({ now: () => new Date(), onWake: () => queue.enqueue(due()) });
 * alarm.set(Date.parse('2026-11-10T11:05:00.001Z'));
 */
export function createWakeAlarm(options: WakeAlarmOptions): WakeAlarm {
  const timers = options.timers ?? systemWakeTimers;
  let handle: unknown = null;
  let closed = false;
  const clear = (): void => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = null;
  };
  const set = (atMs: number | null): void => {
    clear();
    if (closed || atMs === null) return;
    const delay = Math.min(Math.max(0, atMs - options.now().getTime()), LONGEST_TIMER_MS);
    handle = timers.setTimeout(() => {
      handle = null;
      if (options.now().getTime() < atMs) set(atMs);
      else options.onWake();
    }, delay);
  };
  return {
    set,
    close() {
      closed = true;
      clear();
    },
  };
}
