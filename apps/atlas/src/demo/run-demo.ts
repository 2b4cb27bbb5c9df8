// `mcp-atlas demo`: start the loopback fleet, simulate N days of daily checks through an injected clock,
// seal each day, verify the chain, then bring the data up to the moment it serves: hourly checks, agents'
// reports (a live incident and visible ratings), an owner with five-minute checks, a submission in its
// observation week and the route marks. Needs no network beyond loopback.
import { shiftDay } from '@mcp-atlas/base';
import { dayFromTime, generateKeyPair, verifyChain } from '@mcp-atlas/history';
import { type ProbeResult, probeServer } from '@mcp-atlas/probe';
import type { WatchedServer } from '../data/schemas.js';
import { writeWatchedServers } from '../data/watched-servers.js';
import type { Logger } from '../log.js';
import { METHODOLOGY_VERSION } from '../methodology.js';
import { createProgress } from '../progress.js';
import { foldDay } from '../scan/fold-day.js';
import { mapWithLimit } from '../scan/pool.js';
import { readOriginsOfDay } from '../scan/read-origins.js';
import { scanDay } from '../scan/scan-day.js';
import { loadOrCreateSigningKeys, recordPublicKey, reporterSecretOf, type SigningKeys } from '../seal/keys.js';
import { readRoots, sealStoredDay } from '../seal/seal-day.js';
import { demoLicenseValidator } from '../serve/serve-atlas.js';
import type { Storage } from '../storage/storage.js';
import { type AtlasView, buildView, type LeftOutServer } from '../view/build-view.js';
import { startDemoDirectories, syncDemoCatalog } from './demo-directories.js';
import { DEMO_ROUTE_MARKS, markDemoRoutes, observeDemoSubmission, verifyDemoOwner } from './demo-extras.js';
import { writeDemoRegistryFacts } from './demo-registry.js';
import { appendReports, demoReporters, outageReports, reportsOfDay } from './demo-reports.js';
import { type Fleet, type FleetMember, startFleet } from './fleet.js';
import {
  DEMO_PROBE_CONCURRENCY,
  demoNetwork,
  fiveMinuteCheckTimes,
  hourlyCheckTimes,
  hourlyCheckTimesOfDay,
  simulateFiveMinuteChecks,
  simulateHourlyChecks,
} from './live-checks.js';

/** How long before the demo serves the breaking member starts failing: its last two hourly checks fail. */
export const DEMO_OUTAGE_MS = 2 * 60 * 60_000;

/** The member whose owner verifies control, writes a note and asks for five-minute checks. */
export const DEMO_OWNER_MEMBER = 'maps';

/**
 * When the demo's owner verified and opted in to five-minute checks (which run from then on): two hours
 * before the demo serves, or 65 minutes before the midnight that starts its day when that is earlier, so
 * the last simulated day holds at least 12 of them (the uptime counts five-minute checks from 12 on, over
 * the days up to the newest daily check).
 */
export function demoOwnerVerifiedAt(now: Date): Date {
  const beforeMidnight = Date.parse(`${dayFromTime(now)}T00:00:00.000Z`) - 65 * 60_000;
  return new Date(Math.min(beforeMidnight, now.getTime() - 2 * 60 * 60_000));
}

/** How long before the demo serves its submitted member was submitted: inside its 7-day observation week. */
export const DEMO_SUBMISSION_AGE_MS = (3 * 24 + 12) * 60 * 60_000;

/** Options of one demo run. */
export interface DemoOptions {
  days: number;
  storage: Storage;
  /**
   * The injected clock: the time the demo serves at. The simulated month ends the day before; the live
   * incident, hourly and five-minute checks and reports are placed in the hours before it.
   */
  now: Date;
  log: Logger;
  /** Show progress on stderr. */
  progress?: boolean;
  /**
   * Keep the signing key in memory only, recording just its public key in the store: for a PostgreSQL store,
   * which never holds a private key. By default the store's key is used, made on first use.
   */
  keyInMemory?: boolean;
}

