// Scheduled work runs once across processes sharing a PostgreSQL store: a task runs where its lock is free and
// once per period; a failed run is not noted, so it is tried again; and two schedules ticking at the same
// instant on one store run each task (sealing, the daily check, the hourly check, retention) once between them.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { type OpenedStore, openStore } from '../src/storage/open-store.js';
import { putJson } from '../src/storage/storage.js';
import { type ClusterOnce, openClusterOnce } from '../src/workers/cluster-once.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { manualClock } from './fixtures/manual-clock.js';
import { usePostgresPerFile } from './setup/postgres.js';

const postgres = usePostgresPerFile();
const { closers } = postgres;

async function openOnce(url: string): Promise<ClusterOnce> {
  const once = await openClusterOnce(url);
  closers.push(() => once.close());
  return once;
}

describe('once across the cluster', () => {
  it('runs a task in one process at a time, and once per period', async () => {
    const url = await postgres.cluster.createDatabase();
    const [a, b] = [await openOnce(url), await openOnce(url)];
    let runs = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    /** A run that lasts until the test lets it end, so the two processes' runs overlap for certain. */
    const holding = async (): Promise<boolean> => {
      runs++;
      await held;
      return true;
    };
    const quick = async (): Promise<boolean> => {
      runs++;
      return true;
    };
    const both = [a.run('hourly', '2026-12-02T10', holding), b.run('hourly', '2026-12-02T10', holding)];
    // One process holds the task; the other finds it taken and returns while the first still runs.
    try {
      expect(await Promise.race(both)).toBe(false);
    } finally {
      release();
    }
    expect((await Promise.all(both)).sort()).toEqual([false, true]);
    expect(runs).toBe(1);
    // The same period later, from either process: already run.
    expect(await b.run('hourly', '2026-12-02T10', quick)).toBe(false);
    expect(runs).toBe(1);
    // The next period runs again.
    expect(await b.run('hourly', '2026-12-02T11', quick)).toBe(true);
    expect(runs).toBe(2);
  });

  it('does not note a failed run, so the task is tried again in the same period', async () => {
    const url = await postgres.cluster.createDatabase();
    const once = await openOnce(url);
    await expect(
      once.run('retention', '2026-12-02', async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await once.run('retention', '2026-12-02', async () => true)).toBe(true);
  });

  it('two schedules ticking together on one store run each task once between them', async () => {
    const url = await postgres.cluster.createDatabase();
    const stores: OpenedStore[] = [];
    for (let i = 0; i < 2; i++) {
      const store = await openStore(url);
      closers.push(() => store.close());
      stores.push(store);
    }
    const [first] = stores as [OpenedStore, OpenedStore];
    // Yesterday has a finished day file to seal; nobody is watched, so the checks are quick.
    await putJson(first, 'state/servers.json', { servers: [] });
    await putJson(first, 'days/2026-12-01/reports.jsonl.json', { note: 'a file of the day' });
    const clock = manualClock('2026-12-02T02:00:00Z');
    const keys = await loadOrCreateSigningKeys(first, clock.now());
    const schedulers: Scheduler[] = [];
    for (const store of stores)
      schedulers.push(
        new Scheduler({
          storage: store,
          log: createLogger('silent'),
          keys,
          registryUrl: null,
          network: { allowPrivate: true },
          clock,
          outside: CLOSED_OUTSIDE,
          clusterOnce: await openOnce(url),
        }),
      );
    const done = (await Promise.all(schedulers.map((scheduler) => scheduler.tick()))).flat();
    const count = (task: string): number => done.filter((name) => name === task).length;
    expect(count('seal')).toBe(1);
    expect(count('daily')).toBe(1);
    expect(count('hourly')).toBe(1);
    expect(count('retention')).toBe(1);
    expect((await first.list('roots/')).length).toBe(1);
  });
});
