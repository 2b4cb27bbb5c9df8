// Every setting in one table: its flag, the environment variables that also set it, and what it does. Every
// command reads the rows of the flags it takes (serve most of them; scan, worker, seal, site and the rest the
// few they share), so a container or a systemd unit configures any command through the environment alone, and a
// flag on the command line wins over the environment. The README's settings table lists this table. The compute
// caps' defaults are read from their rule group, so the table cannot drift from what the service applies.
import { COST_CAP_RULES } from '@mcp-atlas/operations/rules';
import { LOCAL_RULES } from '@mcp-atlas/probe/rules';
import { DEFAULT_SCAN_CONCURRENCY } from '../scan/scan-day.js';
import { DEFAULT_LEASE_SECONDS } from '../workers/shard-queue.js';

/** One setting: a flag, and the environment variables that set it for every command that takes the flag. */
export interface Setting {
  /** The flag's name without the dashes. */
  flag: string;
  type: 'string' | 'boolean';
  /** The environment variables that set it when the flag is absent, the first found winning. */
  env: readonly string[];
  /** The default, as the README shows it. */
  fallback: string;
  /** One line on what it does. */
  help: string;
}

/** Every setting, in the order the README lists them. */
export const SETTINGS: readonly Setting[] = [
  { flag: 'data', type: 'string', env: ['MCP_ATLAS_DATA'], fallback: './atlas-data', help: 'the data folder' },
  {
    flag: 'store',
    type: 'string',
    env: ['MCP_ATLAS_STORE'],
    fallback: 'file:DIR of --data',
    help: 'the store: file:DIR (the data folder) or postgres://… shared by several processes; beats MCP_ATLAS_DATA',
  },
  {
    flag: 'port',
    type: 'string',
    env: ['MCP_ATLAS_PORT', 'PORT'],
    fallback: '8787',
    help: 'the TCP port (0 picks a free one)',
  },
  {
    flag: 'host',
    type: 'string',
    env: ['MCP_ATLAS_HOST'],
    fallback: '127.0.0.1',
    help: 'the address to bind; anything but loopback needs a public URL',
  },
  {
    flag: 'public-url',
    type: 'string',
    env: ['MCP_ATLAS_PUBLIC_URL'],
    fallback: '(the bound address)',
    help: 'the origin users reach the service at',
  },
  {
    flag: 'checks-per-host',
    type: 'string',
    env: ['MCP_ATLAS_CHECKS_PER_HOST'],
    fallback: '1',
    help: 'checks of one host (name and port) that may run at once, across every lane',
  },
  {
    flag: 'trust-proxy',
    type: 'string',
    env: ['MCP_ATLAS_TRUST_PROXY'],
    fallback: '0',
    help: 'reverse proxies in front that append to X-Forwarded-For',
  },
  {
    flag: 'license-keys',
    type: 'string',
    env: ['MCP_ATLAS_LICENSE_KEYS'],
    fallback: '(none)',
    help: 'file of paying reporters’ keys, one a line',
  },
  {
    flag: 'allow-private',
    type: 'boolean',
    env: ['MCP_ATLAS_ALLOW_PRIVATE'],
    fallback: 'false',
    help: 'also watch http, IP-literal and private-network servers',
  },
  {
    flag: 'registry',
    type: 'string',
    env: ['MCP_ATLAS_REGISTRY'],
    fallback: 'https://registry.modelcontextprotocol.io',
    help: 'the MCP registry read each day',
  },
  {
    flag: 'directories',
    type: 'string',
    env: ['MCP_ATLAS_DIRECTORIES'],
    fallback: 'none',
    help: 'directories read beside the registry: all, none, or a comma list of glama, pulsemcp, smithery, docker-hub, best-of-mcp-servers, awesome-mcp-servers, github-topics',
  },
  {
    flag: 'directory-urls',
    type: 'string',
    env: ['MCP_ATLAS_DIRECTORY_URLS'],
    fallback: '(each public URL)',
    help: 'base URLs replacing public ones, as glama=https://…,smithery=https://…',
  },
  {
    flag: 'directory-tokens',
    type: 'string',
    env: ['MCP_ATLAS_DIRECTORY_TOKENS'],
    fallback: '(none)',
    help: 'tokens, as glama=…,smithery=…; set it in the environment, where no process list shows it',
  },
  {
    flag: 'no-schedule',
    type: 'boolean',
    env: ['MCP_ATLAS_NO_SCHEDULE'],
    fallback: 'false',
    help: 'serve only: no checks, sealing or retention',
  },
  {
    flag: 'queue-daily',
    type: 'boolean',
    env: ['MCP_ATLAS_QUEUE_DAILY'],
    fallback: 'false',
    help: 'serve only: queue each day’s check for `worker` processes instead of running it (PostgreSQL store)',
  },
  {
    flag: 'signing-key',
    type: 'string',
    env: ['MCP_ATLAS_SIGNING_KEY'],
    fallback: '(data/keys/, made on first start)',
    help: 'an Ed25519 private key file you keep (PKCS#8 PEM or the project’s JSON); never copied',
  },
  {
    flag: 'bot-contact',
    type: 'string',
    env: ['MCP_ATLAS_BOT_CONTACT'],
    fallback: '(the project’s bot page)',
    help: 'URL (https: or mailto:) named in the bot’s user agent',
  },
  {
    flag: 'metrics-token',
    type: 'string',
    env: ['MCP_ATLAS_METRICS_TOKEN'],
    fallback: '(open)',
    help: 'bearer token /metrics requires (at least 16 characters)',
  },
  {
    flag: 'github-token',
    type: 'string',
    env: ['MCP_ATLAS_GITHUB_TOKEN'],
    fallback: '(none: the repository dimensions stay pending)',
    help: 'GitHub token the daily score reads repositories with (docs, maintenance, license, versions)',
  },
  {
    flag: 'verified-publishers',
    type: 'string',
    env: ['MCP_ATLAS_VERIFIED_PUBLISHERS'],
    fallback: '(the score’s built-in list)',
    help: 'GitHub organisations and npm scopes, comma-separated, whose servers the score counts as from a verified publisher',
  },
  {
    flag: 'verified-publishers-file',
    type: 'string',
    env: ['MCP_ATLAS_VERIFIED_PUBLISHERS_FILE'],
    fallback: '(none)',
    help: 'the same list as a file, one name a line (`#` starts a comment); instead of --verified-publishers',
  },
  {
    flag: 'log-format',
    type: 'string',
    env: ['MCP_ATLAS_LOG_FORMAT'],
    fallback: 'json',
    help: '`json` (one object a line on stdout) or `pretty` (for people)',
  },
  {
    flag: 'log-level',
    type: 'string',
    env: ['MCP_ATLAS_LOG_LEVEL'],
    fallback: 'info',
    help: 'fatal, error, warn, info, debug, trace or silent',
  },
  {
    flag: 'daily-budget-usd',
    type: 'string',
    env: ['MCP_ATLAS_DAILY_BUDGET_USD'],
    fallback: COST_CAP_RULES.dailyCheckBudgetUsd.toFixed(2),
    help: 'what the daily checks may spend per UTC day',
  },
  {
    flag: 'five-minute-budget-usd',
    type: 'string',
    env: ['MCP_ATLAS_FIVE_MINUTE_BUDGET_USD'],
    fallback: COST_CAP_RULES.fiveMinuteBudgetUsd.toFixed(2),
    help: 'what the five-minute checks may spend per UTC day',
  },
  {
    flag: 'check-cost-usd',
    type: 'string',
    env: ['MCP_ATLAS_CHECK_COST_USD'],
    fallback: String(COST_CAP_RULES.defaultCheckCostModel.perCheckUsd),
    help: 'the cost model: per check',
  },
  {
    flag: 'check-cost-per-second-usd',
    type: 'string',
    env: ['MCP_ATLAS_CHECK_COST_PER_SECOND_USD'],
    fallback: String(COST_CAP_RULES.defaultCheckCostModel.perSecondUsd),
    help: 'the cost model: per second of a check',
  },
  { flag: 'rdap', type: 'string', env: ['MCP_ATLAS_RDAP_URL'], fallback: 'https://rdap.org', help: 'RDAP base URL' },
  {
    flag: 'npm-registry',
    type: 'string',
    env: ['MCP_ATLAS_NPM_REGISTRY_URL'],
    fallback: 'https://registry.npmjs.org',
    help: 'npm registry base URL',
  },
  { flag: 'pypi', type: 'string', env: ['MCP_ATLAS_PYPI_URL'], fallback: 'https://pypi.org', help: 'PyPI base URL' },
  {
    flag: 'local',
    type: 'boolean',
    env: ['MCP_ATLAS_LOCAL'],
    fallback: 'false',
    help: 'after each daily check, install package-only registry entries and list their tools in a bubblewrap sandbox',
  },
  {
    flag: 'pypi-index',
    type: 'string',
    env: ['MCP_ATLAS_PYPI_INDEX_URL'],
    fallback: LOCAL_RULES.defaultPypiIndex,
    help: 'the Python package index local checks install from',
  },
  {
    flag: 'package-cache',
    type: 'string',
    env: ['MCP_ATLAS_PACKAGE_CACHE'],
    fallback: '~/.cache/mcp-atlas/packages',
    help: 'where local checks keep installed packages (the sandbox user must be able to reach it)',
  },
  { flag: 'osv', type: 'string', env: ['MCP_ATLAS_OSV_URL'], fallback: 'https://api.osv.dev', help: 'OSV base URL' },
  {
    flag: 'npm-downloads',
    type: 'string',
    env: ['MCP_ATLAS_NPM_DOWNLOADS_URL'],
    fallback: 'https://api.npmjs.org',
    help: 'npm download counts base URL',
  },
  {
    flag: 'pypi-stats',
    type: 'string',
    env: ['MCP_ATLAS_PYPI_STATS_URL'],
    fallback: 'https://pypistats.org',
    help: 'PyPI download counts (pypistats.org) base URL',
  },
  {
    flag: 'concurrency',
    type: 'string',
    env: ['MCP_ATLAS_CONCURRENCY'],
    fallback: String(DEFAULT_SCAN_CONCURRENCY),
    help: 'worker only: checks one worker runs at once',
  },
  {
    flag: 'lease-seconds',
    type: 'string',
    env: ['MCP_ATLAS_LEASE_SECONDS'],
    fallback: String(DEFAULT_LEASE_SECONDS),
    help: 'worker only: how long a shard stays a worker’s before another may take it',
  },
];

