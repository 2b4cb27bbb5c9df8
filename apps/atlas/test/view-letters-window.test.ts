// The daily letters' window moves with the days: when no daily check has been folded for some days (the daily
// task failing), those days are n in the read model's letters, uptime and success chance, up to yesterday. A
// server off the map keeps the letters it had when it left.
import { successChance } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import type { ServerDayResult } from '../src/data/schemas.js';
import { emptyServerState } from '../src/scan/fold-day.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';

const LAST = '2026-11-10';
const LETTERS = `${'o'.repeat(29)}d`;

function resultOf(id: string): ServerDayResult {
  return {
    id,
    url: `https://${id}.example.com/mcp`,
    letter: 'd',
    reason: 'timeout',
    message: 'timeout',
    notStandardMcp: false,
    protocolVersion: null,
    serverName: null,
    serverVersion: null,
    elapsedMs: 8000,
    steps: [],
    toolCount: 0,
    toolsHash: null,
    tokens: null,
    findings: [],
    highRiskTools: 0,
    paymentAddress: null,
    redirect: null,
    category: null,
    checkedAt: `${LAST}T00:10:00.000Z`,
  };
}

/** One server whose last folded day is 10 November, with 29 o and a d. */
async function store() {
  const storage = createMemoryStorage();
  const result = resultOf('steady');
  await putJson(storage, 'state/servers/steady.json', {
    ...emptyServerState({ id: 'steady', url: result.url }),
    letters: LETTERS,
    lastDay: LAST,
    lastLetter: 'd',
  });
  await putJson(storage, `days/${LAST}/index.json`, {
    day: LAST,
    methodologyVersion: '1',
    shards: 1,
    servers: [{ id: 'steady', url: result.url, shard: 0 }],
  });
  await putJson(storage, `days/${LAST}/results/000.json`, { day: LAST, shard: 0, results: [result] });
  return storage;
}

describe('the daily letters’ window', () => {
  it('is as stored the day after the last fold', async () => {
    const view = await buildView(await store(), new Date('2026-11-11T10:00:00Z'));
    expect(view.byId.get('steady')).toMatchObject({ letters: LETTERS, lettersThrough: LAST });
    expect(view.byId.get('steady')!.uptime.percent).toBeCloseTo(96.7, 1);
  });

  it('counts the days since the last fold, up to yesterday, as n: 29 o and a d ten days back is 95.0%', async () => {
    const view = await buildView(await store(), new Date('2026-11-21T10:00:00Z'));
    const server = view.byId.get('steady')!;
    expect(server.lettersThrough).toBe('2026-11-20');
    expect(server.letters).toBe(`${'o'.repeat(19)}d${'n'.repeat(10)}`);
    expect(server.uptime.percent).toBe(95);
    expect(server.uptime.daysObserved).toBe(20);
    expect(server.successChance).toBe(successChance(server.letters));
  });

  it('keeps a server off the map as it was when it left', async () => {
    const storage = await store();
    // The registry no longer lists it: it is off the map at once.
    await putJson(storage, 'state/servers.json', { servers: [] });
    const view = await buildView(storage, new Date('2026-11-21T10:00:00Z'));
    const server = view.byId.get('steady')!;
    expect(server.leftOut).not.toBeNull();
    expect(server).toMatchObject({ letters: LETTERS, lettersThrough: LAST });
  });
});
