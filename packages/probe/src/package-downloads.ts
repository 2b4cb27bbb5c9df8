// Runtime-neutral module (network only through the injected client): how many times a package was downloaded
// in the last week, from npm's download counts API and from pypistats.org (PyPI's own counts), with the probe's
// guard, pinning, time limit and size cap. A count says how many people use a server that ships as a package.
import { z } from 'zod';
import { type NetworkOptions, resolveNetworkSettings } from './options.js';
import {
  DEFAULT_NPM_DOWNLOADS_URL,
  DEFAULT_PYPI_STATS_URL,
  PACKAGE_METADATA_CAP_BYTES,
  PACKAGE_METADATA_MAX_REDIRECTS,
  PACKAGE_METADATA_TIMEOUT_MS,
} from './outside-constants.js';
import { type OutsideFailureReason, requestOutsideJson } from './outside-request.js';
import {
  baseOf,
  checkName,
  isNpmPackageName,
  normalizePypiName,
  type PackageEcosystem,
  type PackageVersionRead,
} from './package-registry.js';

/** Options of `readWeeklyDownloads`. */
export interface DownloadsReadOptions extends NetworkOptions {
  /** npm's downloads API base; default https://api.npmjs.org. */
  npmDownloadsUrl?: string;
  /** pypistats.org's base; default https://pypistats.org. */
  pypiStatsUrl?: string;
}

/** A package's downloads of the last week, or why there is no count (the same failure as a version read's). */
export type DownloadsRead =
  | { ok: true; ecosystem: PackageEcosystem; name: string; weekly: number; url: string }
  | Extract<PackageVersionRead, { ok: false }>;

const COUNT = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
// npm: { downloads, start, end, package }.
const NpmPointSchema = z.looseObject({ downloads: COUNT, package: z.string().optional() });
// pypistats: { data: { last_day, last_week, last_month }, package, type: 'recent_downloads' }.
const PypiRecentSchema = z.looseObject({ data: z.looseObject({ last_week: COUNT }) });

function requestOf(name: string, ecosystem: PackageEcosystem, options: DownloadsReadOptions | undefined) {
  if (ecosystem === 'npm') {
    const base = baseOf(options?.npmDownloadsUrl, DEFAULT_NPM_DOWNLOADS_URL, 'npmDownloadsUrl');
    return isNpmPackageName(name) ? { url: `${base}/downloads/point/last-week/${name}`, name } : null;
  }
  const base = baseOf(options?.pypiStatsUrl, DEFAULT_PYPI_STATS_URL, 'pypiStatsUrl');
  const normal = normalizePypiName(name);
  return normal === null ? null : { url: `${base}/api/packages/${normal}/recent`, name: normal };
}

/**
 * Reads how many times a package was downloaded in the last week: npm's `downloads` of `last-week`, or
 * pypistats' `data.last_week`. A name its ecosystem cannot hold is refused before any request (`invalid-name`).
 * Never throws for what the service does.
 *
 * @example
 * const read = await readWeeklyDownloads('npm', '@modelcontextprotocol/sdk', { ...nodeNetwork });
 * if (read.ok) console.log(read.weekly);
 */
export async function readWeeklyDownloads(
  ecosystem: PackageEcosystem,
  name: string,
  options?: DownloadsReadOptions,
): Promise<DownloadsRead> {
  checkName(name);
  const target = requestOf(name, ecosystem, options);
  if (target === null)
    return {
      ok: false,
      ecosystem,
      name,
      reason: 'invalid-name',
      message: `${JSON.stringify(name.slice(0, 100))} is not a ${ecosystem} package name`,
      url: null,
      httpStatus: null,
    };
  const answer = await requestOutsideJson(
    {
      url: target.url,
      method: 'GET',
      accept: 'application/json',
      timeoutMs: PACKAGE_METADATA_TIMEOUT_MS,
      capBytes: PACKAGE_METADATA_CAP_BYTES,
      maxRedirects: PACKAGE_METADATA_MAX_REDIRECTS,
    },
    resolveNetworkSettings(options),
  );
  const failed = (reason: OutsideFailureReason, message: string, httpStatus: number | null): DownloadsRead => ({
    ok: false,
    ecosystem,
    name: target.name,
    reason,
    message,
    url: answer.url,
    httpStatus,
  });
  if (!answer.ok) return failed(answer.reason, answer.message, answer.httpStatus);
  if (ecosystem === 'npm') {
    const point = NpmPointSchema.safeParse(answer.json);
    if (!point.success) return failed('unexpected-answer', 'not an npm download count', answer.status);
    return { ok: true, ecosystem, name: target.name, weekly: point.data.downloads, url: answer.url };
  }
  const recent = PypiRecentSchema.safeParse(answer.json);
  if (!recent.success) return failed('unexpected-answer', 'not a pypistats count of recent downloads', answer.status);
  return { ok: true, ecosystem, name: target.name, weekly: recent.data.data.last_week, url: answer.url };
}
