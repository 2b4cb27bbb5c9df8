// Servers off the published map: an origin whose robots.txt shuts our bot out and an entry gone from the
// registry leave the lists, tool search, route and rankings, while their pages still answer and say why.
// Real MCP hosts on loopback, the real schedule and HTTP app over a data folder on disk.
import { afterEach, describe, expect, it } from 'vitest';
import { presentLeftOut } from '../src/http/present-server.js';
import { putJson } from '../src/storage/storage.js';
import { type OwnerHost, startOwnerHost, startWorld, type World } from './fixtures/submission-world.js';

const hosts: OwnerHost[] = [];
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function getBody(url: string): Promise<{ status: number; body: unknown; text: string }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

describe('servers left out of the published map', () => {
  it('leave lists, search and route (robots.txt at the next daily check, registry removal at once) and their pages say why', async () => {
    const [kept, closing, gone] = await Promise.all([startOwnerHost(), startOwnerHost(), startOwnerHost()]);
    hosts.push(kept!, closing!, gone!);
    world = await startWorld('2026-12-10T00:10:00Z');
    const servers = [
      { id: 'kept-box', url: kept!.url, source: 'registry' },
      { id: 'closing-box', url: closing!.url, source: 'registry' },
      { id: 'gone-box', url: gone!.url, source: 'registry' },
    ];
    await putJson(world.storage, 'state/servers.json', { servers });
    await world.tickAt('2026-12-10T00:10:00Z');
    let search = await getBody(`${world.base}/api/toolsearch?q=recipes`);
    for (const id of ['kept-box', 'closing-box', 'gone-box']) expect(search.text).toContain(`"${id}"`);

    // The registry drops one entry; another origin's robots.txt now shuts every bot out.
    await putJson(world.storage, 'state/servers.json', { servers: servers.filter((s) => s.id !== 'gone-box') });
    closing!.state.robots = 'User-agent: *\nDisallow: /\n';
    await world.refresh();
    expect(world.view().leftOut).toEqual([{ id: 'gone-box', reason: 'not-in-registry' }]);
    // robots.txt is read once a day: the host stays on the map until the next daily check leaves it out.
    expect(world.view().servers.map((s) => s.id)).toEqual(['closing-box', 'kept-box']);

    const mcpBefore = closing!.hits.get('/mcp') ?? 0;
    await world.tickAt('2026-12-11T00:10:00Z');
    expect(closing!.hits.get('/mcp') ?? 0).toBe(mcpBefore);
    const view = world.view();
    expect(view.leftOut).toEqual([
      { id: 'closing-box', reason: 'robots' },
      { id: 'gone-box', reason: 'not-in-registry' },
    ]);
    expect(view.rankings.flatMap((r) => r.ranked.map((s) => s.id))).not.toContain('closing-box');

    const list = await getBody(`${world.base}/api/servers`);
    expect((list.body as { servers: { id: string }[] }).servers.map((s) => s.id)).toEqual(['kept-box']);
    search = await getBody(`${world.base}/api/toolsearch?q=recipes`);
    expect(search.text).toContain('"kept-box"');
    expect(search.text).not.toContain('"closing-box"');
    expect(search.text).not.toContain('"gone-box"');
    const route = await getBody(
      `${world.base}/api/route?task=${encodeURIComponent('list the recipes in my cookbook')}`,
    );
    expect(route.status).toBe(200);
    expect(route.text).toContain('"kept-box"');
    expect(route.text).not.toContain('"closing-box"');
    expect(route.text).not.toContain('"gone-box"');

    // The page still answers, with its last letter and tools; the read model says why it is left out.
    const page = await getBody(`${world.base}/api/servers/closing-box`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ id: 'closing-box', letters: 'o' });
    expect((page.body as { tools: unknown[] }).tools).toHaveLength(2);
    expect(presentLeftOut(view.byId.get('closing-box')!)).toEqual({
      reason: 'robots',
      label: 'left out: its robots.txt shuts our bot out',
    });
    expect(presentLeftOut(view.byId.get('kept-box')!)).toBeNull();
  });
});
