/**
 * When a live incident is shown. Pure module: `now` is an argument.
 *
 * Reports from anonymous agents and sensors can be wrong or hostile, so they never open an
 * incident by themselves: one needs our own check or a paying reporter to confirm it, and then
 * two signals.
 */
import type { FailureReason } from './agreement.js';
import {
  FAILURE_REASONS,
  INCIDENT_MIN_REPORTERS,
  INCIDENT_MIN_REPORTERS_WITH_CHECK,
  INCIDENT_WINDOW_HOURS,
  MS_PER_HOUR,
  OWN_CHECK_KINDS,
  OWN_CHECK_OUTCOMES,
  REAL_CHECK_FAILURES,
} from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { assertBoolean, assertOneOf, assertText, instantOf, instantOfDate } from './validate.js';

/**
 * The result of one of our own checks, as the incident rule needs it: `answered` (handshake and
 * tool list worked), `timeout`, `no_connection`, `server_error` (HTTP 5xx), `broken_handshake` (a
 * JSON-RPC error on initialize, an answer that is not MCP, or no tool list after initialize),
 * `not_found` (404), `redirect`, `sign_in` (401, 402 or 403) or `client_error` (any other 4xx).
 */
export type OwnCheckOutcome = (typeof OWN_CHECK_OUTCOMES)[number];

/** The three kinds of our own check; any of them can confirm an incident. */
export type OwnCheckKind = (typeof OWN_CHECK_KINDS)[number];

/** One of our own checks. */
export interface IncidentCheck {
  kind: OwnCheckKind;
  at: Date | string;
  outcome: OwnCheckOutcome;
}

/** An agent's report as the incident rule reads it ({@link Report} fits). */
export interface IncidentReport {
  reporter: string;
  paid: boolean;
  ok: boolean;
  at: Date | string;
  reason?: FailureReason | null;
}

/** A sensor's outcome on this server as the incident rule reads it. */
export interface IncidentSensorOutcome {
  sensor: string;
  ok: boolean;
  at: Date | string;
  reason?: FailureReason | null;
}

/** Everything known about one server around `now`. */
export interface IncidentInput {
  reports?: readonly IncidentReport[];
  sensorOutcomes?: readonly IncidentSensorOutcome[];
  checks?: readonly IncidentCheck[];
  /** A call seen working somewhere the lists above do not cover. */
  lastWorkedAt?: Date | string | null;
  /** When a person closed the last incident after review; earlier failures no longer count. */
  closedAt?: Date | string | null;
}

/** Why an incident is or is not shown, with every input to the decision. */
export interface IncidentDecision {
  shown: boolean;
  /** Confirmed by our own check's real failure, a paying reporter, or both. */
  confirmed: boolean;
  confirmedBy: ('own_check' | 'paid_reporter')[];
  /** Our own check saw a real failure in the window (a timeout, no connection, 5xx, broken handshake). */
  ownCheckFailed: boolean;
  ownCheckSawServerError: boolean;
  /** Distinct agents with a counted failure, sorted. */
  failingReporters: string[];
  /** The paying ones among them, sorted. */
  paidFailingReporters: string[];
  /** Sensors whose newest outcome is a counted failure, sorted. */
  failingSensors: string[];
  /** The failing sensors that join the incident, sorted. */
  joinedSensors: string[];
  /** Agents and joined sensors: the reporters counted as signals. */
  signalReporters: number;
  /** The last call anyone saw work, ISO 8601, or null. */
  lastWorkedAt: string | null;
  /** The earliest counted failure of a shown incident, ISO 8601, or null. */
  since: string | null;
  /**
   * The next instant at which time alone changes this decision, ISO 8601, or null when nothing
   * counted can expire: the first millisecond after a counted failure or a confirming check leaves
   * the 2 hours, or the time of an item dated after `now`. Every instant before it gives this same
   * decision; decide again at it.
   */
  changesAt: string | null;
  /**
   * When a shown incident stops being shown if nothing new arrives (no failure, no call that works,
   * no closure), ISO 8601; null when it is not shown.
   */
  until: string | null;
  /** One sentence on the decision. */
  explanation: string;
}

const REAL_FAILURE_SET: ReadonlySet<string> = new Set(REAL_CHECK_FAILURES);

/**
 * True when one of our check results is a real failure that can confirm an incident: a timeout,
 * no connection, an HTTP 5xx or a broken MCP handshake. A 404, a redirect, a sign-in request or
 * another 4xx is not: the server is there.
 *
 * @example
 * isRealCheckFailure('server_error'); // true
 * isRealCheckFailure('not_found');    // false
 */
export function isRealCheckFailure(outcome: OwnCheckOutcome): boolean {
  return REAL_FAILURE_SET.has(outcome);
}

