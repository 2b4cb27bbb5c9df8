// The schedule's side of submissions: check each submitted server when its 6-hour slot comes, and decide at
// the end of its window with the reliability package's rule. Admitted servers join the watched list with
// their submission time, which the route's guard and high-risk set-aside read for 30 days.
//
// Our bot's politeness rules apply to a submitted server as to any other: an opted-out host or an origin
// whose robots.txt shuts our bot out is never checked, and the submission is refused with that reason.
import { hasDescription, hashToolList } from '@mcp-atlas/findings';
import { dayFromTime } from '@mcp-atlas/history';
import { nodeSha256 } from '@mcp-atlas/history/node';
import { reviewSubmission } from '@mcp-atlas/operations';
import { SUBMISSION_RULES } from '@mcp-atlas/operations/rules';
import { isOptedOut, type NetworkOptions, type ProbeResult, probeServer, readRobots } from '@mcp-atlas/probe';
import { IDENTITY_RULES } from '@mcp-atlas/probe/rules';
import { serverIdFor } from '../data/server-id.js';
import { addSubmittedServer } from '../data/watched-servers.js';
import type { Logger } from '../log.js';
import type { HostGate } from '../scan/host-gate.js';
import { mapWithLimit } from '../scan/pool.js';
import type { Storage } from '../storage/storage.js';
import {
  listSubmissionIds,
  readSubmission,
  type SubmissionCheckRecord,
  type SubmissionRecord,
  submissionOf,
  writeSubmission,
} from './records.js';

/** Longest title taken from a server's own name when it joins the map: the watched list's title limit (a shape, not a rule). */
const TITLE_MAX_LENGTH = 200;

/** What the observation task needs. */
export interface ObserveDeps {
  storage: Storage;
  network: NetworkOptions;
  log: Logger;
  /** Hosts that opted out, read once per run. */
  optedOut: readonly string[];
  concurrency?: number;
  /** The clock: read when a check ends, so a check's time is when it ran. */
  now(): Date;
  /** The service's gate of checks per host, shared with the other lanes; absent: none. */
  hostGate?: HostGate;
}

/** What one run did: checks run and decisions taken, by submission id. */
export interface ObserveOutcome {
  checked: string[];
  decided: { id: string; verdict: 'admitted' | 'extended' | 'refused' }[];
}

/** The stored form of one check. */
export function checkRecordOf(probe: ProbeResult, at: Date): SubmissionCheckRecord {
  const answered = probe.letter === 'o';
  const tools = answered ? probe.tools : [];
  return {
    at: at.toISOString(),
    letter: probe.letter,
    reason: probe.reason,
    answeredWithTools: answered,
    toolsHash: answered ? hashToolList(tools, { sha256: nodeSha256 }) : null,
    toolCount: tools.length,
    allToolsDescribed: tools.every((tool) => hasDescription(tool)),
    serverName: answered ? (probe.serverInfo?.name ?? null) : null,
  };
}

function refusedBecause(record: SubmissionRecord, why: string, at: Date): SubmissionRecord {
  return {
    ...record,
    status: 'refused',
    stoppedBecause: why,
    decisions: [
      ...record.decisions,
      {
        window: record.extensions,
        decidedAt: at.toISOString(),
        verdict: 'refused',
        reasons: [why],
        figures: { checks: 0, answered: 0, answeredPercent: null, toolListChanges: 0, undescribedChecks: 0 },
      },
    ],
  };
}

/** Robots.txt read once per UTC day per submission; true when it shuts our bot out of the origin. */
async function robotsExcludes(
  record: SubmissionRecord,
  deps: ObserveDeps,
  day: string,
): Promise<{ record: SubmissionRecord; excluded: boolean }> {
  if (record.robots?.day === day) return { record, excluded: record.robots.excluded };
  const robots = await readRobots(new URL(record.url).origin, IDENTITY_RULES.botToken, deps.network);
  return { record: { ...record, robots: { day, excluded: robots.excludesOrigin } }, excluded: robots.excludesOrigin };
}

