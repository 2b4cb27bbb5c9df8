// Score-drop alerts in the owner's feed. The threshold cases (9, 10 and 11 points) run over real day score files
// in a data folder; the end-to-end case checks a real loopback MCP server for two days, stops it, and sees the
// fall of its composite become an alert, because its owner is verified. Servers without an owner get no alert.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeServer } from '@mcp-atlas/probe';
import { scoreDropOf, scoreServer } from '@mcp-atlas/score';
import { GRADE_RULES } from '@mcp-atlas/score/rules';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readOwnerAlerts, writeOwnerAlerts } from '../src/data/owner-alerts.js';
import type { WatchedServer } from '../src/data/schemas.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { writeOwnerRecord } from '../src/owners/owner-records.js';
import { foldDay } from '../src/scan/fold-day.js';
import { scanDay } from '../src/scan/scan-day.js';
import { readDayScores, type ServerScore, serverScoreOf, writeDayScores } from '../src/score/day-scores.js';
import { recordScoreDropAlerts } from '../src/score/score-alerts.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import type { Storage } from '../src/storage/storage.js';
import { type RunningServer, startSdkServer } from './fixtures/check-sdk-http.js';

let scratch: string;
let storage: Storage;
const running: RunningServer[] = [];

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'atlas-score-alerts-'));
  storage = createFsStorage(scratch);
});

afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A whole score (from the score package) with its composite set to `composite`. */
function scoreWith(serverId: string, composite: number): ServerScore {
  const result = scoreServer({
    server: {
      name: serverId,
      description: 'A server used by the alert tests to hold a score.',
      repoUrl: '',
      registryId: '',
      remoteEndpointUrl: 'https://mcp.acme.dev/mcp',
      isRemote: true,
      hasSandboxProbe: false,
      registryMetadata: {},
      npmUrl: '',
      pypiUrl: '',
      dockerhubUrl: '',
      lastCommitAt: null,
    },
    staticAnalysis: null,
    deepProbe: { isReachable: true, schemaValid: true, toolsCount: 1 },
    reliability: null,
    agentUsability: null,
    now: '2026-11-10T00:00:00Z',
  });
  return { ...serverScoreOf(serverId, result), compositeScore: composite };
}

async function writeScores(day: string, scores: ServerScore[]): Promise<void> {
  await writeDayScores(storage, {
    day,
    methodologyVersion: METHODOLOGY_VERSION,
    scoredAt: `${day}T23:59:59Z`,
    scores,
    errors: [],
  });
}

async function verifyOwner(serverId: string): Promise<void> {
  await writeOwnerRecord(storage, {
    server: serverId,
    origin: 'https://mcp.acme.dev',
    verifiedAt: '2026-11-01T09:00:00.000Z',
    note: null,
    fiveMinuteChecks: false,
  });
}

describe('scoreDropOf', () => {
  it('alerts at 10 points and more, not at 9, and never without a composite on both days', () => {
    expect(GRADE_RULES.dropAlertPoints).toBe(10);
    expect(scoreDropOf(80, 71)).toBeNull();
    expect(scoreDropOf(80, 70)).toBe(10);
    expect(scoreDropOf(80, 69)).toBe(11);
    expect(scoreDropOf(70, 80)).toBeNull();
    expect(scoreDropOf(null, 10)).toBeNull();
    expect(scoreDropOf(90, null)).toBeNull();
  });
});

