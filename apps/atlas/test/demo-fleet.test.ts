import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DAY_HEADER, DEMO_PAY_TO, startFleet, type Fleet, type FleetMember } from '../src/demo/fleet.js';

let fleet: Fleet;
const member = (id: string): FleetMember => fleet.members.find((m) => m.id === id)!;

beforeAll(async () => {
  fleet = await startFleet(30);
});
afterAll(async () => {
  await fleet.close();
});

async function listToolsWithSdk(url: string, day: number): Promise<string[]> {
  const client = new Client({ name: 'fleet-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { [DEMO_DAY_HEADER]: String(day) } } });
  await client.connect(transport);
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((t) => t.name);
}

describe('the demo fleet', () => {
  it('binds every member to loopback only', () => {
    for (const m of fleet.members) expect(new URL(m.url).hostname).toBe('127.0.0.1');
  });

  it('serves real MCP that the SDK client can list', async () => {
    expect(await listToolsWithSdk(member('notes').url, 0)).toContain('delete_note');
  });

  it('changes the changing member’s tools on its change day', async () => {
    expect(await listToolsWithSdk(member('tickets').url, 0)).not.toContain('delete_ticket');
    expect(await listToolsWithSdk(member('tickets').url, 29)).toContain('delete_ticket');
  });

  it('answers sign-in, payment, redirect and not-MCP as those kinds do', async () => {
    const post = (url: string) => fetch(url, { method: 'POST', body: '{}', redirect: 'manual', headers: { 'content-type': 'application/json' } });
    expect((await post(member('vault').url)).status).toBe(401);
    const paid = await post(member('paywall').url);
    expect(paid.status).toBe(402);
    expect(JSON.stringify(await paid.json())).toContain(DEMO_PAY_TO);
    const moved = await post(member('moved').url);
    expect(moved.status).toBe(307);
    expect(moved.headers.get('location')).toMatch(/^https:\/\/mcp\.moved-elsewhere\.example\//);
    const page = await post(member('homepage').url);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('takes the flaky member down on its down days only', async () => {
    const files = member('files');
    const status = async (day: number) =>
      (await fetch(files.url, { method: 'POST', body: '{}', headers: { [DEMO_DAY_HEADER]: String(day), 'content-type': 'application/json' } })).status;
    expect(await status(2)).toBe(503);
    expect(await status(3)).not.toBe(503);
    expect(files.expectedLetter(2)).toBe('d');
    expect(files.expectedLetter(3)).toBe('o');
  });
});
