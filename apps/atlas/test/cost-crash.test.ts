// kill -9 during capped daily scans: the spend ledger stays whole and right, a restart neither repeats nor
// forgets a charge, and every day ends folded with `n` exactly where the cap (or the crash) left a shard.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probeServer } from '@mcp-atlas/probe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DayIndexSchema,
  ShardFileSchema,
  type SpendLedger,
  SpendLedgerSchema,
  SummarySchema,
  type WatchedServer,
} from '../src/data/schemas.js';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { scanDay, shardOf } from '../src/scan/scan-day.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { bundleHarness } from './fixtures/bundle-harness.js';

const here = fileURLToPath(new URL('.', import.meta.url));
let harness: string;
let fleet: Fleet;

beforeAll(async () => {
  harness = await bundleHarness('cost-crash-harness');
  fleet = await startFleet(30);
});

afterAll(async () => {
  await fleet.close();
});

/**
 * Runs the harness; with `killAfterChecks`, kills it with SIGKILL as soon as the fleet has received that
 * many new checks from it, so the kill lands while a check is on its way, whatever the machine's load.
 */
function runHarness(
  args: string[],
  killAfterChecks: { count: number; ids: ReadonlySet<string> } | null,
): Promise<{ killed: boolean; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [harness, ...args], { cwd: join(here, '..'), stdio: 'ignore' });
    let killed = false;
    const before = killAfterChecks === null ? 0 : checksReceived(killAfterChecks.ids);
    const poll =
      killAfterChecks === null
        ? null
        : setInterval(() => {
            if (!killed && checksReceived(killAfterChecks.ids) - before >= killAfterChecks.count)
              killed = child.kill('SIGKILL');
          }, 1);
    child.on('exit', (code) => {
      if (poll !== null) clearInterval(poll);
      resolve({ killed: killed && code === null, code });
    });
  });
}

async function expectEveryJsonFileWhole(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const file = join(entry.parentPath, entry.name);
    const text = await readFile(file, 'utf8');
    expect(() => JSON.parse(text), relative(dir, file)).not.toThrow();
  }
}

const DAYS = ['2026-12-01', '2026-12-02', '2026-12-03'];
const BUDGET_USD = '0.009'; // 9 checks of 1,000 micro-dollars a day
const BUDGET_MICRO_USD = 9000;

async function ledgerOf(storage: Storage, day: string): Promise<SpendLedger | null> {
  const data = await getJson(storage, `state/costs/daily/${day}.json`);
  return data === null ? null : SpendLedgerSchema.parse(data);
}

/** The ledger's own sums agree, stay within the budget, and cover every result kept in a shard file. */
async function expectLedgersRight(storage: Storage): Promise<{ charged: number; kept: number }> {
  let charged = 0;
  let kept = 0;
  for (const day of DAYS) {
    const ledger = await ledgerOf(storage, day);
    if (ledger === null) continue;
    const parts = Object.values(ledger.parts);
    expect(ledger.spentMicroUsd, day).toBe(1000 * ledger.checks);
    expect(ledger.spentMicroUsd, day).toBe(parts.reduce((sum, p) => sum + p.spentMicroUsd, 0));
    expect(ledger.checks, day).toBe(parts.reduce((sum, p) => sum + p.checks, 0));
    expect(ledger.spentMicroUsd, day).toBeLessThanOrEqual(BUDGET_MICRO_USD);
    for (const path of await storage.list(`days/${day}/results/`)) {
      const shard = ShardFileSchema.parse(await getJson(storage, path));
      // A result on disk was charged before its shard file was written.
      expect(ledger.parts[String(shard.shard)]?.checks ?? 0, path).toBeGreaterThanOrEqual(shard.results.length);
      kept += shard.results.length;
    }
    charged += ledger.checks;
  }
  return { charged, kept };
}

/** True when some day has an index but no summary yet: a kill then interrupted that day's scan. */
async function dayInProgress(storage: Storage): Promise<boolean> {
  for (const day of DAYS) {
    if (
      (await storage.get(`days/${day}/index.json`)) !== null &&
      (await storage.get(`days/${day}/summary.json`)) === null
    )
      return true;
  }
  return false;
}

function checksReceived(ids: ReadonlySet<string>): number {
  return fleet.received.filter((r) => ids.has(r.member) && r.rpcMethods.includes('initialize')).length;
}

