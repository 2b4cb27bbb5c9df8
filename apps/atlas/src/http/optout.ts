// The opt-out form: an owner asks for a token for their host, puts it in /.well-known/mcp-atlas-optout.txt,
// and confirms; we read the file once (through the probe's guard) and, when it holds the token, list the
// host as opted out. The host is then never contacted again and drops off the map; signed days stay.
import { DOCUMENT_RULES } from '@mcp-atlas/probe/rules';
import { z } from 'zod';
import { addOptedOutHost } from '../data/opted-out.js';
import { requesterIdOf } from '../owners/rate-counters.js';
import { ownerToken } from '../owners/token.js';
import { createSerialQueue } from '../storage/serial-queue.js';
import type { ResolvedHttpDeps } from './deps.js';
import { type Answer, invalidInput, refuse } from './errors.js';
import type { OwnershipChecks } from './ownership-check.js';

/** The form's body is one host name. */
export const OPT_OUT_BODY_MAX_BYTES = 1024;

/** A host name as the form takes it: lower-case DNS labels, no scheme, port or path. */
export const OptOutBodySchema = z.strictObject({
  host: z
    .string()
    .max(253)
    .regex(
      /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/,
      'a host name such as mcp.example.com',
    )
    // A top-level label is never all digits, which keeps IP addresses out.
    .refine((host) => /[a-z]/.test(host.slice(host.lastIndexOf('.') + 1)), 'a host name, not an IP address'),
});

export const OptOutTokenAnswerSchema = z.object({
  host: z.string(),
  token: z.string(),
  file: z.string(),
  next: z.string(),
});
export const OptOutDoneAnswerSchema = z.object({ host: z.string(), optedOut: z.literal(true) });

/** The token for a host: a keyed hash, so nothing needs storing and nobody can make one for a host they do not control. */
export function optOutToken(secret: Uint8Array, host: string): string {
  return ownerToken(secret, 'opt-out', host);
}

/** Reads an origin's token file; the app passes the probe's `readOwnerToken` bound to its network. */
export type OwnerTokenReader = (origin: string, token: string) => Promise<{ matches: boolean; detail: string | null }>;

/**
 * The two steps of the form. The confirm step is an ownership check like owner verification's: limited per
 * requester and host per day, and refused (503) when `checks` is null because token files cannot be read.
 */
export function createOptOutIntake(deps: ResolvedHttpDeps, checks: OwnershipChecks | null) {
  const queue = createSerialQueue();
  return {
    requestToken(body: unknown): Answer<z.infer<typeof OptOutTokenAnswerSchema>> {
      const parsed = OptOutBodySchema.safeParse(body);
      if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, 'body') };
      const { host } = parsed.data;
      const token = optOutToken(deps.reporterSecret, host);
      return {
        ok: true,
        value: {
          host,
          token,
          file: `https://${host}${DOCUMENT_RULES.optOutTokenPath}`,
          next: 'Put the token on a line of that file, then POST the same body to /api/optout/confirm.',
        },
      };
    },
    async confirm(
      body: unknown,
      caller: { address: string | null } = { address: null },
    ): Promise<Answer<z.infer<typeof OptOutDoneAnswerSchema>>> {
      const parsed = OptOutBodySchema.safeParse(body);
      if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, 'body') };
      const { host } = parsed.data;
      if (checks === null) {
        return {
          ok: false,
          refusal: refuse(
            503,
            'opt_out_unavailable',
            'this service cannot read token files; opt out through robots.txt',
          ),
        };
      }
      const read = await checks.check({
        kind: 'opt-out',
        origin: `https://${host}`,
        host,
        token: optOutToken(deps.reporterSecret, host),
        requester: requesterIdOf(deps.reporterSecret, caller.address),
      });
      if (!read.ok) return read;
      await queue.run(async () => {
        await addOptedOutHost(deps.storage, host);
      });
      deps.logger?.info({ host }, 'host opted out');
      return { ok: true, value: { host, optedOut: true } };
    },
  };
}
