import { decideIncident } from '@mcp-atlas/reliability';
import { ownCheckOutcomeOf } from '@mcp-atlas/reliability/live';
import { describe, expect, it } from 'vitest';
import type { ServerDayResult } from '../src/data/schemas.js';
import { emptyServerState } from '../src/scan/fold-day.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { buildView, incidentChecksFromRecords } from '../src/view/build-view.js';

const NOW = new Date('2026-11-30T12:00:00Z');

/** Writes a day's index and one shard holding the notes server's result, as the daily check writes them. */
async function writeDay(
  storage: Storage,
  day: string,
  facts: Pick<ServerDayResult, 'letter' | 'reason'> & { checkedAt?: string },
) {
  const result: ServerDayResult = {
    id: 'notes',
    url: 'https://notes.example.com/mcp',
    letter: facts.letter,
    reason: facts.reason,
    message: facts.reason,
    notStandardMcp: false,
    protocolVersion: '2025-06-18',
    serverName: 'notes',
    serverVersion: '1.0.0',
    elapsedMs: 300,
    steps: [],
    toolCount: 1,
    toolsHash: 'h',
    tokens: 10,
    findings: [],
    highRiskTools: 0,
    paymentAddress: null,
    redirect: null,
    category: null,
    ...(facts.checkedAt !== undefined ? { checkedAt: facts.checkedAt } : {}),
  };
  await putJson(storage, `days/${day}/index.json`, {
    day,
    methodologyVersion: '1',
    shards: 1,
    servers: [{ id: 'notes', url: result.url, shard: 0 }],
  });
  await putJson(storage, `days/${day}/results/000.json`, { day, shard: 0, results: [result] });
}

describe('our checks in the incident rule’s words', () => {
  it.each([
    [{ letter: 'o', reason: 'ok', httpStatus: null }, 'answered'],
    [{ letter: 'a', reason: 'auth-required', httpStatus: 401 }, 'sign_in'],
    [{ letter: 'p', reason: 'payment-required', httpStatus: 402 }, 'sign_in'],
    [{ letter: 'd', reason: 'timeout', httpStatus: null }, 'timeout'],
    [{ letter: 'd', reason: 'deadline', httpStatus: null }, 'timeout'],
    [{ letter: 'd', reason: 'no-connection', httpStatus: null }, 'no_connection'],
    [{ letter: 'd', reason: 'dns-failed', httpStatus: null }, 'no_connection'],
    [{ letter: 'd', reason: 'http-error', httpStatus: 503 }, 'server_error'],
    [{ letter: 'd', reason: 'http-error', httpStatus: 404 }, 'not_found'],
    [{ letter: 'd', reason: 'http-error', httpStatus: 405 }, 'client_error'],
    [{ letter: 'd', reason: 'not-mcp', httpStatus: 200 }, 'broken_handshake'],
    [{ letter: 'd', reason: 'jsonrpc-error', httpStatus: 200 }, 'broken_handshake'],
    [{ letter: 'd', reason: 'redirect-cross-site', httpStatus: 307 }, 'redirect'],
    [{ letter: 'd', reason: 'guard:ip-literal', httpStatus: null }, null],
  ] as const)('%j -> %s', (facts, outcome) => {
    expect(ownCheckOutcomeOf(facts)).toBe(outcome);
  });
});

