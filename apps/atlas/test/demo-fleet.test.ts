import { DOCUMENT_RULES } from '@mcp-atlas/probe/rules';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_AT_HEADER,
  DEMO_DAY_HEADER,
  DEMO_PAY_TO,
  type Fleet,
  type FleetMember,
  robotsOutDayFor,
  startFleet,
} from '../src/demo/fleet.js';

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
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { [DEMO_DAY_HEADER]: String(day) } },
  });
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
    const post = (url: string) =>
      fetch(url, { method: 'POST', body: '{}', redirect: 'manual', headers: { 'content-type': 'application/json' } });
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
      (
        await fetch(files.url, {
          method: 'POST',
          body: '{}',
          headers: { [DEMO_DAY_HEADER]: String(day), 'content-type': 'application/json' },
        })
      ).status;
    expect(await status(2)).toBe(503);
    expect(await status(3)).not.toBe(503);
    expect(files.expectedLetter(2)).toBe('d');
    expect(files.expectedLetter(3)).toBe('o');
  });

  it('shuts every bot out in the robots-out member’s robots.txt from its day on, and gives it no letter then', async () => {
    const recipes = member('recipes');
    const robots = async (day: number) =>
      (await fetch(new URL('/robots.txt', recipes.url), { headers: { [DEMO_DAY_HEADER]: String(day) } })).text();
    const day = robotsOutDayFor(30);
    expect(day).toBe(23);
    expect(await robots(day - 1)).toBe('User-agent: *\nAllow: /\n');
    expect(await robots(day)).toBe('User-agent: *\nDisallow: /\n');
    expect(recipes.expectedLetter(day - 1)).toBe('o');
    expect(recipes.expectedLetter(day)).toBeNull();
  });

  it('serves the owner-verification file only once a token is published, one token a line', async () => {
    const tokenFile = () => fetch(new URL(DOCUMENT_RULES.verifyTokenPath, member('maps').url));
    expect((await tokenFile()).status).toBe(404);
    fleet.publishVerifyToken('maps', 'mcp-atlas-verify-0123456789abcdef0123456789abcdef');
    const answer = await tokenFile();
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('mcp-atlas-verify-0123456789abcdef0123456789abcdef\n');
    expect(() => fleet.publishVerifyToken('nobody', 'x')).toThrow('the demo fleet has no member nobody');
  });

  it('keeps the submitted member off the watched list', () => {
    expect(fleet.members.filter((m) => !m.watched).map((m) => m.id)).toEqual(['currency']);
  });

  it('breaks the breaking member for live checks at or after its break time only, never for daily checks', async () => {
    const breakAt = new Date('2026-11-30T10:00:00.000Z');
    const breaking = await startFleet(30, { breakAt });
    try {
      const inbox = breaking.members.find((m) => m.id === 'inbox')!;
      const status = async (at: string | null) => {
        const headers: Record<string, string> = {
          [DEMO_DAY_HEADER]: '30',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        };
        if (at !== null) headers[DEMO_AT_HEADER] = at;
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        });
        return (await fetch(inbox.url, { method: 'POST', headers, body })).status;
      };
      expect(await status('2026-11-30T09:59:59.999Z')).toBe(200);
      expect(await status('2026-11-30T10:00:00.000Z')).toBe(503);
      expect(await status('2026-11-30T11:20:00.000Z')).toBe(503);
      // A daily check carries no instant: the member answers, so its daily letter stays o.
      expect(await status(null)).toBe(200);
      expect(inbox.expectedLetter(29)).toBe('o');
    } finally {
      await breaking.close();
    }
  });
});
