// `mcp-atlas scan`: one day's check of every watched server, run or resumed.
import { dayFromTime } from '@mcp-atlas/history';
import type { NetworkOptions } from '@mcp-atlas/probe';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import { COST_DEFAULT_TEXT, type CostSettings, DAILY_COST_FLAG_OPTIONS } from '../costs/cost-settings.js';
import { readOptedOutHosts } from '../data/opted-out.js';
import { dayIndexPath, daySummaryPath } from '../data/paths.js';
import type { DirectorySetting } from '../discovery/sync-catalog.js';
import type { Logger } from '../log.js';
import { isEmptyOpenDay, reopenEmptyDay } from '../scan/empty-day.js';
import { DEFAULT_SCAN_CONCURRENCY } from '../scan/scan-day.js';
import { directorySettingsOf } from '../serve/directory-settings.js';
import { syncRegistry } from '../serve/registry-sync.js';
import { Scheduler } from '../serve/scheduler.js';
import { mergeEnvironment, nameSource, SETTINGS, SettingError } from '../serve/settings.js';
import type { Storage } from '../storage/storage.js';
import { openClusterHostGate } from '../workers/host-locks.js';
import { assertEnqueueStore, enqueueScanDay } from './enqueue.js';
import { signingKeysForStore } from './keys.js';
import { LOCAL_FLAG_OPTIONS, localChecksOf } from './local-checks.js';
import {
  checksPerHostFlag,
  costFlags,
  dayFlag,
  EXIT_FAILED,
  EXIT_OK,
  type Flags,
  openStoreOf,
  parseSettings,
  signingKeyFileOf,
  storeUrlOf,
  UsageError,
} from './shared.js';

/** The cost flags scan takes: serve's, less the five-minute budget (scan runs no five-minute checks). */
const SCAN_COST_FLAGS: ReadonlySet<string> = new Set(Object.keys(DAILY_COST_FLAG_OPTIONS));

/**
 * The rows of serve's settings table for scan's cost flags: scan reads the same environment variables as serve
 * for the same settings, named in that one table. A flag on the command line wins over its variable.
 */
export const SCAN_COST_SETTINGS = SETTINGS.filter((setting) => SCAN_COST_FLAGS.has(setting.flag));

const SCAN_COST_VARIABLES = SCAN_COST_SETTINGS.map((setting) => `${setting.env.join(' or ')} (--${setting.flag})`);

export const SCAN_USAGE = `  scan    [--data DIR | --store URL] [--day YYYY-MM-DD] [--registry URL] [--allow-private] [--local]
          [--signing-key FILE] [--checks-per-host 1] [--directories all|none|LIST] [--directory-urls NAME=URL,…]
          run (or resume) one day's check of every watched server (reading the registry first when given)
          --directories: with --registry, other directories read into the day's catalog too (tokens from
          MCP_ATLAS_DIRECTORY_TOKENS)
          --store: file:DIR (the same as --data DIR) or postgres://user@host:port/db (a store shared by processes),
          which needs --signing-key FILE or MCP_ATLAS_SIGNING_KEY (the private key is never kept in the database)
          --enqueue: with a postgres:// store, write the day's index and queue its shards for \`mcp-atlas worker\`
          --local: also install each package-only registry entry at its version and list its tools in a sandbox
          (bubblewrap), from [--npm-registry URL] [--pypi-index URL] into [--package-cache DIR]
          --checks-per-host: checks of one host (name and port) at once, shared with every serve and worker on a
          postgres:// store (1 to 64)
          --allow-private: also read and check http, IP-literal and private-network servers and registries
          (an observatory of a company's own network); URL templates, user names and opt-outs stay refused
          serve and scan also take the compute caps, in US dollars: [--daily-budget-usd ${COST_DEFAULT_TEXT.dailyBudgetUsd}]
          [--five-minute-budget-usd ${COST_DEFAULT_TEXT.fiveMinuteBudgetUsd}] (serve) [--check-cost-usd ${COST_DEFAULT_TEXT.perCheckUsd}] [--check-cost-per-second-usd ${COST_DEFAULT_TEXT.perSecondUsd}]
          scan's cost flags also come from the environment, as serve's do (a flag wins):
          ${SCAN_COST_VARIABLES.join('\n          ')}`;

/**
 * The probe's network for a scan: the guarded Node network (DNS checked and pinned), with the private
 * network rules lifted only when asked for.
 */
export function scanNetworkOf(allowPrivate: boolean): NetworkOptions {
  return allowPrivate ? { ...nodeNetwork, allowPrivate: true } : nodeNetwork;
}

/**
 * Reads the registry into the watched list before the day's scan starts, as the schedule does: only while the day's
 * list is not fixed yet (no index, or one an earlier run fixed empty), so a resumed scan keeps its list. The
 * private-network switch reaches the listed servers. A registry that lists no server to check is an error, and
 * nothing of the day is written, so the command can be run again once the registry answers.
 */
