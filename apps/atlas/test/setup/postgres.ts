// A throwaway PostgreSQL cluster for one test file: initdb in a fresh folder under the run's temp root, a
// server on a free loopback port (and a Unix socket in the same folder), stopped and removed afterwards. No test
// needs a server that is already running. Tests run as root in CI, and PostgreSQL refuses to run as root, so
// then the cluster's programs run as the `postgres` user that Debian's package creates.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A running throwaway cluster. */
export interface PostgresCluster {
  /** The loopback port it listens on. */
  readonly port: number;
  /** The URL of database `name` (default `postgres`), as the superuser `postgres`, no password. */
  url(name?: string): string;
  /** Creates a fresh empty database and returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (immediately) and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** The folder that holds initdb and pg_ctl: $PG_BIN, the one on the PATH, or Debian's newest version. */
export function findPostgresBin(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv !== undefined && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  try {
    const onPath = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim();
    if (onPath !== '') return dirname(realpathSync(onPath));
  } catch {
    // Not on the PATH: look where Debian puts it.
  }
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((version) => existsSync(join(base, version, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error('initdb not found: run scripts/ensure-postgres.sh (or set PG_BIN)');
  return join(base, versions[0]!, 'bin');
}

/** A loopback port nothing listens on right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/** The uid and gid to run the cluster's programs as: `postgres` when we are root, else ourselves. */
function clusterUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** Runs one of the cluster's programs to its end; rejects with its output when it fails. */
function run(file: string, args: string[], user: { uid: number; gid: number } | null, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' },
      ...(user !== null ? { uid: user.uid, gid: user.gid } : {}),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${file} ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

/**
 * Lets the `postgres` user reach the cluster's folder: the run's temp root (its parent) was made owner-only by
 * mkdtemp, so it gets the search bit for others (not read: they still cannot list it).
 */
async function letOthersTraverse(folder: string): Promise<void> {
  const parent = dirname(folder);
  const info = await stat(parent);
  if (info.uid === process.getuid?.() && (info.mode & 0o001) === 0) await chmod(parent, (info.mode & 0o7777) | 0o011);
}

let databases = 0;

/** Starts a fresh cluster; call `stop()` in afterAll. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  const user = clusterUser();
  const folder = await mkdtemp(join(tmpdir(), 'atlas-pg-'));
  if (user !== null) {
    await letOthersTraverse(folder);
    await chown(folder, user.uid, user.gid);
  }
  const data = join(folder, 'data');
  const port = await freePort();
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], user, folder).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  };
  try {
    // --no-sync and fsync=off: a throwaway cluster need not survive a crash of the machine, and it is much faster.
    await run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      user,
      folder,
    );
    const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    await run(
      join(bin, 'pg_ctl'),
      ['-D', data, '-l', join(folder, 'server.log'), '-o', options, '-w', '-t', '60', 'start'],
      user,
      folder,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const url = (name = 'postgres'): string => `postgres://postgres@127.0.0.1:${port}/${name}`;
  return {
    port,
    url,
    async createDatabase() {
      const name = `atlas_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
  };
}

/** What {@link usePostgresPerFile} gives a test file. */
export interface PostgresPerFile {
  /** The file's cluster (started before its first test). */
  readonly cluster: PostgresCluster;
  /** Closers a test registers (pools, stores, queues); they run in reverse order after each test. */
  readonly closers: (() => Promise<unknown>)[];
}

/**
 * Registers the hooks most PostgreSQL test files need: a throwaway cluster started before the file's tests and
 * stopped after them, and a list of closers run in reverse order after each test, so no pool outlives its test.
 */
export function usePostgresPerFile(): PostgresPerFile {
  let cluster: PostgresCluster | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return {
    get cluster(): PostgresCluster {
      if (cluster === undefined) throw new Error('The PostgreSQL cluster starts before the first test of the file');
      return cluster;
    },
    closers,
  };
}