/** Runs the check that is due, if any; refuses the submission when our bot may not check it. */
async function checkIfDue(
  record: SubmissionRecord,
  deps: ObserveDeps,
): Promise<{ record: SubmissionRecord; checked: boolean }> {
  const now = deps.now();
  if (!reviewSubmission(submissionOf(record), now).checkDue) return { record, checked: false };
  if (isOptedOut(record.host, deps.optedOut)) {
    return {
      record: refusedBecause(record, `the owner of ${record.host} opted out; it is never contacted`, now),
      checked: false,
    };
  }
  const robots = await robotsExcludes(record, deps, dayFromTime(now));
  if (robots.excluded) {
    return {
      record: refusedBecause(
        robots.record,
        `robots.txt of ${new URL(record.url).origin} disallows ${IDENTITY_RULES.botToken}`,
        now,
      ),
      checked: false,
    };
  }
  const check = () => probeServer(record.url, { ...deps.network, optedOut: deps.optedOut });
  const probe = await (deps.hostGate === undefined ? check() : deps.hostGate.run(record.url, check));
  return {
    record: { ...robots.record, checks: [...robots.record.checks, checkRecordOf(probe, deps.now())] },
    checked: true,
  };
}

/** The watched entry of an admitted submission: titled with the name the server gave itself, if any. */
function watchedEntryOf(record: SubmissionRecord): {
  id: string;
  url: string;
  title?: string;
  source: 'submitted';
  submittedAt: string;
} {
  const url = new URL(record.url);
  const name = [...record.checks].reverse().find((c) => c.serverName !== null)?.serverName ?? null;
  return {
    id: serverIdFor(`${url.host}${url.pathname}`),
    url: record.url,
    ...(name !== null && name.trim() !== '' ? { title: name.trim().slice(0, TITLE_MAX_LENGTH) } : {}),
    source: 'submitted',
    submittedAt: record.submittedAt,
  };
}

/** Takes the decision of a finished window, if the window is over. */
async function decideIfDue(
  record: SubmissionRecord,
  deps: ObserveDeps,
): Promise<{ record: SubmissionRecord; verdict: 'admitted' | 'extended' | 'refused' | null }> {
  const now = deps.now();
  const decision = reviewSubmission(submissionOf(record), now).decision;
  if (decision === null) return { record, verdict: null };
  const { verdict, reasons, figures } = decision;
  const decided: SubmissionRecord = {
    ...record,
    decisions: [
      ...record.decisions,
      {
        window: record.extensions,
        decidedAt: now.toISOString(),
        verdict,
        reasons,
        figures: {
          checks: figures.checks,
          answered: figures.answered,
          answeredPercent: figures.answeredPercent,
          toolListChanges: figures.toolListChanges,
          undescribedChecks: figures.undescribedChecks,
        },
      },
    ],
  };
  if (verdict === 'extended') return { record: { ...decided, extensions: record.extensions + 1 }, verdict };
  if (verdict === 'refused') return { record: { ...decided, status: 'refused' }, verdict };
  const entry = watchedEntryOf(record);
  // The watched list first: a crash between the two writes leaves the server watched and the record still
  // observing, and the next run decides again and writes the same entry, so nothing is lost or doubled.
  await addSubmittedServer(deps.storage, entry);
  return { record: { ...decided, status: 'admitted', serverId: entry.id }, verdict };
}

/**
 * Runs every due check of every submission under observation, then every due decision (and, when a first
 * window ends with one more week, that week's first check). Each record is written once per run, after its
 * checks and decisions. Returns what was done.
 */
export async function observeSubmissions(deps: ObserveDeps): Promise<ObserveOutcome> {
  const outcome: ObserveOutcome = { checked: [], decided: [] };
  const ids = await listSubmissionIds(deps.storage);
  await mapWithLimit(ids, deps.concurrency ?? 8, async (id) => {
    // One unreadable record (hand-edited, or from a newer version) is skipped and named, never allowed to
    // stop the observation of all the others.
    const stored = await readSubmission(deps.storage, id).catch((error: unknown) => {
      deps.log.warn({ submission: id, err: error }, 'submission record unreadable: skipped');
      return null;
    });
    if (stored === null || stored.status !== 'observing') return;
    let record = stored;
    // One round per window a submission can have: the end of a window can open the next (extra) one, whose
    // first slot is then due in the same run.
    for (let round = 0; round <= SUBMISSION_RULES.maxExtensions && record.status === 'observing'; round++) {
      const checked = await checkIfDue(record, deps);
      if (checked.checked) outcome.checked.push(id);
      record = checked.record;
      if (record.status !== 'observing') {
        outcome.decided.push({ id, verdict: 'refused' });
        break;
      }
      const decided = await decideIfDue(record, deps);
      record = decided.record;
      if (decided.verdict !== null) outcome.decided.push({ id, verdict: decided.verdict });
      if (decided.verdict !== 'extended') break;
    }
    if (record !== stored) {
      await writeSubmission(deps.storage, record);
      deps.log.info({ id, status: record.status, checks: record.checks.length }, 'submission observed');
    }
  });
  return outcome;
}
