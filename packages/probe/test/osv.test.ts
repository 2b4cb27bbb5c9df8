// Known vulnerabilities from a real OSV querybatch service on 127.0.0.1 (raw node:http speaking the API's
// request and answer shapes, paging with next_page_token), and the ways it can misbehave: a 500, a huge
// body, text that is not JSON, the wrong number of results, no answer in time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeInputError } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { type OsvQuery, queryOsvBatch } from '../src/osv.js';
import {
  DEFAULT_OSV_URL,
  OSV_BATCH_MAX_QUERIES,
  OSV_MAX_PAGE_ROUNDS,
  OSV_TIMEOUT_MS,
} from '../src/outside-constants.js';
import { scaledClock } from './fixtures/env.js';
import { type LocalServer, sendJson, startRawServer } from './fixtures/servers.js';

interface WireQuery {
  package: { name: string; ecosystem: string };
  version: string;
  page_token?: string;
}

// The service's database: ids per "ecosystem name@version"; a key listed in PAGED answers two ids per page.
const DATABASE: Record<string, string[]> = {
  'npm left-pad@1.0.0': ['GHSA-aaaa-bbbb-cccc', 'CVE-2020-0001'],
  'PyPI mcp-server-fetch@0.1.0': ['PYSEC-2025-1'],
  'npm many@1.0.0': ['V-1', 'V-2', 'V-3', 'V-4', 'V-5'],
  'npm endless@1.0.0': [],
};
const PAGE_SIZE = 2;
let mode: 'normal' | 'five-hundred' | 'html' | 'short' | 'huge' | 'slow' | 'bad-id' = 'normal';
let osv: LocalServer;
const network = { allowPrivate: true, httpClient: createNodeHttpClient };

function answerOne(query: WireQuery): Record<string, unknown> {
  const key = `${query.package.ecosystem} ${query.package.name}@${query.version}`;
  // An endless pager: every answer names a further page.
  if (key === 'npm endless@1.0.0')
    return {
      vulns: [{ id: `E-${query.page_token ?? '0'}`, modified: '2026-01-01T00:00:00Z' }],
      next_page_token: `${Number(query.page_token ?? '0') + 1}`,
    };
  const ids = DATABASE[key] ?? [];
  const start = query.page_token === undefined ? 0 : Number(query.page_token);
  const page = ids.length > PAGE_SIZE ? ids.slice(start, start + PAGE_SIZE) : ids;
  const vulns = page.map((id) => ({ id, modified: '2026-01-01T00:00:00Z' }));
  const more = ids.length > PAGE_SIZE && start + PAGE_SIZE < ids.length;
  // OSV answers a query with no known vulnerability with an empty object.
  return { ...(vulns.length > 0 ? { vulns } : {}), ...(more ? { next_page_token: String(start + PAGE_SIZE) } : {}) };
}

beforeAll(async () => {
  osv = await startRawServer((req, res, body) => {
    if (req.method !== 'POST' || req.url !== '/v1/querybatch')
      return sendJson(res, 404, { code: 5, message: 'Not Found' });
    if (!String(req.headers['content-type']).startsWith('application/json'))
      return sendJson(res, 400, { code: 3, message: 'bad content type' });
    const { queries } = JSON.parse(body) as { queries: WireQuery[] };
    switch (mode) {
      case 'five-hundred':
        return sendJson(res, 500, { code: 13, message: 'internal' });
      case 'html':
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end('<html>bad gateway</html>');
      case 'short':
        return sendJson(res, 200, { results: queries.slice(1).map(answerOne) });
      case 'huge':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(`{"results":[],"pad":"${'x'.repeat(9 * 1024 * 1024)}"}`);
      case 'slow':
        setTimeout(() => sendJson(res, 200, { results: queries.map(answerOne) }), 3_000).unref();
        return;
      case 'bad-id':
        return sendJson(res, 200, { results: queries.map(() => ({ vulns: [{ id: 42 }] })) });
      default:
        return sendJson(res, 200, { results: queries.map(answerOne) });
    }
  }, '/v1/querybatch');
});

afterAll(async () => {
  await osv.close();
});

const QUERIES: OsvQuery[] = [
  { ecosystem: 'npm', name: 'left-pad', version: '1.0.0' },
  { ecosystem: 'npm', name: 'left-pad', version: '1.3.0' },
  { ecosystem: 'PyPI', name: 'mcp-server-fetch', version: '0.1.0' },
];

