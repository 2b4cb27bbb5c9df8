import { describe, expect, it } from 'vitest';
import { emptyServerState } from '../src/scan/fold-day.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';

const NOW = new Date('2026-11-30T12:00:00Z');

async function storageWithServer() {
  const storage = createMemoryStorage();
  await putJson(storage, 'state/servers/notes.json', {
    ...emptyServerState({ id: 'notes', url: 'https://notes.example.com/mcp' }),
    letters: 'oo',
    lastDay: '2026-11-29',
    lastLetter: 'o',
  });
  return storage;
}

const report = (reporter: string, ok: boolean, at: string) =>
  JSON.stringify({
    server: 'notes',
    tool: 'list_notes',
    ok,
    ...(ok ? {} : { reason: 'timeout' }),
    ms: 300,
    reporter,
    paid: true,
    at,
  });

describe('agents’ ratings in the read model', () => {
  it('count the day logs of reports of the last 30 days, and gateway sensors as reporters', async () => {
    const storage = await storageWithServer();
    const lines = [
      report('paid:a', true, '2026-11-30T10:00:00Z'),
      report('paid:b', true, '2026-11-30T10:05:00Z'),
      report('paid:c', false, '2026-11-30T10:10:00Z'),
    ];
    await storage.put('days/2026-11-30/reports.jsonl', new TextEncoder().encode(`${lines.join('\n')}\n`));
    await storage.put(
      'days/2026-10-01/reports.jsonl',
      new TextEncoder().encode(`${report('paid:old', false, '2026-10-01T10:00:00Z')}\n`),
    );
    await putJson(storage, 'sensors/2026-11-30/gw-1/000001.json', {
      sensor: 'gw-1',
      day: '2026-11-30',
      received: '2026-11-30T11:00:00Z',
      outcomes: [
        { server: 'notes', ok: true, at: '2026-11-30T10:30:00Z' },
        { server: 'notes', ok: true, at: '2026-11-30T10:40:00Z' },
      ],
    });
    const rating = (await buildView(storage, NOW)).byId.get('notes')!.rating;
    expect(rating.reportsCounted).toBe(3);
    expect(rating.sensorEntriesCounted).toBe(1);
    expect(rating.reporters).toBe(4);
    expect(rating.visible).toBe(true);
    expect(rating.reliability).toBeGreaterThan(0.5);
    expect(rating.reliability).toBeLessThan(1);
  });

  it('stay hidden with fewer than 3 distinct reporters', async () => {
    const storage = await storageWithServer();
    await storage.put(
      'days/2026-11-30/reports.jsonl',
      new TextEncoder().encode(`${report('paid:a', true, '2026-11-30T10:00:00Z')}\n`),
    );
    const rating = (await buildView(storage, NOW)).byId.get('notes')!.rating;
    expect(rating.visible).toBe(false);
  });
});
