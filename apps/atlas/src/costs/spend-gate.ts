// One UTC day's spend under one compute cap, kept in a ledger file. The gate asks the package's cap rule
// before work starts, reserves the work's estimate while it runs, and charges each finished check to the
// ledger before the check counts as done. Why a charge per check rather than per shard: a crash mid-shard
// then loses at most the checks in flight, and the shard's re-run adds only its own checks, so a restart
// never counts a check twice and never forgets one whose result was kept.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type CapDecision,
  chargeSpend,
  decideCapStart,
  isReservationLive,
  outstandingEstimate,
} from '@mcp-atlas/operations';
import { type SpendLedger, SpendLedgerSchema } from '../data/schemas.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';

/** A reservation as the shared ledger keeps it. */
type StoredReservation = SpendLedger['reservations'][number];

/** A ledger for a day with nothing spent yet. */
export function emptySpendLedger(day: string, budgetMicroUsd: number): SpendLedger {
  return { day, budgetMicroUsd, spentMicroUsd: 0, checks: 0, parts: {}, stopped: null, reservations: [] };
}

/**
 * The reservations that still count when `part` is about to start at `now`: live by the cap's rule (a worker
 * silent longer than CAP_RESERVATION_STALE_MS is taken for dead, `isReservationLive`), and not an earlier
 * holder's reservation of `part` itself. A part runs in one place at a time (a shard is one queue job), so a
 * new start of it means its earlier holder lost the shard (its lease lapsed, usually because it died); its
 * reservation would otherwise count the same shard twice and could refuse the retry, stopping the day.
 */
function liveReservations(reservations: readonly StoredReservation[], part: string, now: Date): StoredReservation[] {
  return reservations.filter((held) => held.part !== part && isReservationLive(held.aliveAt, now));
}

/** What running work may still cost: each reservation's estimate less its charges so far (the cap's rule). */
function sumOutstanding(reservations: Iterable<{ estimateMicroUsd: number; chargedMicroUsd: number }>): number {
  let sum = 0;
  for (const held of reservations) sum += outstandingEstimate(held.estimateMicroUsd, held.chargedMicroUsd);
  return sum;
}

