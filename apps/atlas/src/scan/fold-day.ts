// After a day's scan: record what changed since each server's previous daily check, then roll every
// server's state forward. The rules (letters, `n` days, outages, change and risk-rise windows, status changes,
// which earlier list a tool list is compared with) are @mcp-atlas/reliability's `foldServerDay`; the
// tool-by-tool diff is @mcp-atlas/findings' `diffToolLists`. This file reads and writes.
//
// Changes are written before any state moves, so a crash between the two re-runs the fold from the same
// changes file, and a state already rolled to this day is skipped (the fold is pure, so a re-run of a state
// not yet rolled gives the same state). A server the daily cost cap left unchecked gets `n` for the day.
//
// The five-minute checks rewrite the same state files (their counters) while a day folds: every rewrite of a
// server's state goes through updateServerState or rollServerDay, which hold that server's lock from the read to
// the write. The fold also moves each server's day series (state/series/<id>.json), under the same lock.
//
// A day whose scan finished but whose fold never ran (a stop between its last shard and its fold) is folded
// later by foldCheckedDays, before a later day's fold would turn its letters into `n`.
import { shiftDay } from '@mcp-atlas/base';
import { diffToolLists } from '@mcp-atlas/findings';
import {
  advanceDaySeries,
  foldServerDay,
  foldSkippedDay,
  isDayFolded,
  newServerFoldState,
  type ToolListDiffInput,
  toolListBaseline,
} from '@mcp-atlas/reliability';
import { LETTER_RULES } from '@mcp-atlas/reliability/rules';
import { readDaySeries, writeDaySeries } from '../data/day-series-file.js';
import {
  dailySpendPath,
  dayCatalogPath,
  dayChangesPath,
  dayIndexPath,
  dayShardPath,
  daySummaryPath,
  HOURLY_PATH,
  serverStatePath,
} from '../data/paths.js';
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
  ShardFileSchema,
  SpendLedgerSchema,
  type Summary,
  type WatchedServer,
} from '../data/schemas.js';
import { readWatchedServers } from '../data/watched-servers.js';
import { type ScoreDayOptions, scoreDay } from '../score/score-day.js';
import { findUnfinishedReason } from '../seal/seal-day.js';
import { KeyedLocks } from '../storage/day-locks.js';
import { getJson, getJsonOrNull, jsonBytes, putJson, type Storage } from '../storage/storage.js';

/** A server's state before its first check. */
export function emptyServerState(server: Pick<WatchedServer, 'id' | 'url' | 'title'>): ServerState {
  return {
    id: server.id,
    url: server.url,
    ...(server.title !== undefined ? { title: server.title } : {}),
    ...newServerFoldState(),
    fiveMinute: [],
  };
}

/**
 * One lock per server id for this process's rewrites of state/servers/<id>.json. The fold and the five-minute
 * checks both rewrite the file, and the daily scan and its fold run beside the ticks that run the five-minute
 * checks, so a write made from a state read before the other's write would undo that write (a day's letter or
 * a check's count). Processes do not share it: see the README's note on several processes.
 */
const serverStateLocks = new KeyedLocks();

/**
 * Rewrites one server's state under its lock: reads it (null when the server has none yet), passes it to
 * `change`, and writes what `change` returns (null writes nothing). No other rewrite of that server's state in
 * this process lands between the read and the write. Resolves to the state written, or null.
 *
 * @example
 * await updateServerState(storage, 'notes', (state) =>
 *   state === null ? null : { ...state, fiveMinute: recordFiveMinuteCheck(state.fiveMinute, day, true) });
 */
export async function updateServerState(
  storage: Storage,
  serverId: string,
  change: (state: ServerState | null) => ServerState | null,
): Promise<ServerState | null> {
  return serverStateLocks.run(serverId, true, async () => {
    const next = change(await readStoredState(storage, serverId));
    if (next !== null) await putJson(storage, serverStatePath(serverId), next);
    return next;
  });
}

