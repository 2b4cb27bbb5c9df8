// `mcp-atlas serve`: the running service (HTTP, and the schedule unless --no-schedule). Every setting is a
// flag and an environment variable (the flag wins), read once into ServeSettings before anything starts.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { NetworkOptions } from '@mcp-atlas/probe';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import { COST_FLAG_OPTIONS, type CostSettings } from '../costs/cost-settings.js';
import {
  createLicenseKeyStore,
  LicenseKeyFileError,
  licenseValidatorOf,
  parseLicenseKeyList,
} from '../http/license-keys.js';
import { createSiteAddress, SiteAddressError } from '../http/site-address.js';
import type { Logger } from '../log.js';
import { OUTSIDE_FLAG_OPTIONS, type OutsideServiceUrls } from '../outside/outside-config.js';
import { loadOrCreateSigningKeys } from '../seal/keys.js';
import { Scheduler } from '../serve/scheduler.js';
import { type LicenseValidator, type RunningAtlas, serveAtlas } from '../serve/serve-atlas.js';
import { costFlags, EXIT_OK, type Flags, intFlag, openDataFolder, outsideFlags, parse, UsageError } from './shared.js';

export const SERVE_USAGE = `  serve   [--data DIR] [--port P] [--host 127.0.0.1] [--public-url URL] [--trust-proxy N]
          [--license-keys FILE] [--allow-private] [--registry URL] [--no-schedule]
          run the service: daily/hourly checks, sealing at 01:05 UTC, retention, HTTP
          --host: the address to bind; anything but loopback needs --public-url
          --public-url: the origin pages, snippets and the Host check name (https://atlas.example.org)
          --trust-proxy: how many reverse proxies append to X-Forwarded-For (default 0: the socket address)
          --license-keys: paying reporters' keys, one a line (# comments); without it no key counts as paid
          --allow-private: also watch http, IP-literal and private-network servers (a company's own network)
          each also from MCP_ATLAS_HOST, MCP_ATLAS_PUBLIC_URL, MCP_ATLAS_TRUST_PROXY, MCP_ATLAS_LICENSE_KEYS,
          MCP_ATLAS_ALLOW_PRIVATE (the flag wins)
          outside services: [--rdap https://rdap.org] [--npm-registry https://registry.npmjs.org]
          [--pypi https://pypi.org] [--osv https://api.osv.dev]`;

/** The official MCP registry, read by `serve` unless --registry names another. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** The address `serve` binds unless --host or MCP_ATLAS_HOST names another: loopback, reachable only here. */
export const DEFAULT_SERVE_HOST = '127.0.0.1';

/** The most proxy hops --trust-proxy takes; a real chain is one to three, more is a typo. */
export const MAX_TRUSTED_PROXY_HOPS = 16;

/** The environment variable behind each new `serve` flag (the flag wins when both are given). */
export const SERVE_ENV = {
  host: 'MCP_ATLAS_HOST',
  'public-url': 'MCP_ATLAS_PUBLIC_URL',
  'trust-proxy': 'MCP_ATLAS_TRUST_PROXY',
  'license-keys': 'MCP_ATLAS_LICENSE_KEYS',
  'allow-private': 'MCP_ATLAS_ALLOW_PRIVATE',
} as const;

/** Everything `serve` runs with, read from the flags and the environment. */
export interface ServeSettings {
  /** The flags as parsed, for the data folder reader. */
  flags: Flags;
  port: number;
  host: string;
  publicUrl: string | null;
  trustedProxyHops: number;
  /** The license key file, or null: then every key is refused. */
  licenseKeysFile: string | null;
  allowPrivate: boolean;
  registryUrl: string;
  schedule: boolean;
  costs: CostSettings;
  outside: OutsideServiceUrls;
}

const SERVE_FLAG_OPTIONS = {
  data: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'public-url': { type: 'string' },
  'trust-proxy': { type: 'string' },
  'license-keys': { type: 'string' },
  'allow-private': { type: 'boolean' },
  registry: { type: 'string' },
  'no-schedule': { type: 'boolean' },
  ...COST_FLAG_OPTIONS,
  ...OUTSIDE_FLAG_OPTIONS,
} as const;

