// The debounced per-server update queue: news about a server (a report, a sensor batch, one of our checks)
// marks it pending, and one run a little later updates every pending server at once. Many reports about one
// server within the window cause one update, and reports about several servers share one read of the
// evidence. The window starts at the first pending event and is never pushed back by later ones, so an
// event waits at most the window plus a run already under way.

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
