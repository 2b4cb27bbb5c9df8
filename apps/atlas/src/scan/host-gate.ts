// One gate for every check a service runs, so no host sees more of our sessions at once than the politeness
// rule allows (POLITENESS_RULES.checksPerHost of @mcp-atlas/operations), whichever lane the check comes from:
// the daily scan, the hourly and five-minute checks, the submitted servers' checks. A check waits its turn in
// arrival order. Keyed by host name and port, so two servers on one machine behind different ports are two
// hosts, and the paths of one host share it.

/** Runs checks so that at most `limit` of one host run at once. */
export interface HostGate {
  /** Runs `work` once fewer than the limit of checks of `url`'s host are running; waits for its turn otherwise. */
  run<T>(url: string, work: () => Promise<T>): Promise<T>;
}

/** The host a URL's checks count against: its name and port (`example.org`, `127.0.0.1:8443`). */
export function hostKeyOf(url: string): string {
  return new URL(url).host.toLowerCase();
}

/**
 * A gate that lets at most `limit` checks of one host run at once; hosts that have none running hold no memory.
 *
 * @example
 * const gate = createHostGate(1);
 * await Promise.all([gate.run(a, checkA), gate.run(a, checkA2)]); // the second starts after the first ends
 */
export function createHostGate(limit: number): HostGate {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`checks per host must be a whole number ≥ 1, not ${limit}`);
  const hosts = new Map<string, { running: number; waiting: (() => void)[] }>();
  const release = (key: string): void => {
    const host = hosts.get(key);
    if (host === undefined) return;
    const next = host.waiting.shift();
    // The turn passes straight to the next waiter, so the count stays as it is.
    if (next !== undefined) {
      next();
      return;
    }
    host.running -= 1;
    if (host.running === 0) hosts.delete(key);
  };
  return {
    async run(url, work) {
      const key = hostKeyOf(url);
      let host = hosts.get(key);
      if (host === undefined) {
        host = { running: 0, waiting: [] };
        hosts.set(key, host);
      }
      if (host.running < limit) host.running += 1;
      else await new Promise<void>((resolve) => (host as { waiting: (() => void)[] }).waiting.push(resolve));
      try {
        return await work();
      } finally {
        release(key);
      }
    },
  };
}
