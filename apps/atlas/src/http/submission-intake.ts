// Owners submit a server: POST /api/submissions and the submit_mcp_server MCP tool share this intake. A URL
// must pass the probe's guard (https, no IP literal, no local name, no template, not opted out) before
// anything is stored. Submitting a URL that is already watched, or already under observation, answers with
// what exists and stores nothing; only a new observation counts against the day's limits.
// The host's daily limit keeps strangers from making us observe many URLs of a host that did not ask, but it
// must not let them block the host's owner: a submission sent with "proveOwnership": true when the host's
// limit is reached reads the origin's verification file once (an ownership check, under its own limits) and,
// when it holds the token, is taken past the host's limit (never past the requester's own).
import { checkTarget } from '@mcp-atlas/probe';
import { z } from 'zod';
import { readOptedOutHosts } from '../data/opted-out.js';
import { readWatchedServers } from '../data/watched-servers.js';
import type { RateCounters } from '../owners/rate-counters.js';
import { requesterIdOf } from '../owners/rate-counters.js';
import { combineTokenReaders, ownerToken, ownerTokenPath } from '../owners/token.js';
import { createSerialQueue } from '../storage/serial-queue.js';
import {
  readSubmission,
  SUBMISSION_ID_PATTERN,
  type SubmissionView,
  SubmissionViewSchema,
  startSubmission,
  submissionIdFor,
  viewOfSubmission,
  viewOfWatched,
  writeSubmission,
} from '../submissions/records.js';
import type { ResolvedHttpDeps } from './deps.js';
import { type Answer, invalidInput, refuse } from './errors.js';
import { createOwnershipChecks, type OwnershipChecks } from './ownership-check.js';

/** Longest URL a submission may carry. */
export const SUBMISSION_URL_MAX_LENGTH = 2048;

/** Largest POST /api/submissions body, in bytes. */
export const SUBMISSION_BODY_MAX_BYTES = 4 * 1024;

function parsesAsUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** The body of a submission: the server's MCP endpoint URL, nothing else. */
export const SubmissionBodySchema = z.strictObject({
  url: z
    .string()
    .min(1, 'must not be empty')
    .max(SUBMISSION_URL_MAX_LENGTH, `must be at most ${SUBMISSION_URL_MAX_LENGTH} characters`)
    .regex(/^[^\u0000-\u0020\u007f]*$/, 'must not contain spaces or control characters')
    .refine(parsesAsUrl, 'must be an absolute URL such as https://mcp.example.com/mcp')
    .refine((text) => !parsesAsUrl(text) || new URL(text).hash === '', 'must not carry a #fragment')
    .describe('The streamable-HTTP MCP endpoint of the server, e.g. https://mcp.example.com/mcp.'),
  proveOwnership: z
    .boolean()
    .optional()
    .describe(
      "True to be taken past the host's daily limit by proving control of the host: the verification token for the URL's origin " +
        '(POST /api/owners/token, or the one the limit refusal names) must be on a line of <origin>/.well-known/mcp-atlas-verify.txt.',
    ),
});

/** The `:id` of GET /api/submissions/:id. */
export const SubmissionIdSchema = z
  .string()
  .regex(SUBMISSION_ID_PATTERN, 'a submission id is "sub-" and 20 lower-case hex characters');

/** What a submission answers: whether a new observation started, and the submission as it stands. */
export const SubmissionAnswerSchema = z.object({
  created: z
    .boolean()
    .describe('True when this request started a new observation; false when it found one, or the URL already watched.'),
  submission: SubmissionViewSchema,
});
export type SubmissionAnswer = z.infer<typeof SubmissionAnswerSchema>;

/** Takes submissions in; one per app, since it orders its writes. */
export interface SubmissionIntake {
  submit(input: unknown, caller: { address: string | null }): Promise<Answer<SubmissionAnswer>>;
  read(id: unknown): Promise<Answer<SubmissionView>>;
}

function normalizedOrNull(url: string): string | null {
  try {
    return new URL(url).href;
  } catch {
    return null;
  }
}

