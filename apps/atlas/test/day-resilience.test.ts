// One failure cannot stop or corrupt a day: a check that throws becomes that server's internal-error record,
// a catalog is written from the raw tool text (a list JSON.stringify cannot write is stored all the same),
// an origin whose read throws becomes an error entry, and a day whose folder is partial is never sealed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProbeInputError, type ProbeResult, probeServer } from '@mcp-atlas/probe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIndexPath, dayShardPath, daySummaryPath, ORIGINS_PATH } from '../src/data/paths.js';
import { CatalogSchema, type ServerDayResult, ShardFileSchema, type WatchedServer } from '../src/data/schemas.js';
import { INTERNAL_ERROR_REASON } from '../src/scan/check-server.js';
import { encodeOriginsFile, readOrigin, readOriginsOfDay } from '../src/scan/read-origins.js';
import { scanDay, shardOf } from '../src/scan/scan-day.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { DayNotFinishedError, sealDueDays, sealStoredDay } from '../src/seal/seal-day.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';

const DAY = '2026-12-01';
let mcp: { url: string; close(): Promise<void> };

beforeAll(async () => {
  // A minimal, correct MCP server on loopback (raw node:http), for the one check that runs for real.
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.method === 'notifications/initialized') return res.writeHead(202).end();
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'fine', version: '1' } }
          : { tools: [{ name: 'get_status', description: 'Reads the status.', inputSchema: { type: 'object' } }] };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mcp = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});

afterAll(async () => {
  await mcp.close();
});