interface Timed {
  atMs: number;
}
interface CountedFailure extends Timed {
  key: string;
  paid: boolean;
  reason: FailureReason | null;
}

function asList<T>(value: readonly T[] | undefined, field: string): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new ReliabilityInputError('invalid-report', field, `expected an array, received ${describeValue(value)}`);
  }
  return value;
}

function optionalInstant(value: Date | string | null | undefined, field: string): number | null {
  return value === null || value === undefined ? null : instantOf(value, field);
}

function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Decides whether a live incident is shown for one server at `now`. A failure counts when it came
 * in the last 2 hours, after the last call anyone saw work (a report or sensor outcome that
 * worked, or `lastWorkedAt`; our own checks are not calls and never reset this) and after a person
 * last closed an incident; for a sensor, only its newest outcome counts. The incident is confirmed
 * by our own real check failure in the same 2 hours (hourly, five-minute or daily, after the last
 * closure; a call that worked since does not undo it) or by a paying reporter among the failing
 * ones, and is then shown with two signals: two distinct failing reporters, or one and our own
 * failed check. Failing sensors join a confirmed incident when our check confirms it (a sensor
 * reporting only `server_error` needs our check to have seen a server error) or when a paying
 * reporter gave one of its reasons (never `server_error`). Anonymous agents and sensors never open
 * one alone. An incident ends by itself once a call works or the 2 hours pass: `changesAt` says
 * when time alone next changes the decision (decide again then), and `until` when a shown incident
 * ends if nothing new arrives.
 *
 * @example
 * decideIncident({
 *   reports: [{ reporter: 'acct-1', paid: true, ok: false, at: '2025-06-01T11:30:00Z', reason: 'timeout' }],
 *   checks: [{ kind: 'five_minute', at: '2025-06-01T11:35:00Z', outcome: 'timeout' }],
 * }, new Date('2025-06-01T12:00:00Z')); // shown: true, changesAt: '2025-06-01T13:30:00.001Z', until: the same
 */
