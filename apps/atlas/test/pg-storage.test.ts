// What the PostgreSQL store promises beyond the shared contract (storage.test.ts runs that on it): atomic puts
// seen from another connection pool, an indexed prefix list, sealed days that stay as sealed, a schema that
// two processes can create at once, change notifications for read replicas, and store URLs.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeUrlOf } from '../src/commands/shared.js';
import {
  eraseWholeStore,
  folderOfFileUrl,
  type OpenedStore,
  openStore,
  redactStoreUrl,
  StoreUrlError,
  storeKindOf,
} from '../src/storage/open-store.js';
import {
  isReadModelLandmark,
  listQuery,
  PG_FILES_TABLE,
  PG_META_TABLE,
  PG_SCHEMA_VERSION,
  PgSchemaVersionError,
  prefixUpperBound,
  SealedDayWriteError,
  SealedRootWriteError,
  sealingRootOf,
} from '../src/storage/pg-storage.js';
import { SealedDayWriteError as SharedSealedDayWriteError } from '../src/storage/sealed-days.js';
import { type PostgresCluster, startPostgresCluster } from './setup/postgres.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | null) => (data === null ? null : new TextDecoder().decode(data));

let cluster: PostgresCluster;
const opened: OpenedStore[] = [];
const folders: string[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
});

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close().catch(() => undefined)));
  await cluster?.stop();
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

/** Opens `url` as a separate process would: its own pool. Closed after the file's tests. */
async function open(url: string): Promise<OpenedStore> {
  const store = await openStore(url, { maxConnections: 4 });
  opened.push(store);
  return store;
}

describe('postgres store: puts seen from another process', () => {
  it('never shows a reader on another pool a mix of the old and new bytes', async () => {
    const url = await cluster.createDatabase();
    const writer = await open(url);
    const reader = await open(url);
    const versions = ['a', 'b', 'c'].map((letter) => `${letter}:${letter.repeat(512 * 1024)}`);
    await writer.put('state/servers.json', bytes(versions[0]!));
    let writing = true;
    let reads = 0;
    const readers = Array.from({ length: 3 }, async () => {
      while (writing) {
        expect(versions).toContain(text(await reader.get('state/servers.json')));
        reads++;
      }
    });
    for (let round = 1; round <= 15; round++) await writer.put('state/servers.json', bytes(versions[round % 3]!));
    writing = false;
    await Promise.all(readers);
    expect(reads).toBeGreaterThan(3);
    expect(text(await reader.get('state/servers.json'))).toBe(versions[0]);
  });

  it('lands concurrent appends from two pools whole, each pool’s in its own order', async () => {
    const url = await cluster.createDatabase();
    const [one, two] = [await open(url), await open(url)];
    const lines = (tag: string) => Array.from({ length: 100 }, (_, i) => `${tag}${i}\n`);
    await Promise.all([
      ...lines('a').map((line) => one.append('days/2026-01-01/reports.jsonl', bytes(line))),
      ...lines('b').map((line) => two.append('days/2026-01-01/reports.jsonl', bytes(line))),
    ]);
    const got = text(await one.get('days/2026-01-01/reports.jsonl'))!
      .split('\n')
      .slice(0, -1);
    expect(got).toHaveLength(200);
    expect(got.filter((line) => line.startsWith('a'))).toEqual(lines('a').map((line) => line.trim()));
    expect(got.filter((line) => line.startsWith('b'))).toEqual(lines('b').map((line) => line.trim()));
  });
});

