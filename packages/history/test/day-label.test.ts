// The day a sealed folder says it is: the pure rule (readSealedDay, checkDayLabel), and verifyFolder
// refusing a relabelled day, a missing day folder (when folders are required) and an unlisted file.
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { shiftDay } from '@mcp-atlas/base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_INDEX_FIELD, DAY_INDEX_PATH } from '../src/constants.js';
import {
  checkDayLabel,
  type DayFile,
  type DayRoot,
  HistoryError,
  previousRootFor,
  readSealedDay,
  sealDaySync,
  verifyChainSync,
} from '../src/index.js';
import { verifyFolder } from '../src/node/index.js';
import { copy, dayFiles, PRIVATE_KEY, PUBLIC_KEY, sealedChain, text } from './helpers.js';

const DAY = '2026-11-03';

function sealOne(day: string, files: readonly DayFile[]): DayRoot {
  return sealDaySync({ day, files, previousRoot: null, privateKey: PRIVATE_KEY });
}

function indexOf(day: string): Uint8Array {
  const file = dayFiles(day).find((entry) => entry.path === DAY_INDEX_PATH);
  if (file === undefined) throw new Error('fixture has no index');
  return file.bytes;
}

describe('the index file and its field', () => {
  it('are index.json and day', () => {
    expect(DAY_INDEX_PATH).toBe('index.json');
    expect(DAY_INDEX_FIELD).toBe('day');
  });
});

describe('readSealedDay', () => {
  it('reads the day field of a JSON object', () => {
    expect(readSealedDay(text('{"day":"2026-11-03","shards":8}'))).toBe('2026-11-03');
    expect(readSealedDay(text(' {"shards":8, "day":"2024-02-29"}\n'))).toBe('2024-02-29');
  });

  it('is null for anything that does not name a real day', () => {
    expect(readSealedDay(text('{"day":"2026-02-30"}'))).toBeNull(); // not a calendar date
    expect(readSealedDay(text('{"day":"2026-11-3"}'))).toBeNull();
    expect(readSealedDay(text('{"day":20261103}'))).toBeNull();
    expect(readSealedDay(text('{"date":"2026-11-03"}'))).toBeNull();
    expect(readSealedDay(text('["2026-11-03"]'))).toBeNull();
    expect(readSealedDay(text('"2026-11-03"'))).toBeNull();
    expect(readSealedDay(text('null'))).toBeNull();
    expect(readSealedDay(text('{"day":'))).toBeNull();
    expect(readSealedDay(Uint8Array.of(0x7b, 0xff, 0x7d))).toBeNull(); // not UTF-8
    expect(readSealedDay(new Uint8Array())).toBeNull();
  });
});

describe('checkDayLabel', () => {
  const record = sealOne(DAY, dayFiles(DAY));

  it('holds when the index names the record day, and says what bound it', () => {
    expect(checkDayLabel({ record, index: indexOf(DAY) })).toEqual({ ok: true, boundBy: 'index.json' });
    expect(checkDayLabel({ record, recordFileDay: DAY, folderDay: DAY, index: indexOf(DAY) })).toEqual({
      ok: true,
      boundBy: 'index.json',
    });
  });

  it('refuses a record relabelled to another day with the same root and signature', () => {
    const moved = { ...copy(record), day: shiftDay(DAY, -365) };
    // The signature does not cover the label: the moved record still checks out as a chain of one.
    expect(verifyChainSync([moved], PUBLIC_KEY)).toEqual({ ok: true, days: 1 });
    expect(
      checkDayLabel({ record: moved, recordFileDay: moved.day, folderDay: moved.day, index: indexOf(DAY) }),
    ).toEqual({
      ok: false,
      reason: 'index.json says the day is 2026-11-03, not 2025-11-03: the day was relabelled',
    });
  });

  it('refuses a record whose file or folder names another day', () => {
    expect(checkDayLabel({ record, recordFileDay: '2026-11-04', index: indexOf(DAY) })).toEqual({
      ok: false,
      reason: 'the record says it is 2026-11-03 but sits in the file of "2026-11-04"',
    });
    expect(checkDayLabel({ record, folderDay: '2026-11-02', index: indexOf(DAY) })).toEqual({
      ok: false,
      reason: 'the record is 2026-11-03 but its files sit in the folder of "2026-11-02"',
    });
  });

  it('refuses an index that is listed but missing, changed, or names no day', () => {
    expect(checkDayLabel({ record, index: null })).toEqual({
      ok: false,
      reason: 'index.json is listed in the record but missing',
    });
    expect(checkDayLabel({ record, index: text('{"day":"2026-11-03","servers":4}') })).toEqual({
      ok: false,
      reason: 'index.json does not match its line',
    });
    const dayless = sealOne(DAY, [{ path: 'index.json', bytes: text('{"servers":3}') }]);
    expect(checkDayLabel({ record: dayless, index: text('{"servers":3}') })).toEqual({
      ok: false,
      reason: 'index.json names no day (it needs a "day" field written YYYY-MM-DD)',
    });
  });

  it('leaves a day that lists no index unbound, and says so', () => {
    const reportsOnly = sealOne(DAY, [{ path: 'reports.jsonl', bytes: text('{"ok":true}\n') }]);
    expect(checkDayLabel({ record: reportsOnly, index: null })).toEqual({ ok: true, boundBy: null });
    // An index file the record does not list binds nothing (the file check reports it as unlisted).
    expect(checkDayLabel({ record: reportsOnly, index: indexOf('2020-01-01') })).toEqual({ ok: true, boundBy: null });
  });

  it('throws invalid-record for a malformed record', () => {
    expect(() => checkDayLabel({ record: { ...record, files: ['nonsense'] }, index: null })).toThrow(HistoryError);
  });
});

