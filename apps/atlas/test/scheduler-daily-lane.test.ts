// The daily scan runs beside the ticks, not inside them: while a daily scan is held open, the schedule's loop
// keeps ticking and the five-minute and hourly checks keep their slots; a stop waits for the held scan. And
// since the fold and the five-minute checks now run at the same time, the read-change-write of a server's
// state is serialized per server: whichever of the two holds its write back, the other's change survives.
// Real MCP hosts on loopback, the real schedule on a clock the test moves and whose timers the test fires, and
// for the cluster case two schedules over one throwaway PostgreSQL database.
import { probeServer } from '@mcp-atlas/probe';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { FIVE_MINUTE_CHECKS_PATH, FIVE_MINUTE_OPT_IN_PATH, HOURLY_PATH, ORIGINS_PATH } from '../src/data/paths.js';
import { type ServerState, ServerStateSchema } from '../src/data/schemas.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { foldDay, serverStateWaiters } from '../src/scan/fold-day.js';
import { scanDay } from '../src/scan/scan-day.js';
import { listen } from '../src/serve/listen.js';
import type { ScheduleClock } from '../src/serve/scheduler.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { openStore } from '../src/storage/open-store.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { type ClusterOnce, postgresClusterOnce } from '../src/workers/cluster-once.js';
import { openWorkerDb } from '../src/workers/worker-db.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';
import { usePostgresPerFile } from './setup/postgres.js';
import { waitFor, waitForQueuedSteps } from './setup/wait-for.js';

const postgres = usePostgresPerFile();

const hosts: OwnerHost[] = [];
/** Whatever a test left held or running, let go and stopped after it, even when it failed. */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** Starts `work` and notes when it settles, so a test can wait for "ended, or queued behind a lock". */
function started<T>(work: Promise<T>): { done: Promise<T>; ended: () => boolean } {
  let ended = false;
  const settle = () => {
    ended = true;
  };
  work.then(settle, settle);
  return { done: work, ended: () => ended };
}

/** One put held back: `reached` resolves once it waits, `release` lets it land. */
interface HeldPut {
  reached: Promise<void>;
  release(): void;
}

/**
 * A store (memory unless `inner` is given) whose next put to a path that `matches` waits until the test releases
 * it; `onGet` and `onPut` hear of every read and write.
 */
function holdingStore(
  watch: { onGet?: (path: string) => void; onPut?: (path: string) => void } = {},
  inner: Storage = createMemoryStorage(),
): { storage: Storage; hold(matches: (path: string) => boolean): HeldPut } {
  let armed: { matches: (path: string) => boolean; reached: () => void; release: Promise<void> } | null = null;
  const storage: Storage = {
    ...inner,
    get: (path) => {
      watch.onGet?.(path);
      return inner.get(path);
    },
    put: async (path, bytes) => {
      watch.onPut?.(path);
      const hold = armed;
      if (hold?.matches(path)) {
        armed = null;
        hold.reached();
        await hold.release;
      }
      return inner.put(path, bytes);
    },
  };
  return {
    storage,
    hold(matches) {
      let reached!: () => void;
      let release!: () => void;
      const held: HeldPut = {
        reached: new Promise((resolve) => {
          reached = resolve;
        }),
        release: () => release(),
      };
      armed = {
        matches,
        reached,
        release: new Promise((resolve) => {
          release = resolve;
        }),
      };
      // Let go after the test too, so a failed test never leaves work waiting forever.
      cleanups.push(async () => release());
      return held;
    },
  };
}

/** A schedule clock the test moves by hand, whose one pending timer (the loop's next tick) the test fires. */
function firingClock(start: string): ScheduleClock & { set(iso: string): void; fire(what: string): Promise<void> } {
  let now = new Date(start);
  let pending: (() => void) | null = null;
  let onArmed: (() => void) | null = null;
  return {
    now: () => now,
    set(iso) {
      now = new Date(iso);
    },
    setTimeout(callback) {
      pending = callback;
      onArmed?.();
      return callback;
    },
    clearTimeout(handle) {
      if (pending === handle) pending = null;
    },
    /** Runs the armed tick and resolves once the loop arms the next one: the tick's own work is over. */
    async fire(what) {
      const callback = pending;
      if (callback === null) throw new Error('no tick is armed');
      pending = null;
      let armed = false;
      onArmed = () => {
        armed = true;
      };
      callback();
      await waitFor(`the loop armed its next tick after ${what}`, () => armed);
      onArmed = null;
    },
  };
}

