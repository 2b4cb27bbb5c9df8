// `mcp-atlas serve`: the running service (HTTP, and the schedule unless --no-schedule). Every setting is a
// flag and an environment variable (the flag wins), read once into ServeSettings before anything starts.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SEAL_RULES } from '@mcp-atlas/history/rules';
import type { NetworkOptions } from '@mcp-atlas/probe';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import { readGitHubRepository } from '@mcp-atlas/probe/outside';
import { IDENTITY_RULES } from '@mcp-atlas/probe/rules';
import { COST_DEFAULT_TEXT, COST_FLAG_OPTIONS, type CostSettings, resolveCosts } from '../costs/cost-settings.js';
import type { DirectorySetting } from '../discovery/sync-catalog.js';
import {
  createLicenseKeyStore,
  LicenseKeyFileError,
  licenseValidatorOf,
  parseLicenseKeyList,
} from '../http/license-keys.js';
import { createSiteAddress, SiteAddressError } from '../http/site-address.js';
import { createLogger, LOG_FORMATS, LOG_LEVELS, type LogFormat, type Logger } from '../log.js';
import { METHODOLOGY_VERSION } from '../methodology.js';
import { OUTSIDE_FLAG_OPTIONS, type OutsideServiceUrls } from '../outside/outside-config.js';
import { DEFAULT_SCAN_CONCURRENCY } from '../scan/scan-day.js';
import type { RepositoryReader } from '../score/score-inputs.js';
import { readVerifiedPublishers, VerifiedPublishersError } from '../score/verified-publishers.js';
import { directorySettingsOf } from '../serve/directory-settings.js';
import { Scheduler } from '../serve/scheduler.js';
import { type LicenseValidator, type RunningAtlas, serveAtlas } from '../serve/serve-atlas.js';
import { mergeEnvironment, nameSource, SETTINGS, SettingError } from '../serve/settings.js';
import { followStoreChanges } from '../storage/follow-changes.js';
import { type OpenedStore, openStore, StoreUrlError, storeKindOf } from '../storage/open-store.js';
import { openClusterOnce } from '../workers/cluster-once.js';
import { enqueueDay } from '../workers/enqueue-day.js';
import { openClusterHostGate } from '../workers/host-locks.js';
import { openShardQueue } from '../workers/shard-queue.js';
import { signingKeysForStore } from './keys.js';
import { LOCAL_FLAG_OPTIONS, localChecksOf } from './local-checks.js';
import {
  checksPerHostFlag,
  costFlags,
  EXIT_OK,
  type Flags,
  intFlag,
  outsideFlags,
  parse,
  STALE_TEMP_FILE_AGE_MS,
  storeUrlOf,
  UsageError,
} from './shared.js';

/** The seal time as the usage text shows it (HH:MM). */
const SEAL_TIME_TEXT = [SEAL_RULES.sealTimeUtc.hour, SEAL_RULES.sealTimeUtc.minute]
  .map((part) => String(part).padStart(2, '0'))
  .join(':');

