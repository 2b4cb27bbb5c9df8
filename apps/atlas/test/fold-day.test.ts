// The daily fold over real checks: a real MCP server on loopback (the SDK's McpServer), checked by the probe,
// scanned into a day's shard and catalog, then folded into the server's state and the day's changes. What it
// proves: a tool-list change is recorded against the previous daily check that listed tools, whatever came
// between (a day down, a day the cost cap skipped), on the day it is seen; a change whose earlier list cannot
// be read is still recorded; and a re-run of the fold changes nothing. The day series the fold moves along:
// each fold closes the day before with the nearest-rank percentiles of every wall time kept for it
// (hand-computed here), a day down and a day the cost cap skipped enter with their letters, a server folded before
// the series was kept starts one from its letters, and a stop between the series and the state write loses nothing.
import { probeServer } from '@mcp-atlas/probe';
import type { SeriesDay } from '@mcp-atlas/reliability';
import { FOLD_RULES } from '@mcp-atlas/reliability/rules';
import { ROUTE_SCORE_RULES } from '@mcp-atlas/route/rules';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDaySeries } from '../src/data/day-series-file.js';
import { HOURLY_PATH, serverSeriesPath } from '../src/data/paths.js';
import { HourlyFileSchema, type ServerState, type WatchedServer } from '../src/data/schemas.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { foldDay, updateServerState } from '../src/scan/fold-day.js';
import { scanDay } from '../src/scan/scan-day.js';
import { nextHourlyEntry, writeHourlyFile } from '../src/serve/hourly-entry.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { type OwnerHost, RECIPE_TOOLS, startOwnerHost } from './fixtures/submission-world.js';

const DELETE_TOOL = { name: 'delete_recipe', description: 'Deletes a recipe from a cookbook for good.' };

let host: OwnerHost;
let storage: Storage;
let server: WatchedServer;

beforeEach(async () => {
  host = await startOwnerHost();
  storage = createMemoryStorage();
  server = { id: 'recipes', url: host.url, source: 'registry', allowPrivate: true };
});

afterEach(async () => {
  await host.close();
});

/** Checks the server for real on `day`, optionally sets the daily check's wall time, and folds the day. */
async function checkAndFold(day: string, elapsedMs?: number): Promise<void> {
  const scan = await scanDay({
    day,
    servers: [server],
    storage,
    methodologyVersion: METHODOLOGY_VERSION,
    probe: (s) => probeServer(s.url, { allowPrivate: true }),
  });
  const results = scan.results.map((r) => (elapsedMs === undefined ? r : { ...r, elapsedMs }));
  await foldDay({ storage, day, results, servers: [server], methodologyVersion: METHODOLOGY_VERSION });
}

/** A day the cost cap left the server's shard for the next day. */
async function skipByCap(day: string): Promise<void> {
  await foldDay({
    storage,
    day,
    results: [],
    servers: [server],
    methodologyVersion: METHODOLOGY_VERSION,
    skippedByCap: [server.id],
  });
}

async function changesOf(
  day: string,
): Promise<{ kind: string; diff?: { added: string[]; removed: string[]; riskRises: { name: string }[] } }[]> {
  return ((await getJson(storage, `days/${day}/changes.json`)) as { changes: never[] }).changes;
}

async function state(): Promise<ServerState> {
  return (await getJson(storage, 'state/servers/recipes.json')) as ServerState;
}

