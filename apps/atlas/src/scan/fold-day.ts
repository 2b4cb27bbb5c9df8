// After a day's scan: record what changed since each server's previous daily check, then roll every
// server's state forward. The rules (letters, `n` days, outages, change and risk-rise windows, status changes,
// which earlier list a tool list is compared with) are @mcp-atlas/reliability's `foldServerDay`; the
// tool-by-tool diff is @mcp-atlas/findings' `diffToolLists`. This file reads and writes.
//
// Changes are written before any state moves, so a crash between the two re-runs the fold from the same
// changes file, and a state already rolled to this day is skipped (the fold is pure, so a re-run of a state
// not yet rolled gives the same state). A server the daily cost cap left unchecked gets `n` for the day.
import { diffToolLists } from '@mcp-atlas/findings';
import {
  foldServerDay,
  foldSkippedDay,
  isDayFolded,
  newServerFoldState,
  type ToolListDiffInput,
  toolListBaseline,
} from '@mcp-atlas/reliability';
import { dayCatalogPath, dayChangesPath, daySummaryPath, serverStatePath } from '../data/paths.js';
import {
  type Catalog,
  CatalogSchema,
  type Change,
  ChangesFileSchema,
  type ServerDayResult,
  type ServerState,
  ServerStateSchema,
  type Summary,
  type WatchedServer,
} from '../data/schemas.js';
import { type ScoreDayOptions, scoreDay } from '../score/score-day.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';

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

/** One server's day: its next state (url as checked today) and the changes of the day. */
function foldResult(
  state: ServerState,
  day: string,
  result: ServerDayResult,
  toolDiff: ToolListDiffInput | null,
): { state: ServerState; changes: Change[] } {
  const folded = foldServerDay(state, result, { day, toolDiff });
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
): Summary {
  const letters = { o: 0, a: 0, p: 0, d: 0 };
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
  };
}

// A server first seen on a capped day has no state yet: its history starts at its first check, as it
// would had it joined a day later, so it gets no state and no letter here.
async function rollSkippedServers(storage: Storage, day: string, skippedByCap: readonly string[]): Promise<void> {
  for (const id of skippedByCap) {
    const data = await getJson(storage, serverStatePath(id));
    if (data === null) continue;
    const state = ServerStateSchema.parse(data);
    if (isDayFolded(state, day)) continue;
    await putJson(storage, serverStatePath(id), foldSkippedDay(state, day));
  }
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
  /** The day's quality scoring (a repository reader, the queue's clock); it runs with none of them too. */
  scoring?: ScoreDayOptions;
}): Promise<{ changes: Change[]; summary: Summary }> {
  const { storage, day, results, servers } = input;
  const saved = await getJson(storage, dayChangesPath(day));
  const computed = await computeDay(storage, day, results, servers);
  const changes = saved !== null ? ChangesFileSchema.parse(saved).changes : computed.changes;
  if (saved === null) await putJson(storage, dayChangesPath(day), { day, changes });
  const byId = new Map(servers.map((s) => [s.id, s]));
  for (const result of results) {
    // Read again just before the write, so counters another task wrote meanwhile (five-minute checks) stay.
    const state = await readServerState(storage, byId.get(result.id) ?? { id: result.id, url: result.url });
    if (isDayFolded(state, day)) continue;
    await putJson(
      storage,
      serverStatePath(result.id),
      foldResult(state, day, result, computed.diffs.get(result.id) ?? null).state,
    );
  }
  const skippedByCap = input.skippedByCap ?? [];
  await rollSkippedServers(storage, day, skippedByCap);
  // The scores file before the summary: the seal waits for the summary, so it always covers the scores.
  await scoreDay({
    storage,
    day,
    results,
    servers,
    methodologyVersion: input.methodologyVersion,
    ...(input.scoring !== undefined ? { options: input.scoring } : {}),
  });
  const summary = summarize(day, input.methodologyVersion, results, changes, skippedByCap.length);
  await putJson(storage, daySummaryPath(day), summary);
  return { changes, summary };
}