export const SERVE_USAGE = `  serve   [--data DIR | --store URL] [--port P] [--host 127.0.0.1] [--public-url URL] [--trust-proxy N]
          [--license-keys FILE] [--allow-private] [--registry URL] [--no-schedule]
          [--directories all|none|LIST] [--directory-urls NAME=URL,…] [--directory-tokens NAME=TOKEN,…]
          [--queue-daily] [--signing-key FILE] [--bot-contact URL] [--metrics-token TOKEN] [--github-token TOKEN]
          [--verified-publishers NAMES | --verified-publishers-file FILE] [--checks-per-host 1] [--log-format json|pretty]
          [--log-level info] [--daily-budget-usd ${COST_DEFAULT_TEXT.dailyBudgetUsd}] [--five-minute-budget-usd ${COST_DEFAULT_TEXT.fiveMinuteBudgetUsd}]
          run the service: daily/hourly checks, sealing at ${SEAL_TIME_TEXT} UTC, retention, HTTP (with /healthz,
          /readyz and /metrics); JSON logs on stdout, one access-log line per request
          --directories: other directories read each day into the catalog beside the registry (none by default)
          --store: file:DIR (the same as --data DIR) or postgres://user@host:port/db, shared by several serve
          processes; each rebuilds its pages when another process writes a new day, seal or hour (MCP_ATLAS_STORE)
          --host: the address to bind; anything but loopback needs --public-url
          --public-url: the origin pages, snippets and the Host check name (https://atlas.example.org)
          --trust-proxy: how many reverse proxies append to X-Forwarded-For (default 0: the socket address)
          --license-keys: paying reporters' keys, one a line (# comments); without it no key counts as paid
          --allow-private: also watch http, IP-literal and private-network servers (a company's own network)
          --queue-daily: put each day's shards on the queue for mcp-atlas worker processes, which check and fold
          the day, instead of checking it here (needs a postgres:// store)
          --signing-key: an Ed25519 key you keep (PKCS#8 PEM or the project's JSON), never copied to --data
          --bot-contact: where server owners reach you, in the user agent: mcp-atlas-bot/<version> (+URL)
          --metrics-token: /metrics then needs "Authorization: Bearer TOKEN"
          every setting also from an environment variable (MCP_ATLAS_DATA, PORT or MCP_ATLAS_PORT,
          MCP_ATLAS_PUBLIC_URL, ...: see the README's settings table); the flag wins
          outside services: [--rdap https://rdap.org] [--npm-registry https://registry.npmjs.org]
          [--pypi https://pypi.org] [--osv https://api.osv.dev] [--npm-downloads https://api.npmjs.org]
          [--pypi-stats https://pypistats.org]
          --local: after each daily check, install package-only registry entries at their version and list their
          tools in a bubblewrap sandbox, from --npm-registry and [--pypi-index URL] into [--package-cache DIR]`;

/** The official MCP registry, read by `serve` unless --registry names another. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** The address `serve` binds unless --host or MCP_ATLAS_HOST names another: loopback, reachable only here. */
export const DEFAULT_SERVE_HOST = '127.0.0.1';

/** The most proxy hops --trust-proxy takes; a real chain is one to three, more is a typo. */
export const MAX_TRUSTED_PROXY_HOPS = 16;

/** Everything `serve` runs with, read from the flags and the environment. */
export interface ServeSettings {
  /** The flags as parsed, for the data folder reader. */
  flags: Flags;
  /** The store: --store, else --data as file:DIR, else MCP_ATLAS_STORE, else MCP_ATLAS_DATA or ./atlas-data. */
  storeUrl: string;
  port: number;
  host: string;
  publicUrl: string | null;
  trustedProxyHops: number;
  /** The license key file, or null: then every key is refused. */
  licenseKeysFile: string | null;
  allowPrivate: boolean;
  registryUrl: string;
  /** The directories read beside the registry each day, with their base URLs and tokens. */
  directories: DirectorySetting[];
  schedule: boolean;
  /** The schedule queues each day's shards for workers instead of checking the day itself (PostgreSQL only). */
  queueDaily: boolean;
  costs: CostSettings;
  outside: OutsideServiceUrls;
  /** The operator's key file, or null: then the data folder's key (made on first start). */
  signingKeyFile: string | null;
  /** The contact URL in the bot's user agent, or null for the project's bot page. */
  botContact: string | null;
  /** The user agent every check and lookup sends. */
  botUserAgent: string;
  /** The bearer token /metrics requires, or null to leave it open. */
  metricsToken: string | null;
  /** The GitHub token the daily score reads repositories with, or null: the repository dimensions stay pending. */
  githubToken: string | null;
  /** Checks of one host (name and port) that may run at once across every lane. */
  checksPerHost: number;
  /** The verified-publisher settings as given (a list, a file), read at start; null: the score's built-in list. */
  verifiedPublishers: { list: string | null; file: string | null };
  logFormat: LogFormat;
  logLevel: string;
}

/** The shortest metrics token taken: long enough that guessing it is hopeless. */
export const MIN_METRICS_TOKEN_LENGTH = 16;

