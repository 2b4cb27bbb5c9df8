/**
 * Servers submitted by their owners: the observation windows, when each check is due, and the decision at
 * the end of a window (join the map, one more window, or refused). Pure module: `now` is an argument and
 * every instant comes from the caller.
 *
 * A submitted server is checked every 6 hours for 7 days. It joins the map with at least 20 checks, at
 * least 90% of them answered with tools, at most one change of its tool list and every tool described.
 * A window with 70% to under 90% answered gets one more 7-day window, once.
 */

import { MS_PER_DAY } from '@mcp-atlas/base';
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { assertBoolean, assertCount, describeValue, instantOf } from './validate.js';

const MS_PER_HOUR = 3_600_000;

/** Hours between two checks of a submitted server; checks sit on this grid from the submission time. */
export const SUBMISSION_CHECK_INTERVAL_HOURS = 6;

/** Days one observation window lasts; the decision is due when it ends. */
export const SUBMISSION_WINDOW_DAYS = 7;

/** Checks a window needs before its server may join the map (28 fit in a full window). */
export const SUBMISSION_MIN_CHECKS = 20;

/** Percent of a window's checks that must have answered with tools to join the map. */
export const SUBMISSION_ADMIT_PERCENT = 90;

/** Percent from which (up to SUBMISSION_ADMIT_PERCENT) a window earns one more window instead of a refusal. */
export const SUBMISSION_EXTEND_PERCENT = 70;

/** Changes of the tool list a window may show and still join the map. */
export const SUBMISSION_MAX_TOOL_LIST_CHANGES = 1;

/** Extra observation windows a submission may get, in all. */
export const SUBMISSION_MAX_EXTENSIONS = 1;

/**
 * Finished earlier attempts of the same URL kept on its submission record (the newest ones). Our choice:
 * the source rules give no number; ten shows a pattern of resubmissions without letting a record grow
 * without bound.
 */
export const SUBMISSION_EARLIER_ATTEMPTS_KEPT = 10;

/** One check of a submitted server, as the decision reads it. */
export interface SubmissionCheck {
  /** When the check ran: a Date or an ISO 8601 time with offset. */
  at: Date | string;
  /** initialize and tools/list both returned a result (an empty list included): the letter `o`. */
  answeredWithTools: boolean;
  /** The tool-list hash when tools were listed, else null. */
  toolsHash: string | null;
  /** Every listed tool had a description (true for an empty list); not read when the check did not answer. */
  allToolsDescribed: boolean;
}

/** A submission as the decision reads it: when it came, the extra windows granted so far, and its checks. */
export interface Submission {
  submittedAt: Date | string;
  /** Extra windows granted so far: 0, or at most SUBMISSION_MAX_EXTENSIONS. */
  extensions: number;
  checks: readonly SubmissionCheck[];
}

/** One observation window: `index` 0 is the first week, 1 the extra one. `end` is exclusive. */
export interface ObservationWindow {
  index: number;
  start: string;
  end: string;
}

/** What one window saw: the counts its decision reads. */
export interface ObservationFigures {
  /** Checks that ran in the window. */
  checks: number;
  /** Of those, checks that answered with tools. */
  answered: number;
  /** Times the tool-list hash differed from the one listed before it (the last one before the window included). */
  toolListChanges: number;
  /** Answered checks whose list held a tool without a description. */
  undescribedChecks: number;
  /** Extra windows granted before this one. */
  extensions: number;
}

/** The four conditions of joining the map. */
export type SubmissionConditionId = 'checks' | 'answered' | 'tool_list' | 'descriptions';

/** One condition, whether it held, and the sentence that says so with its figures. */
export interface SubmissionCondition {
  id: SubmissionConditionId;
  met: boolean;
  text: string;
}

/** How a window ended. */
export type SubmissionVerdict = 'admitted' | 'extended' | 'refused';

/** The decision at the end of a window, with the sentences that decided it and every figure read. */
export interface ObservationDecision {
  verdict: SubmissionVerdict;
  /** Why, in plain sentences: the conditions that failed (or, when admitted, that all held). */
  reasons: string[];
  conditions: SubmissionCondition[];
  figures: ObservationFigures & {
    /** Share answered in percent, truncated to one decimal (so 89.99 reads 89.9, never 90.0); null with no checks. */
    answeredPercent: number | null;
  };
}

/** Where a submission stands at `now`. */
export interface SubmissionReview {
  window: ObservationWindow;
  /** What the window saw so far. */
  figures: ObservationFigures;
  /** When the next check is due, or null when the window has no check slot left. */
  nextCheckAt: string | null;
  /** True when a check is due now (its slot has come and the window is still open). */
  checkDue: boolean;
  /** The decision, once the window is over; null while it runs. */
  decision: ObservationDecision | null;
}

