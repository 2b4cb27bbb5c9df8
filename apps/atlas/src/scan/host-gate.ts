// One gate for every check a service runs, so no host sees more of our sessions at once than the politeness
// rule allows (POLITENESS_RULES.checksPerHost of @mcp-atlas/operations), whichever lane the check comes from:
// the daily scan, the hourly and five-minute checks, the submitted servers' checks. A check waits its turn in
// arrival order. Keyed by host name and port, so two servers on one machine behind different ports are two
// hosts, and the paths of one host share it. Each running check holds one of the host's numbered turns
// (0 to limit − 1), so a gate across processes can lock that turn's number (workers/host-locks.ts).

/** Runs checks so that at most `limit` of one host run at once. */
export interface HostGate {
  /**
   * Runs `work` once a turn of `url`'s host is free, waiting otherwise; `work` is told the turn's number
   * (0 to limit − 1), which no other check of the host running here holds meanwhile.
   */
  run<T>(url: string, work: (turn: number) => Promise<T>): Promise<T>;
}

/** The host a URL's checks count against: its name and port (`example.org`, `127.0.0.1:8443`). */
export function hostKeyOf(url: string): string {
  return new URL(url).host.toLowerCase();
}

interface HostTurns {
  /** Turns no check holds, lowest first. */
  free: number[];
  /** Checks waiting, oldest first; each is handed a turn when one is let go. */
  waiting: ((turn: number) => void)[];
}

/**
 * A gate that lets at most `limit` checks of one host run at once; hosts with no check running hold no memory.
 *
 * @example
 * const gate = createHostGate(1);
 * await Promise.all([gate.run(a, checkA), gate.run(a, checkA2)]); // the second starts after the first ends
 */
export function createHostGate(limit: number): HostGate {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`checks per host must be a whole number ≥ 1, not ${limit}`);
  const hosts = new Map<string, HostTurns>();
  const letGo = (key: string, host: HostTurns, turn: number): void => {
    const next = host.waiting.shift();
    // The turn passes straight to the oldest waiter.
    if (next !== undefined) {
      next(turn);
      return;
    }
    host.free.push(turn);
    host.free.sort((a, b) => a - b);
    if (host.free.length === limit) hosts.delete(key);
  };
  const take = (key: string): Promise<{ host: HostTurns; turn: number }> => {
    let host = hosts.get(key);
    if (host === undefined) {
      host = { free: Array.from({ length: limit }, (_, turn) => turn), waiting: [] };
      hosts.set(key, host);
    }
    const turns = host;
    const turn = turns.free.shift();
    if (turn !== undefined) return Promise.resolve({ host: turns, turn });
    return new Promise((resolve) => turns.waiting.push((handed) => resolve({ host: turns, turn: handed })));
  };
  return {
    async run(url, work) {
      const key = hostKeyOf(url);
      const { host, turn } = await take(key);
      try {
        return await work(turn);
      } finally {
        letGo(key, host, turn);
      }
    },
  };
}