describe('live incidents in the read model', () => {
  const failing = (reporter: string, at: string) =>
    JSON.stringify({ server: 'notes', tool: 'list_notes', ok: false, reason: 'timeout', reporter, paid: false, at });

  async function storageWith(lines: string[], hourly: unknown) {
    const storage = createMemoryStorage();
    await putJson(storage, 'state/servers/notes.json', {
      ...emptyServerState({ id: 'notes', url: 'https://notes.example.com/mcp' }),
      letters: 'oo',
      lastDay: '2026-11-29',
      lastLetter: 'o',
    });
    await storage.put('days/2026-11-30/reports.jsonl', new TextEncoder().encode(`${lines.join('\n')}\n`));
    if (hourly !== null) await putJson(storage, 'state/hourly.json', hourly);
    return storage;
  }

  it('opens when two agents fail and our hourly check saw a real failure in the same 2 hours', async () => {
    const storage = await storageWith(
      [failing('anon:a', '2026-11-30T11:00:00Z'), failing('anon:b', '2026-11-30T11:30:00Z')],
      {
        hour: '2026-11-30T11',
        results: {
          notes: {
            letter: 'd',
            reason: 'timeout',
            notMcp: false,
            httpStatus: null,
            at: '2026-11-30T11:05:00Z',
            previous: null,
          },
        },
      },
    );
    const view = await buildView(storage, NOW);
    expect(view.byId.get('notes')!.incident).toMatchObject({ shown: true, confirmedBy: ['own_check'] });
  });

  it('stays closed for anonymous agents alone', async () => {
    const storage = await storageWith(
      [failing('anon:a', '2026-11-30T11:00:00Z'), failing('anon:b', '2026-11-30T11:30:00Z')],
      null,
    );
    expect((await buildView(storage, NOW)).byId.get('notes')!.incident.shown).toBe(false);
  });

  it('dates the daily check at the time it ran, not at now, and leaves out an undated one', () => {
    const latest = {
      letter: 'd',
      reason: 'http-error',
      notStandardMcp: false,
      steps: [{ httpStatus: 502, outcome: 'http-error' }],
    } as unknown as ServerDayResult;
    const dated = { ...latest, checkedAt: '2026-11-30T10:30:00.000Z' };
    expect(incidentChecksFromRecords(dated, '2026-11-30', undefined)).toEqual([
      { kind: 'daily', at: '2026-11-30T10:30:00.000Z', outcome: 'server_error' },
    ]);
    expect(
      decideIncident({ checks: incidentChecksFromRecords(dated, '2026-11-30', undefined) }, NOW).ownCheckFailed,
    ).toBe(true);
    // Run more than 2 hours before now: outside the window.
    expect(
      decideIncident(
        {
          checks: incidentChecksFromRecords(
            { ...latest, checkedAt: '2026-11-30T09:59:59.000Z' },
            '2026-11-30',
            undefined,
          ),
        },
        NOW,
      ).ownCheckFailed,
    ).toBe(false);
    expect(incidentChecksFromRecords(latest, '2026-11-30', undefined)).toEqual([]);
  });

  it('a five-minute check confirms an incident', async () => {
    const storage = await storageWith([failing('anon:a', '2026-11-30T11:50:00Z')], null);
    await putJson(storage, 'state/five-minute.json', {
      results: {
        notes: [{ letter: 'd', reason: 'timeout', notMcp: false, httpStatus: null, at: '2026-11-30T11:55:00Z' }],
      },
    });
    const incident = (await buildView(storage, NOW)).byId.get('notes')!.incident;
    expect(incident).toMatchObject({ shown: true, confirmedBy: ['own_check'], ownCheckFailed: true });
  });

  it('shows an incident on a day whose daily check answered: our own check never resets the failure window', async () => {
    // Today's daily check answered at 10:30; two agents failed after 10:00, and the hourly check failed at 11:05.
    const storage = await storageWith(
      [failing('anon:a', '2026-11-30T10:15:00Z'), failing('anon:b', '2026-11-30T11:30:00Z')],
      {
        hour: '2026-11-30T11',
        results: {
          notes: {
            letter: 'd',
            reason: 'timeout',
            notMcp: false,
            httpStatus: null,
            at: '2026-11-30T11:05:00Z',
            previous: null,
          },
        },
      },
    );
    await writeDay(storage, '2026-11-30', { letter: 'o', reason: 'ok', checkedAt: '2026-11-30T10:30:00.000Z' });
    const incident = (await buildView(storage, NOW)).byId.get('notes')!.incident;
    expect(incident).toMatchObject({
      shown: true,
      failingReporters: ['anon:a', 'anon:b'],
      lastWorkedAt: null,
      since: '2026-11-30T10:15:00.000Z',
    });
  });
});

describe('gateway sensors in the read model’s incidents', () => {
  const HOURLY_TIMEOUT = {
    hour: '2026-11-30T11',
    results: {
      notes: {
        letter: 'd',
        reason: 'timeout',
        notMcp: false,
        httpStatus: null,
        at: '2026-11-30T11:05:00Z',
        previous: null,
      },
    },
  };

  async function storageWithSensor(
    hourly: unknown,
    outcomes: { ok: boolean; at: string; reason?: string }[],
    day = '2026-11-30',
  ) {
    const storage = createMemoryStorage();
    await putJson(storage, 'state/servers/notes.json', {
      ...emptyServerState({ id: 'notes', url: 'https://notes.example.com/mcp' }),
      letters: 'oo',
      lastDay: '2026-11-29',
      lastLetter: 'o',
    });
    if (hourly !== null) await putJson(storage, 'state/hourly.json', hourly);
    await putJson(storage, `sensors/${day}/gw-1/000001.json`, {
      sensor: 'gw-1',
      day,
      received: outcomes.at(-1)!.at,
      outcomes: outcomes.map((o) => ({ server: 'notes', ...o })),
    });
    return storage;
  }

  it('a failing sensor joins an incident our own check confirmed, and counts as its second signal', async () => {
    const storage = await storageWithSensor(HOURLY_TIMEOUT, [
      { ok: false, at: '2026-11-30T11:20:00Z', reason: 'timeout' },
    ]);
    const incident = (await buildView(storage, NOW)).byId.get('notes')!.incident;
    expect(incident).toMatchObject({
      confirmedBy: ['own_check'],
      failingSensors: ['gw-1'],
      joinedSensors: ['gw-1'],
      signalReporters: 1,
      shown: true,
    });
  });

  it('a failing sensor alone never opens one', async () => {
    const storage = await storageWithSensor(null, [{ ok: false, at: '2026-11-30T11:20:00Z', reason: 'timeout' }]);
    const incident = (await buildView(storage, NOW)).byId.get('notes')!.incident;
    expect(incident).toMatchObject({ failingSensors: ['gw-1'], joinedSensors: [], shown: false });
  });

  it('reads the day before too, since the 2-hour window can cross midnight', async () => {
    const justAfterMidnight = new Date('2026-12-01T00:30:00Z');
    const storage = await storageWithSensor(
      {
        hour: '2026-12-01T00',
        results: {
          notes: {
            letter: 'd',
            reason: 'timeout',
            notMcp: false,
            httpStatus: null,
            at: '2026-12-01T00:10:00Z',
            previous: null,
          },
        },
      },
      [{ ok: false, at: '2026-11-30T23:50:00Z', reason: 'timeout' }],
    );
    const incident = (await buildView(storage, justAfterMidnight)).byId.get('notes')!.incident;
    expect(incident.joinedSensors).toEqual(['gw-1']);
  });
});
