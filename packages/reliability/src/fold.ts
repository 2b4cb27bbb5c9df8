/**
 * The daily fold: one server's rolling state moved forward by one day's daily check, and the changes that
 * check shows against the previous one. Pure module: no I/O, no clock; the day comes from the caller, and
 * the tool-by-tool diff (a rule of @mcp-atlas/findings) is computed by the caller and passed in, because
 * this package depends on nothing.
 *
 * What "the previous daily check" means here: status changes compare with the newest earlier day whose
 * daily check ran (a day the check did not run is `n` and is passed over); the tool list compares with the
 * newest earlier daily check that listed tools, since a day that was down, asked for sign-in or payment, or
 * was not checked has no list hash to differ from. Hourly and five-minute checks never enter the fold.
 */

import { shiftDay } from '@mcp-atlas/base';
import {
  CHANGE_DAYS_KEPT,
  DOWN_LETTER,
  LETTER_WINDOW_DAYS,
  MS_PER_DAY,
  NO_DATA_LETTER,
  OUTAGES_KEPT,
  RISK_RISE_DAYS_KEPT,
} from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { appendDailyLetter, isAnsweringLetter, type ObservedLetter } from './letters.js';
import { startOfDay } from './validate.js';

/** The kinds of change a daily check can record. */
export const CHANGE_KINDS = Object.freeze([
  'tools',
  'started-answering',
  'stopped-answering',
  'sign-in',
  'payment-address',
  'redirect',
] as const);

/** One kind of recorded change. */
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** A tool that rose in risk: its level before (null when it was added) and now. */
export interface RiskRise {
  name: string;
  from: string | null;
  to: string;
}

/** The tool-by-tool difference of two lists, as recorded with a change (the shape of findings' `diffToolLists`). */
export interface ToolListDiffSummary {
  added: string[];
  removed: string[];
  changed: string[];
  rewritten: string[];
  riskRises: RiskRise[];
  renamed: { from: string; to: string }[];
  silent: boolean;
}

/** What the caller passes in: a diff as findings' `diffToolLists` returns it (extra fields are ignored). */
export interface ToolListDiffInput extends ToolListDiffSummary {
  /** True exactly when the two list hashes are equal. */
  unchanged: boolean;
}

/** One change recorded on a day. */
export interface ServerChange {
  serverId: string;
  kind: ChangeKind;
  /** One sentence for people. */
  detail: string;
  /** For `tools` only, when both lists could be read: what changed, tool by tool. */
  diff?: ToolListDiffSummary;
}

/** The part of a server's rolling state the fold reads and writes; the caller's state may carry more. */
export interface ServerFoldState {
  /** Daily letters, oldest first, at most 30. */
  letters: string;
  /** The last day whose letter is in `letters`, or null before the first check. */
  lastDay: string | null;
  /** Days the tool list changed, oldest first, kept 60 days. */
  changeDays: string[];
  /** Lengths of the last 5 finished outages, in observed down days, newest last. */
  outages: number[];
  /** Down days in a row so far (0 when the last check answered). */
  currentOutageDays: number;
  /** The list hash of the newest daily check that listed tools. */
  toolsHash: string | null;
  serverVersion: string | null;
  /** The letter of the newest daily check that ran. */
  lastLetter: ObservedLetter | null;
  lastPaymentAddress: string | null;
  lastHandshakeMs: number | null;
  /** The day of the newest daily check that listed tools: the baseline of the next tool-list comparison. */
  lastCatalogDay: string | null;
  /** Where the last check was sent to another domain, or null when it was not. */
  lastRedirect: string | null;
  /** Days on which a tool rose in risk, oldest first, kept 7 days. */
  riskRiseDays: string[];
}

/** What the fold needs from one server's daily check. */
export interface DailyCheckOutcome {
  /** The server's id; changes are recorded under it. */
  id: string;
  letter: ObservedLetter;
  /** Why it got its letter, in a few words (used when it stops answering). */
  message: string;
  /** The list hash when it answered with tools, else null. */
  toolsHash: string | null;
  serverVersion: string | null;
  /** Where it asks agents to pay, when it answered with HTTP 402. */
  paymentAddress: string | null;
  /** A redirect on initialize, or null. */
  redirect: { location: string; sameSite: boolean } | null;
  /** Wall time of the whole check. */
  elapsedMs: number;
}

