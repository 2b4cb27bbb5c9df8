/**
 * What a server's incident decision puts before a person: the review queue's incident rule. The incident
 * itself is decided by @mcp-atlas/reliability (`decideIncident`); this module says which decisions a person
 * must look at, and how the queue treats a run of them. Pure module: no I/O, no clock.
 */
import type { IncidentDecision } from '@mcp-atlas/reliability';

/**
 * The kinds of review item that stand for an episode going on for hours: while a person has one open for a
 * server, later readings of the same episode add nothing new, so the queue holds one open item of each per
 * server.
 */
export const ONE_OPEN_PER_SERVER_KINDS = Object.freeze(['unconfirmed-failure', 'incident'] as const);

/** The review an incident decision calls for. */
export type IncidentReview =
  | {
      kind: 'incident';
      /** The earliest counted failure of the shown incident (a new incident after a closure has a new one). */
      openedAt: string;
    }
  | {
      kind: 'unconfirmed-failure';
      /** Distinct failing agents plus failing sensors. */
      reporters: number;
      /** The last call anyone saw work, or null: one run of failures has one. */
      lastWorkedAt: string | null;
    };

/**
 * The review a server's incident decision calls for: the shown incident, or, when failures count but
 * neither our own check nor a paying reporter confirmed them, those unconfirmed failures; null when there
 * is nothing for a person to look at.
 *
 * @example
 * decideIncidentReview(decideIncident({}, now)); // null
 */
export function decideIncidentReview(
  decision: Pick<
    IncidentDecision,
    'shown' | 'since' | 'confirmed' | 'failingReporters' | 'failingSensors' | 'lastWorkedAt'
  >,
): IncidentReview | null {
  if (decision.shown && decision.since !== null) return { kind: 'incident', openedAt: decision.since };
  const reporters = decision.failingReporters.length + decision.failingSensors.length;
  if (!decision.confirmed && reporters > 0)
    return { kind: 'unconfirmed-failure', reporters, lastWorkedAt: decision.lastWorkedAt };
  return null;
}
