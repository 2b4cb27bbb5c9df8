// What the operator commands (review, incidents, mark) share: a command line with positional words as well as
// flags, and a data folder that must already exist. These commands run next to a live `serve`, so unlike
// openDataFolder they never clear temp files: one may be the service's write in progress.
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createFsStorage } from '../storage/fs-storage.js';
import { folderOfFileUrl, openStore, StoreUrlError, storeKindOf } from '../storage/open-store.js';
import type { Storage } from '../storage/storage.js';
import { type Flags, type OptionSpec, storeUrlOf, UsageError, withSettings } from './shared.js';

/** Flags and positional words of one command line. */
export interface OperatorArgs {
  flags: Flags;
  words: string[];
}

/**
 * Parses flags strictly and keeps positional words; an unknown or malformed flag is a usage error. Absent flags
 * are filled from the environment, as every command's are.
 */
export function parseOperatorArgs(args: readonly string[], options: OptionSpec): OperatorArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return { flags: withSettings(parsed.values as Flags, options), words: parsed.positionals };
}

/** Exactly `count` positional words, or a usage error naming what was expected. */
export function expectWords(words: readonly string[], count: number, what: string): string[] {
  if (words.length !== count) throw new UsageError(`expected ${what}`);
  return [...words];
}

/**
 * The store (--store or --data, else MCP_ATLAS_STORE, else MCP_ATLAS_DATA, else ./atlas-data), which must exist:
 * these commands edit a service's data, never start one. A postgres:// store is opened as it is (its pool lets
 * the command exit once idle).
 */
export async function openExistingDataFolder(flags: Flags, env: NodeJS.ProcessEnv = process.env): Promise<Storage> {
  const url = storeUrlOf(flags, env);
  let dir: string;
  try {
    if (storeKindOf(url) === 'postgres') return await openStore(url);
    dir = folderOfFileUrl(url);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(`--store: ${error.message}`);
    throw error;
  }
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) throw new UsageError(`no data folder at ${dir} (pass --data DIR)`);
  return createFsStorage(dir);
}

/** The --note flag, which must be given. */
export function noteFlag(flags: Flags): string {
  const note = flags.note;
  if (typeof note !== 'string') throw new UsageError('--note TEXT is required: say what was reviewed');
  return note;
}
