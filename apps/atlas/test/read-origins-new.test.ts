// An origin first listed after the day's origins file was written (here: a server admitted mid-day) has its
// robots.txt read before any check of it, and is added to the day's file; the origins the file already holds
// are not read again that day. Real MCP hosts on loopback and the real schedule on a clock the test sets.
import { afterEach, describe, expect, it } from 'vitest';
import { ORIGINS_PATH } from '../src/data/paths.js';
import type { WatchedServer } from '../src/data/schemas.js';
import { readOriginsOfDay } from '../src/scan/read-origins.js';
import type { Scheduler } from '../src/serve/scheduler.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson } from '../src/storage/storage.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { manualClock } from './fixtures/manual-clock.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';

const hosts: OwnerHost[] = [];
const schedulers: Scheduler[] = [];
afterEach(async () => {
  await Promise.all(schedulers.splice(0).map((s) => s.stop()));
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

const DAY = '2026-12-10';
const SHUT_ROBOTS = 'User-agent: *\nDisallow: /\n';

interface SavedOrigins {
  day: string;
  excluded: string[];
  origins: { origin: string; robots: { excludesOrigin: boolean } | null }[];
}

const hitsOf = (host: OwnerHost, path: string) => host.hits.get(path) ?? 0;

/** Host A (lets the bot in) and host B (shuts it out), on two loopback origins. */
async function twoHosts(): Promise<{ open: OwnerHost; shut: OwnerHost }> {
  const [open, shut] = [await startOwnerHost(), await startOwnerHost({ robots: SHUT_ROBOTS })];
  hosts.push(open, shut);
  return { open, shut };
}

const watched = (id: string, host: OwnerHost): WatchedServer => ({ id, url: host.url, source: 'registry' });

describe('an origin listed after the day’s robots.txt reads', () => {
  it('is read before the hourly check and left out when its robots.txt shuts the bot out; the file gains it', async () => {
    const { open, shut } = await twoHosts();
    const storage = createMemoryStorage();
    await putJson(storage, 'state/servers.json', { servers: [watched('open', open)] });
    const clock = manualClock(`${DAY}T00:10:00Z`);
    const scheduler = await loopbackScheduler(storage, clock);
    schedulers.push(scheduler);
    // 00:10: the day's daily check and first hourly check; the day's file holds origin A alone.
    expect(await scheduler.tick()).toEqual(expect.arrayContaining(['daily', 'hourly']));
    expect(await getJson(storage, ORIGINS_PATH)).toMatchObject({ day: DAY, excluded: [] });
    expect(hitsOf(open, '/robots.txt')).toBe(1);

    // Mid-day a server on origin B joins the watched list (as an admitted submission does).
    await putJson(storage, 'state/servers.json', { servers: [watched('open', open), watched('shut', shut)] });
    clock.set(`${DAY}T01:10:00Z`);
    expect(await scheduler.tick()).toContain('hourly');
    expect(hitsOf(shut, '/robots.txt')).toBe(1);
    expect(hitsOf(shut, '/mcp')).toBe(0);
    const saved = (await getJson(storage, ORIGINS_PATH)) as SavedOrigins;
    expect(saved.day).toBe(DAY);
    expect(saved.excluded).toEqual([shut.origin]);
    expect(saved.origins.map((o) => [o.origin, o.robots?.excludesOrigin])).toEqual([
      [open.origin, false],
      [shut.origin, true],
    ]);

    // Once per origin per day: the next hour reads neither robots.txt again, and B is still not checked.
    clock.set(`${DAY}T02:10:00Z`);
    expect(await scheduler.tick()).toContain('hourly');
    expect(hitsOf(open, '/robots.txt')).toBe(1);
    expect(hitsOf(shut, '/robots.txt')).toBe(1);
    expect(hitsOf(shut, '/mcp')).toBe(0);
    expect(hitsOf(open, '/mcp')).toBeGreaterThan(0);
  });

  it('is read once when two callers ask for it at the same time, and the origins already read are not read again', async () => {
    const { open, shut } = await twoHosts();
    const storage = createMemoryStorage();
    const deps = { storage, network: { allowPrivate: true }, concurrency: 4 };
    expect([...(await readOriginsOfDay(deps, DAY, [watched('open', open)]))]).toEqual([]);
    const both = [watched('open', open), watched('shut', shut)];
    const [first, second] = await Promise.all([readOriginsOfDay(deps, DAY, both), readOriginsOfDay(deps, DAY, both)]);
    expect([...first]).toEqual([shut.origin]);
    expect([...second]).toEqual([shut.origin]);
    expect(hitsOf(open, '/robots.txt')).toBe(1);
    expect(hitsOf(shut, '/robots.txt')).toBe(1);
    const saved = (await getJson(storage, ORIGINS_PATH)) as SavedOrigins;
    expect(saved.origins.map((o) => o.origin)).toEqual([open.origin, shut.origin]);

    // The next day starts a new file: every origin is read again, once.
    expect([...(await readOriginsOfDay(deps, '2026-12-11', both))]).toEqual([shut.origin]);
    expect(hitsOf(open, '/robots.txt')).toBe(2);
    expect(hitsOf(shut, '/robots.txt')).toBe(2);
  });
});
