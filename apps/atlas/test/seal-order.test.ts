// Which days may be signed: a day on which no scan ran (no index.json, only other day files) is signed as
// it is; a day whose scan started but did not finish is refused; and a day is never signed once a later day
// has a root, since that root already chained past it. Catch-up (the library call and `mcp-atlas seal`)
// skips such days and says why; the chain of what was signed always verifies.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shiftDay } from '@mcp-atlas/base';
import { dayFromTime, verifyChain } from '@mcp-atlas/history';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_FAILED, EXIT_OK, runCommand } from '../src/commands.js';
import { dayIndexPath, dayReportsPath, dayShardPath, daySummaryPath } from '../src/data/paths.js';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import {
  DayNotFinishedError,
  DaySealedOutOfOrderError,
  readRoots,
  sealDueDays,
  sealStoredDay,
} from '../src/seal/seal-day.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';

const folders: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A whole day of one shard and no servers: index, its shard file, and the summary written last. */
async function writeFinishedDay(storage: Storage, day: string): Promise<void> {
  await writeStartedDay(storage, day);
  await putJson(storage, dayShardPath(day, 0), { day, shard: 0, results: [] });
  await putJson(storage, daySummaryPath(day), {
    day,
    methodologyVersion: 'test',
    servers: 0,
    letters: { o: 0, a: 0, p: 0, d: 0 },
    tools: 0,
    changes: 0,
    riskRises: 0,
    skippedByCap: 0,
  });
}

/** A day whose scan wrote its index and stopped. */
async function writeStartedDay(storage: Storage, day: string): Promise<void> {
  await putJson(storage, dayIndexPath(day), { day, methodologyVersion: 'test', shards: 1, servers: [], order: [0] });
}

async function writeReportsOnly(storage: Storage, day: string): Promise<void> {
  await storage.put(
    dayReportsPath(day),
    new TextEncoder().encode(
      `{"server":"notes","tool":"list_notes","ok":true,"at":"${day}T09:00:00.000Z","reporter":"anon:x","paid":false}\n`,
    ),
  );
}

async function expectChainVerifies(storage: Storage, publicKey: Uint8Array): Promise<void> {
  const records = [...(await readRoots(storage)).values()].sort((a, b) => a.day.localeCompare(b.day));
  expect(await verifyChain(records, publicKey)).toMatchObject({ ok: true });
}

describe('a day on which no scan ran', () => {
  it('is sealed with the files it has (reports, say)', async () => {
    const storage = createMemoryStorage();
    const keys = await loadOrCreateSigningKeys(storage, new Date('2026-12-03T00:00:00Z'));
    await writeReportsOnly(storage, '2026-12-01');
    const record = await sealStoredDay(storage, '2026-12-01', keys);
    expect(record.files.map((line) => line.split('  ')[1])).toEqual(['reports.jsonl']);
  });

  it('but a day whose scan started is still refused until its summary is there, and a summary without its index is partial', async () => {
    const storage = createMemoryStorage();
    const keys = await loadOrCreateSigningKeys(storage, new Date('2026-12-03T00:00:00Z'));
    await writeStartedDay(storage, '2026-12-01');
    await writeReportsOnly(storage, '2026-12-01');
    await expect(sealStoredDay(storage, '2026-12-01', keys)).rejects.toThrow(
      "Day 2026-12-01 is not sealed: days/2026-12-01/summary.json is missing or unreadable, so the day's scan has not finished",
    );
    await writeFinishedDay(storage, '2026-12-02');
    await storage.delete(dayIndexPath('2026-12-02'));
    await expect(sealStoredDay(storage, '2026-12-02', keys)).rejects.toThrow(
      'Day 2026-12-02 is not sealed: days/2026-12-02/index.json is missing or unreadable',
    );
  });
});

describe('sealing in order', () => {
  it('refuses a day once a later day has a root; catch-up reports it and the chain still verifies', async () => {
    const storage = createMemoryStorage();
    const keys = await loadOrCreateSigningKeys(storage, new Date('2026-12-05T00:00:00Z'));
    await writeFinishedDay(storage, '2026-12-01');
    await writeStartedDay(storage, '2026-12-02');
    await writeFinishedDay(storage, '2026-12-03');
    const reported: [string, string][] = [];
    const first = await sealDueDays(storage, '2026-12-04', keys, (day, reason) => reported.push([day, reason]));
    expect(first.map((r) => r.day)).toEqual(['2026-12-01', '2026-12-03']);
    expect(reported.map(([day]) => day)).toEqual(['2026-12-02']);

    // The scan of 12-02 finishes late: 12-03's root already chains to 12-01, so 12-02 can no longer be signed.
    await writeFinishedDay(storage, '2026-12-02');
    const refusal = await sealStoredDay(storage, '2026-12-02', keys).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(DaySealedOutOfOrderError);
    expect(refusal).toBeInstanceOf(DayNotFinishedError);
    expect((refusal as DaySealedOutOfOrderError).laterDay).toBe('2026-12-03');
    expect((refusal as Error).message).toBe(
      'Day 2026-12-02 is not sealed: a later day (2026-12-03) is already sealed and its root chains past this day, so this day can no longer be sealed',
    );
    reported.length = 0;
    const second = await sealDueDays(storage, '2026-12-05', keys, (day, reason) => reported.push([day, reason]));
    expect(second).toEqual([]);
    expect(reported).toEqual([['2026-12-02', expect.stringContaining('a later day (2026-12-03) is already sealed')]]);
    expect((await readRoots(storage)).has('2026-12-02')).toBe(false);
    await expectChainVerifies(storage, keys.publicKey);
  });

  it('`mcp-atlas seal` prints each due day it leaves unsealed, and `--day` fails with the reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'atlas-seal-order-'));
    folders.push(dir);
    const storage = createFsStorage(dir);
    const today = dayFromTime(new Date());
    const [older, middle, newer] = [shiftDay(today, -3), shiftDay(today, -2), shiftDay(today, -1)];
    await writeFinishedDay(storage, older);
    await writeStartedDay(storage, middle);
    await writeReportsOnly(storage, newer);
    let out = '';
    let err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
    const code = await runCommand(['seal', '--data', dir], createLogger('silent'));
    const late = await (async () => {
      await writeFinishedDay(storage, middle);
      return runCommand(['seal', '--data', dir, '--day', middle], createLogger('silent'));
    })();
    vi.restoreAllMocks();
    expect(code).toBe(EXIT_OK);
    expect(out).toContain(
      `not sealed ${middle}: days/${middle}/summary.json is missing or unreadable, so the day's scan has not finished\n`,
    );
    expect(out).toMatch(new RegExp(`sealed ${older} [0-9a-f]{64}\\n`));
    expect(out).toMatch(new RegExp(`sealed ${newer} [0-9a-f]{64}\\n`));
    expect(late).toBe(EXIT_FAILED);
    expect(err).toBe(
      `not sealed ${middle}: a later day (${newer}) is already sealed and its root chains past this day, so this day can no longer be sealed\n`,
    );
    const keys = await loadOrCreateSigningKeys(storage, new Date());
    await expectChainVerifies(storage, keys.publicKey);
  });
});
