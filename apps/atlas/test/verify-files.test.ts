// `mcp-atlas verify --data DIR` checks what the roots promise: a real data folder, scanned over the demo
// fleet on loopback and sealed, then tampered with in the ways that matter: a changed byte, a deleted day
// folder, an unlisted file, and the whole history moved back a year with the same signatures.

import { cp, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shiftDay } from '@mcp-atlas/base';
import { generateKeyPair, publicKeyPem } from '@mcp-atlas/history';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCommand } from '../src/commands.js';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { sealStoredDay } from '../src/seal/seal-day.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { putJson } from '../src/storage/storage.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';

const DAYS = ['2026-11-02', '2026-11-03', '2026-11-04'];
const BROKEN_DAY = '2026-11-03';

let fleet: Fleet;
let scratch: string;
let template: string;
let runs = 0;

beforeAll(async () => {
  fleet = await startFleet(30);
  scratch = await mkdtemp(join(tmpdir(), 'atlas-verify-files-'));
  template = join(scratch, 'template');
  const storage = createFsStorage(template);
  const servers = fleet.members
    .filter((m) => m.kind === 'healthy')
    .slice(0, 3)
    .map((m) => ({ id: m.id, url: m.url, source: 'registry' as const }));
  await putJson(storage, 'state/servers.json', { servers });
  const keys = await loadOrCreateSigningKeys(storage, new Date('2026-11-02T00:00:00Z'), { dataDir: template });
  const scheduler = new Scheduler({
    storage,
    log: createLogger('silent'),
    keys,
    registryUrl: null,
    network: { allowPrivate: true },
    outside: CLOSED_OUTSIDE,
    concurrency: 2,
  });
  for (const day of DAYS) await scheduler.runDaily(day);
  for (const day of DAYS) await sealStoredDay(storage, day, keys);
});

