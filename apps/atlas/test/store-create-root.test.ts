// Storage.createRoot: every store reads a day and writes its root in one step, so a root signs exactly the files
// its day keeps, even with a write to the day under way. The folder and PostgreSQL stores hold such a write back
// until the root is in and then refuse it; the memory store cannot hold it, so it makes the root again over the
// day as the write left it.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyFiles } from '@mcp-atlas/history';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { readDayFiles, sealStoredDay } from '../src/seal/seal-day.js';
import { dayLocksOf } from '../src/storage/day-locks.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { type OpenedStore, openStore } from '../src/storage/open-store.js';
import { SealedDayWriteError, SealedRootWriteError } from '../src/storage/sealed-days.js';
import { readFilesUnder, type Storage, type StoredFile } from '../src/storage/storage.js';
import { usePostgresPerFile } from './setup/postgres.js';
import { waitFor } from './setup/wait-for.js';

const postgres = usePostgresPerFile();
const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

const DAY = '2026-05-01';
const FOLDER = `days/${DAY}/`;
const ROOT = `roots/${DAY}.json`;
const LATE = `${FOLDER}late.json`;
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | null) => (data === null ? null : new TextDecoder().decode(data));

/** Starts `write` and notes when it ends; a refusal is caught here (and checked by the test), never unhandled. */
function started(write: Promise<void>): { write: Promise<void>; ended: () => boolean } {
  let ended = false;
  const settle = () => {
    ended = true;
  };
  write.then(settle, settle);
  return { write, ended: () => ended };
}

/** A root that lists each file's path and SHA-256: enough to see exactly which files it was made from. */
function listingRoot(files: readonly StoredFile[]): Uint8Array {
  const lines = files.map((file) => `${file.path} ${createHash('sha256').update(file.bytes).digest('hex')}`);
  return bytes(JSON.stringify(lines));
}

/** A store under test: two handles on it (a sealer and a writer), and how a write to the day shows it is held. */
interface StoreUnderTest {
  sealer: Storage;
  writer: Storage;
  /**
   * Resolves once a write to DAY waits for the day's lock, or once `ended` says it ended (a store that let it
   * through; the test's assertions then show what that did). Null for a store that cannot hold writes.
   */
  writeHeld: ((ended: () => boolean) => Promise<void>) | null;
}

async function folderStore(): Promise<StoreUnderTest> {
  const root = await mkdtemp(join(tmpdir(), 'atlas-create-root-'));
  folders.push(root);
  const locks = dayLocksOf(realpathSync(root));
  return {
    sealer: createFsStorage(root),
    writer: createFsStorage(root),
    writeHeld: (ended) => waitFor('a write waits for the day lock', () => ended() || locks.waitersOf(DAY) > 0),
  };
}

async function postgresStore(): Promise<StoreUnderTest> {
  const url = await postgres.cluster.createDatabase();
  const open = async (): Promise<OpenedStore> => {
    const store = await openStore(url, { maxConnections: 4 });
    postgres.closers.push(() => store.close());
    return store;
  };
  const [sealer, writer] = [await open(), await open()];
  /** Statements of this database waiting for an advisory lock: a day write waiting for the day's lock. */
  const advisoryWaiters = async () => {
    const { rows } = await sealer.pg!.pool.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
    );
    return rows[0]!.waiting;
  };
  return {
    sealer,
    writer,
    writeHeld: (ended) =>
      waitFor('a write waits for the day lock', async () => ended() || (await advisoryWaiters()) > 0),
  };
}

async function memoryStore(): Promise<StoreUnderTest> {
  const storage = createMemoryStorage();
  return { sealer: storage, writer: storage, writeHeld: null };
}

const STORES = [
  ['folder', folderStore],
  ['PostgreSQL', postgresStore],
  ['memory', memoryStore],
] as const;

/** Puts the day's first files, and files of another day and outside days/ that must not be read with it. */
async function fillDay(storage: Storage): Promise<void> {
  await storage.put(`${FOLDER}results/001.json`, bytes('r1'));
  await storage.put(`${FOLDER}index.json`, bytes('{}'));
  await storage.append(`${FOLDER}reports.jsonl`, bytes('a\n'));
  await storage.put('days/2026-05-02/index.json', bytes('next day'));
  await storage.put('state/servers.json', bytes('[]'));
}

