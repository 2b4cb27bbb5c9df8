// A list over 500 tools: the day's record keeps 500 tools, but its token estimate and heavy-tool-list measure every
// tool listed, all pages read, as 7Maps asks. Against a raw loopback MCP server listing 520 tools over
// two pages (300 + 220), probed for real.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { probeServer } from '@mcp-atlas/probe';
import { afterAll, describe, expect, it } from 'vitest';
import { describeFindings, describeTokens } from '../src/check/analyze.js';
import { recordCheck } from '../src/scan/check-server.js';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

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

/** A JSON-RPC MCP server over plain HTTP listing `tools` in pages of `pageSize`, the cursor being the next index. */
async function pagedServer(tools: Record<string, unknown>[], pageSize: number): Promise<string> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.method !== 'POST') {
        response.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const message = JSON.parse(body) as { id?: number; method: string; params?: { cursor?: string } };
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      const start = Number(message.params?.cursor ?? 0);
      const next = start + pageSize < tools.length ? { nextCursor: String(start + pageSize) } : {};
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'wide', version: '1' } }
          : { tools: tools.slice(start, start + pageSize), ...next };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('a list of 520 tools over two pages', () => {
  it('is measured whole: tokens of all 520 and heavy-tool-list, while 500 tools are kept', async () => {
    // 500 tools of 76 characters, then 20 of 74. Whole list: 2 + 500 × 76 + 20 × 74 + 519 commas = 40,001
    // characters, one over heavy-tool-list's 40,000; tokens 40,001 / 4 = 10,000.25 → 10,000. The kept 500:
    // 2 + 500 × 76 + 499 commas = 38,501 characters (9,625 tokens, not heavy).
    const tools = Array.from({ length: 520 }, (_, i) => toolOfLength(i, i < 500 ? 76 : 74));
    const url = await pagedServer(tools, 300);
    const probe = await probeServer(url, { allowPrivate: true });
    expect(probe).toMatchObject({ letter: 'o', pages: 2, toolCount: 520, toolsTruncated: true });

    const check = recordCheck({ id: 'wide', url, source: 'registry' }, '2026-12-01', probe);
    expect(check.result.tokens).toBe(10_000);
    const heavy = check.result.findings.find((finding) => finding.id === 'heavy-tool-list');
    expect(heavy?.value).toBe(40_001);
    // What is kept stays the first 500 tools, their text as the server sent it.
    expect(check.result.toolCount).toBe(500);
    expect(check.catalog?.tools).toEqual(tools.slice(0, 500));
    expect(check.catalogToolsJson).toHaveLength(38_501);
    // `mcp-atlas check` reads the same result the same way.
    expect(describeTokens(probe)).toBe(10_000);
    expect(describeFindings(probe).find((finding) => finding.id === 'heavy-tool-list')?.value).toBe(40_001);
  });
});