/** What the caller adds to a day's check. */
export interface FoldContext {
  /** The UTC day of the check, `YYYY-MM-DD`. */
  day: string;
  /**
   * The diff of the baseline list ({@link toolListBaseline}) against today's, when one is owed and both lists
   * could be read. Owed but missing: the change is still recorded, without its tool-by-tool detail.
   */
  toolDiff?: ToolListDiffInput | null;
}

/** The next state and the day's changes. */
export interface FoldResult<S extends ServerFoldState> {
  state: S;
  changes: ServerChange[];
}

/** The earlier list a day's tool list is compared with: the newest earlier daily check that listed tools. */
export interface ToolListBaseline {
  /** The day of that check (its catalog holds the list), or null when the state lost it. */
  day: string | null;
  toolsHash: string;
}

/**
 * The fold state of a server never checked.
 *
 * @example
 * newServerFoldState().letters; // ''
 */
export function newServerFoldState(): ServerFoldState {
  return {
    letters: '',
    lastDay: null,
    changeDays: [],
    outages: [],
    currentOutageDays: 0,
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

/**
 * True when `day` is already in the state (its letter written, or a later one): folding it again would
 * count it twice, so a re-run after a crash leaves such a state alone.
 *
 * @example
 * isDayFolded({ ...newServerFoldState(), lastDay: '2026-11-02' }, '2026-11-02'); // true
 */
export function isDayFolded(state: Pick<ServerFoldState, 'lastDay'>, day: string): boolean {
  startOfDay(day, 'day');
  return state.lastDay !== null && state.lastDay >= day;
}

/**
 * A server's daily letters as they stand on `day`: the letters kept through `state.lastDay`, then `n` for every
 * day after it up to and including `day` (no daily check was folded for them), the last 30 kept. So the figures
 * read from them (uptime, success chance, days observed) cover the window ending `day` even while the daily check
 * keeps failing, rather than a window that stopped at the last fold. A `day` on or before the last letter, or a
 * state with no letter yet, leaves the letters as they are. Throws {@link ReliabilityInputError} (`invalid-day`)
 * for a `day` or `lastDay` that is not YYYY-MM-DD.
 *
 * @example
 * lettersAsOf({ letters: 'oo', lastDay: '2026-11-02' }, '2026-11-04'); // 'oonn'
 * lettersAsOf({ letters: 'oo', lastDay: '2026-11-02' }, '2026-11-02'); // 'oo'
 */
export function lettersAsOf(state: Pick<ServerFoldState, 'letters' | 'lastDay'>, day: string): string {
  startOfDay(day, 'day');
  if (state.lastDay === null || state.lastDay >= day) return state.letters;
  const missed = Math.min(LETTER_WINDOW_DAYS, daysFrom(state.lastDay, day));
  return `${state.letters}${'n'.repeat(missed)}`.slice(-LETTER_WINDOW_DAYS);
}

/** Whole UTC days from `earlier` to `later`. */
function daysFrom(earlier: string, later: string): number {
  return Math.round((startOfDay(later, 'day') - startOfDay(earlier, 'state.lastDay')) / MS_PER_DAY);
}

/** Days strictly between the state's last letter and `day`: each becomes `n`, at most the whole window. */
function missedDaysBefore(state: ServerFoldState, day: string): number {
  return state.lastDay === null ? 0 : Math.min(LETTER_WINDOW_DAYS, Math.max(0, daysFrom(state.lastDay, day) - 1));
}

/**
 * The list today's check is compared with, or null when no comparison is owed: today listed no tools, no
 * earlier daily check listed any, or the hashes are equal. A day between them that was down, asked for
 * sign-in or payment, or was not checked has no list hash, so it neither resets nor moves the baseline.
 *
 * @example
 * toolListBaseline({ ...newServerFoldState(), toolsHash: 'h1', lastCatalogDay: '2026-11-01' }, { toolsHash: 'h2' });
 * // { day: '2026-11-01', toolsHash: 'h1' }
 */
export function toolListBaseline(
  state: Pick<ServerFoldState, 'toolsHash' | 'lastCatalogDay'>,
  today: Pick<DailyCheckOutcome, 'toolsHash'>,
): ToolListBaseline | null {
  if (today.toolsHash === null || state.toolsHash === null || today.toolsHash === state.toolsHash) return null;
  return { day: state.lastCatalogDay, toolsHash: state.toolsHash };
}

/** Parts of the tool-change sentence, in a fixed order. */
function countParts(diff: ToolListDiffSummary): string[] {
  const parts: [number, string][] = [
    [diff.added.length, 'added'],
    [diff.removed.length, 'removed'],
    [diff.changed.length, 'changed'],
    [diff.renamed.length, 'renamed'],
    [diff.riskRises.length, 'rise(s) in risk'],
  ];
  return parts.filter(([count]) => count > 0).map(([count, word]) => `${count} ${word}`);
}

/**
 * The sentence recorded with a tool-list change: what moved, and whether the server kept its version.
 *
 * @example
 * describeToolChange({ added: ['b'], removed: [], changed: [], rewritten: [], riskRises: [], renamed: [], silent: true });
 * // 'Tool list changed silently (same server version): 1 added.'
 */
export function describeToolChange(diff: ToolListDiffSummary | null): string {
  if (diff === null)
    return 'Tool list changed; the earlier list could not be read, so there is no tool-by-tool detail.';
  const parts = countParts(diff);
  return `Tool list changed${diff.silent ? ' silently (same server version)' : ''}: ${parts.join(', ') || 'reordered or reworded'}.`;
}

/** The recorded form of a diff: only the summary fields, copied, so the record never aliases the caller's arrays. */
function summaryOf(diff: ToolListDiffInput): ToolListDiffSummary {
  return {
    added: [...diff.added],
    removed: [...diff.removed],
    changed: [...diff.changed],
    rewritten: [...diff.rewritten],
    riskRises: diff.riskRises.map((rise) => ({ name: rise.name, from: rise.from, to: rise.to })),
    renamed: diff.renamed.map((pair) => ({ from: pair.from, to: pair.to })),
    silent: diff.silent,
  };
}

/** The tool-list change of the day, or null when the list did not change. */
function toolChangeOf(
  state: ServerFoldState,
  today: DailyCheckOutcome,
  toolDiff: ToolListDiffInput | null | undefined,
): ServerChange | null {
  if (toolListBaseline(state, today) === null) return null;
  if (toolDiff === undefined || toolDiff === null)
    return { serverId: today.id, kind: 'tools', detail: describeToolChange(null) };
  // The hashes differ, so a diff that finds nothing was made from other lists than the baseline's: the
  // caller's mistake, not the server's.
  if (toolDiff.unchanged) {
    throw new ReliabilityInputError(
      'invalid-check',
      'context.toolDiff',
      "the list hashes differ but the diff says unchanged; diff the baseline list against today's",
    );
  }
  const diff = summaryOf(toolDiff);
  return { serverId: today.id, kind: 'tools', detail: describeToolChange(diff), diff };
}

/** The cross-domain redirect of a check, or null. */
function crossDomainRedirect(today: DailyCheckOutcome): string | null {
  return today.redirect !== null && !today.redirect.sameSite ? today.redirect.location : null;
}

/**
 * Status changes against the previous daily check that ran: started or stopped answering (sign-in and
 * payment count as answering), now asking for sign-in, a new payment address, a new redirect to another domain.
 */
function statusChangesOf(state: ServerFoldState, today: DailyCheckOutcome): ServerChange[] {
  const changes: ServerChange[] = [];
  const before = state.lastLetter;
  if (before !== null) {
    const wasUp = isAnsweringLetter(before);
    const isUp = isAnsweringLetter(today.letter);
    if (!wasUp && isUp)
      changes.push({ serverId: today.id, kind: 'started-answering', detail: `Answering again (${today.letter}).` });
    if (wasUp && !isUp)
      changes.push({ serverId: today.id, kind: 'stopped-answering', detail: `Stopped answering: ${today.message}` });
    if (today.letter === 'a' && before !== 'a')
      changes.push({ serverId: today.id, kind: 'sign-in', detail: 'Now asks for sign-in.' });
  }
  if (today.paymentAddress !== null && today.paymentAddress !== state.lastPaymentAddress) {
    changes.push({
      serverId: today.id,
      kind: 'payment-address',
      detail: `Asks agents to pay ${today.paymentAddress}.`,
    });
  }
  const redirect = crossDomainRedirect(today);
  if (redirect !== null && redirect !== state.lastRedirect) {
    changes.push({ serverId: today.id, kind: 'redirect', detail: `Redirects to another domain: ${redirect}.` });
  }
  return changes;
}

/** Keeps the days of `days` (plus `day` when `add`) within the `kept` days ending on `day`. */
function keepRecentDays(days: readonly string[], day: string, add: boolean, kept: number): string[] {
  const from = shiftDay(day, -(kept - 1));
  return [...days, ...(add ? [day] : [])].filter((d) => d >= from);
}

/** The outage figures after a day: a down day lengthens the current outage, an answering one ends it. */
function nextOutages(state: ServerFoldState, down: boolean): Pick<ServerFoldState, 'outages' | 'currentOutageDays'> {
  if (down) return { outages: state.outages, currentOutageDays: state.currentOutageDays + 1 };
  const outages =
    state.currentOutageDays > 0 ? [...state.outages, state.currentOutageDays].slice(-OUTAGES_KEPT) : state.outages;
  return { outages, currentOutageDays: 0 };
}

function assertOutcome(today: DailyCheckOutcome): void {
  if (today === null || typeof today !== 'object' || typeof today.id !== 'string' || today.id === '') {
    throw new ReliabilityInputError(
      'invalid-check',
      'today.id',
      `expected a server id, received ${describeValue(today?.id)}`,
    );
  }
  if (today.letter !== DOWN_LETTER && !isAnsweringLetter(today.letter)) {
    throw new ReliabilityInputError(
      'invalid-check',
      'today.letter',
      `expected one of "oapd", received ${describeValue(today.letter)}`,
    );
  }
}

/**
 * Folds one day's daily check into a server's state: the day's letter (with `n` for every day since the
 * last one that was not checked, up to the 30-day window), outages (the last 5 finished ones), change days
 * (60 days) and risk-rise days (7 days), the baselines of tomorrow's comparisons, and the changes of the
 * day. A day already in the state is left alone: the state comes back as given and no change is recorded.
 *
 * `context.toolDiff` is the diff of {@link toolListBaseline}'s list against today's; compute it with
 * findings' `diffToolLists` when a baseline is owed.
 *
 * @example
 * const day1 = foldServerDay(newServerFoldState(), { id: 's', letter: 'o', message: '', toolsHash: 'h1',
 *   serverVersion: null, paymentAddress: null, redirect: null, elapsedMs: 900 }, { day: '2026-11-01' });
 * day1.state.letters; // 'o'
 */
export function foldServerDay<S extends ServerFoldState>(
  previous: S,
  today: DailyCheckOutcome,
  context: FoldContext,
): FoldResult<S> {
  const { day } = context;
  if (isDayFolded(previous, day)) return { state: previous, changes: [] };
  assertOutcome(today);
  const toolChange = toolChangeOf(previous, today, context.toolDiff);
  const changes = [...statusChangesOf(previous, today), ...(toolChange !== null ? [toolChange] : [])];
  const riskRose = (toolChange?.diff?.riskRises.length ?? 0) > 0;
  const state: S = {
    ...previous,
    letters: appendDailyLetter(previous.letters, today.letter, missedDaysBefore(previous, day)),
    lastDay: day,
    changeDays: keepRecentDays(previous.changeDays, day, toolChange !== null, CHANGE_DAYS_KEPT),
    riskRiseDays: keepRecentDays(previous.riskRiseDays, day, riskRose, RISK_RISE_DAYS_KEPT),
    ...nextOutages(previous, today.letter === DOWN_LETTER),
    toolsHash: today.toolsHash ?? previous.toolsHash,
    serverVersion: today.serverVersion ?? previous.serverVersion,
    lastLetter: today.letter,
    lastPaymentAddress: today.paymentAddress ?? previous.lastPaymentAddress,
    lastHandshakeMs: today.elapsedMs,
    lastCatalogDay: today.toolsHash !== null ? day : previous.lastCatalogDay,
    lastRedirect: crossDomainRedirect(today),
  };
  return { state, changes };
}

/**
 * Folds a day on which the server's daily check did not run (a skipped run, or the daily cost cap left its
 * shard for the next day): the day's letter is `n`, and nothing else moves, so an outage neither ends nor
 * grows and the next check compares with the last one that ran. A server never checked gets no letter: its
 * history starts at its first check. A day already in the state is left alone.
 *
 * @example
 * foldSkippedDay({ ...newServerFoldState(), letters: 'o', lastDay: '2026-11-01' }, '2026-11-02').letters; // 'on'
 */
export function foldSkippedDay<S extends ServerFoldState>(previous: S, day: string): S {
  if (isDayFolded(previous, day) || previous.lastDay === null) return previous;
  return {
    ...previous,
    letters: appendDailyLetter(previous.letters, NO_DATA_LETTER, missedDaysBefore(previous, day)),
    lastDay: day,
  };
}
