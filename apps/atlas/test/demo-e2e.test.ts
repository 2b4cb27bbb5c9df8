import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo, type DemoOutcome } from '../src/demo/run-demo.js';
import { createLogger } from '../src/log.js';
import { serveAtlas, type RunningAtlas } from '../src/serve/serve-atlas.js';
import { createFsStorage } from '../src/storage/fs-storage.js';

const DAYS = 30;
let outcome: DemoOutcome;
let running: RunningAtlas;

beforeAll(async () => {
  const storage = createFsStorage(await mkdtemp(join(tmpdir(), 'atlas-demo-')));
  const log = createLogger('silent');
  outcome = await runDemo({ days: DAYS, storage, now: new Date('2026-11-30T12:00:00Z'), log });
  running = await serveAtlas({ storage, port: 0, log, keys: outcome.keys, handleSignals: false, onClose: () => outcome.fleet.close() });
}, 120_000);

afterAll(async () => {
  await running?.close();
});

describe('mcp-atlas demo, end to end', () => {
  it('simulates the month before the injected clock’s day', () => {
    expect(outcome.days).toHaveLength(DAYS);
    expect(outcome.days[0]).toBe('2026-10-31');
    expect(outcome.days.at(-1)).toBe('2026-11-29');
  });

  it('gives every fleet member the letter it should have on every day', () => {
    for (const member of outcome.fleet.members) {
      const expected = outcome.days.map((_, i) => member.expectedLetter(i)).join('');
      expect(outcome.letters.get(member.id), member.id).toBe(expected);
    }
  });

  it('seals every day into a chain that verifies with node:crypto alone', async () => {
    expect(outcome.chain).toMatchObject({ ok: true });
    const wellKnown = (await (await fetch(`${running.url}/.well-known/mcp-atlas.json`)).json()) as { integrity: { public_key_pem: string } };
    let previous: string | null = null;
    for (const day of outcome.days) {
      const record = (await (await fetch(`${running.url}/api/maps?a=root&day=${day}`)).json()) as {
        root: string;
        previous_root: string | null;
        files: string[];
        signature: string;
      };
      const root = createHash('sha256').update(`${record.previous_root || ''}\n${record.files.join('\n')}`).digest('hex');
      const ok = verify(null, Buffer.from(record.root, 'hex'), createPublicKey(wellKnown.integrity.public_key_pem), Buffer.from(record.signature, 'base64'));
      expect(root === record.root && ok ? 'verified' : 'mismatch', day).toBe('verified');
      expect(record.previous_root).toBe(previous);
      previous = record.root;
    }
  });

  it('answers the API with each server, its letters and its findings', async () => {
    const body = (await (await fetch(`${running.url}/api/servers`)).json()) as { servers: { id: string; letters: string; letter: string }[] };
    expect(body.servers.map((s) => s.id).sort()).toEqual(outcome.fleet.members.map((m) => m.id).sort());
    const translate = (await (await fetch(`${running.url}/api/servers/translate`)).json()) as { findings: { id: string }[] };
    expect(translate.findings.map((f) => f.id)).toContain('slow');
    const tickets = (await (await fetch(`${running.url}/api/servers/tickets`)).json()) as {
      changes: unknown[];
      incident: { shown: boolean };
      rating: { shown: boolean; stars: number | null };
    };
    expect(JSON.stringify(tickets.changes)).toContain('delete_ticket');
    // No agent has reported yet: no incident, and no stars until enough reporters.
    expect(tickets.incident.shown).toBe(false);
    expect(tickets.rating).toMatchObject({ shown: false, stars: null });
  });

  it('never calls a tool and never sends a credential to a server it checks', () => {
    const received = outcome.fleet.received;
    expect(received.length).toBeGreaterThan(DAYS * outcome.fleet.members.length);
    const methods = new Set(received.flatMap((r) => r.rpcMethods));
    for (const method of methods) expect(['initialize', 'notifications/initialized', 'tools/list']).toContain(method);
    expect(methods.has('tools/call')).toBe(false);
    expect(received.filter((r) => r.credentialHeaders.length > 0)).toEqual([]);
  });

  it('answers a real SDK client on its MCP endpoint', async () => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['find_tool', 'report_road', 'route', 'submit_mcp_server']);
    await client.close();
  });
});