describe('postgres store: list by prefix', () => {
  it('answers a prefix over 10,000 rows from the primary key index, not a table scan', async () => {
    const url = await cluster.createDatabase();
    const store = await open(url);
    // 100 days of 100 files each, written in one statement (10,000 puts would only slow the test down).
    await store.pg!.pool.query(
      `INSERT INTO ${PG_FILES_TABLE} (path, bytes)
       SELECT format('days/2026-%s/results/%s.json', to_char(date '2026-01-01' + d, 'MM-DD'), lpad(f::text, 3, '0')),
              '\\x7b7d'::bytea
       FROM generate_series(0, 99) AS d, generate_series(0, 99) AS f`,
    );
    await store.pg!.pool.query(`ANALYZE ${PG_FILES_TABLE}`);
    const query = listQuery('days/2026-02-01/');
    const { rows } = await store.pg!.pool.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) ${query.text}`,
      query.values,
    );
    const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
    expect(plan).toMatch(/"Node Type":"Index (Only )?Scan"/);
    expect(plan).toContain(`${PG_FILES_TABLE}_pkey`);
    expect(plan).not.toContain('Seq Scan');
    const listed = await store.list('days/2026-02-01/');
    expect(listed).toHaveLength(100);
    expect(listed[0]).toBe('days/2026-02-01/results/000.json');
    expect(await store.list('days/')).toHaveLength(10_000);
    expect(await store.list('days/2026-02-01/results/05')).toHaveLength(10);
  });

  it('treats _ in a prefix as itself, not as patterns', async () => {
    const store = await open(await cluster.createDatabase());
    await store.put('a_b/1', bytes('1'));
    await store.put('axb/1', bytes('2'));
    expect(await store.list('a_')).toEqual(['a_b/1']);
  });

  it('bounds a prefix by moving its last character one up', () => {
    expect(prefixUpperBound('days/')).toBe('days0');
    expect(prefixUpperBound('roots/2026-01')).toBe('roots/2026-02');
    expect(prefixUpperBound('a')).toBe('b');
  });
});

describe('postgres store: sealed days are final', () => {
  it('refuses to rewrite, append to or delete a file under a day once its root exists, and nothing else', async () => {
    const store = await open(await cluster.createDatabase());
    await store.put('days/2026-03-01/index.json', bytes('{"v":1}'));
    await store.append('days/2026-03-01/reports.jsonl', bytes('r1\n'));
    await store.put('days/2026-03-01/index.json', bytes('{"v":2}'));
    await store.put('roots/2026-03-01.json', bytes('{"root":"x"}'));

    await expect(store.put('days/2026-03-01/index.json', bytes('{"v":3}'))).rejects.toBeInstanceOf(SealedDayWriteError);
    await expect(store.put('days/2026-03-01/new.json', bytes('{}'))).rejects.toThrow(/day 2026-03-01 is sealed/);
    await expect(store.append('days/2026-03-01/reports.jsonl', bytes('r2\n'))).rejects.toBeInstanceOf(
      SealedDayWriteError,
    );
    await expect(store.delete('days/2026-03-01/index.json')).rejects.toBeInstanceOf(SealedDayWriteError);
    expect(text(await store.get('days/2026-03-01/index.json'))).toBe('{"v":2}');
    expect(text(await store.get('days/2026-03-01/reports.jsonl'))).toBe('r1\n');
    expect(await store.list('days/2026-03-01/')).toEqual([
      'days/2026-03-01/index.json',
      'days/2026-03-01/reports.jsonl',
    ]);

    // The next day, rolling state, and deleting a missing file of the sealed day are untouched by the rule.
    await store.put('days/2026-03-02/index.json', bytes('{}'));
    await store.put('state/servers.json', bytes('[]'));
    await expect(store.delete('days/2026-03-01/never.json')).resolves.toBeUndefined();
  });

  it('refuses a root with other bytes from another pool, and lets the same bytes pass', async () => {
    const url = await cluster.createDatabase();
    const [one, two] = [await open(url), await open(url)];
    await one.put('roots/2026-03-05.json', bytes('{"root":"a"}'));
    await expect(two.put('roots/2026-03-05.json', bytes('{"root":"a"}'))).resolves.toBeUndefined();
    await expect(two.put('roots/2026-03-05.json', bytes('{"root":"b"}'))).rejects.toBeInstanceOf(SealedRootWriteError);
    await expect(two.delete('roots/2026-03-05.json')).rejects.toBeInstanceOf(SealedRootWriteError);
    expect(text(await one.get('roots/2026-03-05.json'))).toBe('{"root":"a"}');
  });

  it('lets two pools race on different bytes for one root: exactly one put lands, the other is refused', async () => {
    const url = await cluster.createDatabase();
    const [one, two] = [await open(url), await open(url)];
    for (let round = 0; round < 5; round++) {
      const path = `roots/2026-04-0${round + 1}.json`;
      const outcomes = await Promise.allSettled([
        one.put(path, bytes('{"from":"one"}')),
        two.put(path, bytes('{"from":"two"}')),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const winner = outcomes[0]!.status === 'fulfilled' ? 'one' : 'two';
      expect(text(await one.get(path))).toBe(`{"from":"${winner}"}`);
    }
  });

  it('uses the one shared error class of every store', () => {
    expect(SealedDayWriteError).toBe(SharedSealedDayWriteError);
  });

  it('finds the root that seals a path', () => {
    expect(sealingRootOf('days/2026-03-01/results/000.json')).toBe('roots/2026-03-01.json');
    expect(sealingRootOf('days/2026-03-01')).toBeNull();
    expect(sealingRootOf('state/servers.json')).toBeNull();
    expect(sealingRootOf('roots/2026-03-01.json')).toBeNull();
  });
});

describe('postgres store: create if absent', () => {
  it('lets exactly one of 20 creators on four pools win, and keeps the winner’s bytes', async () => {
    const url = await cluster.createDatabase();
    const pools = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pools[i % 4]!.createIfAbsent('keys/signing-key.json', bytes(`key ${i}`))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(text(await pools[1]!.get('keys/signing-key.json'))).toBe(`key ${results.indexOf(true)}`);
  });

  it('announces a landmark it creates, as a put would', async () => {
    const url = await cluster.createDatabase();
    const [writer, reader] = [await open(url), await open(url)];
    const heard: string[] = [];
    const stop = await reader.watchChanges!((path) => heard.push(path));
    expect(await writer.createIfAbsent('roots/2026-04-02.json', bytes('{}'))).toBe(true);
    expect(await writer.createIfAbsent('roots/2026-04-02.json', bytes('{}'))).toBe(false);
    await expect.poll(() => heard, { timeout: 5_000 }).toEqual(['roots/2026-04-02.json']);
    await stop();
  });
});

describe('erasing a whole store (the demo clearing its own)', () => {
  /** Fills a store with a sealed day, its root and rolling state. */
  async function fillSealed(store: OpenedStore): Promise<void> {
    await store.put('days/2026-05-01/index.json', bytes('{}'));
    await store.put('roots/2026-05-01.json', bytes('{"root":"r"}'));
    await store.put('state/servers.json', bytes('[]'));
    await expect(store.delete('roots/2026-05-01.json')).rejects.toBeInstanceOf(SealedRootWriteError);
  }

  it('removes sealed days and roots from a postgres store, which no Storage call may do', async () => {
    const store = await open(await cluster.createDatabase());
    await fillSealed(store);
    await eraseWholeStore(store);
    expect(await store.list('')).toEqual([]);
    // Empty again: the day can be written and sealed anew.
    await store.put('days/2026-05-01/index.json', bytes('{"again":true}'));
    expect(text(await store.get('days/2026-05-01/index.json'))).toBe('{"again":true}');
  });

  it('empties a file: store and keeps its folder', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'atlas-erase-'));
    folders.push(folder);
    const store = await open(`file:${folder}`);
    await fillSealed(store);
    await eraseWholeStore(store);
    expect(await store.list('')).toEqual([]);
    expect(await readdir(folder)).toEqual([]);
  });
});

describe('postgres store: schema', () => {
  it('is created once when several processes open a fresh database at the same moment, with a version row', async () => {
    const url = await cluster.createDatabase();
    const stores = await Promise.all(Array.from({ length: 5 }, () => open(url)));
    await stores[0]!.put('x', bytes('1'));
    expect(text(await stores[4]!.get('x'))).toBe('1');
    const { rows } = await stores[0]!.pg!.pool.query<{ value: string }>(
      `SELECT value FROM ${PG_META_TABLE} WHERE key = 'schema_version'`,
    );
    expect(rows).toEqual([{ value: String(PG_SCHEMA_VERSION) }]);
  });

  it('refuses a store whose schema is newer than this build', async () => {
    const url = await cluster.createDatabase();
    const first = await open(url);
    await first.pg!.pool.query(`UPDATE ${PG_META_TABLE} SET value = '99' WHERE key = 'schema_version'`);
    await expect(openStore(url)).rejects.toBeInstanceOf(PgSchemaVersionError);
  });

  it('reports an unreachable server as an error, not a hang', async () => {
    await expect(openStore('postgres://postgres@127.0.0.1:1/none')).rejects.toThrow();
  });
});

describe('postgres store: change notifications for read replicas', () => {
  it('tells a listener on another pool about a new day, seal or hour, and not about every other file', async () => {
    const url = await cluster.createDatabase();
    const writer = await open(url);
    const reader = await open(url);
    const heard: string[] = [];
    const stop = await reader.watchChanges!((path) => heard.push(path));
    await writer.put('days/2026-04-01/catalogs/a.json', bytes('{}'));
    await writer.put('days/2026-04-01/summary.json', bytes('{}'));
    await writer.put('state/servers/a.json', bytes('{}'));
    await writer.put('roots/2026-04-01.json', bytes('{}'));
    await writer.put('state/hourly.json', bytes('{}'));
    await expect.poll(() => heard.length, { timeout: 5_000 }).toBe(3);
    expect(heard).toEqual(['days/2026-04-01/summary.json', 'roots/2026-04-01.json', 'state/hourly.json']);
    await stop();
    await writer.put('state/hourly.json', bytes('{"later":true}'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toHaveLength(3);
  });

  it('names the landmarks', () => {
    expect(isReadModelLandmark('days/2026-04-01/summary.json')).toBe(true);
    expect(isReadModelLandmark('days/2026-04-01/results/000.json')).toBe(false);
    expect(isReadModelLandmark('state/hourly.json')).toBe(true);
    expect(isReadModelLandmark('state/servers.json')).toBe(false);
  });
});

describe('store URLs', () => {
  it('opens file:DIR as the data folder, the same as --data DIR', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'atlas-store-url-'));
    folders.push(folder);
    const store = await openStore(`file:${folder}`);
    await store.put('state/a.json', bytes('{}'));
    expect(store.kind).toBe('file');
    expect(store.dir).toBe(folder);
    expect(store.watchChanges).toBeNull();
    expect(text(await (await openStore(`file://${folder}`)).get('state/a.json'))).toBe('{}');
  });

  it('takes --store, else --data, else MCP_ATLAS_STORE, else MCP_ATLAS_DATA, else ./atlas-data', () => {
    const env = { MCP_ATLAS_STORE: 'postgres://h/db', MCP_ATLAS_DATA: '/srv/atlas' };
    expect(storeUrlOf({ store: 'postgres://h/flag', data: '/d' }, env)).toBe('postgres://h/flag');
    expect(storeUrlOf({ data: '/d' }, env)).toBe('file:/d');
    expect(storeUrlOf({}, env)).toBe('postgres://h/db');
    expect(storeUrlOf({}, { MCP_ATLAS_STORE: '', MCP_ATLAS_DATA: '/srv/atlas' })).toBe('file:/srv/atlas');
    expect(storeUrlOf({}, {})).toBe(`file:${join(process.cwd(), 'atlas-data')}`);
  });

  it('refuses a scheme it has no driver for, and never prints a password', () => {
    expect(() => storeKindOf('s3://bucket/atlas')).toThrow(StoreUrlError);
    expect(() => folderOfFileUrl('file:')).toThrow(StoreUrlError);
    expect(storeKindOf('postgresql://h/db')).toBe('postgres');
    expect(redactStoreUrl('postgres://atlas:s3cret@db:5432/atlas')).toBe('postgres://atlas:***@db:5432/atlas');
    try {
      storeKindOf('mysql://atlas:s3cret@db/atlas');
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
    }
  });
});
