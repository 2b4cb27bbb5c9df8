// Owner verification and what a verified owner may change. Three steps, each a POST:
//   1. /api/owners/token   { server }          the token for the origin the server is served from;
//   2. /api/owners/verify  { server }          we read <origin>/.well-known/mcp-atlas-verify.txt once;
//   3. /api/owners/settings { server, note?, fiveMinuteChecks? }
// Step 3 proves control again: the token file must still hold the token, and it is re-read for every change
// (one ownership check each), so losing control of the host ends the right to change what we show. Nothing
// is stored before a step succeeds.
import { isOwnerNoteShortEnough } from '@mcp-atlas/operations';
import { OWNER_NOTE_RULES } from '@mcp-atlas/operations/rules';
import { z } from 'zod';
import { mintOwnerAccess } from '../owners/owner-access.js';
import { type OwnerRecord, readOwnerRecord, setFiveMinuteOptIn, writeOwnerRecord } from '../owners/owner-records.js';
import { requesterIdOf } from '../owners/rate-counters.js';
import { ownerToken, ownerTokenPath } from '../owners/token.js';
import { newWebhookSecret } from '../owners/webhooks.js';
import { createSerialQueue } from '../storage/serial-queue.js';
import type { ResolvedHttpDeps } from './deps.js';
import { type Answer, invalidInput, refuse } from './errors.js';
import type { OwnershipChecks } from './ownership-check.js';
import { ServerIdSchema } from './schemas.js';

// Control characters (line breaks included: a note is one paragraph) and format characters (zero-width and
// direction overrides), which could make the note read differently from what it holds.
const HIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * An owner's note: plain text, one paragraph, 1 to OWNER_NOTE_RULES.maxCharacters characters (code points); kept
 * with surrounding spaces trimmed.
 */
export const OwnerNoteSchema = z
  .string()
  .max(OWNER_NOTE_RULES.maxCharacters * 2, `must be at most ${OWNER_NOTE_RULES.maxCharacters} characters`)
  .refine((text) => text.trim().length > 0, 'must not be empty; send null to remove the note')
  .refine(isOwnerNoteShortEnough, `must be at most ${OWNER_NOTE_RULES.maxCharacters} characters`)
  .refine(
    (text) => !HIDDEN_CHARACTERS.test(text),
    'must be plain text on one line, without control or invisible characters',
  )
  .refine((text) => !/[<>]/.test(text), 'must be plain text: no < or >');

/** The body of the token and verify steps: the id of a server on the map. */
export const OwnerServerBodySchema = z.strictObject({
  server: ServerIdSchema.describe('The server id, as GET /api/servers lists it.'),
});

/** The body of an owner's change: the server and at least one of the note and the five-minute switch. */
export const OwnerSettingsBodySchema = z
  .strictObject({
    server: ServerIdSchema.describe('The server id, as GET /api/servers lists it.'),
    note: OwnerNoteSchema.nullable()
      .optional()
      .describe(`The owner's note, plain text, at most ${OWNER_NOTE_RULES.maxCharacters} characters; null removes it.`),
    fiveMinuteChecks: z
      .boolean()
      .optional()
      .describe('True to have the server checked every five minutes, false to stop.'),
    webhookUrl: z
      .string()
      .max(2_000, 'must be at most 2000 characters')
      .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), 'must be an http(s) URL')
      .nullable()
      .optional()
      .describe(
        'Where alerts are POSTed, signed (HMAC-SHA256); a new URL gets a new secret, shown once. null removes the webhook.',
      ),
  })
  .refine((body) => body.note !== undefined || body.fiveMinuteChecks !== undefined || body.webhookUrl !== undefined, {
    message: 'give at least one of note, fiveMinuteChecks and webhookUrl',
    path: ['note'],
  });

export const OwnerTokenAnswerSchema = z.object({
  server: z.string(),
  origin: z.string(),
  token: z.string(),
  file: z.string(),
  next: z.string(),
});
export type OwnerTokenAnswer = z.infer<typeof OwnerTokenAnswerSchema>;

/** What a verified owner has set for a server. */
export const OwnerStateAnswerSchema = z.object({
  server: z.string(),
  origin: z.string(),
  verifiedAt: z.string().describe('The last time the token file was read and held the token.'),
  note: z.object({ text: z.string(), setAt: z.string() }).nullable(),
  fiveMinuteChecks: z.boolean(),
  webhook: z.object({ url: z.string(), setAt: z.string() }).nullable().describe('Where alerts are POSTed, or null.'),
  webhookSecret: z
    .string()
    .optional()
    .describe('The secret the webhook’s deliveries are signed with: given once, in the answer that set the URL.'),
});
export type OwnerStateAnswer = z.infer<typeof OwnerStateAnswerSchema>;

