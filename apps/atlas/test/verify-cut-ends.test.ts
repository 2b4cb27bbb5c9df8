// `mcp-atlas verify` notices days cut off either end of a sealed history, in each of its forms: a data folder
// (--data), a store URL (--store file:DIR and postgres://), and a running service (--url). The history is real:
// finished days written to a store and sealed by the app's own seal code; the service is the app's own
// (serveAtlas over the sealed folder). Then it is cut: every root, the oldest day, the three oldest, the newest
// root with or without its folder, a first day that sits past a long gap, and a service that names a latest day
// it does not serve. A chain that merely ends must not pass for a whole history.

import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicKeyPem } from '@mcp-atlas/history';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCommand } from '../src/commands.js';
import { dayIndexPath, dayShardPath, daySummaryPath } from '../src/data/paths.js';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys, type SigningKeys } from '../src/seal/keys.js';
import { sealStoredDay } from '../src/seal/seal-day.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { openStore } from '../src/storage/open-store.js';
import { PG_FILES_TABLE } from '../src/storage/pg-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { type PostgresCluster, startPostgresCluster } from './setup/postgres.js';

const DAYS = ['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06'];
/** The verifier's "today": the day after the newest sealed day, as on the morning after a seal. */
const NOW = new Date('2026-11-07T10:00:00Z');
const FIRST_LINKED =
  'previous_root is not null, but this is the first day of the history: the days before it are missing';
const EMPTY =
  'broken: -: no day is sealed, so there is no history to check (pass --allow-empty when that is expected)\n';

let scratch: string;
let template: string;
let keyFile: string;
let runs = 0;

/** A whole day of one shard and no servers, as a finished scan leaves it. */
async function writeFinishedDay(storage: Storage, day: string): Promise<void> {
  await putJson(storage, dayIndexPath(day), { day, methodologyVersion: 'test', shards: 1, servers: [], order: [0] });
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

/** Writes and seals `days` in order into `storage`, with its key made on the first day. */
async function sealDays(storage: Storage, days: readonly string[], dataDir?: string): Promise<SigningKeys> {
  const keys = await loadOrCreateSigningKeys(
    storage,
    new Date(`${days[0]}T00:00:00Z`),
    dataDir === undefined ? {} : { dataDir },
  );
  for (const day of days) {
    await writeFinishedDay(storage, day);
    await sealStoredDay(storage, day, keys);
  }
  return keys;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'atlas-verify-cut-ends-'));
  template = join(scratch, 'template');
  const keys = await sealDays(createFsStorage(template), DAYS, template);
  keyFile = join(scratch, 'ours.pem');
  await writeFile(keyFile, publicKeyPem(keys.publicKey));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** A fresh copy of the sealed folder, with the listed days' roots (and, with `folders`, their day folders) cut. */
async function cutCopy(days: readonly string[] = [], folders = true): Promise<string> {
  const dir = join(scratch, `copy-${++runs}`);
  await cp(template, dir, { recursive: true });
  for (const day of days) {
    await rm(join(dir, 'roots', `${day}.json`));
    if (folders) await rm(join(dir, 'days', day), { recursive: true });
  }
  return dir;
}

/** Runs `verify` with `args` on the pinned clock; returns its exit code and what it printed. */
async function verify(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  // Only Date is pinned: the service's sockets and timers run as usual.
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  try {
    const code = await runCommand(['verify', ...args], createLogger('silent'));
    return { code, out, err };
  } finally {
    vi.useRealTimers();
    vi.restoreAllMocks();
  }
}

