// Where the outside services live (RDAP, npm, PyPI, OSV, the download counts) and when the package layer runs. The addresses
// default to the public services named in @mcp-atlas/probe; an operator (or a test) replaces any of them.

import { isAtOrAfterTimeOfDay } from '@mcp-atlas/operations';
import { normalizeBaseUrl } from '@mcp-atlas/probe/outside';
import { OUTSIDE_SERVICE_RULES } from '@mcp-atlas/probe/rules';

/**
 * When the service asks OSV about the day's package versions: 04:05 UTC, so that a service that was down then
 * still catches up the same day. This is the service's schedule, not a rule of the probe (which only reads OSV
 * when asked), so it lives here with the rest of the package layer's timing.
 */
export const OSV_CHECK_TIME_UTC: Readonly<{ hour: number; minute: number }> = Object.freeze({ hour: 4, minute: 5 });

/** The outside services' base URLs as an operator may set them; anything left out takes the default. */
export interface OutsideServiceUrls {
  /** RDAP, for a domain's registration date (default https://rdap.org). */
  rdapUrl?: string;
  /** The npm registry (default https://registry.npmjs.org). */
  npmUrl?: string;
  /** PyPI (default https://pypi.org). */
  pypiUrl?: string;
  /** The OSV API (default https://api.osv.dev). */
  osvUrl?: string;
  /** npm's download counts API (default https://api.npmjs.org). */
  npmDownloadsUrl?: string;
  /** PyPI's download counts, pypistats.org (default https://pypistats.org). */
  pypiStatsUrl?: string;
}

/** Every base URL, filled in. */
export type ResolvedOutsideUrls = Required<OutsideServiceUrls>;

/** Thrown for a base URL that is not an absolute http(s) URL. */
export class OutsideUrlError extends Error {
  constructor(
    readonly option: keyof OutsideServiceUrls,
    value: string,
    named: string = option,
  ) {
    super(
      `${named} must be an absolute http(s) URL with no query or fragment, got ${JSON.stringify(value.slice(0, 200))}`,
    );
    this.name = 'OutsideUrlError';
  }
}

// The probe's own check, so a URL that passes start-up is one every lookup accepts.
function checkUrl(option: keyof OutsideServiceUrls, value: string | undefined, fallback: string): string {
  const url = value ?? fallback;
  if (normalizeBaseUrl(url) === null) throw new OutsideUrlError(option, url);
  return url;
}

/** Fills in the defaults and checks each URL once, at start-up rather than at the first lookup. */
export function resolveOutsideUrls(urls: OutsideServiceUrls = {}): ResolvedOutsideUrls {
  return {
    rdapUrl: checkUrl('rdapUrl', urls.rdapUrl, OUTSIDE_SERVICE_RULES.defaultRdapUrl),
    npmUrl: checkUrl('npmUrl', urls.npmUrl, OUTSIDE_SERVICE_RULES.defaultNpmRegistryUrl),
    pypiUrl: checkUrl('pypiUrl', urls.pypiUrl, OUTSIDE_SERVICE_RULES.defaultPypiUrl),
    osvUrl: checkUrl('osvUrl', urls.osvUrl, OUTSIDE_SERVICE_RULES.defaultOsvUrl),
    npmDownloadsUrl: checkUrl('npmDownloadsUrl', urls.npmDownloadsUrl, OUTSIDE_SERVICE_RULES.defaultNpmDownloadsUrl),
    pypiStatsUrl: checkUrl('pypiStatsUrl', urls.pypiStatsUrl, OUTSIDE_SERVICE_RULES.defaultPypiStatsUrl),
  };
}

// Only how many requests run at once stays here: that is scheduling, not a rule of the methodology. Every
// window and count (the OSV retry, the package layer's look-back, packages per entry) is @mcp-atlas/operations'.

/** Package reads running at the same time (the registries are shared public services: ask politely). */
export const PACKAGE_READ_CONCURRENCY = 4;

/** RDAP lookups running at the same time. */
export const RDAP_LOOKUP_CONCURRENCY = 4;

/** True once `now` is at or after OSV_CHECK_TIME_UTC (04:05 UTC) of its day. */
export function isAfterOsvTime(now: Date): boolean {
  return isAtOrAfterTimeOfDay(now, OSV_CHECK_TIME_UTC);
}

/** The `serve` command's flags for the outside services' base URLs. */
export const OUTSIDE_FLAG_OPTIONS = {
  rdap: { type: 'string' },
  'npm-registry': { type: 'string' },
  pypi: { type: 'string' },
  osv: { type: 'string' },
  'npm-downloads': { type: 'string' },
  'pypi-stats': { type: 'string' },
} as const;

const FLAG_OF: Record<keyof typeof OUTSIDE_FLAG_OPTIONS, keyof OutsideServiceUrls> = {
  rdap: 'rdapUrl',
  'npm-registry': 'npmUrl',
  pypi: 'pypiUrl',
  osv: 'osvUrl',
  'npm-downloads': 'npmDownloadsUrl',
  'pypi-stats': 'pypiStatsUrl',
};

/**
 * The base URLs given as flags (`--rdap`, `--npm-registry`, `--pypi`, `--osv`, `--npm-downloads`,
 * `--pypi-stats`), checked; a flag left out
 * takes the public service. Throws OutsideUrlError, with the flag's name, for one that is not a URL.
 */
export function readOutsideFlags(flags: Readonly<Record<string, string | boolean | undefined>>): OutsideServiceUrls {
  const urls: OutsideServiceUrls = {};
  for (const [flag, option] of Object.entries(FLAG_OF) as [keyof typeof FLAG_OF, keyof OutsideServiceUrls][]) {
    const value = flags[flag];
    if (typeof value !== 'string') continue;
    try {
      urls[option] = checkUrl(option, value, value);
    } catch {
      throw new OutsideUrlError(option, value, `--${flag}`);
    }
  }
  return urls;
}
