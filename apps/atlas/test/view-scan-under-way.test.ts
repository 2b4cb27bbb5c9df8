// A daily scan under way (its index written, its shard files not yet) does not hide what the last finished day
// showed: the read model keeps showing the newest folded day until the new one is folded. Real MCP servers on
// loopback (the demo fleet), the real schedule for the first day.
import { probeServer } from '@mcp-atlas/probe';
import { routeTask } from '@mcp-atlas/route';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { loadOrWriteIndex, scanDay } from '../src/scan/scan-day.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { manualClock } from './fixtures/manual-clock.js';

let fleet: Fleet;
beforeAll(async () => {
  fleet = await startFleet(30);
});
afterAll(async () => {
  await fleet.close();
});

describe('the read model while a daily scan is under way', () => {
  it('keeps every server’s last finished check, and moves to the new day once it is folded', async () => {
    const storage = createMemoryStorage();
    const servers = ['notes', 'vault'].map((id) => ({
      id,
      url: fleet.members.find((m) => m.id === id)!.url,
      source: 'registry' as const,
    }));
    await putJson(storage, 'state/servers.json', { servers });
    const clock = manualClock('2026-12-08T00:30:00Z');
    const scheduler = await loopbackScheduler(storage, clock);
    expect(await scheduler.tick()).toContain('daily');
    const before = await buildView(storage, clock.now());
    expect(before.day).toBe('2026-12-08');

    // 9 December's scan has written its index and nothing else yet.
    clock.set('2026-12-09T00:30:00Z');
    const day = '2026-12-09';
    await loadOrWriteIndex({ day, servers, storage, methodologyVersion: METHODOLOGY_VERSION });
    const during = await buildView(storage, clock.now());
    expect(during.day).toBe('2026-12-08');
    for (const id of ['notes', 'vault']) {
      const server = during.byId.get(id)!;
      expect(server.latest, id).not.toBeNull();
      expect(server.letter, id).toBe(before.byId.get(id)!.letter);
      expect(server.answeringNow, id).toBe(before.byId.get(id)!.answeringNow);
      expect(server.category, id).toBe(before.byId.get(id)!.category);
    }
    expect(during.byId.get('notes')).toMatchObject({ letter: 'o', answeringNow: true });
    const task = routeTask(during.toolIndex, 'search my notes', { now: clock.now() });
    expect(task.picks.map((pick) => pick.serverId)).toContain('notes');

    // Once the scan has run and the day is folded, the read model shows it.
    await scanDay({
      day,
      servers,
      storage,
      methodologyVersion: METHODOLOGY_VERSION,
      probe: (server) => probeServer(server.url, { allowPrivate: true }),
      now: () => clock.now(),
    });
    expect(await scheduler.tick()).toContain('daily');
    const after = await buildView(storage, clock.now());
    expect(after.day).toBe(day);
    expect(after.byId.get('notes')).toMatchObject({ letter: 'o', answeringNow: true });
  });
});
