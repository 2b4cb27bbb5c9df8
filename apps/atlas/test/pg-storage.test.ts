// What the PostgreSQL store promises beyond the shared contract (storage.test.ts runs that on it): atomic puts
// seen from another connection pool, an indexed prefix list, sealed days that stay as sealed, a schema that
// two processes can create at once, change notifications for read replicas, and store URLs.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
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
  PG_DAY_WRITE_ISOLATION_SQLSTATE,
  PG_FILES_TABLE,
  PG_META_TABLE,
  PG_SCHEMA_VERSION,
  PG_SEALED_DAY_SQLSTATE,
  PG_SEALED_GUARD_TRIGGER,
  PG_SEALED_GUARD_VERSION,
  PG_SEALED_ROOT_SQLSTATE,
  PgSchemaVersionError,
  prefixUpperBound,
  SealedDayWriteError,
  SealedRootWriteError,
  sealingRootOf,
  withReadCommitted,
} from '../src/storage/pg-storage.js';
import { SealedDayWriteError as SharedSealedDayWriteError } from '../src/storage/sealed-days.js';
import { type PostgresCluster, startPostgresCluster } from './setup/postgres.js';
import { waitFor } from './setup/wait-for.js';

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

/** Opens `url` as a separate process would: its own pool (of `connections`). Closed after the file's tests. */
async function open(url: string, connections = 4): Promise<OpenedStore> {
  const store = await openStore(url, { maxConnections: connections });
  opened.push(store);
  return store;
}

