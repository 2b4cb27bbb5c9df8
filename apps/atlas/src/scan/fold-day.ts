// After a day's scan: record what changed since the previous check, then roll every server's state forward.
// Changes are written before any state moves, so a crash between the two re-runs the fold from the same
// changes file, and a state already rolled to this day is skipped. A server the daily cost cap left
// unchecked gets `n` for the day: no data, never `d`.
import { diffToolLists } from '@mcp-atlas/findings';
import { shiftDay } from '@mcp-atlas/history';
import {
  appendDailyLetter,
  CHANGE_DAYS_KEPT,
  isAnsweringLetter,
  LETTER_WINDOW_DAYS,
  NO_DATA_LETTER,
  OUTAGES_KEPT,
} from '@mcp-atlas/reliability';
import { RISK_RISE_DAYS } from '@mcp-atlas/route';
import { dayCatalogPath, dayChangesPath, daySummaryPath, serverStatePath } from '../data/paths.js';
import {
  CatalogSchema,
  ChangesFileSchema,
  ServerStateSchema,
  type Catalog,
  type Change,
  type ServerDayResult,
  type ServerState,
  type Summary,
  type WatchedServer,
} from '../data/schemas.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { daysBetween } from '../data/days.js';

/** A server's state before its first check. */
export function emptyServerState(server: Pick<WatchedServer, 'id' | 'url' | 'title'>): ServerState {
  return {
    id: server.id,
    url: server.url,
    ...(server.title !== undefined ? { title: server.title } : {}),
    letters: '',
    lastDay: null,
    changeDays: [],
    outages: [],
    currentOutageDays: 0,
    fiveMinute: [],
    toolsHash: null,
    serverVersion: null,
    lastLetter: null,
    lastPaymentAddress: null,
    lastHandshakeMs: null,
    lastCatalogDay: null,
    lastRedirect: null,
    riskRiseDays: [],
  };
}

/** Reads a server's rolling state, or a fresh one. */
export async function readServerState(storage: Storage, server: Pick<WatchedServer, 'id' | 'url' | 'title'>): Promise<ServerState> {
  const data = await getJson(storage, serverStatePath(server.id));
  return data === null ? emptyServerState(server) : ServerStateSchema.parse(data);
}

async function readCatalog(storage: Storage, day: string | null, serverId: string): Promise<Catalog | null> {
  if (day === null) return null;
  const data = await getJson(storage, dayCatalogPath(day, serverId));
  return data === null ? null : CatalogSchema.parse(data);
}

function toolChange(serverId: string, before: Catalog, after: Catalog): Change | null {
  const diff = diffToolLists(
    { tools: before.tools, serverVersion: before.serverVersion },
    { tools: after.tools, serverVersion: after.serverVersion },
  );
  if (diff.unchanged) return null;
  const parts = [
    diff.added.length ? `${diff.added.length} added` : '',
    diff.removed.length ? `${diff.removed.length} removed` : '',
    diff.changed.length ? `${diff.changed.length} changed` : '',
    diff.renamed.length ? `${diff.renamed.length} renamed` : '',
    diff.riskRises.length ? `${diff.riskRises.length} rise(s) in risk` : '',
  ].filter(Boolean);
  return {
    serverId,
    kind: 'tools',
    detail: `Tool list changed${diff.silent ? ' silently (same server version)' : ''}: ${parts.join(', ') || 'reordered or reworded'}.`,
    diff: {
      added: diff.added,
      removed: diff.removed,
      changed: diff.changed,
      rewritten: diff.rewritten,
      riskRises: diff.riskRises.map((rise) => ({ name: rise.name, from: rise.from, to: rise.to })),
      renamed: diff.renamed,
      silent: diff.silent,
    },
  };
}

function statusChanges(state: ServerState, result: ServerDayResult): Change[] {
  const changes: Change[] = [];
  const before = state.lastLetter;
  if (before !== null) {
    const wasUp = isAnsweringLetter(before);
    const isUp = isAnsweringLetter(result.letter);
    if (!wasUp && isUp) changes.push({ serverId: result.id, kind: 'started-answering', detail: `Answering again (${result.letter}).` });
    if (wasUp && !isUp) changes.push({ serverId: result.id, kind: 'stopped-answering', detail: `Stopped answering: ${result.message}` });
    if (result.letter === 'a' && before !== 'a') changes.push({ serverId: result.id, kind: 'sign-in', detail: 'Now asks for sign-in.' });
  }
  if (result.paymentAddress !== null && result.paymentAddress !== state.lastPaymentAddress) {
    changes.push({ serverId: result.id, kind: 'payment-address', detail: `Asks agents to pay ${result.paymentAddress}.` });
  }
  const crossDomain = result.redirect !== null && !result.redirect.sameSite ? result.redirect.location : null;
  if (crossDomain !== null && crossDomain !== state.lastRedirect) {
    changes.push({ serverId: result.id, kind: 'redirect', detail: `Redirects to another domain: ${crossDomain}.` });
  }
  return changes;
}