/** What the demo shows beyond the daily letters, for the printout: each from the read model it serves. */
export interface DemoHighlights {
  /** Servers off the map, and why (the robots-out member). */
  leftOut: LeftOutServer[];
  /** Servers with a live incident, and what confirmed it. */
  incidents: { id: string; confirmedBy: string[]; failingReporters: number }[];
  /** Servers whose agents' rating is visible. */
  rated: { id: string; stars: number; reporters: number }[];
  /** Owner-verified servers. */
  owners: { id: string; note: string | null; fiveMinuteChecks: boolean }[];
  /** The route marks set. */
  marks: { kind: 'gateway' | 'directory'; server: string }[];
  /** Submissions in their observation week. */
  submitted: { member: string; id: string; status: string; checks: number }[];
}

/** What a demo run produced. */
export interface DemoOutcome {
  fleet: Fleet;
  /** The watched servers (every member but the submitted one). */
  servers: WatchedServer[];
  days: string[];
  keys: SigningKeys;
  /** The letter each watched member got on each day it was checked, as `id -> letters`. */
  letters: Map<string, string>;
  chain: Awaited<ReturnType<typeof verifyChain>>;
  highlights: DemoHighlights;
}

/** The simulated days: the `count` UTC days before the day of `now`, oldest first. */
export function simulatedDays(now: Date, count: number): string[] {
  const today = dayFromTime(now);
  return Array.from({ length: count }, (_, i) => shiftDay(today, i - count));
}

function demoServers(fleet: Fleet): WatchedServer[] {
  return fleet.members
    .filter((m) => m.watched)
    .map((m) => ({ id: m.id, url: m.publicUrl, title: m.title, source: 'demo' as const, allowPrivate: true }));
}

function memberOf(fleet: Fleet, id: string): FleetMember {
  const member = fleet.members.find((m) => m.id === id);
  if (member === undefined) throw new Error(`the demo fleet has no member ${id}`);
  return member;
}

/**
 * Reads every origin's robots.txt and well-known files for each simulated day, in day order, as the daily
 * check does before checking; returns the servers each day may check.
 */
async function allowedServersByDay(
  storage: Storage,
  servers: readonly WatchedServer[],
  days: readonly string[],
): Promise<Map<string, WatchedServer[]>> {
  const allowed = new Map<string, WatchedServer[]>();
  for (const [dayIndex, day] of days.entries()) {
    const excluded = await readOriginsOfDay(
      { storage, network: demoNetwork({ dayIndex }), concurrency: DEMO_PROBE_CONCURRENCY },
      day,
      servers,
    );
    allowed.set(
      day,
      servers.filter((s) => !excluded.has(new URL(s.url).origin)),
    );
  }
  return allowed;
}

async function probeMonth(
  allowed: Map<string, WatchedServer[]>,
  days: readonly string[],
  progress: boolean,
): Promise<Map<string, ProbeResult>> {
  const jobs = days.flatMap((day, dayIndex) => (allowed.get(day) ?? []).map((server) => ({ day, dayIndex, server })));
  const bar = progress ? createProgress('probing the demo fleet', jobs.length) : null;
  let done = 0;
  const results = await mapWithLimit(jobs, DEMO_PROBE_CONCURRENCY, async (job) => {
    // The demo fleet is the only place the private-address guard is lifted, and only for its own loopback servers.
    const result = await probeServer(job.server.url, {
      ...demoNetwork({ dayIndex: job.dayIndex }),
      allowPrivate: job.server.allowPrivate === true,
    });
    bar?.tick(++done, job.server.id);
    return [`${job.day}|${job.server.id}`, result] as const;
  });
  bar?.stop();
  return new Map(results);
}