const INTERVAL_MS = SUBMISSION_CHECK_INTERVAL_HOURS * MS_PER_HOUR;
const WINDOW_MS = SUBMISSION_WINDOW_DAYS * MS_PER_DAY;

interface CheckedSubmission {
  startMs: number;
  extensions: number;
  /** Checks in time order, with their instants. */
  checks: { ms: number; answered: boolean; hash: string | null; described: boolean }[];
}

function readSubmission(submission: Submission): CheckedSubmission {
  if (typeof submission !== 'object' || submission === null) {
    throw new ReliabilityInputError(
      'invalid-check',
      'submission',
      `expected an object, received ${describeValue(submission)}`,
    );
  }
  const startMs = instantOf(submission.submittedAt, 'submission.submittedAt');
  const extensions = assertCount(submission.extensions, 'submission.extensions');
  if (extensions > SUBMISSION_MAX_EXTENSIONS) {
    throw new ReliabilityInputError(
      'invalid-number',
      'submission.extensions',
      `expected at most ${SUBMISSION_MAX_EXTENSIONS}, received ${extensions}`,
    );
  }
  if (!Array.isArray(submission.checks)) {
    throw new ReliabilityInputError(
      'invalid-check',
      'submission.checks',
      `expected an array, received ${describeValue(submission.checks)}`,
    );
  }
  const checks = submission.checks.map((check: SubmissionCheck, i: number) => {
    const field = `submission.checks[${i}]`;
    if (typeof check !== 'object' || check === null) {
      throw new ReliabilityInputError('invalid-check', field, `expected an object, received ${describeValue(check)}`);
    }
    const answered = assertBoolean(check.answeredWithTools, `${field}.answeredWithTools`, 'invalid-check');
    const hash = check.toolsHash;
    if (
      answered ? typeof hash !== 'string' || hash === '' : hash !== null && (typeof hash !== 'string' || hash === '')
    ) {
      const expected = answered
        ? 'the non-empty tool-list hash of a check that answered with tools'
        : 'a non-empty string or null';
      throw new ReliabilityInputError(
        'invalid-check',
        `${field}.toolsHash`,
        `expected ${expected}, received ${describeValue(hash)}`,
      );
    }
    return {
      ms: instantOf(check.at, `${field}.at`, 'invalid-check'),
      answered,
      hash,
      described: assertBoolean(check.allToolsDescribed, `${field}.allToolsDescribed`, 'invalid-check'),
    };
  });
  checks.sort((a, b) => a.ms - b.ms);
  return { startMs, extensions, checks };
}

