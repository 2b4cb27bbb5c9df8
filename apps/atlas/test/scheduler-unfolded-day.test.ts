// A day whose daily scan finished but whose fold never ran (a stop after its last shard, before midnight) is
// folded before the next day's scan starts, so its servers keep their real letters instead of turning into n.
// "Finished" is the seal's own rule: every shard of the index has its file, or the missing ones are exactly
// the shards the daily cost cap refused. A day a crash left with a shard missing stays unfolded. Real MCP
// servers on loopback (the demo fleet), the real schedule on a simulated clock.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeSha256, verifyFolder } from '@mcp-atlas/history/node';
import { probeServer } from '@mcp-atlas/probe';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySealedHistory } from '../src/commands/verify.js';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import type { Logger } from '../src/log.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { type DailyCap, scanDay, shardOf } from '../src/scan/scan-day.js';
import { loadSigningKeys } from '../src/seal/keys.js';
import { findUnfinishedReason } from '../src/seal/seal-day.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { manualClock } from './fixtures/manual-clock.js';

let fleet: Fleet;
beforeAll(async () => {
  fleet = await startFleet(30);
});
afterAll(async () => {
  await fleet.close();
});

// notes answers with tools (o), vault asks for sign-in (a), homepage is a web page (d); by the hash of their
// ids they sit in shards 0, 3 and 6 of 8 (checked below).
const IDS = ['notes', 'vault', 'homepage'] as const;

/** A logger whose lines the test reads. */
function capturedLogger(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log: Logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { log, lines };
}

async function lettersOf(storage: Storage): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const id of IDS) out[id] = ((await getJson(storage, `state/servers/${id}.json`)) as { letters: string }).letters;
  return out;
}

/**
 * 8 December checked and folded by the schedule; 9 December checked by its scan alone (`cap` as given), its
 * fold never run; the schedule of 10 December at hand.
 */
async function dayLeftUnfolded(cap?: DailyCap) {
  const storage = createMemoryStorage();
  const servers = IDS.map((id) => ({
    id,
    url: fleet.members.find((m) => m.id === id)!.url,
    source: 'registry' as const,
  }));
  await putJson(storage, 'state/servers.json', { servers });
  const clock = manualClock('2026-12-08T00:30:00Z');
  const { log, lines } = capturedLogger();
  const scheduler = await loopbackScheduler(storage, clock, { log });
  expect(await scheduler.tick()).toContain('daily');
  clock.set('2026-12-09T00:30:00Z');
  await scanDay({
    day: '2026-12-09',
    servers,
    storage,
    methodologyVersion: METHODOLOGY_VERSION,
    probe: (server) => probeServer(server.url, { allowPrivate: true }),
    now: () => clock.now(),
    ...(cap !== undefined ? { cap } : {}),
  });
  expect(await storage.get('days/2026-12-09/summary.json')).toBeNull();
  clock.set('2026-12-10T00:30:00Z');
  return { storage, clock, scheduler, lines };
}