/** The server's stored state, or null when it has none yet. */
async function readStoredState(storage: Storage, serverId: string): Promise<ServerState | null> {
  const data = await getJson(storage, serverStatePath(serverId));
  return data === null ? null : ServerStateSchema.parse(data);
}

/** One server's state before and after a day's fold. */
interface RolledState {
  before: ServerState;
  next: ServerState;
}

/**
 * Rolls one server to `fold.day` under its lock: `roll` gives its state before and after the fold (null when the
 * day is already folded), and the day series moves with it (@mcp-atlas/reliability's advanceDaySeries: the days
 * before are closed with the wall times the hourly tally and the five-minute pairs still keep, and the day is
 * added open). The series is written first: after a crash between the two writes the state is not rolled, so the
 * fold runs again and finds the day already in the series, which it leaves as it is.
 */
async function rollServerDay(
  storage: Storage,
  serverId: string,
  fold: { day: string; letter: ServerDayResult['letter']; elapsedMs: number | null },
  hourly: HourlyResults,
  roll: (stored: ServerState | null) => RolledState | null,
): Promise<void> {
  await serverStateLocks.run(serverId, true, async () => {
    const rolled = roll(await readStoredState(storage, serverId));
    if (rolled === null) return;
    const { before, next } = rolled;
    const source = { letters: before.letters, lastDay: before.lastDay, series: await readDaySeries(storage, serverId) };
    const wallTimes = { hourly: hourly[serverId]?.tally, fiveMinute: before.fiveMinute };
    await writeDaySeries(storage, serverId, advanceDaySeries(source, fold, wallTimes));
    await putJson(storage, serverStatePath(serverId), next);
  });
}

/** How many rewrites of `serverId`'s state wait for its lock now (for tests that must see one queued). */
export function serverStateWaiters(serverId: string): number {
  return serverStateLocks.waitersOf(serverId);
}

/** Reads a server's rolling state, or a fresh one. */
export async function readServerState(
  storage: Storage,
  server: Pick<WatchedServer, 'id' | 'url' | 'title'>,
): Promise<ServerState> {
  const data = await getJson(storage, serverStatePath(server.id));
  return data === null ? emptyServerState(server) : ServerStateSchema.parse(data);
}

/** A day's catalog of a server; null when it is missing or does not have a catalog's shape (the fold goes on). */
async function readCatalog(storage: Storage, day: string | null, serverId: string): Promise<Catalog | null> {
  if (day === null) return null;
  const parsed = CatalogSchema.safeParse(await getJson(storage, dayCatalogPath(day, serverId)));
  return parsed.success ? parsed.data : null;
}

/**
 * The diff of today's tool list against the list the fold compares it with (the previous daily check that
 * listed tools), or null when no comparison is owed or either catalog cannot be read (the fold then records
 * the change without its detail).
 */
export async function diffAgainstBaseline(
  storage: Storage,
  day: string,
  state: ServerState,
  result: ServerDayResult,
): Promise<ToolListDiffInput | null> {
  const baseline = toolListBaseline(state, result);
  if (baseline === null) return null;
  const before = await readCatalog(storage, baseline.day, result.id);
  const after = await readCatalog(storage, day, result.id);
  // A catalog that does not hold the list its hash names (edited or torn by hand) gives no detail rather than
  // a wrong one; the fold still records the change, which the two hashes prove.
  if (
    before === null ||
    after === null ||
    before.toolsHash !== baseline.toolsHash ||
    after.toolsHash !== result.toolsHash
  )
    return null;
  const diff = diffToolLists(
    { tools: before.tools, serverVersion: before.serverVersion },
    { tools: after.tools, serverVersion: after.serverVersion },
  );
  return diff.unchanged ? null : diff;
}

/** Each server's entry of the hourly file, for the wall times its tallies keep; empty when it cannot be read. */
type HourlyResults = HourlyFile['results'];

