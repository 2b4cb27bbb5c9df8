// `verify --url BASE` against a raw node:http server on loopback that behaves badly on purpose: a body that
// drips forever, a body far over the cap, a service slower than the overall limit, a root served under the
// wrong day, and a key that differs from the one pinned with --key.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DayRoot,
  generateKeyPair,
  type KeyPair,
  previousRootFor,
  publicKeyPem,
  sealDaySync,
} from '@mcp-atlas/history';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT_FAILED, EXIT_OK, runCommand } from '../src/commands.js';
import { createLogger } from '../src/log.js';
import {
  DEFAULT_REMOTE_LIMITS,
  VERIFY_MAX_HISTORY_DAYS,
  VERIFY_MAX_ROOT_BYTES,
  VERIFY_MAX_WELL_KNOWN_BYTES,
  VERIFY_REQUEST_TIMEOUT_MS,
  VERIFY_TOTAL_TIMEOUT_MS,
  verifyRemote,
} from '../src/verify/verify-remote.js';

const NOW = new Date('2026-12-01T10:00:00Z');
const DAYS = ['2026-11-28', '2026-11-29', '2026-11-30'];
const VERIFIED = { ok: true, days: 3, firstDay: '2026-11-28', lastDay: '2026-11-30' };

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let keys: KeyPair;
let otherKeys: KeyPair;
let records: Map<string, DayRoot>;
let scratch: string;
const servers: Server[] = [];
const openResponses = new Set<ServerResponse>();

function sealRecords(pair: KeyPair): Map<string, DayRoot> {
  const roots = new Map<string, string>();
  const out = new Map<string, DayRoot>();
  for (const day of DAYS) {
    const files = [{ path: 'index.json', bytes: new TextEncoder().encode(JSON.stringify({ day })) }];
    const record = sealDaySync({ day, files, previousRoot: previousRootFor(day, roots), privateKey: pair.privateKey });
    roots.set(day, record.root);
    out.set(day, record);
  }
  return out;
}

/** Serves the well-known document and the roots like the app does, unless `override` answers first. */
function atlasLike(
  pair: KeyPair,
  served: Map<string, DayRoot>,
  override?: (url: URL, response: ServerResponse) => boolean,
): Handler {
  return (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (override?.(url, response) === true) return;
    response.setHeader('content-type', 'application/json');
    if (url.pathname === '/.well-known/mcp-atlas.json') {
      const latest = [...served.keys()].sort().at(-1) ?? null;
      response.end(JSON.stringify({ integrity: { public_key_pem: publicKeyPem(pair.publicKey), latest_day: latest } }));
      return;
    }
    const record = url.pathname === '/api/maps' ? served.get(url.searchParams.get('day') ?? '') : undefined;
    response.statusCode = record === undefined ? 404 : 200;
    response.end(JSON.stringify(record ?? { error: 'no root' }));
  };
}

