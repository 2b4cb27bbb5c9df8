// What the read model takes from the outside-service files: a server's domain age (from the RDAP cache,
// only while the lookup is under 30 days old) and its packages with their known vulnerabilities (from the
// newest day's package layer that OSV answered for).

import { domainAgeDays, isDomainAgeFresh, packageLayerDays } from '@mcp-atlas/operations';
import { rdapDomainOf } from '@mcp-atlas/probe/outside';
import { ROUTE_SCORE_RULES } from '@mcp-atlas/route/rules';
import { DOMAIN_AGES_PATH } from '../data/paths.js';
import { getJson, type Storage } from '../storage/storage.js';
import {
  type DomainAgesFile,
  DomainAgesFileSchema,
  type OsvCheck,
  type OutsideProblem,
  type PackageLayerFile,
  type PackageRecord,
} from './outside-schemas.js';
import { readPackageLayer } from './package-layer.js';

/** The cache before any lookup. */
const EMPTY_CACHE: DomainAgesFile = { lastScanDay: null, domains: {}, waiting: [] };

/** Reads the domain-age cache (empty when there is none). */
export async function readDomainAges(storage: Storage): Promise<DomainAgesFile> {
  const data = await getJson(storage, DOMAIN_AGES_PATH);
  return data === null ? EMPTY_CACHE : DomainAgesFileSchema.parse(data);
}

/** A server's domain age as pages and the API show it. */
export interface DomainAgeView {
  /** The domain looked up (the registrable domain of the server's host). */
  domain: string;
  registeredAt: string | null;
  /** Whole days since registration, today; null when the lookup found no date. */
  ageDays: number | null;
  /** Younger than the route's 90 days: the route's guard and high-risk set-aside apply. */
  young: boolean;
  lookedUpDay: string;
  /** Why the lookup found no date, or null. */
  problem: OutsideProblem | null;
}

/**
 * A server's domain age on `today`, or null when its domain has no lookup under 30 days old (not a
 * server the rules look up, one still waiting for its turn, or an address with no domain).
 */
export function domainAgeOf(url: string, cache: DomainAgesFile, today: string): DomainAgeView | null {
  let domain: string | null;
  try {
    domain = rdapDomainOf(new URL(url).hostname);
  } catch {
    return null;
  }
  const entry = domain === null ? undefined : cache.domains[domain];
  if (entry === undefined || !isDomainAgeFresh(entry.lookedUpDay, today)) return null;
  const ageDays = entry.registeredAt === null ? null : domainAgeDays(entry.registeredAt, today);
  return {
    domain: entry.domain,
    registeredAt: entry.registeredAt,
    ageDays,
    young: ageDays !== null && ageDays < ROUTE_SCORE_RULES.youngDomainDays,
    lookedUpDay: entry.lookedUpDay,
    problem: entry.problem,
  };
}

/** The package layer pages show, and a newer day OSV has not answered for (yet, or because it failed). */
export interface ShownPackageLayer {
  shown: PackageLayerFile | null;
  newer: { day: string; osv: OsvCheck | null } | null;
}

/**
 * The package layer pages show: the newest of the last 8 days that OSV answered for, else the newest of
 * them at all (versions read, OSV not yet asked or failing). Before 04:05 UTC this keeps yesterday's
 * vulnerabilities on show rather than a blank; a newer day without an answer is named with its state, so
 * a failing OSV check is never hidden.
 */
export async function readShownPackageLayer(storage: Storage, today: string): Promise<ShownPackageLayer> {
  let newest: PackageLayerFile | null = null;
  for (const day of packageLayerDays(today)) {
    const layer = await readPackageLayer(storage, day);
    if (layer === null) continue;
    if (layer.osv?.ok === true)
      return { shown: layer, newer: newest === null ? null : { day: newest.day, osv: newest.osv } };
    newest ??= layer;
  }
  return { shown: newest, newer: null };
}

/** A server's packages, as pages and the API show them. */
export interface ServerPackagesView {
  /** The day of the package layer shown, or null when there is none. */
  day: string | null;
  /** That day's OSV check, or null when it has not run. */
  osv: OsvCheck | null;
  packages: Omit<PackageRecord, 'servers'>[];
  /** A newer day whose versions were read but that OSV has not answered for (yet, or it failed), or null. */
  newer: { day: string; osv: OsvCheck | null } | null;
}

/** The packages one server ships, from the layer shown. */
export function packagesOfServer(layer: ShownPackageLayer, serverId: string): ServerPackagesView {
  const { shown, newer } = layer;
  if (shown === null) return { day: null, osv: null, packages: [], newer: null };
  const packages = shown.packages
    .filter((record) => record.servers.includes(serverId))
    .map(({ servers: _servers, ...record }) => record);
  // A server with no package gets no "newer" note either: there is nothing of its own to wait for.
  return { day: shown.day, osv: shown.osv, packages, newer: packages.length === 0 ? null : newer };
}