describe('verify --data DIR', () => {
  it('verifies the whole history and prints the days it checked', async () => {
    const dir = await cutCopy();
    expect(await verify(['--data', dir])).toEqual({
      code: EXIT_OK,
      out: 'verified\n',
      err: 'mcp-atlas: checked 5 sealed days, 2026-11-02 to 2026-11-06\n',
    });
    expect(await verify(['--data', dir, '--since', '2026-11-02', '--through', '2026-11-06'])).toMatchObject({
      code: EXIT_OK,
      out: 'verified\n',
    });
  });

  it('fails when every root is deleted, with or without a pinned key', async () => {
    const dir = await cutCopy(DAYS);
    expect(await verify(['--data', dir])).toEqual({ code: EXIT_FAILED, out: EMPTY, err: '' });
    expect(await verify(['--data', dir, '--key', keyFile])).toEqual({ code: EXIT_FAILED, out: EMPTY, err: '' });
  });

  it('fails when the oldest day, root and folder, is deleted', async () => {
    const dir = await cutCopy(DAYS.slice(0, 1));
    expect(await verify(['--data', dir])).toMatchObject({
      code: EXIT_FAILED,
      out: `broken: 2026-11-03: ${FIRST_LINKED}\n`,
    });
  });

  it('fails when the three oldest days are deleted, even with the key pinned', async () => {
    const dir = await cutCopy(DAYS.slice(0, 3));
    expect(await verify(['--data', dir, '--key', keyFile])).toMatchObject({
      code: EXIT_FAILED,
      out: `broken: 2026-11-05: ${FIRST_LINKED}\n`,
    });
  });

  it('fails with --through when the newest root is deleted, with or without its day folder', async () => {
    const reason =
      'the history ends on 2026-11-05, before this day, which it must cover (through): days at its end are missing';
    for (const folders of [true, false]) {
      const dir = await cutCopy(DAYS.slice(-1), folders);
      expect(await verify(['--data', dir, '--through', '2026-11-06']), `folder cut: ${folders}`).toEqual({
        code: EXIT_FAILED,
        out: `broken: 2026-11-06: ${reason}\n`,
        err: '',
      });
      // Without --through the cut cannot be told from a history that ends, but the range printed shows the end.
      expect(await verify(['--data', dir])).toMatchObject({
        code: EXIT_OK,
        err: 'mcp-atlas: checked 4 sealed days, 2026-11-02 to 2026-11-05\n',
      });
    }
  });

  it('fails with --since when the first days sat before a gap longer than the chain window and were cut', async () => {
    // 2026-10-01, then nothing for a month: 2026-11-02 chains to nothing, so cutting 2026-10-01 leaves a valid chain.
    const dir = join(scratch, `gap-${++runs}`);
    await sealDays(createFsStorage(dir), ['2026-10-01', '2026-11-02'], dir);
    expect(await verify(['--data', dir, '--since', '2026-10-01'])).toMatchObject({ code: EXIT_OK });
    await rm(join(dir, 'roots', '2026-10-01.json'));
    await rm(join(dir, 'days', '2026-10-01'), { recursive: true });
    expect(await verify(['--data', dir, '--since', '2026-10-01'])).toEqual({
      code: EXIT_FAILED,
      out: 'broken: 2026-10-01: the history starts on 2026-11-02, after this day, which it must cover (since): days at its start are missing\n',
      err: '',
    });
  });

  it('refuses a --since or --through that is not a day, or a --since after --through', async () => {
    const dir = await cutCopy();
    expect((await verify(['--data', dir, '--since', '2026-11-31'])).code).toBe(EXIT_USAGE);
    expect((await verify(['--data', dir, '--through', 'yesterday'])).code).toBe(EXIT_USAGE);
    expect((await verify(['--data', dir, '--since', '2026-11-05', '--through', '2026-11-04'])).code).toBe(EXIT_USAGE);
  });
});

describe('verify --store file:DIR', () => {
  it('fails when the oldest day is cut, and when every root is', async () => {
    expect(await verify(['--store', `file:${await cutCopy(DAYS.slice(0, 1))}`])).toMatchObject({
      code: EXIT_FAILED,
      out: `broken: 2026-11-03: ${FIRST_LINKED}\n`,
    });
    expect(await verify(['--store', `file:${await cutCopy(DAYS)}`, '--key', keyFile])).toMatchObject({
      code: EXIT_FAILED,
      out: EMPTY,
    });
  });
});

describe('verify --store postgres://', () => {
  let cluster: PostgresCluster;
  let url: string;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    url = await cluster.createDatabase();
    const store = await openStore(url);
    try {
      await sealDays(store, DAYS.slice(0, 3));
    } finally {
      await store.close();
    }
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  /** Deletes the roots of `days` as the database's owner would, with the store's row triggers off. */
  async function deleteRoots(days: readonly string[]): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL session_replication_role = replica');
      await client.query(`DELETE FROM ${PG_FILES_TABLE} WHERE path = ANY($1)`, [
        days.map((day) => `roots/${day}.json`),
      ]);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
  }

  it('verifies, then fails once the oldest root is cut, then once every root is', async () => {
    expect(await verify(['--store', url])).toEqual({
      code: EXIT_OK,
      out: 'verified\n',
      err: 'mcp-atlas: checked 3 sealed days, 2026-11-02 to 2026-11-04\n',
    });
    await deleteRoots(DAYS.slice(0, 1));
    expect(await verify(['--store', url])).toMatchObject({
      code: EXIT_FAILED,
      out: `broken: 2026-11-03: ${FIRST_LINKED}\n`,
    });
    await deleteRoots(DAYS.slice(1, 3));
    expect(await verify(['--store', url])).toMatchObject({ code: EXIT_FAILED, out: EMPTY });
  });
});

