// The schedule's outside-service tasks: the domain-age job after each day's daily check, the package read
// once a day, and the OSV check at 04:05 UTC (or the first tick after, when the service was down then).
// Each decides from the files on disk whether it is due, so a restart neither repeats nor skips one; a
// memory of "nothing to do today" only spares the disk on the ticks in between.

import { isOsvCheckDue } from '@mcp-atlas/operations';
import type { NetworkOptions } from '@mcp-atlas/probe';
import { readDayResults } from '../data/day-results.js';
import { readOptedOutHosts } from '../data/opted-out.js';
import { daySummaryPath } from '../data/paths.js';
import { readWatchedServers } from '../data/watched-servers.js';
import type { Logger } from '../log.js';
import { getJson, type Storage } from '../storage/storage.js';
import { readObservedSubmissions } from '../submissions/records.js';
import { runDomainAgeJob } from './domain-age-job.js';
import {
  isAfterOsvTime,
  OSV_CHECK_TIME_UTC,
  type OutsideServiceUrls,
  type ResolvedOutsideUrls,
  resolveOutsideUrls,
} from './outside-config.js';
import { checkPackagesWithOsv, readPackageLayer, writePackageVersions } from './package-layer.js';
import { readDomainAges } from './read-outside.js';

/** What the outside tasks need from the schedule. */
export interface OutsideTaskDeps {
  storage: Storage;
  log: Logger;
  network: NetworkOptions;
  methodologyVersion: string;
  urls?: OutsideServiceUrls;
}

/** The three outside-service tasks of the schedule. */
export class OutsideTasks {
  private readonly urls: ResolvedOutsideUrls;
  private quietDomainAgeDay: string | null = null;
  private quietPackagesDay: string | null = null;

  constructor(private readonly deps: OutsideTaskDeps) {
    this.urls = resolveOutsideUrls(deps.urls);
  }

  private async readOptedOut(): Promise<string[]> {
    return readOptedOutHosts(this.deps.storage);
  }

  /** After the day's daily check: the domain-age job, once per day. True when it ran. */
  async domainAgeIfDue(today: string, now: Date): Promise<boolean> {
    if (this.quietDomainAgeDay === today) return false;
    if ((await getJson(this.deps.storage, daySummaryPath(today))) === null) return false;
    if ((await readDomainAges(this.deps.storage)).lastScanDay === today) {
      this.quietDomainAgeDay = today;
      return false;
    }
    const outcome = await runDomainAgeJob({
      storage: this.deps.storage,
      day: today,
      now,
      results: await readDayResults(this.deps.storage, today),
      // Submitted servers count from their first day of observation, not only once they joined the map.
      watched: [
        ...(await readWatchedServers(this.deps.storage)),
        ...(await readObservedSubmissions(this.deps.storage)),
      ],
      optedOut: await this.readOptedOut(),
      network: this.deps.network,
      rdapUrl: this.urls.rdapUrl,
    });
    this.quietDomainAgeDay = today;
    const { plan } = outcome;
    this.deps.log.info(
      { looked: plan.lookup.length, found: outcome.found, reused: plan.reuse.length, waiting: plan.wait.length },
      'domain ages',
    );
    for (const failure of outcome.failed)
      this.deps.log.warn({ domain: failure.domain, reason: failure.reason }, 'domain age lookup failed');
    // Ran with nothing to know (no server with a high-risk tool or submitted): nothing changed for the view.
    return plan.lookup.length + plan.reuse.length + plan.wait.length > 0;
  }

  /** Once a day: the current versions of the packages watched servers ship. True when it ran. */
  async packagesIfDue(today: string, now: Date): Promise<boolean> {
    if (this.quietPackagesDay === today) return false;
    if ((await readPackageLayer(this.deps.storage, today)) !== null) {
      this.quietPackagesDay = today;
      return false;
    }
    const layer = await writePackageVersions({
      storage: this.deps.storage,
      day: today,
      now,
      methodologyVersion: this.deps.methodologyVersion,
      servers: await readWatchedServers(this.deps.storage),
      optedOut: await this.readOptedOut(),
      network: this.deps.network,
      npmUrl: this.urls.npmUrl,
      pypiUrl: this.urls.pypiUrl,
      npmDownloadsUrl: this.urls.npmDownloadsUrl,
      pypiStatsUrl: this.urls.pypiStatsUrl,
    });
    // No server ships a package: nothing was written, and nothing is owed until tomorrow.
    if (layer === null) {
      this.quietPackagesDay = today;
      return false;
    }
    const unread = layer.packages.filter((record) => record.version === null);
    this.deps.log.info({ packages: layer.packages.length, unread: unread.length }, 'package versions read');
    for (const record of unread)
      this.deps.log.warn(
        { ecosystem: record.ecosystem, name: record.name, reason: record.problem?.reason },
        'package version not read',
      );
    return true;
  }

  /**
   * At 04:05 UTC or later, once the day's versions are read: the OSV check, once per day. A failed check
   * keeps its reason in the day file and is tried again an hour later, until one succeeds or the day ends.
   */
  async osvIfDue(today: string, now: Date): Promise<boolean> {
    // Before 04:05 UTC nothing is due: spare the disk read.
    if (!isAfterOsvTime(now)) return false;
    const layer = await readPackageLayer(this.deps.storage, today);
    if (layer === null || !isOsvCheckDue(now, OSV_CHECK_TIME_UTC, layer.osv)) return false;
    const check = await checkPackagesWithOsv({
      storage: this.deps.storage,
      day: today,
      now,
      network: this.deps.network,
      osvUrl: this.urls.osvUrl,
    });
    if (check?.ok === false)
      this.deps.log.warn(
        { reason: check.problem?.reason, message: check.problem?.message, attempts: check.attempts },
        'OSV check failed',
      );
    else this.deps.log.info({ day: today }, 'OSV check done');
    return check !== null;
  }
}
