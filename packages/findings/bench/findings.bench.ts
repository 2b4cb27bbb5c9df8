// Benchmarks over real tool lists from ../shared/corpus (read in place). Each group has a baseline
// measured in the same run: JSON.stringify of the very same lists, the cheapest thing anyone could do
// with them. A second reference, SHA-256 of that JSON text in one call, is the floor for any scheme
// that hashes every byte of a list once. Figures go in README.md as ratios to the baseline.
//
// It measures the built package (dist/, which the bench script builds first), as users run it. The hashes
// are measured twice: with the default @noble/hashes SHA-256 (pure JavaScript, every runtime) and with
// Node's native one injected through HashOptions, which is how the app runs them. Bench code may import
// node:crypto; the package never does.
import { createHash, hash } from 'node:crypto';
import { loadCorpus } from '@mcp-atlas/corpus';
import { bench, describe } from 'vitest';
import { analyzeToolList, diffToolLists, hashToolList, sha256Hex } from '../dist/index.js';
import type { HashOptions } from '../src/index.js';

const PROBE_TOOL_CAP = 500;
const DAY_SERVERS = 20_000;
const TOOLS_PER_SERVER = 50;

// The app's injection: Node's createHash, one call per tool and one per list.
const nodeCrypto: HashOptions = { sha256: (bytes) => createHash('sha256').update(bytes).digest() };
// The one-shot crypto.hash (Node 20.12 and later) skips the Hash object createHash builds per call.
const nodeOneShot: HashOptions = { sha256: (bytes) => hash('sha256', bytes, 'buffer') };

// Every real tool from the one-server lists, as the servers sent them.
const pool: unknown[] = loadCorpus({ includePool: false }).flatMap((server) => server.raw);

// Tools from the pool, cycled and renamed where needed so that a list has unique names.
function buildList(count: number, offset: number): unknown[] {
  const tools: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const source = pool[(offset + i) % pool.length];
    const round = Math.floor((offset + i) / pool.length);
    const named = source !== null && typeof source === 'object' && round > 0;
    tools.push(
      named
        ? { ...(source as Record<string, unknown>), name: `${String((source as { name?: unknown }).name)}_${round}` }
        : source,
    );
  }
  return tools;
}

const capList = buildList(PROBE_TOOL_CAP, 0);
const capJson = JSON.stringify(capList);
const capListChanged = capList.map((tool, i) =>
  i === 7 ? { ...(tool as Record<string, unknown>), description: 'A changed description.' } : tool,
);

// A day: 20,000 servers of 50 tools each (1,000,000 tools). Servers start at different places in the
// pool; the JSON text of each distinct list is computed once, outside the timed code, since in
// production it arrives from the network.
const day: { tools: unknown[]; toolsJson: string }[] = [];
const textByOffset = new Map<number, { tools: unknown[]; toolsJson: string }>();
for (let s = 0; s < DAY_SERVERS; s++) {
  const offset = (s * TOOLS_PER_SERVER) % pool.length;
  let server = textByOffset.get(offset);
  if (server === undefined) {
    const tools = buildList(TOOLS_PER_SERVER, offset);
    server = { tools, toolsJson: JSON.stringify(tools) };
    textByOffset.set(offset, server);
  }
  // A fresh array per server, so nothing can be reused between servers by accident.
  day.push({ tools: [...server.tools], toolsJson: server.toolsJson });
}

let sink = 0;

function analyzeAndHash(tools: unknown[], toolsJson: string, elapsedMs: number, options?: HashOptions): void {
  sink += analyzeToolList({ tools, toolsJson, protocolVersion: '2025-06-18', elapsedMs }).length;
  sink += hashToolList(tools, options).length;
}

describe(`one list of ${PROBE_TOOL_CAP} real tools (the probe's cap)`, () => {
  bench('baseline: JSON.stringify(tools)', () => {
    sink += JSON.stringify(capList).length;
  });
  bench('floor: sha256Hex(JSON.stringify(tools))', () => {
    sink += sha256Hex(JSON.stringify(capList)).length;
  });
  bench('floor, node:crypto: sha256Hex(JSON.stringify(tools), nodeCrypto)', () => {
    sink += sha256Hex(JSON.stringify(capList), nodeCrypto).length;
  });
  bench('analyzeToolList', () => {
    sink += analyzeToolList({
      tools: capList,
      toolsJson: capJson,
      protocolVersion: '2025-06-18',
      elapsedMs: 1_200,
    }).length;
  });
  bench('hashToolList', () => {
    sink += hashToolList(capList).length;
  });
  bench('hashToolList, node:crypto', () => {
    sink += hashToolList(capList, nodeCrypto).length;
  });
  bench('analyzeToolList + hashToolList', () => {
    analyzeAndHash(capList, capJson, 1_200);
  });
  bench('analyzeToolList + hashToolList, node:crypto', () => {
    analyzeAndHash(capList, capJson, 1_200, nodeCrypto);
  });
  bench('diffToolLists (one tool changed)', () => {
    sink += diffToolLists({ tools: capList, serverVersion: '1' }, { tools: capListChanged, serverVersion: '1' }).changed
      .length;
  });
});

const dayOptions = { iterations: 3, time: 0, warmupIterations: 1, warmupTime: 0 };

describe(`a day: ${DAY_SERVERS.toLocaleString('en-US')} servers x ${TOOLS_PER_SERVER} tools`, () => {
  bench(
    'baseline: JSON.stringify(tools) per server',
    () => {
      for (const server of day) sink += JSON.stringify(server.tools).length;
    },
    dayOptions,
  );
  bench(
    'floor: sha256Hex(JSON.stringify(tools)) per server',
    () => {
      for (const server of day) sink += sha256Hex(JSON.stringify(server.tools)).length;
    },
    dayOptions,
  );
  bench(
    'floor, node:crypto: sha256Hex(JSON.stringify(tools), nodeCrypto) per server',
    () => {
      for (const server of day) sink += sha256Hex(JSON.stringify(server.tools), nodeCrypto).length;
    },
    dayOptions,
  );
  bench(
    'analyzeToolList per server',
    () => {
      for (const server of day)
        sink += analyzeToolList({
          tools: server.tools,
          toolsJson: server.toolsJson,
          protocolVersion: '2025-06-18',
          elapsedMs: 900,
        }).length;
    },
    dayOptions,
  );
  bench(
    'analyzeToolList + hashToolList per server',
    () => {
      for (const server of day) analyzeAndHash(server.tools, server.toolsJson, 900);
    },
    dayOptions,
  );
  bench(
    'analyzeToolList + hashToolList per server, node:crypto createHash (the app)',
    () => {
      for (const server of day) analyzeAndHash(server.tools, server.toolsJson, 900, nodeCrypto);
    },
    dayOptions,
  );
  bench(
    'analyzeToolList + hashToolList per server, node:crypto hash()',
    () => {
      for (const server of day) analyzeAndHash(server.tools, server.toolsJson, 900, nodeOneShot);
    },
    dayOptions,
  );
});

// Keeps the results observable so no engine can drop the work as dead code.
export function benchSink(): number {
  return sink;
}
