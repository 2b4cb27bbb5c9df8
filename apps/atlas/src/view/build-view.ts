// The read model the HTTP surface serves: built from the data folder after each scan, held in memory, and
// replaced whole (never edited in place), so a request always sees one consistent day.
import { daysBetween, shiftDay } from '@mcp-atlas/base';
import type { DayRoot } from '@mcp-atlas/history';
import { dayFromTime } from '@mcp-atlas/history';
import { isOptedOut } from '@mcp-atlas/probe';
import {
  type AgreementSubject,
  type CategoryRanking,
  countChangeDays,
  decideClosedIncident,
  describeUptime,
  type IncidentCheck,
  type IncidentDecision,
  type IncidentSensorOutcome,
  type LeftOutReason,
  leftOutReasonOf,
  lettersAsOf,
  type Rating,
  type Report,
  rankMostReliable,
  rateServer,
  type SensorDayEntry,
  type SensorOutcome,
  stability,
  successChance,
  summarizeSensorOutcomes,
  type UptimeInput,
  type UptimeSummary,
} from '@mcp-atlas/reliability';
import {
  describeHourProfile,
  type HourProfileView,
  type HourResult,
  incidentChecksOf,
  isAnsweringNow,
  type LiveChecks,
  newestHandshakeMs,
  type ShownStatus,
  shownStatusOf,
  uptimeInputOf,
  viewHourProfile,
} from '@mcp-atlas/reliability/live';
import { RATING_RULES } from '@mcp-atlas/reliability/rules';
import { categorize, createToolIndex, type IndexServer, type LiveServerFields, type ToolIndex } from '@mcp-atlas/route';
import { readShownCatalog } from '../data/catalog-file.js';
import { readDayResults } from '../data/day-results.js';
import { daysOfLetters } from '../data/days.js';
import { readExcludedOrigins } from '../data/excluded-origins.js';
import { type FiveMinuteObservation, readFiveMinuteChecks } from '../data/five-minute-checks.js';
import { readOptedOutHosts } from '../data/opted-out.js';
import {
  dayCatalogPath,
  dayChangesPath,
  dayIndexPath,
  dayReportsPath,
  daySummaryPath,
  HOURLY_PATH,
  SENSOR_BATCHES_PREFIX,
  SERVER_STATES_PREFIX,
  SERVERS_PATH,
} from '../data/paths.js';
import { parseReportLog } from '../data/report-log.js';
import { readAgreementLookups } from '../data/reporter-records.js';
import { readIncidentClosures } from '../data/review-queue.js';
import { readRouteMarks } from '../data/route-marks.js';
import {
  type Catalog,
  CatalogSchema,
  type Change,
  ChangesFileSchema,
  DayIndexSchema,
  type HourlyFile,
  HourlyFileSchema,
  type ServerDayResult,
  type ServerState,
  ServerStateSchema,
} from '../data/schemas.js';
import { StoredSensorBatchSchema } from '../data/stored-records.js';
import { readWatchedServers } from '../data/watched-servers.js';
import {
  type DomainAgeView,
  domainAgeOf,
  packagesOfServer,
  readDomainAges,
  readShownPackageLayer,
  type ServerPackagesView,
} from '../outside/read-outside.js';
import { type OwnerRecord, readOwnerRecords } from '../owners/owner-records.js';
import { readRoots } from '../seal/seal-day.js';
import { getJson, type Storage } from '../storage/storage.js';
import { listableObserving, type ObservingSubmission, readObservingSubmissions } from '../submissions/observing.js';
import { type CatalogView, catalogViewOf } from './catalog-view.js';
import { liveChecksOf } from './live-inputs.js';
import { indexLocalServerOf, type LocalServerView, readLocalView } from './local-view.js';
import { readScoresView, type ScoresView } from './score-view.js';
import { cleanCatalog, cleanChange, cleanDayResult, cleanTitle, readWithheldDescriptions } from './served-text.js';

