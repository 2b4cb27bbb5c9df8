// The daily cap across shard workers: every running shard's estimate is reserved in the shared ledger, so a
// gate in one process sees what the others started, and counts what each may still cost (its estimate less its
// charges so far, `outstandingEstimate`); a release frees it, a crashed worker's reservation stops
// counting once stale or once its shard is taken over, and a ledger written before all this still reads. Each
// gate has its own connection pool (a separate process, as far as PostgreSQL's advisory locks can tell), and
// all of them share one PostgreSQL store. Clocks are injected, so staleness is tested without waiting.

import { COST_CAP_RULES } from '@mcp-atlas/operations/rules';
import { describe, expect, it } from 'vitest';
import { SpendGate } from '../src/costs/spend-gate.js';
import { dailySpendPath } from '../src/data/paths.js';
import { type SpendLedger, SpendLedgerSchema } from '../src/data/schemas.js';
import { type OpenedStore, openStore } from '../src/storage/open-store.js';
import { getJson, putJson } from '../src/storage/storage.js';
import { advisoryLedgerLock, openWorkerDb, type WorkerDb } from '../src/workers/worker-db.js';
import { usePostgresPerFile } from './setup/postgres.js';

const DAY = '2026-12-09';
const T0 = Date.parse('2026-12-09T06:00:00.000Z');
const postgres = usePostgresPerFile();
const { closers } = postgres;

/** A fresh database with its store, and `processes` worker pools on it (one per simulated process). */
async function openProcesses(processes: number): Promise<{ store: OpenedStore; dbs: WorkerDb[] }> {
  const url = await postgres.cluster.createDatabase();
  const store = await openStore(url);
  closers.push(() => store.close());
  const dbs: WorkerDb[] = [];
  for (let i = 0; i < processes; i++) {
    const db = await openWorkerDb(url);
    closers.push(() => db.close());
    dbs.push(db);
  }
  return { store, dbs };
}

/** A clock standing `ms` after T0. */
function at(ms: number): () => Date {
  return () => new Date(T0 + ms);
}

async function storedLedger(store: OpenedStore, path: string): Promise<SpendLedger> {
  return SpendLedgerSchema.parse(await getJson(store, path));
}