function nestedObjects(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

/** A probe answer whose one tool has an input schema 100,000 levels deep, with its raw text (as a probe without a depth limit, or another transport, could hand over). */
function deepAnswer(url: string): ProbeResult {
  const toolsJson = `[{"name":"deep","description":"A very deep schema.","inputSchema":${nestedObjects(100_000)}}]`;
  return {
    url,
    endpoint: url,
    letter: 'o',
    reason: 'ok',
    message: 'answered with 1 tools over 1 page',
    failedStep: null,
    notStandardMcp: false,
    protocolVersion: '2025-06-18',
    supportedVersions: null,
    serverInfo: { name: 'deep', version: '1' },
    capabilities: { tools: {} },
    tools: JSON.parse(toolsJson) as unknown[],
    toolsJson,
    toolCount: 1,
    toolsTruncated: false,
    pages: 1,
    paymentAddress: null,
    authChallenge: null,
    sessionIssued: false,
    redirect: null,
    steps: [],
    warnings: [],
    elapsedMs: 5,
    rulesVersion: '1.0.0',
  };
}

describe('the daily scan goes on whatever one server does', () => {
  it('a check that throws becomes an internal-error record, and a list JSON.stringify cannot write is stored from its raw text', async () => {
    const storage = createMemoryStorage();
    const servers: WatchedServer[] = [
      { id: 'broken', url: 'https://broken.example/mcp', source: 'registry' },
      { id: 'deep', url: 'https://deep.example/mcp', source: 'registry' },
      { id: 'fine', url: mcp.url, source: 'registry' },
    ];
    const scan = await scanDay({
      day: DAY,
      servers,
      storage,
      methodologyVersion: 'test',
      shards: 1,
      probe: async (server) => {
        if (server.id === 'broken') throw new TypeError('the probe tripped over something');
        if (server.id === 'deep') return deepAnswer(server.url);
        return probeServer(server.url, { allowPrivate: true });
      },
    });
    const byId = new Map(scan.results.map((r) => [r.id, r]));
    expect(byId.get('broken')).toMatchObject({
      letter: 'd',
      reason: INTERNAL_ERROR_REASON,
      message: 'the check could not be recorded: TypeError: the probe tripped over something',
      steps: [],
    });
    expect(byId.get('fine')).toMatchObject({ letter: 'o', reason: 'ok', toolCount: 1 });
    expect(byId.get('deep')).toMatchObject({ letter: 'o', toolCount: 1 });
    // The shard was written with all three.
    const shard = ShardFileSchema.parse(await getJson(storage, dayShardPath(DAY, 0)));
    expect(shard.results.map((r: ServerDayResult) => r.id).sort()).toEqual(['broken', 'deep', 'fine']);
    // The deep catalog is on disk, reads back through CatalogSchema, and holds the server's own text.
    const text = new TextDecoder().decode((await storage.get(`days/${DAY}/catalogs/deep.json`)) as Uint8Array);
    expect(text).toContain(nestedObjects(100_000));
    const catalog = CatalogSchema.parse(JSON.parse(text));
    expect(catalog).toMatchObject({ id: 'deep', day: DAY, serverVersion: '1', verdicts: [{ name: 'deep' }] });
    // Re-serializing it, as the save used to, throws: the raw text is what keeps the day.
    expect(() => JSON.stringify(catalog)).toThrow(RangeError);
    // A normal catalog reads back equal to what the server listed.
    const fine = CatalogSchema.parse(await getJson(storage, `days/${DAY}/catalogs/fine.json`));
    expect(fine.tools).toEqual([
      { name: 'get_status', description: 'Reads the status.', inputSchema: { type: 'object' } },
    ]);
  });
});

describe('a configuration mistake is not a server failure', () => {
  it('a ProbeInputError (our own options are wrong, for every server) stops the scan instead of marking the fleet down', async () => {
    const storage = createMemoryStorage();
    const servers: WatchedServer[] = [{ id: 'fine', url: mcp.url, source: 'registry' }];
    const misconfigured = (server: WatchedServer) => probeServer(server.url, { allowPrivate: true, deadlineMs: -1 });
    await expect(
      scanDay({ day: DAY, servers, storage, methodologyVersion: 'test', shards: 1, probe: misconfigured }),
    ).rejects.toBeInstanceOf(ProbeInputError);
    expect(await storage.get(dayShardPath(DAY, 0))).toBeNull();
  });
});

describe('reading the origins goes on whatever one origin does', () => {
  it('an origin whose read throws becomes an error entry, and counts as allowed', async () => {
    // An HTTP client that breaks as it is made: an unexpected failure inside the probe's read.
    const broken = {
      allowPrivate: true,
      httpClient: () => {
        throw new TypeError('the client broke');
      },
    };
    const read = await readOrigin('https://thrown.example', broken);
    expect(read).toEqual({
      origin: 'https://thrown.example',
      robots: null,
      wellKnown: null,
      error: 'internal-error: TypeError: the client broke',
    });

    const storage = createMemoryStorage();
    const servers: WatchedServer[] = [
      { id: 'a', url: 'https://a.example/mcp', source: 'registry' },
      { id: 'b', url: 'https://b.example/mcp', source: 'registry' },
    ];
    const excluded = await readOriginsOfDay({ storage, network: broken, concurrency: 2 }, DAY, servers);
    expect([...excluded]).toEqual([]);
    const saved = (await getJson(storage, ORIGINS_PATH)) as {
      day: string;
      excluded: string[];
      origins: { origin: string; error: string }[];
    };
    expect(saved).toMatchObject({ day: DAY, excluded: [] });
    expect(saved.origins.map((o) => o.origin)).toEqual(['https://a.example', 'https://b.example']);
    // Our own wrong options are not an origin's failure: the read stops, and no day's file says "allowed".
    const other = createMemoryStorage();
    await expect(
      readOriginsOfDay(
        { storage: other, network: { allowPrivate: 'yes' as unknown as boolean }, concurrency: 2 },
        DAY,
        servers,
      ),
    ).rejects.toBeInstanceOf(ProbeInputError);
    expect(await other.get(ORIGINS_PATH)).toBeNull();
  });

  it('an entry JSON.stringify cannot write is replaced by its error note; the rest of the file is kept', () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 20_000; i++) cursor = (cursor.a = {}) as Record<string, unknown>;
    const bytes = encodeOriginsFile(
      DAY,
      ['https://closed.example'],
      [
        {
          origin: 'https://deep.example',
          robots: null,
          wellKnown: {
            origin: 'https://deep.example',
            oauthProtectedResource: { url: 'x', httpStatus: 200, found: true, document: deep, detail: null },
            agentCard: { url: 'y', httpStatus: 404, found: false, document: null, detail: 'answered 404' },
          },
        },
        { origin: 'https://fine.example', robots: null, wellKnown: null },
      ],
    );
    const saved = JSON.parse(new TextDecoder().decode(bytes)) as {
      day: string;
      excluded: string[];
      origins: { origin: string; error?: string }[];
    };
    expect(saved.day).toBe(DAY);
    expect(saved.excluded).toEqual(['https://closed.example']);
    expect(saved.origins[0]).toMatchObject({ origin: 'https://deep.example', wellKnown: null });
    expect(saved.origins[0]?.error).toMatch(/^internal-error: RangeError/);
    expect(saved.origins[1]).toEqual({ origin: 'https://fine.example', robots: null, wellKnown: null });
  });
});

