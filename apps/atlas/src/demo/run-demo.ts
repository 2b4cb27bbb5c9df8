// `mcp-atlas demo`: start the loopback fleet, simulate N days of daily checks through an injected clock,
// seal each day, verify the chain, then serve the observatory. Needs no network beyond loopback.
import { dayFromTime, shiftDay, verifyChain } from '@mcp-atlas/history';
import { probeServer, type ProbeResult } from '@mcp-atlas/probe';
import type { WatchedServer } from '../data/schemas.js';
import type { Logger } from '../log.js';
import { METHODOLOGY_VERSION } from '../methodology.js';
import { createProgress } from '../progress.js';
import { foldDay } from '../scan/fold-day.js';
import { mapWithLimit } from '../scan/pool.js';
import { scanDay } from '../scan/scan-day.js';
import { loadOrCreateSigningKeys, type SigningKeys } from '../seal/keys.js';
import { readRoots, sealStoredDay } from '../seal/seal-day.js';
import { writeWatchedServers } from '../data/watched-servers.js';
import { HOURLY_PATH } from '../data/paths.js';
import type { HourlyFile } from '../data/schemas.js';
import { nextHourlyEntry } from '../serve/hourly-entry.js';
import { putJson } from '../storage/storage.js';
import type { Storage } from '../storage/storage.js';
import { DEMO_DAY_HEADER, startFleet, type Fleet } from './fleet.js';

/** How many probes of the simulated month run at once. */
export const DEMO_PROBE_CONCURRENCY = 64;

/** Options of one demo run. */
export interface DemoOptions {
  days: number;
  storage: Storage;
  /** The injected clock: the real time the simulated month ends at (its last day is the day before). */
  now: Date;
  log: Logger;
  /** Show progress on stderr. */
  progress?: boolean;
}

/** What a demo run produced. */
export interface DemoOutcome {
  fleet: Fleet;
  servers: WatchedServer[];
  days: string[];
  keys: SigningKeys;
  /** The letter each member got on each day, as `id -> letters`. */
  letters: Map<string, string>;
  chain: Awaited<ReturnType<typeof verifyChain>>;
}

/** The simulated days: the `count` UTC days before the day of `now`, oldest first. */
export function simulatedDays(now: Date, count: number): string[] {
  const today = dayFromTime(now);
  return Array.from({ length: count }, (_, i) => shiftDay(today, i - count));
}

// Each probe of a simulated day tells the fleet which day it is through a header; nothing else differs.
function fetchForDay(dayIndex: number): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set(DEMO_DAY_HEADER, String(dayIndex));
    return fetch(input, { ...init, headers });
  };
}

function demoServers(fleet: Fleet): WatchedServer[] {
  return fleet.members.map((m) => ({ id: m.id, url: m.url, title: m.title, source: 'demo' as const, allowPrivate: true }));
}

async function probeMonth(servers: readonly WatchedServer[], days: readonly string[], progress: boolean): Promise<Map<string, ProbeResult>> {
  const jobs = days.flatMap((day, dayIndex) => servers.map((server) => ({ day, dayIndex, server })));
  const bar = progress ? createProgress('probing the demo fleet', jobs.length) : null;
  let done = 0;
  const results = await mapWithLimit(jobs, DEMO_PROBE_CONCURRENCY, async (job) => {
    // The demo fleet is the only place the private-address guard is lifted, and only for its own loopback servers.
    const result = await probeServer(job.server.url, { allowPrivate: job.server.allowPrivate === true, fetch: fetchForDay(job.dayIndex) });
    bar?.tick(++done, job.server.id);
    return [`${job.day}|${job.server.id}`, result] as const;
  });
  bar?.stop();
  return new Map(results);
}

/** The hours of the last simulated day the demo runs an hourly check at: all 24, so the hour-of-day profile shows. */
export const DEMO_HOURLY_CHECKS = 24;

/**
 * Simulates the hourly checks of the month's last day, hour by hour, into the hourly file, as the schedule
 * would have written it: each server's newest check, the one before it, and the hour-of-day profile.
 */
async function simulateLastDayHours(storage: Storage, servers: readonly WatchedServer[], day: string, dayIndex: number): Promise<void> {
  const hours = Array.from({ length: DEMO_HOURLY_CHECKS }, (_, hour) => `${day}T${String(hour).padStart(2, '0')}:20:00.000Z`);
  // All the probes at once (the slow member would otherwise cost its delay once per hour), then the hourly
  // files written in hour order, each entry built on the hour before it.
  const jobs = hours.flatMap((at) => servers.map((server) => ({ at, server })));
  const probes = new Map(
    await mapWithLimit(jobs, DEMO_PROBE_CONCURRENCY, async ({ at, server }) => {
      const result = await probeServer(server.url, { allowPrivate: server.allowPrivate === true, fetch: fetchForDay(dayIndex) });
      return [`${at}|${server.id}`, result] as const;
    }),
  );
  let file: HourlyFile | null = null;
  for (const at of hours) {
    const results: HourlyFile['results'] = {};
    for (const server of servers) results[server.id] = nextHourlyEntry(file?.results[server.id], probes.get(`${at}|${server.id}`) as ProbeResult, at);
    file = { hour: at.slice(0, 13), results };
  }
  if (file !== null) await putJson(storage, HOURLY_PATH, file);
}

/** Runs the simulated month: probe, scan, fold and seal each day in order. The fleet keeps running. */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  const { storage, log } = options;
  const fleet = await startFleet(options.days);
  try {
    const servers = demoServers(fleet);
    await writeWatchedServers(storage, servers);
    const keys = await loadOrCreateSigningKeys(storage, options.now);
    const days = simulatedDays(options.now, options.days);
    log.info({ members: servers.length, days: days.length, from: days[0], to: days.at(-1) }, 'demo: probing the fleet');
    const probes = await probeMonth(servers, days, options.progress ?? false);
    const letters = new Map(servers.map((s) => [s.id, '']));
    for (const day of days) {
      const scan = await scanDay({
        day,
        servers,
        storage,
        methodologyVersion: METHODOLOGY_VERSION,
        probe: async (server) => probes.get(`${day}|${server.id}`) as ProbeResult,
      });
      await foldDay({ storage, day, results: scan.results, servers, methodologyVersion: METHODOLOGY_VERSION });
      for (const result of scan.results) letters.set(result.id, `${letters.get(result.id) ?? ''}${result.letter}`);
      const roots = await readRoots(storage);
      if (!roots.has(day)) await sealStoredDay(storage, day, keys);
    }
    await simulateLastDayHours(storage, servers, days.at(-1) as string, days.length - 1);
    const records = [...(await readRoots(storage)).values()].sort((a, b) => a.day.localeCompare(b.day));
    const chain = await verifyChain(records, keys.publicKey);
    log.info({ sealed: records.length, chain: chain.ok ? 'verified' : chain }, 'demo: month simulated and sealed');
    return { fleet, servers, days, keys, letters, chain };
  } catch (error) {
    await fleet.close();
    throw error;
  }
}