/** A ClusterOnce that runs every task here and notes the period it was asked for, as a cluster would key it. */
function recordingOnce(): ClusterOnce & { runs: [string, string | null][] } {
  const runs: [string, string | null][] = [];
  return {
    runs,
    run: async (task, period, work) => {
      runs.push([task, period]);
      return work();
    },
  };
}

async function stateOf(storage: Storage, id: string): Promise<ServerState> {
  return ServerStateSchema.parse(await getJson(storage, `state/servers/${id}.json`));
}

function checksOn(state: ServerState, day: string): number {
  return state.fiveMinute.find((pair) => pair.day === day)?.checks ?? 0;
}

/** One opted-in host, watched as `recipes`, and a schedule over `storage` on `clock`. */
async function world(
  storage: Storage,
  clock: ScheduleClock,
  extra: { clusterOnce?: ClusterOnce; host?: OwnerHost } = {},
) {
  const { host = await startOwnerHost(), ...deps } = extra;
  if (extra.host === undefined) hosts.push(host);
  await putJson(storage, 'state/servers.json', { servers: [{ id: 'recipes', url: host.url, source: 'registry' }] });
  await putJson(storage, FIVE_MINUTE_OPT_IN_PATH, { servers: ['recipes'] });
  let refreshes = 0;
  const scheduler = await loopbackScheduler(storage, clock, {
    refresh: async () => {
      refreshes++;
    },
    ...deps,
  });
  cleanups.push(() => scheduler.stop());
  return { host, scheduler, refreshes: () => refreshes };
}

describe('the daily scan runs beside the ticks', () => {
  it('keeps the five-minute and hourly slots while a daily scan is held open, and a stop waits for the scan', async () => {
    const { storage, hold } = holdingStore();
    const clock = firingClock('2026-12-09T23:55:00Z');
    const once = recordingOnce();
    const w = await world(storage, clock, { clusterOnce: once });
    // The day before, whole: the server has a state for its five-minute counters.
    await w.scheduler.tick();
    expect((await stateOf(storage, 'recipes')).letters).toBe('o');

    // 10 December's daily scan is held at its first shard file, after its checks.
    const held = hold((path) => path.startsWith('days/2026-12-10/results/'));
    clock.set('2026-12-10T00:00:10Z');
    w.scheduler.start();
    await clock.fire('the first tick of 10 December');
    await held.reached;
    clock.set('2026-12-10T00:05:10Z');
    await clock.fire('the 00:05 tick');
    clock.set('2026-12-10T01:00:10Z');
    await clock.fire('the 01:00 tick');

    // The scan is still open, and every five-minute slot and both hours were checked meanwhile.
    expect(await storage.get('days/2026-12-10/summary.json')).toBeNull();
    expect(((await getJson(storage, HOURLY_PATH)) as { hour: string }).hour).toBe('2026-12-10T01');
    const kept = (await getJson(storage, FIVE_MINUTE_CHECKS_PATH)) as { results: Record<string, { at: string }[]> };
    expect(kept.results.recipes!.map((o) => o.at)).toEqual(['2026-12-10T00:05:10.000Z', '2026-12-10T01:00:10.000Z']);
    expect(checksOn(await stateOf(storage, 'recipes'), '2026-12-10')).toBe(3);
    // Each kind still asks the cluster for its own period: the hour, the five-minute slot, none for the daily.
    const periodsOf = (task: string) => [
      ...new Set(once.runs.filter(([name]) => name === task).map(([, period]) => period)),
    ];
    expect(periodsOf('hourly')).toEqual(['2026-12-09T23', '2026-12-10T00', '2026-12-10T01']);
    expect(periodsOf('five-minute')).toEqual(
      ['2026-12-09T23:55:00Z', '2026-12-10T00:00:10Z', '2026-12-10T00:05:10Z', '2026-12-10T01:00:10Z'].map((iso) =>
        String(Math.floor(Date.parse(iso) / 300_000)),
      ),
    );
    // The daily task was asked for twice: the day before, and once for 10 December, never again while it ran.
    expect(once.runs.filter(([name]) => name === 'daily')).toEqual([
      ['daily', null],
      ['daily', null],
    ]);

    // A stop waits for the scan in progress; its fold then keeps the counters the five-minute checks wrote.
    // What the stop finds when it ends tells whether it waited: the scan's summary is there only if it did.
    const refreshesBefore = w.refreshes();
    const stopping = started(w.scheduler.stop().then(() => storage.get('days/2026-12-10/summary.json')));
    await waitForQueuedSteps();
    expect(stopping.ended()).toBe(false);
    held.release();
    expect(await stopping.done).not.toBeNull();
    const state = await stateOf(storage, 'recipes');
    expect(state.letters).toBe('oo');
    expect(checksOn(state, '2026-12-10')).toBe(3);
    // The read model was rebuilt once the daily scan was done.
    expect(w.refreshes()).toBeGreaterThan(refreshesBefore);
  });
});