/** Computes the day's changes against each server's previous check. */
export async function computeChanges(storage: Storage, day: string, results: readonly ServerDayResult[], servers: readonly WatchedServer[]): Promise<Change[]> {
  const byId = new Map(servers.map((s) => [s.id, s]));
  const changes: Change[] = [];
  for (const result of results) {
    const state = await readServerState(storage, byId.get(result.id) ?? { id: result.id, url: result.url });
    if (state.lastDay !== null && state.lastDay >= day) continue;
    changes.push(...statusChanges(state, result));
    if (result.toolsHash !== null && state.toolsHash !== null && result.toolsHash !== state.toolsHash) {
      const before = await readCatalog(storage, state.lastCatalogDay, result.id);
      const after = await readCatalog(storage, day, result.id);
      const change = before !== null && after !== null ? toolChange(result.id, before, after) : null;
      if (change !== null) changes.push(change);
    }
  }
  return changes;
}

/** Days between a state's last letter and `day` on which no check ran (each becomes `n`). */
function missedDaysBefore(state: ServerState, day: string): number {
  return state.lastDay === null ? 0 : Math.min(LETTER_WINDOW_DAYS, Math.max(0, daysBetween(state.lastDay, day) - 1));
}

/**
 * Rolls a server's state over a day its daily check did not run (the cost cap left its shard for the next
 * day): the day's letter is `n`, and nothing else moves, so an outage neither ends nor grows and the next
 * check compares with the last one that ran.
 */
export function rollSkippedDay(state: ServerState, day: string): ServerState {
  return { ...state, letters: appendDailyLetter(state.letters, NO_DATA_LETTER, missedDaysBefore(state, day)), lastDay: day };
}

/** Rolls one server's state forward by one day's result. */
export function rollState(state: ServerState, day: string, result: ServerDayResult, changes: readonly Change[]): ServerState {
  const skipped = missedDaysBefore(state, day);
  const toolChanged = changes.some((c) => c.serverId === result.id && c.kind === 'tools');
  const riskRose = changes.some((c) => c.serverId === result.id && c.kind === 'tools' && (c.diff?.riskRises.length ?? 0) > 0);
  const keepFrom = (kept: number) => shiftDay(day, -(kept - 1));
  const down = result.letter === 'd';
  const outages = !down && state.currentOutageDays > 0 ? [...state.outages, state.currentOutageDays].slice(-OUTAGES_KEPT) : state.outages;
  return {
    ...state,
    url: result.url,
    letters: appendDailyLetter(state.letters, result.letter, skipped),
    lastDay: day,
    changeDays: [...state.changeDays, ...(toolChanged ? [day] : [])].filter((d) => d >= keepFrom(CHANGE_DAYS_KEPT)),
    riskRiseDays: [...state.riskRiseDays, ...(riskRose ? [day] : [])].filter((d) => d >= keepFrom(RISK_RISE_DAYS)),
    outages,
    currentOutageDays: down ? state.currentOutageDays + 1 : 0,
    toolsHash: result.toolsHash ?? state.toolsHash,
    serverVersion: result.serverVersion ?? state.serverVersion,
    lastLetter: result.letter,
    lastPaymentAddress: result.paymentAddress ?? state.lastPaymentAddress,
    lastHandshakeMs: result.elapsedMs,
    lastCatalogDay: result.toolsHash !== null ? day : state.lastCatalogDay,
    lastRedirect: result.redirect !== null && !result.redirect.sameSite ? result.redirect.location : null,
  };
}

function summarize(day: string, methodologyVersion: string, results: readonly ServerDayResult[], changes: readonly Change[], skippedByCap: number): Summary {
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
    if (state.lastDay !== null && state.lastDay >= day) continue;
    await putJson(storage, serverStatePath(id), rollSkippedDay(state, day));
  }
}

/**
 * Writes the day's changes and summary, then rolls every server's state (`n` for the servers the cost cap
 * skipped). Safe to re-run after a crash.
 */
export async function foldDay(input: {
  storage: Storage;
  day: string;
  results: readonly ServerDayResult[];
  servers: readonly WatchedServer[];
  methodologyVersion: string;
  /** Servers of the day's index whose shard the daily cost cap left for the next day. */
  skippedByCap?: readonly string[];
}): Promise<{ changes: Change[]; summary: Summary }> {
  const { storage, day, results, servers } = input;
  const saved = await getJson(storage, dayChangesPath(day));
  const changes = saved !== null ? ChangesFileSchema.parse(saved).changes : await computeChanges(storage, day, results, servers);
  if (saved === null) await putJson(storage, dayChangesPath(day), { day, changes });
  const byId = new Map(servers.map((s) => [s.id, s]));
  for (const result of results) {
    const state = await readServerState(storage, byId.get(result.id) ?? { id: result.id, url: result.url });
    if (state.lastDay !== null && state.lastDay >= day) continue;
    await putJson(storage, serverStatePath(result.id), rollState(state, day, result, changes));
  }
  const skippedByCap = input.skippedByCap ?? [];
  await rollSkippedServers(storage, day, skippedByCap);
  const summary = summarize(day, input.methodologyVersion, results, changes, skippedByCap.length);
  await putJson(storage, daySummaryPath(day), summary);
  return { changes, summary };
}