/** A finished day of two shards: 'a' in one, 'b' in the other, each with its shard file, and the summary. */
async function writeFinishedDay(storage: Storage, day: string): Promise<{ shardOfA: number; shardOfB: number }> {
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  const byShard = new Map<number, string[]>();
  for (const id of ids) byShard.set(shardOf(id, 2), [...(byShard.get(shardOf(id, 2)) ?? []), id]);
  const [first, second] = [byShard.get(0) ?? [], byShard.get(1) ?? []];
  expect(first.length).toBeGreaterThan(0);
  expect(second.length).toBeGreaterThan(0);
  await putJson(storage, dayIndexPath(day), {
    day,
    methodologyVersion: 'test',
    shards: 2,
    servers: ids.map((id) => ({ id, url: `https://${id}.example/mcp`, shard: shardOf(id, 2) })),
    order: [0, 1],
  });
  for (const shard of [0, 1]) await putJson(storage, dayShardPath(day, shard), { day, shard, results: [] });
  await putJson(storage, daySummaryPath(day), {
    day,
    methodologyVersion: 'test',
    servers: 6,
    letters: { o: 6, a: 0, p: 0, d: 0 },
    tools: 0,
    changes: 0,
    riskRises: 0,
    skippedByCap: 0,
  });
  return { shardOfA: first.length, shardOfB: second.length };
}

describe('sealing only finished days', () => {
  it('refuses a day with a missing shard file, unless the daily cost cap skipped exactly that shard', async () => {
    const storage = createMemoryStorage();
    const keys = await loadOrCreateSigningKeys(storage, new Date('2026-12-02T00:00:00Z'));
    const { shardOfB } = await writeFinishedDay(storage, DAY);
    await storage.delete(dayShardPath(DAY, 1));
    const refusal = await sealStoredDay(storage, DAY, keys).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(DayNotFinishedError);
    expect((refusal as Error).message).toBe(
      `Day ${DAY} is not sealed: shard files results/001.json are missing (${shardOfB} servers), and the summary says the daily cost cap skipped 0: the folder is partial`,
    );
    expect(await storage.get(`roots/${DAY}.json`)).toBeNull();
    // One server fewer than the shard holds is still not the cap's record of it.
    const summary = (await getJson(storage, daySummaryPath(DAY))) as Record<string, unknown>;
    await putJson(storage, daySummaryPath(DAY), { ...summary, skippedByCap: shardOfB - 1 });
    await expect(sealStoredDay(storage, DAY, keys)).rejects.toBeInstanceOf(DayNotFinishedError);
    // The summary says the cap left exactly those servers for the next day: the day is whole, and seals.
    await putJson(storage, daySummaryPath(DAY), { ...summary, skippedByCap: shardOfB });
    const record = await sealStoredDay(storage, DAY, keys);
    expect(record.files.map((line) => line.split('  ')[1])).toEqual(['index.json', 'results/000.json', 'summary.json']);
  });

  it('refuses a day without its summary (the scan has not finished)', async () => {
    const storage = createMemoryStorage();
    const keys = await loadOrCreateSigningKeys(storage, new Date('2026-12-02T00:00:00Z'));
    await writeFinishedDay(storage, DAY);
    await storage.delete(daySummaryPath(DAY));
    await expect(sealStoredDay(storage, DAY, keys)).rejects.toThrow(
      `Day ${DAY} is not sealed: days/${DAY}/summary.json is missing or unreadable, so the day's scan has not finished`,
    );
  });

  it('catch-up skips an unfinished day, reports it, and seals the finished ones', async () => {
    const storage = createMemoryStorage();
    const keys = await loadOrCreateSigningKeys(storage, new Date('2026-12-03T00:00:00Z'));
    await writeFinishedDay(storage, '2026-11-30');
    await writeFinishedDay(storage, DAY);
    await writeFinishedDay(storage, '2026-12-02');
    await storage.delete(dayShardPath(DAY, 0));
    const reported: [string, string][] = [];
    const written = await sealDueDays(storage, '2026-12-03', keys, (day, reason) => reported.push([day, reason]));
    expect(written.map((record) => record.day)).toEqual(['2026-11-30', '2026-12-02']);
    expect(reported).toHaveLength(1);
    expect(reported[0]?.[0]).toBe(DAY);
    expect(reported[0]?.[1]).toMatch(/^shard files results\/000\.json are missing/);
    // The next finished day chains to the last sealed one before it.
    const roots = written.map((record) => record.root);
    expect(written[1]?.previous_root).toBe(roots[0]);
  });
});
