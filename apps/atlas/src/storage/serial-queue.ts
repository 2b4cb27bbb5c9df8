// Read-modify-write through Storage.put (rate counters, owner records, submissions) is atomic per file but
// knows nothing of other writers; running such tasks one after another in this process is what keeps two
// requests from losing each other's changes. The report intake runs only its quota decision here, and waits
// for its durable append outside, so that concurrent reports can share an fsync.

/** Runs tasks one at a time in the order they were queued; a failed task does not stop the ones after it. */
export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** Creates an empty queue. */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task, task);
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
  };
}