/** Everything the pages and the API say about one server. */
export interface ServerView {
  id: string;
  url: string;
  title: string | null;
  letter: 'o' | 'a' | 'p' | 'd' | null;
  /**
   * The daily letters of the 30 days ending `lettersThrough`: the kept ones, then `n` for each day since the last
   * fold up to yesterday (no daily check was folded for it), so every figure read from them covers the window
   * ending now even while the daily check keeps failing.
   */
  letters: string;
  /** The day the last of `letters` stands for (the last fold, or yesterday if later); null with no letter yet. */
  lettersThrough: string | null;
  uptime: UptimeSummary;
  successChance: number;
  stability: number;
  changeDaysLast30: number;
  category: string | null;
  latest: ServerDayResult | null;
  /** The newest catalog, its tool names, titles and descriptions without control characters (served-text.ts). */
  catalog: Catalog | null;
  /**
   * The tools (by name) whose description is held back from every answer and page until a person clears its
   * review: the description-injection scan matched it. Search still ranks by it.
   */
  withheldDescriptions: ReadonlySet<string>;
  state: ServerState;
  /**
   * What pages show now: the newest check, hourly ones included, under the second-failure rule (a single
   * failed hourly check falls back to the check before it).
   */
  shown: ShownStatus;
  /** Whether a live incident is shown, and why (agents' reports and our own checks of the last 2 hours). */
  incident: IncidentDecision;
  /** Agents' rating over the last 30 days of reports; shown only when `rating.visible`. */
  rating: Rating;
  /** What the server's verified owner set (their note is their words, never ours), or null. */
  owner: OwnerView | null;
  /** When its owner submitted it, for a server that joined through a submission; null otherwise. */
  submittedAt: string | null;
  /** The latest result at each UTC hour from the hourly checks kept; pages show it only when `shown`. */
  hourProfile: HourProfileView;
  /** The age of the server's domain from its RDAP record (looked up under 30 days ago), or null. */
  domainAge: DomainAgeView | null;
  /** The npm and PyPI packages it ships, their current versions and known vulnerabilities. */
  packages: ServerPackagesView;
  /**
   * Answering with tools right now: the package's one predicate over the shown status (the newest of the
   * hourly and five-minute checks when newer than the daily check, else the daily check). The route, the
   * rankings and the pages all read this.
   */
  answeringNow: boolean;
  /** The handshake time of the newest check that answered with tools, in milliseconds, or null. */
  handshakeMs: number | null;
  /** Why the server is off the published map (out of lists, search, route and rankings), or null when on it. */
  leftOut: LeftOutReason | null;
}

/** A server off the published map, and why. */
export interface LeftOutServer {
  id: string;
  reason: LeftOutReason;
}

/** A verified owner's settings as pages show them. */
export interface OwnerView {
  /** The origin whose token file proved control. */
  origin: string;
  /** The last time the token file was read and held the token. */
  verifiedAt: string;
  /** The owner's note, in their own words, and when they set it. */
  note: { text: string; setAt: string } | null;
  fiveMinuteChecks: boolean;
}

/** The owner of a server as pages show it: only while the server is still served from the verified origin. */
export function ownerViewOf(record: OwnerRecord | undefined, url: string): OwnerView | null {
  if (record === undefined || record.origin !== new URL(url).origin) return null;
  return {
    origin: record.origin,
    verifiedAt: record.verifiedAt,
    note: record.note,
    fiveMinuteChecks: record.fiveMinuteChecks,
  };
}

/** The whole read model. */
export interface AtlasView {
  /** The newest folded day (or, before the first fold, the newest day whose scan started), or null before any. */
  day: string | null;
  servers: ServerView[];
  byId: Map<string, ServerView>;
  toolIndex: ToolIndex;
  toolCount: number;
  rankings: CategoryRanking[];
  roots: Map<string, DayRoot>;
  /** The newest day's changes. */
  changes: Change[];
  /**
   * Servers with a state but off the published map, and why. They are not in `servers`, the tool index or
   * the rankings; `byId` still holds them, so a server page can say it is left out and why.
   */
  leftOut: LeftOutServer[];
  /**
   * One sentence per operator-kept mark list (gateways, directory-listed servers) that could not be read
   * and so counted as empty in this view; empty when both lists are fine or absent.
   */
  markProblems: string[];
  /**
   * Submitted servers still in their observation window, oldest submission first: listed apart with their
   * progress, and never in `servers`, search, route or rankings until their observation admits them.
   */
  observing: ObservingSubmission[];
  /** Quality scores: each server's newest (from the days' signed scores files) and its trend. */
  scores: ScoresView;
  /** The newest day's catalog of every directory read: who reported each server, and the counts; null before one. */
  catalog: CatalogView | null;
  /**
   * Local servers (package-only registry entries) with a check on record, by id order. They are in the tool index,
   * marked local, but not in `servers`, `byId` or the rankings: uptime and ratings are for remote servers only.
   */
  local: LocalServerView[];
  localById: Map<string, LocalServerView>;
}

