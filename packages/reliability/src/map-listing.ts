/**
 * Which servers are on the published map, and why one is left out. Pure module.
 *
 * A server is on the map while the newest daily check listed it (a server the daily cost cap skipped
 * is still listed) and the registry still has it. A host that opted out, or whose robots.txt shuts
 * our bot out, is no longer checked, and leaves the map at the next daily check, not at once: that
 * check no longer lists it. Its signed past days stay as they were.
 */
import { describeValue, ReliabilityInputError } from './errors.js';

/** The reasons a server is left out, in the order they are named when several apply. */
export const LEFT_OUT_REASONS = ['opted-out', 'robots', 'not-in-registry', 'not-checked'] as const;

/**
 * Why a server is off the map: its owner opted out, its robots.txt shuts our bot out, the registry
 * no longer has it, or the newest daily check did not list it for another reason.
 */
export type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];

/** What is known about one server's place on the map. */
export interface MapFacts {
  /** The newest daily check's index lists the server; null before any daily check. */
  listedByNewestCheck: boolean | null;
  /** Its host is on the opted-out list. */
  optedOut: boolean;
  /** Its origin's newest robots.txt read shuts our bot out. */
  excludedByRobots: boolean;
  /** The watched list (the registry's entries and admitted submissions) has it; null when no list is known. */
  inRegistry: boolean | null;
}

function flag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean')
    throw new ReliabilityInputError('invalid-server', field, `expected a boolean, received ${describeValue(value)}`);
  return value;
}

/**
 * Why a server is left out of the lists, search, route and rankings, or null when it is on the
 * map. An entry gone from the registry leaves at once; an opted-out or robots-excluded host leaves
 * once the newest daily check no longer lists it.
 *
 * @example
 * leftOutReasonOf({ listedByNewestCheck: true, optedOut: true, excludedByRobots: false, inRegistry: true });  // null (until the next daily check)
 * leftOutReasonOf({ listedByNewestCheck: false, optedOut: true, excludedByRobots: false, inRegistry: true }); // 'opted-out'
 */
export function leftOutReasonOf(facts: MapFacts): LeftOutReason | null {
  if (facts === null || typeof facts !== 'object')
    throw new ReliabilityInputError('invalid-server', 'facts', `expected map facts, received ${describeValue(facts)}`);
  const optedOut = flag(facts.optedOut, 'optedOut');
  const robots = flag(facts.excludedByRobots, 'excludedByRobots');
  const listed = facts.listedByNewestCheck === null ? null : flag(facts.listedByNewestCheck, 'listedByNewestCheck');
  const inRegistry = facts.inRegistry === null ? null : flag(facts.inRegistry, 'inRegistry');
  if (listed === false) {
    if (optedOut) return 'opted-out';
    if (robots) return 'robots';
    if (inRegistry === false) return 'not-in-registry';
    return 'not-checked';
  }
  return inRegistry === false ? 'not-in-registry' : null;
}
