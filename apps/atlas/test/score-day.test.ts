// The daily quality score over real checks: the demo fleet on loopback, checked by the schedule's own daily run
// on three days and sealed. What it proves: each day's folder gets scores.json with one entry per checked server
// (answering servers graded, registry facts read), the day's seal lists it, one changed byte fails `verify`, the
// trend reader gives a server's days in order, and a re-run of a scored day keeps the sealed file.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT_FAILED, EXIT_OK, runCommand } from '../src/commands.js';
import { readDayResults } from '../src/data/day-results.js';
import type { WatchedServer } from '../src/data/schemas.js';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import { createLogger } from '../src/log.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { foldDay } from '../src/scan/fold-day.js';
import { readDayScores, readScoreTrend } from '../src/score/day-scores.js';
import { writeRegistryScoreFacts } from '../src/score/registry-facts.js';
import { scoreInputsOf } from '../src/score/score-inputs.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { sealStoredDay } from '../src/seal/seal-day.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { weatherFacts } from './fixtures/score-files.js';

const DAYS = ['2026-11-02', '2026-11-03', '2026-11-04'];
const MEMBERS = ['notes', 'weather', 'vault', 'homepage'];

let fleet: Fleet;
let scratch: string;
let folder: string;
let storage: Storage;
let servers: WatchedServer[];

beforeAll(async () => {
  fleet = await startFleet(30);
  scratch = await mkdtemp(join(tmpdir(), 'atlas-score-day-'));
  folder = join(scratch, 'data');
  storage = createFsStorage(folder);
  servers = MEMBERS.map((id) => {
    const member = fleet.members.find((m) => m.id === id);
    if (member === undefined) throw new Error(`no fleet member ${id}`);
    return { id: member.id, url: member.url, title: member.title, source: 'registry' as const };
  });
  await putJson(storage, 'state/servers.json', { servers });
  // What a registry read leaves for `weather`: one secret, its repository and an npm package.
  await writeRegistryScoreFacts(
    storage,
    new Map([
      [
        'weather',
        weatherFacts({
          envVars: [{ name: 'ACME_API_KEY', isSecret: true }],
          packages: [{ registryType: 'npm', identifier: 'acme-weather' }],
        }),
      ],
    ]),
  );
  const keys = await loadOrCreateSigningKeys(storage, new Date('2026-11-02T00:00:00Z'), { dataDir: folder });
  const scheduler = new Scheduler({
    storage,
    log: createLogger('silent'),
    keys,
    registryUrl: null,
    network: { allowPrivate: true },
    outside: CLOSED_OUTSIDE,
    concurrency: 2,
  });
  for (const day of DAYS) await scheduler.runDaily(day);
  for (const day of DAYS) await sealStoredDay(storage, day, keys);
});

afterAll(async () => {
  await fleet.close();
  await rm(scratch, { recursive: true, force: true });
});

