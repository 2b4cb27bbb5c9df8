// The Node side: reading day folders, loading the key from a file or a well-known URL on loopback,
// verifying a data folder, and the `mcp-history` command's output and exit codes.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run.js';
import { EXIT_BROKEN, EXIT_USAGE, EXIT_VERIFIED } from '../src/constants.js';
import { type DayRoot, HistoryError, publicKeyPem, sealDaySync } from '../src/index.js';
import { listDayPaths, loadPublicKey, readDayFiles, verifyFolder } from '../src/node/index.js';
import { dayFiles, OTHER_PUBLIC_KEY, PRIVATE_KEY, PUBLIC_KEY, sealedChain, text, toHex } from './helpers.js';

let scratch: string;
let data: string;
let keyFile: string;
let records: DayRoot[];

async function writeDataFolder(folder: string, chain: readonly DayRoot[]): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  await mkdir(join(folder, 'roots'), { recursive: true });
  for (const record of chain) {
    await writeFile(join(folder, 'roots', `${record.day}.json`), JSON.stringify(record));
    for (const file of dayFiles(record.day)) {
      const path = join(folder, 'days', record.day, file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.bytes);
    }
  }
}

async function run(argv: string[], fetcher?: typeof fetch): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    ...(fetcher ? { fetch: fetcher } : {}),
  });
  return { code, out, err };
}

async function rejection(action: () => Promise<unknown>): Promise<HistoryError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof HistoryError) return error;
    throw error;
  }
  throw new Error('expected a HistoryError');
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'mcp-history-test-'));
  keyFile = join(scratch, 'public.pem');
  await writeFile(keyFile, publicKeyPem(PUBLIC_KEY));
  records = sealedChain('2026-09-29', 4); // 09-29 … 10-02
});

beforeEach(async () => {
  data = join(scratch, 'data');
  await writeDataFolder(data, records);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('readDayFiles and listDayPaths', () => {
  it('read every regular file with forward-slash paths, sorted, and seal to the same record', async () => {
    const files = await readDayFiles(join(data, 'days', '2026-10-01'));
    expect(files.map((file) => file.path)).toEqual([
      'catalogs/weather.json',
      'changes.json',
      'index.json',
      'reports.jsonl',
      'results/000.json',
      'results/001.json',
      'summary.json',
    ]);
    const record = records[2] as DayRoot;
    expect(
      sealDaySync({ day: record.day, files, previousRoot: record.previous_root, privateKey: PRIVATE_KEY }),
    ).toEqual(record);
  });

  it('skip symbolic links, so a link standing in for a file shows up as missing', async () => {
    const day = join(data, 'days', '2026-10-01');
    await rm(join(day, 'index.json'));
    await symlink(join(day, 'summary.json'), join(day, 'index.json'));
    expect(await listDayPaths(day)).not.toContain('index.json');
  });

  it('fail with FOLDER_UNREADABLE for a folder that does not exist', async () => {
    const error = await rejection(() => readDayFiles(join(scratch, 'nowhere')));
    expect(error.code).toBe('folder-unreadable');
    expect(error.message).toBe(`cannot read day folder ${JSON.stringify(join(scratch, 'nowhere'))}: ENOENT`);
  });
});

describe('loadPublicKey', () => {
  let base: string;
  let requests: string[];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const routes: Record<string, [number, string]> = {
      '/.well-known/mcp-atlas.json': [200, JSON.stringify({ integrity: { public_key_pem: publicKeyPem(PUBLIC_KEY) } })],
      '/key.pem': [200, publicKeyPem(PUBLIC_KEY)],
      '/empty.json': [200, JSON.stringify({ integrity: {} })],
      '/garbage': [200, 'not json, not pem'],
    };
    const [status, body] = routes[request.url ?? ''] ?? [404, 'not found'];
    response.writeHead(status).end(body);
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    requests = [];
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads a PEM file and a JSON well-known document saved as a file', async () => {
    expect(toHex(await loadPublicKey(keyFile))).toBe(toHex(PUBLIC_KEY));
    const saved = join(scratch, 'well-known.json');
    await writeFile(saved, JSON.stringify({ integrity: { public_key_pem: publicKeyPem(PUBLIC_KEY) } }));
    expect(toHex(await loadPublicKey(saved))).toBe(toHex(PUBLIC_KEY));
  });

  it('fetches the well-known document, adding its path to a bare origin', async () => {
    expect(toHex(await loadPublicKey(`${base}/.well-known/mcp-atlas.json`))).toBe(toHex(PUBLIC_KEY));
    expect(toHex(await loadPublicKey(base))).toBe(toHex(PUBLIC_KEY));
    expect(requests).toEqual(['/.well-known/mcp-atlas.json', '/.well-known/mcp-atlas.json']);
  });

  it('accepts a URL serving the PEM itself', async () => {
    expect(toHex(await loadPublicKey(`${base}/key.pem`))).toBe(toHex(PUBLIC_KEY));
  });

  it.each([
    ['/missing', 'key-unavailable', (b: string) => `GET ${b}/missing answered HTTP 404`],
    ['/empty.json', 'invalid-pem', (b: string) => `${b}/empty.json has no integrity.public_key_pem string`],
    ['/garbage', 'invalid-pem', (b: string) => `${b}/garbage is neither a PEM block nor JSON`],
  ])('refuses %s with a typed error', async (path, code, message) => {
    const error = await rejection(() => loadPublicKey(`${base}${path}`));
    expect(error.code).toBe(code);
    expect(error.message).toBe(message(base));
  });

  it('reports a network failure as KEY_UNAVAILABLE', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    const error = await rejection(() => loadPublicKey('https://atlas.invalid/', { fetch: failing }));
    expect(error.code).toBe('key-unavailable');
    expect(error.message).toBe('GET https://atlas.invalid/.well-known/mcp-atlas.json failed: fetch failed');
  });

  it('reports a missing key file and an empty source', async () => {
    const error = await rejection(() => loadPublicKey(join(scratch, 'absent.pem')));
    expect(error.code).toBe('key-unavailable');
    expect(error.message).toBe(`cannot read key file ${JSON.stringify(join(scratch, 'absent.pem'))}: ENOENT`);
    expect((await rejection(() => loadPublicKey(''))).message).toBe(
      'key source must be a file path or an http(s) URL, got ""',
    );
  });
});