/** A setting's value that is not one of the accepted words or numbers; the message names the setting. */
export class SettingError extends Error {}

/** The flags as parsed, with each absent one filled from its environment variable, and where each value came from. */
export interface MergedSettings {
  flags: Record<string, string | boolean | undefined>;
  /** For each flag filled from the environment, the variable it came from. */
  fromEnv: Map<string, string>;
}

/** Reads a boolean variable: 1/true/yes/on or 0/false/no/off (any case); anything else is a SettingError. */
export function parseBooleanSetting(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(value)) return false;
  throw new SettingError(`${name} must be 1, true, yes, 0, false or no, got ${JSON.stringify(raw.slice(0, 100))}`);
}

/**
 * Fills every flag left off the command line from its environment variable (an empty variable counts as
 * unset). The flag always wins, so an operator can override one setting of a unit file on the command line.
 *
 * @example
 * mergeEnvironment({ port: '9000' }, { PORT: '8080', MCP_ATLAS_DATA: '/var/lib/mcp-atlas' });
 * // flags: { port: '9000', data: '/var/lib/mcp-atlas' }, fromEnv: Map { 'data' => 'MCP_ATLAS_DATA' }
 */
export function mergeEnvironment(
  flags: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv,
  settings: readonly Setting[] = SETTINGS,
): MergedSettings {
  const merged = { ...flags };
  const fromEnv = new Map<string, string>();
  for (const setting of settings) {
    if (merged[setting.flag] !== undefined) continue;
    const name = setting.env.find((candidate) => (env[candidate] ?? '') !== '');
    if (name === undefined) continue;
    const raw = env[name] as string;
    if (setting.type === 'boolean') {
      if (parseBooleanSetting(name, raw)) merged[setting.flag] = true;
    } else {
      merged[setting.flag] = raw;
    }
    fromEnv.set(setting.flag, name);
  }
  return { flags: merged, fromEnv };
}

