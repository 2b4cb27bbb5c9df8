// The per-server live update: when a report, a sensor batch or one of our checks brings news about a few
// servers, recompute only those servers' live fields (shown status, answering now, handshake time, hour
// profile, live incident and agents' rating) and hand back a new view with their entries replaced. The old
// view is never edited: requests still holding it keep one consistent picture. The rules are the ones
// buildView uses (its exported helpers `judgeServerEvidence`, `indexServerOf`, `rankServers`), so a live
// update and a full rebuild agree on every server they both computed at the same moment.
//
// The route's tool index has no per-server update (an index is never edited, and its internals are the route
// package's), so it is rebuilt only when a server on the map changed what the index reads about it (answering,
// live incident, agents' reliability); the rankings only when answering or the handshake time changed.
import { dayFromTime } from '@mcp-atlas/history';
import { isAnsweringNow, newestHandshakeMs, shownStatusOf as shownStatusOfLive } from '@mcp-atlas/reliability';
import { createToolIndex } from '@mcp-atlas/route';
import { readFiveMinuteChecks } from '../data/five-minute-checks.js';
import { HOURLY_PATH } from '../data/paths.js';
import { readRouteMarks } from '../data/route-marks.js';
import { HourlyFileSchema } from '../data/schemas.js';
import { getJsonOrNull, type Storage } from '../storage/storage.js';
import {
  type AtlasView,
  hourProfileOf,
  indexServerOf,
  judgeServerEvidence,
  lastCheckedDayOf,
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
  /** Whether the route's tool index was rebuilt (a server on the map changed what the index reads). */
  indexRebuilt: boolean;
  /** Whether the most-reliable lists were recomputed. */
  rankingsRebuilt: boolean;
}

/** Whether the tool index reads something different about the server now. */
function indexFieldsChanged(before: ServerView, after: ServerView): boolean {
  const reliability = (server: ServerView) => (server.rating.visible ? server.rating.reliability : null);
  return (
    before.answeringNow !== after.answeringNow ||
    before.incident.shown !== after.incident.shown ||
    reliability(before) !== reliability(after)
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
  if (ids.length === 0) return { view, updated: [], indexRebuilt: false, rankingsRebuilt: false };
  const evidence = await readServerEvidence(storage, dayFromTime(now));
  const hourlyFile = HourlyFileSchema.safeParse(await getJsonOrNull(storage, HOURLY_PATH));
  const hourly = hourlyFile.success ? hourlyFile.data.results : {};
  const fiveMinute = await readFiveMinuteChecks(storage);

  const byId = new Map(view.byId);
  let indexChanged = false;
  let rankingsChanged = false;
  for (const id of ids) {
    const before = view.byId.get(id) as ServerView;
    // The daily check a server is shown from is dated by the last day it was really checked (as in buildView).
    const latestDay = before.latest === null ? null : lastCheckedDayOf(before.state);
    const live = liveChecksOf(before.latest, latestDay, hourly[id], fiveMinute[id]);
    const shown = shownStatusOfLive(live);
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
      indexChanged ||= indexFieldsChanged(before, after);
      rankingsChanged ||= rankingFieldsChanged(before, after);
    }
  }
  const servers = view.servers.map((server) => byId.get(server.id) as ServerView);
  let toolIndex = view.toolIndex;
  if (indexChanged) {
    const marks = await readRouteMarks(storage);
    const changedToday = new Set(
      view.changes.filter((change) => change.kind === 'tools').map((change) => change.serverId),
    );
    toolIndex = createToolIndex(servers.map((server) => indexServerOf(server, { changedToday, marks, day: view.day })));
  }
  return {
    view: { ...view, servers, byId, toolIndex, rankings: rankingsChanged ? rankServers(servers) : view.rankings },
    updated: ids,
    indexRebuilt: indexChanged,
    rankingsRebuilt: rankingsChanged,
  };
}
