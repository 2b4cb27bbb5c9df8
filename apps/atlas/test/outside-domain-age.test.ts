// Domain age end to end, on a simulated clock: real MCP servers (SDK McpServer) on their own .test domains,
// a real RDAP service on loopback, the schedule's daily check followed by the domain-age job, and the
// answers of the running service (server detail and route). Also: the 41st lookup waits for the next scan,
// a found date is reused for 30 days and read again after, a broken RDAP service leaves its reason, and the
// lookup never reaches the server's own domain.

import { DOMAIN_AGE_RULES } from '@mcp-atlas/operations/rules';
import { createNodeHttpClient } from '@mcp-atlas/probe/node';
import { routeTask } from '@mcp-atlas/route';
import { ROUTE_SCORE_RULES } from '@mcp-atlas/route/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteAnswerSchema, ServerDetailSchema } from '../src/http/schemas.js';
import { createLogger } from '../src/log.js';
import { DomainAgesFileSchema } from '../src/outside/outside-schemas.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { type ScheduleClock, Scheduler } from '../src/serve/scheduler.js';
import { serveAtlas } from '../src/serve/serve-atlas.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { startSubmission, writeSubmission } from '../src/submissions/records.js';
import { buildView } from '../src/view/build-view.js';
import { manualClock } from './fixtures/manual-clock.js';
import {
  lookupTestNames,
  type McpHost,
  NOTES_TOOLS,
  PAYMENT_TOOLS,
  type RdapFixture,
  startMcpHost,
  startRdap,
} from './fixtures/outside-services.js';

// Every .test name resolves to 127.0.0.1; connections are pinned to it by the probe's Node client.
const network = { allowPrivate: true, lookup: lookupTestNames, httpClient: createNodeHttpClient };

let host: McpHost;
let rdap: RdapFixture;

beforeAll(async () => {
  host = await startMcpHost((hostname) =>
    hostname.startsWith('notes.') || hostname.startsWith('sub.') ? NOTES_TOOLS : PAYMENT_TOOLS,
  );
  rdap = await startRdap();
});

afterAll(async () => {
  await host.close();
  await rdap.close();
});

async function newScheduler(storage: Storage, clock: ScheduleClock, rdapUrl = rdap.origin): Promise<Scheduler> {
  const keys = await loadOrCreateSigningKeys(storage, clock.now());
  return new Scheduler({
    storage,
    log: createLogger('silent'),
    keys,
    registryUrl: null,
    network,
    clock,
    outside: { rdapUrl },
  });
}

