// The server side of the report-log benchmark: the HTTP fixture's data in a fresh folder on disk, served on
// loopback with trust-proxy 1, writing agents' reports either as the app does now (append-only day log,
// group commit) or as it did before (`rewrite`: every report rewrites the whole day log atomically, one at a
// time), the baseline the benchmark compares against. With a second argument of N megabytes, the day log
// starts N MB long (earlier reports from other networks), as a busy day's would. Prints READY <url>. Bundled by bench/run-report-log.mjs;
// never part of the app's build.

import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { dayReportsPath } from '../src/data/paths.js';
import { createHttpApp } from '../src/http/app.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createSerialQueue } from '../src/storage/serial-queue.js';
import type { Storage } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { fixtureDeps, TODAY, writeFixture } from '../test/fixtures/http-atlas.js';

/** About `megabytes` MB of earlier report lines, each from its own made-up reporter. */
function earlierReports(megabytes: number): Uint8Array {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < megabytes * 1024 * 1024; i++) {
    const line = `${JSON.stringify({ server: 'weather-desk', tool: 'get_forecast', ok: true, ms: 200 + (i % 800), reporter: `anon:${i.toString(16).padStart(32, '0')}`, paid: false, at: '2026-12-01T08:00:00.000Z' })}\n`;
    lines.push(line);
    size += line.length;
  }
  return new TextEncoder().encode(lines.join(''));
}

/**
 * The old way of keeping the day log, as a Storage: an append reads nothing (the old intake kept the day's
 * bytes in memory) but writes the whole file again through the atomic put, one report at a time.
 */
function rewritingAppends(inner: Storage): Storage {
  const queue = createSerialQueue();
  const held = new Map<string, Uint8Array>();
  return {
    get: (path) => inner.get(path),
    list: (prefix) => inner.list(prefix),
    put: (path, bytes) => inner.put(path, bytes),
    delete: (path) => inner.delete(path),
    createIfAbsent: (path, bytes) => inner.createIfAbsent(path, bytes),
    createRoot: (day, makeRoot) => inner.createRoot(day, makeRoot),
    append: (path, bytes) =>
      queue.run(async () => {
        const before = held.get(path) ?? (await inner.get(path)) ?? new Uint8Array();
        const joined = new Uint8Array(before.length + bytes.length);
        joined.set(before, 0);
        joined.set(bytes, before.length);
        await inner.put(path, joined);
        held.set(path, joined);
      }),
  };
}

const mode = process.argv[2] === 'rewrite' ? 'rewrite' : 'append';
const folder = await mkdtemp(join(tmpdir(), 'atlas-bench-reports-'));
const disk = createFsStorage(folder);
const { keys } = await writeFixture(disk);
const prefillMegabytes = Number(process.argv[3] ?? '0');
if (prefillMegabytes > 0) await disk.put(dayReportsPath(TODAY), earlierReports(prefillMegabytes));
const storage = mode === 'rewrite' ? rewritingAppends(disk) : disk;
const view = await buildView(storage);
const app = createHttpApp({ ...fixtureDeps(storage, view, keys.publicKey), validateLicense: async () => false });
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => {
    void rm(folder, { recursive: true, force: true }).then(() => process.exit(0));
  });
});