async function readRegistryForDay(
  storage: Storage,
  day: string,
  registryUrl: string,
  network: NetworkOptions,
  allowPrivate: boolean,
  log: Logger,
  reopen: boolean,
  catalog: { directories: readonly DirectorySetting[] },
): Promise<void> {
  if ((await storage.get(daySummaryPath(day))) !== null) return;
  if ((await storage.get(dayIndexPath(day))) !== null && !(await isEmptyOpenDay(storage, day))) return;
  const optedOut = await readOptedOutHosts(storage);
  const synced = await syncRegistry({
    storage,
    registryUrl,
    network,
    optedOut,
    allowPrivate,
    catalogDay: day,
    directories: catalog.directories,
  });
  log.info(
    { watched: synced.servers.length, skipped: synced.skipped.length, catalog: synced.catalog },
    'registry read',
  );
  if (synced.servers.length + synced.local.length === 0)
    throw new EmptyRegistryError(registryUrl, day, synced.skipped.length);
  // The one-process scan opens a list fixed empty here; `--enqueue` leaves that to enqueueDay, which first makes
  // sure no worker is still on the day's shards.
  if (reopen) await reopenEmptyDay(storage, day);
}

/** The registry answered, but with no server that can be checked: the day is not started. */
export class EmptyRegistryError extends Error {
  constructor(registryUrl: string, day: string, skipped: number) {
    super(
      `the registry at ${registryUrl} listed no server that can be checked (${skipped} skipped), so nothing of ${day} was written; run the command again once it lists servers`,
    );
  }
}

/**
 * Scan's cost settings: each cost flag, or when absent its environment variable (serve's name for it). A bad
 * value is a usage error naming the flag, and the variable when the value came from there.
 */
export function scanCostsOf(flags: Flags, env: NodeJS.ProcessEnv): CostSettings {
  let merged: ReturnType<typeof mergeEnvironment>;
  try {
    merged = mergeEnvironment(flags, env, SCAN_COST_SETTINGS);
  } catch (error) {
    if (error instanceof SettingError) throw new UsageError(error.message);
    throw error;
  }
  try {
    return costFlags(merged.flags);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(nameSource(error.message, merged.fromEnv));
    throw error;
  }
}

/** Runs `scan`; resolves to the exit code. The cost flags fall back to `env` (the process's environment). */
export async function commandScan(
  args: readonly string[],
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const flags = parseSettings(
    args,
    {
      data: { type: 'string' },
      store: { type: 'string' },
      day: { type: 'string' },
      'signing-key': { type: 'string' },
      registry: { type: 'string' },
      'allow-private': { type: 'boolean' },
      directories: { type: 'string' },
      'directory-urls': { type: 'string' },
      'directory-tokens': { type: 'string' },
      enqueue: { type: 'boolean' },
      'checks-per-host': { type: 'string' },
      ...LOCAL_FLAG_OPTIONS,
      ...DAILY_COST_FLAG_OPTIONS,
    },
    env,
  );
  const costs = scanCostsOf(flags, env);
  const directories = directorySettingsOf({
    directories: typeof flags.directories === 'string' ? flags.directories : null,
    urls: typeof flags['directory-urls'] === 'string' ? flags['directory-urls'] : null,
    tokens: typeof flags['directory-tokens'] === 'string' ? flags['directory-tokens'] : null,
  });
  const local = localChecksOf(flags);
  const allowPrivate = flags['allow-private'] === true;
  const network = scanNetworkOf(allowPrivate);
  // With the folder on disk: a new key's folders are fsynced, and a key file open to others is tightened.
  const day = dayFlag(flags) ?? dayFromTime(new Date());
  const storage = await openStoreOf(flags);
  try {
    if (flags.enqueue === true) assertEnqueueStore(storage);
    const keys = await signingKeysForStore({ signingKeyFile: signingKeyFileOf(flags, env), store: storage, log });
    const registryUrl = typeof flags.registry === 'string' ? flags.registry : null;
    // The registry is read here rather than by the schedule, so the private-network switch reaches the
    // watched list as well as the probe.
    if (registryUrl !== null) {
      try {
        await readRegistryForDay(storage, day, registryUrl, network, allowPrivate, log, flags.enqueue !== true, {
          directories,
        });
      } catch (error) {
        if (!(error instanceof EmptyRegistryError)) throw error;
        process.stderr.write(`mcp-atlas: ${error.message}\n`);
        return EXIT_FAILED;
      }
    }
    if (flags.enqueue === true) return await enqueueScanDay(storage, storeUrlOf(flags), day, network, log);
    const checksPerHost = checksPerHostFlag(flags);
    // On the shared store the day's checks take each host's turns with every serve and worker on it.
    const hostGate =
      storage.kind === 'postgres'
        ? await openClusterHostGate(storeUrlOf(flags), checksPerHost, DEFAULT_SCAN_CONCURRENCY)
        : null;
    try {
      const scheduler = new Scheduler({
        storage,
        log,
        keys,
        registryUrl: null,
        network,
        progress: true,
        costs,
        checksPerHost,
        ...(hostGate !== null ? { hostGate } : {}),
        ...(local !== null ? { local } : {}),
      });
      const ran = await scheduler.runDaily(day);
      process.stdout.write(ran ? `scanned ${day}\n` : `${day} was already scanned\n`);
      return EXIT_OK;
    } finally {
      await hostGate?.close();
    }
  } finally {
    await storage.close();
  }
}