/** Creates the intake. */
export function createSubmissionIntake(
  deps: Pick<
    ResolvedHttpDeps,
    'storage' | 'now' | 'reporterSecret' | 'allowPrivateTargets' | 'logger' | 'readOwnerToken' | 'readOptOutToken'
  >,
  counters: RateCounters,
): SubmissionIntake {
  const queue = createSerialQueue();
  // Owner proof reads the verification file only, so it needs the reader of both kinds; the checks share the
  // app's day counters (the same `counters`), so these reads count like any other ownership check.
  const reader = deps.readOwnerToken === undefined ? null : combineTokenReaders(undefined, deps.readOwnerToken);
  const ownership: OwnershipChecks | null = reader === null ? null : createOwnershipChecks(counters, reader, deps.now);

  function hostLimitMessage(limit: number, target: URL): string {
    const base = `${limit} servers on ${target.hostname} were already submitted today (UTC); more are taken tomorrow`;
    if (ownership === null) return base;
    const token = ownerToken(deps.reporterSecret, 'verify', target.origin);
    return `${base}. If you control ${target.hostname}, put ${token} on a line of ${target.origin}${ownerTokenPath('verify')} and send the same body with "proveOwnership": true`;
  }

  /** Starts the observation of `url`, counted against the day's limits; runs inside the queue. */
  async function startCounted(
    url: string,
    target: URL,
    requester: string,
    provenOwner: boolean,
  ): Promise<Answer<SubmissionAnswer>> {
    const existing = await existingAnswer(url);
    if (existing !== null) return { ok: true, value: existing };
    const quota = await counters.takeSubmission(requester, target.hostname, provenOwner);
    if (!quota.admitted) {
      const message =
        quota.reason === 'requester_daily_limit'
          ? `this network already submitted ${quota.limit} servers today (UTC); more are taken tomorrow`
          : hostLimitMessage(quota.limit, target);
      return { ok: false, refusal: refuse(429, quota.reason, message, { limit: quota.limit }) };
    }
    const previous = await readSubmission(deps.storage, submissionIdFor(url));
    const record = startSubmission(url, target.hostname, deps.now(), previous);
    await writeSubmission(deps.storage, record);
    deps.logger?.info({ event: 'submission', id: record.id, provenOwner }, 'server submitted');
    return { ok: true, value: { created: true, submission: viewOfSubmission(record, deps.now()) } };
  }

  async function optedOutHosts(): Promise<string[]> {
    return readOptedOutHosts(deps.storage);
  }

  async function existingAnswer(url: string): Promise<SubmissionAnswer | null> {
    const now = deps.now();
    const record = await readSubmission(deps.storage, submissionIdFor(url));
    if (record !== null && record.status !== 'refused') {
      // Observing, or admitted and so watched under this record's server id.
      const watchedIds = new Set((await readWatchedServers(deps.storage)).map((s) => s.id));
      if (record.status === 'observing' || (record.serverId !== null && watchedIds.has(record.serverId))) {
        return { created: false, submission: viewOfSubmission(record, now) };
      }
    }
    const watched = (await readWatchedServers(deps.storage)).find((s) => normalizedOrNull(s.url) === url);
    return watched === undefined ? null : { created: false, submission: viewOfWatched(url, watched.id) };
  }

  return {
    async submit(input, caller) {
      const parsed = SubmissionBodySchema.safeParse(input);
      if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, '(body)') };
      const target = new URL(parsed.data.url);
      const url = target.href;
      // The guard reads the URL as sent: normalizing first would percent-encode a template's braces out of sight.
      const guard = checkTarget(parsed.data.url, {
        allowPrivate: deps.allowPrivateTargets === true,
        optedOut: await optedOutHosts(),
      });
      if (!guard.ok) {
        const message = `url: ${guard.message} (${guard.reason})`;
        return {
          ok: false,
          refusal: refuse(400, 'url_refused', message, {
            issues: [{ path: 'url', message: `${guard.message} (${guard.reason})` }],
          }),
        };
      }
      const requester = requesterIdOf(deps.reporterSecret, caller.address);
      const first = await queue.run(() => startCounted(url, target, requester, false));
      const blockedByHost = !first.ok && first.refusal.code === 'host_daily_limit';
      if (!blockedByHost || parsed.data.proveOwnership !== true) return first;
      if (ownership === null) {
        return {
          ok: false,
          refusal: refuse(
            503,
            'owner_checks_unavailable',
            'this service cannot read token files, so it cannot take proof of ownership',
          ),
        };
      }
      // The read happens outside the queue: a slow host must not hold up everyone else's submissions.
      const proof = await ownership.check({
        kind: 'verify',
        origin: target.origin,
        host: target.hostname,
        token: ownerToken(deps.reporterSecret, 'verify', target.origin),
        requester,
      });
      if (!proof.ok) return proof;
      return queue.run(() => startCounted(url, target, requester, true));
    },

    async read(id) {
      const parsed = SubmissionIdSchema.safeParse(id);
      if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_path', parsed.error, 'id') };
      const record = await readSubmission(deps.storage, parsed.data);
      if (record === null)
        return { ok: false, refusal: refuse(404, 'unknown_submission', `no submission has the id ${parsed.data}`) };
      return { ok: true, value: viewOfSubmission(record, deps.now()) };
    },
  };
}
