// The production search evaluation against a served app: `mcp-atlas search-eval` sends each job of a set to the
// app's /api/toolsearch over loopback, grades the answers, and appends each run to search-eval/history.json;
// `/search-eval` shows the runs; the schedule runs it on the 1st of a month, once. Failing services (raw
// node:http) give jobs with reasons, never a crash, and a run where nothing answered records nothing.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair } from '@mcp-atlas/history';
import { isSearchEvalDue } from '@mcp-atlas/operations';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../src/commands.js';
import { SEARCH_EVAL_HISTORY_PATH } from '../src/data/paths.js';
import { createLogger } from '../src/log.js';
import { monthlyPoints, readSearchEvalHistory, type SearchEvalRecord } from '../src/search-eval/history.js';
import { runMonthlySearchEvalIfDue } from '../src/search-eval/monthly-run.js';
import { medianOf, runSearchEval, toolSearchUrlOf, weakestJobs } from '../src/search-eval/run-search-eval.js';
import { packagedSearchEvalSetPath, packagedSetPathOf, parseSearchEvalSet } from '../src/search-eval/search-set.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { type RunningFixture, startFixture } from './fixtures/http-atlas.js';
import { manualClock } from './fixtures/manual-clock.js';

/** A small set over the fixture's tools, written for these tests: four jobs with a fit, one with none. */
const TEST_SET = {
  name: 'search-eval test set',
  version: 'test-1',
  jobs: [
    {
      id: 'notes-list',
      category: 'notes',
      query: 'list the notes in a notebook',
      allow: 'any',
      groups: [['list'], ['note']],
    },
    { id: 'notes-create', category: 'notes', query: 'create a note', allow: 'change', groups: [['create'], ['note']] },
    { id: 'weather', category: 'weather', query: 'weather forecast for a city', allow: 'any', groups: [['forecast']] },
    {
      id: 'ticket-delete',
      category: 'ticketing',
      query: 'delete a ticket',
      allow: 'any',
      groups: [['delete'], ['ticket']],
    },
    {
      id: 'calendar',
      category: 'calendar',
      query: 'book a meeting in my calendar',
      allow: 'change',
      groups: [['calendar']],
    },
  ],
};

const folders: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'atlas-search-eval-'));
  folders.push(dir);
  return dir;
}

async function writeSet(dir: string, set: unknown = TEST_SET): Promise<string> {
  const path = join(dir, 'set.json');
  await writeFile(path, typeof set === 'string' ? set : JSON.stringify(set, null, 1));
  return path;
}

/** The fixture app served over a data folder on disk, so the command and the app share one store. */
async function servedOnFolder(): Promise<{ fixture: RunningFixture; data: string }> {
  const data = await tempFolder();
  const fixture = await startFixture({ storage: createFsStorage(data) });
  closers.push(() => fixture.close());
  return { fixture, data };
}