/** The highlights of the served read model (see {@link DemoHighlights}). */
export function highlightsOf(view: AtlasView, submitted: DemoHighlights['submitted']): DemoHighlights {
  const all = [...view.byId.values()];
  return {
    leftOut: view.leftOut,
    incidents: all
      .filter((s) => s.incident.shown)
      .map((s) => ({
        id: s.id,
        confirmedBy: s.incident.confirmedBy,
        failingReporters: s.incident.failingReporters.length,
      })),
    rated: view.servers
      .filter((s) => s.rating.visible && s.rating.stars !== null)
      .map((s) => ({ id: s.id, stars: s.rating.stars as number, reporters: s.rating.reporters })),
    owners: all
      .filter((s) => s.owner !== null)
      .map((s) => ({
        id: s.id,
        note: s.owner?.note?.text ?? null,
        fiveMinuteChecks: s.owner?.fiveMinuteChecks === true,
      })),
    marks: DEMO_ROUTE_MARKS.map((m) => ({ kind: m.kind, server: m.server })),
    submitted,
  };
}

/** Runs the simulated month: probe, scan, fold, log agents' reports and seal each day in order. */
async function simulateMonth(
  storage: Storage,
  fleet: Fleet,
  servers: readonly WatchedServer[],
  days: readonly string[],
  keys: SigningKeys,
  reporters: Awaited<ReturnType<typeof demoReporters>>,
  progress: boolean,
): Promise<Map<string, string>> {
  const allowed = await allowedServersByDay(storage, servers, days);
  const probes = await probeMonth(allowed, days, progress);
  const letters = new Map(servers.map((s) => [s.id, '']));
  const directories = await startDemoDirectories();
  try {
    for (const [dayIndex, day] of days.entries()) {
      // The day's catalog is read first, as the registry sync reads it before the day's check, and sealed with it.
      await syncDemoCatalog(storage, { day, dayIndex, servers, directories: directories.directories });
      await simulateDay(storage, { day, dayIndex, days, fleet, keys, reporters, allowed, probes, letters });
    }
  } finally {
    await directories.close();
  }
  return letters;
}

/** One simulated day: its scan from the month's probes, its fold, its reports and its seal. */
async function simulateDay(
  storage: Storage,
  input: {
    day: string;
    dayIndex: number;
    days: readonly string[];
    fleet: Fleet;
    keys: SigningKeys;
    reporters: Awaited<ReturnType<typeof demoReporters>>;
    allowed: Map<string, WatchedServer[]>;
    probes: Map<string, ProbeResult>;
    letters: Map<string, string>;
  },
): Promise<void> {
  const { day, dayIndex, days, fleet, keys, reporters, allowed, probes, letters } = input;
  const checked = allowed.get(day) ?? [];
  const scan = await scanDay({
    day,
    servers: checked,
    storage,
    methodologyVersion: METHODOLOGY_VERSION,
    probe: async (server) => probes.get(`${day}|${server.id}`) as ProbeResult,
  });
  // The newest day's hourly checks run before its fold, as the schedule's would have: its quality score then
  // counts them, and the week's checks reach the probe-count minimum that scores reliability.
  if (dayIndex === days.length - 1)
    await simulateHourlyChecks(storage, checked, hourlyCheckTimesOfDay(day), days[0] as string);
  await foldDay({ storage, day, results: scan.results, servers: checked, methodologyVersion: METHODOLOGY_VERSION });
  for (const result of scan.results) letters.set(result.id, `${letters.get(result.id) ?? ''}${result.letter}`);
  // The day's report log before its seal: the seal covers it, and a sealed day takes no more reports.
  await appendReports(storage, reportsOfDay(day, dayIndex, fleet.members, reporters));
  const roots = await readRoots(storage);
  if (!roots.has(day)) await sealStoredDay(storage, day, keys);
}

/**
 * Brings the data from the end of the simulated month up to `now`: today's robots read, the hourly checks
 * (the breaking member fails its last ones), the agents' reports of its outage, the route marks, the owner's
 * verification and five-minute checks, and the submission's observation checks. Returns the submission.
 */