describe('one server’s state is rewritten by one writer at a time', () => {
  /**
   * A world whose daily check of 10 December is done and whose 11 December is checked but not folded yet, so
   * a five-minute round (10 December, 23:55) and the fold of 11 December can both rewrite `recipes`.
   */
  async function foldAndRound() {
    const { storage, hold } = holdingStore();
    const clock = firingClock('2026-12-10T00:10:00Z');
    const w = await world(storage, clock);
    await w.scheduler.tick();
    const before = await stateOf(storage, 'recipes');
    expect(before.letters).toBe('o');
    const servers = [{ id: 'recipes', url: w.host.url, source: 'registry' as const }];
    const scan = await scanDay({
      day: '2026-12-11',
      servers,
      storage,
      methodologyVersion: METHODOLOGY_VERSION,
      probe: (server) => probeServer(server.url, { allowPrivate: true }),
    });
    const fold = () =>
      foldDay({ storage, day: '2026-12-11', results: scan.results, servers, methodologyVersion: METHODOLOGY_VERSION });
    const round = () => {
      clock.set('2026-12-10T23:55:10Z');
      return w.scheduler.tick();
    };
    const holdState = () => hold((path) => path === 'state/servers/recipes.json');
    return { storage, fold, round, holdState, checksBefore: checksOn(before, '2026-12-10') };
  }

  it('a fold that comes while a five-minute write is held back keeps that count', async () => {
    const t = await foldAndRound();
    const held = t.holdState();
    const round = started(t.round());
    await held.reached;
    const fold = started(t.fold());
    await waitFor('the fold wrote or waits for the server', () => fold.ended() || serverStateWaiters('recipes') > 0);
    held.release();
    expect(await round.done).toContain('five-minute');
    await fold.done;
    const state = await stateOf(t.storage, 'recipes');
    expect(state).toMatchObject({ letters: 'oo', lastDay: '2026-12-11' });
    expect(checksOn(state, '2026-12-10')).toBe(t.checksBefore + 1);
  });

  it('a five-minute check that comes while the fold’s write is held back keeps the day’s letter', async () => {
    const t = await foldAndRound();
    const held = t.holdState();
    const fold = started(t.fold());
    await held.reached;
    const round = started(t.round());
    await waitFor(
      'the five-minute round wrote or waits for the server',
      () => round.ended() || serverStateWaiters('recipes') > 0,
    );
    held.release();
    await fold.done;
    expect(await round.done).toContain('five-minute');
    const state = await stateOf(t.storage, 'recipes');
    expect(state).toMatchObject({ letters: 'oo', lastDay: '2026-12-11' });
    expect(checksOn(state, '2026-12-10')).toBe(t.checksBefore + 1);
  });
});

