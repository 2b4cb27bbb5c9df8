// The day log of agents' reports is append-only: each accepted report adds one durable line, so the bytes
// written per report do not grow with the log; a torn end never glues onto the next report; reports that
// arrive together share an fsync; and a process killed at any instant loses at most the reports it had not
// answered, never an earlier line.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generateKeyPair } from '@mcp-atlas/history';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dayReportsPath } from '../src/data/paths.js';
import { parseReportLog } from '../src/data/report-log.js';
import { createHttpApp } from '../src/http/app.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import type { Storage } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { bundleHarness } from './fixtures/bundle-harness.js';
import { FIXTURE_NOW, fixtureDeps, TODAY, writeFixture } from './fixtures/http-atlas.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const LOG = dayReportsPath(TODAY);
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'atlas-report-log-'));
  folders.push(folder);
  return folder;
}

/** The app in-process over `storage` (already holding the HTTP fixture), as the served app builds it. */
async function appOver(storage: Storage) {
  const view = await buildView(storage, FIXTURE_NOW);
  const keys = await generateKeyPair();
  return createHttpApp({ ...fixtureDeps(storage, view, keys.publicKey), validateLicense: async () => false });
}

type App = Awaited<ReturnType<typeof appOver>>;

/** Files report n from its own /24 network; n is also its milliseconds, to find its line. */
function fileReport(app: App, n: number): Promise<Response> {
  return Promise.resolve(
    app.request('http://127.0.0.1/api/reports', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.${(n >> 8) & 255}.${n & 255}.1`,
        host: '127.0.0.1',
      },
      body: JSON.stringify({ server: 'notes-hub', tool: 'list_notes', ok: true, ms: n }),
    }),
  );
}

/** A storage that counts the bytes handed to put and append for one path: what a report costs to write. */
function countingWrites(inner: Storage, path: string): { storage: Storage; writes: number[] } {
  const writes: number[] = [];
  return {
    writes,
    storage: {
      get: (p) => inner.get(p),
      list: (p) => inner.list(p),
      delete: (p) => inner.delete(p),
      createRoot: (day, makeRoot) => inner.createRoot(day, makeRoot),
      createIfAbsent: async (p, bytes) => {
        if (p === path) writes.push(bytes.length);
        return inner.createIfAbsent(p, bytes);
      },
      put: async (p, bytes) => {
        if (p === path) writes.push(bytes.length);
        await inner.put(p, bytes);
      },
      append: async (p, bytes) => {
        if (p === path) writes.push(bytes.length);
        await inner.append(p, bytes);
      },
    },
  };
}

describe('the report log is append-only', () => {
  it('writes the same number of bytes for the 400th report as for the 1st (no rewrite of the day)', async () => {
    const { storage: inner } = await writeFixture(createMemoryStorage());
    const { storage, writes } = countingWrites(inner, LOG);
    const app = await appOver(storage);
    // 100..499: every report's line has the same length (three-digit ms), so any rewrite would show.
    for (let n = 100; n < 500; n++) expect((await fileReport(app, n)).status).toBe(201);
    expect(writes).toHaveLength(400);
    expect(new Set(writes).size).toBe(1);
    const bytes = (await inner.get(LOG))!;
    // Every byte written is in the file once: nothing was written twice.
    expect(writes.reduce((sum, n) => sum + n, 0)).toBe(bytes.length);
    expect(parseReportLog(bytes)).toMatchObject({ unreadable: 0 });
    expect(parseReportLog(bytes).reports.map((r) => r.ms)).toEqual(Array.from({ length: 400 }, (_, i) => i + 100));
  });

  it('starts the next report on a new line after a torn end, so the torn line never swallows it', async () => {
    const folder = await tempFolder();
    const storage = createFsStorage(folder);
    await writeFixture(storage);
    const whole =
      '{"server":"notes-hub","tool":"list_notes","ok":true,"reporter":"anon:00000000000000000000000000000000","paid":false,"at":"2026-12-01T09:00:00.000Z"}\n';
    await storage.put(LOG, new TextEncoder().encode(`${whole}{"server":"notes-hub","tool":"list_no`));
    const app = await appOver(storage);
    expect((await fileReport(app, 7)).status).toBe(201);
    expect((await fileReport(app, 8)).status).toBe(201);
    const text = await readFile(join(folder, LOG), 'utf8');
    const lines = text.split('\n');
    expect(lines[0]).toBe(whole.trimEnd());
    expect(lines[1]).toBe('{"server":"notes-hub","tool":"list_no');
    expect(JSON.parse(lines[2]!)).toMatchObject({ ms: 7 });
    expect(JSON.parse(lines[3]!)).toMatchObject({ ms: 8 });
    expect(lines[4]).toBe('');
    const parsed = parseReportLog(new TextEncoder().encode(text));
    expect(parsed.unreadable).toBe(1);
    expect(parsed.reports.map((r) => r.ms ?? null)).toEqual([null, 7, 8]);
  });

  it('gives the quota back and starts a new line when an append fails half-way', async () => {
    const { storage: inner } = await writeFixture(createMemoryStorage());
    let failNext = false;
    const storage: Storage = {
      ...inner,
      get: (p) => inner.get(p),
      list: (p) => inner.list(p),
      put: (p, b) => inner.put(p, b),
      delete: (p) => inner.delete(p),
      // A disk that fills up mid-write: half of the line lands, then the write fails.
      append: async (p, bytes) => {
        if (!failNext) return inner.append(p, bytes);
        failNext = false;
        await inner.append(p, bytes.slice(0, bytes.length >> 1));
        throw new Error('ENOSPC: no space left on device');
      },
    };
    const app = await appOver(storage);
    failNext = true;
    expect((await fileReport(app, 1)).status).toBe(500);
    // The same network may send its report again: the failed one did not count.
    for (let i = 0; i < 3; i++) expect((await fileReport(app, 1)).status).toBe(201);
    expect((await fileReport(app, 1)).status).toBe(429);
    const parsed = parseReportLog((await inner.get(LOG))!);
    expect(parsed).toMatchObject({ unreadable: 1 });
    expect(parsed.reports).toHaveLength(3);
  });

  it('lets reports that arrive together share an fsync, and answers each only once its line is durable', async () => {
    const folder = await tempFolder();
    const writes: number[] = [];
    const storage = createFsStorage(folder, { onAppendWrite: ({ appends }) => writes.push(appends) });
    await writeFixture(storage);
    const app = await appOver(storage);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, n) => fileReport(app, n)));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(writes.reduce((sum, n) => sum + n, 0)).toBe(100);
    expect(writes.length).toBeLessThan(100);
    const parsed = parseReportLog(await readFile(join(folder, LOG)));
    expect(parsed.unreadable).toBe(0);
    expect(new Set(parsed.reports.map((r) => r.ms))).toEqual(new Set(Array.from({ length: 100 }, (_, n) => n)));
  });
});

