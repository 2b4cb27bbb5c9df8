// One hostile origin cannot stop a day. A loopback registry (raw node:http, the registry's v0.1 shape) lists
// healthy servers (the SDK's McpServer over Streamable HTTP) and hostile ones (raw node:http): a 6,000-deep
// oauth-protected-resource document, an initialize answer and a tool schema nested far past the probe's
// limit, junk tool names, and a tool list over the stored-text cap. `mcp-atlas scan --registry URL
// --allow-private --day D` must exit 0 with a result and a reason for every server, and `mcp-atlas seal
// --day D` must then seal the day.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_RULES } from '@mcp-atlas/probe/rules';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { runCommand } from '../src/commands.js';
import { CatalogSchema, type ServerDayResult, ShardFileSchema } from '../src/data/schemas.js';
import { serverIdFor } from '../src/data/server-id.js';
import { createLogger } from '../src/log.js';

const DAY = '2026-12-01';

interface Running {
  origin: string;
  close(): Promise<void>;
}

const running: Running[] = [];
let dataDir = '';
let registry: Running;

/** A node:http server on 127.0.0.1 that reads each body, then hands it to `handle`; closes every socket on close. */
async function startHttp(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => unknown,
): Promise<Running> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      Promise.resolve(handle(req, res, Buffer.concat(chunks).toString('utf8'))).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const started: Running = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  running.push(started);
  return started;
}

