// Owners submit a server: POST /api/submissions and the submit_mcp_server MCP tool share this intake. A URL
// must pass the probe's guard (https, no IP literal, no local name, no template, not opted out) before
// anything is stored. Submitting a URL that is already watched, or already under observation, answers with
// what exists and stores nothing; only a new observation counts against the day's limits.
import { checkTarget } from '@mcp-atlas/probe';
import { z } from 'zod';
import { readWatchedServers } from '../data/watched-servers.js';
import type { ResolvedHttpDeps } from '../http/deps.js';
import { invalidInput, refuse, type Answer } from '../http/errors.js';
import { createSerialQueue } from '../http/serial-queue.js';
import type { RateCounters } from '../owners/rate-counters.js';
import { requesterIdOf } from '../owners/rate-counters.js';
import {
  readSubmission,
  startSubmission,
  SUBMISSION_ID_PATTERN,
  submissionIdFor,
  SubmissionViewSchema,
  viewOfSubmission,
  viewOfWatched,
  writeSubmission,
  type SubmissionView,
} from './records.js';
import { readOptedOutHosts } from '../data/opted-out.js';

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
});

/** The `:id` of GET /api/submissions/:id. */
export const SubmissionIdSchema = z.string().regex(SUBMISSION_ID_PATTERN, 'a submission id is "sub-" and 20 lower-case hex characters');

/** What a submission answers: whether a new observation started, and the submission as it stands. */
export const SubmissionAnswerSchema = z.object({
  created: z.boolean().describe('True when this request started a new observation; false when it found one, or the URL already watched.'),
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
  deps: Pick<ResolvedHttpDeps, 'storage' | 'now' | 'reporterSecret' | 'allowPrivateTargets' | 'logger'>,
  counters: RateCounters,
): SubmissionIntake {
  const queue = createSerialQueue();

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
      const guard = checkTarget(parsed.data.url, { allowPrivate: deps.allowPrivateTargets === true, optedOut: await optedOutHosts() });
      if (!guard.ok) {
        const message = `url: ${guard.message} (${guard.reason})`;
        return { ok: false, refusal: refuse(400, 'url_refused', message, { issues: [{ path: 'url', message: `${guard.message} (${guard.reason})` }] }) };
      }
      return queue.run(async (): Promise<Answer<SubmissionAnswer>> => {
        const existing = await existingAnswer(url);
        if (existing !== null) return { ok: true, value: existing };
        const quota = await counters.take('submission', requesterIdOf(deps.reporterSecret, caller.address), target.hostname);
        if (!quota.admitted) {
          const message =
            quota.reason === 'requester_daily_limit'
              ? `this network already submitted ${quota.limit} servers today (UTC); more are taken tomorrow`
              : `${quota.limit} servers on ${target.hostname} were already submitted today (UTC); more are taken tomorrow`;
          return { ok: false, refusal: refuse(429, quota.reason, message, { limit: quota.limit }) };
        }
        const previous = await readSubmission(deps.storage, submissionIdFor(url));
        const record = startSubmission(url, target.hostname, deps.now(), previous);
        await writeSubmission(deps.storage, record);
        deps.logger?.info({ event: 'submission', id: record.id }, 'server submitted');
        return { ok: true, value: { created: true, submission: viewOfSubmission(record, deps.now()) } };
      });
    },

    async read(id) {
      const parsed = SubmissionIdSchema.safeParse(id);
      if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_path', parsed.error, 'id') };
      const record = await readSubmission(deps.storage, parsed.data);
      if (record === null) return { ok: false, refusal: refuse(404, 'unknown_submission', `no submission has the id ${parsed.data}`) };
      return { ok: true, value: viewOfSubmission(record, deps.now()) };
    },
  };
}
