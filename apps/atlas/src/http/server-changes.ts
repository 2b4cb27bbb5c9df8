// A server's changes over the last 60 days, read from the day change files. A day's change file is
// written once and then fixed by the day's seal, so each one read is kept in memory, as is the absence of
// one for a day before the newest scanned day; the newest day's absence is not (its scan may be running).
import { shiftDay } from '@mcp-atlas/base';
import { FOLD_RULES } from '@mcp-atlas/reliability/rules';
import type { z } from 'zod';
import { dayChangesPath } from '../data/paths.js';
import { type Change, ChangesFileSchema } from '../data/schemas.js';
import { getJson, type Storage } from '../storage/storage.js';
import { cleanChange } from '../view/served-text.js';
import type { HttpLogger } from './deps.js';
import type { ServerChangeSchema } from './schemas.js';

/** Reads a server's recent changes, newest day first. */
export interface ChangeReader {
  changesOf(serverId: string, newestDay: string | null): Promise<z.infer<typeof ServerChangeSchema>[]>;
}

/** Creates a change reader over `storage`. */
export function createChangeReader(storage: Storage, logger?: HttpLogger): ChangeReader {
  const cache = new Map<string, Change[]>();

  async function changesOfDay(day: string, newestDay: string): Promise<Change[]> {
    const cached = cache.get(day);
    if (cached !== undefined) return cached;
    let data: unknown;
    try {
      data = await getJson(storage, dayChangesPath(day));
    } catch {
      data = undefined;
    }
    if (data === null) {
      if (day < newestDay) cache.set(day, []);
      return [];
    }
    const parsed = ChangesFileSchema.safeParse(data);
    if (!parsed.success) {
      // A torn or edited file is a fact about the disk, not a reason to fail the page.
      logger?.warn({ day }, 'a change file does not parse; its changes are left out');
      return [];
    }
    cache.set(day, parsed.data.changes);
    return parsed.data.changes;
  }

  return {
    async changesOf(serverId, newestDay) {
      if (newestDay === null) return [];
      const out: z.infer<typeof ServerChangeSchema>[] = [];
      const oldest = shiftDay(newestDay, -(FOLD_RULES.changeDaysKept - 1));
      for (const day of cache.keys()) if (day < oldest) cache.delete(day);
      for (let offset = 0; offset < FOLD_RULES.changeDaysKept; offset++) {
        const day = shiftDay(newestDay, -offset);
        for (const change of await changesOfDay(day, newestDay)) {
          if (change.serverId !== serverId) continue;
          // Tool names in a change are the server's words: shown without control characters.
          out.push(
            cleanChange({
              day,
              kind: change.kind,
              detail: change.detail,
              ...(change.diff !== undefined ? { diff: change.diff } : {}),
            }),
          );
        }
      }
      return out;
    },
  };
}
