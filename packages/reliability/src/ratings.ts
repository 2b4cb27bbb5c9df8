/**
 * Ratings from agents' reports and gateway sensors: decay, speed, stars, and the rating of one
 * server. Pure module: `now` is an argument.
 */
import {
  type Agreement,
  type AgreementTally,
  agreeIncrement,
  computeAgreementFactor,
  disagreeIncrement,
  type FailureReason,
  reporterBaseWeight,
  sensorWeight,
} from './agreement.js';
import {
  ACCURACY_WITHOUT_ANSWERS,
  FAILURE_REASONS,
  MS_PER_DAY,
  NOT_ENOUGH_REPORTS_LABEL,
  RECENT_REPORTS_SAMPLE,
  REPORT_HALF_LIFE_DAYS,
  REPORT_WINDOW_DAYS,
  REPORTS_PER_REPORTER_PER_SERVER_PER_DAY,
  SPEED_FULL_MS,
  SPEED_SPAN_MS,
  SPEED_WITHOUT_TIMES,
  STAR_FLOOR,
  STAR_SPAN,
  STAR_WEIGHTS,
  SURPRISES,
  VISIBLE_MIN_PAID_WEIGHT,
  VISIBLE_MIN_REPORTERS,
} from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import {
  assertBoolean,
  assertCount,
  assertNonNegative,
  assertOneOf,
  assertShare,
  assertText,
  instantOf,
  instantOfDate,
  parseInstant,
  startOfDay,
} from './validate.js';

/** One of the four surprises a report may name. */
export type Surprise = (typeof SURPRISES)[number];

/** An agent's report about one call to one server. Fixed fields only, no free text. */
export interface Report {
  /** Reporter identity: a paying account, or {@link reporterKey} of an anonymous caller's address. */
  reporter: string;
  /** Sent with a call that was charged or under a license that validated as active. */
  paid: boolean;
  /** The call worked. */
  ok: boolean;
  /** When the report arrived: a Date or an ISO 8601 time with offset. */
  at: Date | string;
  /** Milliseconds the call took. */
  ms?: number;
  reason?: FailureReason | null;
  /** The result matched the tool's description. */
  matchedDescription?: boolean;
  surprise?: Surprise | null;
  resultTokens?: number;
  charged?: number;
  toolsHash?: string;
  /** How this report compared with our newest check (see {@link reportAgreement}). */
  agrees?: Agreement | null;
}

/** A gateway sensor's outcomes for one server on one UTC day, reduced to one entry. */
export interface SensorDayEntry {
  sensor: string;
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Calls that worked. */
  worked: number;
  /** Calls seen; at least 1. */
  calls: number;
}

/** Tallies keyed by reporter or sensor id, as a Map or a plain object. */
export type TallyLookup = ReadonlyMap<string, AgreementTally> | Readonly<Record<string, AgreementTally>>;

/** Options of {@link rateServer}. */
export interface RateOptions {
  /** The server's sensor entries (one per sensor and day). */
  sensors?: readonly SensorDayEntry[];
  /**
   * Each reporter's agreement tally across all servers (its reporter record). A reporter missing
   * here is tallied from the `agrees` fields of its reports passed in.
   */
  reporterAgreement?: TallyLookup;
  /** Each sensor's agreement tally; a sensor missing here counts as new (no agreements yet). */
  sensorAgreement?: TallyLookup;
}

/** The rating of one server, internal figures and whether they may be shown. */
export interface Rating {
  /** sum(weight x decay x ok) / sum(weight x decay) over the last 30 days; null with no weight. */
  reliability: number | null;
  /** Share of the newest 30 reports that say the result matched the description, of those that say. */
  accuracy: number;
  /** How many of the newest 30 reports said whether the result matched (0 means the default was used). */
  accuracyAnswers: number;
  /** Share of the newest 30 reports that name a surprise. */
  surpriseShare: number;
  /** Median milliseconds of the newest 30 reports that carry a time, or null. */
  medianMs: number | null;
  speed: number;
  /** 1 to 5; null when reliability is null. Internal until `visible`. */
  stars: number | null;
  /** Distinct reporters in the window; each sensor counts as one. */
  reporters: number;
  /** Decayed weight from paying reporters in the window. */
  paidWeight: number;
  /** Decayed weight of every report and sensor entry in the window. */
  totalWeight: number;
  /** Reports inside the window after the per-server daily cap. */
  reportsCounted: number;
  /** Sensor entries inside the window. */
  sensorEntriesCounted: number;
  /** Stars and reliability may be shown: 3 distinct reporters and paid weight of at least 1.0. */
  visible: boolean;
}

