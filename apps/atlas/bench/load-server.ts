// The server side of the load benchmark: fill an in-memory store (the demo's month, or real tool lists from
// ../shared/corpus repeated to 200,000 tools), serve it on loopback, and print the URL. Bundled by
// bench/run-load.mjs; never part of the app's build.
import { loadCorpus } from '@mcp-atlas/corpus';
import { hashToolList } from '@mcp-atlas/findings';
import { dayCatalogPath, serverStatePath } from '../src/data/paths.js';
import { runDemo } from '../src/demo/run-demo.js';
import { createLogger } from '../src/log.js';
import { emptyServerState } from '../src/scan/fold-day.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { serveAtlas } from '../src/serve/serve-atlas.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';

const DAY = '2026-11-30';

async function fillWithCorpus(storage: Storage, toolTarget: number): Promise<number> {
  const lists = loadCorpus().filter((server) => server.tools.length > 0);
  let tools = 0;
  for (let i = 0; tools < toolTarget; i++) {
    const source = lists[i % lists.length]!;
    const id = `bench-${i}`;
    const list = source.tools.slice(0, toolTarget - tools);
    tools += list.length;
    await putJson(storage, dayCatalogPath(DAY, id), {
      id,
      day: DAY,
      toolsHash: hashToolList(list),
      serverVersion: '1.0.0',
      tools: list,
      verdicts: [],
    });
    await putJson(storage, serverStatePath(id), {
      ...emptyServerState({ id, url: `https://${id}.example.com/mcp` }),
      letters: 'o'.repeat(30),
      lastDay: DAY,
      lastLetter: 'o',
      lastCatalogDay: DAY,
      lastHandshakeMs: 400,
    });
  }
  return tools;
}

const mode = process.argv[2] ?? 'demo';
const searchCacheEntries = Number(process.argv[3] ?? '2000');
const storage = createMemoryStorage();
const log = createLogger('silent');
let keys;
let onClose: (() => Promise<void>) | undefined;
if (mode === 'demo') {
  const outcome = await runDemo({ days: 30, storage, now: new Date(`${DAY}T12:00:00Z`), log });
  keys = outcome.keys;
  onClose = () => outcome.fleet.close();
} else {
  keys = await loadOrCreateSigningKeys(storage, new Date());
  await fillWithCorpus(storage, Number(mode));
}
const running = await serveAtlas({
  storage,
  port: 0,
  log,
  keys,
  handleSignals: true,
  searchCacheEntries,
  ...(onClose ? { onClose } : {}),
});
process.stdout.write(`READY ${running.url}\n`);
await running.closed;