describe('the daily fold compares a tool list with the previous daily check that listed tools', () => {
  it('a day down in between: the change is recorded the day it comes back, against the list before the outage', async () => {
    await checkAndFold('2026-11-01');
    host.state.down = true;
    await checkAndFold('2026-11-02');
    host.state.down = false;
    host.state.tools = [...RECIPE_TOOLS, DELETE_TOOL];
    await checkAndFold('2026-11-03');

    expect((await changesOf('2026-11-02')).map((c) => c.kind)).toEqual(['stopped-answering']);
    const day3 = await changesOf('2026-11-03');
    expect(day3.map((c) => c.kind)).toEqual(['started-answering', 'tools']);
    // Against day 1's list: exactly one tool added (a diff against "no list" would add all three).
    expect(day3[1]!.diff).toMatchObject({
      added: ['delete_recipe'],
      removed: [],
      riskRises: [{ name: 'delete_recipe' }],
    });
    expect(await state()).toMatchObject({
      letters: 'odo',
      changeDays: ['2026-11-03'],
      riskRiseDays: ['2026-11-03'],
      outages: [1],
      currentOutageDays: 0,
      lastCatalogDay: '2026-11-03',
    });
  });

  it('a day down with the same list on both sides records no tool change', async () => {
    await checkAndFold('2026-11-01');
    host.state.down = true;
    await checkAndFold('2026-11-02');
    host.state.down = false;
    await checkAndFold('2026-11-03');
    expect((await changesOf('2026-11-03')).map((c) => c.kind)).toEqual(['started-answering']);
    expect((await state()).changeDays).toEqual([]);
  });

  it('a day the cost cap skipped: n, and the next check compares with the last one that ran', async () => {
    await checkAndFold('2026-11-01');
    await skipByCap('2026-11-02');
    host.state.tools = RECIPE_TOOLS.slice(0, 1);
    await checkAndFold('2026-11-03');
    const day3 = await changesOf('2026-11-03');
    expect(day3.map((c) => c.kind)).toEqual(['tools']);
    expect(day3[0]!.diff).toMatchObject({ added: [], removed: ['create_recipe'] });
    expect(await state()).toMatchObject({ letters: 'ono', changeDays: ['2026-11-03'], lastCatalogDay: '2026-11-03' });
  });

  it('records the change even when the earlier list cannot be read (before: the change was dropped)', async () => {
    await checkAndFold('2026-11-01');
    await storage.delete('days/2026-11-01/catalogs/recipes.json');
    host.state.tools = [...RECIPE_TOOLS, DELETE_TOOL];
    await checkAndFold('2026-11-02');
    const day2 = await changesOf('2026-11-02');
    expect(day2).toEqual([
      { serverId: 'recipes', kind: 'tools', detail: expect.stringContaining('no tool-by-tool detail') },
    ]);
    expect((await state()).changeDays).toEqual(['2026-11-02']);
  });

  it('a baseline catalog that is not a catalog (or names another list) gives a change without detail, not a crash', async () => {
    await checkAndFold('2026-11-01');
    await putJson(storage, 'days/2026-11-01/catalogs/recipes.json', { id: 'recipes', note: 'edited by hand' });
    host.state.tools = [...RECIPE_TOOLS, DELETE_TOOL];
    await checkAndFold('2026-11-02');
    expect((await changesOf('2026-11-02')).map((c) => [c.kind, c.diff])).toEqual([['tools', undefined]]);
    // A well-formed catalog holding another list than its state's hash names: no detail either.
    const catalog = (await getJson(storage, 'days/2026-11-02/catalogs/recipes.json')) as Record<string, unknown>;
    await putJson(storage, 'days/2026-11-02/catalogs/recipes.json', {
      ...catalog,
      toolsHash: 'not-the-hash-of-this-list',
    });
    host.state.tools = RECIPE_TOOLS;
    await checkAndFold('2026-11-03');
    expect((await changesOf('2026-11-03')).map((c) => [c.kind, c.diff])).toEqual([['tools', undefined]]);
    expect((await state()).changeDays).toEqual(['2026-11-02', '2026-11-03']);
  });

  it('a re-run of a folded day changes neither the state nor the changes file', async () => {
    await checkAndFold('2026-11-01');
    host.state.tools = [...RECIPE_TOOLS, DELETE_TOOL];
    const scan = await scanDay({
      day: '2026-11-02',
      servers: [server],
      storage,
      methodologyVersion: METHODOLOGY_VERSION,
      probe: (s) => probeServer(s.url, { allowPrivate: true }),
    });
    const first = await foldDay({
      storage,
      day: '2026-11-02',
      results: scan.results,
      servers: [server],
      methodologyVersion: METHODOLOGY_VERSION,
    });
    const before = await state();
    const again = await foldDay({
      storage,
      day: '2026-11-02',
      results: scan.results,
      servers: [server],
      methodologyVersion: METHODOLOGY_VERSION,
    });
    expect(again.changes).toEqual(first.changes);
    expect(await state()).toEqual(before);
    expect(before.letters).toBe('oo');
  });
});

describe('the kept windows cover what their readers need', () => {
  it('the state keeps risk-rise days at least as long as the route sets a server aside for one', () => {
    // The route reads "days since the newest kept rise" and sets aside under ROUTE_SCORE_RULES.riskRiseDays: a rise kept for
    // fewer days would end the set-aside early.
    expect(FOLD_RULES.riskRiseDaysKept).toBeGreaterThanOrEqual(ROUTE_SCORE_RULES.riskRiseDays);
  });
});

/** The server's day series as the fold wrote it (state/series/recipes.json). */
async function seriesOf(): Promise<SeriesDay[]> {
  return (await readDaySeries(storage, 'recipes')) ?? [];
}

/** The hourly file as the hourly round leaves it, with one tally day for the server. */
async function writeHourlyTally(day: string, latencyMs: [number, number][], checks: number): Promise<void> {
  const answered = latencyMs.reduce((sum, [, n]) => sum + n, 0);
  await putJson(storage, HOURLY_PATH, {
    hour: `${day}T23`,
    results: {
      recipes: {
        letter: 'o',
        reason: 'ok',
        notMcp: false,
        httpStatus: null,
        at: `${day}T23:05:00.000Z`,
        previous: null,
        tally: [{ day, answered, checks, latencyMs }],
      },
    },
  });
}

