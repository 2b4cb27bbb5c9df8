// What verified owners set, one file per server (state/owners/<server>.json), and the five-minute opt-in
// list the schedule reads. Owner files are not part of any signed root.
import { z } from 'zod';
import { FIVE_MINUTE_OPT_IN_PATH, OWNERS_PREFIX, ownerPath, SERVER_ID_PATTERN } from '../data/paths.js';
import { getJson, getJsonOrNull, putJson, type Storage } from '../storage/storage.js';

/** A verified owner's settings for one server. */
export const OwnerRecordSchema = z.strictObject({
  server: z.string().regex(SERVER_ID_PATTERN),
  /** The origin whose token file proved control; the record counts only while the server is served there. */
  origin: z.string(),
  /** The last time the token file was read and held the token (verification, or an owner's change). */
  verifiedAt: z.iso.datetime(),
  /** The owner's note, in their own words, and when they set it; null when there is none. */
  note: z.object({ text: z.string(), setAt: z.iso.datetime() }).nullable(),
  /** The owner asked for five-minute checks. */
  fiveMinuteChecks: z.boolean(),
  /** The owner view's access token, as its SHA-256 hash (owners/owner-access.ts); absent until one is issued. */
  access: z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/), issuedAt: z.iso.datetime() }).optional(),
  /**
   * Where the owner's alerts are POSTed, with the secret they are signed with (owners/webhooks.ts) and when it was
   * set; absent when there is none. The secret is shown once, when set, and never served or logged.
   */
  webhook: z.object({ url: z.string(), secret: z.string(), setAt: z.iso.datetime() }).optional(),
});
export type OwnerRecord = z.infer<typeof OwnerRecordSchema>;

const OptInSchema = z.object({ servers: z.array(z.string()) });

/** The owner record of a server, or null. */
export async function readOwnerRecord(storage: Storage, serverId: string): Promise<OwnerRecord | null> {
  const data = await getJson(storage, ownerPath(serverId));
  return data === null ? null : OwnerRecordSchema.parse(data);
}

/** Every owner record, by server id; a file that does not parse is skipped (and named in `unreadable`). */
export async function readOwnerRecords(
  storage: Storage,
): Promise<{ records: Map<string, OwnerRecord>; unreadable: string[] }> {
  const records = new Map<string, OwnerRecord>();
  const unreadable: string[] = [];
  for (const path of await storage.list(OWNERS_PREFIX)) {
    // A file edited by hand into something that is not JSON is skipped like any other that does not parse.
    const parsed = OwnerRecordSchema.safeParse(await getJsonOrNull(storage, path));
    if (parsed.success) records.set(parsed.data.server, parsed.data);
    else unreadable.push(path);
  }
  return { records, unreadable };
}

/** Writes a server's owner record. */
export async function writeOwnerRecord(storage: Storage, record: OwnerRecord): Promise<void> {
  await putJson(storage, ownerPath(record.server), record);
}

/** Puts a server on (or takes it off) the five-minute list the schedule reads; unchanged lists are not rewritten. */
export async function setFiveMinuteOptIn(storage: Storage, serverId: string, enabled: boolean): Promise<void> {
  const data = await getJson(storage, FIVE_MINUTE_OPT_IN_PATH);
  const servers = data === null ? [] : OptInSchema.parse(data).servers;
  const has = servers.includes(serverId);
  if (has === enabled) return;
  const next = enabled ? [...servers, serverId].sort() : servers.filter((id) => id !== serverId);
  await putJson(storage, FIVE_MINUTE_OPT_IN_PATH, { servers: next });
}
