// A server that answers initialize and tools/list by opening an event stream, sending an event id and a retry
// field, and closing it, with the answer only on the GET that carries Last-Event-ID (raw node:http on
// 127.0.0.1). The daily check records letter o with the resumption in its steps, and `mcp-atlas check` reports
// the tools, where before both read the stream as ending without an answer (letter d).
import { rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { probeServer } from '@mcp-atlas/probe';
import { createNodeHttpClient } from '@mcp-atlas/probe/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, CheckReportSchema } from '../src/check/report-schema.js';
import { recordCheck } from '../src/scan/check-server.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';

const TOOLS = [
  { name: 'read_note', description: 'Reads one note by its title.', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'list_notes',
    description: 'Lists the titles of all notes.',
    inputSchema: { type: 'object', properties: {} },
  },
];
const INIT = {
  protocolVersion: '2025-06-18',
  capabilities: { tools: {} },
  serverInfo: { name: 'polling', version: '1.0.0' },
};

let server: Server;
let url: string;
const lastEventIds: string[] = [];
const folders: string[] = [];

/** Opens an answer's stream, sends only a priming event (id and retry), and closes it; the answer waits. */
function prime(res: ServerResponse, pending: Map<string, unknown>, answer: unknown): void {
  const id = `event-${pending.size + 1}`;
  pending.set(id, answer);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'polling-1' });
  res.end(`id: ${id}\nretry: 50\ndata: \n\n`);
}

beforeAll(async () => {
  const pending = new Map<string, unknown>();
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      if (req.method === 'DELETE') return void res.writeHead(204).end();
      if (req.method === 'GET') {
        const last = req.headers['last-event-id'];
        const answer = typeof last === 'string' ? pending.get(last) : undefined;
        if (answer === undefined) return void res.writeHead(405).end();
        lastEventIds.push(last as string);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end(`event: message\nid: answer-${last}\ndata: ${JSON.stringify(answer)}\n\n`);
      }
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.method === 'initialize') return prime(res, pending, { jsonrpc: '2.0', id: message.id, result: INIT });
      if (message.method === 'tools/list')
        return prime(res, pending, { jsonrpc: '2.0', id: message.id, result: { tools: TOOLS } });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('a server that sends its answers on the resumed stream', () => {
  it('gets letter o from the daily check, with each resumption in the steps', async () => {
    const probe = await probeServer(url, { allowPrivate: true, httpClient: createNodeHttpClient });
    const { result } = recordCheck({ id: 'polling', url, source: 'registry' }, '2026-12-04', probe);
    expect(result).toMatchObject({ letter: 'o', reason: 'ok', toolCount: TOOLS.length });
    expect(result.steps.filter((step) => step.detail?.endsWith('; resumed 1x'))).toHaveLength(2);
  });

  it('is reported with its tools by mcp-atlas check', async () => {
    const dir = makeWorkDir();
    folders.push(dir);
    const before = lastEventIds.length;
    const run = await runCheckIn(dir, [url, '--json']);
    expect(run.code).toBe(0);
    const report: CheckReport = CheckReportSchema.parse(JSON.parse(run.stdout));
    expect(report).toMatchObject({ letter: 'o', reason: 'ok' });
    expect(report.tools.map((tool) => tool.name)).toEqual(['read_note', 'list_notes']);
    expect(lastEventIds.slice(before)).toEqual(['event-3', 'event-4']);
  });
});