describe('verifyFolder', () => {
  it('verifies the chain and every present day folder', async () => {
    expect(await verifyFolder({ roots: join(data, 'roots'), days: join(data, 'days'), publicKey: PUBLIC_KEY })).toEqual(
      {
        ok: true,
        days: 4,
        firstDay: '2026-09-29',
        lastDay: '2026-10-02',
        dayFolders: 4,
        files: 28,
        unboundDays: [],
      },
    );
  });

  it('checks only the records when there are no day folders', async () => {
    await rm(join(data, 'days', '2026-09-30'), { recursive: true });
    expect(await verifyFolder({ roots: join(data, 'roots'), days: join(data, 'days'), publicKey: PUBLIC_KEY })).toEqual(
      {
        ok: true,
        days: 4,
        firstDay: '2026-09-29',
        lastDay: '2026-10-02',
        dayFolders: 3,
        files: 21,
        unboundDays: [],
      },
    );
    expect(await verifyFolder({ roots: join(data, 'roots'), publicKey: PUBLIC_KEY })).toEqual({
      ok: true,
      days: 4,
      firstDay: '2026-09-29',
      lastDay: '2026-10-02',
      dayFolders: 0,
      files: 0,
      unboundDays: [],
    });
  });

  it('names the day and the file whose bytes changed', async () => {
    await writeFile(join(data, 'days', '2026-09-30', 'results', '001.json'), text('[]'));
    expect(await verifyFolder({ roots: join(data, 'roots'), days: join(data, 'days'), publicKey: PUBLIC_KEY })).toEqual(
      {
        ok: false,
        day: '2026-09-30',
        reason: 'day folder differs from its record: results/001.json does not match its line',
      },
    );
  });

  it('names missing and unlisted files, at most five, then counts the rest', async () => {
    const day = join(data, 'days', '2026-10-01');
    await rm(join(day, 'index.json'));
    for (const name of ['x1', 'x2', 'x3', 'x4', 'x5', 'x6']) await writeFile(join(day, `${name}.json`), '{}');
    expect(await verifyFolder({ roots: join(data, 'roots'), days: join(data, 'days'), publicKey: PUBLIC_KEY })).toEqual(
      {
        ok: false,
        day: '2026-10-01',
        reason:
          'day folder differs from its record: index.json is listed but missing; x1.json is not listed in the record; x2.json is not listed in the record; x3.json is not listed in the record; x4.json is not listed in the record; and 2 more',
      },
    );
  });

  it('reports the earliest broken day, whether the chain or a day folder broke', async () => {
    await writeFile(join(data, 'days', '2026-10-01', 'changes.json'), text('[1]'));
    const tampered = { ...(records[1] as DayRoot), signature: (records[0] as DayRoot).signature };
    await writeFile(join(data, 'roots', '2026-09-30.json'), JSON.stringify(tampered));
    expect(await verifyFolder({ roots: join(data, 'roots'), days: join(data, 'days'), publicKey: PUBLIC_KEY })).toEqual(
      {
        ok: false,
        day: '2026-09-30',
        reason: 'signature does not verify against the public key',
      },
    );
  });

  it('reports a record that is not JSON, or that sits under another day’s name', async () => {
    await writeFile(join(data, 'roots', '2026-10-01.json'), '{"day":');
    expect(await verifyFolder({ roots: join(data, 'roots'), publicKey: PUBLIC_KEY })).toEqual({
      ok: false,
      day: '2026-10-01',
      reason: '2026-10-01.json is not valid JSON',
    });
    await writeFile(join(data, 'roots', '2026-10-01.json'), JSON.stringify(records[3]));
    expect(await verifyFolder({ roots: join(data, 'roots'), publicKey: PUBLIC_KEY })).toEqual({
      ok: false,
      day: '2026-10-01',
      reason: '2026-10-01.json holds the record of "2026-10-02"',
    });
  });

  it('catches a missing day in the roots folder', async () => {
    await rm(join(data, 'roots', '2026-09-30.json'));
    expect(await verifyFolder({ roots: join(data, 'roots'), publicKey: PUBLIC_KEY })).toMatchObject({
      ok: false,
      day: '2026-10-01',
      reason: expect.stringContaining('previous_root matches no day in the chain') as string,
    });
  });

  it('ignores files that are not day records, and refuses a folder without any', async () => {
    await writeFile(join(data, 'roots', 'README.txt'), 'notes');
    await writeFile(join(data, 'roots', '2026-10-02.json.tmp'), 'partial');
    expect((await verifyFolder({ roots: join(data, 'roots'), publicKey: PUBLIC_KEY })).ok).toBe(true);
    const empty = join(scratch, 'empty-roots');
    await mkdir(empty, { recursive: true });
    const error = await rejection(() => verifyFolder({ roots: empty, publicKey: PUBLIC_KEY }));
    expect(error.code).toBe('no-roots');
    expect(error.message).toBe(`no day records (YYYY-MM-DD.json) in ${JSON.stringify(empty)}`);
    expect((await rejection(() => verifyFolder({ roots: join(scratch, 'nope'), publicKey: PUBLIC_KEY }))).code).toBe(
      'folder-unreadable',
    );
  });
});