/** A string setting: the flag, else its environment variable, else null (an empty variable counts as unset). */
function stringSetting(flags: Flags, env: NodeJS.ProcessEnv, name: keyof typeof SERVE_ENV): string | null {
  const flag = flags[name];
  if (typeof flag === 'string') return flag;
  const value = env[SERVE_ENV[name]];
  return value === undefined || value === '' ? null : value;
}

/** The --allow-private switch: the flag, else MCP_ATLAS_ALLOW_PRIVATE as 1/true/yes or 0/false/no. */
function allowPrivateSetting(flags: Flags, env: NodeJS.ProcessEnv): boolean {
  if (flags['allow-private'] === true) return true;
  const value = (env[SERVE_ENV['allow-private']] ?? '').trim().toLowerCase();
  if (value === '' || value === '0' || value === 'false' || value === 'no') return false;
  if (value === '1' || value === 'true' || value === 'yes') return true;
  throw new UsageError(`${SERVE_ENV['allow-private']} must be 1, true, yes, 0, false or no`);
}

/**
 * Reads `serve`'s settings from its arguments and the environment, checking each; a bad one is a UsageError.
 * Nothing is started and no file is read here.
 *
 * @example
 * readServeSettings(['--public-url', 'https://atlas.example.org', '--trust-proxy', '1'], process.env);
 */
export function readServeSettings(args: readonly string[], env: NodeJS.ProcessEnv): ServeSettings {
  const flags = parse(args, SERVE_FLAG_OPTIONS);
  const port = intFlag(flags, 'port', 8787, 0, 65_535);
  const host = stringSetting(flags, env, 'host') ?? DEFAULT_SERVE_HOST;
  const publicUrl = stringSetting(flags, env, 'public-url');
  const hopsText = stringSetting(flags, env, 'trust-proxy');
  const trustedProxyHops = intFlag(
    { 'trust-proxy': hopsText ?? undefined },
    'trust-proxy',
    0,
    0,
    MAX_TRUSTED_PROXY_HOPS,
  );
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
  const licenseKeys = stringSetting(flags, env, 'license-keys');
  return {
    flags,
    port,
    host,
    publicUrl,
    trustedProxyHops,
    licenseKeysFile: licenseKeys === null ? null : resolve(licenseKeys),
    allowPrivate: allowPrivateSetting(flags, env),
    registryUrl,
    schedule: flags['no-schedule'] !== true,
    costs: costFlags(flags),
    outside: outsideFlags(flags),
  };
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

/** The probe's network for the schedule and token reads: the guarded Node network, private targets allowed or not. */
export function serveNetworkOf(allowPrivate: boolean): NetworkOptions {
  // Only the address and https rules are lifted; the guard keeps refusing templates, user info and opted-out hosts.
  return allowPrivate ? { ...nodeNetwork, allowPrivate: true } : nodeNetwork;
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
  // With the folder on disk: a new key's folders are fsynced, and a key file open to others is tightened.
  const { dir, storage } = await openDataFolder(settings.flags);
  const keys = await loadOrCreateSigningKeys(storage, new Date(), {
    dataDir: dir,
    warn: (message) => log.warn(message),
  });
  const network = serveNetworkOf(settings.allowPrivate);
  let scheduler: Scheduler | null = null;
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
    onClose: async () => scheduler?.stop(),
  });
  if (settings.schedule) {
    const { registryUrl, costs, outside } = settings;
    scheduler = new Scheduler({
      storage,
      log,
      keys,
      registryUrl,
      network,
      refresh: running.refresh,
      updateServers: running.updateServers,
      progress: true,
      costs,
      outside,
    });
    scheduler.start();
  }
  return { running, scheduler };
}

/** Runs `serve`; resolves to the exit code once the service has shut down. */
export async function commandServe(
  args: readonly string[],
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const settings = readServeSettings(args, env);
  const { running } = await startServe(settings, log);
  process.stdout.write(
    `mcp-atlas is serving at ${running.url}${running.origin !== running.url ? ` (public URL ${running.origin})` : ''}\n`,
  );
  await running.closed;
  return EXIT_OK;
}
