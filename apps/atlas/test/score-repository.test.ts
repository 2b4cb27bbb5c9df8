// The repository dimensions of the daily score through the probe's real GitHub reader, pointed at a loopback
// server that answers in the GitHub REST API's recorded format (written here, never copied from GitHub). With a
// reader the docs-and-maintenance category is scored and an archived repository is flagged; a repository the API
// does not know, or no reader at all, leaves the category pending.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { probeServer } from '@mcp-atlas/probe';
import { readGitHubRepository } from '@mcp-atlas/probe/outside';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WatchedServer } from '../src/data/schemas.js';
import { createLogger } from '../src/log.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { foldDay } from '../src/scan/fold-day.js';
import { scanDay } from '../src/scan/scan-day.js';
import { readDayScores } from '../src/score/day-scores.js';
import { writeRegistryScoreFacts } from '../src/score/registry-facts.js';
import type { RepositoryReader } from '../src/score/score-inputs.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { type RunningServer, startSdkServer } from './fixtures/check-sdk-http.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { weatherFacts } from './fixtures/score-files.js';

const DAY = '2026-11-20';

/** The answers of a small, active repository, in the REST API's shape. */
function githubAnswers(archived: boolean): Record<string, unknown> {
  return {
    '/repos/acme/weather': {
      full_name: 'acme/weather',
      default_branch: 'main',
      archived,
      pushed_at: '2026-11-18T10:00:00Z',
      stargazers_count: 120,
      forks_count: 8,
      open_issues_count: 3,
      license: { spdx_id: 'MIT', name: 'MIT License' },
    },
    '/repos/acme/weather/git/trees/main': {
      tree: ['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json', 'pnpm-lock.yaml', '.github/workflows/ci.yml'].map(
        (path) => ({ path }),
      ),
      truncated: false,
    },
    '/repos/acme/weather/commits': Array.from({ length: 30 }, (_, i) => ({ sha: `c${i}` })),
    '/repos/acme/weather/releases': [
      { tag_name: 'v1.2.0', published_at: '2026-11-01T00:00:00Z', body: 'Adds forecasts.', prerelease: false },
    ],
    '/repos/acme/weather/tags': [{ name: 'v1.2.0' }, { name: 'v1.1.0' }],
  };
}

let storage: Storage;
let mcp: RunningServer;
let github: Server;
let githubUrl: string;
let archived = false;

beforeEach(async () => {
  storage = createMemoryStorage();
  mcp = await startSdkServer();
  archived = false;
  github = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const body = githubAnswers(archived)[path];
    if (body === undefined) res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
  githubUrl = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await mcp.close();
  github.closeAllConnections();
  await new Promise<void>((resolve) => github.close(() => resolve()));
});

/** What a registry read leaves for `weather`: its description, repository and transport. */
async function writeWeatherFacts(repositoryUrl: string): Promise<void> {
  await writeRegistryScoreFacts(storage, new Map([['weather', weatherFacts({ repositoryUrl })]]));
}

async function scoreWith(repositoryUrl: string, readRepository?: RepositoryReader) {
  const server: WatchedServer = { id: 'weather', url: mcp.url, source: 'registry', allowPrivate: true };
  await writeWeatherFacts(repositoryUrl);
  const scan = await scanDay({
    day: DAY,
    servers: [server],
    storage,
    methodologyVersion: METHODOLOGY_VERSION,
    probe: (s) => probeServer(s.url, { allowPrivate: true }),
  });
  await foldDay({
    storage,
    day: DAY,
    results: scan.results,
    servers: [server],
    methodologyVersion: METHODOLOGY_VERSION,
    ...(readRepository !== undefined ? { scoring: { readRepository } } : {}),
  });
  return (await readDayScores(storage, DAY)).get('weather');
}

const reader: RepositoryReader = (url) => readGitHubRepository(url, { apiUrl: githubUrl, allowPrivate: true });

describe('the repository dimensions', () => {
  it('are scored from the GitHub reader', async () => {
    const score = await scoreWith('https://github.com/acme/weather', reader);
    expect(score?.categories.docsMaintenance).toEqual(expect.any(Number));
    expect(score?.categories.docsMaintenance).toBeGreaterThan(0);
    expect(score?.dimensionsScored).toBe(4);
    expect(score?.flags.map((f) => f.key)).not.toContain('REPO_ARCHIVED');
  });

  it('flag an archived repository', async () => {
    archived = true;
    const score = await scoreWith('https://github.com/acme/weather', reader);
    expect(score?.flags.map((f) => f.key)).toContain('REPO_ARCHIVED');
  });

  it('stay pending for a repository the API does not know, and without a reader', async () => {
    const unknown = await scoreWith('https://github.com/acme/missing', reader);
    expect(unknown?.categories.docsMaintenance).toBeNull();
    storage = createMemoryStorage();
    const without = await scoreWith('https://github.com/acme/weather');
    expect(without?.categories.docsMaintenance).toBeNull();
    expect(without?.dimensionsScored).toBe(3);
  });
});

describe('the daily schedule', () => {
  it('scores the repository dimensions with the reader the service is given (serve --github-token)', async () => {
    await putJson(storage, 'state/servers.json', {
      servers: [{ id: 'weather', url: mcp.url, title: 'Weather', source: 'registry' }],
    });
    await writeWeatherFacts('https://github.com/acme/weather');
    const scheduleWith = async (readRepository?: RepositoryReader) =>
      new Scheduler({
        storage,
        log: createLogger('silent'),
        keys: await loadOrCreateSigningKeys(storage, new Date(`${DAY}T00:00:00Z`)),
        registryUrl: null,
        network: { allowPrivate: true },
        outside: CLOSED_OUTSIDE,
        ...(readRepository !== undefined ? { readRepository } : {}),
      });
    await (await scheduleWith(reader)).runDaily(DAY);
    const scored = (await readDayScores(storage, DAY)).get('weather');
    expect(scored?.categories.docsMaintenance).toBeGreaterThan(0);
    expect(scored?.dimensionsScored).toBe(4);

    // The same day on a service given no token: the category stays pending.
    storage = createMemoryStorage();
    await putJson(storage, 'state/servers.json', {
      servers: [{ id: 'weather', url: mcp.url, title: 'Weather', source: 'registry' }],
    });
    await writeWeatherFacts('https://github.com/acme/weather');
    await (await scheduleWith()).runDaily(DAY);
    expect((await readDayScores(storage, DAY)).get('weather')?.categories.docsMaintenance).toBeNull();
  });
});