/** What a public page shows of a rating. */
export type PublicRating = { shown: true; stars: number; reliability: number } | { shown: false; label: string };

/**
 * How much a report of a given age counts: 0.5 ^ (age / 7 days), and 0 once it is older than
 * 30 days. Throws on a negative or non-finite age.
 *
 * @example
 * reportDecay(0);  // 1
 * reportDecay(7);  // 0.5
 * reportDecay(30); // 0.0513...
 * reportDecay(30.001); // 0
 */
export function reportDecay(ageDays: number): number {
  assertNonNegative(ageDays, 'ageDays');
  return ageDays > REPORT_WINDOW_DAYS ? 0 : 0.5 ** (ageDays / REPORT_HALF_LIFE_DAYS);
}

/**
 * Speed from the median call time: clamp(1 - (ms - 500) / 5000, 0, 1); 0.7 when no report
 * carries a time (null).
 *
 * @example
 * speedScore(500);  // 1
 * speedScore(3000); // 0.5
 * speedScore(null); // 0.7
 */
export function speedScore(medianMs: number | null): number {
  if (medianMs === null) return SPEED_WITHOUT_TIMES;
  assertNonNegative(medianMs, 'medianMs');
  return Math.min(1, Math.max(0, 1 - (medianMs - SPEED_FULL_MS) / SPEED_SPAN_MS));
}

/**
 * Stars from 1 to 5: 1 + 4 x (0.45 reliability + 0.2 accuracy + 0.2 (1 - surprise share)
 * + 0.15 speed). Each part must be a number from 0 to 1.
 *
 * @example
 * starsFor({ reliability: 1, accuracy: 1, surpriseShare: 0, speed: 1 }); // 5
 * starsFor({ reliability: 0.5, accuracy: 0.5, surpriseShare: 0.5, speed: 0.5 }); // 3
 */
export function starsFor(p: { reliability: number; accuracy: number; surpriseShare: number; speed: number }): number {
  const blend =
    STAR_WEIGHTS.reliability * assertShare(p.reliability, 'reliability') +
    STAR_WEIGHTS.accuracy * assertShare(p.accuracy, 'accuracy') +
    STAR_WEIGHTS.noSurprise * (1 - assertShare(p.surpriseShare, 'surpriseShare')) +
    STAR_WEIGHTS.speed * assertShare(p.speed, 'speed');
  return STAR_FLOOR + STAR_SPAN * blend;
}

/**
 * Whether a rating may be shown publicly: at least 3 distinct reporters (sensors included) and a
 * decayed weight of at least 1.0 from paying reporters.
 *
 * @example
 * isRatingVisible(3, 1.0);   // true
 * isRatingVisible(2, 5);     // false
 */
export function isRatingVisible(reporters: number, paidWeight: number): boolean {
  assertCount(reporters, 'reporters');
  assertNonNegative(paidWeight, 'paidWeight');
  return reporters >= VISIBLE_MIN_REPORTERS && paidWeight >= VISIBLE_MIN_PAID_WEIGHT;
}

/**
 * What a public page shows: stars and reliability once the rating is visible, otherwise the label
 * `not enough reports`.
 *
 * @example
 * describePublicRating(rateServer([], now)); // { shown: false, label: 'not enough reports' }
 */
export function describePublicRating(rating: Rating): PublicRating {
  if (rating.visible && rating.stars !== null && rating.reliability !== null) {
    return { shown: true, stars: rating.stars, reliability: rating.reliability };
  }
  return { shown: false, label: NOT_ENOUGH_REPORTS_LABEL };
}

