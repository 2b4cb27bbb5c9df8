// What every command shares: the exit codes, the usage error, and the flag readers. Each command lives in its
// own file next to this one; commands.ts dispatches to them.

import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isDay } from '@mcp-atlas/base';
import { POLITENESS_RULES } from '@mcp-atlas/operations/rules';
import { CostFlagError, type CostSettings, readCostFlags } from '../costs/cost-settings.js';
import { type OutsideServiceUrls, OutsideUrlError, readOutsideFlags } from '../outside/outside-config.js';
import { mergeEnvironment, SETTINGS, SettingError } from '../serve/settings.js';
import { createFsStorage, removeStaleTempFiles } from '../storage/fs-storage.js';
import { type OpenedStore, openStore, StoreUrlError } from '../storage/open-store.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A command line the command cannot run: printed as one line and a hint, exit code 2. */
export class UsageError extends Error {}

/** The line printed under a usage error: where the options are, in place of the whole usage text. */
export function usageHint(command: string | null): string {
  return command === null
    ? 'run "mcp-atlas --help" for the commands'
    : `run "mcp-atlas ${command} --help" for its options`;
}

export type Flags = Record<string, string | boolean | undefined>;

export type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/** Parses a command's flags strictly; an unknown or malformed flag is a usage error. */
export function parse(args: readonly string[], options: OptionSpec): Flags {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: false, strict: true }).values as Flags;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * Flags the store readers resolve themselves, in their own order (storeUrlOf: --store, --data, then
 * MCP_ATLAS_STORE, then MCP_ATLAS_DATA), so a --data flag still beats a store named in the environment.
 */
const STORE_FLAGS: ReadonlySet<string> = new Set(['data', 'store']);

/**
 * Fills each flag of `options` left off the command line from its row of the settings table (its environment
 * variable; a flag wins). A switch's variable with another word than yes or no is a usage error.
 */
export function withSettings(flags: Flags, options: OptionSpec, env: NodeJS.ProcessEnv = process.env): Flags {
  const rows = SETTINGS.filter((setting) => Object.hasOwn(options, setting.flag) && !STORE_FLAGS.has(setting.flag));
  try {
    return mergeEnvironment(flags, env, rows).flags;
  } catch (error) {
    if (error instanceof SettingError) throw new UsageError(error.message);
    throw error;
  }
}

/** Parses a command's flags strictly, then fills the absent ones from the environment (see withSettings). */
export function parseSettings(
  args: readonly string[],
  options: OptionSpec,
  env: NodeJS.ProcessEnv = process.env,
): Flags {
  return withSettings(parse(args, options), options, env);
}

/** An integer flag within [min, max], or the fallback when absent. */
export function intFlag(flags: Flags, name: string, fallback: number, min: number, max: number): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return value;
}

/** `--checks-per-host`: checks of one host at once across every lane and process (the politeness rule's bounds). */
export function checksPerHostFlag(flags: Flags): number {
  return intFlag(flags, 'checks-per-host', POLITENESS_RULES.checksPerHost, 1, POLITENESS_RULES.checksPerHostMax);
}

export function costFlags(flags: Flags): CostSettings {
  try {
    return readCostFlags(flags);
  } catch (error) {
    if (error instanceof CostFlagError) throw new UsageError(error.message);
    throw error;
  }
}

export function outsideFlags(flags: Flags): OutsideServiceUrls {
  try {
    return readOutsideFlags(flags);
  } catch (error) {
    if (error instanceof OutsideUrlError) throw new UsageError(error.message);
    throw error;
  }
}

/** The --day flag (YYYY-MM-DD), or null when absent. */
export function dayFlag(flags: Flags): string | null {
  const raw = flags.day;
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !isDay(raw)) throw new UsageError('--day must be a date written YYYY-MM-DD');
  return raw;
}

/**
 * How old a temp file must be before a command start removes it. A write in progress (temp file, fsync,
 * rename) lasts well under a second even for the largest day file, so a temp file 10 minutes old is one a
 * crash left behind; a younger one may be a running `serve`'s write that `scan` or `seal` must not delete.
 */