describe('the day series through the daily fold', () => {
  it('closes the day before with the percentiles of its daily, hourly and five-minute wall times', async () => {
    await checkAndFold('2026-11-01', 300);
    // The day's other checks: two answering hourly ones (100, 200 ms) and one that failed, one five-minute (250 ms).
    await writeHourlyTally(
      '2026-11-01',
      [
        [100, 1],
        [200, 1],
      ],
      3,
    );
    await updateServerState(storage, 'recipes', (s) =>
      s === null ? null : { ...s, fiveMinute: [{ day: '2026-11-01', answered: 1, checks: 1, latencyMs: [[250, 1]] }] },
    );
    expect(await seriesOf()).toEqual([{ day: '2026-11-01', letter: 'o', dailyMs: 300 }]);

    await checkAndFold('2026-11-02', 120);
    // 100, 200, 250, 300: p50 rank ceil(0.5 x 4) = 2 -> 200; p95 rank ceil(0.95 x 4) = 4 -> 300; the failed check
    // counts no wall time.
    const after = await seriesOf();
    expect(after).toEqual([
      { day: '2026-11-01', letter: 'o', dailyMs: 300, handshake: { p50Ms: 200, p95Ms: 300, samples: 4 } },
      { day: '2026-11-02', letter: 'o', dailyMs: 120 },
    ]);

    // The fold run again (a restart after a crash) leaves the series as it is.
    await checkAndFold('2026-11-02', 999);
    expect(await seriesOf()).toEqual(after);
  });

  it('reads the wall times the real hourly round recorded', async () => {
    await checkAndFold('2026-11-01', 40);
    let entry: ReturnType<typeof nextHourlyEntry>;
    for (const hour of ['09', '10', '11']) {
      const at = `2026-11-01T${hour}:05:00.000Z`;
      entry = nextHourlyEntry(entry, await probeServer(server.url, { allowPrivate: true }), at);
      await writeHourlyFile(storage, `2026-11-01T${hour}`, entry === undefined ? {} : { recipes: entry });
    }
    const hourly = HourlyFileSchema.parse(await getJson(storage, HOURLY_PATH));
    const recorded = (hourly.results.recipes?.tally?.[0]?.latencyMs ?? []).flatMap(([ms, n]) =>
      Array.from({ length: n }, () => ms),
    );
    expect(recorded).toHaveLength(3);
    await checkAndFold('2026-11-02');
    // Four values (40 and the three hourly ones): the median is the 2nd smallest, the 95th percentile the largest.
    const values = [...recorded, 40].sort((a, b) => a - b);
    expect((await seriesOf())[0]?.handshake).toEqual({ p50Ms: values[1], p95Ms: values[3], samples: 4 });
  });

  it('enters a day down and a day the cost cap skipped with their letters and no daily wall time', async () => {
    await checkAndFold('2026-11-01', 80);
    host.state.down = true;
    await checkAndFold('2026-11-02');
    await skipByCap('2026-11-03');
    const series = await seriesOf();
    expect(series.map((d) => [d.day, d.letter, d.dailyMs])).toEqual([
      ['2026-11-01', 'o', 80],
      ['2026-11-02', 'd', null],
      ['2026-11-03', 'n', null],
    ]);
    // No hourly file: each day before closes with only its daily wall time, and the day down with none.
    expect(series.map((d) => d.handshake)).toEqual([{ p50Ms: 80, p95Ms: 80, samples: 1 }, null, undefined]);
  });

  it('starts the series of a server folded before it was kept from the letters its state kept', async () => {
    await checkAndFold('2026-11-01', 80);
    await storage.delete(serverSeriesPath('recipes'));
    await updateServerState(storage, 'recipes', (s) => (s === null ? null : { ...s, letters: 'odo' }));
    await checkAndFold('2026-11-02', 90);
    expect((await seriesOf()).map((d) => [d.day, d.letter])).toEqual([
      ['2026-10-30', 'o'],
      ['2026-10-31', 'd'],
      ['2026-11-01', 'o'],
      ['2026-11-02', 'o'],
    ]);
  });

  it('a torn series file starts again from the letters; the fold goes on', async () => {
    await checkAndFold('2026-11-01', 80);
    await storage.put(serverSeriesPath('recipes'), new TextEncoder().encode('{"id":"recipes","days":[{"da'));
    await checkAndFold('2026-11-02', 90);
    expect((await seriesOf()).map((d) => [d.day, d.letter, d.dailyMs])).toEqual([
      ['2026-11-01', 'o', null],
      ['2026-11-02', 'o', 90],
    ]);
  });

  it('a stop between the series write and the state write: the fold runs again and the series stays whole', async () => {
    await checkAndFold('2026-11-01', 80);
    const stateBefore = await storage.get('state/servers/recipes.json');
    await checkAndFold('2026-11-02', 90);
    const series = await seriesOf();
    // As a crash after the series write would leave it: the series moved, the state did not.
    await storage.put('state/servers/recipes.json', stateBefore as Uint8Array);
    await checkAndFold('2026-11-02', 95);
    expect(await seriesOf()).toEqual(series);
    expect(((await getJson(storage, 'state/servers/recipes.json')) as { lastDay: string }).lastDay).toBe('2026-11-02');
  });
});