export function decideIncident(input: IncidentInput, now: Date): IncidentDecision {
  const nowMs = instantOfDate(now, 'now');
  const known = readIncidentInput(input);
  const judged = judgeAt(known, nowMs);
  const { changesAtMs, sinceMs, ...decision } = judged;
  return {
    ...decision,
    since: isoOrNull(sinceMs),
    changesAt: isoOrNull(changesAtMs),
    until: judged.shown ? isoOrNull(endOfShownIncident(known, judged)) : null,
  };
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The incident input read and checked once, so that it can be judged at several instants. */
interface ReadInput {
  reports: readonly ReportRead[];
  outcomes: readonly SensorRead[];
  checks: readonly CheckRead[];
  lastWorkedMs: number | null;
  closedMs: number | null;
}

function readIncidentInput(input: IncidentInput): ReadInput {
  return {
    closedMs: optionalInstant(input.closedAt, 'closedAt'),
    lastWorkedMs: optionalInstant(input.lastWorkedAt, 'lastWorkedAt'),
    reports: asList(input.reports, 'reports').map((r, i) => readReport(r, i)),
    outcomes: asList(input.sensorOutcomes, 'sensorOutcomes').map((o, i) => readSensorOutcome(o, i)),
    checks: asList(input.checks, 'checks').map((c, i) => readCheck(c, i)),
  };
}

/** The decision at one instant, with its times still in milliseconds. */
type Judgement = Omit<IncidentDecision, 'since' | 'changesAt' | 'until'> & {
  sinceMs: number | null;
  changesAtMs: number | null;
};

/**
 * A shown incident judged again at each next change until it is no longer shown: the instant it
 * ends if nothing new arrives, or null if it never does. Each step moves past at least one dated
 * item (the next change is always later than the instant judged), so the walk ends.
 */
function endOfShownIncident(input: ReadInput, shown: Judgement): number | null {
  let next = shown.changesAtMs;
  while (next !== null) {
    const later = judgeAt(input, next);
    if (!later.shown) return next;
    // Never true while judgeAt keeps its promise; it stops the walk rather than spin if that ever breaks.
    if (later.changesAtMs !== null && later.changesAtMs <= next) return null;
    next = later.changesAtMs;
  }
  return null;
}

function judgeAt(input: ReadInput, nowMs: number): Judgement {
  const windowMs = INCIDENT_WINDOW_HOURS * MS_PER_HOUR;
  const windowStart = nowMs - windowMs;
  const { reports, outcomes, checks, closedMs } = input;

  // Anything dated after `now` is not known yet at `now`.
  const known = <T extends Timed>(item: T): boolean => item.atMs <= nowMs;
  let lastWorkedMs = input.lastWorkedMs;
  const worked = (atMs: number): void => {
    if (atMs <= nowMs && (lastWorkedMs === null || atMs > lastWorkedMs)) lastWorkedMs = atMs;
  };
  // Only calls reset the window: agents' reports and sensor outcomes that worked. Our own checks
  // confirm a failure but are not calls, so one that answered never drops the failures before it.
  for (const r of reports) if (r.ok) worked(r.atMs);
  for (const o of outcomes) if (o.ok) worked(o.atMs);

  // In the window and after a person's closure: what any counted item needs.
  const inWindow = (atMs: number): boolean =>
    atMs >= windowStart && atMs <= nowMs && (closedMs === null || atMs > closedMs);
  // A failure of a call also needs to come after the last call that worked.
  const counts = (atMs: number): boolean => inWindow(atMs) && (lastWorkedMs === null || atMs > lastWorkedMs);

  const agentFailures: CountedFailure[] = reports
    .filter((r) => !r.ok && counts(r.atMs))
    .map((r) => ({ key: r.reporter, paid: r.paid, reason: r.reason, atMs: r.atMs }));
  // Our own failed check confirms within the same 2 hours, even when a call worked after it: the rule
  // asks for our check in the window, and a call that worked drops only the failures reported before it.
  const failedChecks = checks.filter((c) => isRealCheckFailure(c.outcome) && inWindow(c.atMs));
  const ownCheckFailed = failedChecks.length > 0;
  const ownCheckSawServerError = failedChecks.some((c) => c.outcome === 'server_error');

  // A sensor counts as failing only when its newest known outcome failed (and that one counts).
  const newestBySensor = new Map<string, SensorRead>();
  for (const o of outcomes.filter(known)) {
    const previous = newestBySensor.get(o.sensor);
    if (previous === undefined || o.atMs >= previous.atMs) newestBySensor.set(o.sensor, o);
  }
  const failingSensorIds = [...newestBySensor.values()].filter((o) => !o.ok && counts(o.atMs)).map((o) => o.sensor);
  const failingSensorSet = new Set(failingSensorIds);
  const sensorReasons = new Map<string, Set<FailureReason | null>>();
  for (const o of outcomes) {
    if (o.ok || !counts(o.atMs) || !failingSensorSet.has(o.sensor)) continue;
    const set = sensorReasons.get(o.sensor) ?? new Set<FailureReason | null>();
    set.add(o.reason);
    sensorReasons.set(o.sensor, set);
  }

  const paidFailures = agentFailures.filter((f) => f.paid);
  const confirmedBy: ('own_check' | 'paid_reporter')[] = [];
  if (ownCheckFailed) confirmedBy.push('own_check');
  if (paidFailures.length > 0) confirmedBy.push('paid_reporter');
  const confirmed = confirmedBy.length > 0;

  const paidReasons = new Set<FailureReason>();
  for (const f of paidFailures) if (f.reason !== null && f.reason !== 'server_error') paidReasons.add(f.reason);
  const joinedSensors = confirmed
    ? failingSensorIds.filter((sensor) => {
        const reasons = sensorReasons.get(sensor) ?? new Set();
        const onlyServerError = reasons.size === 1 && reasons.has('server_error');
        const byCheck = ownCheckFailed && (!onlyServerError || ownCheckSawServerError);
        const byPaid = [...reasons].some((r) => r !== null && paidReasons.has(r));
        return byCheck || byPaid;
      })
    : [];

  const failingReporters = sortedUnique(agentFailures.map((f) => f.key));
  const signalReporters = failingReporters.length + joinedSensors.length;
  const twoSignals =
    signalReporters >= INCIDENT_MIN_REPORTERS ||
    (ownCheckFailed && signalReporters >= INCIDENT_MIN_REPORTERS_WITH_CHECK);
  const shown = confirmed && twoSignals;
  const joinedSet = new Set(joinedSensors);
  // The incident's failures run from the earliest counted one; a check before the last call that worked
  // still confirms, but the failures shown start after that call.
  let firstFailure = Number.POSITIVE_INFINITY;
  for (const f of agentFailures) firstFailure = Math.min(firstFailure, f.atMs);
  for (const c of failedChecks) if (counts(c.atMs)) firstFailure = Math.min(firstFailure, c.atMs);
  for (const o of outcomes)
    if (!o.ok && counts(o.atMs) && joinedSet.has(o.sensor)) firstFailure = Math.min(firstFailure, o.atMs);

  // Time alone changes this decision only when a counted item leaves the window (the first millisecond
  // past its 2 hours) or when an item dated after `now` becomes known; between those, every instant
  // gives the same answer.
  let changesAtMs = Number.POSITIVE_INFINITY;
  const leaves = (atMs: number): void => {
    changesAtMs = Math.min(changesAtMs, atMs + windowMs + 1);
  };
  const arrives = (atMs: number): void => {
    if (atMs > nowMs) changesAtMs = Math.min(changesAtMs, atMs);
  };
  for (const f of agentFailures) leaves(f.atMs);
  for (const c of failedChecks) leaves(c.atMs);
  for (const o of outcomes) if (!o.ok && counts(o.atMs)) leaves(o.atMs);
  for (const r of reports) arrives(r.atMs);
  for (const o of outcomes) arrives(o.atMs);
  for (const c of checks) if (isRealCheckFailure(c.outcome)) arrives(c.atMs);

  return {
    shown,
    confirmed,
    confirmedBy,
    ownCheckFailed,
    ownCheckSawServerError,
    failingReporters,
    paidFailingReporters: sortedUnique(paidFailures.map((f) => f.key)),
    failingSensors: sortedUnique(failingSensorIds),
    joinedSensors: sortedUnique(joinedSensors),
    signalReporters,
    lastWorkedAt: lastWorkedMs === null ? null : new Date(lastWorkedMs).toISOString(),
    sinceMs: shown && Number.isFinite(firstFailure) ? firstFailure : null,
    changesAtMs: Number.isFinite(changesAtMs) ? changesAtMs : null,
    explanation: explain({
      shown,
      confirmed,
      ownCheckFailed,
      signalReporters,
      failing: failingReporters.length + failingSensorIds.length,
    }),
  };
}

function explain(d: {
  shown: boolean;
  confirmed: boolean;
  ownCheckFailed: boolean;
  signalReporters: number;
  failing: number;
}): string {
  if (d.shown) {
    return d.ownCheckFailed
      ? `shown: confirmed, with ${d.signalReporters} failing reporter(s) and our own failed check`
      : `shown: confirmed by a paying reporter, with ${d.signalReporters} failing reporters`;
  }
  if (!d.confirmed) {
    return d.failing === 0
      ? 'not shown: no failure counts in the last 2 hours'
      : 'not shown: unconfirmed (no real failure of our own check and no paying reporter); the failures only lower the internal rating';
  }
  return d.ownCheckFailed
    ? 'not shown: confirmed by our own check, but no failing reporter joins it'
    : 'not shown: confirmed by a paying reporter, but a second signal is missing';
}

interface ReportRead extends Timed {
  reporter: string;
  paid: boolean;
  ok: boolean;
  reason: FailureReason | null;
}
interface SensorRead extends Timed {
  sensor: string;
  ok: boolean;
  reason: FailureReason | null;
}
interface CheckRead extends Timed {
  outcome: OwnCheckOutcome;
}

function readReport(r: IncidentReport, i: number): ReportRead {
  const field = `reports[${i}]`;
  return {
    reporter: assertText(r?.reporter, `${field}.reporter`, 'invalid-report'),
    paid: assertBoolean(r.paid, `${field}.paid`, 'invalid-report'),
    ok: assertBoolean(r.ok, `${field}.ok`, 'invalid-report'),
    reason: assertOneOf(r.reason, FAILURE_REASONS, `${field}.reason`, 'invalid-report'),
    atMs: instantOf(r.at, `${field}.at`, 'invalid-report'),
  };
}

function readSensorOutcome(o: IncidentSensorOutcome, i: number): SensorRead {
  const field = `sensorOutcomes[${i}]`;
  return {
    sensor: assertText(o?.sensor, `${field}.sensor`, 'invalid-sensor-entry'),
    ok: assertBoolean(o.ok, `${field}.ok`, 'invalid-sensor-entry'),
    reason: assertOneOf(o.reason, FAILURE_REASONS, `${field}.reason`, 'invalid-sensor-entry'),
    atMs: instantOf(o.at, `${field}.at`, 'invalid-sensor-entry'),
  };
}

function readCheck(c: IncidentCheck, i: number): CheckRead {
  const field = `checks[${i}]`;
  if (c === null || typeof c !== 'object') {
    throw new ReliabilityInputError('invalid-check', field, `expected a check object, received ${describeValue(c)}`);
  }
  if (assertOneOf(c.kind, OWN_CHECK_KINDS, `${field}.kind`, 'invalid-check') === null) {
    throw new ReliabilityInputError('invalid-check', `${field}.kind`, `expected one of ${OWN_CHECK_KINDS.join(', ')}`);
  }
  const outcome = assertOneOf(c.outcome, OWN_CHECK_OUTCOMES, `${field}.outcome`, 'invalid-check');
  if (outcome === null) {
    throw new ReliabilityInputError(
      'invalid-check',
      `${field}.outcome`,
      `expected one of ${OWN_CHECK_OUTCOMES.join(', ')}`,
    );
  }
  return { outcome, atMs: instantOf(c.at, `${field}.at`, 'invalid-check') };
}