/** The owner view's access token, shown once when issued. */
export const OwnerAccessAnswerSchema = z.object({
  server: z.string(),
  accessToken: z
    .string()
    .describe(
      'Send it as `Authorization: Bearer …` to GET /api/owners/{id}/view, or in the /owner form. Shown once: only its hash is kept, and a new one replaces it.',
    ),
  issuedAt: z.string(),
  view: z.string().describe('The owner view of this server.'),
});
export type OwnerAccessAnswer = z.infer<typeof OwnerAccessAnswerSchema>;

/** Who sent a request, as far as the limits need to know. */
export interface OwnerCaller {
  address: string | null;
}

/** The owner forms. */
export interface OwnerIntake {
  requestToken(body: unknown): Answer<OwnerTokenAnswer>;
  verify(body: unknown, caller: OwnerCaller): Promise<Answer<OwnerStateAnswer>>;
  changeSettings(body: unknown, caller: OwnerCaller): Promise<Answer<OwnerStateAnswer>>;
  /** Issues a new access token for the owner view (the token file is read again first); the old one stops working. */
  issueAccess(body: unknown, caller: OwnerCaller): Promise<Answer<OwnerAccessAnswer>>;
}

function answerOf(record: OwnerRecord): OwnerStateAnswer {
  return {
    server: record.server,
    origin: record.origin,
    verifiedAt: record.verifiedAt,
    note: record.note,
    fiveMinuteChecks: record.fiveMinuteChecks,
    webhook: record.webhook === undefined ? null : { url: record.webhook.url, setAt: record.webhook.setAt },
  };
}

/** The webhook after a change: unchanged when not asked, removed for null, a new secret for a new URL. */
function nextWebhook(
  current: OwnerRecord['webhook'],
  asked: string | null | undefined,
  at: string,
): OwnerRecord['webhook'] {
  if (asked === undefined) return current;
  if (asked === null) return undefined;
  if (current !== undefined && current.url === asked) return current;
  return { url: asked, secret: newWebhookSecret(), setAt: at };
}

