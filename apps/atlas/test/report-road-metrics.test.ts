// Reports filed through the MCP tool report_road are counted in the intake metrics as POST /api/reports counts
// them: the running service (serveAtlas with its operator endpoints, on loopback) takes one report over HTTP and
// two through /mcp with the SDK's client, one accepted and one refused, and /metrics shows all three, each once.
// Both paths reach the report intake's submit, which does the counting (the onIntake hook), so a failure of the
// store counts as refused on both, and sensor batches are counted the same way by the sensor intake.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import type { Storage } from '../src/storage/storage.js';
import { FIXTURE_NOW, writeFixture } from './fixtures/http-atlas.js';

const log = createLogger('silent');
let running: RunningAtlas | null = null;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await running?.close();
  running = null;
});

/** The store with every append to a day's report log failing (a disk error), and everything else as it was. */
function failingReportLog(storage: Storage): Storage {
  return new Proxy(storage, {
    get(target, key) {
      if (key === 'append')
        return (path: string, bytes: Uint8Array) =>
          path.endsWith('/reports.jsonl')
            ? Promise.reject(new Error('EIO: the disk failed'))
            : target.append(path, bytes);
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function start(wrap: (storage: Storage) => Storage = (storage) => storage): Promise<RunningAtlas> {
  const { storage, keys } = await writeFixture();
  running = await serveAtlas({
    storage: wrap(storage),
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
function intakeCount(text: string, outcome: 'accepted' | 'refused', intake: 'reports' | 'sensors' = 'reports'): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`mcp_atlas_intake_total{intake="${intake}",outcome="${outcome}"} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const postJson = (atlas: RunningAtlas, path: string, body: unknown): Promise<Response> =>
  fetch(`${atlas.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

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

  it('counts a report the store failed to keep as refused, once, whether posted or filed through /mcp', async () => {
    const atlas = await start(failingReportLog);
    const posted = await postJson(atlas, '/api/reports', { server: 'weather-desk', tool: 'get_forecast', ok: true });
    expect(posted.status).toBe(500);
    let text = await scrape(atlas);
    expect([intakeCount(text, 'accepted'), intakeCount(text, 'refused')]).toEqual([0, 1]);

    const client = await connect(atlas);
    const failed = await client.callTool({
      name: 'report_road',
      arguments: { server: 'notes-hub', tool: 'create_note', ok: true },
    });
    expect(failed.isError).toBe(true);
    text = await scrape(atlas);
    expect([intakeCount(text, 'accepted'), intakeCount(text, 'refused')]).toEqual([0, 2]);
  });

  it('counts sensor batches by what the sensor intake decided, apart from reports', async () => {
    const atlas = await start();
    const outcome = { server: 'notes-hub', ok: true, at: '2026-12-01T09:30:00Z' };
    expect((await postJson(atlas, '/api/sensors', { sensor: 'gw-one', outcomes: [outcome] })).status).toBe(201);
    const refused = await postJson(atlas, '/api/sensors', { sensor: 'gw-one', outcomes: [outcome], extra: 1 });
    expect(refused.status).toBe(400);
    const text = await scrape(atlas);
    expect([intakeCount(text, 'accepted', 'sensors'), intakeCount(text, 'refused', 'sensors')]).toEqual([1, 1]);
    expect(intakeCount(text, 'accepted') + intakeCount(text, 'refused')).toBe(0);
  });
  it('counts a POST whose body cannot be read as refused: wrong media type, not JSON, too large', async () => {
    const atlas = await start();
    const post = (path: string, body: string, type = 'application/json') =>
      fetch(`${atlas.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
    for (const path of ['/api/reports', '/api/sensors']) {
      expect((await post(path, '{}', 'text/plain')).status).toBe(415);
      expect((await post(path, '{not json')).status).toBe(400);
      expect((await post(path, `"${'x'.repeat(64 * 1024)}"`)).status).toBe(413);
    }
    const text = await scrape(atlas);
    expect([intakeCount(text, 'accepted'), intakeCount(text, 'refused')]).toEqual([0, 3]);
    expect([intakeCount(text, 'accepted', 'sensors'), intakeCount(text, 'refused', 'sensors')]).toEqual([0, 3]);
  });
});