describe('recordScoreDropAlerts', () => {
  it('records the drops of 10 and 11 points of owned servers in their feed, not 9, and none without an owner', async () => {
    for (const id of ['nine', 'ten', 'eleven']) await verifyOwner(id);
    await writeScores(
      '2026-11-09',
      ['nine', 'ten', 'eleven', 'unowned'].map((id) => scoreWith(id, 80)),
    );
    const today = [scoreWith('nine', 71), scoreWith('ten', 70), scoreWith('eleven', 69), scoreWith('unowned', 40)];
    await writeScores('2026-11-10', today);
    const recorded = await recordScoreDropAlerts(storage, '2026-11-10', today);
    expect(recorded.map((r) => r.serverId).sort()).toEqual(['eleven', 'ten']);
    const file = await readOwnerAlerts(storage);
    expect(file.servers.nine).toBeUndefined();
    expect(file.servers.unowned).toBeUndefined();
    expect(file.servers.ten?.scoreDrops).toEqual([
      {
        day: '2026-11-10',
        previousDay: '2026-11-09',
        from: 80,
        to: 70,
        drop: 10,
        fromGrade: today[1]?.grade,
        toGrade: today[1]?.grade,
      },
    ]);
    expect(file.servers.eleven?.scoreDrops?.[0]).toMatchObject({ from: 80, to: 69, drop: 11 });
  });

  it('compares with the newest earlier score when the day before has none, and a re-run records the day once', async () => {
    await verifyOwner('gap');
    await writeScores('2026-11-06', [scoreWith('gap', 90)]);
    await writeScores('2026-11-08', [scoreWith('other', 50)]); // the server's shard was skipped that day
    const today = [scoreWith('gap', 75)];
    await recordScoreDropAlerts(storage, '2026-11-09', today);
    await recordScoreDropAlerts(storage, '2026-11-09', today);
    const drops = (await readOwnerAlerts(storage)).servers.gap?.scoreDrops ?? [];
    expect(drops).toHaveLength(1);
    expect(drops[0]).toMatchObject({ previousDay: '2026-11-06', from: 90, to: 75, drop: 15 });
  });

  it("keeps the feed's second-failure alerts next to the score drops", async () => {
    await verifyOwner('both');
    const failure = {
      at: '2026-11-10T10:00:00.000Z',
      kind: 'hourly' as const,
      letter: 'd' as const,
      reason: 'timeout',
      httpStatus: null,
      failuresInARow: 2,
    };
    await writeOwnerAlerts(storage, { servers: { both: { open: true, alerts: [failure] } } });
    await writeScores('2026-11-09', [scoreWith('both', 60)]);
    await recordScoreDropAlerts(storage, '2026-11-10', [scoreWith('both', 40)]);
    const entry = (await readOwnerAlerts(storage)).servers.both;
    expect(entry?.open).toBe(true);
    expect(entry?.alerts).toEqual([failure]);
    expect(entry?.scoreDrops?.[0]?.drop).toBe(20);
  });

  it('alerts the owner of a real server whose composite falls once it stops answering', async () => {
    const live = await startSdkServer();
    running.push(live);
    const server: WatchedServer = { id: 'notes-owned', url: live.url, source: 'registry', allowPrivate: true };
    await verifyOwner(server.id);
    const checkAndFold = async (day: string): Promise<void> => {
      const scan = await scanDay({
        day,
        servers: [server],
        storage,
        methodologyVersion: METHODOLOGY_VERSION,
        probe: (s) => probeServer(s.url, { allowPrivate: true }),
      });
      await foldDay({
        storage,
        day,
        results: scan.results,
        servers: [server],
        methodologyVersion: METHODOLOGY_VERSION,
      });
    };
    await checkAndFold('2026-11-09');
    await live.close();
    running.splice(0);
    await checkAndFold('2026-11-10');
    const before = (await readDayScores(storage, '2026-11-09')).get(server.id)?.compositeScore as number;
    const after = (await readDayScores(storage, '2026-11-10')).get(server.id)?.compositeScore as number;
    expect(before - after).toBeGreaterThanOrEqual(GRADE_RULES.dropAlertPoints);
    const drops = (await readOwnerAlerts(storage)).servers[server.id]?.scoreDrops ?? [];
    expect(drops).toEqual([expect.objectContaining({ day: '2026-11-10', from: before, to: after })]);
  });
});