/** Visible ASCII without spaces: what a header value and a bearer token may carry here. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The bot's user agent: `mcp-atlas-bot/<version> (+contact)`, or the probe's default (naming the project's bot
 * page) without a contact.
 *
 * @example
 * botUserAgentFor('https://atlas.example.org/bot'); // 'mcp-atlas-bot/0.1.0 (+https://atlas.example.org/bot)'
 */
export function botUserAgentFor(contact: string | null): string {
  return contact === null
    ? IDENTITY_RULES.userAgent
    : `${IDENTITY_RULES.botToken}/${IDENTITY_RULES.botVersion} (+${contact})`;
}

/** The --bot-contact URL checked: https, http or mailto, and nothing a header or the comment could not carry. */
function checkBotContact(value: string | null): string | null {
  if (value === null) return null;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (
    url === null ||
    !['https:', 'http:', 'mailto:'].includes(url.protocol) ||
    !VISIBLE_ASCII.test(value) ||
    /[()]/.test(value)
  )
    throw new UsageError('--bot-contact must be an https:, http: or mailto: URL without spaces or parentheses');
  return value;
}

function checkMetricsToken(value: string | null): string | null {
  if (value === null) return null;
  if (value.length < MIN_METRICS_TOKEN_LENGTH || !VISIBLE_ASCII.test(value))
    throw new UsageError(
      `--metrics-token must be at least ${MIN_METRICS_TOKEN_LENGTH} visible ASCII characters without spaces`,
    );
  return value;
}