describe('the first checks of a day wait for the daily lane’s robots.txt reads', () => {
  it('an origin the registry lists that day and whose robots.txt shuts the bot out is never sent an MCP request', async () => {
    const [known, shut] = [await startOwnerHost(), await startOwnerHost({ robots: 'User-agent: *\nDisallow: /\n' })];
    hosts.push(known!, shut!);
    const entry = (name: string, url: string) => ({ server: { name, remotes: [{ type: 'streamable-http', url }] } });
    let listed = [entry('io.example/known', known!.url)];
    // On the new day the registry holds its answer until the schedule has taken every step it can take without
    // waiting on the network. A round that went on to read robots.txt over yesterday's list has asked for the
    // day's origins file by then, and the registry answers once that round has written it, so the daily lane
    // finds that file. A round that waits for the daily lane's robots.txt reads has asked for nothing, and a
    // schedule that runs its hourly round only after the daily check has not begun it: both get the answer.
    let holdRegistry: (() => Promise<void>) | null = null;
    let originsAsked = false;
    let originsWritten: () => void = () => undefined;
    const app = new Hono();
    app.get('/v0.1/servers', async (c) => {
      if (holdRegistry !== null) await holdRegistry();
      return c.json({ servers: listed, metadata: {} });
    });
    const registry = await listen(app.fetch, 0, '127.0.0.1');
    cleanups.push(
      () =>
        new Promise((resolve) => {
          (registry.server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          registry.server.close(() => resolve());
        }),
    );
    const { storage } = holdingStore({
      onGet: (path) => {
        if (path === ORIGINS_PATH && holdRegistry !== null) originsAsked = true;
      },
      onPut: (path) => {
        if (path === ORIGINS_PATH) originsWritten();
      },
    });
    const clock = firingClock('2026-12-09T23:55:00Z');
    const scheduler = await loopbackScheduler(storage, clock, { registryUrl: `http://127.0.0.1:${registry.port}` });
    cleanups.push(() => scheduler.stop());
    expect(await scheduler.tick()).toEqual(expect.arrayContaining(['daily', 'hourly']));

    listed = [...listed, entry('io.example/shut', shut!.url)];
    const written = new Promise<void>((resolve) => {
      originsWritten = resolve;
    });
    holdRegistry = async () => {
      await waitForQueuedSteps();
      if (originsAsked) await written;
    };
    clock.set('2026-12-10T00:00:10Z');
    expect(await scheduler.tick()).toEqual(expect.arrayContaining(['daily', 'hourly']));
    const origins = (await getJson(storage, ORIGINS_PATH)) as { day: string; excluded: string[] };
    expect(origins).toMatchObject({ day: '2026-12-10', excluded: [shut!.origin] });
    expect(shut!.hits.get('/mcp') ?? 0).toBe(0);
    expect(known!.hits.get('/mcp')).toBeGreaterThan(0);
  });
});

describe('the daily lane across a cluster', () => {
  /**
   * A ClusterOnce on a pool of `connections` of its own. The daily lane holds one connection (its task's lock)
   * for the whole scan, and a task of the tick lane holds one for its lock and needs one more for its period's
   * row: three in all, so a pool of two would hold the tick lane up until the scan ends.
   */
  async function clusterOnceWithPool(url: string, connections: number): Promise<ClusterOnce> {
    const db = await openWorkerDb(url, connections);
    postgres.closers.push(() => db.close());
    return postgresClusterOnce(db);
  }

  it('runs each five-minute slot and hour once between two schedules while one of them holds a daily scan open', async () => {
    const url = await postgres.cluster.createDatabase();
    const [storeA, storeB] = [await openStore(url), await openStore(url)];
    postgres.closers.push(
      () => storeA.close(),
      () => storeB.close(),
    );
    const { storage, hold } = holdingStore({}, storeA);
    const clock = firingClock('2026-12-09T23:55:00Z');
    const a = await world(storage, clock, { clusterOnce: await clusterOnceWithPool(url, 3) });
    const b = await world(storeB, clock, { clusterOnce: await clusterOnceWithPool(url, 3), host: a.host });
    expect(await a.scheduler.tick()).toEqual(expect.arrayContaining(['daily', 'hourly', 'five-minute']));

    const held = hold((path) => path.startsWith('days/2026-12-10/results/'));
    clock.set('2026-12-10T00:00:10Z');
    a.scheduler.start();
    await clock.fire('the first tick of 10 December in A');
    await held.reached;
    // B finds the daily task's lock taken, and this hour and five-minute slot already run by A.
    const runByB: string[] = [];
    runByB.push(...(await b.scheduler.tick()));
    clock.set('2026-12-10T00:05:10Z');
    runByB.push(...(await b.scheduler.tick()));
    await clock.fire('the 00:05 tick in A');
    clock.set('2026-12-10T01:00:10Z');
    await clock.fire('the 01:00 tick in A');
    runByB.push(...(await b.scheduler.tick()));
    expect(runByB.filter((task) => ['daily', 'hourly', 'five-minute'].includes(task))).toEqual(['five-minute']);
    expect(await storeB.get('days/2026-12-10/summary.json')).toBeNull();
    expect(((await getJson(storeB, HOURLY_PATH)) as { hour: string }).hour).toBe('2026-12-10T01');
    // One five-minute check per slot between them: 00:00 and 01:00 by A, 00:05 by B.
    expect(checksOn(await stateOf(storeB, 'recipes'), '2026-12-10')).toBe(3);

    held.release();
    await a.scheduler.stop();
    const state = await stateOf(storeB, 'recipes');
    expect(state.letters).toBe('oo');
    expect(checksOn(state, '2026-12-10')).toBe(3);
  });
});