async function readHourlyResults(storage: Storage): Promise<HourlyResults> {
  const parsed = HourlyFileSchema.safeParse(await getJsonOrNull(storage, HOURLY_PATH));
  return parsed.success ? parsed.data.results : {};
}

/** One server's day: its next state (url as checked today) and the changes of the day. */
function foldResult(
  state: ServerState,
  day: string,
  result: ServerDayResult,
  toolDiff: ToolListDiffInput | null,
): { state: ServerState; changes: Change[] } {
  const { letter } = result;
  // A check the server rate-limited all day measured nothing: the day is folded as one without data.
  if (letter === 'n') return { state: { ...foldSkippedDay(state, day), url: result.url }, changes: [] };
  const folded = foldServerDay(state, { ...result, letter }, { day, toolDiff });
  return { state: { ...folded.state, url: result.url }, changes: folded.changes };
}

/** The tool diffs the day owes, by server, and the day's changes; servers already rolled to `day` are left out. */
async function computeDay(
  storage: Storage,
  day: string,
  results: readonly ServerDayResult[],
  servers: readonly WatchedServer[],
): Promise<{ changes: Change[]; diffs: Map<string, ToolListDiffInput | null> }> {
  const byId = new Map(servers.map((s) => [s.id, s]));
  const changes: Change[] = [];
  const diffs = new Map<string, ToolListDiffInput | null>();
  for (const result of results) {
    const state = await readServerState(storage, byId.get(result.id) ?? { id: result.id, url: result.url });
    if (isDayFolded(state, day)) continue;
    const toolDiff = await diffAgainstBaseline(storage, day, state, result);
    diffs.set(result.id, toolDiff);
    changes.push(...foldResult(state, day, result, toolDiff).changes);
  }
  return { changes, diffs };
}

function summarize(
  day: string,
  methodologyVersion: string,
  results: readonly ServerDayResult[],
  changes: readonly Change[],
  skippedByCap: number,
  leftAtStop = 0,
): Summary {
  const letters = { o: 0, a: 0, p: 0, d: 0, n: 0 };
  for (const result of results) letters[result.letter]++;
  return {
    day,
    methodologyVersion,
    servers: results.length,
    letters,
    tools: results.reduce((sum, r) => sum + r.toolCount, 0),
    changes: changes.length,
    riskRises: changes.reduce((sum, c) => sum + (c.diff?.riskRises.length ?? 0), 0),
    skippedByCap,
    leftAtStop,
  };
}

// A server first seen on a capped day has no state yet: its history starts at its first check, as it
// would had it joined a day later, so it gets no state and no letter here.
async function rollSkippedServers(
  storage: Storage,
  day: string,
  unchecked: readonly string[],
  hourly: HourlyResults,
): Promise<void> {
  const fold = { day, letter: 'n' as const, elapsedMs: null };
  for (const id of unchecked)
    await rollServerDay(storage, id, fold, hourly, (state) =>
      state === null || isDayFolded(state, day) ? null : { before: state, next: foldSkippedDay(state, day) },
    );
}

/**
 * Writes the day's changes, rolls every server's state (`n` for the servers the cost cap skipped), writes the
 * day's quality scores (score/score-day.ts), then the summary. Safe to re-run after a crash.
 */