describe('verify --url BASE', () => {
  const running: RunningAtlas[] = [];
  const servers: Server[] = [];

  afterEach(async () => {
    while (running.length > 0) await running.pop()?.close();
    await Promise.all(
      servers.splice(0).map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
  });

  /** The app's own service over `dir`, on loopback. */
  async function serveFolder(dir: string): Promise<string> {
    const storage = createFsStorage(dir);
    const atlas = await serveAtlas({
      storage,
      port: 0,
      host: '127.0.0.1',
      log: createLogger('silent'),
      keys: await loadOrCreateSigningKeys(storage, NOW, { dataDir: dir }),
      now: () => NOW,
      handleSignals: false,
    });
    running.push(atlas);
    return atlas.url;
  }

  it('verifies the whole served history and prints the days it checked', async () => {
    const base = await serveFolder(await cutCopy());
    expect(await verify(['--url', base, '--key', keyFile, '--through', '2026-11-06'])).toEqual({
      code: EXIT_OK,
      out: 'verified\n',
      err: 'mcp-atlas: checked 5 sealed days, 2026-11-02 to 2026-11-06\n',
    });
  });

  it('fails when the service serves no root at all, with or without a pinned key', async () => {
    const base = await serveFolder(await cutCopy(DAYS));
    expect(await verify(['--url', base])).toEqual({ code: EXIT_FAILED, out: EMPTY, err: '' });
    expect(await verify(['--url', base, '--key', keyFile])).toEqual({ code: EXIT_FAILED, out: EMPTY, err: '' });
  });

  it('fails when the oldest day, or the three oldest, are cut', async () => {
    expect(await verify(['--url', await serveFolder(await cutCopy(DAYS.slice(0, 1)))])).toMatchObject({
      code: EXIT_FAILED,
      out: `broken: 2026-11-03: ${FIRST_LINKED}\n`,
    });
    expect(await verify(['--url', await serveFolder(await cutCopy(DAYS.slice(0, 3))), '--key', keyFile])).toMatchObject(
      { code: EXIT_FAILED, out: `broken: 2026-11-05: ${FIRST_LINKED}\n` },
    );
  });

  it('fails with --through when the newest root is cut, with or without its day folder', async () => {
    for (const folders of [true, false]) {
      const base = await serveFolder(await cutCopy(DAYS.slice(-1), folders));
      expect(await verify(['--url', base, '--through', '2026-11-06']), `folder cut: ${folders}`).toMatchObject({
        code: EXIT_FAILED,
        out: 'broken: 2026-11-06: the history ends on 2026-11-05, before this day, which it must cover (through): days at its end are missing\n',
      });
    }
  });

  it('fails when the well-known document does not name its latest sealed day', async () => {
    const silent = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ integrity: { public_key_pem: 'unused: refused before the key is read' } }));
    });
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    expect(await verify(['--url', `http://127.0.0.1:${(silent.address() as AddressInfo).port}`])).toEqual({
      code: EXIT_FAILED,
      out: 'broken: -: /.well-known/mcp-atlas.json does not name its latest sealed day (integrity.latest_day)\n',
      err: '',
    });
  });

  it('fails when the service names a latest day whose root it does not serve', async () => {
    const origin = await serveFolder(await cutCopy());
    // A front that hides the newest root while the well-known document still names its day.
    const front = createServer((request, response) => {
      const path = request.url ?? '/';
      if (path.includes('day=2026-11-06')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no root"}');
        return;
      }
      void fetch(new URL(path, origin)).then(async (answer) => {
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      });
    });
    servers.push(front);
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    expect(await verify(['--url', base, '--key', keyFile])).toEqual({
      code: EXIT_FAILED,
      out: 'broken: 2026-11-06: this day is named as the latest sealed day, but the history ends on 2026-11-05: days at its end are missing\n',
      err: '',
    });
  });
});
