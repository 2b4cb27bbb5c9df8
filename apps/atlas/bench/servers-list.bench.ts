// GET /api/servers on a read model of 2,000 servers (bench/server-world.ts), through the real app in process
// (`app.request`, Host guard and CORS included, the body read to the last byte). The baseline is the route as it
// was: the presented list kept per view, but `c.json` serializing it again on every request; it is mounted on the
// same app at another path so that both pay the same middleware. The candidates are the route as it is now: the
// whole list from its kept bytes, one page of 100, and a revalidation answered 304.
// Run: npx vitest bench --run bench/servers-list.bench.ts
import { generateKeyPair } from '@mcp-atlas/history';
import { bench, describe } from 'vitest';
import { createHttpApp } from '../src/http/app.js';
import { presentObserving, presentServerSummary } from '../src/http/present-server.js';
import type { ServerList } from '../src/http/schemas.js';
import { type AtlasView, buildView } from '../src/view/build-view.js';
import { WORLD_NOW, writeServerWorld } from './server-world.js';

const SERVERS = 2_000;
// Long runs: the machine is shared, and one answer of the baseline takes tens of milliseconds.
const RUN = { time: 4_000, warmupTime: 500 };

const storage = await writeServerWorld(SERVERS);
const view: AtlasView = await buildView(storage, WORLD_NOW);
const app = createHttpApp({
  getView: () => view,
  storage,
  publicKey: (await generateKeyPair()).publicKey,
  now: () => WORLD_NOW,
  appVersion: '0.0.0-bench',
  methodologyVersion: '1.0.0',
  botUserAgent: 'mcp-atlas-bench',
  validateLicense: async () => false,
  reporterSecret: new Uint8Array(32).fill(3),
});

// The route before it kept serialized text, as it was in http/app.ts.
const oldLists = new WeakMap<AtlasView, ServerList>();
app.get('/api/servers-old', (c) => {
  let list = oldLists.get(view);
  if (list === undefined) {
    list = {
      day: view.day,
      servers: view.servers.map((server) => presentServerSummary(view, server)),
      observing: view.observing.map(presentObserving),
    };
    oldLists.set(view, list);
  }
  return c.json(list);
});

async function fetchAll(path: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await app.request(path, { headers });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200 && response.status !== 304) throw new Error(`${path} answered ${response.status}`);
  return bytes;
}

// Both answers must be the same bytes before their speeds mean anything.
const oldText = await (await app.request('/api/servers-old')).text();
const newResponse = await app.request('/api/servers');
const etag = newResponse.headers.get('etag') as string;
if ((await newResponse.text()) !== oldText) throw new Error('the kept answer differs from the old one');
console.log(`/api/servers on ${view.servers.length} servers: ${(oldText.length / 1e6).toFixed(2)} MB a whole answer`);

describe(`GET /api/servers on ${SERVERS} servers`, () => {
  bench(
    'c.json on every request (the old route, baseline)',
    async () => {
      await fetchAll('/api/servers-old');
    },
    RUN,
  );
  bench(
    'whole list from kept bytes',
    async () => {
      await fetchAll('/api/servers');
    },
    RUN,
  );
  bench(
    'limit=100 (first page)',
    async () => {
      await fetchAll('/api/servers?limit=100');
    },
    RUN,
  );
  bench(
    'If-None-Match revalidation (304)',
    async () => {
      await fetchAll('/api/servers', { 'if-none-match': etag });
    },
    RUN,
  );
});