/**
 * The median of a list of finite numbers, as the methodology reads it for a rating's time: the middle value of
 * the sorted list, or the mean of the two middle values for an even count. The list is not changed. An empty list
 * has no median: that, or a value that is not a finite number, is a caller's mistake and throws
 * ReliabilityInputError (`invalid-number`).
 *
 * @example median([9, 1, 5]); // 5
 * @example median([4, 1, 3, 2]); // 2.5
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) {
    throw new ReliabilityInputError('invalid-number', 'values', 'expected at least one number, received an empty list');
  }
  values.forEach((value, index) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new ReliabilityInputError(
        'invalid-number',
        `values[${index}]`,
        `expected a finite number, received ${describeValue(value)}`,
      );
    }
  });
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function lookupTally(lookup: TallyLookup | undefined, key: string): AgreementTally | undefined {
  if (lookup === undefined) return undefined;
  if (lookup instanceof Map) return lookup.get(key);
  const record = lookup as Readonly<Record<string, AgreementTally>>;
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

const REASON_SET: ReadonlySet<unknown> = new Set(FAILURE_REASONS);
const SURPRISE_SET: ReadonlySet<unknown> = new Set(SURPRISES);

function isPresent<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

// Rating runs over every report of every server each day, so the checks run inline and the field
// name for an error message is only built on the failing path (each assert there throws).
function checkReport(report: Report, index: number): number {
  const field = (name: string): string => `reports[${index}]${name === '' ? '' : `.${name}`}`;
  if (report === null || typeof report !== 'object') {
    throw new ReliabilityInputError(
      'invalid-report',
      field(''),
      `expected a report object, received ${describeValue(report)}`,
    );
  }
  const { reporter, paid, ok, ms, matchedDescription, reason, surprise, agrees } = report;
  if (typeof reporter !== 'string' || reporter === '') assertText(reporter, field('reporter'), 'invalid-report');
  if (typeof paid !== 'boolean') assertBoolean(paid, field('paid'), 'invalid-report');
  if (typeof ok !== 'boolean') assertBoolean(ok, field('ok'), 'invalid-report');
  const atMs = parseInstant(report.at);
  if (Number.isNaN(atMs)) instantOf(report.at, field('at'), 'invalid-report');
  if (isPresent(ms) && !(typeof ms === 'number' && ms >= 0 && ms < Number.POSITIVE_INFINITY)) {
    assertNonNegative(ms, field('ms'), 'invalid-report');
  }
  if (isPresent(matchedDescription) && typeof matchedDescription !== 'boolean') {
    assertBoolean(matchedDescription, field('matchedDescription'), 'invalid-report');
  }
  if (isPresent(reason) && !REASON_SET.has(reason))
    assertOneOf(reason, FAILURE_REASONS, field('reason'), 'invalid-report');
  if (isPresent(surprise) && !SURPRISE_SET.has(surprise))
    assertOneOf(surprise, SURPRISES, field('surprise'), 'invalid-report');
  if (isPresent(agrees) && typeof agrees !== 'boolean' && agrees !== 'half') {
    throw new ReliabilityInputError(
      'invalid-report',
      field('agrees'),
      `expected true, false, 'half' or null, received ${describeValue(agrees)}`,
    );
  }
  return atMs;
}

/**
 * What rateServer derives from each report, kept in parallel arrays (index = position in the
 * input) rather than one object per report: a daily run rates every server, and the garbage
 * collector was the largest cost of the object-per-report version.
 */
interface ReportColumns {
  atMs: number[];
  /** Small integer id of each report's reporter. */
  reporterIds: number[];
  /** Reporter key of each id. */
  reporterKeys: string[];
  /** Reports per reporter id. */
  perReporter: number[];
}

function readReports(reports: readonly Report[]): ReportColumns {
  const count = reports.length;
  const atMs: number[] = new Array<number>(count);
  const reporterIds: number[] = new Array<number>(count);
  const reporterKeys: string[] = [];
  const perReporter: number[] = [];
  const idOf = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const report = reports[i] as Report;
    atMs[i] = checkReport(report, i);
    let id = idOf.get(report.reporter);
    if (id === undefined) {
      id = reporterKeys.length;
      idOf.set(report.reporter, id);
      reporterKeys.push(report.reporter);
      perReporter.push(0);
    }
    reporterIds[i] = id;
    perReporter[id] = (perReporter[id] as number) + 1;
  }
  return { atMs, reporterIds, reporterKeys, perReporter };
}

/**
 * The intake allows 3 reports a day per reporter about one server; the rating applies the same
 * cap so that reports stored before a limit change, or imported in bulk, cannot outweigh the rule.
 * Returns null when nothing is over the cap, else a mask of the kept reports (the earliest 3 of
 * each reporter's UTC day; input order breaks ties). Only reporters with more than 3 reports in
 * all can be over the cap, so only theirs are sorted.
 */
function keptByDailyCap(columns: ReportColumns): Uint8Array | null {
  const { atMs, reporterIds, perReporter } = columns;
  const cap = REPORTS_PER_REPORTER_PER_SERVER_PER_DAY;
  if (!perReporter.some((count) => count > cap)) return null;
  const heavy = new Map<number, number[]>();
  for (let i = 0; i < atMs.length; i++) {
    const id = reporterIds[i] as number;
    if ((perReporter[id] as number) <= cap) continue;
    const list = heavy.get(id);
    if (list === undefined) heavy.set(id, [i]);
    else list.push(i);
  }
  let kept: Uint8Array | null = null;
  for (const indices of heavy.values()) {
    indices.sort((a, b) => (atMs[a] as number) - (atMs[b] as number) || a - b);
    let day = Number.NaN;
    let sameDay = 0;
    for (const i of indices) {
      const d = Math.floor((atMs[i] as number) / MS_PER_DAY);
      sameDay = d === day ? sameDay + 1 : 1;
      day = d;
      if (sameDay <= cap) continue;
      kept ??= new Uint8Array(atMs.length).fill(1);
      kept[i] = 0;
    }
  }
  return kept;
}

