// A server whose serverInfo names no version: the day's record and catalog say null (no version), and a change of
// its tools is not called silent. Against a raw loopback MCP server, probed for real.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { diffToolLists } from '@mcp-atlas/findings';
import { probeServer } from '@mcp-atlas/probe';
import { afterAll, describe, expect, it } from 'vitest';
import { recordCheck } from '../src/scan/check-server.js';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A JSON-RPC MCP server over plain HTTP whose serverInfo has a name and no version, listing `tools`. */
async function versionlessServer(tools: { name: string; description: string }[]): Promise<string> {
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
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'plain' } }
          : { tools: tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' } })) };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('a server that reports no version', () => {
  it('is recorded with no version, and a change of its tools is not silent', async () => {
    const one = [{ name: 'get_note', description: 'Reads one note.' }];
    const two = [...one, { name: 'add_note', description: 'Adds a note.' }];
    const checks = [];
    for (const tools of [one, two]) {
      const url = await versionlessServer(tools);
      const probe = await probeServer(url, { allowPrivate: true });
      expect(probe.letter).toBe('o');
      checks.push(recordCheck({ id: 'plain', url, source: 'registry' }, '2026-12-01', probe));
    }
    const [before, after] = checks;
    expect(before!.result.serverVersion).toBeNull();
    expect(after!.catalog!.serverVersion).toBeNull();
    const diff = diffToolLists(before!.catalog!, after!.catalog!);
    expect(diff.added).toEqual(['add_note']);
    expect(diff.silent).toBe(false);
  });
});