function windowOf(startMs: number, index: number): { startMs: number; endMs: number } {
  return { startMs: startMs + index * WINDOW_MS, endMs: startMs + (index + 1) * WINDOW_MS };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The window a submission is in: window 0 runs 7 days from `submittedAt`, the extra window the 7 days
 * after it. The end is exclusive.
 *
 * @example
 * observationWindow('2026-03-01T10:00:00Z', 1);
 * // { index: 1, start: '2026-03-08T10:00:00.000Z', end: '2026-03-15T10:00:00.000Z' }
 */
export function observationWindow(submittedAt: Date | string, extensions: number): ObservationWindow {
  const startMs = instantOf(submittedAt, 'submittedAt');
  const index = assertCount(extensions, 'extensions');
  if (index > SUBMISSION_MAX_EXTENSIONS) {
    throw new ReliabilityInputError(
      'invalid-number',
      'extensions',
      `expected at most ${SUBMISSION_MAX_EXTENSIONS}, received ${index}`,
    );
  }
  const window = windowOf(startMs, index);
  return { index, start: iso(window.startMs), end: iso(window.endMs) };
}

function summarize(submission: CheckedSubmission): ObservationFigures {
  const window = windowOf(submission.startMs, submission.extensions);
  let baseline: string | null = null;
  let checks = 0;
  let answered = 0;
  let toolListChanges = 0;
  let undescribedChecks = 0;
  for (const check of submission.checks) {
    if (check.ms >= window.endMs) break;
    if (!check.answered) {
      if (check.ms >= window.startMs) checks++;
      continue;
    }
    // The list seen last before the window is the baseline, so a change at the boundary still counts.
    if (check.ms >= window.startMs) {
      checks++;
      answered++;
      if (baseline !== null && check.hash !== baseline) toolListChanges++;
      if (!check.described) undescribedChecks++;
    }
    baseline = check.hash as string;
  }
  return { checks, answered, toolListChanges, undescribedChecks, extensions: submission.extensions };
}

/**
 * Counts what the current window of a submission saw: checks, checks answered with tools, tool-list
 * changes (against the list seen just before, the last one before the window included) and answered checks
 * with an undescribed tool. Checks outside the window are not counted. Throws ReliabilityInputError
 * (`invalid-check`, `invalid-date`, `invalid-number`) on malformed input.
 *
 * @example
 * summarizeObservation({ submittedAt: '2026-03-01T00:00:00Z', extensions: 0, checks: [
 *   { at: '2026-03-01T00:00:00Z', answeredWithTools: true, toolsHash: 'a', allToolsDescribed: true },
 *   { at: '2026-03-01T06:00:00Z', answeredWithTools: false, toolsHash: null, allToolsDescribed: true },
 *   { at: '2026-03-01T12:00:00Z', answeredWithTools: true, toolsHash: 'b', allToolsDescribed: true },
 * ] });
 * // { checks: 3, answered: 2, toolListChanges: 1, undescribedChecks: 0, extensions: 0 }
 */
export function summarizeObservation(submission: Submission): ObservationFigures {
  return summarize(readSubmission(submission));
}

/** @internal Percent answered, truncated to one decimal so that it never reads past a threshold it missed. */
function truncatedPercent(answered: number, checks: number): number | null {
  return checks === 0 ? null : Math.floor((answered * 1000) / checks) / 10;
}

/** @internal True when answered / checks >= percent / 100, in whole numbers (no rounding at the edge). */
function reaches(answered: number, checks: number, percent: number): boolean {
  return answered * 100 >= checks * percent;
}

function readFigures(figures: ObservationFigures): ObservationFigures {
  if (typeof figures !== 'object' || figures === null) {
    throw new ReliabilityInputError(
      'invalid-number',
      'figures',
      `expected an object, received ${describeValue(figures)}`,
    );
  }
  const checks = assertCount(figures.checks, 'figures.checks');
  const answered = assertCount(figures.answered, 'figures.answered');
  const undescribedChecks = assertCount(figures.undescribedChecks, 'figures.undescribedChecks');
  if (answered > checks) {
    throw new ReliabilityInputError(
      'invalid-number',
      'figures.answered',
      `expected at most figures.checks (${checks}), received ${answered}`,
    );
  }
  if (undescribedChecks > answered) {
    throw new ReliabilityInputError(
      'invalid-number',
      'figures.undescribedChecks',
      `expected at most figures.answered (${answered}), received ${undescribedChecks}`,
    );
  }
  const extensions = assertCount(figures.extensions, 'figures.extensions');
  if (extensions > SUBMISSION_MAX_EXTENSIONS) {
    throw new ReliabilityInputError(
      'invalid-number',
      'figures.extensions',
      `expected at most ${SUBMISSION_MAX_EXTENSIONS}, received ${extensions}`,
    );
  }
  return {
    checks,
    answered,
    toolListChanges: assertCount(figures.toolListChanges, 'figures.toolListChanges'),
    undescribedChecks,
    extensions,
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function conditionsOf(figures: ObservationFigures, percent: number | null): SubmissionCondition[] {
  const shown = percent === null ? 'no checks' : `${percent}%`;
  return [
    {
      id: 'checks',
      met: figures.checks >= SUBMISSION_MIN_CHECKS,
      text: `${plural(figures.checks, 'check')} ran (at least ${SUBMISSION_MIN_CHECKS} needed)`,
    },
    {
      id: 'answered',
      met: figures.checks > 0 && reaches(figures.answered, figures.checks, SUBMISSION_ADMIT_PERCENT),
      text: `${figures.answered} of ${figures.checks} answered with tools, ${shown} (at least ${SUBMISSION_ADMIT_PERCENT}% needed)`,
    },
    {
      id: 'tool_list',
      met: figures.toolListChanges <= SUBMISSION_MAX_TOOL_LIST_CHANGES,
      text: `the tool list changed ${plural(figures.toolListChanges, 'time')} (at most ${SUBMISSION_MAX_TOOL_LIST_CHANGES} allowed)`,
    },
    {
      id: 'descriptions',
      met: figures.undescribedChecks === 0,
      text:
        figures.undescribedChecks === 0
          ? 'every tool listed had a description'
          : `${plural(figures.undescribedChecks, 'answered check')} listed a tool without a description (every tool must be described)`,
    },
  ];
}

/**
 * Decides how a finished window ends, from its figures. In order:
 *
 * 1. checks ran and under 70% answered with tools: refused;
 * 2. at least 20 checks, at least 90% answered, at most 1 tool-list change, every tool described: admitted;
 * 3. no extra window yet, and either under 90% answered (so 70% to under 90%) or fewer than 20 checks: one
 *    more 7-day window (extended). Fewer than 20 checks means our own schedule missed slots, since a check
 *    that fails still counts; that second chance is our choice, the source rules are silent on it;
 * 4. otherwise refused.
 *
 * Shares are compared in whole numbers (answered x 100 >= checks x 90), so 18 of 20 is exactly 90%.
 *
 * @example
 * decideObservation({ checks: 28, answered: 26, toolListChanges: 0, undescribedChecks: 0, extensions: 0 }).verdict; // 'admitted'
 * decideObservation({ checks: 28, answered: 22, toolListChanges: 0, undescribedChecks: 0, extensions: 0 }).verdict; // 'extended'
 * decideObservation({ checks: 28, answered: 22, toolListChanges: 0, undescribedChecks: 0, extensions: 1 }).verdict; // 'refused'
 */
export function decideObservation(figures: ObservationFigures): ObservationDecision {
  const f = readFigures(figures);
  const percent = truncatedPercent(f.answered, f.checks);
  const conditions = conditionsOf(f, percent);
  const failed = conditions.filter((c) => !c.met).map((c) => c.text);
  const decided = (verdict: SubmissionVerdict, reasons: string[]): ObservationDecision => ({
    verdict,
    reasons,
    conditions,
    figures: { ...f, answeredPercent: percent },
  });
  if (f.checks > 0 && !reaches(f.answered, f.checks, SUBMISSION_EXTEND_PERCENT)) {
    const others = conditions.filter((c) => !c.met && c.id !== 'answered').map((c) => c.text);
    const share = `${f.answered} of ${f.checks} answered with tools, ${percent}% (under ${SUBMISSION_EXTEND_PERCENT}%, so no extra window)`;
    return decided('refused', [share, ...others]);
  }
  if (failed.length === 0)
    return decided(
      'admitted',
      conditions.map((c) => c.text),
    );
  const extendable = f.checks < SUBMISSION_MIN_CHECKS || !reaches(f.answered, f.checks, SUBMISSION_ADMIT_PERCENT);
  if (extendable && f.extensions < SUBMISSION_MAX_EXTENSIONS) {
    return decided('extended', [...failed, `one more ${SUBMISSION_WINDOW_DAYS}-day window follows (granted once)`]);
  }
  const closing = f.extensions >= SUBMISSION_MAX_EXTENSIONS && extendable ? ['the extra window was already used'] : [];
  return decided('refused', [...failed, ...closing]);
}

function nextSlotMs(submission: CheckedSubmission): number {
  const last = submission.checks.at(-1);
  if (last === undefined || last.ms < submission.startMs) return submission.startMs;
  // Slots sit on a fixed grid from the submission time: a late check does not push the later ones back.
  return submission.startMs + (Math.floor((last.ms - submission.startMs) / INTERVAL_MS) + 1) * INTERVAL_MS;
}

/**
 * Where a submission stands at `now`: its current window, what that window saw so far, when the next check
 * is due (checks sit on a 6-hour grid from the submission time; a missed slot is skipped, not made up), and,
 * once the window is over, its decision. Record the decision's verdict: `extended` means the caller adds one
 * to `extensions`, which opens the next window.
 *
 * @example
 * const review = reviewSubmission({ submittedAt: '2026-03-01T10:00:00Z', extensions: 0, checks: [] }, new Date('2026-03-01T10:00:00Z'));
 * review.checkDue;    // true (slot 0 is the submission time)
 * review.nextCheckAt; // '2026-03-01T10:00:00.000Z'
 */
export function reviewSubmission(submission: Submission, now: Date): SubmissionReview {
  const checked = readSubmission(submission);
  const nowMs = instantOf(now, 'now');
  const window = windowOf(checked.startMs, checked.extensions);
  const figures = summarize(checked);
  const slot = Math.max(nextSlotMs(checked), window.startMs);
  const nextCheckAt = slot < window.endMs ? iso(slot) : null;
  return {
    window: { index: checked.extensions, start: iso(window.startMs), end: iso(window.endMs) },
    figures,
    nextCheckAt,
    checkDue: nextCheckAt !== null && nowMs >= slot && nowMs < window.endMs,
    decision: nowMs >= window.endMs ? decideObservation(figures) : null,
  };
}
