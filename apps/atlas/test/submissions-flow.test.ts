// Submitted servers from the owner's POST to the map, on a simulated clock: real MCP servers on loopback,
// the real schedule checking them every 6 hours, the reliability rule deciding at the end of each week, and
// the route guard treating an admitted server as new for 30 days.
import { afterEach, describe, expect, it } from 'vitest';
import { SUBMITTED_SERVERS_PATH } from '../src/data/paths.js';
import { getJson } from '../src/storage/storage.js';
import { getJsonAt, postJson } from './fixtures/http-atlas.js';
import {
  hoursAfter,
  type OwnerHost,
  RECIPE_TOOLS,
  startOwnerHost,
  startWorld,
  type World,
} from './fixtures/submission-world.js';

const T0 = '2026-03-02T10:00:00.000Z';
const FROM = { 'x-forwarded-for': '198.51.100.7' };

let world: World | null = null;
const hosts: OwnerHost[] = [];

afterEach(async () => {
  await world?.close();
  world = null;
  for (const host of hosts.splice(0)) await host.close();
});

async function host(...args: Parameters<typeof startOwnerHost>): Promise<OwnerHost> {
  const started = await startOwnerHost(...args);
  hosts.push(started);
  return started;
}

/** Runs the ticks of the 6-hour slots `from` to `to` (inclusive) after T0, with `before` run ahead of each. */
async function runSlots(
  w: World,
  from: number,
  to: number,
  before: (slot: number) => void = () => undefined,
): Promise<void> {
  for (let slot = from; slot <= to; slot++) {
    before(slot);
    await w.tickAt(hoursAfter(T0, slot * 6));
  }
}

