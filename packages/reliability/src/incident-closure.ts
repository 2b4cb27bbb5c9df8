/**
 * A person closing an incident after review. Pure module: no clock; `now` is an argument.
 *
 * The incident rule ends an incident when a call works again, when its window passes, or when a
 * person closes it. A closure at time T is remembered as a cut-off: failures at or before T no
 * longer count, so the closed incident stays closed until a failure after T counts again (and is
 * confirmed by the usual rule). A closure is never a verdict on the server; it only says that a
 * person looked at what was reported up to T.
 */
import { describeValue, ReliabilityInputError } from './errors.js';
import { decideIncident, type IncidentDecision, type IncidentInput } from './incidents.js';
import { assertText, instantOf, instantOfDate } from './validate.js';

/**
 * Longest note a person may leave when closing an incident or a review item, in UTF-16 code units:
 * room for a few sentences, small enough that a closure file stays small.
 */
export const CLOSURE_NOTE_MAX_CHARS = 1_000;

/** One closure: which server, when a person closed its incident, and the note they left. */
export interface IncidentClosure {
  server: string;
  /** ISO 8601 instant with offset, or a Date. */
  at: Date | string;
  note: string;
}

/**
 * Checks a note for a closure and returns it trimmed: it must say something (not blank) and fit in
 * {@link CLOSURE_NOTE_MAX_CHARS}. Throws {@link ReliabilityInputError} otherwise.
 *
 * @example
 * checkClosureNote('  checked with the owner, a deploy  '); // 'checked with the owner, a deploy'
 */
export function checkClosureNote(note: unknown): string {
  if (typeof note !== 'string' || note.trim() === '') {
    throw new ReliabilityInputError(
      'invalid-report',
      'note',
      `expected a note that is not blank, received ${describeValue(note)}`,
    );
  }
  const trimmed = note.trim();
  if (trimmed.length > CLOSURE_NOTE_MAX_CHARS) {
    throw new ReliabilityInputError(
      'invalid-report',
      'note',
      `expected at most ${CLOSURE_NOTE_MAX_CHARS} characters, received ${trimmed.length}`,
    );
  }
  return trimmed;
}

/**
 * When a person last closed `server`'s incident, as known at `now`: the newest closure of that
 * server dated at or before `now` (a closure dated later is not known yet), as ISO 8601, or null.
 *
 * @example
 * lastClosureAt([{ server: 'a', at: '2026-11-30T10:00:00Z', note: 'x' }], 'a', new Date('2026-11-30T12:00:00Z'));
 * // '2026-11-30T10:00:00.000Z'
 */
export function lastClosureAt(closures: readonly IncidentClosure[], server: string, now: Date): string | null {
  const nowMs = instantOfDate(now, 'now');
  if (!Array.isArray(closures)) {
    throw new ReliabilityInputError(
      'invalid-report',
      'closures',
      `expected an array, received ${describeValue(closures)}`,
    );
  }
  let newest: number | null = null;
  closures.forEach((closure, i) => {
    const field = `closures[${i}]`;
    if (closure === null || typeof closure !== 'object') {
      throw new ReliabilityInputError(
        'invalid-report',
        field,
        `expected a closure object, received ${describeValue(closure)}`,
      );
    }
    if (assertText(closure.server, `${field}.server`, 'invalid-server') !== server) return;
    const atMs = instantOf(closure.at, `${field}.at`);
    if (atMs <= nowMs && (newest === null || atMs > newest)) newest = atMs;
  });
  return newest === null ? null : new Date(newest).toISOString();
}

/**
 * The incident rule with the closures of `server` applied: {@link decideIncident} with `closedAt`
 * set to the later of the input's own `closedAt` and the newest closure known at `now`. An incident
 * closed at T is therefore not shown again unless a failure after T counts and is confirmed.
 *
 * @example
 * // Closed at 11:40; the failures before it no longer count, a new one at 11:50 alone is not enough.
 * decideClosedIncident('notes', input, [{ server: 'notes', at: '2026-11-30T11:40:00Z', note: 'reviewed' }], now).shown;
 */
export function decideClosedIncident(
  server: string,
  input: IncidentInput,
  closures: readonly IncidentClosure[],
  now: Date,
): IncidentDecision {
  const closed = lastClosureAt(closures, server, now);
  const own = input.closedAt === null || input.closedAt === undefined ? null : instantOf(input.closedAt, 'closedAt');
  const closedMs = [closed === null ? null : Date.parse(closed), own].reduce<number | null>(
    (latest, ms) => (ms === null ? latest : latest === null || ms > latest ? ms : latest),
    null,
  );
  return decideIncident({ ...input, closedAt: closedMs === null ? null : new Date(closedMs).toISOString() }, now);
}