/** Runs the CLI and captures what it prints. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await runCommand(args, createLogger('silent'));
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

/** A raw HTTP service whose /api/toolsearch answers as `answer` says, per query. */
async function startHostile(answer: (query: string, res: import('node:http').ServerResponse) => void): Promise<string> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    answer(url.searchParams.get('q') ?? '', res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('mcp-atlas search-eval against a served app', () => {
  it('two runs leave two records in search-eval/history.json, and /search-eval shows both', async () => {
    const { fixture, data } = await servedOnFolder();
    const setPath = await writeSet(await tempFolder());
    const first = await cli(['search-eval', '--url', fixture.base, '--set', setPath, '--data', data, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const json = JSON.parse(first.stdout);
    expect(Object.keys(json).sort()).toEqual(
      ['hit5', 'jobs', 'medianMs', 'mrr', 'ndcg5', 'p1', 'p5', 'setSha256', 'setVersion'].sort(),
    );
    expect(json.setVersion).toBe('test-1');
    expect(json.setSha256).toBe(
      createHash('sha256')
        .update(await readFile(setPath))
        .digest('hex'),
    );
    const byId = new Map(json.jobs.map((job: { id: string }) => [job.id, job]));
    // The fixture has one forecast tool and no calendar tool: the first fits at rank 1, the last never.
    const weather = byId.get('weather') as { category: string; top5: string[]; grades: number[]; ndcg5: number };
    expect(weather.category).toBe('weather');
    expect(weather.top5[0]).toBe('weather-desk/get_forecast');
    // One top-grade fit at rank 1 against an ideal of five: nDCG@5 = 1 / (1 + 1/log2(3) + 1/2 + 1/log2(5) + 1/log2(6)).
    expect(weather.grades.slice(0, 2)).toEqual([2, 0]);
    const ideal = 1 + 1 / Math.log2(3) + 1 / 2 + 1 / Math.log2(5) + 1 / Math.log2(6);
    expect(weather.ndcg5).toBeCloseTo(1 / ideal, 12);
    expect(byId.get('calendar')).toMatchObject({ ndcg5: 0 });
    expect(json.hit5).toBeCloseTo(4 / 5, 12);
    expect(json.medianMs).toBeGreaterThan(0);

    const second = await cli(['search-eval', '--url', `${fixture.base}/`, '--set', setPath, '--data', data]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('P@1 ');
    expect(second.stdout).toContain('hit@5 0.800');
    expect(second.stdout).toContain('appended to search-eval/history.json (2 runs)');

    const stored = JSON.parse(await readFile(join(data, SEARCH_EVAL_HISTORY_PATH), 'utf8')) as {
      runs: SearchEvalRecord[];
    };
    expect(stored.runs).toHaveLength(2);
    for (const run of stored.runs) {
      expect(run).toMatchObject({ source: 'command', url: fixture.base, setVersion: 'test-1', jobCount: 5 });
      expect(run.setSha256).toBe(json.setSha256);
      expect(run.metrics.hit5).toBeCloseTo(0.8, 12);
      expect(run.weakest[0]?.id).toBe('calendar');
      // Every job is kept, in the set's order, with its allowed level, P@5 and top five.
      expect(run.jobs?.map((job) => [job.id, job.allow])).toEqual(TEST_SET.jobs.map((job) => [job.id, job.allow]));
      const weather = run.jobs?.find((job) => job.id === 'weather');
      // One fit in the top five: P@5 = 1/5.
      expect(weather).toMatchObject({ p5: 0.2, top5: expect.arrayContaining(['weather-desk/get_forecast']) });
      expect(run.jobs?.find((job) => job.id === 'calendar')).toMatchObject({ p5: 0 });
    }

    const page = await fetch(`${fixture.base}/search-eval`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Tool search evaluation');
    expect(html).toContain('data-latest');
    expect(html).toContain(`SHA-256 <code>${json.setSha256}</code>`);
    expect(html).toContain('data-category="weather"');
    expect(html).toContain('data-job="calendar"');
    // Every job is listed with its allowed level and its latest P@5.
    for (const job of TEST_SET.jobs) expect(html).toContain(`data-job-row="${job.id}"`);
    expect(html).toMatch(/data-job-row="weather" data-p5="0.20"><td>weather forecast for a city/);
    expect(html).toMatch(/data-job-row="notes-create"[^>]*>.*?<td>read-only or changes data<\/td>/s);
    // Both runs are in the published history the page links to.
    expect(html).toContain('every run, 2');
    const history = await fetch(`${fixture.base}/search-eval/history.json`);
    expect(history.status).toBe(200);
    expect((await history.json()).runs).toHaveLength(2);
  });

  it('serves the frozen set the schedule runs, byte for byte, and an empty page before any run', async () => {
    const { fixture } = await servedOnFolder();
    const set = await fetch(`${fixture.base}/search-eval/set.json`);
    expect(set.status).toBe(200);
    const served = Buffer.from(await set.arrayBuffer());
    expect(served.equals(await readFile(packagedSearchEvalSetPath()))).toBe(true);
    expect(createHash('sha256').update(served).digest('hex')).toBe(
      '352888b56d0dcc1339413acd5430a7e0e7ef8db31e88241801f67a705e3415ff',
    );
    // The earlier frozen set stays published beside it; an unknown version is a 404 that names the known ones.
    const v1 = await fetch(`${fixture.base}/search-eval/set.json?version=v1`);
    expect(v1.status).toBe(200);
    const v1Path = packagedSetPathOf('v1');
    expect(v1Path).not.toBeNull();
    expect(Buffer.from(await v1.arrayBuffer()).equals(await readFile(v1Path as string))).toBe(true);
    const v2 = Buffer.from(await (await fetch(`${fixture.base}/search-eval/set.json?version=v2`)).arrayBuffer());
    expect(v2.equals(served)).toBe(true);
    const unknown = await fetch(`${fixture.base}/search-eval/set.json?version=v9`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: 'unknown_version', message: 'no published set v9; there are v1, v2' },
    });
    const page = await (await fetch(`${fixture.base}/search-eval`)).text();
    expect(page).toContain('data-empty');
    expect(page).toContain('href="/search-eval/set.json?version=v1"');
    expect(await (await fetch(`${fixture.base}/search-eval/history.json`)).json()).toEqual({ runs: [] });
  });

  it('a history file that is not a history is left alone: exit 1, and the page says so with 503', async () => {
    const { fixture, data } = await servedOnFolder();
    const setPath = await writeSet(await tempFolder());
    await fixture.storage.put(SEARCH_EVAL_HISTORY_PATH, new TextEncoder().encode('{"runs": "oops"}'));
    const run = await cli(['search-eval', '--url', fixture.base, '--set', setPath, '--data', data]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not a search-eval history');
    expect(await readFile(join(data, SEARCH_EVAL_HISTORY_PATH), 'utf8')).toBe('{"runs": "oops"}');
    const page = await fetch(`${fixture.base}/search-eval`);
    expect(page.status).toBe(503);
  });

  it('--store file:DIR is the data folder; other store URLs, a bad URL and a bad set are usage errors', async () => {
    const { fixture, data } = await servedOnFolder();
    const dir = await tempFolder();
    const setPath = await writeSet(dir);
    const stored = await cli(['search-eval', '--url', fixture.base, '--set', setPath, '--store', `file:${data}`]);
    expect(stored.code).toBe(0);
    expect((await readSearchEvalHistory(fixture.storage)).runs).toHaveLength(1);
    const postgres = await cli(['search-eval', '--url', fixture.base, '--set', setPath, '--store', 'postgres://x/y']);
    expect(postgres.code).toBe(2);
    expect(postgres.stderr).toContain('only file: stores are supported');
    const ftp = await cli(['search-eval', '--url', 'ftp://example.test', '--set', setPath, '--data', data]);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain('--url must be an http or https URL');
    const badSet = await writeSet(await tempFolder(), {
      version: 'x',
      jobs: [{ id: 'a', category: 'c', query: 'q', allow: 'maybe', groups: [['q']] }],
    });
    const bad = await cli(['search-eval', '--url', fixture.base, '--set', badSet, '--data', data]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('job "a": allow must be');
    const noVersion = await writeSet(await tempFolder(), { jobs: TEST_SET.jobs });
    expect((await cli(['search-eval', '--url', fixture.base, '--set', noVersion, '--data', data])).stderr).toContain(
      'must name its version',
    );
    const missing = await cli(['search-eval', '--url', fixture.base, '--data', data]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('needs --set FILE');
    expect((await readSearchEvalHistory(fixture.storage)).runs).toHaveLength(1);
  });
});

describe('failing services', () => {
  const set = parseSearchEvalSet(new TextEncoder().encode(JSON.stringify(TEST_SET)), 'test set');

  it('an error status, a non-JSON body, a wrong shape and a hung request each fail their job with the reason', async () => {
    const base = await startHostile((query, res) => {
      if (query.startsWith('list')) return void res.writeHead(500).end('{}');
      if (query.startsWith('create'))
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>');
      if (query.startsWith('weather'))
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[{"tool":1}]}');
      if (query.startsWith('delete')) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[]}');
    });
    const run = await runSearchEval({ baseUrl: base, set, timeoutMs: 300 });
    expect(run.jobs.map((job) => job.error)).toEqual([
      'status 500',
      'the answer is not JSON',
      'the answer is not a tool search answer ({ results: [...] })',
      'no answer within 300 ms',
      undefined,
    ]);
    expect(run.failedRequests).toBe(4);
    expect(run.p1).toBe(0);
  });

  it('a service that answers nothing: exit 1 and no record', async () => {
    const base = await startHostile((_query, res) => void res.writeHead(503).end());
    const data = await tempFolder();
    const setPath = await writeSet(await tempFolder());
    const run = await cli(['search-eval', '--url', base, '--set', setPath, '--data', data]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no request to');
    expect(run.stderr).toContain('status 503');
    expect((await readSearchEvalHistory(createFsStorage(data))).runs).toEqual([]);
  });
});

describe('the monthly run', () => {
  it('is due on the 1st (UTC) of a month without a scheduled run; a run by hand does not count', () => {
    const record = (date: string, source: 'schedule' | 'command') => ({ date, source }) as SearchEvalRecord;
    expect(isSearchEvalDue(new Date('2026-12-01T00:00:00Z'), { runs: [] })).toBe(true);
    expect(isSearchEvalDue(new Date('2026-12-01T23:59:59Z'), { runs: [] })).toBe(true);
    expect(isSearchEvalDue(new Date('2026-11-30T23:59:59Z'), { runs: [] })).toBe(false);
    expect(isSearchEvalDue(new Date('2026-12-02T00:00:00Z'), { runs: [] })).toBe(false);
    expect(
      isSearchEvalDue(new Date('2026-12-01T10:00:00Z'), { runs: [record('2026-12-01T00:10:00.000Z', 'command')] }),
    ).toBe(true);
    expect(
      isSearchEvalDue(new Date('2026-12-01T10:00:00Z'), { runs: [record('2026-12-01T00:10:00.000Z', 'schedule')] }),
    ).toBe(false);
    expect(
      isSearchEvalDue(new Date('2027-01-01T10:00:00Z'), { runs: [record('2026-12-01T00:10:00.000Z', 'schedule')] }),
    ).toBe(true);
  });

  it('the schedule runs the frozen set against the service on the 1st, once, and not on the 2nd', async () => {
    const { fixture } = await servedOnFolder();
    const storage = createMemoryStorage();
    const clock = manualClock('2027-01-01T00:30:00Z');
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys: await generateKeyPair(),
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
      searchEval: { baseUrl: fixture.base },
    });
    expect(await scheduler.tick()).toContain('search-eval');
    const history = await readSearchEvalHistory(storage);
    expect(history.runs).toHaveLength(1);
    expect(history.runs[0]).toMatchObject({
      source: 'schedule',
      setVersion: 'v2',
      setSha256: '352888b56d0dcc1339413acd5430a7e0e7ef8db31e88241801f67a705e3415ff',
      jobCount: 165,
      failedRequests: 0,
    });
    expect(history.runs[0]?.weakest).toHaveLength(10);
    clock.set('2027-01-01T05:00:00Z');
    expect(await scheduler.tick()).not.toContain('search-eval');
    clock.set('2027-01-02T00:30:00Z');
    expect(await scheduler.tick()).not.toContain('search-eval');
    expect((await readSearchEvalHistory(storage)).runs).toHaveLength(1);
  });

  it('a month where the service answers nothing fails the task and records nothing', async () => {
    const base = await startHostile((_query, res) => void res.writeHead(503).end());
    const storage = createMemoryStorage();
    await expect(
      runMonthlySearchEvalIfDue(
        { storage, log: createLogger('silent'), baseUrl: base },
        new Date('2027-02-01T01:00:00Z'),
      ),
    ).rejects.toThrow('was answered');
    expect((await readSearchEvalHistory(storage)).runs).toEqual([]);
  });
});

describe('the pieces', () => {
  it('median: odd and even counts, empty', () => {
    expect(medianOf([])).toBe(0);
    expect(medianOf([5])).toBe(5);
    expect(medianOf([9, 1, 5])).toBe(5);
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
  });

  it('the search URL keeps a base path and encodes the query', () => {
    expect(toolSearchUrlOf('https://a.example/atlas/', 'send e-mail & more')).toBe(
      'https://a.example/atlas/api/toolsearch?q=send%20e-mail%20%26%20more',
    );
  });

  it('the weakest jobs: lowest nDCG@5 first, ties in set order, at most ten', () => {
    const jobs = Array.from({ length: 12 }, (_, at) => ({
      id: `j${at}`,
      category: 'c',
      query: 'q',
      allow: 'any' as const,
      top5: [],
      grades: [],
      p5: 0,
      ndcg5: at % 3 === 0 ? 0 : at / 12,
    }));
    expect(weakestJobs(jobs).map((job) => job.id)).toEqual([
      'j0',
      'j3',
      'j6',
      'j9',
      'j1',
      'j2',
      'j4',
      'j5',
      'j7',
      'j8',
    ]);
  });

  it('month points: the newest run of each month, oldest month first', () => {
    const record = (date: string, p5: number) =>
      ({ date, metrics: { p1: 0, p5, ndcg5: 0, mrr: 0, hit5: 0 } }) as SearchEvalRecord;
    const points = monthlyPoints({
      runs: [
        record('2026-12-01T00:00:00.000Z', 0.1),
        record('2026-11-01T00:00:00.000Z', 0.2),
        record('2026-12-05T00:00:00.000Z', 0.3),
      ],
    });
    expect(points.map((p) => [p.date.slice(0, 7), p.metrics.p5])).toEqual([
      ['2026-11', 0.2],
      ['2026-12', 0.3],
    ]);
  });
});
