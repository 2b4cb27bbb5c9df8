// The operator commands (review, incidents, mark, keys export-public) on the shared PostgreSQL store: each takes
// --store postgres://… (and MCP_ATLAS_STORE), and what it writes or reads is the store's, not a data folder's.
// Against a throwaway cluster of the test's own.
import { generateKeyPair, publicKeyPem } from '@mcp-atlas/history';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../src/commands.js';
import { listReviewItems, readIncidentClosures } from '../src/data/review-queue.js';
import { readRouteMarks } from '../src/data/route-marks.js';
import { createLogger } from '../src/log.js';
import { recordPublicKey } from '../src/seal/keys.js';
import { type OpenedStore, openStore } from '../src/storage/open-store.js';
import { type PostgresCluster, startPostgresCluster } from './setup/postgres.js';

let cluster: PostgresCluster;
let url: string;
let store: OpenedStore;
const log = createLogger('silent');

beforeAll(async () => {
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase();
  store = await openStore(url);
});

afterAll(async () => {
  await store?.close();
  await cluster?.stop();
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** Runs one command in this process; returns its exit code and what it printed. */
async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  try {
    return { code: await runCommand(args, log), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('the operator commands with --store postgres://', () => {
  it('mark writes the route marks into the store', async () => {
    expect(await run(['mark', 'gateway', 'pay-gw', '--store', url])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('pay-gw added to the gateways'),
    });
    expect((await readRouteMarks(store)).gateways).toEqual(new Set(['pay-gw']));
  });

  it('incidents close records the closure in the store, and review list reads the store', async () => {
    const closed = await run(['incidents', 'close', 'weather', '--note', 'looked at it', '--store', url]);
    expect(closed.code).toBe(0);
    expect(closed.stdout).toContain('closed the incident of weather');
    expect((await readIncidentClosures(store)).map((c) => [c.server, c.note])).toEqual([['weather', 'looked at it']]);
    expect(await run(['review', 'list', '--store', url, '--json'])).toMatchObject({ code: 0 });
    expect(await listReviewItems(store, 'all')).toEqual([]);
  });

  it('keys export-public reads the public key the service recorded in the store, and says where it looked when none is there', async () => {
    const missing = await run(['keys', 'export-public', '--store', url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no signing key at ${url}`);
    // As `serve --signing-key FILE` does on a shared store: only the public key is recorded there.
    const made = await generateKeyPair();
    await recordPublicKey(store, made.publicKey);
    expect(await store.list('keys/')).toEqual(['keys/public-key.json']);
    expect(await run(['keys', 'export-public', '--store', url])).toMatchObject({
      code: 0,
      stdout: publicKeyPem(made.publicKey),
    });
  });

  it('every one of them reads MCP_ATLAS_STORE when no --store or --data is given', async () => {
    vi.stubEnv('MCP_ATLAS_STORE', url);
    vi.stubEnv('MCP_ATLAS_DATA', '');
    expect((await run(['mark', 'directory', 'listed', '--off'])).stdout).toContain('listed not among');
    expect((await run(['mark', 'directory', 'listed'])).code).toBe(0);
    expect((await readRouteMarks(store)).directories).toEqual(new Set(['listed']));
    expect((await run(['review', 'list'])).stdout).toBe('no open review items\n');
    expect((await run(['keys', 'export-public'])).code).toBe(0);
  });

  it('refuses an unknown store scheme as a usage error', async () => {
    for (const command of [
      ['mark', 'gateway', 'x'],
      ['review', 'list'],
      ['keys', 'export-public'],
    ]) {
      expect((await run([...command, '--store', 'ftp://nowhere'])).code, command.join(' ')).toBe(2);
    }
  });
});
