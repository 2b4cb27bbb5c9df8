/**
 * The ends of a whole history: which days it must reach at its start and its end.
 *
 * Pure module. A chain proves every day links to the one before, but days cut off either end leave
 * a shorter chain that is just as valid; only what the verifier already knows about the ends (the
 * day the history began, the day it must have reached, the newest day its publisher names) shows
 * such a cut. A history that fails here is a result with a reason; a bad day in the caller's own
 * expectations is a `HistoryError`.
 */

import { assertDay } from './day.js';
import { describeValue, HistoryError } from './errors.js';

/** The first and last sealed day of a verified history, oldest first. */
export interface ChainSpan {
  /** The first sealed day (`YYYY-MM-DD`). */
  first: string;
  /** The last sealed day (`YYYY-MM-DD`). */
  last: string;
}

/** What the verifier knows about the ends of a history; every field left out is not checked. */
export interface ChainEnds {
  /** A day the history must cover at its start: its first sealed day is this day or earlier. */
  since?: string;
  /** A day the history must cover at its end: its last sealed day is this day or later. */
  through?: string;
  /**
   * The day the publisher names as its newest sealed day (null: it names none): the last sealed day
   * must be exactly this day, so a publisher that serves fewer days than it announces is caught.
   */
  latest?: string | null;
  /** When true, a history with no sealed day passes (a store nothing was sealed in yet). */
  allowEmpty?: boolean;
}

/** The outcome of `checkChainEnds`: fine, or the day the cut shows at (null when no day is sealed) and why. */
export type ChainEndsCheck = { ok: true } | { ok: false; day: string | null; reason: string };

function assertEnds(ends: ChainEnds): void {
  if (typeof ends !== 'object' || ends === null) {
    throw new HistoryError('invalid-input', `ends must be an object, got ${describeValue(ends)}`);
  }
  if (ends.since !== undefined) assertDay(ends.since, 'ends.since');
  if (ends.through !== undefined) assertDay(ends.through, 'ends.through');
  if (ends.latest !== undefined && ends.latest !== null) assertDay(ends.latest, 'ends.latest');
  if (ends.since !== undefined && ends.through !== undefined && ends.since > ends.through) {
    throw new HistoryError('invalid-input', `ends.since ${ends.since} comes after ends.through ${ends.through}`);
  }
}

function emptyProblem(ends: ChainEnds): ChainEndsCheck {
  if (typeof ends.latest === 'string') {
    return {
      ok: false,
      day: ends.latest,
      reason: 'this day is named as the latest sealed day, but the history holds no sealed day at all',
    };
  }
  const wanted = ends.since ?? ends.through;
  if (wanted !== undefined) {
    return { ok: false, day: wanted, reason: 'no day is sealed, so the history cannot cover this day' };
  }
  return ends.allowEmpty === true
    ? { ok: true }
    : { ok: false, day: null, reason: 'no day is sealed, so there is no history to check' };
}

/** The first day the history must cover that lies outside it, with the reason. */
function coverProblem(span: ChainSpan, day: string, flag: 'since' | 'through'): ChainEndsCheck {
  if (day < span.first) {
    return {
      ok: false,
      day,
      reason: `the history starts on ${span.first}, after this day, which it must cover (${flag}): days at its start are missing`,
    };
  }
  if (day > span.last) {
    return {
      ok: false,
      day,
      reason: `the history ends on ${span.last}, before this day, which it must cover (${flag}): days at its end are missing`,
    };
  }
  return { ok: true };
}

/**
 * Checks the ends of a whole, already verified history (`span`: its first and last sealed day, or
 * null when no day is sealed) against what the verifier knows: `since` and `through` must each lie
 * within the history (first ≤ day ≤ last), and the last day must be exactly `latest` when the
 * publisher names one. No sealed day at all fails unless `allowEmpty` is set and no day is asked for.
 * Throws `invalid-day` for a day that is not `YYYY-MM-DD`, `invalid-input` when `since` comes after
 * `through` or the span runs backwards.
 *
 * Pair it with `verifyChain(records, key, { anchorRoot: null })`, which makes the first record chain
 * to nothing: together they catch days cut off either end.
 *
 * @example
 * checkChainEnds({ first: '2026-11-02', last: '2026-11-03' }, { through: '2026-11-04' })
 * // { ok: false, day: '2026-11-04', reason: 'the history ends on 2026-11-03, before this day, …' }
 */
export function checkChainEnds(span: ChainSpan | null, ends: ChainEnds): ChainEndsCheck {
  assertEnds(ends);
  if (span === null) return emptyProblem(ends);
  assertDay(span.first, 'span.first');
  assertDay(span.last, 'span.last');
  if (span.first > span.last) {
    throw new HistoryError('invalid-input', `span.first ${span.first} comes after span.last ${span.last}`);
  }
  for (const [day, flag] of [
    [ends.since, 'since'],
    [ends.through, 'through'],
  ] as const) {
    if (day === undefined) continue;
    const problem = coverProblem(span, day, flag);
    if (!problem.ok) return problem;
  }
  if (ends.latest === null) {
    return {
      ok: false,
      day: span.last,
      reason: 'the history holds sealed days up to this day, but no latest sealed day is named',
    };
  }
  if (ends.latest !== undefined && ends.latest !== span.last) {
    return {
      ok: false,
      day: ends.latest,
      reason:
        ends.latest > span.last
          ? `this day is named as the latest sealed day, but the history ends on ${span.last}: days at its end are missing`
          : `this day is named as the latest sealed day, but the history goes on to ${span.last}`,
    };
  }
  return { ok: true };
}
