// Appends are read-modify-write through Storage.put, which is atomic per file but knows nothing of other
// writers; running them one after another in this process is what keeps two reports from losing each other.

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