afterAll(async () => {
  await fleet.close();
  await rm(scratch, { recursive: true, force: true });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A fresh copy of the sealed data folder for one test to tamper with. */
async function freshCopy(): Promise<string> {
  const dir = join(scratch, `copy-${++runs}`);
  await cp(template, dir, { recursive: true });
  return dir;
}

/** Runs `verify` with the given arguments and returns its exit code and what it printed. */
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
  try {
    const code = await runCommand(['verify', ...args], createLogger('silent'));
    return { code, out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('verify --data DIR', () => {
  it('prints verified and returns 0 for an untouched sealed folder', async () => {
    const dir = await freshCopy();
    const files = await readdir(join(dir, 'days', BROKEN_DAY), { recursive: true });
    expect(files).toEqual(expect.arrayContaining(['index.json', 'summary.json']));
    expect(await verify(['--data', dir])).toEqual({
      code: EXIT_OK,
      out: 'verified\n',
      err: 'mcp-atlas: checked 3 sealed days, 2026-11-02 to 2026-11-04\n',
    });
  });

  it('names the day and the file after one byte of a sealed file changes', async () => {
    const dir = await freshCopy();
    const shard = (await readdir(join(dir, 'days', BROKEN_DAY, 'results'))).sort()[0] as string;
    const path = join(dir, 'days', BROKEN_DAY, 'results', shard);
    const bytes = await readFile(path);
    const at = bytes.indexOf('"o"'); // a letter inside the results: same length, one byte different
    expect(at).toBeGreaterThan(0);
    bytes[at + 1] = 'd'.charCodeAt(0);
    await writeFile(path, bytes);
    const run = await verify(['--data', dir]);
    expect(run.code).toBe(EXIT_FAILED);
    expect(run.out).toBe(
      `broken: ${BROKEN_DAY}: day folder differs from its record: results/${shard} does not match its line\n`,
    );
  });

  it('fails when a sealed day folder is deleted while its root is kept', async () => {
    const dir = await freshCopy();
    await rm(join(dir, 'days', BROKEN_DAY), { recursive: true });
    expect(await verify(['--data', dir])).toMatchObject({
      code: EXIT_FAILED,
      out: `broken: ${BROKEN_DAY}: day folder ${BROKEN_DAY}/ is missing while its root is kept\n`,
    });
  });

  it('fails on a file in a sealed folder that its root does not list', async () => {
    const dir = await freshCopy();
    await writeFile(join(dir, 'days', BROKEN_DAY, 'late-note.json'), '{"added":"after the seal"}\n');
    expect(await verify(['--data', dir])).toMatchObject({
      code: EXIT_FAILED,
      out: `broken: ${BROKEN_DAY}: day folder differs from its record: late-note.json is not listed in the record\n`,
    });
  });

  it('ignores the temp file an interrupted atomic write left behind', async () => {
    const dir = await freshCopy();
    await writeFile(join(dir, 'days', BROKEN_DAY, 'summary.json.123.abcdef.tmp'), '{"half":');
    expect(await verify(['--data', dir])).toMatchObject({ code: EXIT_OK, out: 'verified\n' });
  });

  it('fails when every day is moved back a year, roots renamed and relabelled, signatures unchanged', async () => {
    const dir = await freshCopy();
    for (const day of DAYS) {
      const earlier = shiftDay(day, -365);
      await rename(join(dir, 'days', day), join(dir, 'days', earlier));
      const record = JSON.parse(await readFile(join(dir, 'roots', `${day}.json`), 'utf8')) as { day: string };
      await writeFile(
        join(dir, 'roots', `${earlier}.json`),
        `${JSON.stringify({ ...record, day: earlier }, null, 2)}\n`,
      );
      await rm(join(dir, 'roots', `${day}.json`));
    }
    const run = await verify(['--data', dir]);
    expect(run.code).toBe(EXIT_FAILED);
    expect(run.out).toBe(
      'broken: 2025-11-02: index.json says the day is 2026-11-02, not 2025-11-02: the day was relabelled\n',
    );
  });

  it('fails when a root record sits in the file of another day', async () => {
    const dir = await freshCopy();
    const record = JSON.parse(await readFile(join(dir, 'roots', `${BROKEN_DAY}.json`), 'utf8')) as { day: string };
    await writeFile(join(dir, 'roots', `${BROKEN_DAY}.json`), JSON.stringify({ ...record, day: '2026-11-09' }));
    expect(await verify(['--data', dir])).toMatchObject({
      code: EXIT_FAILED,
      out: `broken: ${BROKEN_DAY}: ${BROKEN_DAY}.json holds the record of "2026-11-09"\n`,
    });
  });

  it('checks against a key pinned with --key instead of the folder key', async () => {
    const dir = await freshCopy();
    const other = await generateKeyPair();
    await writeFile(join(scratch, 'other.pem'), publicKeyPem(other.publicKey));
    expect(await verify(['--data', dir, '--key', join(scratch, 'other.pem')])).toMatchObject({
      code: EXIT_FAILED,
      out: `broken: ${DAYS[0]}: signature does not verify against the public key\n`,
    });
    await writeFile(join(scratch, 'not-a-key.pem'), 'hello');
    expect((await verify(['--data', dir, '--key', join(scratch, 'not-a-key.pem')])).code).toBe(EXIT_USAGE);
  });

  it('says verified for a folder where nothing is sealed yet only with --allow-empty, with a note', async () => {
    const dir = join(scratch, `empty-${++runs}`);
    await loadOrCreateSigningKeys(createFsStorage(dir), new Date('2026-11-02T00:00:00Z'), { dataDir: dir });
    expect(await verify(['--data', dir])).toEqual({
      code: EXIT_FAILED,
      out: 'broken: -: no day is sealed, so there is no history to check (pass --allow-empty when that is expected)\n',
      err: '',
    });
    expect(await verify(['--data', dir, '--allow-empty'])).toEqual({
      code: EXIT_OK,
      out: 'verified\n',
      err: 'mcp-atlas: no day is sealed yet, so there is no history to check\n',
    });
  });
});