async function serve(handler: Handler): Promise<string> {
  const server = createServer((request, response) => {
    openResponses.add(response);
    response.on('close', () => openResponses.delete(response));
    handler(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  keys = await generateKeyPair();
  otherKeys = await generateKeyPair();
  records = sealRecords(keys);
  scratch = await mkdtemp(join(tmpdir(), 'atlas-verify-remote-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  for (const response of openResponses) response.destroy();
  openResponses.clear();
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

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the limits', () => {
  it('are named constants with the documented values', () => {
    expect(VERIFY_REQUEST_TIMEOUT_MS).toBe(10_000);
    expect(VERIFY_TOTAL_TIMEOUT_MS).toBe(300_000);
    expect(VERIFY_MAX_WELL_KNOWN_BYTES).toBe(65_536);
    expect(VERIFY_MAX_ROOT_BYTES).toBe(8_388_608);
    expect(VERIFY_MAX_HISTORY_DAYS).toBe(3660);
    expect(DEFAULT_REMOTE_LIMITS).toEqual({
      requestTimeoutMs: 10_000,
      totalTimeoutMs: 300_000,
      maxWellKnownBytes: 65_536,
      maxRootBytes: 8_388_608,
    });
  });
});

describe('verifyRemote', () => {
  it('verifies a well-behaved service', async () => {
    const base = await serve(atlasLike(keys, records));
    expect(await verifyRemote(base, { now: NOW })).toEqual(VERIFIED);
  });

  it('cuts a body that drips one byte at a time at the per-request limit', async () => {
    let sent = 0;
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{');
      const timer = setInterval(() => {
        sent++;
        response.write(' ');
      }, 20);
      response.on('close', () => clearInterval(timer));
    });
    const started = performance.now();
    const verdict = await verifyRemote(base, { now: NOW, limits: { requestTimeoutMs: 300 } });
    const elapsed = performance.now() - started;
    // The body never ends, so the verdict itself shows the limit cut it; only the lower bound is the machine's
    // business to keep (a loaded machine makes the cut later, never sooner).
    expect(verdict).toEqual({ ok: false, day: '-', reason: 'GET /.well-known/mcp-atlas.json took longer than 300 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(sent).toBeGreaterThan(0); // the server was still sending when the client gave up
  });

  it('stops reading a huge body at the byte cap', async () => {
    let written = 0;
    let hungUp!: () => void;
    const closed = new Promise<void>((resolve) => {
      hungUp = resolve;
    });
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }); // no content-length: the body just keeps coming
      const pump = (): void => {
        while (written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end();
      };
      response.on('close', () => {
        response.removeAllListeners('drain');
        hungUp();
      });
      pump();
    });
    const verdict = await verifyRemote(base, { now: NOW, limits: { maxWellKnownBytes: 4096 } });
    expect(verdict).toEqual({
      ok: false,
      day: '-',
      reason: 'GET /.well-known/mcp-atlas.json is over 4096 bytes; stopped reading',
    });
    // The client hung up long before the 64 MB were sent (socket buffers hold some megabytes at most).
    await closed;
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses a declared content-length over the cap without reading the body', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      response.end(Buffer.alloc(100_000, 0x20));
    });
    expect(await verifyRemote(base, { now: NOW, limits: { maxWellKnownBytes: 4096 } })).toEqual({
      ok: false,
      day: '-',
      reason: 'GET /.well-known/mcp-atlas.json is over 4096 bytes (content-length 100000)',
    });
  });

  it('stops the whole run at the overall limit even when each request is within its own', async () => {
    const base = await serve(
      atlasLike(keys, new Map(), (url, response) => {
        if (url.pathname !== '/api/maps') return false;
        setTimeout(() => {
          response.statusCode = 404;
          response.end('{}');
        }, 60);
        return true;
      }),
    );
    const verdict = await verifyRemote(base, { now: NOW, limits: { requestTimeoutMs: 1_000, totalTimeoutMs: 400 } });
    expect(verdict.ok).toBe(false);
    expect(verdict).toMatchObject({
      day: '-',
      reason: expect.stringMatching(
        /^GET \/api\/maps\?a=root&day=\d{4}-\d{2}-\d{2}: the whole verification passed its limit of 400 ms$/,
      ),
    });
  });

  it('refuses a root served under another day', async () => {
    const swapped = new Map(records);
    swapped.set('2026-11-29', records.get('2026-11-28') as DayRoot);
    const base = await serve(atlasLike(keys, swapped));
    expect(await verifyRemote(base, { now: NOW })).toEqual({
      ok: false,
      day: '2026-11-29',
      reason: 'the root served for 2026-11-29 says it is the root of 2026-11-28',
    });
  });

  it('turns an error status and a record that is not a record into reasons', async () => {
    const failing = await serve(
      atlasLike(keys, records, (url, response) => {
        if (url.pathname !== '/api/maps') return false;
        response.statusCode = 500;
        response.end('{}');
        return true;
      }),
    );
    expect(await verifyRemote(failing, { now: NOW })).toEqual({
      ok: false,
      day: '-',
      reason: 'GET /api/maps for 2026-12-01 answered HTTP 500',
    });
    const garbled = await serve(
      atlasLike(keys, new Map([['2026-12-01', { day: '2026-12-01' } as unknown as DayRoot]])),
    );
    expect(await verifyRemote(garbled, { now: NOW })).toMatchObject({
      ok: false,
      day: '2026-12-01',
      reason: expect.stringContaining('the root served for 2026-12-01 is not a day record'),
    });
  });

  it('with a pinned key, refuses a service that serves another key', async () => {
    // The service signs with its own key and serves it: the chain is internally sound, but not ours.
    const base = await serve(atlasLike(otherKeys, sealRecords(otherKeys)));
    expect(await verifyRemote(base, { now: NOW })).toEqual(VERIFIED);
    expect(await verifyRemote(base, { now: NOW, pinnedKey: keys.publicKey })).toEqual({
      ok: false,
      day: '-',
      reason: 'the service publishes a different public key than the one pinned with --key; its history is not trusted',
    });
    const honest = await serve(atlasLike(keys, records));
    expect(await verifyRemote(honest, { now: NOW, pinnedKey: keys.publicKey })).toEqual(VERIFIED);
  });
});

describe('mcp-atlas verify --url BASE --key FILE', () => {
  it('prints the refusal for a wrong key and verified for the right one', async () => {
    await writeFile(join(scratch, 'ours.pem'), publicKeyPem(keys.publicKey));
    const impostor = await serve(atlasLike(otherKeys, sealRecords(otherKeys)));
    const honest = await serve(atlasLike(keys, records));
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true); // the days checked, not under test here
    // The command reads today from the clock; the served days are fixed, so "today" is pinned too.
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    try {
      expect(
        await runCommand(['verify', '--url', impostor, '--key', join(scratch, 'ours.pem')], createLogger('silent')),
      ).toBe(EXIT_FAILED);
      expect(
        await runCommand(['verify', '--url', honest, '--key', join(scratch, 'ours.pem')], createLogger('silent')),
      ).toBe(EXIT_OK);
    } finally {
      vi.useRealTimers();
    }
    expect(out).toBe(
      'broken: -: the service publishes a different public key than the one pinned with --key; its history is not trusted\nverified\n',
    );
  });
});
