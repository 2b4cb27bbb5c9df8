// Reports filed through the MCP tool report_road are counted in the intake metrics as POST /api/reports counts
// them: the running service (serveAtlas with its operator endpoints, on loopback) takes one report over HTTP and
// two through /mcp with the SDK's client, one accepted and one refused, and /metrics shows all three.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { FIXTURE_NOW, writeFixture } from './fixtures/http-atlas.js';

const log = createLogger('silent');
let running: RunningAtlas | null = null;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await running?.close();
  running = null;
});

async function start(): Promise<RunningAtlas> {
  const { storage, keys } = await writeFixture();
  running = await serveAtlas({
    storage,
    port: 0,
    log,
    keys,
    now: () => FIXTURE_NOW,
    handleSignals: false,
    operator: { metricsToken: null, budgetsMicroUsd: { daily: 100_000, fiveMinute: 250_000 } },
  });
  return running;
}

async function connect(atlas: RunningAtlas): Promise<Client> {
  const client = new Client({ name: 'report-road-metrics-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${atlas.url}/mcp`)));
  clients.push(client);
  return client;
}

/** The value of one intake counter series in Prometheus text, 0 when the series is absent. */
function intakeCount(text: string, outcome: 'accepted' | 'refused'): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`mcp_atlas_intake_total{intake="reports",outcome="${outcome}"} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const scrape = async (atlas: RunningAtlas): Promise<string> => (await fetch(`${atlas.url}/metrics`)).text();

describe('report_road in the intake metrics', () => {
  it('counts reports filed through /mcp like those posted to /api/reports, accepted and refused', async () => {
    const atlas = await start();
    const before = await scrape(atlas);
    expect(intakeCount(before, 'accepted')).toBe(0);
    expect(intakeCount(before, 'refused')).toBe(0);

    const posted = await fetch(`${atlas.url}/api/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ server: 'weather-desk', tool: 'get_forecast', ok: true }),
    });
    expect(posted.status).toBe(201);
    expect(intakeCount(await scrape(atlas), 'accepted')).toBe(1);

    const client = await connect(atlas);
    const accepted = await client.callTool({
      name: 'report_road',
      arguments: { server: 'notes-hub', tool: 'create_note', ok: false, reason: 'timeout' },
    });
    expect(accepted.isError).toBeFalsy();
    const refused = await client.callTool({
      name: 'report_road',
      arguments: { server: 'no-such-server', tool: 'create_note', ok: true },
    });
    expect(refused.isError).toBe(true);

    const after = await scrape(atlas);
    expect(intakeCount(after, 'accepted')).toBe(2);
    expect(intakeCount(after, 'refused')).toBe(1);
  });

  it('does not count the other MCP tools as reports', async () => {
    const atlas = await start();
    const client = await connect(atlas);
    const found = await client.callTool({ name: 'find_tool', arguments: { query: 'create a note' } });
    expect(found.isError).toBeFalsy();
    const text = await scrape(atlas);
    expect(intakeCount(text, 'accepted') + intakeCount(text, 'refused')).toBe(0);
  });
});