/**
 * The day the read model shows: the newest day whose daily check has been folded (it has its summary, written
 * last), so a scan under way (its index written, its shards not yet) never hides every server's last check. Before
 * any day is folded, the newest day whose check started, so a first scan shows what it has.
 */
async function latestShownDay(storage: Storage): Promise<string | null> {
  const paths = await storage.list('days/');
  const dayOf = (path: string) => path.slice('days/'.length, 'days/'.length + 10);
  const folded = paths.filter((path) => path === daySummaryPath(dayOf(path))).sort();
  const started = paths.filter((path) => path === dayIndexPath(dayOf(path))).sort();
  const newest = folded.at(-1) ?? started.at(-1);
  return newest === undefined ? null : dayOf(newest);
}

/** Agents' reports of the 30 days ending `today`, grouped by server, in the shape ratings read. */
export async function readRecentReports(storage: Storage, today: string): Promise<Map<string, Report[]>> {
  const byServer = new Map<string, Report[]>();
  for (let back = 0; back < RATING_RULES.reportWindowDays + 1; back++) {
    const bytes = await storage.get(dayReportsPath(shiftDay(today, -back)));
    if (bytes === null) continue;
    for (const r of parseReportLog(bytes).reports) {
      const report: Report = {
        reporter: r.reporter,
        paid: r.paid,
        ok: r.ok,
        at: r.at,
        ...(r.ms !== undefined ? { ms: r.ms } : {}),
        ...(r.reason !== undefined ? { reason: r.reason } : {}),
        ...(r.matched !== undefined ? { matchedDescription: r.matched } : {}),
        ...(r.surprise !== undefined ? { surprise: r.surprise } : {}),
      };
      const list = byServer.get(r.server) ?? [];
      list.push(report);
      byServer.set(r.server, list);
    }
  }
  return byServer;
}

/**
 * What a server's page shows now: the newest daily check (of `day`), with the hourly and five-minute checks
 * made after it on top under the second-failure rule. A thin adapter over the package's `shownStatusOf`.
 */
export function shownStatusFromRecords(
  latest: ServerDayResult | null,
  day: string | null,
  hourly: HourlyFile['results'][string] | undefined,
  fiveMinute?: readonly FiveMinuteObservation[],
): ShownStatus {
  return shownStatusOf(liveChecksOf(latest, day, hourly, fiveMinute));
}

/**
 * The hour-of-day profile: the 24 slots the hourly file carries from hour to hour, or, in a file written
 * before it kept them, the two observations it has (this hour's and the one before). An observation whose
 * time does not parse is left out rather than failing the whole view.
 */
export function hourProfileOf(hourly: HourlyFile['results'][string] | undefined): HourProfileView {
  if (hourly?.hours !== undefined) return describeHourProfile(hourly.hours);
  const results: HourResult[] = [];
  for (const observation of [hourly?.previous ?? null, hourly ?? null]) {
    if (observation !== null && !Number.isNaN(Date.parse(observation.at)))
      results.push({ letter: observation.letter, at: observation.at });
  }
  return viewHourProfile(results);
}

/**
 * Our own checks that can confirm an incident: the daily check at the time it ran (an undated one is left
 * out), and the hourly and five-minute checks kept. A thin adapter over the package's `incidentChecksOf`.
 */