/** How many statements on `store`'s database are waiting for a lock. */
async function countLockWaiters(store: OpenedStore): Promise<number> {
  const { rows } = await store.pg!.pool.query<{ waiting: number }>(
    `SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return rows[0]!.waiting;
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

describe('postgres store: a root racing the writes of its day', () => {
  const DAY = '2026-06-01';
  const HELD = Array.from({ length: 6 }, (_, i) => `days/${DAY}/results/${i}.json`);
  const LOG = `days/${DAY}/reports.jsonl`;
  /** One file per write stream, which the stream deletes once. */
  const DOOMED = Array.from({ length: 8 }, (_, i) => `days/${DAY}/doomed/${i}.json`);

  interface Outcome {
    stream: number;
    kind: 'put' | 'append' | 'new' | 'create' | 'delete';
    path: string;
    written: string;
    /** Started before the root's put was called and ended after: in flight across the seal. */
    spannedRootPut: boolean;
    startedAfterSeal: boolean;
    error: unknown;
  }

  /** The day's files as one map, read in one statement (one snapshot). */
  async function dayFiles(store: OpenedStore): Promise<Map<string, string>> {
    const { rows } = await store.pg!.pool.query<{ path: string; bytes: Buffer }>(
      `SELECT path, bytes FROM ${PG_FILES_TABLE} WHERE path >= $1 AND path < $2 ORDER BY path`,
      [`days/${DAY}/`, prefixUpperBound(`days/${DAY}/`)],
    );
    return new Map(rows.map((row) => [row.path, row.bytes.toString('utf8')]));
  }

  /**
   * Locks the rows of HELD, DOOMED and the log on a connection of its own until `release` is called, so a write
   * that took its snapshot before the root committed is held at its row until after the root has committed: the
   * window the statement's own check cannot close.
   */
  async function holdRows(url: string): Promise<{ release: () => Promise<void> }> {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT path FROM ${PG_FILES_TABLE} WHERE path = ANY($1) FOR UPDATE`, [
      [...HELD, ...DOOMED, LOG],
    ]);
    let released: Promise<void> | undefined;
    const release = () => {
      released ??= holder.query('COMMIT').then(() => holder.end());
      return released;
    };
    return { release };
  }

  it('lands no day write after the root commits: writes held across its commit are refused, later ones too', async () => {
    const url = await cluster.createDatabase();
    const [one, two, sealer] = [await open(url), await open(url), await open(url)];
    for (const path of [...HELD, ...DOOMED]) await one.put(path, bytes('v0'));
    await one.append(LOG, bytes('start\n'));

    const { release } = await holdRows(url);
    const outcomes: Outcome[] = [];
    let rootPutCalled = false;
    let sealed = false;
    let stop = false;
    /** The write each stream has waiting at a held row, before the root: its kind and its store. */
    const waitingAt = new Map<number, { kind: Outcome['kind']; store: OpenedStore }>();

    /**
     * How many statements the waiting writes make. Appends to one path from one store share a lane and go out as
     * one statement; every other write is a statement of its own.
     */
    function statementsWaiting(): number {
      const writes = [...waitingAt.values()];
      const appendLanes = new Set(writes.filter((w) => w.kind === 'append').map((w) => w.store));
      return writes.filter((w) => w.kind !== 'append').length + appendLanes.size;
    }

    /** Starts one write of `kind` on `path` through `store`. */
    function startWrite(store: OpenedStore, kind: Outcome['kind'], path: string, written: string): Promise<unknown> {
      if (kind === 'append') return store.append(path, bytes(`${written}\n`));
      if (kind === 'create') return store.createIfAbsent(path, bytes(written));
      if (kind === 'delete') return store.delete(path);
      return store.put(path, bytes(written));
    }

    /**
     * One stream of writes, one at a time, cycling through a new file put, a new file created if absent, an append
     * to the log, a put of a held file and (once) the delete of its held doomed file. Each stream starts at another
     * point of the cycle, so every kind of write on a held row is in flight across the root's put.
     */
    async function writeStream(store: OpenedStore, stream: number): Promise<void> {
      let deleted = false;
      for (let round = 0; !stop; round++) {
        const written = `s${stream}-${round}`;
        let kind = (['new', 'create', 'append', 'put', 'delete'] as const)[(round + stream) % 5]!;
        if (kind === 'delete' && deleted) kind = 'new';
        const paths = { put: HELD[round % HELD.length]!, append: LOG, delete: DOOMED[stream]! };
        const path = kind === 'new' || kind === 'create' ? `days/${DAY}/new/${written}.json` : paths[kind];
        deleted ||= kind === 'delete';
        const startedBeforeRootPut = !rootPutCalled;
        const startedAfterSeal = sealed;
        if (startedBeforeRootPut && kind !== 'new' && kind !== 'create') waitingAt.set(stream, { kind, store });
        const write = startWrite(store, kind, path, written);
        const error = await write.then(
          () => null,
          (reason: unknown) => reason,
        );
        const spannedRootPut = startedBeforeRootPut && rootPutCalled;
        outcomes.push({ stream, kind, path, written, spannedRootPut, startedAfterSeal, error });
      }
    }

    // Two pools (two processes, as far as the database can tell), four streams each.
    const streams = Array.from({ length: 8 }, (_, stream) => writeStream(stream < 4 ? one : two, stream));
    let atSeal: Map<string, string>;
    try {
      // Every stream reaches a held row within three writes and waits there, its snapshot taken before the root.
      // Waiting for all of them (not for a fixed time) keeps the race the same on a loaded machine.
      await waitFor(
        'every stream waits at a held row',
        async () => waitingAt.size === streams.length && (await countLockWaiters(sealer)) === statementsWaiting(),
      );
      rootPutCalled = true;
      await sealer.put(`roots/${DAY}.json`, bytes('{"root":"r"}'));
      sealed = true;
      atSeal = await dayFiles(sealer);
      // Only now, with the root committed, do the held writes go on. Then each stream writes until one of its
      // writes that started after the seal has ended.
      await release();
      const streamsWrittenAfterSeal = () => new Set(outcomes.filter((o) => o.startedAfterSeal).map((o) => o.stream));
      await waitFor('every stream has written after the seal', () => streamsWrittenAfterSeal().size === streams.length);
    } finally {
      stop = true;
      await release();
      await Promise.all(streams);
    }
    const after = await dayFiles(sealer);

    // The race was run: writes landed before the root, one per stream was in flight across its put, later ones came.
    expect(outcomes.filter((o) => o.error === null && !o.spannedRootPut).length).toBeGreaterThanOrEqual(4);
    const spanned = outcomes.filter((o) => o.spannedRootPut);
    expect(spanned).toHaveLength(streams.length);
    // Each of those was held at its row until the root had committed, so each was refused.
    expect(spanned.filter((o) => o.error === null)).toEqual([]);
    expect(outcomes.filter((o) => o.startedAfterSeal).length).toBeGreaterThanOrEqual(streams.length);
    // Nothing under the day changed once the root's put had returned.
    expect(Object.fromEntries(after)).toEqual(Object.fromEntries(atSeal));
    // Every write that started after the root was refused with the store's own error, and every refusal is one.
    for (const outcome of outcomes) {
      if (outcome.startedAfterSeal) expect(outcome.error).toBeInstanceOf(SealedDayWriteError);
      if (outcome.error !== null) expect(outcome.error).toBeInstanceOf(SealedDayWriteError);
    }
    // What was accepted is there and what was refused is not.
    const log = after.get(LOG)!.split('\n');
    for (const outcome of outcomes) {
      const landed =
        outcome.kind === 'append'
          ? log.includes(outcome.written)
          : outcome.kind === 'delete'
            ? !after.has(outcome.path)
            : after.get(outcome.path) === outcome.written;
      if (outcome.error !== null) expect(landed).toBe(false);
      // A held file's put may be followed by another stream's put of the same file; every other write is its own.
      else if (outcome.kind !== 'put') expect(landed).toBe(true);
    }
  });
});

