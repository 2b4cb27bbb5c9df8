// Sealing a day, checked by our own verifier and independently by node:crypto alone, following
// the seed's published verification steps (sha256 over the preimage, Ed25519 over the root's bytes).
import { createHash, createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeRoot,
  type DayRoot,
  dayLines,
  HistoryError,
  previousRootFor,
  publicKeyPem,
  sealDay,
  sealDaySync,
  verifyDayRoot,
} from '../src/index.js';
import { nodeSha256 } from '../src/node/index.js';
import { dayFiles, PRIVATE_KEY, PUBLIC_KEY, sealedChain, text } from './helpers.js';

/** The seed's verification logic, with node:crypto and nothing from this package but the PEM. */
function snippetSays(record: DayRoot, pem: string): 'verified' | 'mismatch' {
  const root = createHash('sha256')
    .update(`${record.previous_root || ''}\n${record.files.join('\n')}`)
    .digest('hex');
  const ok = verify(
    null,
    Buffer.from(record.root, 'hex'),
    createPublicKey(pem),
    Buffer.from(record.signature, 'base64'),
  );
  return root === record.root && ok ? 'verified' : 'mismatch';
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

describe('sealDay', () => {
  it('returns the five fields, with sorted lines, the chained root and a 64-byte signature', async () => {
    const previousRoot = 'c0'.repeat(32);
    const record = await sealDay({
      day: '2026-10-02',
      files: dayFiles('2026-10-02'),
      previousRoot,
      privateKey: PRIVATE_KEY,
    });
    expect(Object.keys(record)).toEqual(['day', 'root', 'previous_root', 'files', 'signature']);
    expect(record.day).toBe('2026-10-02');
    expect(record.previous_root).toBe(previousRoot);
    expect(record.files).toEqual(dayLines(dayFiles('2026-10-02')));
    expect(record.files.map((line) => line.slice(66))).toEqual([
      'catalogs/weather.json',
      'changes.json',
      'index.json',
      'reports.jsonl',
      'results/000.json',
      'results/001.json',
      'summary.json',
    ]);
    expect(record.root).toBe(computeRoot(previousRoot, record.files));
    expect(Buffer.from(record.signature, 'base64')).toHaveLength(64);
    expect(await verifyDayRoot(record, PUBLIC_KEY)).toBe(true);
  });

  it('is deterministic: the same day, files and key give the same record', async () => {
    const input = { day: '2026-10-02', files: dayFiles('2026-10-02'), previousRoot: null, privateKey: PRIVATE_KEY };
    expect(await sealDay(input)).toEqual(await sealDay(input));
  });

  it('gives the same record with the node:crypto hash hook', async () => {
    const input = { day: '2026-10-02', files: dayFiles('2026-10-02'), previousRoot: null, privateKey: PRIVATE_KEY };
    expect(await sealDay({ ...input, sha256: nodeSha256 })).toEqual(sealDaySync(input));
  });

  it('seals a day with no files: its root is sha256(previous root + "\\n")', async () => {
    const record = await sealDay({ day: '2026-10-02', files: [], previousRoot: null, privateKey: PRIVATE_KEY });
    expect(record.files).toEqual([]);
    expect(record.root).toBe('01ba4719c80b6fe911b091a7c05124b64eeece964e09c058ef8f9805daca546b');
  });

  it('refuses a day that already has a root', async () => {
    const error = await rejection(() =>
      sealDay({
        day: '2026-10-02',
        files: [],
        previousRoot: null,
        privateKey: PRIVATE_KEY,
        sealed: new Set(['2026-10-02']),
      }),
    );
    expect(error.code).toBe('already-sealed');
    expect(error.message).toBe('day 2026-10-02 already has a root; a sealed day is never signed again');
    await expect(
      sealDay({
        day: '2026-10-03',
        files: [],
        previousRoot: null,
        privateKey: PRIVATE_KEY,
        sealed: new Set(['2026-10-02']),
      }),
    ).resolves.toMatchObject({ day: '2026-10-03' });
  });

  it.each([
    [
      'a malformed day',
      { day: '2026-10-2' },
      'invalid-day',
      'day must be a real calendar date written YYYY-MM-DD, got "2026-10-2"',
    ],
    [
      'an upper-case previous root',
      { previousRoot: 'AB'.repeat(32) },
      'invalid-root',
      `previousRoot must be null or 64 lowercase hex characters, got "${'AB'.repeat(32)}"`,
    ],
    [
      'an empty previous root (use null)',
      { previousRoot: '' },
      'invalid-root',
      'previousRoot must be null or 64 lowercase hex characters, got ""',
    ],
    ['a 31-byte key', { privateKey: new Uint8Array(31) }, 'invalid-key', 'private key must be 32 bytes, got 31'],
    [
      'a 64-byte expanded key',
      { privateKey: new Uint8Array(64) },
      'invalid-key',
      'private key must be 32 bytes, got 64',
    ],
    [
      'a path escaping the folder',
      { files: [{ path: '../roots/2026-10-01.json', bytes: text('x') }] },
      'invalid-path',
      'path "../roots/2026-10-01.json" is refused: it has a ".." segment',
    ],
    [
      'a path given twice',
      {
        files: [
          { path: 'a.json', bytes: text('x') },
          { path: 'a.json', bytes: text('y') },
        ],
      },
      'duplicate-path',
      'path "a.json" appears more than once',
    ],
  ])('rejects %s with a typed error', async (_name, change, code, message) => {
    const input = {
      day: '2026-10-02',
      files: dayFiles('2026-10-02'),
      previousRoot: null,
      privateKey: PRIVATE_KEY,
      ...change,
    };
    const error = await rejection(() => sealDay(input as Parameters<typeof sealDay>[0]));
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
  });

  it('rejects input that is not an object', async () => {
    const error = await rejection(() => sealDay(null as unknown as Parameters<typeof sealDay>[0]));
    expect(error.code).toBe('invalid-input');
    expect(error.message).toBe('sealDay needs { day, files, previousRoot, privateKey }, got null');
  });
});

describe('the seed verification snippet, with node:crypto alone, verifies what sealDay signs', () => {
  it('verifies a single sealed day', async () => {
    const record = await sealDay({
      day: '2026-10-02',
      files: dayFiles('2026-10-02'),
      previousRoot: null,
      privateKey: PRIVATE_KEY,
    });
    expect(snippetSays(record, publicKeyPem(PUBLIC_KEY))).toBe('verified');
  });

  it('verifies every day of a chained month', () => {
    for (const record of sealedChain('2026-09-20', 30)) {
      expect(snippetSays(record, publicKeyPem(PUBLIC_KEY))).toBe('verified');
    }
  });

  it('says mismatch when a line or the signature is changed', async () => {
    const record = await sealDay({
      day: '2026-10-02',
      files: dayFiles('2026-10-02'),
      previousRoot: null,
      privateKey: PRIVATE_KEY,
    });
    const changedLine = { ...record, files: record.files.map((line, i) => (i === 0 ? `0${line.slice(1)}` : line)) };
    const otherSignature = (
      await sealDay({ day: '2026-10-03', files: [], previousRoot: null, privateKey: PRIVATE_KEY })
    ).signature;
    expect(snippetSays(changedLine, publicKeyPem(PUBLIC_KEY))).toBe('mismatch');
    expect(snippetSays({ ...record, signature: otherSignature }, publicKeyPem(PUBLIC_KEY))).toBe('mismatch');
  });

  it('verifies any day of files, with or without a previous root', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            path: fc.stringMatching(/^[a-z0-9_-]{1,6}(\/[a-z0-9_.-]{1,6}){0,2}$/),
            bytes: fc.uint8Array({ maxLength: 64 }),
          }),
          { selector: (file) => file.path, maxLength: 8 },
        ),
        fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: null }),
        (files, previousRoot) => {
          fc.pre(files.every(({ path }) => !path.split('/').some((segment) => segment === '.' || segment === '..')));
          const record = sealDaySync({ day: '2026-10-02', files, previousRoot, privateKey: PRIVATE_KEY });
          expect(snippetSays(record, publicKeyPem(PUBLIC_KEY))).toBe('verified');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('prints verified when pointed at a host serving the record and the well-known document', async () => {
    const days = sealedChain('2026-09-30', 3);
    const roots = new Map(days.map((record) => [record.day, record]));
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body =
        url.pathname === '/.well-known/mcp-atlas.json'
          ? { integrity: { public_key_pem: publicKeyPem(PUBLIC_KEY) } }
          : url.pathname === '/api/maps' && url.searchParams.get('a') === 'root'
            ? roots.get(url.searchParams.get('day') ?? '')
            : undefined;
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body ?? { error: 'not found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const day = '2026-10-02';
      const wk = (await (await fetch(`${base}/.well-known/mcp-atlas.json`)).json()) as {
        integrity: { public_key_pem: string };
      };
      const r = (await (await fetch(`${base}/api/maps?a=root&day=${day}`)).json()) as DayRoot;
      expect(r.previous_root).toBe(previousRootFor(day, new Map(days.map((d) => [d.day, d.root]))));
      expect(snippetSays(r, wk.integrity.public_key_pem)).toBe('verified');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