export async function foldDay(input: {
  storage: Storage;
  day: string;
  results: readonly ServerDayResult[];
  servers: readonly WatchedServer[];
  methodologyVersion: string;
  /** Servers of the day's index whose shard the daily cost cap left for the next day. */
  skippedByCap?: readonly string[];
  /** Servers of an earlier day's index whose shard its stopped check never reached (closeStoppedDay). */
  leftAtStop?: readonly string[];
  /** The day's quality scoring (a repository reader, the queue's clock); it runs with none of them too. */
  scoring?: ScoreDayOptions;
}): Promise<{ changes: Change[]; summary: Summary }> {
  const { storage, day, results, servers } = input;
  const saved = await getJson(storage, dayChangesPath(day));
  const computed = await computeDay(storage, day, results, servers);
  const changes = saved !== null ? ChangesFileSchema.parse(saved).changes : computed.changes;
  if (saved === null) await putJson(storage, dayChangesPath(day), { day, changes });
  const byId = new Map(servers.map((s) => [s.id, s]));
  // Read once: the day series closes earlier days with the wall times of the hourly checks' tallies.
  const hourly = await readHourlyResults(storage);
  for (const result of results) {
    // Read again under the server's lock, so counters another task wrote meanwhile (five-minute checks) stay,
    // and none it writes while the fold rolls this server is lost.
    const server = byId.get(result.id) ?? { id: result.id, url: result.url };
    const fold = { day, letter: result.letter, elapsedMs: result.elapsedMs };
    await rollServerDay(storage, result.id, fold, hourly, (stored) => {
      const state = stored ?? emptyServerState(server);
      if (isDayFolded(state, day)) return null;
      return { before: state, next: foldResult(state, day, result, computed.diffs.get(result.id) ?? null).state };
    });
  }
  const skippedByCap = input.skippedByCap ?? [];
  const leftAtStop = input.leftAtStop ?? [];
  // Both are days the check did not run for these servers: `n`.
  await rollSkippedServers(storage, day, [...skippedByCap, ...leftAtStop], hourly);
  // The scores file before the summary: the seal waits for the summary, so it always covers the scores.
  await scoreDay({
    storage,
    day,
    results,
    servers,
    methodologyVersion: input.methodologyVersion,
    ...(input.scoring !== undefined ? { options: input.scoring } : {}),
  });
  const summary = summarize(day, input.methodologyVersion, results, changes, skippedByCap.length, leftAtStop.length);
  await putJson(storage, daySummaryPath(day), summary);
  return { changes, summary };
}

/**
 * The days before `today` whose scan started (they have an index) and whose fold never ran, oldest first:
 * those after the newest folded day, within the letters' window.
 */
async function unfoldedDaysBefore(storage: Storage, today: string): Promise<string[]> {
  const days: string[] = [];
  for (let back = 1; back <= LETTER_RULES.windowDays; back++) {
    const day = shiftDay(today, -back);
    if ((await storage.get(daySummaryPath(day))) !== null) break;
    if ((await storage.get(dayIndexPath(day))) !== null) days.push(day);
  }
  return days.reverse();
}

/**
 * What a finished day's fold needs: its results, its servers, those the daily cost cap left that day, and those
 * a stopped check never reached (only when the day is closed).
 */
interface CheckedDay {
  results: ServerDayResult[];
  servers: WatchedServer[];
  skippedByCap: string[];
  leftAtStop: string[];
}

/** `storage` read as though the day's summary were `summary`: the seal's rule asked about a fold not yet made. */
function readerWithSummary(storage: Storage, day: string, summary: Summary): Pick<Storage, 'get' | 'list'> {
  const path = daySummaryPath(day);
  return {
    get: async (wanted) => (wanted === path ? jsonBytes(summary) : storage.get(wanted)),
    list: (prefix) => storage.list(prefix),
  };
}

/**
 * What an earlier day's scan left for its fold, or why it cannot be folded. A shard without a file counts as left
 * by the cap when the day's daily ledger records the cap's refusal (from then on a scan resumed that day refuses
 * every shard still without a file), and otherwise as left at a stop. The day is finished when the seal's rule
 * (findUnfinishedReason) accepts it with the summary this fold would write, so a day folded here is a day the
 * seal signs, and a day a crash left with a shard missing is never folded as though it were whole: its summary
 * says how many servers the stop left.
 */