/** Runs `verify --data DIR` and returns its exit code and what it printed. */
async function verify(dir: string): Promise<{ code: number; out: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return { code: await runCommand(['verify', '--data', dir], createLogger('silent')), out };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('the day scores file', () => {
  it('holds one entry per checked server, and the answering servers are graded', async () => {
    for (const day of DAYS) {
      const scores = await readDayScores(storage, day);
      expect([...scores.keys()].sort()).toEqual([...MEMBERS].sort());
      for (const id of ['notes', 'weather']) {
        const score = scores.get(id);
        expect(score?.compositeScore).toEqual(expect.any(Number));
        expect(score?.grade).not.toBe('');
        expect(score?.categories.protocol).toBe(100);
        expect(score?.categories.schemaQuality).toEqual(expect.any(Number));
        // No repository reader is configured: docs and maintenance stay pending, the composite renormalises.
        expect(score?.categories.docsMaintenance).toBeNull();
      }
      // A page that does not speak MCP is not reachable as a server: protocol 0.
      expect(scores.get('homepage')?.categories.protocol).toBe(0);
    }
  });

  it('reads security from the registry facts: 16 + 12 + 11 + 15 of 65 with them, 20 + 12 + 15 + 3 without', async () => {
    const scores = await readDayScores(storage, DAYS[2] as string);
    expect(scores.get('weather')?.categories.security).toBe(83); // trunc(54 * 100 / 65)
    expect(scores.get('notes')?.categories.security).toBe(76); // trunc(50 * 100 / 65)
    expect(scores.get('notes')?.flags.map((f) => f.key)).toContain('NO_SOURCE');
    expect(scores.get('weather')?.flags.map((f) => f.key)).not.toContain('NO_SOURCE');
  });

  it('gathers the protocol and reliability evidence from the stored checks', async () => {
    const day = DAYS[2] as string;
    const results = [...(await readDayResults(storage, day)).values()];
    const gathered = await scoreInputsOf(storage, { day, results, servers });
    const byId = new Map(gathered.map((g) => [g.serverId, g.input]));
    const notes = byId.get('notes');
    expect(notes?.deepProbe).toMatchObject({
      isReachable: true,
      schemaValid: true,
      errorHandlingScore: null,
      fuzzScore: null,
      functionalSmokeScore: null,
      authDiscoveryValid: null,
    });
    expect(notes?.deepProbe?.toolsCount).toBe(results.find((r) => r.id === 'notes')?.toolCount);
    // Three daily checks in the seven-day window, all answered: under the gate of 10, so no reliability score.
    expect(notes?.reliability).toMatchObject({ uptimePct: 100, probeCount: 3 });
    expect(notes?.reliability?.latencyP50Ms).toEqual(expect.any(Number));
    // The sign-in member asked for sign-in: auth discovery is read from its origin's well-known document.
    expect(byId.get('vault')?.deepProbe?.authDiscoveryValid).toEqual(expect.any(Boolean));
    expect(byId.get('vault')?.deepProbe?.toolsCount).toBeNull();
    expect(byId.get('homepage')?.deepProbe?.isReachable).toBe(false);
  });
});

describe('the seal covers scores.json', () => {
  it('lists it among the day files of the root', async () => {
    for (const day of DAYS) {
      const root = JSON.parse(await readFile(join(folder, 'roots', `${day}.json`), 'utf8')) as { files: string[] };
      expect(root.files.some((line) => line.endsWith('  scores.json'))).toBe(true);
    }
  });

  it('fails verify after one byte of a sealed scores.json changes, and names the file', async () => {
    const dir = join(scratch, 'tampered');
    await cp(folder, dir, { recursive: true });
    expect((await verify(dir)).code).toBe(EXIT_OK);
    const day = DAYS[1] as string;
    const path = join(dir, 'days', day, 'scores.json');
    const bytes = await readFile(path);
    const at = bytes.indexOf('"compositeScore":');
    expect(at).toBeGreaterThan(0);
    const digit = at + '"compositeScore":'.length;
    bytes[digit] = bytes[digit] === '1'.charCodeAt(0) ? '2'.charCodeAt(0) : '1'.charCodeAt(0);
    await writeFile(path, bytes);
    const run = await verify(dir);
    expect(run.code).toBe(EXIT_FAILED);
    expect(run.out).toBe(`broken: ${day}: day folder differs from its record: scores.json does not match its line\n`);
  });

  it('keeps a sealed day scores file when the fold of that day runs again', async () => {
    const day = DAYS[0] as string;
    const before = await readFile(join(folder, 'days', day, 'scores.json'));
    const results = [...(await readDayResults(storage, day)).values()];
    await foldDay({ storage, day, results, servers, methodologyVersion: METHODOLOGY_VERSION });
    expect(await readFile(join(folder, 'days', day, 'scores.json'))).toEqual(before);
    expect((await verify(folder)).code).toBe(EXIT_OK);
  });
});

describe('readScoreTrend', () => {
  it("gives a server's scored days oldest first and leaves out days without a score", async () => {
    const asked = ['2026-11-05', ...[...DAYS].reverse(), '2026-11-01'];
    const trend = await readScoreTrend(storage, 'weather', asked);
    expect(trend.map((p) => p.day)).toEqual(DAYS);
    const scores = await readDayScores(storage, DAYS[2] as string);
    expect(trend[2]).toEqual({
      day: DAYS[2],
      compositeScore: scores.get('weather')?.compositeScore,
      grade: scores.get('weather')?.grade,
      visibilityLevel: scores.get('weather')?.visibilityLevel,
      dimensionsScored: scores.get('weather')?.dimensionsScored,
      dimensionsApplicable: scores.get('weather')?.dimensionsApplicable,
    });
    expect(await readScoreTrend(storage, 'not-watched', DAYS)).toEqual([]);
  });
});
