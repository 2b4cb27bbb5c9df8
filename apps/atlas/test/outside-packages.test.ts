// The package layer end to end, on a simulated clock: a registry on loopback whose entries ship npm and PyPI
// packages, real npm/PyPI/OSV services on loopback (raw node:http, each in its own format), the schedule's
// daily package read and its 04:05 UTC OSV check (with catch-up), the dated day file and its seal, and the
// known vulnerabilities on GET /api/servers/:id. A broken service leaves its reason and crashes nothing.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeHttpClient } from '@mcp-atlas/probe/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverIdFor } from '../src/data/server-id.js';
import { ServerDetailSchema } from '../src/http/schemas.js';
import { createLogger } from '../src/log.js';
import { PackageLayerFileSchema } from '../src/outside/outside-schemas.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { packagesOf } from '../src/serve/registry-sync.js';
import { type ScheduleClock, Scheduler } from '../src/serve/scheduler.js';
import { serveAtlas } from '../src/serve/serve-atlas.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { manualClock } from './fixtures/manual-clock.js';
import {
  lookupTestNames,
  type OsvFixture,
  type PackageRegistryFixture,
  startOsv,
  startPackageRegistries,
} from './fixtures/outside-services.js';

const network = { allowPrivate: true, lookup: lookupTestNames, httpClient: createNodeHttpClient };

const PAY = 'io.example/pay';
const SHOP = 'io.example/shop';

// The official registry's listing: one page, two live entries shipping packages (and some the layer must skip).
const LISTING = {
  servers: [
    {
      server: {
        name: PAY,
        version: '1.0.0',
        remotes: [{ type: 'streamable-http', url: 'https://mcp.pay.test/mcp' }],
        packages: [
          { registryType: 'npm', identifier: '@acme/pay-mcp', version: '1.0.0', transport: { type: 'stdio' } },
          { registryType: 'pypi', identifier: 'Acme_Pay.MCP', version: '0.9.0', transport: { type: 'stdio' } },
          { registryType: 'oci', identifier: 'docker.io/acme/pay-mcp', version: '1.0.0' },
          {
            registryType: 'npm',
            registryBaseUrl: 'https://npm.pkg.github.com',
            identifier: '@acme/private-mcp',
            version: '1.0.0',
          },
          { registryType: 'npm', identifier: '@acme/pay-mcp', version: '1.0.0' },
        ],
      },
      _meta: { 'io.modelcontextprotocol.registry/official': { isLatest: true, status: 'active' } },
    },
    {
      server: {
        name: SHOP,
        remotes: [{ type: 'streamable-http', url: 'https://mcp.shop.test/mcp' }],
        packages: [
          {
            registryType: 'npm',
            registryBaseUrl: 'https://registry.npmjs.org/',
            identifier: '@acme/pay-mcp',
            version: '0.8.0',
          },
          { registryType: 'npm', identifier: 'shop-broken', version: '2.0.0' },
        ],
      },
      _meta: { 'io.modelcontextprotocol.registry/official': { isLatest: true } },
    },
  ],
  metadata: {},
};

let registry: { url: string; close(): Promise<void> };
let packages: PackageRegistryFixture;
let osv: OsvFixture;

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    const body = req.url?.startsWith('/v0.1/servers')
      ? JSON.stringify(LISTING)
      : JSON.stringify({ error: 'not found' });
    res.writeHead(req.url?.startsWith('/v0.1/servers') ? 200 : 404, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  packages = await startPackageRegistries();
  packages.npm.set('@acme/pay-mcp', '1.2.0');
  packages.pypi.set('acme-pay-mcp', '0.9.3');
  packages.broken.add('shop-broken');
  osv = await startOsv();
  osv.vulnerabilities.set('npm @acme/pay-mcp@1.2.0', ['GHSA-pay1-0000-0001', 'CVE-2026-1234']);
  packages.downloads.set('@acme/pay-mcp', 5214);
  packages.downloads.set('acme-pay-mcp', 830);
  osv.vulnerabilities.set('PyPI acme-pay-mcp@0.9.3', ['PYSEC-2026-77']);
});

afterAll(async () => {
  await registry.close();
  await packages.close();
  await osv.close();
});

