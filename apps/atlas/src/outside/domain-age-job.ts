// The domain-age job, run once after each day's daily check: which domains need their registration date
// (servers with a high-risk tool in the day's results, and submitted servers), at most 40 new RDAP lookups,
// dates reused for 30 days, all by the rules in @mcp-atlas/operations. The cache is rolling state, not a
// signed file; the route reads the ages through the view.

import { type DomainLookupPlan, isDomainAgeFresh, needsDomainAge, planDomainLookups } from '@mcp-atlas/operations';
import { isOptedOut, type NetworkOptions } from '@mcp-atlas/probe';
import { type DomainRegistrationRead, rdapDomainOf, readDomainRegistration } from '@mcp-atlas/probe/outside';
import { DOMAIN_AGES_PATH } from '../data/paths.js';
import type { ServerDayResult, WatchedServer } from '../data/schemas.js';
import { mapWithLimit } from '../scan/pool.js';
import { putJson, type Storage } from '../storage/storage.js';
import { RDAP_LOOKUP_CONCURRENCY } from './outside-config.js';
import { type DomainAgeEntry, type DomainAgesFile, DomainAgesFileSchema } from './outside-schemas.js';
import { readDomainAges } from './read-outside.js';

/** True when the watched server was submitted by its owner rather than read from a registry. */
export function isSubmitted(server: WatchedServer | undefined): boolean {
  return server !== undefined && (server.source === 'submitted' || server.submittedAt !== undefined);
}

/**
 * The domains whose age the rules ask for today, each with the URL of one server on it (the lookup starts
 * from a server's address, so the probe can refuse any hop into that server's domain). Servers without a
 * registrable domain (an IP address) and opted-out hosts are left out.
 */
export function domainsToKnow(
  results: ReadonlyMap<string, ServerDayResult>,
  watched: readonly WatchedServer[],
  optedOut: readonly string[],
): Map<string, string> {
  const byId = new Map(watched.map((server) => [server.id, server]));
  const urls = new Map<string, string>();
  for (const result of results.values()) urls.set(result.id, result.url);
  for (const server of watched) if (isSubmitted(server) && !urls.has(server.id)) urls.set(server.id, server.url);
  const domains = new Map<string, string>();
  for (const [id, url] of [...urls].sort(([a], [b]) => a.localeCompare(b))) {
    const subject = { highRiskTools: results.get(id)?.highRiskTools ?? 0, submitted: isSubmitted(byId.get(id)) };
    if (!needsDomainAge(subject)) continue;
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      continue;
    }
    if (isOptedOut(host, optedOut)) continue;
    const domain = rdapDomainOf(host);
    if (domain !== null && !domains.has(domain)) domains.set(domain, url);
  }
  return domains;
}

/** One lookup's answer as the cache keeps it. */
function entryOf(domain: string, read: DomainRegistrationRead, day: string, now: Date): DomainAgeEntry {
  return {
    domain,
    lookedUpDay: day,
    lookedUpAt: now.toISOString(),
    registeredAt: read.ok ? read.registeredAt : null,
    problem: read.ok ? null : { reason: read.reason, message: read.message },
    rdapUrl: read.rdapUrl,
  };
}

/** What one run of the job did. */
export interface DomainAgeJobOutcome {
  plan: DomainLookupPlan;
  /** Lookups that found a registration date. */
  found: number;
  /** Lookups that did not, with why. */
  failed: { domain: string; reason: string }[];
}

/** Inputs of {@link runDomainAgeJob}. */
export interface DomainAgeJobInput {
  storage: Storage;
  day: string;
  now: Date;
  results: ReadonlyMap<string, ServerDayResult>;
  watched: readonly WatchedServer[];
  optedOut: readonly string[];
  network: NetworkOptions;
  rdapUrl: string;
}

/**
 * Plans and makes the day's lookups, then writes the cache: today's answers replace older ones, and every
 * entry 30 days old or more is dropped (a found date serves 30 days; a failed lookup is asked again at the
 * next scan anyway). A service that fails leaves its reason in the entry; nothing here throws for it.
 */
export async function runDomainAgeJob(input: DomainAgeJobInput): Promise<DomainAgeJobOutcome> {
  const cache = await readDomainAges(input.storage);
  const wanted = domainsToKnow(input.results, input.watched, input.optedOut);
  const plan = planDomainLookups(
    [...wanted.keys()].map((domain) => {
      const known = cache.domains[domain];
      return {
        domain,
        lookedUpDay: known?.lookedUpDay ?? null,
        found: known !== undefined && known.registeredAt !== null,
      };
    }),
    input.day,
  );
  const reads = await mapWithLimit(plan.lookup, RDAP_LOOKUP_CONCURRENCY, (domain) =>
    readDomainRegistration(wanted.get(domain) as string, { ...input.network, rdapUrl: input.rdapUrl }),
  );
  const domains: Record<string, DomainAgeEntry> = {};
  for (const [domain, entry] of Object.entries(cache.domains)) {
    if (isDomainAgeFresh(entry.lookedUpDay, input.day)) domains[domain] = entry;
  }
  const failed: DomainAgeJobOutcome['failed'] = [];
  plan.lookup.forEach((domain, index) => {
    const read = reads[index] as DomainRegistrationRead;
    domains[domain] = entryOf(domain, read, input.day, input.now);
    if (!read.ok) failed.push({ domain, reason: read.reason });
  });
  const sorted = Object.fromEntries(Object.entries(domains).sort(([a], [b]) => a.localeCompare(b)));
  // Checked before it is written: a file the read model could not parse back would stop every rebuild.
  await putJson(
    input.storage,
    DOMAIN_AGES_PATH,
    DomainAgesFileSchema.parse({
      lastScanDay: input.day,
      domains: sorted,
      waiting: plan.wait,
    } satisfies DomainAgesFile),
  );
  return { plan, found: plan.lookup.length - failed.length, failed };
}