describe('the daily cost cap across crashes', () => {
  it('kill -9 mid-scan, then restarts: no charge lost for a kept result, none counted twice, and n exactly where shards were left', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'atlas-cost-crash-'));
    const storage = createFsStorage(dir);
    const members = fleet.members.filter((m) => m.kind !== 'slow');
    const ids = new Set(members.map((m) => m.id));
    const servers = { servers: members.map((m) => ({ id: m.id, url: m.url, source: 'registry' })) };
    await putJson(storage, 'state/servers.json', servers);
    const received = checksReceived(ids);
    let kills = 0;
    let midDay = 0;
    let runs = 0;
    // Each run is killed after a few more checks have gone out: mid-shard, mid-day, at the day's first check.
    for (const count of [1, 3, 5, 2, 4, 6, 3, 2]) {
      if ((await storage.get(`days/${DAYS.at(-1)}/summary.json`)) !== null) break;
      runs++;
      const run = await runHarness([dir, BUDGET_USD, ...DAYS], { count, ids });
      if (run.killed) kills++;
      if (run.killed && (await dayInProgress(storage))) midDay++;
      await expectEveryJsonFileWhole(dir);
      const { charged } = await expectLedgersRight(storage);
      // With one check at a time, a kill can lose the charge of at most the one check in flight.
      const probed = checksReceived(ids) - received;
      expect(charged).toBeLessThanOrEqual(probed);
      expect(charged).toBeGreaterThanOrEqual(probed - kills);
    }
    expect(kills).toBeGreaterThan(0);
    expect(midDay, 'kills that landed after a day had started and before it was folded').toBeGreaterThan(0);
    expect((await runHarness([dir, BUDGET_USD, ...DAYS], null)).code).toBe(0);
    const { charged, kept } = await expectLedgersRight(storage);
    const probed = checksReceived(ids) - received;
    expect(charged).toBeLessThanOrEqual(probed);
    expect(charged).toBeGreaterThanOrEqual(probed - kills);

    // Every day ended folded, each server either checked or skipped by the cap, and each server's letters
    // are exactly its results, with n on the days its shard was left undone after its first check.
    const expected = new Map<string, string>();
    for (const day of DAYS) {
      const summary = SummarySchema.parse(await getJson(storage, `days/${day}/summary.json`));
      expect(summary.servers + summary.skippedByCap, day).toBe(members.length);
      expect(summary.skippedByCap, day).toBeGreaterThan(0);
      const index = DayIndexSchema.parse(await getJson(storage, `days/${day}/index.json`));
      const results = new Map<string, string>();
      for (const path of await storage.list(`days/${day}/results/`)) {
        for (const result of ShardFileSchema.parse(await getJson(storage, path)).results)
          results.set(result.id, result.letter);
      }
      for (const entry of index.servers) {
        const letter = results.get(entry.id);
        if (letter !== undefined) expected.set(entry.id, `${expected.get(entry.id) ?? ''}${letter}`);
        else if (expected.has(entry.id)) expected.set(entry.id, `${expected.get(entry.id)}n`);
      }
    }
    for (const member of members) {
      const state = (await getJson(storage, `state/servers/${member.id}.json`)) as { letters: string } | null;
      expect(state?.letters ?? null, member.id).toBe(expected.get(member.id) ?? null);
      // The healthy ones were never marked down for a day the cap skipped.
      if (member.kind === 'healthy') expect(state?.letters ?? '', member.id).not.toContain('d');
    }
    console.log(
      `cost-cap scan runs killed: ${kills} of ${runs} (${midDay} mid-day); checks charged ${charged}, results kept ${kept}, checks sent ${probed}`,
    );
  });

  it('a scan that dies mid-shard is charged for the checks it made, and the re-run adds only its own', async () => {
    const disk = createMemoryStorage();
    const members = ['notes', 'warehouse', 'maps']; // all three in shard 0 of 8
    const servers = members.map((id) => ({
      id,
      url: fleet.members.find((m) => m.id === id)!.url,
      source: 'registry' as const,
    }));
    for (const id of members) expect(shardOf(id, 8), id).toBe(0);
    await putJson(disk, 'state/servers.json', { servers });
    // The process dies while it writes the ledger for the second time (the charge of its second check): the
    // write never lands and nothing after it runs, as with a kill at that instant. The probe itself is real
    // and never throws, so the scan's per-server catch has nothing to turn into a record.
    const ledgerPath = 'state/costs/daily/2026-12-05.json';
    let ledgerWrites = 0;
    const dying: Storage = {
      get: (path) => disk.get(path),
      list: (prefix) => disk.list(prefix),
      delete: (path) => disk.delete(path),
      append: (path, bytes) => disk.append(path, bytes),
      createIfAbsent: (path, bytes) => disk.createIfAbsent(path, bytes),
      createRoot: (day, makeRoot) => disk.createRoot(day, makeRoot),
      put: async (path, bytes) => {
        if (path === ledgerPath && ++ledgerWrites === 2) throw new Error('the process died here');
        return disk.put(path, bytes);
      },
    };
    let probes = 0;
    const counted = (server: WatchedServer) => {
      probes++;
      return probeServer(server.url, { allowPrivate: true });
    };
    const cap = { budgetMicroUsd: 9000, model: { perCheckUsd: 0.001, perSecondUsd: 0 } };
    const options = {
      day: '2026-12-05',
      servers,
      methodologyVersion: METHODOLOGY_VERSION,
      concurrency: 1,
      cap,
      probe: counted,
    };
    await expect(scanDay({ ...options, storage: dying })).rejects.toThrow('the process died here');
    // Two checks went out; only the first one's charge reached the disk, and no shard file was written.
    expect(probes).toBe(2);
    expect(await getJson(disk, ledgerPath)).toMatchObject({
      spentMicroUsd: 1000,
      checks: 1,
      parts: { '0': { checks: 1 } },
    });
    expect(await disk.get('days/2026-12-05/results/000.json')).toBeNull();

    // The restart re-runs the whole shard: three more checks, charged on top of the one already on disk.
    const resumed = await scanDay({ ...options, storage: disk });
    expect(probes).toBe(5);
    expect(resumed.shardsRun).toContain(0);
    expect(resumed.results.map((r) => r.reason)).not.toContain('internal-error');
    expect(resumed.spend).toMatchObject({
      spentMicroUsd: 4000,
      checks: 4,
      parts: { '0': { spentMicroUsd: 4000, checks: 4 } },
      stopped: null,
    });
    expect(await getJson(disk, ledgerPath)).toMatchObject({ spentMicroUsd: 4000, checks: 4 });

    // Resuming a finished day charges nothing more.
    const again = await scanDay({ ...options, storage: disk });
    expect(probes).toBe(5);
    expect(again.shardsResumed).toContain(0);
    expect(again.spend).toMatchObject({ spentMicroUsd: 4000, checks: 4 });
  });
});
