// A submission as stored (state/submissions/<id>.json): one record per submitted URL, with every check of
// its observation, each window's decision, and the earlier attempts of the same URL. The id is derived
// from the URL, so submitting the same URL again finds the same record.
import { createHash } from 'node:crypto';
import { reviewSubmission, type Submission } from '@mcp-atlas/operations';
import { SUBMISSION_RULES } from '@mcp-atlas/operations/rules';
import { z } from 'zod';
import { SERVER_ID_PATTERN, SUBMISSIONS_PREFIX, submissionPath } from '../data/paths.js';
import type { WatchedServer } from '../data/schemas.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';

/** A submission id: `sub-` and 20 hex characters of the SHA-256 of its URL. */
export const SUBMISSION_ID_PATTERN = /^sub-[0-9a-f]{20}$/;

/** The id of the submission of `url` (a normalized URL, as URL.href writes it). */
export function submissionIdFor(url: string): string {
  return `sub-${createHash('sha256').update(url).digest('hex').slice(0, 20)}`;
}

/** One check of a submitted server, as stored. */
export const SubmissionCheckRecordSchema = z.strictObject({
  at: z.iso.datetime(),
  letter: z.enum(['o', 'a', 'p', 'd', 'n']),
  reason: z.string(),
  answeredWithTools: z.boolean(),
  toolsHash: z.string().nullable(),
  toolCount: z.int().nonnegative(),
  allToolsDescribed: z.boolean(),
  /** The name the server gave itself in initialize, when it answered. */
  serverName: z.string().nullable(),
});
export type SubmissionCheckRecord = z.infer<typeof SubmissionCheckRecordSchema>;

/** The decision at the end of one window, with its sentences and figures. */
export const SubmissionDecisionRecordSchema = z.strictObject({
  window: z.int().nonnegative(),
  decidedAt: z.iso.datetime(),
  verdict: z.enum(['admitted', 'extended', 'refused']),
  reasons: z.array(z.string()),
  figures: z.strictObject({
    checks: z.int(),
    answered: z.int(),
    answeredPercent: z.number().nullable(),
    toolListChanges: z.int(),
    undescribedChecks: z.int(),
  }),
});
export type SubmissionDecisionRecord = z.infer<typeof SubmissionDecisionRecordSchema>;

/** A finished earlier attempt of the same URL. */
export const EarlierAttemptSchema = z.strictObject({
  submittedAt: z.iso.datetime(),
  status: z.enum(['admitted', 'refused']),
  decidedAt: z.iso.datetime(),
  reasons: z.array(z.string()),
});

export const SubmissionRecordSchema = z.strictObject({
  id: z.string().regex(SUBMISSION_ID_PATTERN),
  url: z.string(),
  host: z.string(),
  submittedAt: z.iso.datetime(),
  /** Extra windows granted so far (0 or 1). */
  extensions: z.int().nonnegative(),
  status: z.enum(['observing', 'admitted', 'refused']),
  checks: z.array(SubmissionCheckRecordSchema),
  decisions: z.array(SubmissionDecisionRecordSchema),
  /** The origin's robots.txt as read on `day`: a Disallow for our bot refuses the submission. */
  robots: z.strictObject({ day: z.string(), excluded: z.boolean() }).nullable(),
  /** Why it was refused before its window ended (robots.txt, an opt-out), or null. */
  stoppedBecause: z.string().nullable(),
  /** The id it is watched under, once admitted. */
  serverId: z.string().regex(SERVER_ID_PATTERN).nullable(),
  earlier: z.array(EarlierAttemptSchema),
});
export type SubmissionRecord = z.infer<typeof SubmissionRecordSchema>;

/** A new record for `url`, observing from `now`; an earlier finished record of the URL moves into `earlier`. */
export function startSubmission(
  url: string,
  host: string,
  now: Date,
  previous: SubmissionRecord | null,
): SubmissionRecord {
  const earlier =
    previous === null || previous.status === 'observing' ? [] : [...previous.earlier, finishedAttemptOf(previous)];
  return {
    id: submissionIdFor(url),
    url,
    host,
    submittedAt: now.toISOString(),
    extensions: 0,
    status: 'observing',
    checks: [],
    decisions: [],
    robots: null,
    stoppedBecause: null,
    serverId: null,
    earlier: earlier.slice(-SUBMISSION_RULES.earlierAttemptsKept),
  };
}

function finishedAttemptOf(record: SubmissionRecord): z.infer<typeof EarlierAttemptSchema> {
  const last = record.decisions.at(-1);
  return {
    submittedAt: record.submittedAt,
    status: record.status === 'admitted' ? 'admitted' : 'refused',
    decidedAt: last?.decidedAt ?? record.checks.at(-1)?.at ?? record.submittedAt,
    reasons: record.stoppedBecause !== null ? [record.stoppedBecause] : (last?.reasons ?? []),
  };
}