describe('mcp-history', () => {
  it('prints verified and exits 0 for a data folder, a roots folder, and with explicit --days', async () => {
    for (const argv of [
      [data, '--key', keyFile],
      [join(data, 'roots'), '--key', keyFile],
      [join(data, 'roots'), '--key', keyFile, '--days', join(data, 'days')],
    ]) {
      const result = await run(argv);
      expect(result.code).toBe(EXIT_VERIFIED);
      expect(result.out).toEqual(['verified']);
      expect(result.err).toEqual(['4 days in the chain; 4 day folders with 28 files checked']);
    }
  });

  it('finds day folders next to a roots folder, and checks them', async () => {
    await writeFile(join(data, 'days', '2026-10-02', 'summary.json'), '{}');
    const result = await run([join(data, 'roots'), '--key', keyFile]);
    expect(result.code).toBe(EXIT_BROKEN);
    expect(result.out).toEqual([
      'broken 2026-10-02: day folder differs from its record: summary.json does not match its line',
    ]);
  });

  it('prints the first broken day with the reason and exits 1 under the wrong key', async () => {
    const other = join(scratch, 'other.pem');
    await writeFile(other, publicKeyPem(OTHER_PUBLIC_KEY));
    const result = await run([data, '--key', other]);
    expect(result.code).toBe(EXIT_BROKEN);
    expect(result.out).toEqual(['broken 2026-09-29: signature does not verify against the public key']);
  });

  it('takes the key from a well-known URL on loopback', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ integrity: { public_key_pem: publicKeyPem(PUBLIC_KEY) } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const result = await run([data, '--key', `http://127.0.0.1:${(server.address() as AddressInfo).port}`]);
      expect(result).toMatchObject({ code: EXIT_VERIFIED, out: ['verified'] });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('checks the first day against --anchor', async () => {
    const wrong = await run([data, '--key', keyFile, '--anchor', 'ab'.repeat(32)]);
    expect(wrong.code).toBe(EXIT_BROKEN);
    expect(wrong.out).toEqual([
      'broken 2026-09-29: previous_root is not the anchor root the chain was asked to continue',
    ]);
  });

  it.each([
    [[], 'mcp-history: expected one folder, got 0'],
    [['a', 'b', '--key', 'k'], 'mcp-history: expected one folder, got 2'],
    [['data'], 'mcp-history: missing --key <public key PEM file | well-known URL>'],
    [
      ['data', '--key', 'k', '--anchor', 'xyz'],
      'mcp-history: --anchor must be a root: 64 lowercase hex characters, got "xyz"',
    ],
  ])('exits 2 with a message for the arguments %j', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.out).toEqual([]);
    expect(result.err[0]).toBe(message);
    expect(result.err[1]).toMatch(/^usage: mcp-history <folder>/);
  });

  it('exits 2 for an unknown option, an unreadable key and a folder without records', async () => {
    expect((await run([data, '--key', keyFile, '--fast'])).code).toBe(EXIT_USAGE);
    const missingKey = await run([data, '--key', join(scratch, 'absent.pem')]);
    expect(missingKey.code).toBe(EXIT_USAGE);
    expect(missingKey.err).toEqual([
      `mcp-history: cannot read key file ${JSON.stringify(join(scratch, 'absent.pem'))}: ENOENT`,
    ]);
    const empty = join(scratch, 'no-records');
    await mkdir(empty, { recursive: true });
    const noRecords = await run([empty, '--key', keyFile]);
    expect(noRecords.code).toBe(EXIT_USAGE);
    expect(noRecords.err).toEqual([`mcp-history: no day records (YYYY-MM-DD.json) in ${JSON.stringify(empty)}`]);
  });

  it('prints its usage with --help and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(EXIT_VERIFIED);
    expect(result.out[0]).toMatch(/^usage: mcp-history <folder> --key/);
  });
});