describe('verifyFolder binds each day to its date', () => {
  let scratch: string;
  let data: string;
  const records = sealedChain('2026-11-01', 4); // 11-01 … 11-04

  async function writeDataFolder(
    folder: string,
    chain: readonly DayRoot[],
    filesOf: (day: string) => DayFile[],
  ): Promise<void> {
    await rm(folder, { recursive: true, force: true });
    await mkdir(join(folder, 'roots'), { recursive: true });
    for (const record of chain) {
      await writeFile(join(folder, 'roots', `${record.day}.json`), JSON.stringify(record));
      for (const file of filesOf(record.day)) {
        const path = join(folder, 'days', record.day, file.path);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, file.bytes);
      }
    }
  }

  const options = (): Parameters<typeof verifyFolder>[0] => ({
    roots: join(data, 'roots'),
    days: join(data, 'days'),
    publicKey: PUBLIC_KEY,
    requireDayFolders: true,
  });

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'mcp-history-label-'));
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  beforeEach(async () => {
    data = join(scratch, 'data');
    await writeDataFolder(data, records, dayFiles);
  });

  it('verifies an untouched folder, every day bound by its index', async () => {
    expect(await verifyFolder(options())).toEqual({
      ok: true,
      days: 4,
      firstDay: '2026-11-01',
      lastDay: '2026-11-04',
      dayFolders: 4,
      files: 28,
      unboundDays: [],
    });
  });

  it('refuses the whole history moved back a year with the same signatures', async () => {
    const moved = records.map((record) => ({ ...copy(record), day: shiftDay(record.day, -365) }));
    // Folders and records under the new names; the chain links still hold, since they follow the days.
    await rm(data, { recursive: true, force: true });
    await mkdir(join(data, 'roots'), { recursive: true });
    for (const [i, record] of moved.entries()) {
      await writeFile(join(data, 'roots', `${record.day}.json`), JSON.stringify(record));
      await writeDataFolder(join(scratch, 'old'), [records[i] as DayRoot], dayFiles);
      await mkdir(join(data, 'days'), { recursive: true });
      await rename(join(scratch, 'old', 'days', (records[i] as DayRoot).day), join(data, 'days', record.day));
    }
    expect(verifyChainSync(moved, PUBLIC_KEY)).toEqual({ ok: true, days: 4 });
    expect(await verifyFolder(options())).toEqual({
      ok: false,
      day: '2025-11-01',
      reason: 'index.json says the day is 2026-11-01, not 2025-11-01: the day was relabelled',
    });
  });

  it('refuses a record file whose day field names another day', async () => {
    await writeFile(join(data, 'roots', '2026-11-02.json'), JSON.stringify({ ...records[1], day: '2026-11-09' }));
    expect(await verifyFolder(options())).toMatchObject({
      ok: false,
      day: '2026-11-02',
      reason: '2026-11-02.json holds the record of "2026-11-09"',
    });
  });

  it('breaks a day whose folder is missing when folders are required, and skips it otherwise', async () => {
    await rm(join(data, 'days', '2026-11-03'), { recursive: true });
    expect(await verifyFolder(options())).toEqual({
      ok: false,
      day: '2026-11-03',
      reason: 'day folder 2026-11-03/ is missing while its root is kept',
    });
    expect(await verifyFolder({ ...options(), requireDayFolders: false })).toMatchObject({ ok: true, dayFolders: 3 });
  });

  it('names an extra file the record does not list, unless the caller ignores it', async () => {
    await writeFile(join(data, 'days', '2026-11-02', 'late.json'), '{}');
    expect(await verifyFolder(options())).toEqual({
      ok: false,
      day: '2026-11-02',
      reason: 'day folder differs from its record: late.json is not listed in the record',
    });
    expect(await verifyFolder({ ...options(), ignoreFile: (path) => path === 'late.json' })).toMatchObject({
      ok: true,
      files: 28,
    });
  });

  it('lists the days no index binds', async () => {
    const noIndex = (day: string): DayFile[] => dayFiles(day).filter((file) => file.path !== DAY_INDEX_PATH);
    const roots = new Map<string, string>();
    const chain = ['2026-11-01', '2026-11-02'].map((day) => {
      const record = sealDaySync({
        day,
        files: day === '2026-11-02' ? noIndex(day) : dayFiles(day),
        previousRoot: previousRootFor(day, roots),
        privateKey: PRIVATE_KEY,
      });
      roots.set(day, record.root);
      return record;
    });
    await writeDataFolder(data, chain, (day) => (day === '2026-11-02' ? noIndex(day) : dayFiles(day)));
    expect(await verifyFolder(options())).toEqual({
      ok: true,
      days: 2,
      firstDay: '2026-11-01',
      lastDay: '2026-11-02',
      dayFolders: 2,
      files: 13,
      unboundDays: ['2026-11-02'],
    });
  });
});
