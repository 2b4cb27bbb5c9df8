// The per-server live update: when a report, a sensor batch or one of our checks brings news about a few
// servers, recompute only those servers' live fields (shown status, answering now, handshake time, hour
// profile, live incident and agents' rating) and hand back a new view with their entries replaced. The old
// view is never edited: requests still holding it keep one consistent picture. The rules are the ones
// buildView uses (its exported helpers `judgeServerEvidence`, `indexServerOf`, `rankServers`), so a live
// update and a full rebuild agree on every server they both computed at the same moment.
//
// The route's tool index is never edited: when a server on the map changed what the index reads about it
// between daily checks (answering, live incident, agents' reliability), the route package's `withLiveFields`
// gives a new index with those servers' fields replaced and everything else shared, which answers as a full
// rebuild would. The rankings are recomputed only when answering or the handshake time changed.
//
// Time alone changes an incident too: its failures and confirming checks leave the 2-hour window with no news
// about the server. Each decision says when that next happens (`changesAt`); `nextIncidentChangeAt` and
// `incidentChangesDue` let the service wake at that instant and update the servers due, as for news.
import { dayFromTime } from '@mcp-atlas/history';
import { isAnsweringNow, newestHandshakeMs, shownStatusOf } from '@mcp-atlas/reliability/live';
import { type LiveServerUpdate, withLiveFields } from '@mcp-atlas/route';
import { readFiveMinuteChecks } from '../data/five-minute-checks.js';
import { HOURLY_PATH } from '../data/paths.js';
import { HourlyFileSchema } from '../data/schemas.js';
import { getJsonOrNull, type Storage } from '../storage/storage.js';
import {
  type AtlasView,
  hourProfileOf,
  judgeServerEvidence,
  lastCheckedDayOf,
  liveIndexFieldsOf,
  rankServers,
  readServerEvidence,
  type ServerView,
} from './build-view.js';
import { liveChecksOf } from './live-inputs.js';

/** What a live update did. */
export interface LiveUpdateResult {
  /** The new view (the same object when no asked-for server is known). */
  view: AtlasView;
  /** The servers whose entries were recomputed. */
  updated: string[];
  /** Whether the route's tool index was replaced (a server on the map changed what the index reads). */
  indexUpdated: boolean;
  /** Whether the most-reliable lists were recomputed. */
  rankingsRebuilt: boolean;
}

/** Whether the tool index reads something different about the server now. */
function indexFieldsChanged(before: ServerView, after: ServerView): boolean {
  const [was, now] = [liveIndexFieldsOf(before), liveIndexFieldsOf(after)];
  return (
    was.answering !== now.answering ||
    was.liveIncident !== now.liveIncident ||
    was.agentsReliability !== now.agentsReliability
  );
}

/** Whether the most-reliable lists read something different about the server now. */
function rankingFieldsChanged(before: ServerView, after: ServerView): boolean {
  return before.answeringNow !== after.answeringNow || before.handshakeMs !== after.handshakeMs;
}

/**
 * Recomputes the live fields of `serverIds` from storage (reports and sensor outcomes of the report window,
 * closures, agreement records, the hourly and five-minute checks) as of `now`, and returns a new view with
 * those servers replaced. Unknown ids are skipped. The daily fields (letters, uptime, catalog, findings)
 * come only from a daily check and stay as they are until the next full rebuild.
 *
 * @example
 * const { view: next } = await updateServersLive(view, storage, ['files-example'], new Date());
 */
export async function updateServersLive(
  view: AtlasView,
  storage: Storage,
  serverIds: Iterable<string>,
  now: Date,
): Promise<LiveUpdateResult> {
  const ids = [...new Set(serverIds)].filter((id) => view.byId.has(id));
  if (ids.length === 0) return { view, updated: [], indexUpdated: false, rankingsRebuilt: false };
  const evidence = await readServerEvidence(storage, dayFromTime(now));
  const hourlyFile = HourlyFileSchema.safeParse(await getJsonOrNull(storage, HOURLY_PATH));
  const hourly = hourlyFile.success ? hourlyFile.data.results : {};
  const fiveMinute = await readFiveMinuteChecks(storage);

  const byId = new Map(view.byId);
  const indexUpdates: LiveServerUpdate[] = [];
  let rankingsChanged = false;
  for (const id of ids) {
    const before = view.byId.get(id) as ServerView;
    // The daily check a server is shown from is dated by the last day it was really checked (as in buildView).
    const latestDay = before.latest === null ? null : lastCheckedDayOf(before.state);
    const live = liveChecksOf(before.latest, latestDay, hourly[id], fiveMinute[id]);
    const shown = shownStatusOf(live);
    const after: ServerView = {
      ...before,
      shown,
      answeringNow: isAnsweringNow(shown),
      handshakeMs: newestHandshakeMs(live, before.state.lastHandshakeMs),
      hourProfile: hourProfileOf(hourly[id]),
      ...judgeServerEvidence(id, live, evidence, now),
    };
    byId.set(id, after);
    if (before.leftOut === null) {
      if (indexFieldsChanged(before, after)) indexUpdates.push({ id, ...liveIndexFieldsOf(after) });
      rankingsChanged ||= rankingFieldsChanged(before, after);
    }
  }
  const servers = view.servers.map((server) => byId.get(server.id) as ServerView);
  const indexChanged = indexUpdates.length > 0;
  const toolIndex = indexChanged ? withLiveFields(view.toolIndex, indexUpdates) : view.toolIndex;
  return {
    view: { ...view, servers, byId, toolIndex, rankings: rankingsChanged ? rankServers(servers) : view.rankings },
    updated: ids,
    indexUpdated: indexChanged,
    rankingsRebuilt: rankingsChanged,
  };
}

/**
 * The earliest `incident.changesAt` among the view's servers (left-out ones included, since their pages still
 * show the incident), in milliseconds since the epoch, leaving out `skip` (servers already waiting for a live
 * update); null when no decision changes by time alone. A live update of the servers due then decides them
 * again: this is how a shown incident ends when its 2 hours pass, with no report and no rebuild.
 *
 * @example
 * nextIncidentChangeAt(view); // Date.parse('2026-11-10T11:05:00.001Z')
 */
export function nextIncidentChangeAt(view: AtlasView, skip: ReadonlySet<string> = new Set()): number | null {
  let next: number | null = null;
  for (const server of view.byId.values()) {
    const { changesAt } = server.incident;
    if (changesAt === null || skip.has(server.id)) continue;
    const atMs = Date.parse(changesAt);
    if (next === null || atMs < next) next = atMs;
  }
  return next;
}

/** The servers whose incident decision time alone has changed by `now` (their `changesAt` has come), less `skip`. */
export function incidentChangesDue(view: AtlasView, now: Date, skip: ReadonlySet<string> = new Set()): string[] {
  const nowMs = now.getTime();
  const due: string[] = [];
  for (const server of view.byId.values()) {
    const { changesAt } = server.incident;
    if (changesAt !== null && !skip.has(server.id) && Date.parse(changesAt) <= nowMs) due.push(server.id);
  }
  return due;
}
