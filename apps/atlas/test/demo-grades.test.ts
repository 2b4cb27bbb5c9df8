// The demo's leaderboard ranks something: the fleet is watched under public-looking names that the demo's own
// network sends to loopback, so the engine's staging rule (kept as it is) does not cap every member at 55, and
// the members differ in what the score reads (tool schemas, uptime, latency, registry entries). Over a real
// simulated week: at least four grades, reliability scored wherever the week holds 10 checks or more, and no
// request for a fleet name ever leaves loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDayResults } from '../src/data/day-results.js';
import { readWatchedServers } from '../src/data/watched-servers.js';
import { DEMO_FLEET_DOMAIN, fleetFetch, loopbackUrlOf } from '../src/demo/fleet-names.js';
import { type DemoOutcome, runDemo } from '../src/demo/run-demo.js';
import { createLogger } from '../src/log.js';
import { readDayScores } from '../src/score/day-scores.js';
import { scoreInputsOf } from '../src/score/score-inputs.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import type { Storage } from '../src/storage/storage.js';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const NEWEST_DAY = '2026-11-29';

describe('the demo fleet under public names', () => {
  let storage: Storage;
  let outcome: DemoOutcome;
  beforeAll(async () => {
    storage = createMemoryStorage();
    outcome = await runDemo({ days: 8, storage, now: NOW, log: createLogger('silent'), keyInMemory: true });
  }, 240_000);
  afterAll(async () => {
    await outcome?.fleet.close();
  });

  it('watches every member under its public name, which the demo network sends to the member on loopback', async () => {
    const watched = await readWatchedServers(storage);
    expect(watched.length).toBeGreaterThan(0);
    for (const server of watched) {
      const member = outcome.fleet.members.find((m) => m.id === server.id);
      expect(server.url).toBe(`https://${server.id}.${DEMO_FLEET_DOMAIN}/mcp`);
      expect(loopbackUrlOf(server.url)).toBe(member?.url);
      expect(new URL(loopbackUrlOf(server.url)).hostname).toBe('127.0.0.1');
    }
  });

  it('shows at least four grades, none capped by the staging flag', async () => {
    const scores = [...(await readDayScores(storage, NEWEST_DAY)).values()];
    expect(scores.length).toBeGreaterThan(0);
    const grades = new Set(scores.map((s) => s.grade).filter((g) => g !== ''));
    expect(grades.size, [...grades].join(' ')).toBeGreaterThanOrEqual(4);
    for (const score of scores) expect(score.flags.map((f) => f.key)).not.toContain('STAGING_ARTIFACT');
  });

  it('scores reliability for every member whose week holds 10 checks or more', async () => {
    const results = [...(await readDayResults(storage, NEWEST_DAY)).values()];
    const gathered = await scoreInputsOf(storage, {
      day: NEWEST_DAY,
      results,
      servers: await readWatchedServers(storage),
    });
    const scores = await readDayScores(storage, NEWEST_DAY);
    const counted = gathered.filter((g) => (g.input.reliability?.probeCount ?? 0) >= 10);
    // Every member checked on the newest day: 7 daily checks plus that day's 24 hourly ones.
    expect(counted.length).toBe(results.length);
    for (const { serverId } of counted) expect(scores.get(serverId)?.categories.reliability, serverId).not.toBeNull();
  });
});

describe("the demo's resolver", () => {
  it('leaves every other URL alone, and fails a fleet name no running member has', async () => {
    expect(loopbackUrlOf('http://127.0.0.1:9/mcp')).toBe('http://127.0.0.1:9/mcp');
    expect(loopbackUrlOf('https://mcp.other.example/mcp')).toBe('https://mcp.other.example/mcp');
    expect(() => loopbackUrlOf(`https://nobody.${DEMO_FLEET_DOMAIN}/mcp`)).toThrow(/no demo server is named/);
    const seen: string[] = [];
    const inner = (async (input: RequestInfo | URL) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return new Response('ok');
    }) as typeof fetch;
    await expect(fleetFetch(inner)(`https://nobody.${DEMO_FLEET_DOMAIN}/mcp`)).rejects.toThrow(TypeError);
    await fleetFetch(inner)('http://127.0.0.1:9/robots.txt');
    expect(seen).toEqual(['http://127.0.0.1:9/robots.txt']);
  });
});