async function newScheduler(storage: Storage, clock: ScheduleClock): Promise<Scheduler> {
  const keys = await loadOrCreateSigningKeys(storage, clock.now());
  return new Scheduler({
    storage,
    log: createLogger('silent'),
    keys,
    registryUrl: registry.url,
    network,
    clock,
    outside: {
      npmUrl: packages.origin,
      pypiUrl: packages.origin,
      osvUrl: osv.origin,
      rdapUrl: 'http://127.0.0.1:9',
      npmDownloadsUrl: packages.origin,
      pypiStatsUrl: packages.origin,
    },
  });
}

const payId = serverIdFor(PAY);
const shopId = serverIdFor(SHOP);

describe('the registry read keeps each entry’s packages', () => {
  it('keeps npm and PyPI packages on the public registries, each once; other types and other registries are left out', () => {
    expect(packagesOf(LISTING.servers[0]?.server)).toEqual([
      { registryType: 'npm', identifier: '@acme/pay-mcp', version: '1.0.0' },
      { registryType: 'pypi', identifier: 'Acme_Pay.MCP', version: '0.9.0' },
    ]);
    expect(packagesOf({ packages: 'npm' })).toEqual([]);
    expect(
      packagesOf({
        packages: [
          { registryType: 'NPM', identifier: '' },
          null,
          { registryType: 'pypi', identifier: 'x'.repeat(215) },
        ],
      }),
    ).toEqual([]);
    expect(
      packagesOf({ packages: Array.from({ length: 12 }, (_, i) => ({ registryType: 'npm', identifier: `p${i}` })) }),
    ).toHaveLength(10);
  });
});

