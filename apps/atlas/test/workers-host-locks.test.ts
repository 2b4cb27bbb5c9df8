// One check of a host at a time across processes, on a real throwaway PostgreSQL cluster. Each gate below has
// its own pool, as a separate worker or serve process would, so the advisory locks are all that keeps them
// apart. Three shard workers share a day of twelve real MCP servers on one loopback host and port: the fleet
// never answers two requests at once, also while a schedule of its own runs its three lanes over the same host
// beside them. With a limit of 2, a second process takes the turn the first left free,
// and a third waits inside PostgreSQL until one of them ends.
import { describe, expect, it } from 'vitest';
import { dayShardPath, FIVE_MINUTE_OPT_IN_PATH, SERVERS_PATH } from '../src/data/paths.js';
import { ShardFileSchema } from '../src/data/schemas.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson } from '../src/storage/storage.js';
import { enqueueDay } from '../src/workers/enqueue-day.js';
import { hostLockKey, openClusterHostGate } from '../src/workers/host-locks.js';
import { runWorker } from '../src/workers/run-worker.js';
import { openWorkerDb } from '../src/workers/worker-db.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { manualClock } from './fixtures/manual-clock.js';
import { openWorkerWorld, workerOptions } from './fixtures/worker-world.js';
import { useLoopbackFleetPerFile } from './setup/fleet.js';
import { usePostgresPerFile } from './setup/postgres.js';
import { waitFor } from './setup/wait-for.js';

const DAY = '2026-12-03';
const FLEET_SIZE = 12;
const postgres = usePostgresPerFile();
const { closers } = postgres;
const fleet = useLoopbackFleetPerFile(FLEET_SIZE, 20);

/** A cluster host gate with its own pool, closed after the test. */
async function gateOf(url: string, limit: number) {
  const gate = await openClusterHostGate(url, limit, 4);
  closers.push(() => gate.close());
  return gate;
}

/** A check that runs until the test ends it. */
function heldCheck() {
  let end: () => void = () => {};
  const state = { started: false };
  const work = () => {
    state.started = true;
    return new Promise<void>((resolve) => {
      end = resolve;
    });
  };
  return { state, work, end: () => end() };
}

describe('the host gate shared through PostgreSQL', () => {
  it('lets three workers with limit 1 check a host one request at a time, and every server once', async () => {
    const world = await openWorkerWorld(postgres, fleet().registryUrl, 30);
    const { url, store, boss } = world;
    await enqueueDay({
      storage: store,
      boss,
      day: DAY,
      network: { allowPrivate: true },
      methodologyVersion: METHODOLOGY_VERSION,
      shards: 3,
    });
    const gates = await Promise.all([0, 1, 2].map(() => gateOf(url, 1)));
    const runs = gates.map((hostGate) => runWorker(workerOptions(world, { hostGate, leaseSeconds: 30, pollMs: 50 })));
    const jobs = (await Promise.all(runs)).flat();
    expect(jobs.map((job) => job.shard).sort()).toEqual([0, 1, 2]);
    const ids: string[] = [];
    for (let shard = 0; shard < 3; shard++)
      ids.push(...ShardFileSchema.parse(await getJson(store, dayShardPath(DAY, shard))).results.map((r) => r.id));
    expect(ids).toHaveLength(FLEET_SIZE);
    expect(fleet().maxInFlight()).toBe(1);
  });

  it("keeps a schedule's daily, hourly and five-minute lanes and three workers to one request at a time", async () => {
    const world = await openWorkerWorld(postgres, fleet().registryUrl, 30);
    const { url, store, boss } = world;
    const day = '2026-12-04';
    await enqueueDay({
      storage: store,
      boss,
      day,
      network: { allowPrivate: true },
      methodologyVersion: METHODOLOGY_VERSION,
      shards: 3,
    });
    // A serve process of its own (its own store and clock) checks four servers of the same fleet in all its lanes,
    // through its own pool's turns of the same host.
    const storage = createMemoryStorage();
    const ids = [0, 1, 2, 3].map((i) => `fleet-${i}`);
    await putJson(storage, SERVERS_PATH, {
      servers: ids.map((id, i) => ({ id, url: fleet().urlOf(i), source: 'registry' as const })),
    });
    await putJson(storage, FIVE_MINUTE_OPT_IN_PATH, { servers: ids });
    const scheduler = await loopbackScheduler(storage, manualClock(`${day}T00:30:00Z`), {
      hostGate: await gateOf(url, 1),
    });
    const gates = await Promise.all([0, 1, 2].map(() => gateOf(url, 1)));
    const workers = gates.map((hostGate) =>
      runWorker(workerOptions(world, { hostGate, leaseSeconds: 30, pollMs: 50 })),
    );
    const [tasks, ...worked] = await Promise.all([scheduler.tick(), ...workers]);
    expect(tasks).toEqual(expect.arrayContaining(['daily', 'hourly', 'five-minute']));
    expect(
      worked
        .flat()
        .map((job) => job.shard)
        .sort(),
    ).toEqual([0, 1, 2]);
    expect(fleet().maxInFlight()).toBe(1);
  });

  it('with limit 2, hands a second process the free turn and holds a third in PostgreSQL', async () => {
    const url = await postgres.cluster.createDatabase();
    const [one, two, three] = await Promise.all([0, 1, 2].map(() => gateOf(url, 2)));
    const host = 'https://mcp.example.org/mcp';
    const [a, b, c] = [heldCheck(), heldCheck(), heldCheck()];
    const turns: number[] = [];
    const first = one!.run(host, (turn) => (turns.push(turn), a.work()));
    await waitFor('the first check starts', () => a.state.started);
    // The second process's local turn is 0 too, but turn 0 is held in the cluster: it takes turn 1.
    const second = two!.run(host, (turn) => (turns.push(turn), b.work()));
    await waitFor('the second check starts beside the first', () => b.state.started);
    const third = three!.run(host, c.work);
    const watch = await openWorkerDb(url, 1);
    closers.push(() => watch.close());
    await waitFor('the third check waits on a turn’s lock', async () => {
      const { rows } = await watch.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%pg_advisory_lock%'",
      );
      return rows[0]!.n === 1;
    });
    expect(c.state.started).toBe(false);
    a.end();
    await first;
    await waitFor('the third check starts once the first ends', () => c.state.started);
    b.end();
    c.end();
    await Promise.all([second, third]);
    expect(turns).toEqual([0, 0]);
    expect(hostLockKey(host, 1)).toBe('mcp-atlas:host:mcp.example.org:1');
  });
});