/**
 * The agreement factor of each reporter id: from its record in `lookup` when there is one,
 * otherwise tallied from the `agrees` fields of its kept reports.
 */
function agreementFactors(
  reports: readonly Report[],
  columns: ReportColumns,
  kept: Uint8Array | null,
  lookup: TallyLookup | undefined,
): number[] {
  const { reporterIds, reporterKeys } = columns;
  const records = reporterKeys.map((key) => lookupTally(lookup, key));
  const agree: number[] = new Array<number>(reporterKeys.length).fill(0);
  const disagree: number[] = new Array<number>(reporterKeys.length).fill(0);
  for (let i = 0; i < reports.length; i++) {
    const id = reporterIds[i] as number;
    if (records[id] !== undefined || (kept !== null && kept[i] === 0)) continue;
    const agrees = (reports[i] as Report).agrees;
    agree[id] = (agree[id] as number) + agreeIncrement(agrees);
    disagree[id] = (disagree[id] as number) + disagreeIncrement(agrees);
  }
  return records.map((record, id) =>
    computeAgreementFactor(record ?? { agree: agree[id] as number, disagree: disagree[id] as number }),
  );
}

interface SensorContribution {
  reporters: Set<string>;
  weight: number;
  worked: number;
  counted: number;
}

function sensorContribution(
  entries: readonly SensorDayEntry[],
  nowMs: number,
  lookup: TallyLookup | undefined,
): SensorContribution {
  const seen = new Set<string>();
  const result: SensorContribution = { reporters: new Set(), weight: 0, worked: 0, counted: 0 };
  entries.forEach((entry, index) => {
    const field = `sensors[${index}]`;
    const sensor = assertText(entry?.sensor, `${field}.sensor`, 'invalid-sensor-entry');
    const dayMs = startOfDay(entry.day, `${field}.day`, 'invalid-sensor-entry');
    const calls = assertCount(entry.calls, `${field}.calls`, 'invalid-sensor-entry');
    const worked = assertCount(entry.worked, `${field}.worked`, 'invalid-sensor-entry');
    if (calls < 1 || worked > calls) {
      throw new ReliabilityInputError(
        'invalid-sensor-entry',
        field,
        `expected 0 <= worked <= calls and calls >= 1, received ${worked} of ${calls}`,
      );
    }
    const key = `${sensor}\u0000${entry.day}`;
    if (seen.has(key)) {
      throw new ReliabilityInputError(
        'duplicate-sensor-entry',
        field,
        `sensor ${describeValue(sensor)} has more than one entry for ${entry.day}`,
      );
    }
    seen.add(key);
    // A day entry is as old as the start of its day: the earliest moment any of its calls happened.
    const ageDays = (nowMs - dayMs) / MS_PER_DAY;
    if (ageDays < 0 || ageDays > REPORT_WINDOW_DAYS) return;
    const weight = sensorWeight(lookupTally(lookup, sensor) ?? { agree: 0, disagree: 0 }) * reportDecay(ageDays);
    result.weight += weight;
    result.worked += (weight * worked) / calls;
    result.counted++;
    result.reporters.add(sensor);
  });
  return result;
}

interface RecentFigures {
  accuracy: number;
  accuracyAnswers: number;
  surpriseShare: number;
  medianMs: number | null;
}

/**
 * The newest `size` of the given report indices (a later time first; on equal times the one later
 * in the input). A small insertion buffer instead of a full sort: one server may have 100,000
 * reports, of which only 30 are wanted.
 */
function newestIndices(indices: readonly number[], atMs: readonly number[], size: number): number[] {
  const newest: number[] = [];
  const newer = (a: number, b: number): boolean =>
    (atMs[a] as number) > (atMs[b] as number) || (atMs[a] === atMs[b] && a > b);
  for (const i of indices) {
    if (newest.length === size && !newer(i, newest[size - 1] as number)) continue;
    let at = newest.length === size ? size - 1 : newest.length;
    while (at > 0 && newer(i, newest[at - 1] as number)) {
      newest[at] = newest[at - 1] as number;
      at--;
    }
    newest[at] = i;
  }
  return newest;
}