/** True when `message` is about `--flag` (it names the flag, followed by a space or a colon). */
function isAbout(message: string, flag: string): boolean {
  return message.includes(`--${flag} `) || message.includes(`--${flag}:`);
}

/** A message about `--flag` rewritten to also name the environment variable the value came from. */
export function nameSource(message: string, fromEnv: ReadonlyMap<string, string>): string {
  if (message.includes('(set by ')) return message;
  for (const [flag, name] of fromEnv) {
    if (isAbout(message, flag)) return `${message} (set by ${name})`;
  }
  return message;
}

/**
 * Where the flags of a command line that were not on it came from: each setting whose flag is absent from `args`
 * (before a `--`) and whose variable is set, mapped to that variable. For naming the source of a bad value.
 */
export function settingSources(args: readonly string[], env: NodeJS.ProcessEnv): Map<string, string> {
  const end = args.indexOf('--');
  const given = new Set(
    (end === -1 ? args : args.slice(0, end))
      .filter((word) => word.startsWith('--'))
      .map((word) => word.slice(2).split('=')[0]),
  );
  const sources = new Map<string, string>();
  for (const setting of SETTINGS) {
    if (given.has(setting.flag)) continue;
    const name = setting.env.find((candidate) => (env[candidate] ?? '') !== '');
    if (name !== undefined) sources.set(setting.flag, name);
  }
  return sources;
}