describe('reservations in the shared spend ledger', () => {
  it('admits exactly one of several gates asking at once when the budget fits one estimate', async () => {
    const { store, dbs } = await openProcesses(3);
    const path = dailySpendPath(DAY);
    const gates = await Promise.all(dbs.map((db) => SpendGate.open(store, path, DAY, 1_000, advisoryLedgerLock(db))));
    const answers = await Promise.all(gates.map((gate, i) => gate.tryStart(`shard-${i}`, 1_000)));
    const admitted = answers.filter((answer) => answer.reservation !== null);
    expect(admitted).toHaveLength(1);
    const ledger = (await getJson(store, path)) as { stopped: { spentMicroUsd: number } | null };
    // The refusal counted the admitted shard's estimate, which lives only in the ledger.
    expect(ledger.stopped?.spentMicroUsd).toBe(1_000);
  });

  it('frees the budget for another process once the shard is released', async () => {
    const { store, dbs } = await openProcesses(2);
    const path = dailySpendPath(DAY);
    const [a, b] = await Promise.all(dbs.map((db) => SpendGate.open(store, path, DAY, 1_500, advisoryLedgerLock(db))));
    const { reservation } = await a!.tryStart('shard-0', 1_000);
    expect(reservation).not.toBeNull();
    expect((await storedLedger(store, path)).reservations.map((held) => held.part)).toEqual(['shard-0']);
    await a!.charge('shard-0', 400);
    await a!.release(reservation!);
    expect(await getJson(store, path)).not.toHaveProperty('reservations');
    // 400 charged + 1,100 = 1,500, exactly the budget; with shard-0 still running it would be 400 + 600 + 1,100.
    const next = await b!.tryStart('shard-1', 1_100);
    expect(next.reservation).not.toBeNull();
    expect(next.decision.afterMicroUsd).toBe(1_500);
  });

  it('ignores and drops a reservation silent for longer than the limit, and counts it up to the limit', async () => {
    const { store, dbs } = await openProcesses(2);
    // One ledger per instant, since the refusal at the limit stops its day.
    const cases = [
      { silentMs: COST_CAP_RULES.reservationStaleMs - 1, admitted: false },
      { silentMs: COST_CAP_RULES.reservationStaleMs, admitted: false },
      { silentMs: COST_CAP_RULES.reservationStaleMs + 1, admitted: true },
    ];
    for (const [i, { silentMs, admitted }] of cases.entries()) {
      const path = `state/costs/daily/stale-${i}.json`;
      const crashed = await SpendGate.open(store, path, DAY, 1_000, advisoryLedgerLock(dbs[0]!), at(0));
      expect((await crashed.tryStart('shard-0', 1_000)).reservation).not.toBeNull();
      // The worker that reserved shard-0 dies here: no charge, no release.
      const later = await SpendGate.open(store, path, DAY, 1_000, advisoryLedgerLock(dbs[1]!), at(silentMs));
      const answer = await later.tryStart('shard-1', 1_000);
      expect(answer.reservation !== null, `silent ${silentMs} ms`).toBe(admitted);
      const ledger = await storedLedger(store, path);
      if (admitted) {
        expect(ledger.reservations.map((held) => held.part)).toEqual(['shard-1']);
        expect(ledger.stopped).toBeNull();
      } else {
        expect(ledger.reservations.map((held) => held.part)).toEqual(['shard-0']);
        expect(ledger.stopped).toEqual({ part: 'shard-1', estimateMicroUsd: 1_000, spentMicroUsd: 1_000 });
      }
    }
  });

  it('keeps a long shard reserved while it charges checks: each charge is a sign of life', async () => {
    const { store, dbs } = await openProcesses(2);
    const path = dailySpendPath(DAY);
    let aNow = 0;
    const a = await SpendGate.open(store, path, DAY, 1_000, advisoryLedgerLock(dbs[0]!), () => new Date(T0 + aNow));
    expect((await a.tryStart('shard-0', 990)).reservation).not.toBeNull();
    aNow = COST_CAP_RULES.reservationStaleMs - 1;
    await a.charge('shard-0', 10);
    // Made more than the limit ago, but charged 2 ms ago: still counted (10 charged + 980 left of its estimate), so
    // 10 + 980 + 11 is over the budget; were it taken for stale, 10 + 11 would fit.
    const b = await SpendGate.open(
      store,
      path,
      DAY,
      1_000,
      advisoryLedgerLock(dbs[1]!),
      at(COST_CAP_RULES.reservationStaleMs + 1),
    );
    const answer = await b.tryStart('shard-1', 11);
    expect(answer.reservation).toBeNull();
    expect(answer.decision.afterMicroUsd).toBe(1_001);
    const [held] = (await storedLedger(store, path)).reservations;
    expect(held).toMatchObject({ part: 'shard-0', estimateMicroUsd: 990, chargedMicroUsd: 10 });
    expect(held?.madeAt).toBe(new Date(T0).toISOString());
    expect(held?.aliveAt).toBe(new Date(T0 + COST_CAP_RULES.reservationStaleMs - 1).toISOString());
  });

  it('lets the worker that takes over a shard replace the reservation its dead holder left', async () => {
    const { store, dbs } = await openProcesses(2);
    const path = dailySpendPath(DAY);
    const dead = await SpendGate.open(store, path, DAY, 1_000, advisoryLedgerLock(dbs[0]!), at(0));
    const { reservation: lost } = await dead.tryStart('shard-3', 1_000);
    expect(lost).not.toBeNull();
    // Two minutes later (the lease lapsed, far inside the stale limit) another worker takes shard 3 over.
    const next = await SpendGate.open(store, path, DAY, 1_000, advisoryLedgerLock(dbs[1]!), at(120_000));
    const { reservation } = await next.tryStart('shard-3', 1_000);
    expect(reservation).not.toBeNull();
    const owners = (await storedLedger(store, path)).reservations.map((held) => held.owner);
    expect(owners).toHaveLength(1);
    // The old holder wakes up and releases: the new holder's reservation stays.
    await dead.release(lost!);
    expect((await storedLedger(store, path)).reservations.map((held) => held.owner)).toEqual(owners);
  });

  it('counts a running shard once: its charges, plus what is left of its estimate, at and around the budget', async () => {
    const { store, dbs } = await openProcesses(2);
    const cases = [
      // shard-0: estimate 1,000, charged 400 so far; counted 400 + 600 = 1,000 (was 1,400 when charges and the
      // whole estimate both counted).
      { charged: [400], asked: 1_000, admitted: true, after: 2_000 },
      { charged: [400], asked: 1_001, admitted: false, after: 2_001 },
      // Charged past its estimate: its charges count, nothing more is held for it.
      { charged: [700, 500], asked: 800, admitted: true, after: 2_000 },
      { charged: [700, 500], asked: 801, admitted: false, after: 2_001 },
    ];
    for (const [i, { charged, asked, admitted, after }] of cases.entries()) {
      const path = `state/costs/daily/once-${i}.json`;
      const running = await SpendGate.open(store, path, DAY, 2_000, advisoryLedgerLock(dbs[0]!), at(0));
      expect((await running.tryStart('shard-0', 1_000)).reservation).not.toBeNull();
      for (const cost of charged) await running.charge('shard-0', cost);
      const other = await SpendGate.open(store, path, DAY, 2_000, advisoryLedgerLock(dbs[1]!), at(1_000));
      const answer = await other.tryStart('shard-1', asked);
      expect(answer.reservation !== null, `case ${i}`).toBe(admitted);
      expect(answer.decision.afterMicroUsd, `case ${i}`).toBe(after);
    }
  });

  it('counts a running part once in one process too (the five-minute checks run that way)', async () => {
    const { store } = await openProcesses(0);
    for (const [asked, admitted] of [
      [1_000, true],
      [1_001, false],
    ] as const) {
      const gate = await SpendGate.open(store, `state/costs/daily/local-${asked}.json`, DAY, 2_000);
      expect((await gate.tryStart('a', 1_000)).reservation).not.toBeNull();
      await gate.charge('a', 400);
      // 400 charged + 600 left of a's estimate + asked.
      const answer = await gate.tryStart('b', asked);
      expect(answer.reservation !== null).toBe(admitted);
      expect(answer.decision.afterMicroUsd).toBe(1_000 + asked);
    }
  });

  it('reads a ledger written before reservations were shared as one without any, figures kept', async () => {
    const { store, dbs } = await openProcesses(1);
    const path = dailySpendPath(DAY);
    const old = {
      day: DAY,
      budgetMicroUsd: 1_000,
      spentMicroUsd: 300,
      checks: 3,
      parts: { '0': { spentMicroUsd: 300, checks: 3 } },
      stopped: null,
    };
    await putJson(store, path, old);
    expect(SpendLedgerSchema.parse(old)).toEqual({ ...old, reservations: [] });
    // A reservation written before charges were kept on it reads as having charged nothing.
    const held = {
      part: '0',
      estimateMicroUsd: 5,
      owner: 'w',
      madeAt: new Date(T0).toISOString(),
      aliveAt: new Date(T0).toISOString(),
    };
    expect(SpendLedgerSchema.parse({ ...old, reservations: [held] }).reservations).toEqual([
      { ...held, chargedMicroUsd: 0 },
    ]);
    const gate = await SpendGate.open(store, path, DAY, 1_000, advisoryLedgerLock(dbs[0]!), at(0));
    const answer = await gate.tryStart('1', 700);
    expect(answer.decision.afterMicroUsd).toBe(1_000);
    expect(answer.reservation).not.toBeNull();
    expect(await storedLedger(store, path)).toMatchObject({
      ...old,
      reservations: [{ part: '1', estimateMicroUsd: 700 }],
    });
  });

  it('keeps one process without a lock as before: reservations in memory, none in the file', async () => {
    const { store } = await openProcesses(0);
    const path = dailySpendPath(DAY);
    const gate = await SpendGate.open(store, path, DAY, 1_000);
    const first = await gate.tryStart('0', 600);
    expect(first.reservation).not.toBeNull();
    await gate.charge('0', 250);
    // The file is written as before reservations were shared: no such field at all.
    expect(await getJson(store, path)).not.toHaveProperty('reservations');
    // 250 charged + 350 left of the running part's 600 + 401 = 1,001: refused, and the refusal counted the 350.
    const second = await gate.tryStart('1', 401);
    expect(second.reservation).toBeNull();
    expect((await storedLedger(store, path)).stopped).toEqual({ part: '1', estimateMicroUsd: 401, spentMicroUsd: 600 });
    // A release ends the reservation at once, before its promise is awaited.
    void gate.release(first.reservation!);
    const third = await gate.tryStart('2', 100);
    expect(third.decision).toMatchObject({ start: false, reason: 'stopped_for_the_day', afterMicroUsd: 350 });
  });
});