export function incidentChecksFromRecords(
  latest: ServerDayResult | null,
  day: string | null,
  hourly: HourlyFile['results'][string] | undefined,
  fiveMinute?: readonly FiveMinuteObservation[],
): IncidentCheck[] {
  return incidentChecksOf(liveChecksOf(latest, day, hourly, fiveMinute));
}

/** A server's uptime inputs: its letters, and its five-minute counters over the last 30 and 90 UTC days. */
export function uptimeInputFromState(
  state: Pick<ServerState, 'letters' | 'fiveMinute'>,
  today: string | null,
): UptimeInput {
  return uptimeInputOf(state.letters, state.fiveMinute, today);
}

/**
 * A server's letters as of yesterday (`lettersAsOf`): the days since its last fold up to yesterday are `n`. Today
 * is not counted until its check is folded, so a server is never marked for a day whose check may still run.
 */
export function windowLettersOf(
  state: Pick<ServerState, 'letters' | 'lastDay'>,
  today: string | null,
): { letters: string; through: string | null } {
  if (state.lastDay === null || today === null) return { letters: state.letters, through: state.lastDay };
  // A state already folded today ends today; otherwise the window runs to yesterday.
  const yesterday = shiftDay(today, -1);
  if (state.lastDay >= yesterday) return { letters: state.letters, through: state.lastDay };
  return { letters: lettersAsOf(state, yesterday), through: yesterday };
}

/** What the read model takes from gateway sensors, from one read of their batches. */
export interface RecentSensorData {
  /** The 30 days ending today, one entry per sensor, server and day (the form ratings count), by server. */
  entries: Map<string, SensorDayEntry[]>;
  /**
   * Today's and the day before's outcomes, by server, as the incident rule reads them: its window is 2 hours
   * and may cross midnight. Sensors never open an incident; they only join one our check (or a paying
   * reporter) confirmed.
   */
  incidentOutcomes: Map<string, IncidentSensorOutcome[]>;
  /** Every outcome of the 30 days, as the agreement rule compares them with our checks. */
  subjects: AgreementSubject[];
}

function pushTo<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Reads the sensor batches of the 30 days ending `today` once, for both ratings and incidents. */
export async function readRecentSensorData(storage: Storage, today: string): Promise<RecentSensorData> {
  const oldest = shiftDay(today, -RATING_RULES.reportWindowDays);
  const incidentFrom = shiftDay(today, -1);
  const outcomesBySensor = new Map<string, SensorOutcome[]>();
  const incidentOutcomes = new Map<string, IncidentSensorOutcome[]>();
  const subjects: AgreementSubject[] = [];
  for (const path of await storage.list(SENSOR_BATCHES_PREFIX)) {
    const day = path.slice(SENSOR_BATCHES_PREFIX.length, SENSOR_BATCHES_PREFIX.length + 10);
    if (day < oldest || day > today) continue;
    const batch = StoredSensorBatchSchema.safeParse(await getJson(storage, path));
    if (!batch.success) continue;
    const { sensor } = batch.data;
    for (const o of batch.data.outcomes) {
      const reason = o.reason !== undefined ? { reason: o.reason } : {};
      pushTo(outcomesBySensor, sensor, { server: o.server, ok: o.ok, at: o.at, ...reason });
      subjects.push({ by: sensor, server: o.server, ok: o.ok, at: o.at, ...reason });
      if (day >= incidentFrom) pushTo(incidentOutcomes, o.server, { sensor, ok: o.ok, at: o.at, ...reason });
    }
  }
  const entries = new Map<string, SensorDayEntry[]>();
  for (const [sensor, outcomes] of outcomesBySensor) {
    for (const { server, ...entry } of summarizeSensorOutcomes(sensor, outcomes)) pushTo(entries, server, entry);
  }
  return { entries, incidentOutcomes, subjects };
}

/**
 * The newest day on which a server was really checked: the day of its last letter that is not `n`, or null.
 * A day skipped by the daily cost cap leaves `n` as the newest letter; the check before it is then still the
 * newest thing known about the server.
 */
export function lastCheckedDayOf(state: Pick<ServerState, 'letters' | 'lastDay'>): string | null {
  let index = state.letters.length - 1;
  while (index >= 0 && state.letters[index] === 'n') index--;
  return daysOfLetters(state.letters, state.lastDay)[index] ?? null;
}