/** The record in the shape the reliability rule reads. */
export function submissionOf(record: SubmissionRecord): Submission {
  return {
    submittedAt: record.submittedAt,
    extensions: record.extensions,
    checks: record.checks.map((c) => ({
      at: c.at,
      answeredWithTools: c.answeredWithTools,
      toolsHash: c.toolsHash,
      allToolsDescribed: c.allToolsDescribed,
    })),
  };
}

/** The record of a submission id, or null. */
export async function readSubmission(storage: Storage, id: string): Promise<SubmissionRecord | null> {
  const data = await getJson(storage, submissionPath(id));
  return data === null ? null : SubmissionRecordSchema.parse(data);
}

/** Writes a record (atomically, through Storage). */
export async function writeSubmission(storage: Storage, record: SubmissionRecord): Promise<void> {
  await putJson(storage, submissionPath(record.id), record);
}

/** Every stored submission id. */
export async function listSubmissionIds(storage: Storage): Promise<string[]> {
  return (await storage.list(SUBMISSIONS_PREFIX))
    .map((path) => path.slice(SUBMISSIONS_PREFIX.length).replace(/\.json$/, ''))
    .filter((id) => SUBMISSION_ID_PATTERN.test(id));
}

/**
 * The submissions still under observation, as the domain-age job sees servers: submitted servers have their
 * domain's age read from the start of their observation, so it is known when they join the map. An
 * unreadable record is left out here (the observation run names it).
 */
export async function readObservedSubmissions(storage: Storage): Promise<WatchedServer[]> {
  const observed: WatchedServer[] = [];
  for (const id of await listSubmissionIds(storage)) {
    const record = await readSubmission(storage, id).catch(() => null);
    if (record === null || record.status !== 'observing') continue;
    observed.push({ id: record.id, url: record.url, source: 'submitted', submittedAt: record.submittedAt });
  }
  return observed;
}

/** What GET /api/submissions/:id and the submit answers show about a submission. */
export const SubmissionViewSchema = z.object({
  id: z.string().nullable().describe('The submission id; null when the URL is already watched from another source.'),
  url: z.string(),
  status: z
    .enum(['observing', 'admitted', 'refused', 'watched'])
    .describe(
      'observing: checks are running; admitted: it joined the map; refused; watched: the URL was already on the map.',
    ),
  serverId: z.string().nullable().describe('The id it is (or will be) listed under once on the map.'),
  submittedAt: z.string().nullable(),
  window: z
    .object({ index: z.int(), start: z.string(), end: z.string() })
    .nullable()
    .describe('The current observation window (index 1 is the one extra window).'),
  nextCheckAt: z.string().nullable(),
  soFar: z
    .object({ checks: z.int(), answered: z.int(), toolListChanges: z.int(), undescribedChecks: z.int() })
    .nullable()
    .describe('What the current window saw so far.'),
  decisions: z
    .array(SubmissionDecisionRecordSchema)
    .describe('Each finished window: verdict, the sentences that decided it, and its figures.'),
  stoppedBecause: z.string().nullable(),
  earlier: z.array(EarlierAttemptSchema).describe('Earlier attempts of the same URL, oldest first.'),
});
export type SubmissionView = z.infer<typeof SubmissionViewSchema>;

/** The view of a stored submission at `now`. */
export function viewOfSubmission(record: SubmissionRecord, now: Date): SubmissionView {
  const observing = record.status === 'observing';
  const review = observing ? reviewSubmission(submissionOf(record), now) : null;
  return {
    id: record.id,
    url: record.url,
    status: record.status,
    serverId: record.serverId,
    submittedAt: record.submittedAt,
    window: review?.window ?? null,
    nextCheckAt: review?.nextCheckAt ?? null,
    soFar:
      review === null
        ? null
        : {
            checks: review.figures.checks,
            answered: review.figures.answered,
            toolListChanges: review.figures.toolListChanges,
            undescribedChecks: review.figures.undescribedChecks,
          },
    decisions: record.decisions,
    stoppedBecause: record.stoppedBecause,
    earlier: record.earlier,
  };
}

/** The view of a URL watched from another source (the registry, or an earlier submission under another id). */
export function viewOfWatched(url: string, serverId: string): SubmissionView {
  return {
    id: null,
    url,
    status: 'watched',
    serverId,
    submittedAt: null,
    window: null,
    nextCheckAt: null,
    soFar: null,
    decisions: [],
    stoppedBecause: null,
    earlier: [],
  };
}
