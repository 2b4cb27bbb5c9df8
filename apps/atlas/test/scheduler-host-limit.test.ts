// One check of a host at a time across every lane: four real MCP servers share one host and port (paths of one
// loopback fleet, each answer held back 20 ms), and one tick runs the daily check of all four beside the hourly
// and five-minute checks. The fleet never answers two requests at the same time.
import { describe, expect, it } from 'vitest';
import { FIVE_MINUTE_OPT_IN_PATH, SERVERS_PATH } from '../src/data/paths.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson } from '../src/storage/storage.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { manualClock } from './fixtures/manual-clock.js';
import { useLoopbackFleetPerFile } from './setup/fleet.js';

const COUNT = 4;
const fleet = useLoopbackFleetPerFile(COUNT, 20);

describe('checks of one host', () => {
  it('never overlap, across the daily, hourly and five-minute lanes', async () => {
    const storage = createMemoryStorage();
    const ids = Array.from({ length: COUNT }, (_, i) => `fleet-${i}`);
    const servers = ids.map((id, i) => ({ id, url: fleet().urlOf(i), source: 'registry' as const }));
    await putJson(storage, SERVERS_PATH, { servers });
    await putJson(storage, FIVE_MINUTE_OPT_IN_PATH, { servers: ids });
    const scheduler = await loopbackScheduler(storage, manualClock('2026-12-08T00:30:00Z'));
    expect(await scheduler.tick()).toEqual(expect.arrayContaining(['daily', 'hourly', 'five-minute']));
    // The daily lane and the tick lane (whose hourly check stands for the five-minute one of the same tick)
    // each checked every server, and all those sessions ran one after another.
    const sessions = [...fleet().initializes.values()].reduce((sum, n) => sum + n, 0);
    expect(sessions).toBe(COUNT * 2);
    expect(fleet().maxInFlight()).toBe(1);
  });
});
