// Shard workers against a real throwaway PostgreSQL cluster and a real loopback fleet: two workers share a
// day and every server is checked and recorded once; a shard whose worker stopped renewing its lease is taken
// again once the lease lapses; enqueuing twice queues nothing twice; the per-server record keeps the first
// record only; the spend ledger shared through advisory locks loses no charge; and a cap reached across
// workers leaves a day that folds and passes the seal's completeness check.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EXIT_USAGE, runCommand } from '../src/commands.js';
import { SpendGate } from '../src/costs/spend-gate.js';
import { dailySpendPath, dayShardPath, daySummaryPath } from '../src/data/paths.js';
import { DayIndexSchema, type ServerDayResult, ShardFileSchema, SummarySchema } from '../src/data/schemas.js';
import { createLogger } from '../src/log.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { findUnfinishedReason } from '../src/seal/seal-day.js';
import { getJson } from '../src/storage/storage.js';
import { countServerChecks, readServerChecks, recordServerCheck } from '../src/workers/day-checks.js';
import { enqueueDay } from '../src/workers/enqueue-day.js';
import { runWorker } from '../src/workers/run-worker.js';
import { daysWithPendingShards, SHARD_QUEUE } from '../src/workers/shard-queue.js';
import { advisoryLedgerLock, openWorkerDb } from '../src/workers/worker-db.js';
import { startLoopbackFleet } from './fixtures/loopback-fleet.js';
import { openWorkerWorld, type WorkerWorld as World, workerOptions } from './fixtures/worker-world.js';
import { useLoopbackFleetPerFile } from './setup/fleet.js';
import { usePostgresPerFile } from './setup/postgres.js';

const DAY = '2026-12-02';
const FLEET_SIZE = 24;
const postgres = usePostgresPerFile();
const { closers } = postgres;
const fleet = useLoopbackFleetPerFile(FLEET_SIZE, 20);

/** A fresh database holding the fleet's watched list, with a queue connection and the workers' tables. */
function openWorld(leaseSeconds = 2, registryUrl = fleet().registryUrl): Promise<World> {
  return openWorkerWorld(postgres, registryUrl, leaseSeconds);
}

async function shardResults(world: World, shards: number): Promise<ServerDayResult[]> {
  const results: ServerDayResult[] = [];
  for (let shard = 0; shard < shards; shard++) {
    const data = await getJson(world.store, dayShardPath(DAY, shard));
    if (data !== null) results.push(...ShardFileSchema.parse(data).results);
  }
  return results;
}

