// Live update against full rebuild: a read model of 2,000 servers (8 tools each, 30 daily letters, a day log of
// 4,000 agents' reports and 50 sensor batches) in memory storage. The baseline is `buildView`, what the service
// did for every change before; the candidate is `updateServersLive` for one server, both when the update must
// replace the route's tool index (a report that opens an incident: `withLiveFields`) and when it need not (a
// report that changes nothing the index reads). Run: npx vitest bench --run bench/live-update.bench.ts
import { bench, describe } from 'vitest';
import { dayReportsPath } from '../src/data/paths.js';
import { type AtlasView, buildView } from '../src/view/build-view.js';
import { updateServersLive } from '../src/view/live-update.js';
import { WORLD_DAY as DAY, idOf, WORLD_NOW as NOW, writeServerWorld } from './server-world.js';

const SERVERS = 2_000;

const storage = await writeServerWorld(SERVERS);
const view: AtlasView = await buildView(storage, NOW);
// Three failing reports from paying reporters open an incident on one server: its update replaces the index.
const failing = ['paid:x', 'paid:y', 'paid:z'].map((reporter) =>
  JSON.stringify({
    server: idOf(7),
    tool: 'list_note',
    ok: false,
    reason: 'server_error',
    reporter,
    paid: true,
    at: '2026-11-30T11:50:00.000Z',
  }),
);
await storage.append(dayReportsPath(DAY), new TextEncoder().encode(`${failing.join('\n')}\n`));

describe(`one server's news on a ${SERVERS}-server view`, () => {
  bench('full rebuild (buildView, the baseline)', async () => {
    await buildView(storage, NOW);
  });
  bench('live update, tool index updated (an incident opens)', async () => {
    const result = await updateServersLive(view, storage, [idOf(7)], NOW);
    if (!result.indexUpdated) throw new Error('expected an index update');
  });
  bench('live update, tool index kept', async () => {
    const result = await updateServersLive(view, storage, [idOf(8)], NOW);
    if (result.indexUpdated) throw new Error('expected no index update');
  });
});