/** Creates the owner forms; `checks` is null when this service cannot read token files (the steps then answer 503). */
export function createOwnerIntake(
  deps: Pick<ResolvedHttpDeps, 'getView' | 'storage' | 'reporterSecret' | 'logger'>,
  checks: OwnershipChecks | null,
): OwnerIntake {
  const queue = createSerialQueue();

  function serverOf(id: string): Answer<{ id: string; origin: string; host: string }> {
    const server = deps.getView().byId.get(id);
    if (server === undefined)
      return { ok: false, refusal: refuse(404, 'unknown_server', `no server on the map has the id ${id}`) };
    const url = new URL(server.url);
    return { ok: true, value: { id, origin: url.origin, host: url.hostname } };
  }

  async function proveControl(
    server: { origin: string; host: string },
    caller: OwnerCaller,
  ): Promise<Answer<{ checkedAt: Date }>> {
    if (checks === null)
      return { ok: false, refusal: refuse(503, 'owner_checks_unavailable', 'this service cannot read token files') };
    return checks.check({
      kind: 'verify',
      origin: server.origin,
      host: server.host,
      token: ownerToken(deps.reporterSecret, 'verify', server.origin),
      requester: requesterIdOf(deps.reporterSecret, caller.address),
    });
  }

  /** The server's owner record when it was verified for the origin served now, with control proven again. */
  async function verifiedOwnerOf(
    server: { id: string; origin: string; host: string },
    caller: OwnerCaller,
  ): Promise<Answer<{ existing: OwnerRecord; proof: { ok: true; value: { checkedAt: Date } } }>> {
    const existing = await readOwnerRecord(deps.storage, server.id);
    if (existing === null || existing.origin !== server.origin) {
      return {
        ok: false,
        refusal: refuse(409, 'not_verified', `verify control of ${server.origin} first: POST /api/owners/verify`),
      };
    }
    const proof = await proveControl(server, caller);
    if (!proof.ok) return proof;
    return { ok: true, value: { existing, proof } };
  }

  return {
    requestToken(body) {
      const parsed = OwnerServerBodySchema.safeParse(body);
      if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, '(body)') };
      const server = serverOf(parsed.data.server);
      if (!server.ok) return server;
      const { id, origin } = server.value;
      return {
        ok: true,
        value: {
          server: id,
          origin,
          token: ownerToken(deps.reporterSecret, 'verify', origin),
          file: `${origin}${ownerTokenPath('verify')}`,
          next: 'Put the token on a line of that file, then POST the same body to /api/owners/verify. Keep the file while you want to change your note or checks: every change reads it again.',
        },
      };
    },

    async verify(body, caller) {
      const parsed = OwnerServerBodySchema.safeParse(body);
      if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, '(body)') };
      const server = serverOf(parsed.data.server);
      if (!server.ok) return server;
      const proof = await proveControl(server.value, caller);
      if (!proof.ok) return proof;
      const record = await queue.run(async () => {
        const existing = await readOwnerRecord(deps.storage, server.value.id);
        // A record made for another origin (the server moved) is not carried over.
        const kept = existing !== null && existing.origin === server.value.origin ? existing : null;
        const next: OwnerRecord = {
          server: server.value.id,
          origin: server.value.origin,
          verifiedAt: proof.value.checkedAt.toISOString(),
          note: kept?.note ?? null,
          fiveMinuteChecks: kept?.fiveMinuteChecks ?? false,
          ...(kept?.access !== undefined ? { access: kept.access } : {}),
          ...(kept?.webhook !== undefined ? { webhook: kept.webhook } : {}),
        };
        await writeOwnerRecord(deps.storage, next);
        if (existing !== null && kept === null && existing.fiveMinuteChecks)
          await setFiveMinuteOptIn(deps.storage, server.value.id, false);
        return next;
      });
      deps.logger?.info({ event: 'owner_verified', server: record.server }, 'owner verified');
      return { ok: true, value: answerOf(record) };
    },

    async changeSettings(body, caller) {
      const parsed = OwnerSettingsBodySchema.safeParse(body);
      if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, '(body)') };
      const server = serverOf(parsed.data.server);
      if (!server.ok) return server;
      const verified = await verifiedOwnerOf(server.value, caller);
      if (!verified.ok) return verified;
      const { existing, proof } = verified.value;
      const at = proof.value.checkedAt.toISOString();
      const { note, fiveMinuteChecks, webhookUrl } = parsed.data;
      const { record, newSecret } = await queue.run(async () => {
        const current = (await readOwnerRecord(deps.storage, server.value.id)) ?? existing;
        const { webhook: _old, ...rest } = current;
        const webhook = nextWebhook(current.webhook, webhookUrl, at);
        const next: OwnerRecord = {
          ...rest,
          verifiedAt: at,
          note: note === undefined ? current.note : note === null ? null : { text: note.trim(), setAt: at },
          fiveMinuteChecks: fiveMinuteChecks ?? current.fiveMinuteChecks,
          ...(webhook !== undefined ? { webhook } : {}),
        };
        await writeOwnerRecord(deps.storage, next);
        await setFiveMinuteOptIn(deps.storage, next.server, next.fiveMinuteChecks);
        return {
          record: next,
          newSecret: webhook !== undefined && webhook !== current.webhook ? webhook.secret : null,
        };
      });
      // Never the secret: only that a webhook is set.
      deps.logger?.info(
        { event: 'owner_settings', server: record.server, webhook: record.webhook !== undefined },
        'owner settings changed',
      );
      return { ok: true, value: { ...answerOf(record), ...(newSecret !== null ? { webhookSecret: newSecret } : {}) } };
    },

    async issueAccess(body, caller) {
      const parsed = OwnerServerBodySchema.safeParse(body);
      if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, '(body)') };
      const server = serverOf(parsed.data.server);
      if (!server.ok) return server;
      const verified = await verifiedOwnerOf(server.value, caller);
      if (!verified.ok) return verified;
      const { existing, proof } = verified.value;
      const issuedAt = proof.value.checkedAt.toISOString();
      const { token, hash } = mintOwnerAccess();
      await queue.run(async () => {
        const current = (await readOwnerRecord(deps.storage, server.value.id)) ?? existing;
        await writeOwnerRecord(deps.storage, { ...current, verifiedAt: issuedAt, access: { hash, issuedAt } });
      });
      // The token itself is never logged.
      deps.logger?.info({ event: 'owner_access_issued', server: server.value.id }, 'owner access token issued');
      return {
        ok: true,
        value: {
          server: server.value.id,
          accessToken: token,
          issuedAt,
          view: `/api/owners/${server.value.id}/view`,
        },
      };
    },
  };
}
