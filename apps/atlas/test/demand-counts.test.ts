// Demand counts: each routed task counts once for its top pick's server on its UTC day, from GET /api/route
// and the MCP route tool alike; raw counts per process and day, a daily aggregate once the day is over, and
// no task text, agent id, address or user agent anywhere. Sensor batches get their daily aggregate too.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { writeDueAggregates } from '../src/demand/aggregates.js';
import { createDemandRecorder } from '../src/demand/recorder.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson } from '../src/storage/storage.js';
import { dumpStorage, getJsonAt, postJson, startFixture, writeFixture } from './fixtures/http-atlas.js';

const AGENT = { 'x-forwarded-for': '198.51.100.23', 'user-agent': 'AgentSmith/7.1 (demand test)' };

describe('demand counts from route answers', () => {
  it('counts the top pick of GET /api/route and of the MCP route tool, per server and UTC day, and nothing else', async () => {
    const { storage, keys } = await writeFixture(createMemoryStorage());
    let now = new Date('2026-12-01T10:00:00.000Z');
    const demand = createDemandRecorder({ storage, now: () => now, writer: 'w-test' });
    const f = await startFixture({ storage, keys, deps: { demand, now: () => now } });
    try {
      const routed = await fetch(`${f.base}/api/route?task=${encodeURIComponent('list my notes in a notebook')}`, {
        headers: AGENT,
      });
      const answer = (await routed.json()) as { picks: { serverId: string }[] };
      expect(answer.picks[0]?.serverId).toBe('notes-hub');

      const client = new Client({ name: 'demand-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${f.base}/mcp`), { requestInit: { headers: AGENT } }),
      );
      const viaMcp = await client.callTool({
        name: 'route',
        arguments: { task: 'get the weather forecast for a city' },
      });
      expect((viaMcp.structuredContent as { picks: { serverId: string }[] }).picks[0]?.serverId).toBe('weather-desk');
      await client.close();

      // A refused task and a task nothing matches count nothing.
      expect((await getJsonAt(`${f.base}/api/route?task=`)).status).toBe(400);
      expect((await getJsonAt(`${f.base}/api/route?task=zzqx%20blorf`)).body.picks).toEqual([]);
      await demand.flush();
      expect(await getJson(f.storage, 'demand/2026-12-01/w-test.json')).toEqual({
        day: '2026-12-01',
        writer: 'w-test',
        servers: { 'notes-hub': 1, 'weather-desk': 1 },
      });

      // The next day counts in its own file.
      now = new Date('2026-12-02T00:00:01.000Z');
      await getJsonAt(`${f.base}/api/route?task=list%20my%20notes`);
      await demand.flush();
      expect(await getJson(f.storage, 'demand/2026-12-02/w-test.json')).toMatchObject({ servers: { 'notes-hub': 1 } });

      // Nothing the agent sent is kept: no task words, no address, no user agent.
      const everything = [...(await dumpStorage(f.storage)).entries()]
        .filter(([path]) => path.startsWith('demand/'))
        .map(([, text]) => text)
        .join('\n');
      for (const secret of ['notebook', 'forecast', '198.51.100', 'AgentSmith', 'demand test'])
        expect(everything).not.toContain(secret);
    } finally {
      await f.close();
    }
  });
});

describe('the recorder', () => {
  it('keeps every count when many arrive while a write is in flight', async () => {
    const storage = createMemoryStorage();
    const demand = createDemandRecorder({
      storage,
      now: () => new Date('2026-12-01T12:00:00.000Z'),
      writer: 'w-burst',
    });
    for (let i = 0; i < 1000; i++) demand.record(i % 4 === 0 ? 'ticket-yard' : 'notes-hub');
    await demand.flush();
    expect(await getJson(storage, 'demand/2026-12-01/w-burst.json')).toMatchObject({
      servers: { 'notes-hub': 750, 'ticket-yard': 250 },
    });
  });
});

describe('daily aggregates', () => {
  it('adds up every writer of a closed day once, after a 5-minute grace, and never rewrites it', async () => {
    const storage = createMemoryStorage();
    const day = new Date('2026-12-01T18:00:00.000Z');
    const first = createDemandRecorder({ storage, now: () => day, writer: 'w-one' });
    const second = createDemandRecorder({ storage, now: () => day, writer: 'w-two' });
    first.record('notes-hub');
    first.record('notes-hub');
    second.record('notes-hub');
    second.record('weather-desk');
    await first.flush();
    await second.flush();

    expect(await writeDueAggregates(storage, new Date('2026-12-01T23:59:59.000Z'))).toEqual([]);
    expect(await writeDueAggregates(storage, new Date('2026-12-02T00:04:59.999Z'))).toEqual([]);
    expect(await writeDueAggregates(storage, new Date('2026-12-02T00:05:00.000Z'))).toEqual([
      'aggregates/demand/2026-12-01.json',
    ]);
    expect(await getJson(storage, 'aggregates/demand/2026-12-01.json')).toEqual({
      day: '2026-12-01',
      servers: { 'notes-hub': 3, 'weather-desk': 1 },
      total: 4,
      unreadable: 0,
    });
    // A late raw file does not change a written aggregate.
    const late = createDemandRecorder({ storage, now: () => day, writer: 'w-late' });
    late.record('notes-hub');
    await late.flush();
    expect(await writeDueAggregates(storage, new Date('2026-12-03T00:00:00.000Z'))).toEqual([]);
    expect(await getJson(storage, 'aggregates/demand/2026-12-01.json')).toMatchObject({ total: 4 });
  });

  it('sums a day of sensor batches by server: outcomes, worked, failed, distinct sensors and failure reasons', async () => {
    const f = await startFixture();
    try {
      const post = (body: unknown) => postJson(`${f.base}/api/sensors`, body, { 'x-forwarded-for': '203.0.113.4' });
      expect(
        (
          await post({
            sensor: 'gw-one',
            outcomes: [
              { server: 'notes-hub', ok: true, at: '2026-12-01T09:00:00Z' },
              { server: 'notes-hub', ok: false, reason: 'timeout', at: '2026-12-01T09:01:00Z' },
              { server: 'weather-desk', ok: false, at: '2026-12-01T09:02:00Z' },
            ],
          })
        ).status,
      ).toBe(201);
      expect(
        (await post({ sensor: 'gw-two', outcomes: [{ server: 'notes-hub', ok: true, at: '2026-12-01T09:30:00Z' }] }))
          .status,
      ).toBe(201);
      // The fixture's checked days also get their state reports and November its monthly report.
      expect(
        (await writeDueAggregates(f.storage, new Date('2026-12-02T00:05:00.000Z'))).filter(
          (p) => !/\/(state|monthly)\//.test(p),
        ),
      ).toEqual(['aggregates/sensors/2026-12-01.json']);
      expect(await getJson(f.storage, 'aggregates/sensors/2026-12-01.json')).toEqual({
        day: '2026-12-01',
        servers: {
          'notes-hub': { outcomes: 3, worked: 2, failed: 1, sensors: 2, reasons: { timeout: 1 } },
          'weather-desk': { outcomes: 1, worked: 0, failed: 1, sensors: 1, reasons: { unstated: 1 } },
        },
        batches: 2,
        sensors: 2,
        unreadable: 0,
      });
    } finally {
      await f.close();
    }
  });
});