async function readCheckedDay(
  storage: Storage,
  day: string,
  methodologyVersion: string,
): Promise<CheckedDay | { unfinished: string }> {
  const index = DayIndexSchema.safeParse(await getJsonOrNull(storage, dayIndexPath(day)));
  if (!index.success) return { unfinished: `days/${day}/index.json is missing or unreadable` };
  const ledger = SpendLedgerSchema.safeParse(await getJsonOrNull(storage, dailySpendPath(day)));
  const capStopped = ledger.success && ledger.data.stopped !== null;
  const results: ServerDayResult[] = [];
  const skippedByCap: string[] = [];
  const leftAtStop: string[] = [];
  for (let shard = 0; shard < index.data.shards; shard++) {
    const path = dayShardPath(day, shard);
    if ((await storage.get(path)) === null) {
      const inShard = index.data.servers.filter((entry) => entry.shard === shard).map((entry) => entry.id);
      // The day is over, so a shard its check never reached never will be: its servers are `n` for the day.
      (capStopped ? skippedByCap : leftAtStop).push(...inShard);
      continue;
    }
    const file = ShardFileSchema.safeParse(await getJsonOrNull(storage, path));
    if (!file.success) return { unfinished: `${path} cannot be read` };
    results.push(...file.data.results);
  }
  // Only the summary's count of cap-skipped servers is read by the rule; the fold writes the real summary.
  const summary = summarize(day, methodologyVersion, results, [], skippedByCap.length, leftAtStop.length);
  const unfinished = await findUnfinishedReason(readerWithSummary(storage, day, summary), day);
  if (unfinished !== null) return { unfinished };
  const watched = new Map((await readWatchedServers(storage)).map((server) => [server.id, server]));
  const servers = index.data.servers.map(
    (entry): WatchedServer => watched.get(entry.id) ?? { id: entry.id, url: entry.url, source: 'registry' },
  );
  return {
    results: results.sort((a, b) => a.id.localeCompare(b.id)),
    servers,
    skippedByCap: skippedByCap.sort(),
    leftAtStop: leftAtStop.sort(),
  };
}

/**
 * What foldCheckedDays did with one earlier day: folded it (with the results it folded), left it because its
 * scan did not finish (`unfinished`, why), or tried and failed (`error`).
 */
export type EarlierDayFold =
  | { day: string; outcome: 'folded'; results: ServerDayResult[]; leftAtStop: string[] }
  | { day: string; outcome: 'unfinished'; reason: string }
  | { day: string; outcome: 'failed'; error: unknown };

/**
 * Folds, oldest first, every day before `today` whose fold never ran (a stop between its last shard and its
 * fold, the cap's stop before the fold, or a crash mid-scan that no start resumed before the day ended), so its
 * servers keep that day's letters: a later day's fold would otherwise record it as `n`, a day the check did not
 * run. A day over cannot be checked any more, so the servers of a shard its check never reached are closed as
 * `n` and counted in the summary (`leftAtStop`); the day is then finished and the seal signs it. A day with an
 * unreadable index or shard file is left as it is and reported with the reason. A fold that throws is
 * reported rather than thrown, so one earlier day cannot hold up `today`'s check (its servers then get `n`
 * for it, as before). Call it before `today`'s fold.
 */
export async function foldCheckedDays(input: {
  storage: Storage;
  today: string;
  methodologyVersion: string;
  scoring?: ScoreDayOptions;
}): Promise<EarlierDayFold[]> {
  const { storage, methodologyVersion } = input;
  const outcomes: EarlierDayFold[] = [];
  for (const day of await unfoldedDaysBefore(storage, input.today)) {
    try {
      const checked = await readCheckedDay(storage, day, methodologyVersion);
      if ('unfinished' in checked) {
        outcomes.push({ day, outcome: 'unfinished', reason: checked.unfinished });
        continue;
      }
      await foldDay({
        storage,
        day,
        ...checked,
        methodologyVersion,
        ...(input.scoring !== undefined ? { scoring: input.scoring } : {}),
      });
      outcomes.push({ day, outcome: 'folded', results: checked.results, leftAtStop: checked.leftAtStop });
    } catch (error) {
      outcomes.push({ day, outcome: 'failed', error });
    }
  }
  return outcomes;
}