async function simulateLiveHours(
  storage: Storage,
  fleet: Fleet,
  servers: readonly WatchedServer[],
  days: readonly string[],
  options: {
    now: Date;
    breakAt: Date;
    secret: Uint8Array;
    reporters: Awaited<ReturnType<typeof demoReporters>>;
    log: Logger;
  },
): Promise<DemoHighlights['submitted']> {
  const { now, breakAt, secret, reporters, log } = options;
  const firstDay = days[0] as string;
  // Today's robots read, as the hourly task makes before its checks: the robots-out member stays unchecked.
  const excluded = await readOriginsOfDay(
    { storage, network: demoNetwork({ dayIndex: days.length }), concurrency: DEMO_PROBE_CONCURRENCY },
    dayFromTime(now),
    servers,
  );
  const live = servers.filter((s) => !excluded.has(new URL(s.url).origin));
  // The newest simulated day's hours were checked before its fold; these are the hours after it.
  const lastDay = days.at(-1) as string;
  const hours = hourlyCheckTimes(now).filter((at) => at.slice(0, 10) > lastDay);
  await simulateHourlyChecks(storage, live, hours, firstDay);
  await appendReports(storage, outageReports(memberOf(fleet, 'inbox'), reporters, breakAt, now));
  await markDemoRoutes(storage);
  const ownerAt = demoOwnerVerifiedAt(now);
  const owner = memberOf(fleet, DEMO_OWNER_MEMBER);
  await verifyDemoOwner({
    storage,
    view: await buildView(storage, ownerAt),
    fleet,
    member: owner,
    secret,
    at: ownerAt,
    firstDay,
    log,
  });
  const ownerServer = live.find((s) => s.id === owner.id);
  if (ownerServer !== undefined)
    await simulateFiveMinuteChecks(storage, ownerServer, fiveMinuteCheckTimes(ownerAt, now), firstDay);
  const submittedAt = new Date(Math.floor((now.getTime() - DEMO_SUBMISSION_AGE_MS) / 60_000) * 60_000);
  const submitted = fleet.members.filter((m) => m.kind === 'submitted');
  const records = [];
  for (const member of submitted) {
    const record = await observeDemoSubmission({ storage, member, submittedAt, now, firstDay, log });
    records.push({ member: member.id, id: record.id, status: record.status, checks: record.checks.length });
  }
  return records;
}

/** A fresh key pair held only by this process, its public half recorded in `storage` for verify. */
async function inMemoryKeys(storage: Storage): Promise<SigningKeys> {
  const keys = await generateKeyPair();
  await recordPublicKey(storage, keys.publicKey);
  return keys;
}

/** Runs the demo's simulated month and the hours up to `now`. The fleet keeps running. */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  const { storage, log, now } = options;
  const breakAt = new Date(now.getTime() - DEMO_OUTAGE_MS);
  const fleet = await startFleet(options.days, { breakAt });
  try {
    const servers = demoServers(fleet);
    await writeWatchedServers(storage, servers);
    await writeDemoRegistryFacts(storage);
    const keys =
      options.keyInMemory === true ? await inMemoryKeys(storage) : await loadOrCreateSigningKeys(storage, now);
    // The secret the serving process derives too, so the demo's reports and owner tokens match the served demo's.
    const secret = reporterSecretOf(keys);
    // The demo's paying agents count as paying only through the validator the served demo installs.
    const reporters = await demoReporters(secret, demoLicenseValidator);
    const days = simulatedDays(now, options.days);
    log.info(
      { members: fleet.members.length, days: days.length, from: days[0], to: days.at(-1) },
      'demo: probing the fleet',
    );
    const letters = await simulateMonth(storage, fleet, servers, days, keys, reporters, options.progress ?? false);
    const submitted = await simulateLiveHours(storage, fleet, servers, days, { now, breakAt, secret, reporters, log });
    const records = [...(await readRoots(storage)).values()].sort((a, b) => a.day.localeCompare(b.day));
    const chain = await verifyChain(records, keys.publicKey);
    log.info({ sealed: records.length, chain: chain.ok ? 'verified' : chain }, 'demo: month simulated and sealed');
    const highlights = highlightsOf(await buildView(storage, now), submitted);
    return { fleet, servers, days, keys, letters, chain, highlights };
  } catch (error) {
    await fleet.close();
    throw error;
  }
}
