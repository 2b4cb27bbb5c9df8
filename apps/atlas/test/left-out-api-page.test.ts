// A server off the published map says so in GET /api/servers/:id (`leftOut`, as documented) and on its page,
// in plain words; a server on the map has `leftOut: null` and no such note. Real MCP hosts on loopback, the
// real schedule and HTTP app over a data folder on disk.
import { afterEach, describe, expect, it } from 'vitest';
import { ServerDetailSchema } from '../src/http/schemas.js';
import { putJson } from '../src/storage/storage.js';
import { type OwnerHost, startOwnerHost, startWorld, type World } from './fixtures/submission-world.js';

const hosts: OwnerHost[] = [];
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

describe('left-out servers in the API and on their pages', () => {
  it('the detail answer carries the reason and its words, and the page says it is off the map and why', async () => {
    const [keptHost, goneHost] = await Promise.all([startOwnerHost(), startOwnerHost()]);
    hosts.push(keptHost!, goneHost!);
    world = await startWorld('2026-12-10T00:10:00Z');
    const servers = [
      { id: 'kept-box', url: keptHost!.url, title: 'Kept box', source: 'registry' },
      { id: 'gone-box', url: goneHost!.url, title: 'Gone box', source: 'registry' },
    ];
    await putJson(world.storage, 'state/servers.json', { servers });
    await world.tickAt('2026-12-10T00:10:00Z');
    // The registry drops one entry: it leaves the map at once.
    await putJson(world.storage, 'state/servers.json', { servers: servers.filter((s) => s.id !== 'gone-box') });
    await world.refresh();

    const goneAnswer = await fetch(`${world.base}/api/servers/gone-box`);
    expect(goneAnswer.status).toBe(200);
    const gone = ServerDetailSchema.parse(await goneAnswer.json());
    expect(gone.leftOut).toEqual({ reason: 'not-in-registry', label: 'left out: no longer in the registry' });
    const keptAnswer = ServerDetailSchema.parse(await (await fetch(`${world.base}/api/servers/kept-box`)).json());
    expect(keptAnswer.leftOut).toBeNull();

    const gonePage = await (await fetch(`${world.base}/servers/gone-box`)).text();
    expect(gonePage).toContain('data-left-out="not-in-registry"');
    expect(gonePage).toMatch(
      /<strong>Left out of the published map:<\/strong> no longer in the registry\. It is not in the server lists, the tool search/,
    );
    const keptPage = await (await fetch(`${world.base}/servers/kept-box`)).text();
    expect(keptPage).toContain('Kept box');
    expect(keptPage).not.toContain('data-left-out');
    expect(keptPage).not.toContain('Left out of the published map');
  });
});
