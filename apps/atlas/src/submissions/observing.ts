// The submitted servers still in their observation window, as the read model shows them: not on the map yet
// (so never in lists, search, route or rankings), but listed apart with their progress, so an owner and any
// visitor can see where a submission stands without knowing its id.

import { decideObservation, type ObservationWindow, reviewSubmission } from '@mcp-atlas/operations';
import { isOptedOut } from '@mcp-atlas/probe';
import type { Storage } from '../storage/storage.js';
import { listSubmissionIds, readSubmission, type SubmissionRecord, submissionOf } from './records.js';

/** A submission in observation, with what its current window saw so far. */
export interface ObservingSubmission {
  /** The submission id (GET /api/submissions/:id has the whole record). */
  id: string;
  url: string;
  /** The name the server gave itself in its newest answered check (its words, not ours), or null. */
  name: string | null;
  submittedAt: string;
  /** The current window: index 0 is the first week, 1 the one extra window; the decision comes at `end`. */
  window: ObservationWindow;
  /** Checks run in the current window so far. */
  checks: number;
  /** Of those, the checks that answered with tools. */
  answered: number;
  /** The share answered in percent as the decision reads it (truncated to one decimal); null before any check. */
  answeredPercent: number | null;
  /** When the next check is due, or null when the window has no slot left. */
  nextCheckAt: string | null;
}

/** The name the server gave itself in the newest check that carried one. */
function newestNameOf(record: SubmissionRecord): string | null {
  for (const check of [...record.checks].reverse()) {
    const name = check.serverName;
    if (name !== null && name.trim() !== '') return name;
  }
  return null;
}

/**
 * A stored record's progress at `now`, or null when it is not observing. The percent comes from the
 * reliability rule's own decision over the figures so far, so the page never rounds 89.99 up to the 90 the
 * rule compares with.
 */
export function observingSubmissionOf(record: SubmissionRecord, now: Date): ObservingSubmission | null {
  if (record.status !== 'observing') return null;
  const review = reviewSubmission(submissionOf(record), now);
  return {
    id: record.id,
    url: record.url,
    name: newestNameOf(record),
    submittedAt: record.submittedAt,
    window: review.window,
    checks: review.figures.checks,
    answered: review.figures.answered,
    answeredPercent: decideObservation(review.figures).figures.answeredPercent,
    nextCheckAt: review.nextCheckAt,
  };
}

/**
 * Every stored submission still observing at `now`, oldest submission first. A record that cannot be read
 * or reviewed is left out here (the observation run names it in its log), so one bad file never stops the
 * read model from being built.
 */
export async function readObservingSubmissions(storage: Storage, now: Date): Promise<ObservingSubmission[]> {
  const observing: ObservingSubmission[] = [];
  for (const id of await listSubmissionIds(storage)) {
    try {
      const record = await readSubmission(storage, id);
      const entry = record === null ? null : observingSubmissionOf(record, now);
      if (entry !== null) observing.push(entry);
    } catch {}
  }
  return observing.sort((a, b) => a.submittedAt.localeCompare(b.submittedAt) || a.id.localeCompare(b.id));
}

/** What decides that a submission in observation is not listed. */
export interface ObservingFilter {
  /** Hosts whose owners opted out: their submission is refused at its next slot, and never shown meanwhile. */
  optedOutHosts: readonly string[];
  /** Origins whose robots.txt shuts our bot out. */
  excludedOrigins: ReadonlySet<string>;
  /** URLs already watched: such a URL is shown as a server, never twice. */
  watchedUrls: ReadonlySet<string>;
}

/** The submissions a page or the API may list: not opted out, not shut out by robots.txt, not already watched. */
export function listableObserving(
  observing: readonly ObservingSubmission[],
  filter: ObservingFilter,
): ObservingSubmission[] {
  return observing.filter((entry) => {
    const url = new URL(entry.url);
    return (
      !isOptedOut(url.hostname, filter.optedOutHosts) &&
      !filter.excludedOrigins.has(url.origin) &&
      !filter.watchedUrls.has(entry.url)
    );
  });
}