function recentFigures(reports: readonly Report[], windowed: number[], atMs: readonly number[]): RecentFigures {
  // The figures do not depend on order, so a sample that already fits needs no selection.
  const recent =
    windowed.length <= RECENT_REPORTS_SAMPLE ? windowed : newestIndices(windowed, atMs, RECENT_REPORTS_SAMPLE);
  let matched = 0;
  let answers = 0;
  let surprises = 0;
  const times: number[] = [];
  for (const i of recent) {
    const report = reports[i] as Report;
    if (isPresent(report.matchedDescription)) {
      answers++;
      if (report.matchedDescription) matched++;
    }
    if (isPresent(report.surprise)) surprises++;
    if (isPresent(report.ms)) times.push(report.ms);
  }
  return {
    accuracy: answers === 0 ? ACCURACY_WITHOUT_ANSWERS : matched / answers,
    accuracyAnswers: answers,
    surpriseShare: recent.length === 0 ? 0 : surprises / recent.length,
    medianMs: times.length === 0 ? null : median(times),
  };
}

/**
 * Rates one server from agents' reports (and, optionally, gateway sensor entries) as of `now`.
 * Reports from the last 30 days count, each weighted by {@link reporterWeight} and
 * {@link reportDecay}; reports dated after `now` do not count, and at most 3 reports per reporter
 * per UTC day count. Reliability is the weighted share that worked; accuracy, surprise share and
 * speed read the newest 30 reports; stars combine them. `visible` tells whether stars may be shown
 * (3 distinct reporters and decayed paid weight >= 1.0). Unconfirmed failures lower this internal
 * rating even while it is not visible.
 *
 * @example
 * const rating = rateServer(reports, new Date('2025-06-01T12:00:00Z'));
 * if (rating.visible) console.log(rating.stars?.toFixed(1));
 */
export function rateServer(reports: readonly Report[], now: Date, options: RateOptions = {}): Rating {
  const nowMs = instantOfDate(now, 'now');
  if (!Array.isArray(reports)) {
    throw new ReliabilityInputError(
      'invalid-report',
      'reports',
      `expected an array, received ${describeValue(reports)}`,
    );
  }
  const columns = readReports(reports);
  const kept = keptByDailyCap(columns);
  const factors = agreementFactors(reports, columns, kept, options.reporterAgreement);
  const seen: boolean[] = new Array<boolean>(columns.reporterKeys.length).fill(false);
  const windowed: number[] = [];
  let reporterCount = 0;
  let weightSum = 0;
  let okSum = 0;
  let paidWeight = 0;
  for (let i = 0; i < reports.length; i++) {
    if (kept !== null && kept[i] === 0) continue;
    const ageDays = (nowMs - (columns.atMs[i] as number)) / MS_PER_DAY;
    if (ageDays < 0 || ageDays > REPORT_WINDOW_DAYS) continue;
    const report = reports[i] as Report;
    const id = columns.reporterIds[i] as number;
    const weight = reporterBaseWeight(report.paid) * (factors[id] as number) * reportDecay(ageDays);
    weightSum += weight;
    if (report.ok) okSum += weight;
    if (report.paid) paidWeight += weight;
    if (!seen[id]) {
      seen[id] = true;
      reporterCount++;
    }
    windowed.push(i);
  }
  const reportsCounted = windowed.length;
  const sensors = sensorContribution(options.sensors ?? [], nowMs, options.sensorAgreement);
  const totalWeight = weightSum + sensors.weight;
  // Clamped because float sums in a different order can land a hair above 1.
  const reliability = totalWeight > 0 ? Math.min(1, (okSum + sensors.worked) / totalWeight) : null;
  const recent = recentFigures(reports, windowed, columns.atMs);
  const speed = speedScore(recent.medianMs);
  // Sensor ids and reporter keys are separate namespaces: a sensor always counts as its own reporter.
  const reporters = reporterCount + sensors.reporters.size;
  return {
    reliability,
    accuracy: recent.accuracy,
    accuracyAnswers: recent.accuracyAnswers,
    surpriseShare: recent.surpriseShare,
    medianMs: recent.medianMs,
    speed,
    stars:
      reliability === null
        ? null
        : starsFor({ reliability, accuracy: recent.accuracy, surpriseShare: recent.surpriseShare, speed }),
    reporters,
    paidWeight,
    totalWeight,
    reportsCounted,
    sensorEntriesCounted: sensors.counted,
    visible: reliability !== null && isRatingVisible(reporters, paidWeight),
  };
}
