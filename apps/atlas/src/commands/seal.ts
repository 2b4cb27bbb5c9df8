// `mcp-atlas seal`: sign one day, or every day that is due.
import { dayFromTime } from '@mcp-atlas/history';
import type { Logger } from '../log.js';
import { loadOrCreateSigningKeys } from '../seal/keys.js';
import { sealDueDays, sealStoredDay } from '../seal/seal-day.js';
import { dayFlag, EXIT_OK, openDataFolder, parse } from './shared.js';

export const SEAL_USAGE = `  seal    [--data DIR] [--day YYYY-MM-DD]       seal one day, or every due day (catch-up) when --day is absent`;

/** Runs `seal`; resolves to the exit code. */
export async function commandSeal(args: readonly string[], log: Logger): Promise<number> {
  const flags = parse(args, { data: { type: 'string' }, day: { type: 'string' } });
  const { storage } = await openDataFolder(flags);
  const keys = await loadOrCreateSigningKeys(storage, new Date());
  const day = dayFlag(flags);
  const written = day !== null ? [await sealStoredDay(storage, day, keys)] : await sealDueDays(storage, dayFromTime(new Date()), keys);
  for (const record of written) process.stdout.write(`sealed ${record.day} ${record.root}\n`);
  if (written.length === 0) process.stdout.write('nothing to seal\n');
  log.info({ sealed: written.map((r) => r.day) }, 'seal done');
  return EXIT_OK;
}
