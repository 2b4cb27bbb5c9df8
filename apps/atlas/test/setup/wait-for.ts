// The one way the app's tests wait: for something to become true, never for a length of time. A verdict that
// rested on a sleep ("nothing happened in 300 ms") would pass or fail with the machine's load; a wait that
// checks a condition only ever ends sooner or later, and the test's verdict is what it then finds.

/** How often a condition is checked again: often enough to add little to a test, rare enough to cost little. */
const CHECK_EVERY_MS = 5;

/**
 * Far beyond any wait on a loaded machine, and under the run's 300 s hang guard (vitest.config.ts), so a
 * condition that never holds fails with its own name rather than as a bare timeout.
 */
const GIVE_UP_AFTER_MS = 240_000;

/** Checks `condition` until it holds; a condition that never holds fails the test naming `what`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > GIVE_UP_AFTER_MS) throw new Error(`gave up waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
  }
}

/**
 * Resolves once every step already queued that needs no I/O and no timer has run: the promise callbacks queued
 * now and those they queue in turn. Code that would do something without waiting on I/O has done it by then,
 * however loaded the machine, so a test can check that it did not.
 */
export function waitForQueuedSteps(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
