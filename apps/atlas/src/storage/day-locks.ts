// A folder has no transaction, so the folder store checks a day's seal right before each write lands. Within
// one process that check and the write must not interleave with the root's creation: a write that saw no root
// and a root created before that write renames into place would leave a sealed day's file changed after its
// seal. Writes to a day share its lock; creating its root takes the lock alone, so it waits for the writes in
// flight and the writes after it see the root. Processes do not share these locks (see fs-storage.ts).

/** A shared/exclusive lock whose waiters are served in arrival order (an exclusive one is not starved). */
export class SharedExclusiveLock {
  /** Holders: a count of shared ones, or -1 while the exclusive one holds it. */
  private holders = 0;
  private readonly waiting: { exclusive: boolean; grant: () => void }[] = [];

  /** True when nobody holds the lock or waits for it. */
  get idle(): boolean {
    return this.holders === 0 && this.waiting.length === 0;
  }

  /** How many callers wait for the lock now. */
  get waiters(): number {
    return this.waiting.length;
  }

  /** Runs `task` while holding the lock, shared with other shared holders or alone when `exclusive`. */
  async run<T>(exclusive: boolean, task: () => Promise<T>): Promise<T> {
    await this.acquire(exclusive);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(exclusive: boolean): Promise<void> {
    // Someone already waiting goes first, so a stream of shared holders cannot keep an exclusive one out.
    if (this.waiting.length === 0 && this.mayTake(exclusive)) {
      this.take(exclusive);
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ exclusive, grant }));
  }

  private mayTake(exclusive: boolean): boolean {
    return exclusive ? this.holders === 0 : this.holders >= 0;
  }

  private take(exclusive: boolean): void {
    this.holders = exclusive ? -1 : this.holders + 1;
  }

  private release(): void {
    this.holders = this.holders === -1 ? 0 : this.holders - 1;
    while (this.waiting.length > 0) {
      const next = this.waiting[0] as { exclusive: boolean; grant: () => void };
      if (!this.mayTake(next.exclusive)) return;
      this.waiting.shift();
      this.take(next.exclusive);
      next.grant();
      if (next.exclusive) return;
    }
  }
}

/** One lock per key, made when first used and forgotten when idle, so a long-running process does not grow. */
export class KeyedLocks {
  private readonly locks = new Map<string, SharedExclusiveLock>();

  /** Runs `task` under `key`'s lock (shared, or alone when `exclusive`). */
  async run<T>(key: string, exclusive: boolean, task: () => Promise<T>): Promise<T> {
    let lock = this.locks.get(key);
    if (lock === undefined) {
      lock = new SharedExclusiveLock();
      this.locks.set(key, lock);
    }
    try {
      return await lock.run(exclusive, task);
    } finally {
      if (lock.idle && this.locks.get(key) === lock) this.locks.delete(key);
    }
  }

  /** How many keys have a holder or a waiter now (for tests). */
  get size(): number {
    return this.locks.size;
  }

  /** How many callers wait for `key`'s lock now (for tests that must know a seal is queued behind a write). */
  waitersOf(key: string): number {
    return this.locks.get(key)?.waiters ?? 0;
  }
}

/** The day locks of every folder store of this process, by the folder's real path: two stores over one folder share them. */
const dayLocksByFolder = new Map<string, KeyedLocks>();

/** The day locks of the folder store whose folder's real path is `root`. */
export function dayLocksOf(root: string): KeyedLocks {
  let locks = dayLocksByFolder.get(root);
  if (locks === undefined) {
    locks = new KeyedLocks();
    dayLocksByFolder.set(root, locks);
  }
  return locks;
}