describe('postgres store: the sealed-day guard holds for plain SQL too', () => {
  const DAY = '2026-07-01';
  const FILE = `days/${DAY}/index.json`;
  const ROOT = `roots/${DAY}.json`;

  /** A store with a sealed day, an open day and rolling state, and a plain client on the same database. */
  async function sealedStoreAndClient(): Promise<{ store: OpenedStore; client: pg.Client; url: string }> {
    const url = await cluster.createDatabase();
    const store = await open(url);
    await store.put(FILE, bytes('{"v":1}'));
    await store.put(ROOT, bytes('{"root":"r"}'));
    await store.put('days/2026-07-02/index.json', bytes('{}'));
    await store.put('state/servers.json', bytes('[]'));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    clients.push(client);
    return { store, client, url };
  }

  /** Every row as path, bytes and updated_at, to show that refused statements changed nothing. */
  async function allRows(client: pg.Client): Promise<unknown[]> {
    const { rows } = await client.query(`SELECT path, bytes, updated_at FROM ${PG_FILES_TABLE} ORDER BY path`);
    return rows;
  }

  /** Every row as path and bytes. */
  async function contents(client: pg.Client): Promise<unknown[]> {
    const { rows } = await client.query(`SELECT path, bytes FROM ${PG_FILES_TABLE} ORDER BY path`);
    return rows;
  }

  const clients: pg.Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  });

  it('refuses an UPDATE, INSERT, DELETE or move under a sealed day, and any change of a root', async () => {
    const { client } = await sealedStoreAndClient();
    const before = await allRows(client);
    const sealedDay = { code: PG_SEALED_DAY_SQLSTATE, message: expect.stringMatching(/day 2026-07-01 is sealed/) };
    const sealedRoot = { code: PG_SEALED_ROOT_SQLSTATE, message: expect.stringMatching(/written once/) };
    const t = PG_FILES_TABLE;
    await expect(client.query(`UPDATE ${t} SET bytes = '\\x7b7d' WHERE path = $1`, [FILE])).rejects.toMatchObject(
      sealedDay,
    );
    await expect(
      client.query(`INSERT INTO ${t} (path, bytes) VALUES ($1, '\\x7b7d')`, [`days/${DAY}/late.json`]),
    ).rejects.toMatchObject(sealedDay);
    await expect(client.query(`DELETE FROM ${t} WHERE path = $1`, [FILE])).rejects.toMatchObject(sealedDay);
    // A move is a removal and a new file: out of a sealed day, or into one, is refused.
    await expect(
      client.query(`UPDATE ${t} SET path = 'state/moved.json' WHERE path = $1`, [FILE]),
    ).rejects.toMatchObject(sealedDay);
    await expect(
      client.query(`UPDATE ${t} SET path = $1 WHERE path = 'state/servers.json'`, [`days/${DAY}/moved.json`]),
    ).rejects.toMatchObject(sealedDay);
    // A statement over many rows is refused whole, the rows of open days included.
    await expect(
      client.query(`UPDATE ${t} SET bytes = bytes || '\\x20'::bytea WHERE path LIKE 'days/%'`),
    ).rejects.toMatchObject(sealedDay);
    await expect(client.query(`UPDATE ${t} SET bytes = '\\x7b7d' WHERE path = $1`, [ROOT])).rejects.toMatchObject(
      sealedRoot,
    );
    await expect(client.query(`DELETE FROM ${t} WHERE path = $1`, [ROOT])).rejects.toMatchObject(sealedRoot);
    await expect(client.query(`UPDATE ${t} SET path = 'roots/old.json' WHERE path = $1`, [ROOT])).rejects.toMatchObject(
      sealedRoot,
    );
    expect(await allRows(client)).toEqual(before);
  });

  it('makes a root wait for a day change that holds the day lock, and a day change wait for a root, then refuse', async () => {
    const { store, client } = await sealedStoreAndClient();
    /** Waits until `promise` either ends or is seen waiting for a lock in the database; says which. */
    const pending = async (promise: Promise<unknown>) => {
      let settled = false;
      const settle = () => {
        settled = true;
      };
      promise.then(settle, settle);
      await waitFor(
        'the statement waits for a lock, or ends',
        async () => settled || (await countLockWaiters(store)) > 0,
      );
      return settled ? 'settled' : 'pending';
    };
    // A plain-SQL change of an open day, left uncommitted: it holds the day's lock shared, so the root waits for it.
    await client.query('BEGIN');
    await client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = '\\x5b5d' WHERE path = 'days/2026-07-02/index.json'`);
    const sealing = store.put('roots/2026-07-02.json', bytes('{"root":"q"}'));
    expect(await pending(sealing)).toBe('pending');
    await client.query('COMMIT');
    await sealing;
    expect(text(await store.get('days/2026-07-02/index.json'))).toBe('[]');
    // A plain-SQL root, left uncommitted: it holds the day's lock exclusive. The store's put started before it
    // commits, so the statement's own check finds no root; the guard waits for the lock, sees the root, refuses.
    await client.query('BEGIN');
    await client.query(`INSERT INTO ${PG_FILES_TABLE} (path, bytes) VALUES ('roots/2026-07-03.json', '\\x7b7d')`);
    const writing = store.put('days/2026-07-03/index.json', bytes('{}'));
    writing.catch(() => undefined);
    expect(await pending(writing)).toBe('pending');
    await client.query('COMMIT');
    await expect(writing).rejects.toBeInstanceOf(SealedDayWriteError);
    expect(await store.get('days/2026-07-03/index.json')).toBeNull();
  });

  it('lets a sealed file and a root be written again with their own bytes, and leaves open days and state free', async () => {
    const { client } = await sealedStoreAndClient();
    const before = await contents(client);
    const { rowCount } = await client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = bytes WHERE path = ANY($1)`, [
      [FILE, ROOT],
    ]);
    expect(rowCount).toBe(2);
    expect(await contents(client)).toEqual(before);
    await client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = '\\x5b315d' WHERE path = 'state/servers.json'`);
    await client.query(`DELETE FROM ${PG_FILES_TABLE} WHERE path = 'days/2026-07-02/index.json'`);
    await client.query(`INSERT INTO ${PG_FILES_TABLE} (path, bytes) VALUES ('days/2026-07-02/new.json', '\\x7b7d')`);
    const { rows } = await client.query<{ path: string }>(`SELECT path FROM ${PG_FILES_TABLE} ORDER BY path`);
    expect(rows.map((row) => row.path)).toEqual([
      'days/2026-07-01/index.json',
      'days/2026-07-02/new.json',
      'roots/2026-07-01.json',
      'state/servers.json',
    ]);
  });

  it('refuses a change under days/ above READ COMMITTED, where the check could not see a root committed since', async () => {
    const { store, client } = await sealedStoreAndClient();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await expect(
      client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = '\\x5b5d' WHERE path = 'days/2026-07-02/index.json'`),
    ).rejects.toMatchObject({
      code: PG_DAY_WRITE_ISOLATION_SQLSTATE,
      message: expect.stringMatching(/READ COMMITTED/),
    });
    await client.query('ROLLBACK');
    // Rolling state is no day's, so any isolation writes it.
    await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
    await client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = '\\x7b7d' WHERE path = 'state/servers.json'`);
    await client.query('COMMIT');
    // The store's own connections ask for READ COMMITTED, whatever the database's default.
    const url = await cluster.createDatabase();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    clients.push(admin);
    const dbName = new URL(url).pathname.slice(1);
    await admin.query(`ALTER DATABASE ${dbName} SET default_transaction_isolation = 'serializable'`);
    const strict = await open(url);
    await strict.put('days/2026-07-02/index.json', bytes('{}'));
    expect(text(await strict.get('days/2026-07-02/index.json'))).toBe('{}');
    expect(text(await store.get('state/servers.json'))).toBe('{}');
  });

  it('adds READ COMMITTED to the connection options, after the URL’s own or else PGOPTIONS', () => {
    const optionsOf = (url: string) => new URL(url).searchParams.get('options');
    const ours = '-c default_transaction_isolation=read\\ committed';
    expect(optionsOf(withReadCommitted('postgres://u@h:5432/db', {}))).toBe(ours);
    expect(
      optionsOf(withReadCommitted(`postgres://u@h/db?options=${encodeURIComponent('-c search_path=a')}`, {})),
    ).toBe(`-c search_path=a ${ours}`);
    expect(optionsOf(withReadCommitted('postgres://u@h/db', { PGOPTIONS: '-c search_path=b' }))).toBe(
      `-c search_path=b ${ours}`,
    );
    // The URL's options win over PGOPTIONS, as node-postgres has it; the rest of the URL is kept.
    const merged = withReadCommitted('postgres://u:p%40ss@h:5433/db?options=-c%20x%3D1&sslmode=disable', {
      PGOPTIONS: '-c y=2',
    });
    expect(optionsOf(merged)).toBe(`-c x=1 ${ours}`);
    expect(new URL(merged).password).toBe('p%40ss');
    expect(new URL(merged).searchParams.get('sslmode')).toBe('disable');
  });

  it('keeps the operator’s connection options (in the URL or PGOPTIONS) and still writes days at READ COMMITTED', async () => {
    const url = await cluster.createDatabase();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    clients.push(admin);
    const dbName = new URL(url).pathname.slice(1);
    await admin.query('CREATE SCHEMA atlas_by_url');
    await admin.query('CREATE SCHEMA atlas_by_env');
    await admin.query(`ALTER DATABASE ${dbName} SET default_transaction_isolation = 'repeatable read'`);
    const countIn = async (schema: string) =>
      (await admin.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${schema}.${PG_FILES_TABLE}`)).rows[0]?.n;
    const byUrl = await open(`${url}?options=${encodeURIComponent('-c search_path=atlas_by_url')}`);
    await byUrl.put('days/2026-07-03/index.json', bytes('{}'));
    expect(await countIn('atlas_by_url')).toBe(1);
    const saved = process.env.PGOPTIONS;
    process.env.PGOPTIONS = '-c search_path=atlas_by_env';
    try {
      const byEnv = await open(url);
      await byEnv.put('days/2026-07-03/index.json', bytes('[]'));
    } finally {
      if (saved === undefined) delete process.env.PGOPTIONS;
      else process.env.PGOPTIONS = saved;
    }
    expect(await countIn('atlas_by_env')).toBe(1);
    // Neither store fell back to the default schema.
    const { rows } = await admin.query<{ table: string | null }>(
      `SELECT to_regclass('public.${PG_FILES_TABLE}')::text AS table`,
    );
    expect(rows[0]?.table).toBeNull();
  });

  it('is armed again when its trigger was left to fire for replicas only', async () => {
    const { client, url } = await sealedStoreAndClient();
    await client.query(`ALTER TABLE ${PG_FILES_TABLE} ENABLE REPLICA TRIGGER ${PG_SEALED_GUARD_TRIGGER}`);
    // A normal session no longer runs it: plain SQL changes a sealed file.
    await client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = '\\x7b7d' WHERE path = $1`, [FILE]);
    await open(url);
    await expect(
      client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = '\\x5b5d' WHERE path = $1`, [FILE]),
    ).rejects.toMatchObject({ code: PG_SEALED_DAY_SQLSTATE });
  });

  it('is installed when a store made by the build before it is opened, and a disabled trigger is armed again', async () => {
    const { store, client, url } = await sealedStoreAndClient();
    // The build before the guard: the same tables, no functions, no trigger, no guard version.
    await client.query(`DROP TRIGGER ${PG_SEALED_GUARD_TRIGGER} ON ${PG_FILES_TABLE}`);
    await client.query(`DROP FUNCTION ${PG_SEALED_GUARD_TRIGGER}()`);
    await client.query(`DELETE FROM ${PG_META_TABLE} WHERE key = 'sealed_guard_version'`);
    await client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = '\\x7b7d' WHERE path = $1`, [FILE]);
    expect(text(await store.get(FILE))).toBe('{}');
    await open(url);
    await expect(
      client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = '\\x5b5d' WHERE path = $1`, [FILE]),
    ).rejects.toMatchObject({ code: PG_SEALED_DAY_SQLSTATE });
    const { rows } = await client.query(`SELECT key, value FROM ${PG_META_TABLE} ORDER BY key`);
    expect(rows).toEqual([
      { key: 'schema_version', value: String(PG_SCHEMA_VERSION) },
      { key: 'sealed_guard_version', value: String(PG_SEALED_GUARD_VERSION) },
    ]);
    await client.query(`ALTER TABLE ${PG_FILES_TABLE} DISABLE TRIGGER ${PG_SEALED_GUARD_TRIGGER}`);
    await open(url);
    await expect(client.query(`DELETE FROM ${PG_FILES_TABLE} WHERE path = $1`, [FILE])).rejects.toMatchObject({
      code: PG_SEALED_DAY_SQLSTATE,
    });
  });

  it('still yields to a superuser in replica mode, the way a test changes a sealed file behind the store’s back', async () => {
    const { store, client } = await sealedStoreAndClient();
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(`UPDATE ${PG_FILES_TABLE} SET bytes = '\\x7b7d' WHERE path = $1`, [FILE]);
    await client.query('COMMIT');
    expect(text(await store.get(FILE))).toBe('{}');
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
    // A landmark put after both: one session hears notifications in commit order, so once it is heard, every
    // announcement of the two creates has been heard too.
    await writer.put('state/hourly.json', bytes('{}'));
    await waitFor('the listener hears the later put', () => heard.includes('state/hourly.json'));
    expect(heard).toEqual(['roots/2026-04-02.json', 'state/hourly.json']);
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

  it('erases with TRUNCATE, which the sealed-day guard lets through, and counts the files that went', async () => {
    const store = await open(await cluster.createDatabase());
    await fillSealed(store);
    // A DELETE of every row meets the sealed rows (the root or the day's file, whichever comes first) and is refused.
    await expect(store.pg!.pool.query(`DELETE FROM ${PG_FILES_TABLE}`)).rejects.toThrow(/^Refusing to (write|change)/);
    expect(await store.pg!.eraseAll()).toBe(3);
    expect(await store.pg!.eraseAll()).toBe(0);
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
    // One connection: a listener started after the stop gets the stopped one's connection back.
    const reader = await open(url, 1);
    const heard: string[] = [];
    const stop = await reader.watchChanges!((path) => heard.push(path));
    await writer.put('days/2026-04-01/catalogs/a.json', bytes('{}'));
    await writer.put('days/2026-04-01/summary.json', bytes('{}'));
    await writer.put('state/servers/a.json', bytes('{}'));
    await writer.put('roots/2026-04-01.json', bytes('{}'));
    await writer.put('state/hourly.json', bytes('{}'));
    await waitFor('the listener hears the hour', () => heard.includes('state/hourly.json'));
    expect(heard).toEqual(['days/2026-04-01/summary.json', 'roots/2026-04-01.json', 'state/hourly.json']);
    await stop();
    // A listener started after the stop, on the same connection: it hears the later put as the stopped one
    // would have, at the same moment, so once it has, the stopped one has had its chance.
    const heardLater: string[] = [];
    const stopLater = await reader.watchChanges!((path) => heardLater.push(path));
    await writer.put('state/hourly.json', bytes('{"later":true}'));
    await waitFor('a listener started after the stop hears the later put', () => heardLater.length === 1);
    await stopLater();
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
    // A folder store watches only the operators' change log (operator-changes-live.test.ts follows it end to end).
    expect(store.watchChanges).toEqual(expect.any(Function));
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
