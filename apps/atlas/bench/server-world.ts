// A world of N servers written as the scan writes it, for the benchmarks that need a large read model: the same
// shape as bench/live-update.bench.ts's 2,000-server world (8 tools each, 30 daily letters, a day log of agents'
// reports, 50 sensor batches), so their figures speak of the same read model.
import { hashTool, hashToolList } from '@mcp-atlas/findings';
import { classifyTools } from '@mcp-atlas/risk';
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

/** The scanned day of the world. */
export const WORLD_DAY = '2026-11-30';

/** The instant its read model is built at. */
export const WORLD_NOW = new Date('2026-11-30T12:00:00.000Z');

const DAY = WORLD_DAY;
const TOOLS_PER_SERVER = 8;
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

/** The id of the world's `i`-th server, from 0: `server-0007`. */
export const idOf = (i: number) => `server-${String(i).padStart(4, '0')}`;

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

/**
 * Writes a read model's worth of files for `servers` servers into memory storage: the watched list, one day's
 * index, shard and catalogs (8 tools each), each server's state with 30 daily letters, a day log of two
 * paying agents' reports per server and 50 sensor batches.
 */
export async function writeServerWorld(servers: number): Promise<Storage> {
  const storage = createMemoryStorage();
  const ids = Array.from({ length: servers }, (_, i) => idOf(i));
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
  for (let i = 0; i < servers; i++) {
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
  for (let i = 0; i < servers * 2; i++) {
    lines.push(
      JSON.stringify({
        server: idOf(i % servers),
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
        server: idOf((b * 100 + o) % servers),
        ok: true,
        at: '2026-11-30T10:30:00.000Z',
      })),
    });
  }
  return storage;
}
