import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dayReportsPath } from '../src/data/paths.js';
import { ReportAcceptedSchema, RouteAnswerSchema, ToolSearchResultSchema } from '../src/http/schemas.js';
import { dumpStorage, type RunningFixture, startFixture, TODAY } from './fixtures/http-atlas.js';

let f: RunningFixture;
const clients: Client[] = [];

beforeAll(async () => {
  f = await startFixture();
});
afterEach(async () => {
  while (clients.length > 0) await clients.pop()!.close();
});
afterAll(async () => {
  await f.close();
});

/** Connects the SDK's own client to /mcp, as if from `ip` (one trusted proxy hop), with extra headers. */
async function connect(ip = '198.51.100.30', headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'atlas-http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${f.base}/mcp`), {
    requestInit: { headers: { 'x-forwarded-for': ip, ...headers } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function textOf(result: object): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return content.map((c) => c.text).join('\n');
}

describe('POST /mcp with the SDK client', () => {
  it('names itself mcp-atlas with the app version', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'mcp-atlas', version: '0.1.0-test' });
  });

  it('lists find_tool, route, report_road and submit_mcp_server with descriptions, input schemas and annotations', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['find_tool', 'report_road', 'route', 'submit_mcp_server']);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    expect(byName.get('find_tool')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('route')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('report_road')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byName.get('find_tool')!.inputSchema.required).toEqual(['query']);
    expect(byName.get('route')!.inputSchema.required).toEqual(['task']);
    const report = byName.get('report_road')!.inputSchema;
    expect(Object.keys(report.properties!).sort()).toEqual(
      ['charged', 'matched', 'ms', 'ok', 'reason', 'resultTokens', 'server', 'surprise', 'tool', 'toolsHash'].sort(),
    );
    expect(report.additionalProperties).toBe(false);
  });

  it('find_tool returns search results, as structured content and as text', async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'find_tool',
      arguments: { query: 'list my notes', risk: 'read', limit: 3 },
    });
    expect(result.isError).toBeFalsy();
    const { results } = ToolSearchResultSchema.parse(result.structuredContent);
    expect(results[0]).toMatchObject({ serverId: 'notes-hub', tool: 'list_notes', level: 'read-only' });
    expect(results.length).toBeLessThanOrEqual(3);
    expect(results.every((r) => r.level === 'read-only')).toBe(true);
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('find_tool refuses arguments outside its schema as a tool error', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'find_tool', arguments: { query: 'notes', limit: 500 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('limit');
  });

  it('route returns picks with factors and the servers set aside', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'route', arguments: { task: 'create a ticket for a bug' } });
    expect(result.isError).toBeFalsy();
    const route = RouteAnswerSchema.parse(result.structuredContent);
    expect(route.taskRisk).toBe('change');
    expect(route.setAside.map((s) => s.serverId)).toContain('ticket-yard');
    for (const pick of route.picks) expect(Object.keys(pick.factors)).toHaveLength(9);
  });

  it('report_road stores a report with the fixed fields, keyed by the caller’s network', async () => {
    const client = await connect('198.51.100.31', { 'user-agent': 'mcp-test-agent/1.0' });
    const result = await client.callTool({
      name: 'report_road',
      arguments: { server: 'weather-desk', tool: 'get_forecast', ok: false, reason: 'timeout', ms: 8000 },
    });
    expect(result.isError).toBeFalsy();
    expect(ReportAcceptedSchema.parse(result.structuredContent)).toEqual({
      accepted: true,
      day: TODAY,
      server: 'weather-desk',
      paid: false,
    });
    const text = new TextDecoder().decode((await f.storage.get(dayReportsPath(TODAY)))!);
    expect(text).toContain('"tool":"get_forecast"');
    expect(text).not.toContain('198.51.100');
    expect(text).not.toContain('mcp-test-agent');
  });

  it('report_road counts a caller with a valid license key as paying', async () => {
    const client = await connect('198.51.100.32', { 'x-mcp-atlas-license': 'lic-beta-0002' });
    const result = await client.callTool({
      name: 'report_road',
      arguments: { server: 'notes-hub', tool: 'create_note', ok: true },
    });
    expect(ReportAcceptedSchema.parse(result.structuredContent).paid).toBe(true);
  });

  it('report_road refuses an extra field, and stores nothing', async () => {
    const client = await connect('198.51.100.33');
    const before = await dumpStorage(f.storage);
    const result = await client.callTool({
      name: 'report_road',
      arguments: { server: 'notes-hub', tool: 'list_notes', ok: true, note: 'worked nicely' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('note');
    expect(await dumpStorage(f.storage)).toEqual(before);
  });

  it('report_road answers an unknown server and a spent quota as tool errors with their codes', async () => {
    const client = await connect('203.0.113.40');
    const unknown = await client.callTool({
      name: 'report_road',
      arguments: { server: 'nobody-home', tool: 'x', ok: true },
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^unknown_server: /);
    const args = { server: 'ticket-yard', tool: 'list_tickets', ok: true };
    for (let i = 0; i < 3; i++)
      expect((await client.callTool({ name: 'report_road', arguments: args })).isError).toBeFalsy();
    const fourth = await client.callTool({ name: 'report_road', arguments: args });
    expect(fourth.isError).toBe(true);
    expect(textOf(fourth)).toMatch(/^server_daily_limit: /);
  });
});

describe('GET and DELETE /mcp', () => {
  it('answer 405 with Allow: POST, since the endpoint keeps no sessions or streams', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${f.base}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect((await response.json()).error.code).toBe('method_not_allowed');
    }
  });

  it('a POST over 64 KiB is refused with 413 before it is parsed', async () => {
    const response = await fetch(`${f.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } }),
    });
    expect(response.status).toBe(413);
  });

  it('a POST that is not JSON-RPC gets the transport’s own 4xx, not a crash', async () => {
    const response = await fetch(`${f.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"hello":',
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});