describe('a day checked but not folded', () => {
  it('places the test servers in the shards the cases assume', () => {
    expect(IDS.map((id) => shardOf(id, 8))).toEqual([0, 3, 6]);
  });

  it('is folded before the next day’s scan, keeps its real letters, and is sealed', async () => {
    const { storage, clock, scheduler } = await dayLeftUnfolded();
    expect(await scheduler.tick()).toContain('daily');
    expect(await lettersOf(storage)).toEqual({ notes: 'ooo', vault: 'aaa', homepage: 'ddd' });
    expect(await getJson(storage, 'days/2026-12-09/summary.json')).toMatchObject({
      servers: 3,
      skippedByCap: 0,
      letters: { o: 1, a: 1, p: 0, d: 1 },
    });
    expect(await findUnfinishedReason(storage, '2026-12-09')).toBeNull();
    clock.set('2026-12-10T01:10:00Z');
    expect(await scheduler.tick()).toContain('seal');
    for (const day of ['2026-12-08', '2026-12-09']) expect(await storage.get(`roots/${day}.json`), day).not.toBeNull();
  });

  it('counts the shards the daily cost cap refused that day as n, and the ones it ran by their letters', async () => {
    // A flat $0.001 a check and a budget of one check: shard 0 (notes) runs, the empty shards 1 and 2 run, and
    // shard 3 (vault) is refused, which stops the day: vault and homepage wait.
    const { storage, scheduler } = await dayLeftUnfolded({
      budgetMicroUsd: 1000,
      model: { perCheckUsd: 0.001, perSecondUsd: 0 },
    });
    expect(await storage.get('days/2026-12-09/results/003.json')).toBeNull();
    expect(await scheduler.tick()).toContain('daily');
    expect(await lettersOf(storage)).toEqual({ notes: 'ooo', vault: 'ana', homepage: 'dnd' });
    expect(await getJson(storage, 'days/2026-12-09/summary.json')).toMatchObject({ servers: 1, skippedByCap: 2 });
    expect(await findUnfinishedReason(storage, '2026-12-09')).toBeNull();
  });

  it('is closed when a shard the cap did not refuse has no file: its servers get n, and the day is sealed', async () => {
    // A crash across midnight: 9 December's check stopped before shard 3 (vault), and the start on 10 December
    // cannot check 9 December any more.
    const { storage, clock, scheduler, lines } = await dayLeftUnfolded();
    await storage.delete('days/2026-12-09/results/003.json');
    expect(await findUnfinishedReason(storage, '2026-12-09')).toMatch(/summary\.json is missing/);
    expect(await scheduler.tick()).toContain('daily');
    expect(await lettersOf(storage)).toEqual({ notes: 'ooo', vault: 'ana', homepage: 'ddd' });
    expect(await getJson(storage, 'days/2026-12-09/summary.json')).toMatchObject({
      servers: 2,
      skippedByCap: 0,
      leftAtStop: 1,
      letters: { o: 1, a: 0, p: 0, d: 1 },
    });
    expect(lines.filter((line) => line.msg?.toString().startsWith('earlier day closed'))).toEqual([
      expect.objectContaining({ level: 40, day: '2026-12-09', leftAtStop: 1 }),
    ]);
    clock.set('2026-12-10T01:10:00Z');
    expect(await scheduler.tick()).toContain('seal');
    for (const day of ['2026-12-08', '2026-12-09']) expect(await storage.get(`roots/${day}.json`), day).not.toBeNull();
    // Every sealed day's files checked against its root, and the chain of roots: what `mcp-atlas verify` does.
    const dir = await copySealedHistory(storage);
    try {
      const keys = await loadSigningKeys(storage);
      const verdict = await verifyFolder({
        roots: join(dir, 'roots'),
        days: join(dir, 'days'),
        publicKey: keys!.publicKey,
        anchorRoot: null,
        requireDayFolders: true,
        sha256: nodeSha256,
      });
      expect(verdict).toMatchObject({ ok: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is left unfolded, with a warning, when a shard file cannot be read', async () => {
    const { storage, scheduler, lines } = await dayLeftUnfolded();
    // Not something a crash leaves (every write is atomic), but a hand edit can: the day is not closed over it.
    await storage.put('days/2026-12-09/results/003.json', new TextEncoder().encode('{"day":'));
    await scheduler.tick();
    expect(await storage.get('days/2026-12-09/summary.json')).toBeNull();
    expect(lines.filter((line) => line.msg === 'earlier day not folded: its files cannot be read')).toEqual([
      expect.objectContaining({
        level: 40,
        day: '2026-12-09',
        reason: 'days/2026-12-09/results/003.json cannot be read',
      }),
    ]);
  });

  it('whose fold fails is logged and left, and the next day’s check runs all the same', async () => {
    const { storage, scheduler, lines } = await dayLeftUnfolded();
    // A changes file of the wrong shape (as a hand edit could leave): the fold of 9 December throws on it.
    await putJson(storage, 'days/2026-12-09/changes.json', { day: '2026-12-09', changes: 'not a list' });
    expect(await scheduler.tick()).toContain('daily');
    expect(await storage.get('days/2026-12-10/summary.json')).not.toBeNull();
    expect(await lettersOf(storage)).toEqual({ notes: 'ono', vault: 'ana', homepage: 'dnd' });
    expect(lines.filter((line) => line.msg === 'earlier day not folded: its fold failed')).toEqual([
      expect.objectContaining({ level: 50, day: '2026-12-09' }),
    ]);
  });
});