describe('the package layer through the schedule', () => {
  it('reads versions once a day, checks them against OSV at 04:05 UTC, writes a sealed day file and shows the vulnerabilities', async () => {
    const storage = createMemoryStorage();
    const clock = manualClock('2026-11-10T00:30:00Z');
    const scheduler = await newScheduler(storage, clock);

    const first = await scheduler.tick();
    expect(first).toContain('daily');
    expect(first).toContain('packages');
    expect(first).not.toContain('osv');
    const watched = (await getJson(storage, 'state/servers.json')) as {
      servers: { id: string; packages?: unknown[] }[];
    };
    expect(watched.servers.find((s) => s.id === payId)?.packages).toEqual([
      { registryType: 'npm', identifier: '@acme/pay-mcp', version: '1.0.0' },
      { registryType: 'pypi', identifier: 'Acme_Pay.MCP', version: '0.9.0' },
    ]);
    // Each package is read once, scoped names as @scope%2Fname, PyPI names in normal form; its download count too.
    expect(packages.requests.map((r) => r.path).sort()).toEqual([
      '/@acme%2Fpay-mcp',
      '/api/packages/acme-pay-mcp/recent',
      '/downloads/point/last-week/@acme/pay-mcp',
      '/downloads/point/last-week/shop-broken',
      '/pypi/acme-pay-mcp/json',
      '/shop-broken',
    ]);
    const read = PackageLayerFileSchema.parse(await getJson(storage, 'days/2026-11-10/packages.json'));
    expect(read.osv).toBeNull();
    expect(read.packages).toEqual([
      {
        ecosystem: 'PyPI',
        name: 'acme-pay-mcp',
        servers: [payId],
        version: '0.9.3',
        problem: null,
        vulnerabilities: null,
        truncated: false,
        weeklyDownloads: 830,
      },
      {
        ecosystem: 'npm',
        name: '@acme/pay-mcp',
        servers: [payId, shopId].sort(),
        version: '1.2.0',
        problem: null,
        vulnerabilities: null,
        truncated: false,
        weeklyDownloads: 5214,
      },
      {
        ecosystem: 'npm',
        name: 'shop-broken',
        servers: [shopId],
        version: null,
        problem: { reason: 'http-status', message: 'answered HTTP 500' },
        vulnerabilities: null,
        truncated: false,
        // npm's downloads API has no count for it: null, never 0.
        weeklyDownloads: null,
      },
    ]);

    // Not before 04:05 UTC.
    clock.set('2026-11-10T04:04:59Z');
    expect(await scheduler.tick()).not.toContain('osv');
    expect(osv.batches()).toHaveLength(0);

    clock.set('2026-11-10T04:05:00Z');
    expect(await scheduler.tick()).toContain('osv');
    // One batch, the versions read today, the unreadable package left out.
    expect(osv.batches()).toEqual([
      [
        { package: { name: 'acme-pay-mcp', ecosystem: 'PyPI' }, version: '0.9.3' },
        { package: { name: '@acme/pay-mcp', ecosystem: 'npm' }, version: '1.2.0' },
      ],
    ]);
    const checked = PackageLayerFileSchema.parse(await getJson(storage, 'days/2026-11-10/packages.json'));
    expect(checked.osv).toEqual({ checkedAt: '2026-11-10T04:05:00.000Z', ok: true, problem: null, attempts: 1 });
    expect(checked.packages.map((p) => [p.name, p.vulnerabilities])).toEqual([
      ['acme-pay-mcp', ['PYSEC-2026-77']],
      ['@acme/pay-mcp', ['CVE-2026-1234', 'GHSA-pay1-0000-0001']],
      ['shop-broken', null],
    ]);

    // Once a day: a later tick does not ask again.
    clock.set('2026-11-10T07:00:00Z');
    expect(await scheduler.tick()).not.toContain('osv');
    expect(osv.batches()).toHaveLength(1);

    const running = await serveAtlas({
      storage,
      port: 0,
      log: createLogger('silent'),
      keys: await loadOrCreateSigningKeys(storage, clock.now()),
      now: () => clock.now(),
      handleSignals: false,
    });
    try {
      const pay = ServerDetailSchema.parse(await (await fetch(`${running.url}/api/servers/${payId}`)).json());
      expect(pay.packages).toEqual({
        day: '2026-11-10',
        osv: { checkedAt: '2026-11-10T04:05:00.000Z', ok: true, problem: null, attempts: 1 },
        packages: [
          {
            ecosystem: 'PyPI',
            name: 'acme-pay-mcp',
            version: '0.9.3',
            problem: null,
            vulnerabilities: ['PYSEC-2026-77'],
            truncated: false,
            weeklyDownloads: 830,
          },
          {
            ecosystem: 'npm',
            name: '@acme/pay-mcp',
            version: '1.2.0',
            problem: null,
            vulnerabilities: ['CVE-2026-1234', 'GHSA-pay1-0000-0001'],
            truncated: false,
            weeklyDownloads: 5214,
          },
        ],
        newer: null,
      });
      // The server page shows each count, and says so where none was read.
      const page = await (await fetch(`${running.url}/servers/${payId}`)).text();
      expect(page).toMatch(
        /data-package="npm\/@acme\/pay-mcp">[\s\S]*?<td class="num" data-downloads[^>]*>5,214<\/td>/,
      );
      const shopPage = await (await fetch(`${running.url}/servers/${shopId}`)).text();
      expect(shopPage).toMatch(
        /data-package="npm\/shop-broken">[\s\S]*?<td class="num" data-downloads[^>]*>not read<\/td>/,
      );
      const shop = ServerDetailSchema.parse(await (await fetch(`${running.url}/api/servers/${shopId}`)).json());
      expect(shop.packages.packages.find((p) => p.name === 'shop-broken')).toEqual({
        ecosystem: 'npm',
        name: 'shop-broken',
        version: null,
        problem: { reason: 'http-status', message: 'answered HTTP 500' },
        vulnerabilities: null,
        truncated: false,
        weeklyDownloads: null,
      });
      const openapi = (await (await fetch(`${running.url}/api/openapi.json`)).json()) as {
        components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      };
      expect(Object.keys(openapi.components.schemas.ServerDetail?.properties ?? {})).toEqual(
        expect.arrayContaining(['domainAge', 'packages']),
      );
    } finally {
      await running.close();
    }

    // The next day's seal covers the package layer, byte for byte.
    clock.set('2026-11-11T01:05:00Z');
    const next = await scheduler.tick();
    expect(next).toContain('seal');
    expect(next).toContain('packages');
    const root = (await getJson(storage, 'roots/2026-11-10.json')) as { files: string[] };
    const bytes = (await storage.get('days/2026-11-10/packages.json')) as Uint8Array;
    expect(root.files).toContain(`${createHash('sha256').update(bytes).digest('hex')}  packages.json`);

    // Before 04:05 on the new day, the page still shows yesterday's answer, and names the newer day waiting for OSV.
    const view = await buildView(storage, clock.now());
    expect(view.byId.get(payId)?.packages).toMatchObject({
      day: '2026-11-10',
      newer: { day: '2026-11-11', osv: null },
    });
  });

  it('catches up when the service was down at 04:05: the first tick after reads the versions, then asks OSV', async () => {
    const storage = createMemoryStorage();
    const clock = manualClock('2026-11-12T09:30:00Z');
    const scheduler = await newScheduler(storage, clock);
    const before = osv.batches().length;
    const ran = await scheduler.tick();
    expect(ran.indexOf('packages')).toBeGreaterThanOrEqual(0);
    expect(ran.indexOf('osv')).toBeGreaterThan(ran.indexOf('packages'));
    expect(osv.batches().length).toBe(before + 1);
    expect(PackageLayerFileSchema.parse(await getJson(storage, 'days/2026-11-12/packages.json')).osv?.ok).toBe(true);
  });

  it('a failing OSV leaves its reason on the day and in the API, vulnerabilities unknown (not clean), and is tried again an hour later', async () => {
    const storage = createMemoryStorage();
    const clock = manualClock('2026-11-13T04:10:00Z');
    const scheduler = await newScheduler(storage, clock);
    osv.failing.on = true;
    try {
      expect(await scheduler.tick()).toContain('osv');
      const failed = PackageLayerFileSchema.parse(await getJson(storage, 'days/2026-11-13/packages.json'));
      expect(failed.osv).toEqual({
        checkedAt: '2026-11-13T04:10:00.000Z',
        ok: false,
        problem: { reason: 'http-status', message: 'answered HTTP 500' },
        attempts: 1,
      });
      expect(failed.packages.every((p) => p.vulnerabilities === null)).toBe(true);
      const shown = (await buildView(storage, clock.now())).byId.get(payId)?.packages;
      expect(shown?.osv?.problem?.message).toBe('answered HTTP 500');
      expect(shown?.packages.every((p) => p.vulnerabilities === null)).toBe(true);

      // Within the hour: not asked again.
      clock.set('2026-11-13T05:09:00Z');
      expect(await scheduler.tick()).not.toContain('osv');
    } finally {
      osv.failing.on = false;
    }
    clock.set('2026-11-13T05:10:00Z');
    expect(await scheduler.tick()).toContain('osv');
    const retried = PackageLayerFileSchema.parse(await getJson(storage, 'days/2026-11-13/packages.json'));
    expect(retried.osv).toMatchObject({ ok: true, attempts: 2, problem: null });
    expect(retried.packages.find((p) => p.name === '@acme/pay-mcp')?.vulnerabilities).toEqual([
      'CVE-2026-1234',
      'GHSA-pay1-0000-0001',
    ]);
  });

  it('writes no package layer when no watched server ships a package', async () => {
    const storage = createMemoryStorage();
    await putJson(storage, 'state/servers.json', {
      servers: [{ id: 'bare', url: 'https://mcp.bare.test/mcp', source: 'registry' }],
    });
    const keys = await loadOrCreateSigningKeys(storage, new Date('2026-11-14T05:00:00Z'));
    const clock = manualClock('2026-11-14T05:00:00Z');
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network,
      clock,
      outside: {
        npmUrl: packages.origin,
        pypiUrl: packages.origin,
        osvUrl: osv.origin,
        npmDownloadsUrl: packages.origin,
        pypiStatsUrl: packages.origin,
      },
    });
    const ran = await scheduler.tick();
    expect(ran).not.toContain('packages');
    expect(ran).not.toContain('osv');
    expect(await storage.get('days/2026-11-14/packages.json')).toBeNull();
    expect((await buildView(storage, clock.now())).byId.get('bare')?.packages).toEqual({
      day: null,
      osv: null,
      packages: [],
      newer: null,
    });
  });
});