export const STALE_TEMP_FILE_AGE_MS = 10 * 60_000;

/**
 * Removes the temp files under `root` last modified at least `minAgeMs` before `now`: the ones a crash
 * left behind, never a write another process has in progress. Returns how many it removed.
 */
export async function removeTempFilesOlderThan(
  root: string,
  now: Date,
  minAgeMs: number = STALE_TEMP_FILE_AGE_MS,
): Promise<number> {
  return removeStaleTempFiles(root, { modifiedAtOrBefore: now.getTime() - minAgeMs });
}

/** The environment variable every command reads its data folder from when --data is not given. */
export const DATA_FOLDER_ENV = 'MCP_ATLAS_DATA';

/** The default data folder, relative to the working folder. */
export const DEFAULT_DATA_FOLDER = './atlas-data';

/** The data folder, absolute: --data, else MCP_ATLAS_DATA (an empty value counts as unset), else ./atlas-data. */
export function dataFolderOf(flags: Flags, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[DATA_FOLDER_ENV];
  const flag = flags.data;
  return resolve(
    typeof flag === 'string' ? flag : fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_DATA_FOLDER,
  );
}

/**
 * Opens (creating) the --data folder and clears the temp files a crash left behind: only those older than
 * STALE_TEMP_FILE_AGE_MS, since `serve` may be writing to the same folder while `scan` or `seal` starts.
 */
export async function openDataFolder(
  flags: Flags,
  now: Date = new Date(),
): Promise<{ dir: string; storage: ReturnType<typeof createFsStorage> }> {
  const dir = dataFolderOf(flags);
  await mkdir(dir, { recursive: true });
  // A write a crash cut short leaves only a temp file next to the last good copy; clear the old ones first.
  await removeTempFilesOlderThan(dir, now);
  return { dir, storage: createFsStorage(dir) };
}

/** The environment variable every command reads its store URL from when neither --store nor --data is given. */
export const STORE_ENV = 'MCP_ATLAS_STORE';

/**
 * The store URL: --store, else --data DIR (as file:DIR), else MCP_ATLAS_STORE, else MCP_ATLAS_DATA or
 * ./atlas-data (as file:). A flag beats any environment variable; an empty variable counts as unset.
 */
/**
 * The signing key file a signing command was given: --signing-key, else MCP_ATLAS_SIGNING_KEY (a file path, never
 * the key itself: a value in the environment shows in process listings and container inspection), resolved
 * against the working folder; null when neither is set.
 */
export function signingKeyFileOf(flags: Flags, env: NodeJS.ProcessEnv = process.env): string | null {
  const value = typeof flags['signing-key'] === 'string' ? flags['signing-key'] : env.MCP_ATLAS_SIGNING_KEY;
  return value === undefined || value === '' ? null : resolve(value);
}

/** The store the environment names, MCP_ATLAS_STORE and then MCP_ATLAS_DATA (as file:), or null when neither is set. */
export function storeUrlFromEnvironment(env: NodeJS.ProcessEnv = process.env): string | null {
  const store = env[STORE_ENV];
  if (store !== undefined && store !== '') return store;
  const data = env[DATA_FOLDER_ENV];
  return data !== undefined && data !== '' ? `file:${resolve(data)}` : null;
}

export function storeUrlOf(flags: Flags, env: NodeJS.ProcessEnv = process.env): string {
  if (typeof flags.store === 'string') return flags.store;
  const fromEnv = env[STORE_ENV];
  if (typeof flags.data !== 'string' && fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return `file:${dataFolderOf(flags, env)}`;
}

/**
 * Opens the store the flags name (see storeUrlOf): a data folder is created when missing and cleared of the temp
 * files a crash left (as openDataFolder does); a postgres:// store gets its tables on first use. Close it when done.
 */
export async function openStoreOf(
  flags: Flags,
  now: Date = new Date(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<OpenedStore> {
  try {
    return await openStore(storeUrlOf(flags, env), {
      removeTempFilesModifiedAtOrBefore: now.getTime() - STALE_TEMP_FILE_AGE_MS,
    });
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(`--store: ${error.message}`);
    throw error;
  }
}
