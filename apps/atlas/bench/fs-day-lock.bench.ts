// What the folder store's day lock costs a write. The baseline is the same write to a path outside any day
// (`state/`), which takes no lock and checks no seal; the candidates are the writes a day takes (a put of a
// day file, an append to the day's report log), which take the day's lock, shared, and check the seal under
// it. Each round writes 20 files at once, as a scan's results arrive. All writes fsync, so the disk sets the
// pace: the ratio between the rows is what this bench is for, not the absolute figure.
// Run: npx vitest bench --run bench/fs-day-lock.bench.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { inParallel, REPORT_LINE, SERVER_RECORD } from './store-writes.js';

const RUN = { time: 3_000, warmupTime: 300 };
const root = await mkdtemp(join(tmpdir(), 'atlas-bench-day-lock-'));
const storage = createFsStorage(root);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('folder store, 20 puts at once', () => {
  bench(
    'baseline: puts outside a day (no lock, no seal check)',
    async () => {
      await inParallel((at) => storage.put(`state/bench/${at}.json`, SERVER_RECORD));
    },
    RUN,
  );
  bench(
    'puts of a day file (day lock shared, seal checked)',
    async () => {
      await inParallel((at) => storage.put(`days/2026-03-01/bench/${at}.json`, SERVER_RECORD));
    },
    RUN,
  );
});

describe('folder store, 20 appends at once', () => {
  bench(
    'baseline: appends outside a day (no lock, no seal check)',
    async () => {
      await inParallel(() => storage.append('state/bench.jsonl', REPORT_LINE));
    },
    RUN,
  );
  bench(
    'appends to a day log (day lock shared, seal checked)',
    async () => {
      await inParallel(() => storage.append('days/2026-03-01/reports.jsonl', REPORT_LINE));
    },
    RUN,
  );
});