describe('a crash mid-append', () => {
  let harness: string;
  const children = new Set<ReturnType<typeof spawn>>();

  beforeAll(async () => {
    harness = await bundleHarness('report-append-harness');
  });

  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
    children.clear();
  });

  /** Runs the harness from report `first`; kills it once `killAfterAcks` reports were answered (null: let it finish). */
  function runHarness(
    dir: string,
    first: number,
    count: number,
    killAfterAcks: number | null,
  ): Promise<{ acked: number[]; killed: boolean }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [harness, dir, String(first), String(count)], {
        cwd: join(here, '..'),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      const acked: number[] = [];
      let killed = false;
      let errors = '';
      child.stderr!.on('data', (chunk) => (errors += String(chunk)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!line.startsWith('ACK ')) return;
        acked.push(Number(line.slice(4)));
        if (killAfterAcks !== null && acked.length === killAfterAcks) killed = child.kill('SIGKILL');
      });
      child.on('exit', (code) => {
        children.delete(child);
        if (!killed && code !== 0) reject(new Error(`harness exited with ${code}: ${errors}`));
        else resolve({ acked, killed });
      });
    });
  }

  it('keeps every answered report and every earlier line whole across kill -9 and restarts', async () => {
    const folder = await tempFolder();
    await writeFixture(createFsStorage(folder));
    const acked: number[] = [];
    let kills = 0;
    // Each run starts past the reports of the last (new networks), and is killed part-way through its batch.
    for (const [run, killAfter] of [
      [0, 37],
      [1, 90],
      [2, 5],
      [3, 150],
    ] as const) {
      const result = await runHarness(folder, run * 1000, 400, killAfter);
      if (result.killed) kills++;
      acked.push(...result.acked);
      const parsed = parseReportLog(await readFile(join(folder, LOG)));
      const stored = new Set(parsed.reports.map((r) => r.ms));
      for (const n of acked) expect(stored.has(n), `report ${n} was answered but is not in the log`).toBe(true);
      // Only a torn last line can fail to parse, one per crash at most.
      expect(parsed.unreadable).toBeLessThanOrEqual(kills);
    }
    expect(kills).toBe(4);
    const finished = await runHarness(folder, 5000, 50, null);
    expect(finished.acked).toHaveLength(50);
    const text = await readFile(join(folder, LOG), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const parsed = parseReportLog(new TextEncoder().encode(text));
    const stored = parsed.reports.map((r) => r.ms);
    for (const n of [...acked, ...finished.acked]) expect(stored).toContain(n);
    // No report appears twice and no line was glued onto another.
    expect(new Set(stored).size).toBe(stored.length);
    for (const line of text.split('\n').filter((l) => l !== ''))
      expect(line.match(/"server"/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});
