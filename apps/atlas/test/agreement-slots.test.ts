// The hour-of-day slots copy the daily results and the five-minute observations at the instant each check
// started, with only their letter. The hourly agreement task must compare a report with our check's full
// record at that instant, not with its slot copy: the copy says "answering or not, no server error" even
// where the check said nothing about the server (our guard refused it) or saw a 5xx. A slot with no full
// record at its instant (an hourly check older than the two the hourly file keeps) is still compared.
// A real MCP host on loopback (answering 503 when down), the real daily scan, hourly file helpers and
// agreement task over a memory store.
import { type NetworkOptions, type ProbeResult, probeServer } from '@mcp-atlas/probe';
import { afterEach, describe, expect, it } from 'vitest';
import { observationOfCheck } from '../src/data/check-observation.js';
import { writeFiveMinuteChecks } from '../src/data/five-minute-checks.js';
import type { HourlyObservation, WatchedServer } from '../src/data/schemas.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { scanDay } from '../src/scan/scan-day.js';
import { nextHourlyEntry, recordHourResults, writeHourlyFile } from '../src/serve/hourly-entry.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import type { Storage } from '../src/storage/storage.js';
import { writeAgreementRecords } from '../src/view/agreement-job.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';

const hosts: OwnerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

const DAY = '2026-12-10';

/** The observation a check left; none of these checks is rate-limited, so there always is one. */
function observed(probe: ProbeResult, at: string): HourlyObservation {
  const observation = observationOfCheck(probe, at);
  if (observation === null) throw new Error(`a ${probe.reason} check left no observation`);
  return observation;
}

/** A report line of the day's report log about `recipes`. */
const report = (reporter: string, ok: boolean, at: string, reason?: string) =>
  JSON.stringify({
    server: 'recipes',
    tool: 'list_recipes',
    ok,
    ...(reason ? { reason } : {}),
    ms: 300,
    reporter,
    paid: false,
    at,
  });

async function writeReports(storage: Storage, lines: readonly string[]): Promise<void> {
  await storage.put(`days/${DAY}/reports.jsonl`, new TextEncoder().encode(`${lines.join('\n')}\n`));
}

/**
 * A host watched as `recipes` and a store whose hourly file holds its 09:00 check (answering), as the hourly
 * task leaves it; the hour-of-day slots are filled only for servers in that file.
 */
async function answeringAtNine(): Promise<{ host: OwnerHost; storage: Storage; server: WatchedServer }> {
  const host = await startOwnerHost();
  hosts.push(host);
  const storage = createMemoryStorage();
  const server: WatchedServer = { id: 'recipes', url: host.url, source: 'registry' };
  const nine = `${DAY}T09:00:00.000Z`;
  const probe = await probeServer(host.url, { allowPrivate: true });
  expect(probe.letter).toBe('o');
  await writeHourlyFile(storage, `${DAY}T09`, { recipes: nextHourlyEntry(undefined, probe, nine)! });
  await recordHourResults(storage, [{ id: 'recipes', letter: observed(probe, nine).letter, at: nine }]);
  return { host, storage, server };
}

/** The daily scan of `server` alone at `at`, as the schedule runs it; the schedule then copies it into its slot. */
async function dailyAt(storage: Storage, server: WatchedServer, at: string, network: NetworkOptions) {
  const scan = await scanDay({
    day: DAY,
    servers: [server],
    storage,
    methodologyVersion: METHODOLOGY_VERSION,
    probe: (s) => probeServer(s.url, network),
    now: () => new Date(at),
  });
  const [daily] = scan.results;
  // The schedule's recordDailyHours: the daily result goes into its hour's slot at the time it started.
  if (daily!.letter === 'n') throw new Error('the daily check was rate-limited');
  await recordHourResults(storage, [{ id: server.id, letter: daily!.letter, at }]);
  return daily!;
}

/** Our guard refuses the opted-out loopback host before any request: a check that says nothing about it. */
const REFUSED: NetworkOptions = { allowPrivate: true, optedOut: ['127.0.0.1'] };

async function recordsAtNoon(storage: Storage) {
  return (await writeAgreementRecords(storage, new Date(`${DAY}T12:00:00Z`))).reporters;
}

describe('agreement with our checks at an instant that also has an hour slot', () => {
  // Under the package's agreement rule a 5xx check is also "not answering", and a failed report agrees with any
  // check not answering, so this report agrees whichever of the two is compared (it passed before the fix too);
  // it pins the case the slot copy was feared to break. The two cases after it fail without the fix.
  it('compares a server_error report with the daily result at that instant, not its slot copy', async () => {
    const { host, storage, server } = await answeringAtNine();
    host.state.down = true;
    const ten = `${DAY}T10:00:00.000Z`;
    const daily = await dailyAt(storage, server, ten, { allowPrivate: true });
    expect(daily).toMatchObject({ checkedAt: ten, letter: 'd', reason: 'http-error' });
    await writeReports(storage, [report('anon:e', false, `${DAY}T10:00:30Z`, 'server_error')]);
    expect(await recordsAtNoon(storage)).toEqual({ 'anon:e': { agree: 1, disagree: 0, compared: 1 } });
  });

  it('leaves out the slot copy of a daily result that says nothing, so a report is compared with the check before', async () => {
    const { storage, server } = await answeringAtNine();
    const ten = `${DAY}T10:00:00.000Z`;
    expect(await dailyAt(storage, server, ten, REFUSED)).toMatchObject({ letter: 'd', reason: 'guard:opted-out' });
    // Compared with the 09:00 check (answering): agrees. The slot copy would say "not answering": disagrees.
    await writeReports(storage, [report('anon:ok', true, `${DAY}T10:00:30Z`)]);
    expect(await recordsAtNoon(storage)).toEqual({ 'anon:ok': { agree: 1, disagree: 0, compared: 1 } });
  });

  it('leaves out the slot copy of a five-minute observation that says nothing', async () => {
    const { host, storage } = await answeringAtNine();
    const ten = `${DAY}T10:00:00.000Z`;
    const refused = await probeServer(host.url, REFUSED);
    expect(refused).toMatchObject({ letter: 'd', reason: 'guard:opted-out' });
    // As the schedule's five-minute round writes it: the observation, then its copy in the hour's slot.
    await writeFiveMinuteChecks(storage, { recipes: [observed(refused, ten)] });
    await recordHourResults(storage, [{ id: 'recipes', letter: observed(refused, ten).letter, at: ten }]);
    await writeReports(storage, [report('anon:ok', true, `${DAY}T10:00:30Z`)]);
    expect(await recordsAtNoon(storage)).toEqual({ 'anon:ok': { agree: 1, disagree: 0, compared: 1 } });
  });

  it('still compares a report with a slot that has no full record at its instant', async () => {
    const { storage } = await answeringAtNine();
    // An hourly check at 10:00 whose observation the hourly file no longer keeps: only its slot is left.
    await recordHourResults(storage, [{ id: 'recipes', letter: 'd', at: `${DAY}T10:00:00.000Z` }]);
    await writeReports(storage, [report('anon:ok', true, `${DAY}T10:00:30Z`)]);
    expect(await recordsAtNoon(storage)).toEqual({ 'anon:ok': { agree: 0, disagree: 0.5, compared: 1 } });
  });
});
