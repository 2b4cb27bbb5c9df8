// The hour-of-day profile keeps the latest result any of our checks saw at each UTC hour: the hourly check's,
// a five-minute check's later in the same hour, and the daily check's at the time it started. A real MCP host
// on loopback (switched to HTTP 503 by the test), the real schedule on a simulated clock.
import { afterEach, describe, expect, it } from 'vitest';
import { FIVE_MINUTE_OPT_IN_PATH, HOURLY_PATH } from '../src/data/paths.js';
import { HourlyFileSchema } from '../src/data/schemas.js';
import { type HourlyEntry, recordHourResults, writeHourlyFile } from '../src/serve/hourly-entry.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { manualClock } from './fixtures/manual-clock.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';

const hosts: OwnerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function slotsOf(storage: Storage, id: string) {
  const file = HourlyFileSchema.parse(await getJson(storage, HOURLY_PATH));
  return file.results[id]?.hours ?? null;
}

describe('the hour-of-day profile', () => {
  it('takes a five-minute check later in the hour over the hourly check, and the daily check at its start time', async () => {
    const host = await startOwnerHost();
    hosts.push(host);
    const storage = createMemoryStorage();
    await putJson(storage, 'state/servers.json', { servers: [{ id: 'recipes', url: host.url, source: 'registry' }] });
    await putJson(storage, FIVE_MINUTE_OPT_IN_PATH, { servers: ['recipes'] });
    const clock = manualClock('2026-12-10T13:00:00Z');
    const scheduler = await loopbackScheduler(storage, clock);
    expect(await scheduler.tick()).toEqual(expect.arrayContaining(['daily', 'hourly', 'five-minute']));
    expect((await slotsOf(storage, 'recipes'))![13]).toMatchObject({ letter: 'o' });

    // 13:35, the same hour: no hourly check, a five-minute check that fails. It is the hour's latest result.
    host.state.down = true;
    clock.set('2026-12-10T13:35:00Z');
    expect(await scheduler.tick()).toEqual(['five-minute']);
    expect((await slotsOf(storage, 'recipes'))![13]).toEqual({ letter: 'd', at: '2026-12-10T13:35:00.000Z' });
    const view = await buildView(storage, clock.now());
    expect(view.byId.get('recipes')!.hourProfile.hours[13]).toEqual({ letter: 'd', at: '2026-12-10T13:35:00.000Z' });

    // The next day's daily check, run at 15:20 with no hourly check in that hour, fills slot 15 at its start.
    host.state.down = false;
    clock.set('2026-12-11T15:20:00Z');
    expect(await scheduler.runDaily('2026-12-11')).toBe(true);
    const slots = await slotsOf(storage, 'recipes');
    expect(slots![15]).toEqual({ letter: 'o', at: '2026-12-11T15:20:00.000Z' });
    // Hours no check reached stay empty, and slot 13 keeps its newer five-minute result.
    expect(slots![14]).toBeNull();
    expect(slots![13]).toEqual({ letter: 'd', at: '2026-12-10T13:35:00.000Z' });
  });

  it('an hourly round that read the file before a five-minute result was recorded keeps that result; a repeat is not written', async () => {
    const storage = createMemoryStorage();
    const empty = Array.from({ length: 24 }, () => null);
    const base = { reason: 'ok', notMcp: false, httpStatus: null, previous: null };
    // The file as the hourly round of 13:00 read it: the 12:00 check's entry.
    const read: HourlyEntry = { ...base, letter: 'o', at: '2026-12-10T12:00:00.000Z', hours: [...empty] };
    read.hours![12] = { letter: 'o', at: '2026-12-10T12:00:00.000Z' };
    await putJson(storage, HOURLY_PATH, { hour: '2026-12-10T12', results: { recipes: read } });
    // While its checks run, a five-minute check of 13:05 is recorded, and one of a server without an entry is not.
    expect(
      await recordHourResults(storage, [
        { id: 'recipes', letter: 'd', at: '2026-12-10T13:05:00.000Z' },
        { id: 'unknown', letter: 'o', at: '2026-12-10T13:05:00.000Z' },
      ]),
    ).toBe(1);
    // The round writes its entry, made from what it read, whose own result (13:00) is older than 13:05's.
    const round: HourlyEntry = { ...read, at: '2026-12-10T13:00:00.000Z', hours: [...read.hours!] };
    round.hours![13] = { letter: 'o', at: '2026-12-10T13:00:00.000Z' };
    await writeHourlyFile(storage, '2026-12-10T13', { recipes: round });
    const file = HourlyFileSchema.parse(await getJson(storage, HOURLY_PATH));
    expect(file.hour).toBe('2026-12-10T13');
    expect(Object.keys(file.results)).toEqual(['recipes']);
    expect(file.results.recipes!.at).toBe('2026-12-10T13:00:00.000Z');
    expect(file.results.recipes!.hours![12]).toEqual({ letter: 'o', at: '2026-12-10T12:00:00.000Z' });
    expect(file.results.recipes!.hours![13]).toEqual({ letter: 'd', at: '2026-12-10T13:05:00.000Z' });
    // A later result of the same hour with the same letter changes nothing a reader sees: nothing is written.
    const bytes = await storage.get(HOURLY_PATH);
    expect(await recordHourResults(storage, [{ id: 'recipes', letter: 'd', at: '2026-12-10T13:50:00.000Z' }])).toBe(0);
    expect(await storage.get(HOURLY_PATH)).toEqual(bytes);
    // Another letter in that hour, or the same letter on another day at that hour, is written.
    expect(await recordHourResults(storage, [{ id: 'recipes', letter: 'o', at: '2026-12-10T13:55:00.000Z' }])).toBe(1);
    expect(await recordHourResults(storage, [{ id: 'recipes', letter: 'o', at: '2026-12-11T13:01:00.000Z' }])).toBe(1);
    expect(HourlyFileSchema.parse(await getJson(storage, HOURLY_PATH)).results.recipes!.hours![13]).toEqual({
      letter: 'o',
      at: '2026-12-11T13:01:00.000Z',
    });
  });
});
