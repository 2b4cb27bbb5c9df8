/**
 * Reporter and sensor records: each agent's and each gateway sensor's agreement with our own checks
 * over the report window, tallied from the reports (or outcomes) and the checks we kept. Pure
 * module: `now` is an argument.
 */
import {
  type Agreement,
  type AgreementTally,
  type FailureReason,
  type OwnCheckView,
  reportAgreement,
  tallyAgreement,
} from './agreement.js';
import { FAILURE_REASONS, MS_PER_DAY, REPORT_WINDOW_DAYS } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { assertBoolean, assertOneOf, assertText, instantOf, instantOfDate } from './validate.js';

/** One of our checks of a server, as the agreement rule reads it, with the time it ran. */
export interface TimedCheckView extends OwnCheckView {
  at: Date | string;
}

/** A report or a sensor outcome to compare: who sent it, about which server, what it said, when. */
export interface AgreementSubject {
  /** The reporter's identity, or the sensor's id. */
  by: string;
  /** The server's id. */
  server: string;
  ok: boolean;
  reason?: FailureReason | null;
  at: Date | string;
}

/** Each reporter's (or sensor's) tally, and how many of its subjects had a check to compare with. */
export interface AgreementRecord extends AgreementTally {
  /** Subjects in the window that had one of our checks before them. */
  compared: number;
}

interface CheckAt {
  atMs: number;
  view: OwnCheckView;
}

function sortedChecks(checksByServer: ReadonlyMap<string, readonly TimedCheckView[]>): Map<string, CheckAt[]> {
  if (checksByServer === null || typeof checksByServer !== 'object' || typeof checksByServer.entries !== 'function') {
    throw new ReliabilityInputError(
      'invalid-check',
      'checksByServer',
      `expected a Map, received ${describeValue(checksByServer)}`,
    );
  }
  const sorted = new Map<string, CheckAt[]>();
  for (const [server, checks] of checksByServer) {
    const list = checks.map((c, i) => ({
      atMs: instantOf(c?.at, `checks.${server}[${i}].at`, 'invalid-check'),
      view: {
        answering: assertBoolean(c.answering, `checks.${server}[${i}].answering`, 'invalid-check'),
        serverError: assertBoolean(c.serverError, `checks.${server}[${i}].serverError`, 'invalid-check'),
      },
    }));
    sorted.set(
      server,
      list.sort((a, b) => a.atMs - b.atMs),
    );
  }
  return sorted;
}

/** The newest check at or before `atMs` (binary search over checks sorted oldest first), or null. */
function newestCheckBy(checks: readonly CheckAt[], atMs: number): OwnCheckView | null {
  let low = 0;
  let high = checks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const check = checks[mid];
    // low <= mid < high <= checks.length, so every probe is inside the list.
    if (check === undefined) throw new Error(`newestCheckBy: no check at index ${mid} of ${checks.length}`);
    if (check.atMs <= atMs) low = mid + 1;
    else high = mid;
  }
  // Index -1 (no check at or before atMs) reads undefined, which is the null answer.
  return checks[low - 1]?.view ?? null;
}

/**
 * Tallies each reporter's (or sensor's) agreement with our checks over the 30 days before `now`.
 * Each report is compared with our newest check of its server at the time of the report: it agrees
 * when it matches whether that check saw the server answering, or when it names a failure our
 * handshake cannot see (any reason but `unreachable` and `timeout`; `server_error` only when that
 * check saw a server error too). An agreement adds 1, a disagreement 0.5. A report with no check
 * of ours before it, or outside the window, is not compared.
 *
 * @example
 * tallyAgreementRecords(
 *   [{ by: 'anon:a', server: 's', ok: false, reason: 'timeout', at: '2026-11-30T10:00:00Z' }],
 *   new Map([['s', [{ at: '2026-11-30T09:05:00Z', answering: true, serverError: false }]]]),
 *   new Date('2026-11-30T12:00:00Z'),
 * ); // Map { 'anon:a' => { agree: 0, disagree: 0.5, compared: 1 } }
 */
export function tallyAgreementRecords(
  subjects: readonly AgreementSubject[],
  checksByServer: ReadonlyMap<string, readonly TimedCheckView[]>,
  now: Date,
): Map<string, AgreementRecord> {
  const nowMs = instantOfDate(now, 'now');
  const oldestMs = nowMs - REPORT_WINDOW_DAYS * MS_PER_DAY;
  if (!Array.isArray(subjects))
    throw new ReliabilityInputError(
      'invalid-report',
      'subjects',
      `expected an array, received ${describeValue(subjects)}`,
    );
  const checks = sortedChecks(checksByServer);
  const values = new Map<string, Agreement[]>();
  subjects.forEach((subject, i) => {
    const field = `subjects[${i}]`;
    const by = assertText(subject?.by, `${field}.by`, 'invalid-report');
    const server = assertText(subject.server, `${field}.server`, 'invalid-report');
    const ok = assertBoolean(subject.ok, `${field}.ok`, 'invalid-report');
    const reason = assertOneOf(subject.reason, FAILURE_REASONS, `${field}.reason`, 'invalid-report');
    const atMs = instantOf(subject.at, `${field}.at`, 'invalid-report');
    if (atMs < oldestMs || atMs > nowMs) return;
    const check = newestCheckBy(checks.get(server) ?? [], atMs);
    if (check === null) return;
    const list = values.get(by) ?? [];
    list.push(reportAgreement({ ok, reason }, check));
    values.set(by, list);
  });
  const records = new Map<string, AgreementRecord>();
  for (const [by, list] of values) records.set(by, { ...tallyAgreement(list), compared: list.length });
  return records;
}
