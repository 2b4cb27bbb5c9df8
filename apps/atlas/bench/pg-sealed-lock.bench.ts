// What the PostgreSQL store's sealed-day guard costs a write. One pool (10 connections, the default) on a throwaway
// cluster writes 20 files at once, as a scan's results arrive. The baseline is the same store with the guard's
// trigger dropped (the statement's own check of the root stays, as before the guard existed); the candidates are
// the writes with the trigger: a put of a day file (day lock shared, root checked again under it), an append to
// the day's report log, and a put outside any day (the trigger runs but takes no lock). The cluster runs with
// fsync off, so the round trips and the server's work set the pace, not the disk.
// Run: npx vitest bench --run bench/pg-sealed-lock.bench.ts
import { afterAll, bench, describe } from 'vitest';
import { openStore } from '../src/storage/open-store.js';
import { PG_FILES_TABLE, PG_SEALED_GUARD_TRIGGER } from '../src/storage/pg-storage.js';
import { startPostgresCluster } from '../test/setup/postgres.js';
import { inParallel, REPORT_LINE, SERVER_RECORD } from './store-writes.js';

const RUN = { time: 3_000, warmupTime: 500 };
const cluster = await startPostgresCluster();
const guarded = await openStore(await cluster.createDatabase());
const unguarded = await openStore(await cluster.createDatabase());
// Without the trigger the store behaves as the build before the guard did: only the statement checks the root.
await unguarded.pg!.pool.query(`DROP TRIGGER IF EXISTS ${PG_SEALED_GUARD_TRIGGER} ON ${PG_FILES_TABLE}`);
// Each round appends to a log of its own, so a log that grew in earlier rounds does not slow the later ones.
let logs = 0;

afterAll(async () => {
  await guarded.close();
  await unguarded.close();
  await cluster.stop();
});

describe('postgres store, 20 puts of day files at once', () => {
  bench(
    'baseline: no trigger (the statement checks the root)',
    async () => {
      await inParallel((at) => unguarded.put(`days/2026-03-01/bench/${at}.json`, SERVER_RECORD));
    },
    RUN,
  );
  bench(
    'guarded: day lock shared, root checked again under it',
    async () => {
      await inParallel((at) => guarded.put(`days/2026-03-01/bench/${at}.json`, SERVER_RECORD));
    },
    RUN,
  );
  bench(
    'guarded, outside a day (trigger runs, no lock)',
    async () => {
      await inParallel((at) => guarded.put(`state/bench/${at}.json`, SERVER_RECORD));
    },
    RUN,
  );
});

describe('postgres store, 20 appends to a new day log at once', () => {
  bench(
    'baseline: no trigger',
    async () => {
      const log = `days/2026-03-01/logs/${logs++}.jsonl`;
      await inParallel(() => unguarded.append(log, REPORT_LINE));
    },
    RUN,
  );
  bench(
    'guarded: day lock shared, root checked again under it',
    async () => {
      const log = `days/2026-03-01/logs/${logs++}.jsonl`;
      await inParallel(() => guarded.append(log, REPORT_LINE));
    },
    RUN,
  );
});