describe('asking OSV about package versions', () => {
  it('posts {queries:[{package:{name, ecosystem}, version}]} and returns the ids per query, sorted, in query order', async () => {
    mode = 'normal';
    const read = await queryOsvBatch(QUERIES, { ...network, osvUrl: osv.origin });
    expect(read).toEqual({
      ok: true,
      requests: 1,
      findings: [
        {
          ecosystem: 'npm',
          name: 'left-pad',
          version: '1.0.0',
          ids: ['CVE-2020-0001', 'GHSA-aaaa-bbbb-cccc'],
          truncated: false,
        },
        { ecosystem: 'npm', name: 'left-pad', version: '1.3.0', ids: [], truncated: false },
        { ecosystem: 'PyPI', name: 'mcp-server-fetch', version: '0.1.0', ids: ['PYSEC-2025-1'], truncated: false },
      ],
    });
    const sent = osv.requests.at(-1);
    expect(sent?.method).toBe('POST');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      queries: [
        { package: { name: 'left-pad', ecosystem: 'npm' }, version: '1.0.0' },
        { package: { name: 'left-pad', ecosystem: 'npm' }, version: '1.3.0' },
        { package: { name: 'mcp-server-fetch', ecosystem: 'PyPI' }, version: '0.1.0' },
      ],
    });
  });

  it('follows next_page_token per query until every page is read', async () => {
    mode = 'normal';
    const before = osv.requests.length;
    const read = await queryOsvBatch([{ ecosystem: 'npm', name: 'many', version: '1.0.0' }, QUERIES[0] as OsvQuery], {
      ...network,
      osvUrl: osv.origin,
    });
    expect(read.ok && read.findings[0]).toEqual({
      ecosystem: 'npm',
      name: 'many',
      version: '1.0.0',
      ids: ['V-1', 'V-2', 'V-3', 'V-4', 'V-5'],
      truncated: false,
    });
    expect(read.ok && read.requests).toBe(3);
    // Follow-up rounds ask only the paged query, with its token.
    const followUps = osv.requests.slice(before + 1).map((r) => JSON.parse(r.body) as { queries: WireQuery[] });
    expect(followUps.map((f) => f.queries)).toEqual([
      [{ package: { name: 'many', ecosystem: 'npm' }, version: '1.0.0', page_token: '2' }],
      [{ package: { name: 'many', ecosystem: 'npm' }, version: '1.0.0', page_token: '4' }],
    ]);
  });

  it('stops paging after 5 follow-up rounds and marks the finding truncated', async () => {
    mode = 'normal';
    const read = await queryOsvBatch([{ ecosystem: 'npm', name: 'endless', version: '1.0.0' }], {
      ...network,
      osvUrl: osv.origin,
    });
    expect(read).toMatchObject({ ok: true, requests: 1 + OSV_MAX_PAGE_ROUNDS });
    expect(read.ok && read.findings[0]).toMatchObject({
      truncated: true,
      ids: ['E-0', 'E-1', 'E-2', 'E-3', 'E-4', 'E-5'],
    });
  });

  it('splits more than 1,000 queries into several requests', async () => {
    mode = 'normal';
    const before = osv.requests.length;
    const many = Array.from({ length: OSV_BATCH_MAX_QUERIES + 1 }, (_, i) => ({
      ecosystem: 'npm' as const,
      name: `pkg-${i}`,
      version: '1.0.0',
    }));
    const read = await queryOsvBatch(many, { ...network, osvUrl: osv.origin });
    expect(read).toMatchObject({ ok: true, requests: 2 });
    expect(read.ok && read.findings.length).toBe(1_001);
    expect(
      osv.requests.slice(before).map((r) => (JSON.parse(r.body) as { queries: unknown[] }).queries.length),
    ).toEqual([1_000, 1]);
  });

  it('sends nothing for an empty list', async () => {
    const before = osv.requests.length;
    expect(await queryOsvBatch([], { ...network, osvUrl: osv.origin })).toEqual({
      ok: true,
      findings: [],
      requests: 0,
    });
    expect(osv.requests.length).toBe(before);
  });

  it('defaults to api.osv.dev', () => {
    expect(DEFAULT_OSV_URL).toBe('https://api.osv.dev');
  });
});

describe('a misbehaving OSV service fails the whole batch with a reason', () => {
  const cases = [
    ['five-hundred', { reason: 'http-status', httpStatus: 500 }],
    ['html', { reason: 'http-status', httpStatus: 502 }],
    ['short', { reason: 'unexpected-answer', message: '2 results for 3 queries' }],
    ['huge', { reason: 'too-large' }],
    ['bad-id', { reason: 'unexpected-answer' }],
  ] as const;
  for (const [name, expected] of cases) {
    it(name, async () => {
      mode = name;
      expect(await queryOsvBatch(QUERIES, { ...network, osvUrl: osv.origin })).toMatchObject({
        ok: false,
        ...expected,
      });
    });
  }

  it('a 200 that is not JSON', async () => {
    mode = 'normal';
    const other = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"results": [');
    }, '/v1/querybatch');
    try {
      expect(await queryOsvBatch(QUERIES, { ...network, osvUrl: other.origin })).toMatchObject({
        ok: false,
        reason: 'not-json',
      });
    } finally {
      await other.close();
    }
  });

  it('no answer within 30 s (on a clock running 20 times faster)', async () => {
    mode = 'slow';
    const clock = scaledClock(20);
    expect(await queryOsvBatch(QUERIES, { ...network, clock, osvUrl: osv.origin })).toMatchObject({
      ok: false,
      reason: 'timeout',
    });
    expect(clock.requested).toContain(OSV_TIMEOUT_MS);
  });

  it('a redirect is not followed for a POST', async () => {
    const mover = await startRawServer((_req, res) => {
      res.writeHead(307, { location: `${osv.origin}/v1/querybatch` });
      res.end();
    }, '/v1/querybatch');
    try {
      expect(await queryOsvBatch(QUERIES, { ...network, osvUrl: mover.origin })).toMatchObject({
        ok: false,
        reason: 'http-status',
        httpStatus: 307,
      });
    } finally {
      await mover.close();
    }
  });

  it('a malformed query list is the caller’s mistake', async () => {
    await expect(
      queryOsvBatch([{ ecosystem: 'cargo', name: 'x', version: '1' }] as never, network),
    ).rejects.toBeInstanceOf(ProbeInputError);
    await expect(queryOsvBatch([{ ecosystem: 'npm', name: 'x', version: '' }], network)).rejects.toBeInstanceOf(
      ProbeInputError,
    );
    await expect(queryOsvBatch('left-pad' as never, network)).rejects.toBeInstanceOf(ProbeInputError);
  });
});
