// How a read replica stays current: a `serve` on the shared store rebuilds its read model when another process
// writes a new day, a seal or an hour's checks, without a restart; and on either store when an operator's
// command (mark, incidents close, review close) run as another process changes what pages and the route show.
// Notifications can come in bursts (a seal right after a scan's summary); rebuilds never overlap, and any that
// arrive during one fold into one more.
import type { OpenedStore } from './open-store.js';

/** What followStoreChanges reports to its caller's log. */
export interface FollowChangesLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * Calls `refresh` after each change `store` announces (see OpenedStore.watchChanges), one rebuild at a time:
 * changes that land during a rebuild cause exactly one more. Resolves to the function that stops following
 * (and waits for a rebuild under way); a store that cannot tell (watchChanges null) resolves to a no-op.
 */
export async function followStoreChanges(
  store: Pick<OpenedStore, 'watchChanges'>,
  refresh: () => Promise<void>,
  log: FollowChangesLog,
): Promise<() => Promise<void>> {
  if (store.watchChanges === null) return async () => undefined;
  let running: Promise<void> | null = null;
  let again = false;
  const rebuild = (): void => {
    if (running !== null) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await refresh();
        } catch (error) {
          // A failed rebuild keeps the view it had; the next change tries again.
          log.warn({ error: (error as Error).message }, 'read model refresh after a store change failed');
        }
      } while (again);
      running = null;
    })();
  };
  const stop = await store.watchChanges((path) => {
    log.info({ path }, 'store changed: refreshing the read model');
    rebuild();
  });
  return async () => {
    await stop();
    await running;
  };
}
