// Live update against full rebuild: a read model of 2,000 servers (8 tools each, 30 daily letters, a day log of
// 4,000 agents' reports and 50 sensor batches) in memory storage. The baseline is `buildView`, what the service
// did for every change before; the candidate is `updateServersLive` for one server, both when the update must
// rebuild the route's tool index (a report that opens an incident) and when it need not (a report that
// changes nothing the index reads). Run: npx vitest bench --run bench/live-update.bench.ts
import { hashTool, hashToolList } from '@mcp-atlas/findings';
import { classifyTools } from '@mcp-atlas/risk';
import { bench, describe } from 'vitest';
import {
  dayCatalogPath,
  dayIndexPath,
  dayReportsPath,
  dayShardPath,
  SERVERS_PATH,
  serverStatePath,
} from '../src/data/paths.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { type AtlasView, buildView } from '../src/view/build-view.js';
import { updateServersLive } from '../src/view/live-update.js';

const SERVERS = 2_000;
const TOOLS_PER_SERVER = 8;
const DAY = '2026-11-30';
const NOW = new Date('2026-11-30T12:00:00.000Z');
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'send', 'read'];
const NOUNS = [
  'note',
  'ticket',
  'invoice',
  'file',
  'message',
  'event',
  'contact',
  'order',
  'page',
  'task',
  'repo',
  'forecast',
];

const idOf = (i: number) => `server-${String(i).padStart(4, '0')}`;

function toolsOf(i: number): unknown[] {
  return Array.from({ length: TOOLS_PER_SERVER }, (_, t) => {
    const verb = VERBS[t % VERBS.length] as string;
    const noun = NOUNS[(i + t) % NOUNS.length] as string;
    return {
      name: `${verb}_${noun}`,
      description: `${verb} a ${noun} of server ${i} by id, name or date range.`,
      inputSchema: { type: 'object' },
    };
  });
}

async function writeWorld(): Promise<Storage> {
  const storage = createMemoryStorage();
  const ids = Array.from({ length: SERVERS }, (_, i) => idOf(i));
  await putJson(storage, SERVERS_PATH, {
    servers: ids.map((id) => ({ id, url: `https://${id}.example.test/mcp`, title: id, source: 'registry' })),
  });
  await putJson(storage, dayIndexPath(DAY), {
    day: DAY,
    methodologyVersion: '1.0.0',
    shards: 1,
    servers: ids.map((id) => ({ id, url: `https://${id}.example.test/mcp`, shard: 0 })),
  });
  const results = [];
  for (let i = 0; i < SERVERS; i++) {
    const id = idOf(i);
    const tools = toolsOf(i);
    const verdicts = classifyTools(tools);
    results.push({
      id,
      url: `https://${id}.example.test/mcp`,
      letter: 'o',
      reason: 'ok',
      message: 'answered',
      notStandardMcp: false,
      protocolVersion: '2025-06-18',
      serverName: id,
      serverVersion: '1.0.0',
      elapsedMs: 200 + (i % 300),
      steps: [],
      toolCount: tools.length,
      toolsHash: hashToolList(tools),
      tokens: 400,
      findings: [],
      highRiskTools: verdicts.filter((v) => v.level === 'high-risk').length,
      paymentAddress: null,
      redirect: null,
      category: 'productivity',
      checkedAt: '2026-11-30T00:10:00.000Z',
    });
    await putJson(storage, dayCatalogPath(DAY, id), {
      id,
      day: DAY,
      toolsHash: hashToolList(tools),
      serverVersion: '1.0.0',
      tools,
      verdicts: tools.map((tool, t) => ({
        name: (tool as { name: string }).name,
        hash: hashTool(tool),
        level: verdicts[t]!.level,
        rule: verdicts[t]!.rule,
        raised: verdicts[t]!.raised,
        reason: verdicts[t]!.reason,
      })),
    });
    await putJson(storage, serverStatePath(id), {
      id,
      url: `https://${id}.example.test/mcp`,
      title: id,
      letters: 'o'.repeat(30),
      lastDay: DAY,
      changeDays: [],
      outages: [],
      currentOutageDays: 0,
      fiveMinute: [],
      toolsHash: hashToolList(tools),
      serverVersion: '1.0.0',
      lastLetter: 'o',
      lastPaymentAddress: null,
      lastHandshakeMs: 200,
      lastCatalogDay: DAY,
      lastRedirect: null,
      riskRiseDays: [],
    });
  }
  await putJson(storage, dayShardPath(DAY, 0), { day: DAY, shard: 0, results });
  // Two reports a server, all working, from paying reporters: every server has a rating to recompute.
  const lines = [];
  for (let i = 0; i < SERVERS * 2; i++) {
    lines.push(
      JSON.stringify({
        server: idOf(i % SERVERS),
        tool: 'list_note',
        ok: true,
        ms: 300,
        reporter: `paid:r${i % 40}`,
        paid: true,
        at: `2026-11-30T0${i % 10}:00:00.000Z`,
      }),
    );
  }
  await storage.put(dayReportsPath(DAY), new TextEncoder().encode(`${lines.join('\n')}\n`));
  for (let b = 0; b < 50; b++) {
    await putJson(storage, `sensors/${DAY}/gw-${b}/000000.json`, {
      sensor: `gw-${b}`,
      day: DAY,
      received: '2026-11-30T11:00:00.000Z',
      outcomes: Array.from({ length: 100 }, (_, o) => ({
        server: idOf((b * 100 + o) % SERVERS),
        ok: true,
        at: '2026-11-30T10:30:00.000Z',
      })),
    });
  }
  return storage;
}

const storage = await writeWorld();
const view: AtlasView = await buildView(storage, NOW);
// Three failing reports from paying reporters open an incident on one server: its update rebuilds the index.
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
  bench('live update, tool index rebuilt (an incident opens)', async () => {
    const result = await updateServersLive(view, storage, [idOf(7)], NOW);
    if (!result.indexRebuilt) throw new Error('expected an index rebuild');
  });
  bench('live update, tool index kept', async () => {
    const result = await updateServersLive(view, storage, [idOf(8)], NOW);
    if (result.indexRebuilt) throw new Error('expected no index rebuild');
  });
});
