// The whole list's size (as 7Maps measures it): only what is kept is capped at 500 tools, while the size
// the token estimate and heavy-tool-list read is the JSON of every tool listed, all pages read. Against real
// loopback servers: 520 tools over two pages (300 + 220), and one page of 520 written with odd spacing.
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_TOOLS_KEPT } from '../src/constants.js';
import { type ProbeResult, ProbeResultSchema, probeServer } from '../src/index.js';
import { RESERIALIZED_WARNING, ToolCollector } from '../src/interpret.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { type LocalServer, rpc, sendJson, startScriptedServer } from './fixtures/servers.js';

const servers: LocalServer[] = [];
afterAll(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function probe(url: string): Promise<ProbeResult> {
  const result = await probeServer(url, { allowPrivate: true, httpClient: createNodeHttpClient });
  expect(ProbeResultSchema.parse(result)).toEqual(result);
  return result;
}

/** A standard tool whose JSON (as JSON.stringify writes it) is exactly `length` characters. */
function toolOfLength(index: number, length: number): Record<string, unknown> {
  // `{"name":"tool_000","description":"","inputSchema":{"type":"object"}}` is 68 characters.
  const tool = {
    name: `tool_${String(index).padStart(3, '0')}`,
    description: 'd'.repeat(length - 68),
    inputSchema: { type: 'object' },
  };
  expect(JSON.stringify(tool)).toHaveLength(length);
  return tool;
}

// 500 tools of 76 characters, then 20 of 74. Whole list: `[` + 500 × 76 + 20 × 74 + 519 commas + `]`
// = 2 + 38,000 + 1,480 + 519 = 40,001 characters, one over the 40,000 of heavy-tool-list. The kept 500:
// 2 + 38,000 + 499 commas = 38,501.
const TOOLS = Array.from({ length: 520 }, (_, i) => toolOfLength(i, i < 500 ? 76 : 74));
const WHOLE_CHARS = 40_001;
const KEPT_CHARS = 38_501;

describe('the whole list is measured past the 500-tool cap', () => {
  it('520 tools over 300 + 220: listedJson holds all 520 (40,001 chars), toolsJson the kept 500 (38,501)', async () => {
    const server = await startScriptedServer({ tools: TOOLS, pageSize: 300 });
    servers.push(server);
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'o', pages: 2, toolCount: 520, toolsTruncated: true });
    expect(result.tools).toHaveLength(MAX_TOOLS_KEPT);
    expect(result.listedJson).toHaveLength(WHOLE_CHARS);
    expect(JSON.parse(result.listedJson ?? 'null')).toEqual(TOOLS);
    expect(result.toolsJson).toHaveLength(KEPT_CHARS);
    expect(JSON.parse(result.toolsJson ?? 'null')).toEqual(TOOLS.slice(0, MAX_TOOLS_KEPT));
    expect(result.warnings).not.toContain(RESERIALIZED_WARNING);
  });

  it('one page of 520 tools: listedJson is the array text exactly as written, spacing included', async () => {
    let body = '';
    const server = await startScriptedServer({
      tools: TOOLS,
      override: (_req, res, message) => {
        if (message?.method !== 'tools/list') return false;
        body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: TOOLS } }, null, 1);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
        return true;
      },
    });
    servers.push(server);
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'o', pages: 1, toolCount: 520, toolsTruncated: true });
    const array = JSON.stringify(TOOLS, null, 1).replaceAll('\n', '\n  ');
    expect(body).toContain(array);
    expect(result.listedJson).toBe(array);
    expect(JSON.parse(result.toolsJson ?? 'null')).toEqual(TOOLS.slice(0, MAX_TOOLS_KEPT));
  });

  it('a list within the cap: listedJson is the same text as toolsJson', async () => {
    const tools = TOOLS.slice(0, 7);
    const server = await startScriptedServer({ tools, pageSize: 3 });
    servers.push(server);
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'o', pages: 3, toolCount: 7, toolsTruncated: false });
    expect(result.listedJson).toBe(`[${tools.map((tool) => JSON.stringify(tool)).join(',')}]`);
    expect(result.listedJson).toBe(result.toolsJson);
    expect(server.requests.filter((r) => rpc(r.body)?.method === 'tools/list')).toHaveLength(3);
  });

  it('a refused check carries no list: listedJson is null', async () => {
    const server = await startScriptedServer({
      override: (_req, res, message) => {
        if (message?.method !== 'initialize') return false;
        sendJson(res, 401, { error: 'login first' });
        return true;
      },
    });
    servers.push(server);
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'a', toolsJson: null, listedJson: null });
  });
});

describe('ToolCollector.listedJson', () => {
  it('a page whose text cannot be located is re-serialized whole from its parsed elements', () => {
    const collector = new ToolCollector(2);
    const page = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
    // The text names no result.tools array, so no element can be cut from it.
    collector.add(page, '{"jsonrpc":"2.0","id":2,"result":{}}', null);
    expect(collector.toolsJson()).toBe('[{"name":"a"},{"name":"b"}]');
    expect(collector.listedJson()).toBe('[{"name":"a"},{"name":"b"},{"name":"c"}]');
    expect(collector.reserialized).toBe(true);
  });
});
