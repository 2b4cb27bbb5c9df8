// `mcp-atlas worker`: takes shards of open days off the PostgreSQL queue and checks their servers. Several
// workers, on one machine or many, share a day that `scan --enqueue` queued.

import { DAILY_COST_FLAG_OPTIONS, resolveCosts } from '../costs/cost-settings.js';
import type { Logger } from '../log.js';
import { METHODOLOGY_VERSION } from '../methodology.js';
import { DEFAULT_SCAN_CONCURRENCY } from '../scan/scan-day.js';
import { openStore, redactStoreUrl, StoreUrlError, storeKindOf } from '../storage/open-store.js';
import { openClusterHostGate } from '../workers/host-locks.js';
import { runWorker } from '../workers/run-worker.js';
import { DEFAULT_LEASE_SECONDS, openShardQueue } from '../workers/shard-queue.js';
import { openWorkerDb } from '../workers/worker-db.js';
import { scanNetworkOf } from './scan.js';
import {
  checksPerHostFlag,
  costFlags,
  EXIT_OK,
  type Flags,
  intFlag,
  parseSettings,
  storeUrlOf,
  UsageError,
} from './shared.js';

export const WORKER_USAGE = `  worker  --store postgres://… [--allow-private] [--until-idle] [--lease-seconds 60] [--concurrency 16]
          [--checks-per-host 1]
          take shards of the days \`scan --enqueue\` queued and check their servers; a shard a dead worker held
          is taken again once its lease lapses. --checks-per-host: checks of one host at once across every
          worker and serve process on the store. --until-idle: exit once no shard of an open day is queued or leased
          (also takes --daily-budget-usd, --check-cost-usd and --check-cost-per-second-usd, charged cluster-wide)`;

/** The PostgreSQL store URL of a worker (--store, else MCP_ATLAS_STORE): a worker needs the shared store. */
function workerStoreUrl(flags: Flags): string {
  const url = storeUrlOf(flags);
  try {
    if (storeKindOf(url) !== 'postgres')
      throw new UsageError(
        'worker needs --store postgres://… (or MCP_ATLAS_STORE): the queue and the shared records live there',
      );
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(error.message);
    throw error;
  }
  return url;
}

/** Runs `worker`; resolves to the exit code once stopped (SIGTERM, SIGINT) or, with --until-idle, idle. */
export async function commandWorker(args: readonly string[], log: Logger): Promise<number> {
  const flags = parseSettings(args, {
    store: { type: 'string' },
    'allow-private': { type: 'boolean' },
    'until-idle': { type: 'boolean' },
    'lease-seconds': { type: 'string' },
    concurrency: { type: 'string' },
    'checks-per-host': { type: 'string' },
    ...DAILY_COST_FLAG_OPTIONS,
  });
  const url = workerStoreUrl(flags);
  const leaseSeconds = intFlag(flags, 'lease-seconds', DEFAULT_LEASE_SECONDS, 2, 3_600);
  const concurrency = intFlag(flags, 'concurrency', DEFAULT_SCAN_CONCURRENCY, 1, 256);
  const checksPerHost = checksPerHostFlag(flags);
  const costs = resolveCosts(costFlags(flags));
  const store = await openStore(url, { applicationName: 'mcp-atlas worker' });
  const db = await openWorkerDb(url);
  // Each host's turns are shared with every other worker and serve process on the store.
  const hostGate = await openClusterHostGate(url, checksPerHost, concurrency);
  const boss = await openShardQueue(url, {
    leaseSeconds,
    supervise: true,
    onError: (error) => log.warn({ err: error }, 'queue maintenance failed'),
  });
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  log.info({ store: redactStoreUrl(url), leaseSeconds, untilIdle: flags['until-idle'] === true }, 'worker started');
  try {
    const worked = await runWorker({
      storage: store,
      db,
      boss,
      network: scanNetworkOf(flags['allow-private'] === true),
      methodologyVersion: METHODOLOGY_VERSION,
      concurrency,
      cap: { budgetMicroUsd: costs.dailyBudgetMicroUsd, model: costs.model },
      now: () => new Date(),
      log,
      hostGate,
      leaseSeconds,
      untilIdle: flags['until-idle'] === true,
      signal: stop.signal,
    });
    process.stdout.write(`worked ${worked.length} shard${worked.length === 1 ? '' : 's'}\n`);
    return EXIT_OK;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await boss.stop({ graceful: false, wait: true }).catch(() => {});
    await db.close();
    await hostGate.close();
    await store.close();
  }
}