describe('a submitted server', () => {
  it('is checked every 6 hours for 7 days, joins the map, and is treated as new by route for 30 days', async () => {
    world = await startWorld(T0);
    const steady = await host();
    const undescribed = await host({ tools: [...RECIPE_TOOLS, { name: 'export_recipes' }] });
    const closed = await host({ robots: 'User-agent: mcp-atlas-bot\nDisallow: /\n' });

    const submitted = await postJson(`${world.base}/api/submissions`, { url: steady.url }, FROM);
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({
      created: true,
      submission: {
        url: steady.url,
        status: 'observing',
        submittedAt: T0,
        nextCheckAt: T0,
        window: { index: 0, start: T0, end: hoursAfter(T0, 168) },
      },
    });
    const id = submitted.body.submission.id as string;
    const other = (await postJson(`${world.base}/api/submissions`, { url: undescribed.url }, FROM)).body.submission
      .id as string;
    const refusedByRobots = (await postJson(`${world.base}/api/submissions`, { url: closed.url }, FROM)).body.submission
      .id as string;

    await runSlots(world, 0, 13);
    const halfway = await getJsonAt(`${world.base}/api/submissions/${id}`);
    expect(halfway.body).toMatchObject({
      status: 'observing',
      soFar: { checks: 14, answered: 14, toolListChanges: 0 },
      nextCheckAt: hoursAfter(T0, 84),
    });
    // robots.txt shut our bot out: refused at the first slot, and the MCP endpoint never saw a request.
    const robots = (await getJsonAt(`${world.base}/api/submissions/${refusedByRobots}`)).body;
    expect(robots).toMatchObject({
      status: 'refused',
      stoppedBecause: `robots.txt of ${closed.origin} disallows mcp-atlas-bot`,
    });
    expect(closed.hits.get('/mcp') ?? 0).toBe(0);

    await runSlots(world, 14, 27);
    expect(steady.hits.get('/mcp')).toBe(28 * 3);
    // The window is over only at T0 + 7 days.
    expect((await getJsonAt(`${world.base}/api/submissions/${id}`)).body).toMatchObject({
      status: 'observing',
      nextCheckAt: null,
    });
    expect(await world.tickAt(hoursAfter(T0, 168))).toContain('submissions');

    const admitted = (await getJsonAt(`${world.base}/api/submissions/${id}`)).body;
    expect(admitted.status).toBe('admitted');
    expect(admitted.decisions).toEqual([
      {
        window: 0,
        decidedAt: hoursAfter(T0, 168),
        verdict: 'admitted',
        reasons: [
          '28 checks ran (at least 20 needed)',
          '28 of 28 answered with tools, 100% (at least 90% needed)',
          'the tool list changed 0 times (at most 1 allowed)',
          'every tool listed had a description',
        ],
        figures: { checks: 28, answered: 28, answeredPercent: 100, toolListChanges: 0, undescribedChecks: 0 },
      },
    ]);
    const serverId = admitted.serverId as string;
    expect(serverId).toMatch(/^127-0-0-1-\d+-mcp-[0-9a-f]{8}$/);
    expect(await getJson(world.storage, SUBMITTED_SERVERS_PATH)).toEqual({
      servers: [{ id: serverId, url: steady.url, title: 'Recipe Box', source: 'submitted', submittedAt: T0 }],
    });
    const refused = (await getJsonAt(`${world.base}/api/submissions/${other}`)).body;
    expect(refused).toMatchObject({ status: 'refused', serverId: null });
    expect(refused.decisions[0].reasons).toEqual([
      '28 answered checks listed a tool without a description (every tool must be described)',
    ]);

    // On the map from the next daily check.
    expect((await getJsonAt(`${world.base}/api/servers`)).body.servers).toEqual([]);
    await world.tickAt('2026-03-10T00:10:00.000Z');
    const list = (await getJsonAt(`${world.base}/api/servers`)).body;
    expect(list.servers.map((s: { id: string }) => s.id)).toEqual([serverId]);
    expect(list.servers[0]).toMatchObject({ letter: 'o', title: 'Recipe Box', toolCount: 2 });
    const detail = (await getJsonAt(`${world.base}/api/servers/${serverId}`)).body;
    expect(detail).toMatchObject({ submittedAt: T0, owner: null });

    // Route: the guard's 0.8 for a server submitted under 30 days ago, and the high-risk set-aside.
    const read = (await getJsonAt(`${world.base}/api/route?task=list%20recipes%20in%20my%20cookbook`)).body;
    expect(read.picks[0]).toMatchObject({ serverId, tool: 'list_recipes' });
    expect(read.picks[0].factors.guard).toBe(0.8);
    const risky = (await getJsonAt(`${world.base}/api/route?task=delete%20all%20recipes%20in%20the%20cookbook`)).body;
    expect(risky.picks).toEqual([]);
    expect(risky.setAside).toEqual([
      expect.objectContaining({ serverId, reason: 'submitted under 30 days ago and the task is high risk' }),
    ]);

    // Thirty days after submission it is no longer new.
    await world.tickAt('2026-04-01T10:00:00.000Z');
    expect(
      (await getJsonAt(`${world.base}/api/route?task=list%20recipes%20in%20my%20cookbook`)).body.picks[0].factors.guard,
    ).toBe(1);
  });

  it('gets one more week at 70% to 90% answered, and joins after a good second week', async () => {
    world = await startWorld(T0);
    const shaky = await host();
    const id = (await postJson(`${world.base}/api/submissions`, { url: shaky.url }, FROM)).body.submission.id as string;
    const downSlots = new Set([2, 5, 9, 14, 20, 25]);
    await runSlots(world, 0, 28, (slot) => {
      shaky.state.down = downSlots.has(slot);
    });

    const extended = (await getJsonAt(`${world.base}/api/submissions/${id}`)).body;
    expect(extended).toMatchObject({
      status: 'observing',
      window: { index: 1, start: hoursAfter(T0, 168), end: hoursAfter(T0, 336) },
    });
    expect(extended.decisions).toEqual([
      {
        window: 0,
        decidedAt: hoursAfter(T0, 168),
        verdict: 'extended',
        reasons: [
          '22 of 28 answered with tools, 78.5% (at least 90% needed)',
          'one more 7-day window follows (granted once)',
        ],
        figures: { checks: 28, answered: 22, answeredPercent: 78.5, toolListChanges: 0, undescribedChecks: 0 },
      },
    ]);
    // Slot 28 opened the extra window and was checked at the same tick.
    expect(extended.soFar).toEqual({ checks: 1, answered: 1, toolListChanges: 0, undescribedChecks: 0 });

    await runSlots(world, 29, 56, (slot) => {
      shaky.state.down = slot === 40;
    });
    const done = (await getJsonAt(`${world.base}/api/submissions/${id}`)).body;
    expect(done.status).toBe('admitted');
    expect(done.decisions.map((d: { verdict: string }) => d.verdict)).toEqual(['extended', 'admitted']);
    expect(done.decisions[1].figures).toEqual({
      checks: 28,
      answered: 27,
      answeredPercent: 96.4,
      toolListChanges: 0,
      undescribedChecks: 0,
    });
    expect(await getJson(world.storage, SUBMITTED_SERVERS_PATH)).toMatchObject({
      servers: [{ url: shaky.url, submittedAt: T0 }],
    });
  });
});
