// The daily fold over real checks: a real MCP server on loopback (the SDK's McpServer), checked by the probe,
// scanned into a day's shard and catalog, then folded into the server's state and the day's changes. What it
// proves: a tool-list change is recorded against the previous daily check that listed tools, whatever came
// between (a day down, a day the cost cap skipped), on the day it is seen; a change whose earlier list cannot
// be read is still recorded; and a re-run of the fold changes nothing.
import { probeServer } from '@mcp-atlas/probe';
import { FOLD_RULES } from '@mcp-atlas/reliability/rules';
import { ROUTE_SCORE_RULES } from '@mcp-atlas/route/rules';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerState, WatchedServer } from '../src/data/schemas.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { foldDay } from '../src/scan/fold-day.js';
import { scanDay } from '../src/scan/scan-day.js';
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

/** Checks the server for real on `day` and folds the day. */
async function checkAndFold(day: string): Promise<void> {
  const scan = await scanDay({
    day,
    servers: [server],
    storage,
    methodologyVersion: METHODOLOGY_VERSION,
    probe: (s) => probeServer(s.url, { allowPrivate: true }),
  });
  await foldDay({ storage, day, results: scan.results, servers: [server], methodologyVersion: METHODOLOGY_VERSION });
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
