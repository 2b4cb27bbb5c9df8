// An operator's command run as another process shows in a running `serve` within seconds, with no restart and no
// hourly rebuild: `mcp-atlas mark gateway` from a child process changes the route's guard for that server, on a
// data folder (the serve polls the change log) and on PostgreSQL (the write is announced on the store's channel).
// Each case waits on the answer itself, and prints how long the change took to show.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServeSettings, type StartedServe, startServe } from '../src/commands/serve.js';
import { createLogger } from '../src/log.js';
import { FOLDER_CHANGE_POLL_MS, OPERATOR_CHANGES_PATH } from '../src/storage/change-log.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { openStore } from '../src/storage/open-store.js';
import { isReadModelLandmark } from '../src/storage/pg-storage.js';
import { bundleCliFromSource } from './fixtures/bundle-harness.js';
import { writeFixture } from './fixtures/http-atlas.js';
import { writeSigningKeyFile } from './fixtures/signing-key-file.js';
import { type PostgresCluster, startPostgresCluster } from './setup/postgres.js';
import { waitFor } from './setup/wait-for.js';

const TASK = 'create a note in a notebook';

let cli: string;
let scratch: string;
const started: StartedServe[] = [];
beforeAll(async () => {
  cli = await bundleCliFromSource('operator-changes-live');
  scratch = await mkdtemp(join(tmpdir(), 'atlas-operator-changes-'));
});
afterAll(async () => {
  for (const serve of started) await serve.running.close();
  await rm(scratch, { recursive: true, force: true });
});

/** Runs the CLI as a separate process and resolves with its exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk) => (out += String(chunk)));
    child.stderr?.on('data', (chunk) => (err += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** notes-hub's route guard for the task, as the running service answers it now. */
async function guardOf(base: string): Promise<number | undefined> {
  const answer = (await (await fetch(`${base}/api/route?task=${encodeURIComponent(TASK)}`)).json()) as {
    picks: { serverId: string; factors: { guard: number } }[];
  };
  return answer.picks.find((p) => p.serverId === 'notes-hub')?.factors.guard;
}

/** Starts serve on `where` (its flags), waits until it answers, and returns its base URL. */
async function serveOn(where: string[]): Promise<string> {
  const settings = readServeSettings([...where, '--port', '0', '--no-schedule'], {});
  const serve = await startServe(settings, createLogger('silent'), { handleSignals: false });
  started.push(serve);
  return `http://127.0.0.1:${serve.running.port}`;
}

/** Marks notes-hub a gateway from another process, and waits until the service's route applies the guard. */
async function markAndWait(base: string, where: string[]): Promise<number> {
  expect(await guardOf(base)).toBe(1);
  const marked = await runCli(['mark', 'gateway', 'notes-hub', ...where]);
  expect(marked, marked.err).toMatchObject({ code: 0, out: 'notes-hub added to the gateways\n' });
  const at = Date.now();
  await waitFor('the running service applies the gateway guard', async () => (await guardOf(base)) === 0.7);
  return Date.now() - at;
}

describe('a mark from another process, on a data folder', () => {
  it('reaches the running service’s route without a restart', async () => {
    const dir = join(scratch, 'data');
    await writeFixture(createFsStorage(dir));
    const base = await serveOn(['--data', dir]);
    const took = await markAndWait(base, ['--data', dir]);
    console.info(
      `data folder: the mark showed ${took} ms after the command ended (poll every ${FOLDER_CHANGE_POLL_MS} ms)`,
    );
    // The server list shows the same view.
    const servers = (await (await fetch(`${base}/api/servers`)).json()) as { servers: { id: string }[] };
    expect(servers.servers.map((s) => s.id)).toContain('notes-hub');
  });

  it('is written by incidents close too, after its change', async () => {
    const dir = join(scratch, 'data');
    const closed = await runCli(['incidents', 'close', 'ticket-yard', '--note', 'fixed upstream', '--data', dir]);
    expect(closed.code, closed.err).toBe(0);
    const log = JSON.parse(await readFile(join(dir, OPERATOR_CHANGES_PATH), 'utf8'));
    expect(log).toMatchObject({ what: 'incidents close', at: expect.any(String) });
  });
});

describe('a mark from another process, on PostgreSQL', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    for (const serve of started.splice(0)) await serve.running.close();
    await cluster?.stop();
  });

  it('is announced on the store’s channel, and reaches the running service’s route', async () => {
    expect(isReadModelLandmark(OPERATOR_CHANGES_PATH)).toBe(true);
    const url = await cluster.createDatabase();
    const store = await openStore(url);
    try {
      await writeFixture(store);
    } finally {
      await store.close();
    }
    const keyFile = await writeSigningKeyFile(scratch);
    const base = await serveOn(['--store', url, '--signing-key', keyFile]);
    const took = await markAndWait(base, ['--store', url]);
    console.info(`PostgreSQL: the mark showed ${took} ms after the command ended`);
  });
});
