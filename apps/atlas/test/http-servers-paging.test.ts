// GET /api/servers over the fixture observatory served on loopback: pages walked with several limits add up to
// the whole list, bad limits and cursors are refused with a message, a cursor from an older read model goes on
// in id order, the ETag answers 304 until the read model's list changes, and the unpaged answer is byte for
// byte the JSON of the presented list, for the fixture and for the demo's month.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentObserving, presentServerSummary } from '../src/http/present-server.js';
import { ErrorBodySchema, SERVER_LIST_MAX_LIMIT, ServerListSchema } from '../src/http/schemas.js';
import { encodeServerCursor } from '../src/http/server-cursor.js';
import { type ServerListPage, ServerListPageSchema } from '../src/http/server-list.js';
import { PAGE_MAX_AGE_SECONDS } from '../src/pages/routes.js';
import { type AtlasView, buildView } from '../src/view/build-view.js';
import { FIXTURE_NOW, type RunningFixture, startFixture, writeFixture } from './fixtures/http-atlas.js';
import { buildDemoSite, type DemoSite } from './pages-fixtures.js';

// Six fixture servers and twenty sign-in fillers: 26 servers, so limit 7 takes four pages.
const FILLERS = 20;

/** The JSON of the list as the route built it before it kept serialized text: `c.json` of the presented list. */
function presentedListJson(view: AtlasView): string {
  return JSON.stringify({
    day: view.day,
    servers: view.servers.map((server) => presentServerSummary(view, server)),
    observing: view.observing.map(presentObserving),
  });
}

let f: RunningFixture;
let viewA: AtlasView;
let viewB: AtlasView;
let current: AtlasView;
let doc: any;

beforeAll(async () => {
  const a = await writeFixture(undefined, FILLERS);
  viewA = await buildView(a.storage, FIXTURE_NOW);
  // A later read model with fewer servers on the map: fillers 04 to 20 are gone from it.
  viewB = await buildView((await writeFixture(undefined, 3)).storage, FIXTURE_NOW);
  current = viewA;
  f = await startFixture({ storage: a.storage, keys: a.keys, deps: { getView: () => current } });
  doc = await (await fetch(`${f.base}/api/openapi.json`)).json();
});
afterAll(async () => {
  await f.close();
});

async function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(f.base + path, { headers });
}

async function pageAt(path: string): Promise<ServerListPage> {
  const response = await get(path);
  expect(response.status).toBe(200);
  return ServerListPageSchema.strict().parse(await response.json());
}

