// Weekly download counts from a loopback npm downloads API and a loopback pypistats, each in its documented shape:
// a count, an unknown package, an answer of another shape, and a name refused before anything is sent.
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHttpClient } from '../src/node/index.js';
import { readWeeklyDownloads } from '../src/package-downloads.js';
import { type LocalServer, sendJson, startRawServer } from './fixtures/servers.js';

type Route = (res: http.ServerResponse) => void;
const routes = new Map<string, Route>([
  [
    '/downloads/point/last-week/@acme/mcp-server',
    (res) =>
      sendJson(res, 200, { downloads: 4120, start: '2026-11-30', end: '2026-12-06', package: '@acme/mcp-server' }),
  ],
  ['/downloads/point/last-week/gone', (res) => sendJson(res, 404, { error: 'package gone not found' })],
  ['/downloads/point/last-week/odd', (res) => sendJson(res, 200, { downloads: 'many' })],
  [
    '/api/packages/mcp-server-fetch/recent',
    (res) =>
      sendJson(res, 200, {
        data: { last_day: 900, last_week: 6300, last_month: 27000 },
        package: 'mcp-server-fetch',
        type: 'recent_downloads',
      }),
  ],
]);
let service: LocalServer;
const network = { allowPrivate: true, httpClient: createNodeHttpClient };

beforeAll(async () => {
  service = await startRawServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (route === undefined) return sendJson(res, 404, { error: 'Not found' });
    route(res);
  }, '/');
});
afterAll(async () => {
  await service.close();
});

describe('readWeeklyDownloads', () => {
  const options = () => ({ ...network, npmDownloadsUrl: service.origin, pypiStatsUrl: service.origin });

  it('reads npm’s last-week count of a scoped package and pypistats’ last_week of a PyPI name in normal form', async () => {
    expect(await readWeeklyDownloads('npm', '@acme/mcp-server', options())).toMatchObject({
      ok: true,
      name: '@acme/mcp-server',
      weekly: 4120,
    });
    expect(await readWeeklyDownloads('PyPI', 'MCP_Server.Fetch', options())).toMatchObject({
      ok: true,
      name: 'mcp-server-fetch',
      weekly: 6300,
    });
  });

  it('says why there is no count: unknown, another shape, a name refused unsent', async () => {
    expect(await readWeeklyDownloads('npm', 'gone', options())).toMatchObject({
      ok: false,
      reason: 'http-status',
      httpStatus: 404,
    });
    expect(await readWeeklyDownloads('npm', 'odd', options())).toMatchObject({
      ok: false,
      reason: 'unexpected-answer',
    });
    const before = service.requests.length;
    expect(await readWeeklyDownloads('npm', 'Not A Name', options())).toMatchObject({
      ok: false,
      reason: 'invalid-name',
    });
    expect(service.requests.length).toBe(before);
  });
});
