// One UTC day's spend under one compute cap, kept in a ledger file. The gate asks the package's cap rule
// before work starts, reserves the work's estimate while it runs, and charges each finished check to the
// ledger before the check counts as done. Why a charge per check rather than per shard: a crash mid-shard
// then loses at most the checks in flight, and the shard's re-run adds only its own checks, so a restart
// never counts a check twice and never forgets one whose result was kept.
import { type CapDecision, chargeSpend, decideCapStart } from '@mcp-atlas/reliability';
import { type SpendLedger, SpendLedgerSchema } from '../data/schemas.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';

/** A ledger for a day with nothing spent yet. */
export function emptySpendLedger(day: string, budgetMicroUsd: number): SpendLedger {
  return { day, budgetMicroUsd, spentMicroUsd: 0, checks: 0, parts: {}, stopped: null };
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

/** The day's spend under one cap, with the rule applied before each start. */
export class SpendGate {
  private reservedMicroUsd = 0;
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
  ) {}

  /**
   * Opens the ledger of `day` at `path`; the budget configured now applies, whatever the file said before.
   * With a `lock`, the ledger is shared with other processes: every decision and charge re-reads it first.
   */
  static async open(
    storage: Storage,
    path: string,
    day: string,
    budgetMicroUsd: number,
    lock: LedgerLock | null = null,
  ): Promise<SpendGate> {
    const ledger = await readSpendLedger(storage, path, day, budgetMicroUsd);
    return new SpendGate(storage, path, { ...ledger, budgetMicroUsd }, budgetMicroUsd, day, lock);
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
   * Asks the cap rule whether work estimated at `estimateMicroUsd` may start, counting the estimates of
   * work already running as spent. The decision is taken before the first await, so concurrent callers
   * are decided in the order they ask. A refusal is written to the ledger before this resolves.
   */
  async tryStart(
    part: string,
    estimateMicroUsd: number,
  ): Promise<{ reservation: SpendReservation | null; decision: CapDecision }> {
    if (this.lock !== null) return this.lock.withLock(this.path, () => this.decideShared(part, estimateMicroUsd));
    return this.decide(part, estimateMicroUsd);
  }

  /** The shared ledger's decision: on the stored ledger, read under the lock, with this process's reservations. */
  private async decideShared(
    part: string,
    estimateMicroUsd: number,
  ): Promise<{ reservation: SpendReservation | null; decision: CapDecision }> {
    await this.reread();
    // The lock is held already, so a refusal is written straight through.
    return this.decide(part, estimateMicroUsd, (change) => this.writeThrough(change));
  }

  private async decide(
    part: string,
    estimateMicroUsd: number,
    write: (change: (ledger: SpendLedger) => SpendLedger) => Promise<void> = (change) => this.update(change),
  ): Promise<{ reservation: SpendReservation | null; decision: CapDecision }> {
    const decision = decideCapStart({
      spentMicroUsd: this.current.spentMicroUsd + this.reservedMicroUsd,
      estimateMicroUsd,
      budgetMicroUsd: this.budgetMicroUsd,
      refusedToday: this.stopped,
    });
    if (decision.start) {
      this.reservedMicroUsd += estimateMicroUsd;
      return { reservation: { part, estimateMicroUsd }, decision };
    }
    if (!this.stopped) {
      // The spend the refusal counted: charges so far plus the estimates of work still running.
      const counted = decision.afterMicroUsd - estimateMicroUsd;
      await write((ledger) => ({ ...ledger, stopped: { part, estimateMicroUsd, spentMicroUsd: counted } }));
    }
    return { reservation: null, decision };
  }

  /** Charges one finished check to `part`; resolves once a ledger holding the charge is on disk. */
  charge(part: string, costMicroUsd: number): Promise<void> {
    return this.update((ledger) => {
      const total = chargeSpend(ledger, costMicroUsd);
      const before = ledger.parts[part] ?? { spentMicroUsd: 0, checks: 0 };
      return { ...ledger, ...total, parts: { ...ledger.parts, [part]: chargeSpend(before, costMicroUsd) } };
    });
  }

  /** Ends a reservation: the work's real cost has been charged check by check. */
  release(reservation: SpendReservation): void {
    this.reservedMicroUsd = Math.max(0, this.reservedMicroUsd - reservation.estimateMicroUsd);
  }

  private async writeThrough(change: (ledger: SpendLedger) => SpendLedger): Promise<void> {
    this.current = change(this.current);
    await putJson(this.storage, this.path, this.current);
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
        this.flight = putJson(this.storage, this.path, this.current)
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
