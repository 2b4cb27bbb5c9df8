// A read-model rebuild that fails after a scheduled task (a file the rebuild cannot read) is logged, and the
// schedule goes on: the tick resolves, the next task runs and rebuilds again. Nothing awaits the loop's ticks,
// so a rejection there would be unhandled and end the process.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import type { Logger } from '../src/log.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson } from '../src/storage/storage.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { manualClock } from './fixtures/manual-clock.js';

let fleet: Fleet;
beforeAll(async () => {
  fleet = await startFleet(30);
});
afterAll(async () => {
  await fleet.close();
});

describe('a failed rebuild of the read model', () => {
  it('is logged, and the schedule goes on and rebuilds again after the next task', async () => {
    const storage = createMemoryStorage();
    const notes = fleet.members.find((member) => member.id === 'notes')!;
    await putJson(storage, 'state/servers.json', { servers: [{ id: 'notes', url: notes.url, source: 'registry' }] });
    const lines: Record<string, unknown>[] = [];
    const log: Logger = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    let rebuilds = 0;
    const clock = manualClock('2026-12-08T00:30:00Z');
    const scheduler = await loopbackScheduler(storage, clock, {
      log,
      refresh: async () => {
        rebuilds++;
        throw new Error('state/servers/notes.json: not JSON');
      },
    });
    // The daily check runs; both lanes' rebuilds fail, and the tick still resolves with what ran.
    expect(await scheduler.tick()).toContain('daily');
    const failures = lines.filter((line) => line.msg === 'read model rebuild failed; the pages keep the previous one');
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(failures.length).toBe(rebuilds);
    expect(failures[0]).toMatchObject({ level: 50, err: { message: 'state/servers/notes.json: not JSON' } });
    // An hour later the hourly check runs and its rebuild is tried again.
    const before = rebuilds;
    clock.set('2026-12-08T01:30:00Z');
    expect(await scheduler.tick()).toContain('hourly');
    expect(rebuilds).toBeGreaterThan(before);
    await scheduler.stop();
  });
});