function sendText(res: http.ServerResponse, status: number, text: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A healthy server: the SDK's McpServer over Streamable HTTP (stateless, one transport per request). */
function startSdkServer(name: string, tools: number): Promise<Running> {
  return startHttp(async (req, res, body) => {
    if (req.url !== '/mcp') return sendText(res, 404, '{}');
    const server = new McpServer({ name, version: '1.0.0' });
    for (let i = 0; i < tools; i++) {
      server.registerTool(
        `read_record_${i}`,
        {
          description: `Reads record ${i} of ${name}.`,
          inputSchema: { id: z.string() },
          annotations: { readOnlyHint: true },
        },
        async () => ({ content: [{ type: 'text', text: 'ok' }] }),
      );
    }
    // No sessionIdGenerator: the transport runs stateless.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, body === '' ? undefined : (JSON.parse(body) as unknown));
  });
}

const INIT =
  '{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1.0.0"}}';

/**
 * A hand-written MCP server (raw node:http): answers initialize with `initResult` (raw JSON text), tools/list
 * with `toolsText` (the raw tools array), and other paths through `extra` (well-known documents).
 */
function startRawMcp(initResult: string, toolsText: string, extra: Record<string, string> = {}): Promise<Running> {
  return startHttp((req, res, body) => {
    const path = req.url ?? '/';
    if (path !== '/mcp')
      return extra[path] !== undefined ? sendText(res, 200, extra[path] as string) : sendText(res, 404, '{}');
    if (req.method !== 'POST') return sendText(res, 405, '{}');
    const message = JSON.parse(body) as { id?: number; method?: string };
    if (message.method === 'notifications/initialized') {
      res.writeHead(202);
      return res.end();
    }
    if (message.method === 'initialize')
      return sendText(res, 200, `{"jsonrpc":"2.0","id":${String(message.id)},"result":${initResult}}`);
    if (message.method === 'tools/list')
      return sendText(res, 200, `{"jsonrpc":"2.0","id":${String(message.id)},"result":{"tools":${toolsText}}}`);
    return sendText(
      res,
      200,
      `{"jsonrpc":"2.0","id":${String(message.id)},"error":{"code":-32601,"message":"no such method"}}`,
    );
  });
}

function nestedObjects(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

const GOOD_TOOL =
  '{"name":"get_status","description":"Reads the status.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}';
const HUGE_NAME = 'n'.repeat(200_000);
const CONTROL_NAME = 'bad\u0000\u001b[31mname\n\u2028';

/** The servers of the day, by registry name. */
const names = {
  healthyA: 'io.test/healthy-a',
  healthyB: 'io.test/healthy-b',
  healthyC: 'io.test/healthy-c',
  deepOauth: 'io.test/deep-oauth',
  deepInit: 'io.test/deep-initialize',
  deepSchema: 'io.test/deep-schema',
  junkNames: 'io.test/junk-names',
  overCap: 'io.test/over-cap',
} as const;

const urls = new Map<string, string>();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'atlas-hostile-'));
  urls.set(names.healthyA, `${(await startSdkServer('healthy-a', 2)).origin}/mcp`);
  urls.set(names.healthyB, `${(await startSdkServer('healthy-b', 5)).origin}/mcp`);
  urls.set(names.healthyC, `${(await startSdkServer('healthy-c', 1)).origin}/mcp`);
  // Its MCP endpoint is fine; its origin's OAuth metadata is 6,000 levels deep (about 30 KB).
  urls.set(
    names.deepOauth,
    `${(await startRawMcp(INIT, `[${GOOD_TOOL}]`, { '/.well-known/oauth-protected-resource': nestedObjects(6_000) })).origin}/mcp`,
  );
  const deepInit = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"deep","version":"1"},"_meta":${nestedObjects(6_000)}}`;
  urls.set(names.deepInit, `${(await startRawMcp(deepInit, `[${GOOD_TOOL}]`)).origin}/mcp`);
  const deepTool = `{"name":"deep","description":"A schema nested 100,000 levels.","inputSchema":${nestedObjects(100_000)}}`;
  urls.set(names.deepSchema, `${(await startRawMcp(INIT, `[${GOOD_TOOL},${deepTool}]`)).origin}/mcp`);
  const junk = [
    '42',
    'null',
    '{"name":{"a":[1,2]}}',
    `{"name":"${HUGE_NAME}","description":"Huge name."}`,
    `{"name":${JSON.stringify(CONTROL_NAME)},"description":"Control characters."}`,
    '"just a string"',
    '[]',
    GOOD_TOOL,
  ];
  urls.set(names.junkNames, `${(await startRawMcp(INIT, `[${junk.join(',')}]`)).origin}/mcp`);
  // 500 tools of about 2,500 bytes each: 1.25 MB of raw text, over the 1 MiB kept.
  const heavy = Array.from({ length: 500 }, (_, i) =>
    JSON.stringify({ name: `heavy_${i}`, description: 'd'.repeat(2_400), inputSchema: { type: 'object' } }),
  );
  urls.set(names.overCap, `${(await startRawMcp(INIT, `[${heavy.join(',')}]`)).origin}/mcp`);

  const listing = {
    servers: [...urls].map(([name, url]) => ({
      server: { name, version: '1.0.0', remotes: [{ type: 'streamable-http', url }] },
      _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', isLatest: true } },
    })),
    metadata: { count: urls.size },
  };
  registry = await startHttp((req, res) => {
    if ((req.url ?? '').startsWith('/v0.1/servers')) return sendText(res, 200, JSON.stringify(listing));
    return sendText(res, 404, '{}');
  });
});

afterAll(async () => {
  for (const server of running.splice(0)) await server.close();
  await rm(dataDir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

async function readJsonFile(path: string): Promise<unknown> {
  return JSON.parse(await readFile(join(dataDir, path), 'utf8')) as unknown;
}

async function dayResults(): Promise<Map<string, ServerDayResult>> {
  const results = new Map<string, ServerDayResult>();
  for (const file of await readdir(join(dataDir, `days/${DAY}/results`))) {
    for (const result of ShardFileSchema.parse(await readJsonFile(`days/${DAY}/results/${file}`)).results)
      results.set(result.id, result);
  }
  return results;
}

describe('a day with hostile origins', () => {
  it('scans with --allow-private (exit 0, every server a result with a reason), then seals', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const log = createLogger('silent');
    const registryUrl = registry.origin;
    expect(
      await runCommand(['scan', '--data', dataDir, '--registry', registryUrl, '--allow-private', '--day', DAY], log),
    ).toBe(0);

    const results = await dayResults();
    const of = (name: string): ServerDayResult => {
      const result = results.get(serverIdFor(name));
      expect(result, name).toBeDefined();
      return result as ServerDayResult;
    };
    expect(results.size).toBe(urls.size);
    for (const result of results.values()) expect(result.reason.length, result.id).toBeGreaterThan(0);

    // Healthy servers answer with their tools.
    expect(of(names.healthyA)).toMatchObject({ letter: 'o', reason: 'ok', toolCount: 2 });
    expect(of(names.healthyB)).toMatchObject({ letter: 'o', reason: 'ok', toolCount: 5 });
    expect(of(names.healthyC)).toMatchObject({ letter: 'o', reason: 'ok', toolCount: 1 });

    // The deep OAuth document is refused where it is read; the server itself answers normally.
    expect(of(names.deepOauth)).toMatchObject({ letter: 'o', reason: 'ok', toolCount: 1 });
    const origins = (await readJsonFile('state/origins.json')) as {
      day: string;
      origins: { origin: string; wellKnown: { oauthProtectedResource: { found: boolean; detail: string } } | null }[];
    };
    expect(origins.day).toBe(DAY);
    const deepOrigin = new URL(urls.get(names.deepOauth) as string).origin;
    expect(origins.origins.find((o) => o.origin === deepOrigin)?.wellKnown?.oauthProtectedResource).toMatchObject({
      found: false,
      detail: `too-deep: the document nests deeper than ${SESSION_RULES.maxJsonDepth} levels`,
    });

    // Answers nested past the limit are results with their own reason.
    expect(of(names.deepInit)).toMatchObject({
      letter: 'd',
      reason: 'too-deep',
      message: `the initialize answer nests deeper than ${SESSION_RULES.maxJsonDepth} levels`,
    });
    expect(of(names.deepSchema)).toMatchObject({
      letter: 'd',
      reason: 'too-deep',
      message: `tools/list page 1 nests deeper than ${SESSION_RULES.maxJsonDepth} levels`,
    });

    // Junk names are kept and reported on, never a crash.
    const junk = of(names.junkNames);
    expect(junk).toMatchObject({ letter: 'o', reason: 'ok', toolCount: 8 });
    expect(junk.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['missing-descriptions', 'missing-schema']));
    const junkCatalog = CatalogSchema.parse(
      await readJsonFile(`days/${DAY}/catalogs/${serverIdFor(names.junkNames)}.json`),
    );
    expect(junkCatalog.tools).toHaveLength(8);
    expect(junkCatalog.verdicts.map((v) => v.name)).toEqual([
      '',
      '',
      '',
      HUGE_NAME,
      CONTROL_NAME,
      '',
      '',
      'get_status',
    ]);

    // A list over the text cap is cut on a tool boundary, and says so.
    const heavy = of(names.overCap);
    expect(heavy.letter).toBe('o');
    expect(heavy.toolCount).toBeGreaterThan(400);
    expect(heavy.toolCount).toBeLessThan(500);
    expect(heavy.findings.find((f) => f.id === 'tool-list-cut')?.message).toMatch(
      /^The tool list is [\d,]+ bytes of JSON, over the 1,048,576 kept per check; only the first \d+ of 500 tools were kept\.$/,
    );
    const heavyPath = `days/${DAY}/catalogs/${serverIdFor(names.overCap)}.json`;
    const heavyCatalog = CatalogSchema.parse(await readJsonFile(heavyPath));
    expect(heavyCatalog.tools).toHaveLength(heavy.toolCount);
    const heavyText = await readFile(join(dataDir, heavyPath), 'utf8');
    // The stored file holds the kept tools' text (at most the cap) plus a short verdict per tool.
    expect(Buffer.byteLength(heavyText)).toBeLessThan(SESSION_RULES.maxToolsJsonBytes + heavy.toolCount * 400);

    // The day is finished and seals.
    expect(await readJsonFile(`days/${DAY}/summary.json`)).toMatchObject({ day: DAY, servers: urls.size });
    expect(await runCommand(['seal', '--data', dataDir, '--day', DAY], log)).toBe(0);
    const root = (await readJsonFile(`roots/${DAY}.json`)) as { day: string; files: string[] };
    expect(root.day).toBe(DAY);
    expect(root.files.map((line) => line.split('  ')[1])).toEqual(
      expect.arrayContaining(['index.json', 'summary.json', `catalogs/${serverIdFor(names.overCap)}.json`]),
    );
  });

  it('without --allow-private, the loopback registry is refused before any request', async () => {
    const other = await mkdtemp(join(tmpdir(), 'atlas-hostile-guarded-'));
    try {
      await expect(
        runCommand(['scan', '--data', other, '--registry', registry.origin, '--day', DAY], createLogger('silent')),
      ).rejects.toThrow(/guard:/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
