import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyChain } from '@mcp-atlas/history';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import { loadSigningKeys } from '../src/seal/keys.js';
import { readRoots } from '../src/seal/seal-day.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { putJson } from '../src/storage/storage.js';
import { bundleHarness } from './fixtures/bundle-harness.js';

const here = fileURLToPath(new URL('.', import.meta.url));
let harness: string;
let fleet: Fleet;

beforeAll(async () => {
  harness = await bundleHarness('crash-harness');
  fleet = await startFleet(30);
});

afterAll(async () => {
  await fleet.close();
});

function runHarness(args: string[], killAfterMs: number | null): Promise<{ killed: boolean; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [harness, ...args], { cwd: join(here, '..'), stdio: 'ignore' });
    let killed = false;
    const timer =
      killAfterMs === null
        ? null
        : setTimeout(() => {
            killed = child.kill('SIGKILL');
          }, killAfterMs);
    child.on('exit', (code) => {
      if (timer !== null) clearTimeout(timer);
      resolve({ killed: killed && code === null, code });
    });
  });
}

async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
  }
  return out;
}

async function expectEveryFileWhole(dir: string): Promise<void> {
  for (const file of await allFiles(dir)) {
    if (file.endsWith('.tmp')) continue;
    const text = await readFile(file, 'utf8');
    if (file.endsWith('.json')) expect(() => JSON.parse(text), relative(dir, file)).not.toThrow();
  }
}

const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04'];

describe('a crash at any instant leaves every file whole', () => {
  it('kill -9 during a scan, then a restart finishes it with nothing lost', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'atlas-crash-scan-'));
    const servers = fleet.members
      .filter((m) => m.kind !== 'slow')
      .map((m) => ({ id: m.id, url: m.url, source: 'registry' }));
    await putJson(createFsStorage(dir), 'state/servers.json', { servers });
    let kills = 0;
    for (const delay of [150, 300, 450, 600, 900]) {
      const run = await runHarness(['scan', dir, ...DAYS], delay);
      if (run.killed) kills++;
      await expectEveryFileWhole(dir);
    }
    expect(kills).toBeGreaterThan(0);
    expect((await runHarness(['scan', dir, ...DAYS], null)).code).toBe(0);
    await expectEveryFileWhole(dir);
    const storage = createFsStorage(dir);
    for (const day of DAYS) {
      const summary = JSON.parse(await readFile(join(dir, 'days', day, 'summary.json'), 'utf8')) as { servers: number };
      expect(summary.servers, day).toBe(servers.length);
    }
    const notes = JSON.parse(await readFile(join(dir, 'state/servers/notes.json'), 'utf8')) as { letters: string };
    expect(notes.letters).toBe('oooo');
    expect(await storage.list('')).not.toContain(expect.stringMatching(/\.tmp$/));
  });

  it('kill -9 during sealing, then a restart seals the rest and the chain verifies', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'atlas-crash-seal-'));
    const storage = createFsStorage(dir);
    const servers = fleet.members
      .filter((m) => m.kind === 'healthy')
      .map((m) => ({ id: m.id, url: m.url, source: 'registry' }));
    await putJson(storage, 'state/servers.json', { servers });
    expect((await runHarness(['scan', dir, ...DAYS], null)).code).toBe(0);
    let kills = 0;
    for (const delay of [60, 90, 120, 160, 220]) {
      const run = await runHarness(['seal', dir, ...DAYS], delay);
      if (run.killed) kills++;
      await expectEveryFileWhole(dir);
    }
    expect((await runHarness(['seal', dir, ...DAYS], null)).code).toBe(0);
    await expectEveryFileWhole(dir);
    const roots = [...(await readRoots(storage)).values()].sort((a, b) => a.day.localeCompare(b.day));
    expect(roots.map((r) => r.day)).toEqual(DAYS);
    const keys = await loadSigningKeys(storage);
    expect(await verifyChain(roots, keys!.publicKey)).toMatchObject({ ok: true, days: DAYS.length });
    console.log(`seal runs killed mid-way: ${kills} of 5`);
  });
});