describe.each(STORES)('createRoot on the %s store', (_name, makeStore) => {
  it('passes the day’s files, sorted, to makeRoot and stores what it returns; the day is sealed after', async () => {
    const { sealer, writer } = await makeStore();
    await fillDay(writer);
    const seen: StoredFile[][] = [];
    await sealer.createRoot(DAY, async (files) => {
      seen.push([...files]);
      return listingRoot(files);
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.map((file) => [file.path, text(file.bytes)])).toEqual([
      [`${FOLDER}index.json`, '{}'],
      [`${FOLDER}reports.jsonl`, 'a\n'],
      [`${FOLDER}results/001.json`, 'r1'],
    ]);
    expect(text(await writer.get(ROOT))).toBe(text(listingRoot(seen[0]!)));
    await expect(writer.put(LATE, bytes('late'))).rejects.toBeInstanceOf(SealedDayWriteError);
    await expect(writer.append(`${FOLDER}reports.jsonl`, bytes('b\n'))).rejects.toBeInstanceOf(SealedDayWriteError);
    // Another day is not sealed by it.
    await writer.put('days/2026-05-02/index.json', bytes('still open'));
  });

  it('writes nothing when makeRoot throws, and the day stays open', async () => {
    const { sealer, writer } = await makeStore();
    await fillDay(writer);
    const refusal = new Error('not finished');
    await expect(
      sealer.createRoot(DAY, async () => {
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(await writer.get(ROOT)).toBeNull();
    await writer.put(LATE, bytes('late'));
    expect(text(await writer.get(LATE))).toBe('late');
  });

  it('keeps a root that is there: the same bytes pass, other bytes are refused', async () => {
    const { sealer, writer } = await makeStore();
    await fillDay(writer);
    await sealer.createRoot(DAY, async (files) => listingRoot(files));
    const first = text(await writer.get(ROOT));
    await sealer.createRoot(DAY, async (files) => listingRoot(files));
    await expect(sealer.createRoot(DAY, async () => bytes('other'))).rejects.toBeInstanceOf(SealedRootWriteError);
    expect(text(await writer.get(ROOT))).toBe(first);
  });

  it('refuses a day that is not a date, before reading anything', async () => {
    const { sealer } = await makeStore();
    let called = false;
    const makeRoot = async () => {
      called = true;
      return bytes('{}');
    };
    for (const day of ['2026-5-1', '../2026-05-01', '2026-05-01/x', ''])
      await expect(sealer.createRoot(day, makeRoot)).rejects.toThrow(/A day is a date as YYYY-MM-DD/);
    expect(called).toBe(false);
  });

  it('signs exactly what the day keeps when a write to it comes while the root is being made', async () => {
    const { sealer, writer, writeHeld } = await makeStore();
    await fillDay(writer);
    let late: ReturnType<typeof started> | null = null;
    let calls = 0;
    await sealer.createRoot(DAY, async (files) => {
      calls++;
      if (late === null) {
        late = started(writer.put(LATE, bytes('late')));
        if (writeHeld !== null) await writeHeld(late.ended);
        else await late.write;
      }
      return listingRoot(files);
    });
    const kept = await readFilesUnder(writer, FOLDER);
    expect(text(await writer.get(ROOT))).toBe(text(listingRoot(kept)));
    if (writeHeld !== null) {
      // Held back until the root was in, then refused: the day is as the root was made from.
      await expect(late!.write).rejects.toBeInstanceOf(SealedDayWriteError);
      expect(kept.map((file) => file.path)).not.toContain(LATE);
      expect(calls).toBe(1);
    } else {
      // Landed at once: the root was made again, over the day with the new file.
      await late!.write;
      expect(kept.map((file) => file.path)).toContain(LATE);
      expect(calls).toBe(2);
    }
  });
});

describe.each(STORES)('sealing a day on the %s store', (_name, makeStore) => {
  it('signs a root that verifies against the day’s files, with a write to the day under way', async () => {
    const { sealer, writer, writeHeld } = await makeStore();
    await writer.append(`${FOLDER}reports.jsonl`, bytes('{"report":1}\n'));
    const keys = await loadOrCreateSigningKeys(sealer, new Date('2026-05-02T01:05:00Z'));
    let late: ReturnType<typeof started> | null = null;
    // The write starts once the seal has read the day, and the seal is held until the write waits (or landed).
    const sealing: Storage = {
      ...sealer,
      createRoot: (day, makeRoot) =>
        sealer.createRoot(day, async (files) => {
          if (late === null) {
            late = started(writer.append(`${FOLDER}reports.jsonl`, bytes('{"report":2}\n')));
            if (writeHeld !== null) await writeHeld(late.ended);
            else await late.write;
          }
          return makeRoot(files);
        }),
    };
    const record = await sealStoredDay(sealing, DAY, keys);
    const check = verifyFiles(record, await readDayFiles(writer, DAY));
    expect(check).toEqual({ ok: true, mismatched: [], missing: [], extra: [] });
    if (writeHeld !== null) await expect(late!.write).rejects.toBeInstanceOf(SealedDayWriteError);
    else await late!.write;
  });
});
