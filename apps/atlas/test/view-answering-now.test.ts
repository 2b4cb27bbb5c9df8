// One meaning of "answering with tools right now" across the read model: the newest of the hourly and
// five-minute checks when newer than the daily check, else the daily check, under the second-failure rule.
// The rankings (listing and the handshake tie-break) and the route's answering servers read it.
import { categorize, routeTask } from '@mcp-atlas/route';
import { describe, expect, it } from 'vitest';
import type { ServerDayResult } from '../src/data/schemas.js';
import { emptyServerState } from '../src/scan/fold-day.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';

const DAY = '2026-11-30';
const NOW = new Date('2026-11-30T12:00:00Z');
const TOOLS = [
  {
    name: 'search_notes',
    description: 'Searches the notes by words in their text.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  },
];

function resultOf(id: string, elapsedMs: number): ServerDayResult {
  return {
    id,
    url: `https://${id}.example.com/mcp`,
    letter: 'o',
    reason: 'ok',
    message: 'ok',
    notStandardMcp: false,
    protocolVersion: '2025-06-18',
    serverName: id,
    serverVersion: '1.0.0',
    elapsedMs,
    steps: [],
    toolCount: 1,
    toolsHash: 'h',
    tokens: 10,
    findings: [],
    highRiskTools: 0,
    paymentAddress: null,
    redirect: null,
    category: 'notes',
    checkedAt: `${DAY}T00:10:00.000Z`,
  };
}

const hour = (letter: 'o' | 'd', at: string, elapsedMs?: number) => ({
  letter,
  reason: letter === 'o' ? 'ok' : 'timeout',
  notMcp: false,
  httpStatus: null,
  at,
  ...(elapsedMs !== undefined ? { elapsedMs } : {}),
});

/** Three servers answering with tools for 20 days; `hourly` is what the hourly file says of each. */
async function observatory(hourly: Record<string, unknown>): Promise<Storage> {
  const storage = createMemoryStorage();
  const daily: Record<string, number> = { fast: 300, steady: 500, flaky: 200 };
  const results = Object.entries(daily).map(([id, ms]) => resultOf(id, ms));
  for (const r of results) {
    await putJson(storage, `state/servers/${r.id}.json`, {
      ...emptyServerState({ id: r.id, url: r.url }),
      letters: 'o'.repeat(20),
      lastDay: DAY,
      lastLetter: 'o',
      lastHandshakeMs: r.elapsedMs,
      toolsHash: 'h',
      lastCatalogDay: DAY,
    });
    await putJson(storage, `days/${DAY}/catalogs/${r.id}.json`, {
      id: r.id,
      day: DAY,
      toolsHash: 'h',
      serverVersion: '1.0.0',
      tools: TOOLS,
      verdicts: [],
    });
  }
  await putJson(storage, `days/${DAY}/index.json`, {
    day: DAY,
    methodologyVersion: '1',
    shards: 1,
    servers: results.map((r) => ({ id: r.id, url: r.url, shard: 0 })),
  });
  await putJson(storage, `days/${DAY}/results/000.json`, { day: DAY, shard: 0, results });
  await putJson(storage, 'state/hourly.json', { hour: '2026-11-30T11', results: hourly });
  return storage;
}

describe('answering with tools right now', () => {
  it('ranks a server whose daily check failed today but whose hourly checks answer, in its last tool list’s category', async () => {
    // What its tools read as (the fixture's results name 'notes' by hand; this is the rule's own reading).
    const category = categorize(TOOLS);
    expect(category).not.toBeNull();
    const storage = await observatory({
      flaky: { ...hour('o', '2026-11-30T11:05:00Z', 200), previous: hour('o', '2026-11-30T10:05:00Z', 210) },
    });
    // Today's daily check of flaky timed out: no tool list, no category in its result; its last list is yesterday's.
    const YESTERDAY = '2026-11-29';
    const down = { ...resultOf('flaky', 8000), letter: 'd', reason: 'timeout', toolCount: 0, category: null };
    const others = ['fast', 'steady'].map((id) => resultOf(id, id === 'fast' ? 300 : 500));
    await putJson(storage, `days/${DAY}/results/000.json`, { day: DAY, shard: 0, results: [...others, down] });
    const state = (await getJson(storage, 'state/servers/flaky.json')) as Record<string, unknown>;
    await putJson(storage, 'state/servers/flaky.json', {
      ...state,
      letters: `${'o'.repeat(19)}d`,
      lastLetter: 'd',
      lastCatalogDay: YESTERDAY,
    });
    const catalog = await getJson(storage, `days/${DAY}/catalogs/flaky.json`);
    await putJson(storage, `days/${YESTERDAY}/catalogs/flaky.json`, { ...(catalog as object), day: YESTERDAY });
    await storage.delete(`days/${DAY}/catalogs/flaky.json`);
    const view = await buildView(storage, NOW);
    expect(view.byId.get('flaky')).toMatchObject({ letter: 'd', answeringNow: true, category });
    const ranked = view.rankings.find((r) => r.category === category)!.ranked;
    expect(ranked.map((s) => s.id)).toContain('flaky');
  });

  it('takes a server whose hourly checks failed twice in a row out of the rankings and the route’s answering servers', async () => {
    const storage = await observatory({
      flaky: { ...hour('d', '2026-11-30T11:05:00Z'), previous: hour('d', '2026-11-30T10:05:00Z') },
      fast: { ...hour('o', '2026-11-30T11:05:00Z', 300), previous: null },
    });
    const view = await buildView(storage, NOW);
    expect(view.byId.get('flaky')).toMatchObject({ letter: 'o', answeringNow: false, shown: { state: 'down' } });
    expect(view.rankings.flatMap((r) => r.ranked.map((s) => s.id))).not.toContain('flaky');
    const answer = routeTask(view.toolIndex, 'search my notes', { now: NOW });
    expect(answer.setAside.map((s) => s.serverId)).toContain('flaky');
    expect(answer.picks.map((p) => p.serverId)).toContain('fast');
    expect(answer.picks.map((p) => p.serverId)).not.toContain('flaky');
  });

  it('keeps a server with one failed hourly check (held back) and breaks ties on the newest check’s handshake time', async () => {
    const storage = await observatory({
      // fast's daily check took 300 ms, but its newest hourly check took 900 ms: it now ranks after steady (500 ms).
      fast: { ...hour('o', '2026-11-30T11:05:00Z', 900), previous: hour('o', '2026-11-30T10:05:00Z', 280) },
      flaky: { ...hour('d', '2026-11-30T11:05:00Z'), previous: hour('o', '2026-11-30T10:05:00Z', 200) },
    });
    const view = await buildView(storage, NOW);
    expect(view.byId.get('flaky')).toMatchObject({ answeringNow: true, handshakeMs: 200 });
    expect(view.byId.get('fast')!.handshakeMs).toBe(900);
    const ranked = view.rankings.find((r) => r.category === 'notes')!.ranked;
    expect(ranked.map((s) => [s.id, s.handshakeMs])).toEqual([
      ['flaky', 200],
      ['steady', 500],
      ['fast', 900],
    ]);
  });
});