/** The servers the newest daily check's index listed (cost-cap skips included), or null before the first check. */
async function listedByNewestCheck(storage: Storage, day: string | null): Promise<Set<string> | null> {
  if (day === null) return null;
  const index = DayIndexSchema.safeParse(await getJson(storage, dayIndexPath(day)));
  return index.success ? new Set(index.data.servers.map((s) => s.id)) : null;
}

/**
 * What agents, sensors and people said in the report window, read once for every server (see
 * {@link judgeServerEvidence}): reports, sensor outcomes, each reporter's agreement, incident closures.
 */
export interface ServerEvidence {
  reports: Map<string, Report[]>;
  sensors: RecentSensorData;
  agreement: Awaited<ReturnType<typeof readAgreementLookups>>;
  closures: Awaited<ReturnType<typeof readIncidentClosures>>;
}

/** Reads the {@link ServerEvidence} of the report window ending `today`. */
export async function readServerEvidence(storage: Storage, today: string): Promise<ServerEvidence> {
  return {
    reports: await readRecentReports(storage, today),
    sensors: await readRecentSensorData(storage, today),
    agreement: await readAgreementLookups(storage),
    closures: await readIncidentClosures(storage),
  };
}

/**
 * One server's live incident and agents' rating from the evidence and our own live checks. buildView and the
 * per-server live update (live-update.ts) both call it, so both follow the same package rules.
 */
export function judgeServerEvidence(
  id: string,
  live: LiveChecks,
  evidence: ServerEvidence,
  now: Date,
): { incident: IncidentDecision; rating: Rating } {
  const reports = evidence.reports.get(id) ?? [];
  return {
    incident: decideClosedIncident(
      id,
      { reports, sensorOutcomes: evidence.sensors.incidentOutcomes.get(id) ?? [], checks: incidentChecksOf(live) },
      evidence.closures,
      now,
    ),
    // Each reporter and sensor weighs by its agreement with our checks (the hourly agreement task's records).
    rating: rateServer(reports, now, {
      sensors: evidence.sensors.entries.get(id) ?? [],
      reporterAgreement: evidence.agreement.reporters,
      sensorAgreement: evidence.agreement.sensors,
    }),
  };
}

/** What every server's tool-index entry reads besides the server: today's tool changes, the marks, today. */
export interface IndexContext {
  /** Servers whose tool list changed in today's daily check (none before it has run). */
  changedToday: ReadonlySet<string>;
  marks: Awaited<ReturnType<typeof readRouteMarks>>;
  /** The current UTC day, which the days since a risk rise are counted to. */
  today: string;
}

/**
 * What the route's index reads about a server that changes between daily checks; a live update replaces just
 * these (withLiveFields), so buildView and the live update take them from here.
 */
export function liveIndexFieldsOf(server: ServerView): LiveServerFields {
  return {
    answering: server.answeringNow,
    agentsReliability: server.rating.visible ? server.rating.reliability : null,
    liveIncident: server.incident.shown,
  };
}

/** What the route's tool index is told about one server on the map. */
export function indexServerOf(server: ServerView, context: IndexContext): IndexServer {
  return {
    id: server.id,
    ...(server.title !== null ? { name: server.title } : {}),
    url: server.url,
    tools: server.catalog?.tools ?? [],
    ...liveIndexFieldsOf(server),
    successChance: server.successChance,
    stability: server.stability,
    changedToday: context.changedToday.has(server.id),
    crossDomainRedirect: server.latest?.redirect?.sameSite === false,
    // Operator-kept marks (`mcp-atlas mark`): the gateway guard and set-aside, and the directory factor.
    gateway: context.marks.gateways.has(server.id),
    directoryListed: context.marks.directories.has(server.id),
    // A submitted server is new for the route's guard and high-risk set-aside for 30 days after submission.
    ...(server.submittedAt !== null ? { submittedAt: server.submittedAt } : {}),
    // A domain younger than 90 days lowers the route's guard and sets the server aside for high-risk tasks.
    ...(server.domainAge?.ageDays != null ? { domainAgeDays: server.domainAge.ageDays } : {}),
    ...(server.state.riskRiseDays.length > 0
      ? { riskRiseDays: daysBetween(server.state.riskRiseDays.at(-1) as string, context.today) }
      : {}),
  };
}

