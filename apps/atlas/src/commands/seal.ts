// `mcp-atlas seal`: sign one day, or every day that is due.
import { type DayRoot, dayFromTime } from '@mcp-atlas/history';
import type { Logger } from '../log.js';
import { DayNotFinishedError, sealDueDays, sealStoredDay } from '../seal/seal-day.js';
import type { OpenedStore } from '../storage/open-store.js';
import { signingKeysForStore } from './keys.js';
import { dayFlag, EXIT_FAILED, EXIT_OK, openStoreOf, parseSettings, signingKeyFileOf } from './shared.js';

export const SEAL_USAGE = `  seal    [--data DIR | --store URL] [--day YYYY-MM-DD] [--signing-key FILE]
          seal one day, or every due day (catch-up) when --day is absent; a postgres:// store needs
          --signing-key FILE or MCP_ATLAS_SIGNING_KEY (the private key is never kept in the database)`;

/** The line `seal` prints for a day it left unsealed, with the reason. */
export function notSealedLine(day: string, reason: string): string {
  return `not sealed ${day}: ${reason}\n`;
}

/**
 * Runs `seal`; resolves to the exit code. Catch-up prints each due day it left unsealed (not finished, or
 * a later day already sealed) and still exits 0; `--day` exits 1 when that day is refused.
 */
export async function commandSeal(args: readonly string[], log: Logger): Promise<number> {
  const flags = parseSettings(args, {
    data: { type: 'string' },
    store: { type: 'string' },
    day: { type: 'string' },
    'signing-key': { type: 'string' },
  });
  const day = dayFlag(flags);
  const storage = await openStoreOf(flags);
  try {
    return await sealWith(storage, day, signingKeyFileOf(flags), log);
  } finally {
    await storage.close();
  }
}

/** Seals `day`, or every due day when null, in an open store; prints what it did and returns the exit code. */
async function sealWith(
  storage: OpenedStore,
  day: string | null,
  signingKeyFile: string | null,
  log: Logger,
): Promise<number> {
  const keys = await signingKeysForStore({ signingKeyFile, store: storage, log });
  let written: DayRoot[];
  if (day !== null) {
    try {
      written = [await sealStoredDay(storage, day, keys)];
    } catch (error) {
      if (!(error instanceof DayNotFinishedError)) throw error;
      process.stderr.write(notSealedLine(day, error.reason));
      return EXIT_FAILED;
    }
  } else {
    written = await sealDueDays(storage, dayFromTime(new Date()), keys, (unsealed, reason) => {
      process.stdout.write(notSealedLine(unsealed, reason));
      log.warn({ day: unsealed, reason }, 'day not sealed');
    });
  }
  for (const record of written) process.stdout.write(`sealed ${record.day} ${record.root}\n`);
  if (written.length === 0) process.stdout.write('nothing to seal\n');
  log.info({ sealed: written.map((r) => r.day) }, 'seal done');
  return EXIT_OK;
}
