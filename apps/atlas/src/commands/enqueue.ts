// `scan --enqueue`: instead of checking the day in this process, write the day's index and put its shards on
// the PostgreSQL queue for `mcp-atlas worker` processes to share.
import type { NetworkOptions } from '@mcp-atlas/probe';
import type { Logger } from '../log.js';
import { METHODOLOGY_VERSION } from '../methodology.js';
import type { OpenedStore } from '../storage/open-store.js';
import { enqueueDay } from '../workers/enqueue-day.js';
import { openShardQueue } from '../workers/shard-queue.js';
import { EXIT_FAILED, EXIT_OK, UsageError } from './shared.js';

/** Refuses --enqueue on a store without a queue: the shards go on a queue kept in PostgreSQL. */
export function assertEnqueueStore(store: OpenedStore): void {
  if (store.kind !== 'postgres')
    throw new UsageError('--enqueue needs --store postgres://…: the shard queue and the workers share PostgreSQL');
}

/** Queues the shards of `day` and prints what it queued; resolves to the exit code. */
export async function enqueueScanDay(
  store: OpenedStore,
  url: string,
  day: string,
  network: NetworkOptions,
  log: Logger,
): Promise<number> {
  assertEnqueueStore(store);
  const boss = await openShardQueue(url, { onError: (error) => log.warn({ err: error }, 'queue error') });
  try {
    const outcome = await enqueueDay({ storage: store, boss, day, network, methodologyVersion: METHODOLOGY_VERSION });
    log.info(outcome, 'day enqueued');
    if (outcome.nothingToCheck) {
      process.stderr.write(
        `mcp-atlas: no server is watched, so nothing of ${day} was queued; read a registry first (--registry URL or MCP_ATLAS_REGISTRY) and run scan --enqueue again\n`,
      );
      return EXIT_FAILED;
    }
    process.stdout.write(
      outcome.finished
        ? `${day} was already scanned\n`
        : `queued ${outcome.queued} of ${outcome.shards} shards of ${day} (${outcome.servers} servers)\n`,
    );
    return EXIT_OK;
  } finally {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
  }
}