/** The most-reliable lists over the servers on the map. */
export function rankServers(servers: readonly ServerView[]): CategoryRanking[] {
  return rankMostReliable(
    servers.map((server) => ({
      id: server.id,
      url: server.url,
      category: server.category,
      answeringNow: server.answeringNow,
      letters: server.letters,
      handshakeMs: server.handshakeMs ?? Number.MAX_SAFE_INTEGER,
    })),
  );
}

/**
 * A server's category, read from its tools: the newest daily check's, or, when that check saw no tool list (down,
 * sign-in), the one its last kept tool list reads as. So a server whose daily check failed but which answers on a
 * later hourly check keeps its place in "most reliable" instead of dropping out until the next day.
 */
function categoryOf(latest: ServerDayResult | null, catalog: Catalog | null): string | null {
  if (latest?.letter === 'o') return latest.category;
  return catalog === null ? null : categorize(catalog.tools);
}

/** Builds the read model from storage; `now` dates the agents' ratings and the live incidents. */
export async function buildView(storage: Storage, now: Date = new Date()): Promise<AtlasView> {
  const day = await latestShownDay(storage);
  const today = dayFromTime(now);
  const reports = await readRecentReports(storage, today);
  const sensors = await readRecentSensorData(storage, today);
  const agreement = await readAgreementLookups(storage);
  const watchedList = await readWatchedServers(storage);
  const watched = new Map(watchedList.map((s) => [s.id, s]));
  // Without a watched list (a data folder written by hand), no server is taken off for leaving the registry.
  const watchedKnown = watchedList.length > 0 || (await storage.get(SERVERS_PATH)) !== null;
  const listed = await listedByNewestCheck(storage, day);
  const excludedOrigins = (await readExcludedOrigins(storage)).origins;
  const results = day === null ? new Map<string, ServerDayResult>() : await readDayResults(storage, day);
  const all: ServerView[] = [];
  const hourlyData = await getJson(storage, HOURLY_PATH);
  const hourly = hourlyData === null ? {} : HourlyFileSchema.parse(hourlyData).results;
  const fiveMinute = await readFiveMinuteChecks(storage);
  const optedOut = await readOptedOutHosts(storage);
  const owners = (await readOwnerRecords(storage)).records;
  const domainAges = await readDomainAges(storage);
  const packageLayer = await readShownPackageLayer(storage, today);
  // Read once: a person's closures cut off the failures before them; the marks feed the route's factors.
  const closures = await readIncidentClosures(storage);
  const marks = await readRouteMarks(storage);
  // A server skipped on the newest day (the daily cost cap) is shown from the last day it was checked.
  const olderDays = new Map<string, Map<string, ServerDayResult>>();
  const olderResultOf = async (state: ServerState): Promise<ServerDayResult | null> => {
    const checked = lastCheckedDayOf(state);
    if (checked === null || checked === day || state.lastDay !== day) return null;
    let dayResults = olderDays.get(checked);
    if (dayResults === undefined) {
      dayResults = await readDayResults(storage, checked);
      olderDays.set(checked, dayResults);
    }
    return dayResults.get(state.id) ?? null;
  };
  for (const path of await storage.list(SERVER_STATES_PREFIX)) {
    const state = ServerStateSchema.parse(await getJson(storage, path));
    const url = new URL(state.url);
    // An opted-out or robots-excluded host leaves the map at the next daily check (which no longer lists it),
    // an entry gone from the registry at once; its signed past days stay as they were.
    const leftOut = leftOutReasonOf({
      listedByNewestCheck: listed === null ? null : listed.has(state.id),
      optedOut: isOptedOut(url.hostname, optedOut),
      excludedByRobots: excludedOrigins.has(url.origin),
      inRegistry: watchedKnown ? watched.has(state.id) : null,
    });
    const todays = results.get(state.id);
    const stored = todays ?? (await olderResultOf(state));
    const latest = stored === null ? null : cleanDayResult(stored);
    const latestDay = todays !== undefined ? day : latest === null ? null : lastCheckedDayOf(state);
    const live = liveChecksOf(latest, latestDay, hourly[state.id], fiveMinute[state.id]);
    const shown = shownStatusOf(live);
    const catalogData =
      state.lastCatalogDay === null ? null : await getJson(storage, dayCatalogPath(state.lastCatalogDay, state.id));
    const storedCatalog = catalogData === null ? null : CatalogSchema.parse(catalogData);
    const catalog = storedCatalog === null ? null : cleanCatalog(storedCatalog);
    const changeDaysLast30 = day === null ? 0 : countChangeDays(state.changeDays, day);
    // A server off the map keeps the letters it had when it left: its page is the record of what was seen.
    const window =
      leftOut === null ? windowLettersOf(state, today) : { letters: state.letters, through: state.lastDay };
    all.push({
      id: state.id,
      url: state.url,
      title: cleanTitle(watched.get(state.id)?.title ?? state.title ?? null),
      letter: state.lastLetter,
      letters: window.letters,
      lettersThrough: window.through,
      // Five-minute checks of today count before today's daily check has run.
      uptime: describeUptime(uptimeInputFromState({ ...state, letters: window.letters }, today)),
      successChance: successChance(window.letters),
      stability: stability(changeDaysLast30),
      changeDaysLast30,
      category: categoryOf(latest, catalog),
      latest,
      catalog,
      withheldDescriptions:
        storedCatalog === null ? new Set() : await readWithheldDescriptions(storage, state.id, storedCatalog.tools),
      state,
      shown,
      ...judgeServerEvidence(state.id, live, { reports, sensors, agreement, closures }, now),
      owner: ownerViewOf(owners.get(state.id), state.url),
      submittedAt: watched.get(state.id)?.submittedAt ?? null,
      hourProfile: hourProfileOf(hourly[state.id]),
      domainAge: domainAgeOf(state.url, domainAges, today),
      packages: packagesOfServer(packageLayer, state.id),
      answeringNow: isAnsweringNow(shown),
      handshakeMs: newestHandshakeMs(live, state.lastHandshakeMs),
      leftOut,
    });
  }
  all.sort((a, b) => a.id.localeCompare(b.id));
  // Lists, search, route and rankings read only the servers on the map.
  const servers = all.filter((s) => s.leftOut === null);
  const changesData = day === null ? null : await getJson(storage, dayChangesPath(day));
  const changes = changesData === null ? [] : ChangesFileSchema.parse(changesData).changes.map(cleanChange);
  // Counted from the clock, not the newest checked day: between midnight and the end of today's check,
  // yesterday's changes are not today's.
  const changedToday = new Set(day === today ? changes.filter((c) => c.kind === 'tools').map((c) => c.serverId) : []);
  const local = await readLocalView(storage);
  const toolIndex = createToolIndex([
    ...servers.map((server) => indexServerOf(server, { changedToday, marks, today })),
    ...local.map(indexLocalServerOf),
  ]);
  const rankings = rankServers(servers);
  return {
    day,
    servers,
    byId: new Map(all.map((s) => [s.id, s])),
    toolIndex,
    toolCount: servers.reduce((sum, s) => sum + (s.catalog?.tools.length ?? 0), 0),
    rankings,
    roots: await readRoots(storage),
    changes,
    leftOut: all.flatMap((s) => (s.leftOut === null ? [] : [{ id: s.id, reason: s.leftOut }])),
    markProblems: marks.problems,
    scores: await readScoresView(storage, day),
    catalog: catalogViewOf(await readShownCatalog(storage)),
    local,
    localById: new Map(local.map((server) => [server.id, server])),
    // A submission's name is the name its server gave itself: shown without control characters, like a title.
    observing: listableObserving(await readObservingSubmissions(storage, now), {
      optedOutHosts: optedOut,
      excludedOrigins,
      watchedUrls: new Set([...watchedList, ...all].map((s) => s.url)),
    }).map((entry) => ({ ...entry, name: cleanTitle(entry.name) })),
  };
}