/** A name for one gate that no other gate of this or any other process shares, and that says whose it is. */
function newOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID()}`;
}

/**
 * The ledger as it is written: without `reservations` while it holds none, so a one-process ledger (never any)
 * and a shared one between shards are the same bytes as before reservations were shared.
 */
function toStoredLedger(ledger: SpendLedger): Omit<SpendLedger, 'reservations'> | SpendLedger {
  if (ledger.reservations.length > 0) return ledger;
  const { reservations: _none, ...stored } = ledger;
  return stored;
}

/** Reads a day's ledger, or an empty one. A ledger of another day at that path is a bug, so it throws. */
export async function readSpendLedger(
  storage: Storage,
  path: string,
  day: string,
  budgetMicroUsd: number,
): Promise<SpendLedger> {
  const data = await getJson(storage, path);
  if (data === null) return emptySpendLedger(day, budgetMicroUsd);
  const ledger = SpendLedgerSchema.parse(data);
  if (ledger.day !== day) throw new Error(`The spend ledger at ${path} is for ${ledger.day}, not ${day}`);
  return ledger;
}

/**
 * Serializes a ledger's read, change and write across processes. Shard workers on several machines charge
 * one day's ledger; each change then re-reads the stored ledger under the lock, so no charge is lost to
 * another process's write and the cap is decided on what every worker has spent. With the PostgreSQL store
 * it is an advisory lock (workers/worker-db.ts); a single process needs none.
 */
export interface LedgerLock {
  withLock<T>(key: string, run: () => Promise<T>): Promise<T>;
}

/** Work allowed to start: its estimate stays reserved until {@link SpendGate.release}. */
export interface SpendReservation {
  part: string;
  estimateMicroUsd: number;
}

/**
 * The day's spend under one cap, with the rule applied before each start. Without a lock (one process) the
 * estimates of running work are reserved in this object's memory; with a lock they are reserved in the
 * shared ledger, so every process decides on every process's running work.
 */
export class SpendGate {
  /** The running work reserved in memory, by part, with its charges so far (without a lock only). */
  private readonly running = new Map<string, { estimateMicroUsd: number; chargedMicroUsd: number }>();
  /** Names this gate's reservations in a shared ledger. */
  private readonly owner = newOwnerId();
  private version = 0;
  private written = 0;
  private flight: Promise<void> | null = null;

  private constructor(
    private readonly storage: Storage,
    private readonly path: string,
    private current: SpendLedger,
    private readonly budgetMicroUsd: number,
    private readonly day: string,
    private readonly lock: LedgerLock | null,
    private readonly now: () => Date,
  ) {}

  /**
   * Opens the ledger of `day` at `path`; the budget configured now applies, whatever the file said before.
   * With a `lock`, the ledger is shared with other processes: every decision and charge re-reads it first,
   * and reservations are kept in it. `now` dates those reservations and tells a stale one (shared only).
   */
  static async open(
    storage: Storage,
    path: string,
    day: string,
    budgetMicroUsd: number,
    lock: LedgerLock | null = null,
    now: () => Date = () => new Date(),
  ): Promise<SpendGate> {
    const ledger = await readSpendLedger(storage, path, day, budgetMicroUsd);
    return new SpendGate(storage, path, { ...ledger, budgetMicroUsd }, budgetMicroUsd, day, lock, now);
  }

  /** The ledger as it stands (charges not yet on disk included). */
  get ledger(): SpendLedger {
    return this.current;
  }

  /** True once a start was refused today: nothing more starts before the next UTC day. */
  get stopped(): boolean {
    return this.current.stopped !== null;
  }

  /**
   * Asks the cap rule whether work estimated at `estimateMicroUsd` may start, counting as spent the charges
   * so far plus what work already running may still cost (its estimate less its own charges, so a running
   * shard's checks count once). A refusal is written to the ledger before this resolves.
   *
   * Without a lock, the running work is this gate's own, and the decision is taken before the first await,
   * so concurrent callers are decided in the order they ask. With a lock, the decision is taken under it on
   * the stored ledger with every process's live reservations (stale ones and an earlier holder's reservation
   * of the same part are dropped, see `isReservationLive`), and an admitted start writes its own
   * reservation before the lock is let go, so the next process to decide counts it.
   */
  async tryStart(
    part: string,
    estimateMicroUsd: number,
  ): Promise<{ reservation: SpendReservation | null; decision: CapDecision }> {
    if (this.lock !== null) return this.lock.withLock(this.path, () => this.decideShared(part, estimateMicroUsd));
    return this.decideLocal(part, estimateMicroUsd);
  }

  /** One process's decision: its own running work is reserved in memory. */
  private async decideLocal(
    part: string,
    estimateMicroUsd: number,
  ): Promise<{ reservation: SpendReservation | null; decision: CapDecision }> {
    const decision = this.askRule(estimateMicroUsd, sumOutstanding(this.running.values()));
    if (decision.start) {
      // A part runs in one place at a time, so a part's new start replaces what was kept for it.
      this.running.set(part, { estimateMicroUsd, chargedMicroUsd: 0 });
      return { reservation: { part, estimateMicroUsd }, decision };
    }
    await this.recordRefusal(part, estimateMicroUsd, decision, (change) => this.update(change));
    return { reservation: null, decision };
  }

  /** The shared ledger's decision, under the lock, on the stored ledger and every process's reservations. */
  private async decideShared(
    part: string,
    estimateMicroUsd: number,
  ): Promise<{ reservation: SpendReservation | null; decision: CapDecision }> {
    await this.reread();
    const now = this.now();
    const reservations = liveReservations(this.current.reservations, part, now);
    // Dropped reservations leave the ledger with whichever write comes next.
    this.current = { ...this.current, reservations };
    const decision = this.askRule(estimateMicroUsd, sumOutstanding(reservations));
    // The lock is held already, so every change is written straight through.
    if (decision.start) {
      const at = now.toISOString();
      const held: StoredReservation = {
        part,
        estimateMicroUsd,
        owner: this.owner,
        madeAt: at,
        aliveAt: at,
        chargedMicroUsd: 0,
      };
      await this.writeThrough((ledger) => ({ ...ledger, reservations: [...ledger.reservations, held] }));
      return { reservation: { part, estimateMicroUsd }, decision };
    }
    await this.recordRefusal(part, estimateMicroUsd, decision, (change) => this.writeThrough(change));
    return { reservation: null, decision };
  }

  private askRule(estimateMicroUsd: number, reservedMicroUsd: number): CapDecision {
    return decideCapStart({
      spentMicroUsd: this.current.spentMicroUsd + reservedMicroUsd,
      estimateMicroUsd,
      budgetMicroUsd: this.budgetMicroUsd,
      refusedToday: this.stopped,
    });
  }

  /** Notes the day's first refusal; later refusals leave the ledger as it is. */
  private async recordRefusal(
    part: string,
    estimateMicroUsd: number,
    decision: CapDecision,
    write: (change: (ledger: SpendLedger) => SpendLedger) => Promise<void>,
  ): Promise<void> {
    if (this.stopped) return;
    // The spend the refusal counted: charges so far plus what work still running may yet cost.
    const counted = decision.afterMicroUsd - estimateMicroUsd;
    await write((ledger) => ({ ...ledger, stopped: { part, estimateMicroUsd, spentMicroUsd: counted } }));
  }

  /**
   * Charges one finished check to `part`; resolves once a ledger holding the charge is on disk. The charge
   * also counts against `part`'s reservation, whose estimate then holds only what is left of it. In a shared
   * ledger it renews this gate's reservation of `part` too: it is the sign of life that keeps a long shard's
   * reservation from going stale.
   */
  charge(part: string, costMicroUsd: number): Promise<void> {
    const at = this.now().toISOString();
    const local = this.running.get(part);
    if (local !== undefined) local.chargedMicroUsd += costMicroUsd;
    return this.update((ledger) => {
      const total = chargeSpend(ledger, costMicroUsd);
      const before = ledger.parts[part] ?? { spentMicroUsd: 0, checks: 0 };
      const reservations = ledger.reservations.map((held) =>
        held.owner === this.owner && held.part === part
          ? { ...held, aliveAt: at, chargedMicroUsd: held.chargedMicroUsd + costMicroUsd }
          : held,
      );
      return {
        ...ledger,
        ...total,
        parts: { ...ledger.parts, [part]: chargeSpend(before, costMicroUsd) },
        reservations,
      };
    });
  }

  /**
   * Ends a reservation: the work's real cost has been charged check by check. Without a lock it ends at once
   * (the returned promise has nothing left to wait for); with one, it resolves once the reservation is off the
   * stored ledger. Another holder's reservation of the same part is left alone.
   */
  async release(reservation: SpendReservation): Promise<void> {
    if (this.lock === null) {
      this.running.delete(reservation.part);
      return;
    }
    await this.update((ledger) => ({
      ...ledger,
      reservations: ledger.reservations.filter((held) => held.owner !== this.owner || held.part !== reservation.part),
    }));
  }

  private async writeThrough(change: (ledger: SpendLedger) => SpendLedger): Promise<void> {
    this.current = change(this.current);
    await putJson(this.storage, this.path, toStoredLedger(this.current));
  }

  private async reread(): Promise<void> {
    const stored = await readSpendLedger(this.storage, this.path, this.day, this.budgetMicroUsd);
    this.current = { ...stored, budgetMicroUsd: this.budgetMicroUsd };
  }

  private update(change: (ledger: SpendLedger) => SpendLedger): Promise<void> {
    // Shared: under the lock, the change applies to the stored ledger and is written before the lock is let go.
    if (this.lock !== null)
      return this.lock.withLock(this.path, async () => {
        await this.reread();
        await this.writeThrough(change);
      });
    this.current = change(this.current);
    this.version++;
    return this.flushTo(this.version);
  }

  // Writes coalesce: while one write is on its way, later changes wait for the next one, which carries them
  // all. A caller resolves only once a write that includes its change has finished.
  private async flushTo(target: number): Promise<void> {
    while (this.written < target) {
      if (this.flight === null) {
        const version = this.version;
        this.flight = putJson(this.storage, this.path, toStoredLedger(this.current))
          .then(() => {
            this.written = Math.max(this.written, version);
          })
          .finally(() => {
            this.flight = null;
          });
      }
      await this.flight;
    }
  }
}