describe('domain age from RDAP, through the schedule, the view and the route', () => {
  it('looks up servers with a high-risk tool and submitted servers only; a young domain lowers the route score and is set aside for high-risk tasks', async () => {
    const storage = createMemoryStorage();
    // Registered 10 days before 2026-11-10 (young), in 1999 (old), and 2020 for the submitted one.
    rdap.registered.set('young-shop.test', '2026-10-31T09:00:00Z');
    rdap.registered.set('old-bank.test', '1999-03-01T00:00:00Z');
    rdap.registered.set('sub-notes.test', '2020-01-01T00:00:00Z');
    await putJson(storage, 'state/servers.json', {
      servers: [
        { id: 'young-shop', url: host.urlFor('mcp.young-shop.test'), title: 'Young shop payments', source: 'registry' },
        { id: 'old-bank', url: host.urlFor('api.old-bank.test'), title: 'Old bank payments', source: 'registry' },
        { id: 'plain-notes', url: host.urlFor('notes.plain-notes.test'), title: 'Plain notes', source: 'registry' },
        {
          id: 'sub-notes',
          url: host.urlFor('sub.sub-notes.test'),
          title: 'Submitted notes',
          source: 'submitted',
          submittedAt: '2026-10-01T00:00:00Z',
        },
      ],
    });
    const clock = manualClock('2026-11-10T00:30:00Z');
    const scheduler = await newScheduler(storage, clock);
    const before = rdap.lookups().length;

    const ran = await scheduler.tick();
    expect(ran).toContain('daily');
    expect(ran).toContain('domain-age');
    // One lookup per domain that the rules ask for; the read-only registry server is never looked up.
    expect(rdap.lookups().slice(before).sort()).toEqual([
      '/domain/old-bank.test',
      '/domain/sub-notes.test',
      '/domain/young-shop.test',
    ]);
    const cache = DomainAgesFileSchema.parse(await getJson(storage, 'state/domain-ages.json'));
    expect(cache.lastScanDay).toBe('2026-11-10');
    expect(cache.domains['young-shop.test']).toMatchObject({
      lookedUpDay: '2026-11-10',
      registeredAt: '2026-10-31T09:00:00.000Z',
      problem: null,
    });
    expect(Object.keys(cache.domains).sort()).toEqual(['old-bank.test', 'sub-notes.test', 'young-shop.test']);

    const running = await serveAtlas({
      storage,
      port: 0,
      log: createLogger('silent'),
      keys: await loadOrCreateSigningKeys(storage, clock.now()),
      now: () => clock.now(),
      handleSignals: false,
    });
    try {
      const young = ServerDetailSchema.parse(await (await fetch(`${running.url}/api/servers/young-shop`)).json());
      expect(young.domainAge).toEqual({
        domain: 'young-shop.test',
        registeredAt: '2026-10-31T09:00:00.000Z',
        ageDays: 10,
        young: true,
        lookedUpDay: '2026-11-10',
        problem: null,
      });
      const old = ServerDetailSchema.parse(await (await fetch(`${running.url}/api/servers/old-bank`)).json());
      expect(old.domainAge).toMatchObject({ domain: 'old-bank.test', young: false });
      expect(old.domainAge?.ageDays).toBeGreaterThan(ROUTE_SCORE_RULES.youngDomainDays);
      const plain = ServerDetailSchema.parse(await (await fetch(`${running.url}/api/servers/plain-notes`)).json());
      expect(plain.domainAge).toBeNull();

      // A task that changes data: both payment servers qualify, and only the young one carries the 0.8 guard.
      const change = RouteAnswerSchema.parse(
        await (
          await fetch(
            `${running.url}/api/route?task=${encodeURIComponent('create an invoice for a customer')}&limit=10`,
          )
        ).json(),
      );
      const guardOf = (id: string) => change.picks.find((p) => p.serverId === id)?.factors.guard;
      expect(guardOf('young-shop')).toBe(0.8);
      expect(guardOf('old-bank')).toBe(1);
      const youngScore = change.picks.find((p) => p.serverId === 'young-shop')?.score ?? 0;
      const oldScore = change.picks.find((p) => p.serverId === 'old-bank')?.score ?? 0;
      expect(youngScore).toBeCloseTo(oldScore * 0.8, 10);

      // A high-risk task: the young domain is set aside, and says why.
      const high = RouteAnswerSchema.parse(
        await (
          await fetch(
            `${running.url}/api/route?task=${encodeURIComponent('transfer funds to a saved bank account')}&limit=10`,
          )
        ).json(),
      );
      expect(high.taskRisk).toBe('high');
      expect(high.picks.map((p) => p.serverId)).toContain('old-bank');
      expect(high.picks.map((p) => p.serverId)).not.toContain('young-shop');
      expect(high.setAside.find((s) => s.serverId === 'young-shop')?.reason).toMatch(/domain is 10 days old/);
    } finally {
      await running.close();
    }

    // The next scan the same day does not look up again; the next day reuses every date.
    clock.set('2026-11-10T05:00:00Z');
    expect(await scheduler.tick()).not.toContain('domain-age');
    clock.set('2026-11-11T00:30:00Z');
    const lookupsBefore = rdap.lookups().length;
    await scheduler.tick();
    expect(rdap.lookups().length).toBe(lookupsBefore);
    // The age moves with the day, from the same registration date.
    expect((await buildView(storage, clock.now())).byId.get('young-shop')?.domainAge?.ageDays).toBe(11);
  });

  it('looks up a submitted server from its first day of observation, before it joins the map', async () => {
    const storage = createMemoryStorage();
    rdap.registered.set('pending-notes.test', '2026-09-01T00:00:00Z');
    await putJson(storage, 'state/servers.json', {
      servers: [{ id: 'plain-notes', url: host.urlFor('notes.plain-notes.test'), source: 'registry' }],
    });
    const url = host.urlFor('sub.pending-notes.test');
    await writeSubmission(storage, startSubmission(url, new URL(url).hostname, new Date('2026-11-09T12:00:00Z'), null));
    const clock = manualClock('2026-11-10T00:30:00Z');
    const before = rdap.lookups().length;
    expect(await (await newScheduler(storage, clock)).tick()).toContain('domain-age');
    expect(rdap.lookups().slice(before)).toEqual(['/domain/pending-notes.test']);
    const cache = DomainAgesFileSchema.parse(await getJson(storage, 'state/domain-ages.json'));
    expect(cache.domains['pending-notes.test']).toMatchObject({
      registeredAt: '2026-09-01T00:00:00.000Z',
      problem: null,
    });
  });

  it('ages around the 90-day line: 89 days is young and guarded, 90 is not', async () => {
    const storage = createMemoryStorage();
    // 2026-08-13 to 2026-11-10 is 89 days; 2026-08-12 is 90.
    rdap.registered.set('edge-young.test', '2026-08-13T00:00:00Z');
    rdap.registered.set('edge-old.test', '2026-08-12T23:59:59Z');
    await putJson(storage, 'state/servers.json', {
      servers: [
        { id: 'edge-young', url: host.urlFor('mcp.edge-young.test'), source: 'registry' },
        { id: 'edge-old', url: host.urlFor('mcp.edge-old.test'), source: 'registry' },
      ],
    });
    const clock = manualClock('2026-11-10T00:30:00Z');
    await (await newScheduler(storage, clock)).tick();
    const view = await buildView(storage, clock.now());
    expect(view.byId.get('edge-young')?.domainAge).toMatchObject({ ageDays: 89, young: true });
    expect(view.byId.get('edge-old')?.domainAge).toMatchObject({ ageDays: 90, young: false });
    const route = routeTask(view.toolIndex, 'create an invoice for a customer', { now: clock.now(), limit: 10 });
    expect(route.picks.find((p) => p.serverId === 'edge-young')?.factors.guard).toBe(0.8);
    expect(route.picks.find((p) => p.serverId === 'edge-old')?.factors.guard).toBe(1);
  });

  it('makes at most 40 new lookups per scan: the 41st waits for the next scan; dates are reused for 30 days and read again after', async () => {
    const storage = createMemoryStorage();
    const names = Array.from(
      { length: DOMAIN_AGE_RULES.lookupsPerScan + 1 },
      (_, i) => `cap${String(i + 1).padStart(2, '0')}.test`,
    );
    for (const name of names) rdap.registered.set(name, '2015-06-01T00:00:00Z');
    await putJson(storage, 'state/servers.json', {
      servers: names.map((name, i) => ({
        id: `cap-${String(i + 1).padStart(2, '0')}`,
        url: host.urlFor(`mcp.${name}`),
        source: 'registry',
      })),
    });
    const capLookups = () => rdap.lookups().filter((path) => path.startsWith('/domain/cap'));
    const clock = manualClock('2026-11-10T00:30:00Z');
    const scheduler = await newScheduler(storage, clock);

    await scheduler.tick();
    expect(capLookups()).toHaveLength(40);
    const first = DomainAgesFileSchema.parse(await getJson(storage, 'state/domain-ages.json'));
    expect(first.waiting).toEqual(['cap41.test']);
    expect(first.domains['cap41.test']).toBeUndefined();
    // The waiting server has no age yet, so the route sees none.
    expect((await buildView(storage, clock.now())).byId.get('cap-41')?.domainAge).toBeNull();

    // Next day's scan: only the 41st is asked; the other 40 are reused.
    clock.set('2026-11-11T00:30:00Z');
    await scheduler.tick();
    expect(capLookups()).toHaveLength(41);
    expect(capLookups().at(-1)).toBe('/domain/cap41.test');
    const second = DomainAgesFileSchema.parse(await getJson(storage, 'state/domain-ages.json'));
    expect(second.waiting).toEqual([]);
    expect(second.domains['cap41.test']?.lookedUpDay).toBe('2026-11-11');

    // 29 days after the first lookups: everything is still reused.
    clock.set('2026-12-09T00:30:00Z');
    await scheduler.tick();
    expect(capLookups()).toHaveLength(41);
    expect((await buildView(storage, clock.now())).byId.get('cap-01')?.domainAge?.lookedUpDay).toBe('2026-11-10');

    // 30 days after: the first 40 are read again; the 41st (looked up a day later) is still fresh.
    clock.set('2026-12-10T00:30:00Z');
    await scheduler.tick();
    expect(capLookups()).toHaveLength(81);
    expect(new Set(capLookups().slice(41))).toEqual(new Set(names.slice(0, 40).map((n) => `/domain/${n}`)));
    const third = DomainAgesFileSchema.parse(await getJson(storage, 'state/domain-ages.json'));
    expect(third.domains['cap01.test']?.lookedUpDay).toBe('2026-12-10');
    expect(third.domains['cap41.test']?.lookedUpDay).toBe('2026-11-11');
  });

  it('a broken RDAP service leaves a clear reason, and the service and the route go on', async () => {
    const storage = createMemoryStorage();
    rdap.broken.add('down-rdap.test');
    await putJson(storage, 'state/servers.json', {
      servers: [
        { id: 'down-rdap', url: host.urlFor('mcp.down-rdap.test'), source: 'registry' },
        { id: 'no-record', url: host.urlFor('mcp.no-record.test'), source: 'registry' },
      ],
    });
    const clock = manualClock('2026-11-10T00:30:00Z');
    const scheduler = await newScheduler(storage, clock);
    expect(await scheduler.tick()).toContain('domain-age');
    const view = await buildView(storage, clock.now());
    expect(view.byId.get('down-rdap')?.domainAge).toMatchObject({
      ageDays: null,
      young: false,
      problem: { reason: 'http-status', message: 'answered HTTP 500' },
    });
    expect(view.byId.get('no-record')?.domainAge?.problem).toEqual({
      reason: 'http-status',
      message: 'the RDAP service has no record of no-record.test (HTTP 404)',
    });
    // The failed lookups are asked again at the next scan.
    rdap.broken.delete('down-rdap.test');
    rdap.registered.set('down-rdap.test', '2010-01-01T00:00:00Z');
    clock.set('2026-11-11T00:30:00Z');
    await scheduler.tick();
    expect((await buildView(storage, clock.now())).byId.get('down-rdap')?.domainAge).toMatchObject({
      young: false,
      problem: null,
      lookedUpDay: '2026-11-11',
    });

    // An RDAP service that does not answer at all: a connection refusal, recorded, no crash.
    const closed = createMemoryStorage();
    await putJson(closed, 'state/servers.json', {
      servers: [{ id: 'lonely', url: host.urlFor('mcp.lonely.test'), source: 'registry' }],
    });
    const unreachable = await newScheduler(closed, manualClock('2026-11-10T00:30:00Z'), 'http://127.0.0.1:9');
    expect(await unreachable.tick()).toContain('domain-age');
    expect(
      (await buildView(closed, new Date('2026-11-10T00:30:00Z'))).byId.get('lonely')?.domainAge?.problem?.reason,
    ).toBe('no-connection');
  });

  it('never reaches the server’s own domain, even when RDAP is configured there', async () => {
    const storage = createMemoryStorage();
    await putJson(storage, 'state/servers.json', {
      servers: [{ id: 'self-rdap', url: host.urlFor('mcp.self-rdap.test'), source: 'registry' }],
    });
    const clock = manualClock('2026-11-10T00:30:00Z');
    const before = rdap.requests.length;
    // The RDAP base is a name under the server's own domain (it resolves to the RDAP fixture, like every .test name).
    const scheduler = await newScheduler(storage, clock, `http://rdap.self-rdap.test:${rdap.port}`);
    await scheduler.tick();
    expect(rdap.requests.length).toBe(before);
    const age = (await buildView(storage, clock.now())).byId.get('self-rdap')?.domainAge;
    expect(age?.problem?.reason).toBe('refused-own-domain');
    expect(age?.young).toBe(false);
  });
});