describe('shard workers on PostgreSQL', () => {
  it('two workers share a day: every server checked and recorded once, the day folded once', async () => {
    const world = await openWorld();
    const enqueued = await enqueueDay({
      storage: world.store,
      boss: world.boss,
      day: DAY,
      network: { allowPrivate: true },
      methodologyVersion: METHODOLOGY_VERSION,
      shards: 6,
    });
    expect(enqueued).toMatchObject({ finished: false, servers: FLEET_SIZE, shards: 6, queued: 6 });
    const before = new Map(fleet().initializes);
    const [first, second] = await Promise.all([runWorker(workerOptions(world)), runWorker(workerOptions(world))]);
    expect([...first, ...second].map((job) => job.shard).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const results = await shardResults(world, 6);
    expect(results).toHaveLength(FLEET_SIZE);
    expect(new Set(results.map((result) => result.id)).size).toBe(FLEET_SIZE);
    expect(results.every((result) => result.letter === 'o')).toBe(true);
    const counts = await countServerChecks(world.db, DAY);
    expect([...counts.values()]).toEqual(Array(FLEET_SIZE).fill(1));
    for (let i = 0; i < FLEET_SIZE; i++) expect((fleet().initializes.get(i) ?? 0) - (before.get(i) ?? 0)).toBe(1);
    const summary = SummarySchema.parse(await getJson(world.store, daySummaryPath(DAY)));
    expect(summary.servers).toBe(FLEET_SIZE);
    expect(await findUnfinishedReason(world.store, DAY)).toBeNull();
    expect(await daysWithPendingShards(world.boss)).toEqual([]);
  });

  it('a shard whose worker stopped renewing is taken again once its lease lapses', async () => {
    const world = await openWorld();
    await enqueueDay({
      storage: world.store,
      boss: world.boss,
      day: DAY,
      network: { allowPrivate: true },
      methodologyVersion: METHODOLOGY_VERSION,
      shards: 3,
    });
    // A "dead" worker: it takes a shard and never renews nor completes it.
    const [held] = await world.boss.fetch<{ day: string; shard: number }>(SHARD_QUEUE, { batchSize: 1 });
    expect(held).toBeDefined();
    const started = Date.now();
    const worked = await runWorker(workerOptions(world));
    // The live worker waited for the held shard (a leased shard counts as pending), then took it.
    expect(worked.map((job) => job.shard).sort()).toEqual([0, 1, 2]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    const index = DayIndexSchema.parse(await getJson(world.store, `days/${DAY}/index.json`));
    expect(await shardResults(world, 3)).toHaveLength(index.servers.length);
    expect(await getJson(world.store, daySummaryPath(DAY))).not.toBeNull();
  });

  it('a worker renews its lease while a shard outlasts it, so no other worker takes the shard', async () => {
    // Four servers answering after 400 ms, checked two at a time: the one shard lasts well past a 2 s lease.
    const slow = await startLoopbackFleet(4, 400);
    closers.push(() => slow.close());
    const world = await openWorld(2, slow.registryUrl);
    await enqueueDay({
      storage: world.store,
      boss: world.boss,
      day: DAY,
      network: { allowPrivate: true },
      methodologyVersion: METHODOLOGY_VERSION,
      shards: 1,
    });
    const started = Date.now();
    const worked = (
      await Promise.all([
        runWorker(workerOptions(world, { concurrency: 2 })),
        runWorker(workerOptions(world, { concurrency: 2 })),
      ])
    ).flat();
    expect(Date.now() - started).toBeGreaterThan(2_500);
    expect(worked.map((job) => job.outcome)).toEqual(['written']);
    // Each server was checked once: the lease never lapsed, so the second worker never took the shard.
    expect([...slow.initializes.values()]).toEqual([1, 1, 1, 1]);
  });

  it('enqueuing a day twice queues each shard once', async () => {
    const world = await openWorld();
    const options = {
      storage: world.store,
      boss: world.boss,
      day: DAY,
      network: { allowPrivate: true },
      methodologyVersion: METHODOLOGY_VERSION,
      shards: 4,
    };
    expect((await enqueueDay(options)).queued).toBe(4);
    expect((await enqueueDay(options)).queued).toBe(0);
  });

  it('keeps the first record of a server for a day and drops a second', async () => {
    const world = await openWorld();
    const result: ServerDayResult = {
      id: 'srv-1',
      url: 'http://127.0.0.1:1/mcp',
      letter: 'o',
      reason: 'ok',
      message: 'answered',
      notStandardMcp: false,
      protocolVersion: null,
      serverName: null,
      serverVersion: null,
      elapsedMs: 5,
      steps: [],
      toolCount: 0,
      toolsHash: null,
      tokens: null,
      findings: [],
      highRiskTools: 0,
      paymentAddress: null,
      redirect: null,
      category: null,
    };
    expect(await recordServerCheck(world.db, DAY, result, new Uint8Array([1]))).toBe(true);
    expect(await recordServerCheck(world.db, DAY, { ...result, letter: 'd', elapsedMs: 9 }, null)).toBe(false);
    const kept = (await readServerChecks(world.db, DAY, ['srv-1'])).get('srv-1');
    expect(kept?.result).toEqual(result);
    expect(kept?.catalogBytes).toEqual(new Uint8Array([1]));
    expect((await countServerChecks(world.db, DAY)).get('srv-1')).toBe(1);
  });

  it('a ledger shared through advisory locks keeps every charge of two processes', async () => {
    const world = await openWorld();
    const db2 = await openWorkerDb(world.url);
    closers.push(() => db2.close());
    const path = dailySpendPath(DAY);
    const gates = await Promise.all(
      [world.db, db2].map((db) => SpendGate.open(world.store, path, DAY, 1_000_000, advisoryLedgerLock(db))),
    );
    await Promise.all(gates.flatMap((gate, g) => Array.from({ length: 40 }, () => gate.charge(`part-${g}`, 7))));
    const ledger = (await getJson(world.store, path)) as { spentMicroUsd: number; checks: number };
    expect(ledger.checks).toBe(80);
    expect(ledger.spentMicroUsd).toBe(560);
  });

  it('a cap reached across workers skips the later shards, and the day folds and can be sealed', async () => {
    const world = await openWorld();
    await enqueueDay({
      storage: world.store,
      boss: world.boss,
      day: DAY,
      network: { allowPrivate: true },
      methodologyVersion: METHODOLOGY_VERSION,
      shards: 6,
    });
    // Every check costs 1,000 micro-dollars and the budget is 10,000: some shards fit, the rest wait.
    const cap = { budgetMicroUsd: 10_000, model: { perCheckUsd: 0.001, perSecondUsd: 0 } };
    const outcomes = (
      await Promise.all([runWorker(workerOptions(world, { cap })), runWorker(workerOptions(world, { cap }))])
    ).flat();
    const skipped = outcomes.filter((job) => job.outcome === 'skipped-by-cap');
    expect(skipped.length).toBeGreaterThan(0);
    expect(outcomes.filter((job) => job.outcome === 'written').length).toBeGreaterThan(0);
    const summary = SummarySchema.parse(await getJson(world.store, daySummaryPath(DAY)));
    expect(summary.skippedByCap).toBeGreaterThan(0);
    const ledger = (await getJson(world.store, dailySpendPath(DAY))) as { spentMicroUsd: number; checks: number };
    expect(ledger.spentMicroUsd).toBeLessThanOrEqual(10_000);
    expect(ledger.checks).toBe(FLEET_SIZE - summary.skippedByCap);
    expect(await findUnfinishedReason(world.store, DAY)).toBeNull();
  });

  it('scan --enqueue and worker refuse a store that is not PostgreSQL, with a usage error', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'atlas-workers-file-'));
    closers.push(() => rm(folder, { recursive: true, force: true }));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    closers.push(async () => stderr.mockRestore());
    const log = createLogger('silent');
    expect(await runCommand(['scan', '--data', folder, '--day', DAY, '--enqueue'], log)).toBe(EXIT_USAGE);
    expect(await runCommand(['worker', '--store', `file:${folder}`, '--until-idle'], log)).toBe(EXIT_USAGE);
    const printed = stderr.mock.calls.map((call) => String(call[0])).join('');
    expect(printed).toContain('--enqueue needs --store postgres://');
    expect(printed).toContain('worker needs --store postgres://');
    // Nothing was scanned: the refusal came before the day's index.
    expect(existsSync(join(folder, 'days'))).toBe(false);
  });
});