/** Follows `next` from the first page to the last; the pages in order. */
async function walk(limit: number): Promise<ServerListPage[]> {
  const pages: ServerListPage[] = [];
  let cursor: string | null = null;
  do {
    const page = await pageAt(`/api/servers?limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    pages.push(page);
    cursor = page.next;
  } while (cursor !== null && pages.length < 100);
  return pages;
}

async function expectRefused(path: string): Promise<string> {
  const response = await get(path);
  expect(response.status, path).toBe(400);
  const body = ErrorBodySchema.parse(await response.json());
  expect(body.error.code).toBe('invalid_query');
  return body.error.message;
}

describe('GET /api/servers, paged', () => {
  it.each([1, 2, 7])('with limit %i, the pages in order are the whole list, each server once', async (limit) => {
    current = viewA;
    const whole = ServerListSchema.parse(await (await get('/api/servers')).json());
    expect(whole.servers).toHaveLength(6 + FILLERS);
    const pages = await walk(limit);
    expect(pages).toHaveLength(Math.ceil(whole.servers.length / limit));
    const ids = pages.flatMap((page) => page.servers.map((server) => server.id));
    expect(ids).toEqual(whole.servers.map((server) => server.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.flatMap((page) => page.servers)).toEqual(whole.servers);
    for (const [index, page] of pages.entries()) {
      expect(page.servers.length).toBeLessThanOrEqual(limit);
      expect(page.total).toBe(whole.servers.length);
      expect(page.day).toBe(whole.day);
      // `observing` rides on every page, so each page is a complete answer on its own.
      expect(page.observing).toEqual(whole.observing);
      expect(page.next === null).toBe(index === pages.length - 1);
    }
  });

  it('gives one page with everything at the largest limit, and the default page size for a cursor alone', async () => {
    current = viewA;
    const all = await pageAt(`/api/servers?limit=${SERVER_LIST_MAX_LIMIT}`);
    expect(all.servers).toHaveLength(6 + FILLERS);
    expect(all.next).toBeNull();
    const first = await pageAt('/api/servers?limit=1');
    const rest = await pageAt(`/api/servers?cursor=${first.next}`);
    expect(rest.servers.map((s) => s.id)).toEqual(all.servers.slice(1).map((s) => s.id));
    expect(rest.next).toBeNull();
  });

  it('answers a page as the OpenAPI document describes it, and the whole list too', async () => {
    current = viewA;
    const schema = doc.paths['/api/servers'].get.responses['200'].content['application/json'].schema;
    const validate = new AjvJsonSchemaValidator().getValidator({
      allOf: [schema],
      components: doc.components,
    } as never);
    const page = await (await get('/api/servers?limit=2')).json();
    expect(validate(page).errorMessage ?? 'valid').toBe('valid');
    expect(validate(await (await get('/api/servers')).json()).errorMessage ?? 'valid').toBe('valid');
    // A page without its `next` is neither shape: the document really tells the two apart.
    const { next: _next, ...broken } = page;
    expect(validate(broken).valid).toBe(false);
    const parameters = doc.paths['/api/servers'].get.parameters.map((p: { name: string }) => p.name);
    expect(parameters).toEqual(['limit', 'cursor']);
    expect(Object.keys(doc.paths['/api/servers'].get.responses)).toEqual(expect.arrayContaining(['200', '304', '400']));
  });

  it('refuses a limit outside 1 to 500, or not written in digits, with a message naming the range', async () => {
    for (const limit of ['0', '501', 'abc', '1e2', '-1', '', '1000', '100.0']) {
      expect(await expectRefused(`/api/servers?limit=${limit}`)).toBe('limit: must be a whole number from 1 to 500');
    }
    expect((await get('/api/servers?limit=500')).status).toBe(200);
    expect((await get('/api/servers?limit=1')).status).toBe(200);
  });

  it('refuses a cursor it did not give, an unknown parameter and a parameter given twice', async () => {
    const notOurs = [
      'garbage!!',
      '%25%25',
      encodeServerCursor('Not_An_Id'),
      `${encodeServerCursor('notes-hub')}=`,
      `${encodeServerCursor('notes-hub')}*`,
      'x'.repeat(201),
    ];
    for (const cursor of notOurs) {
      expect(await expectRefused(`/api/servers?limit=2&cursor=${cursor}`)).toBe(
        'cursor: is not a cursor this service gave; use the `next` of a page, or start again without one',
      );
    }
    expect(await expectRefused('/api/servers?cursor=')).toContain('cursor: is not a cursor');
    expect(await expectRefused('/api/servers?page=2')).toContain('page');
    expect(await expectRefused('/api/servers?limit=2&limit=3')).toBe('limit: given 2 times; give it once');
  });

  it('goes on in id order with a cursor from an older read model whose server has left the map', async () => {
    current = viewA;
    // Walk the older model one server at a time up to filler-15, which the newer model no longer has.
    let page = await pageAt('/api/servers?limit=1');
    while (page.servers[0]?.id !== 'filler-15') page = await pageAt(`/api/servers?limit=1&cursor=${page.next}`);
    expect(viewB.byId.has('filler-15')).toBe(false);
    current = viewB;
    const after = await pageAt(`/api/servers?limit=50&cursor=${page.next}`);
    const expected = viewB.servers.map((s) => s.id).filter((id) => id.localeCompare('filler-15') > 0);
    expect(expected.length).toBeGreaterThan(0);
    expect(after.servers.map((s) => s.id)).toEqual(expected);
    expect(after.total).toBe(viewB.servers.length);
    // A cursor naming a server still on the map continues right after it.
    const kept = viewB.servers[1]!.id;
    const next = await pageAt(`/api/servers?limit=1&cursor=${encodeServerCursor(kept)}`);
    expect(next.servers.map((s) => s.id)).toEqual([viewB.servers[2]!.id]);
    // Past the last server: an empty last page.
    const end = await pageAt(`/api/servers?limit=5&cursor=${encodeServerCursor('zzz')}`);
    expect(end).toMatchObject({ servers: [], next: null });
    current = viewA;
  });
});

describe('GET /api/servers, conditional requests', () => {
  it('sends a strong ETag and the pages’ Cache-Control, and answers 304 without a body to a matching If-None-Match', async () => {
    current = viewA;
    const first = await get('/api/servers');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_.-]+"$/);
    expect(first.headers.get('cache-control')).toBe(`public, max-age=${PAGE_MAX_AGE_SECONDS}`);
    await first.arrayBuffer();
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get('/api/servers', { 'if-none-match': header });
      expect(again.status, header).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe(`public, max-age=${PAGE_MAX_AGE_SECONDS}`);
    }
    const changed = await get('/api/servers', { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe(presentedListJson(viewA));
  });

  it('gives each page its own ETag, and a page answers 304 to its own', async () => {
    current = viewA;
    const tags = new Set<string>();
    const whole = await get('/api/servers');
    tags.add(whole.headers.get('etag')!);
    const first = await get('/api/servers?limit=2');
    const firstPage = ServerListPageSchema.parse(await first.json());
    tags.add(first.headers.get('etag')!);
    const second = await get(`/api/servers?limit=2&cursor=${firstPage.next}`);
    tags.add(second.headers.get('etag')!);
    const wider = await get('/api/servers?limit=3');
    tags.add(wider.headers.get('etag')!);
    await Promise.all([whole, second, wider].map((r) => r.arrayBuffer()));
    expect(tags.size).toBe(4);
    const revalidated = await get('/api/servers?limit=2', { 'if-none-match': first.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
    const crossed = await get('/api/servers?limit=3', { 'if-none-match': first.headers.get('etag')! });
    expect(crossed.status).toBe(200);
    await crossed.arrayBuffer();
  });

  it('changes the ETag with a new read model whose list differs, and keeps it when a rebuild lists the same', async () => {
    current = viewA;
    const before = await get('/api/servers');
    const etag = before.headers.get('etag')!;
    await before.arrayBuffer();
    current = viewB;
    const after = await get('/api/servers', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(await after.text()).toBe(presentedListJson(viewB));
    // The tag is a digest of the answer, not the model's identity: a rebuild with the same list still matches.
    current = await buildView(f.storage, FIXTURE_NOW);
    expect(current).not.toBe(viewA);
    const rebuilt = await get('/api/servers', { 'if-none-match': etag });
    expect(rebuilt.status).toBe(304);
    current = viewA;
  });

  it('keeps CORS on a 304', async () => {
    current = viewA;
    const etag = (await get('/api/servers', { origin: 'https://elsewhere.example' })).headers.get('etag')!;
    const again = await get('/api/servers', { origin: 'https://elsewhere.example', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /api/servers without parameters', () => {
  it('answers byte for byte the JSON of the presented list, as application/json', async () => {
    current = viewA;
    const response = await get('/api/servers');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe(presentedListJson(viewA));
  });

  describe('over the demo’s month', () => {
    let site: DemoSite;
    beforeAll(async () => {
      site = await buildDemoSite(8);
    });

    it('answers byte for byte the JSON of the presented list, observing entries included', async () => {
      const response = await site.app.request('/api/servers');
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toBe(presentedListJson(site.view()));
      const list = ServerListSchema.parse(JSON.parse(text));
      expect(list.servers.length).toBeGreaterThan(10);
      expect(list.observing.length).toBeGreaterThan(0);
      // Its pages add up to the same list.
      const first = ServerListPageSchema.parse(await (await site.app.request('/api/servers?limit=4')).json());
      const rest = ServerListPageSchema.parse(
        await (await site.app.request(`/api/servers?limit=500&cursor=${first.next}`)).json(),
      );
      expect([...first.servers, ...rest.servers]).toEqual(JSON.parse(text).servers);
    });
  });
});