function checkChoice<T extends string>(name: string, value: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}`);
  return value as T;
}

const SERVE_FLAG_OPTIONS = {
  data: { type: 'string' },
  store: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'public-url': { type: 'string' },
  'trust-proxy': { type: 'string' },
  'license-keys': { type: 'string' },
  'allow-private': { type: 'boolean' },
  registry: { type: 'string' },
  directories: { type: 'string' },
  'directory-urls': { type: 'string' },
  'directory-tokens': { type: 'string' },
  'no-schedule': { type: 'boolean' },
  'queue-daily': { type: 'boolean' },
  'signing-key': { type: 'string' },
  'bot-contact': { type: 'string' },
  'metrics-token': { type: 'string' },
  'github-token': { type: 'string' },
  'verified-publishers': { type: 'string' },
  'verified-publishers-file': { type: 'string' },
  'checks-per-host': { type: 'string' },
  'log-format': { type: 'string' },
  'log-level': { type: 'string' },
  ...COST_FLAG_OPTIONS,
  ...OUTSIDE_FLAG_OPTIONS,
  ...LOCAL_FLAG_OPTIONS,
} as const;

/** A string setting after the environment was merged in, or null. */
function stringSetting(flags: Flags, name: string): string | null {
  const value = flags[name];
  return typeof value === 'string' ? value : null;
}

/**
 * Reads `serve`'s settings from its arguments and the environment (the flag wins), checking each; a bad one is
 * a UsageError that names the setting, and its environment variable when the value came from there. Nothing is
 * started and no file is read here.
 *
 * @example
 * readServeSettings(['--public-url', 'https://atlas.example.org', '--trust-proxy', '1'], process.env);
 */
export function readServeSettings(args: readonly string[], env: NodeJS.ProcessEnv): ServeSettings {
  const parsed = parse(args, SERVE_FLAG_OPTIONS);
  let merged: ReturnType<typeof mergeEnvironment>;
  try {
    merged = mergeEnvironment(parsed, env, SETTINGS);
  } catch (error) {
    if (error instanceof SettingError) throw new UsageError(error.message);
    throw error;
  }
  try {
    const settings = { ...readMergedSettings(merged.flags), storeUrl: checkStoreUrl(storeUrlOf(parsed, env)) };
    if (settings.queueDaily && storeKindOf(settings.storeUrl) !== 'postgres')
      throw new UsageError('--queue-daily needs --store postgres://…: the workers take the day’s shards from it');
    return settings;
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(nameSource(error.message, merged.fromEnv));
    throw error;
  }
}

/** The store URL checked for a driver this build has, so a typo is a usage error before anything starts. */
function checkStoreUrl(url: string): string {
  try {
    storeKindOf(url);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(`--store: ${error.message}`);
    throw error;
  }
  return url;
}

function readMergedSettings(flags: Flags): Omit<ServeSettings, 'storeUrl'> {
  const port = intFlag(flags, 'port', 8787, 0, 65_535);
  const host = stringSetting(flags, 'host') ?? DEFAULT_SERVE_HOST;
  const publicUrl = stringSetting(flags, 'public-url');
  const trustedProxyHops = intFlag(flags, 'trust-proxy', 0, 0, MAX_TRUSTED_PROXY_HOPS);
  try {
    // The same check serveAtlas makes, made here so that a bad setting is a usage error before anything starts.
    createSiteAddress({ publicUrl, bindHost: host, port: null });
  } catch (error) {
    if (error instanceof SiteAddressError) throw new UsageError(error.message);
    throw error;
  }
  const registryUrl = String(flags.registry ?? DEFAULT_REGISTRY_URL);
  try {
    new URL(registryUrl);
  } catch {
    throw new UsageError('--registry must be an absolute URL');
  }
  const licenseKeys = stringSetting(flags, 'license-keys');
  const signingKey = stringSetting(flags, 'signing-key');
  const botContact = checkBotContact(stringSetting(flags, 'bot-contact'));
  return {
    flags,
    port,
    host,
    publicUrl,
    trustedProxyHops,
    licenseKeysFile: licenseKeys === null ? null : resolve(licenseKeys),
    allowPrivate: flags['allow-private'] === true,
    registryUrl,
    directories: directorySettingsOf({
      directories: stringSetting(flags, 'directories'),
      urls: stringSetting(flags, 'directory-urls'),
      tokens: stringSetting(flags, 'directory-tokens'),
    }),
    schedule: flags['no-schedule'] !== true,
    queueDaily: flags['queue-daily'] === true,
    costs: costFlags(flags),
    outside: outsideFlags(flags),
    signingKeyFile: signingKey === null ? null : resolve(signingKey),
    botContact,
    botUserAgent: botUserAgentFor(botContact),
    metricsToken: checkMetricsToken(stringSetting(flags, 'metrics-token')),
    githubToken: checkGithubToken(stringSetting(flags, 'github-token')),
    checksPerHost: checksPerHostFlag(flags),
    verifiedPublishers: {
      list: stringSetting(flags, 'verified-publishers'),
      file: (() => {
        const file = stringSetting(flags, 'verified-publishers-file');
        return file === null ? null : resolve(file);
      })(),
    },
    logFormat: checkChoice('log-format', stringSetting(flags, 'log-format') ?? 'json', LOG_FORMATS),
    logLevel: checkChoice('log-level', stringSetting(flags, 'log-level') ?? 'info', LOG_LEVELS),
  };
}

/** A GitHub token as given, refused when it could not be a header value (the message never repeats it). */
function checkGithubToken(token: string | null): string | null {
  if (token === null) return null;
  if (!VISIBLE_ASCII.test(token)) {
    throw new UsageError('--github-token must be visible ASCII characters without spaces');
  }
  return token;
}

/** The operator's verified publishers, read once at start; null when none was given (the built-in list). */
async function loadVerifiedPublishers(
  settings: ServeSettings['verifiedPublishers'],
  log: Logger,
): Promise<string[] | null> {
  try {
    const names = await readVerifiedPublishers(settings);
    log.info(
      { verified_publishers: names?.length ?? null },
      names === null ? 'verified publishers: the score’s built-in list' : 'verified publishers loaded',
    );
    return names;
  } catch (error) {
    if (error instanceof VerifiedPublishersError) throw new UsageError(error.message);
    throw error;
  }
}

/** The validator over the key file's keys (held as keyed hashes), or one that refuses every key without a file. */
async function loadLicenseValidator(file: string | null, log: Logger): Promise<LicenseValidator | undefined> {
  if (file === null) {
    log.info({ license_keys: 0 }, 'no --license-keys file: no report counts as a paying reporter’s');
    return undefined;
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--license-keys: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const store = createLicenseKeyStore(parseLicenseKeyList(text));
    // Only the count is logged: a key is a credential.
    log.info({ license_keys: store.size }, 'license keys loaded');
    return licenseValidatorOf(store);
  } catch (error) {
    if (error instanceof LicenseKeyFileError) throw new UsageError(`--license-keys: ${error.message}`);
    throw error;
  }
}

/**
 * The probe's network for the schedule and token reads: the guarded Node network, private targets allowed or
 * not, sending `userAgent` (default: the probe's own).
 */
export function serveNetworkOf(allowPrivate: boolean, userAgent?: string): NetworkOptions {
  // Only the address and https rules are lifted; the guard keeps refusing templates, user info and opted-out hosts.
  const base = userAgent === undefined ? nodeNetwork : { ...nodeNetwork, userAgent };
  return allowPrivate ? { ...base, allowPrivate: true } : base;
}

/** The daily score's repository reader: GitHub's REST API with the operator's token, through the guarded network. */
function githubReaderOf(network: NetworkOptions, token: string): RepositoryReader {
  return (repoUrl) => readGitHubRepository(repoUrl, { ...network, token });
}

/**
 * Opens the service's store. For the data folder, temp files a crash left are cleared first (only old ones: a
 * `scan` may be writing to the same folder).
 */
async function openServeStore(url: string): Promise<OpenedStore> {
  try {
    return await openStore(url, { removeTempFilesModifiedAtOrBefore: Date.now() - STALE_TEMP_FILE_AGE_MS });
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(`--store: ${error.message}`);
    throw error;
  }
}

/** A started service and its schedule (null with --no-schedule). */
export interface StartedServe {
  running: RunningAtlas;
  scheduler: Scheduler | null;
}

/**
 * Starts the service with `settings`: opens the data folder, loads the signing and license keys, serves, and
 * starts the schedule. `handleSignals: false` leaves SIGINT and SIGTERM alone (tests close it themselves).
 */
export async function startServe(
  settings: ServeSettings,
  log: Logger,
  options: { handleSignals?: boolean } = {},
): Promise<StartedServe> {
  const validateLicense = await loadLicenseValidator(settings.licenseKeysFile, log);
  const verifiedPublishers = await loadVerifiedPublishers(settings.verifiedPublishers, log);
  const storage = await openServeStore(settings.storeUrl);
  // A store the service cannot sign for is closed again, so a refused start leaves no pool behind.
  const keys = await signingKeysForStore({ signingKeyFile: settings.signingKeyFile, store: storage, log }).catch(
    async (error: unknown) => {
      await storage.close();
      throw error;
    },
  );
  let stopFollowing: () => Promise<void> = async () => undefined;
  const network = serveNetworkOf(settings.allowPrivate, settings.botUserAgent);
  const costs = resolveCosts(settings.costs);
  let scheduler: Scheduler | null = null;
  // On the shared store, every serve process with a schedule runs each task once between them (advisory locks).
  const clusterOnce =
    settings.schedule && storage.kind === 'postgres' ? await openClusterOnce(settings.storeUrl) : null;
  // And their checks share the turns of each host with the shard workers, through advisory locks as well.
  const hostGate =
    clusterOnce !== null
      ? await openClusterHostGate(settings.storeUrl, settings.checksPerHost, DEFAULT_SCAN_CONCURRENCY)
      : null;
  // With --queue-daily the schedule hands each day to the workers through the shard queue.
  const shardQueue =
    settings.schedule && settings.queueDaily
      ? await openShardQueue(settings.storeUrl, { onError: (error) => log.warn({ err: error }, 'queue error') })
      : null;
  const running = await serveAtlas({
    storage,
    port: settings.port,
    host: settings.host,
    publicUrl: settings.publicUrl,
    trustedProxyHops: settings.trustedProxyHops,
    log,
    keys,
    ...(validateLicense !== undefined ? { validateLicense } : {}),
    ownerNetwork: network,
    ...(options.handleSignals !== undefined ? { handleSignals: options.handleSignals } : {}),
    onClose: async () => {
      await scheduler?.stop();
      await clusterOnce?.close();
      await hostGate?.close();
      await shardQueue?.stop({ graceful: false, wait: true }).catch(() => undefined);
      await stopFollowing();
      await storage.close();
    },
    botUserAgent: settings.botUserAgent,
    operator: {
      metricsToken: settings.metricsToken,
      budgetsMicroUsd: { daily: costs.dailyBudgetMicroUsd, fiveMinute: costs.fiveMinuteBudgetMicroUsd },
    },
  });
  if (settings.schedule) {
    const { registryUrl, costs, outside, directories } = settings;
    const local = localChecksOf(settings.flags);
    scheduler = new Scheduler({
      storage,
      log,
      keys,
      registryUrl,
      directories,
      network,
      refresh: running.refresh,
      updateServers: running.updateServers,
      progress: true,
      costs,
      outside,
      // The monthly search evaluation asks the service the way users reach it (the public URL when one is set).
      searchEval: { baseUrl: running.origin },
      checksPerHost: settings.checksPerHost,
      ...(local !== null ? { local } : {}),
      ...(settings.githubToken !== null ? { readRepository: githubReaderOf(network, settings.githubToken) } : {}),
      ...(verifiedPublishers !== null ? { verifiedPublishers } : {}),
      ...(running.metrics !== null ? { metrics: running.metrics } : {}),
      ...(clusterOnce !== null ? { clusterOnce } : {}),
      ...(hostGate !== null ? { hostGate } : {}),
      ...(shardQueue !== null
        ? {
            queueDay: (day: string) =>
              enqueueDay({ storage, boss: shardQueue, day, network, methodologyVersion: METHODOLOGY_VERSION }),
          }
        : {}),
    });
    scheduler.start();
  }
  // Another process may write the next day, seal or hour (on the shared store), or an operator's change (on
  // either store): rebuild the view when it does.
  stopFollowing = await followStoreChanges(storage, running.refresh, log);
  return { running, scheduler };
}

/** How long a shutdown may take before the process exits anyway: under the 10 s a supervisor gives after SIGTERM, with a margin. */
export const SHUTDOWN_DEADLINE_MS = 8_000;

/** The exit code after a second signal cut the shutdown short. */
export const EXIT_INTERRUPTED = 130;

/** The logger `serve` writes with: JSON (or pretty) lines on stdout at the configured level. */
export function createServeLogger(settings: Pick<ServeSettings, 'logFormat' | 'logLevel'>): Logger {
  return createLogger(settings.logLevel, { destination: 1, format: settings.logFormat });
}

/**
 * Runs `serve`; resolves to the exit code once the service has shut down. Logs go to stdout (JSON by default)
 * unless a logger is given. The first SIGTERM or SIGINT stops taking requests and lets the running task and
 * every write finish; if that takes longer than SHUTDOWN_DEADLINE_MS the process exits 0 anyway (every write is
 * atomic and a daily check resumes from its finished shards). A second signal exits at once.
 */
export async function commandServe(
  args: readonly string[],
  log?: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const settings = readServeSettings(args, env);
  const logger = log ?? createServeLogger(settings);
  const { running } = await startServe(settings, logger, { handleSignals: false });
  // Printed whatever the log level, as one JSON line like the rest of stdout, so a script can wait for it.
  createLogger('info', { destination: 1, format: settings.logFormat }).info(
    { url: running.url, public_url: running.origin },
    `mcp-atlas is serving at ${running.url} with public URL ${running.origin}`,
  );
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals++;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(EXIT_INTERRUPTED);
    }
    logger.info({ signal }, 'signal received: finishing the running work');
    // Unref'd: it never keeps the process alive, and fires only if something still does after the deadline.
    setTimeout(() => {
      logger.warn(
        { deadline_ms: SHUTDOWN_DEADLINE_MS },
        'shutdown deadline reached: exiting; an unfinished daily check resumes at the next start',
      );
      process.exit(EXIT_OK);
    }, SHUTDOWN_DEADLINE_MS).unref();
    void running.close();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await running.closed;
  logger.info('stopped');
  return EXIT_OK;
}
