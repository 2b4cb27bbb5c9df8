// The package layer: once a day, the current version and last week's downloads of every npm and PyPI package
// that watched servers ship as, read from the public package metadata and download counts; at 04:05 UTC, those
// versions checked against OSV. Both steps write the same dated day file (days/<day>/packages.json), so the day's seal covers the result.
import { isOptedOut, type NetworkOptions } from '@mcp-atlas/probe';
import {
  type DownloadsRead,
  normalizePypiName,
  type OsvQuery,
  type PackageEcosystem,
  type PackageVersionRead,
  queryOsvBatch,
  readNpmPackage,
  readPypiPackage,
  readWeeklyDownloads,
} from '@mcp-atlas/probe/outside';
import { dayPackagesPath } from '../data/paths.js';
import type { WatchedServer } from '../data/schemas.js';
import { mapWithLimit } from '../scan/pool.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { PACKAGE_READ_CONCURRENCY } from './outside-config.js';
import { type OsvCheck, type PackageLayerFile, PackageLayerFileSchema, type PackageRecord } from './outside-schemas.js';

/** Reads a day's package layer, or null when that day has none. */
export async function readPackageLayer(storage: Storage, day: string): Promise<PackageLayerFile | null> {
  const data = await getJson(storage, dayPackagesPath(day));
  return data === null ? null : PackageLayerFileSchema.parse(data);
}

/** A package to read: its ecosystem, the name its ecosystem compares, and the servers that ship it. */
interface WantedPackage {
  ecosystem: PackageEcosystem;
  name: string;
  servers: string[];
}

// Code-point order, not the locale's: the day file is signed, so its order must not depend on the machine.
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every package the servers ship, each once (PyPI names compared in PEP 503 normal form), with the ids of
 * the servers that ship it, sorted by ecosystem and name (code-point order). Opted-out hosts are left out.
 */
export function packagesToRead(servers: readonly WatchedServer[], optedOut: readonly string[]): WantedPackage[] {
  const wanted = new Map<string, WantedPackage>();
  for (const server of servers) {
    if (isOptedOut(new URL(server.url).hostname, optedOut)) continue;
    for (const item of server.packages ?? []) {
      const ecosystem: PackageEcosystem = item.registryType === 'npm' ? 'npm' : 'PyPI';
      const name = ecosystem === 'PyPI' ? (normalizePypiName(item.identifier) ?? item.identifier) : item.identifier;
      const key = `${ecosystem} ${name}`;
      const entry = wanted.get(key) ?? { ecosystem, name, servers: [] };
      if (!entry.servers.includes(server.id)) entry.servers.push(server.id);
      wanted.set(key, entry);
    }
  }
  return [...wanted.values()]
    .map((entry) => ({ ...entry, servers: entry.servers.sort() }))
    .sort((a, b) => compareText(`${a.ecosystem} ${a.name}`, `${b.ecosystem} ${b.name}`));
}

/** Inputs of {@link writePackageVersions}. */
export interface PackageReadInput {
  storage: Storage;
  day: string;
  now: Date;
  methodologyVersion: string;
  servers: readonly WatchedServer[];
  optedOut: readonly string[];
  network: NetworkOptions;
  npmUrl: string;
  pypiUrl: string;
  npmDownloadsUrl: string;
  pypiStatsUrl: string;
}

function recordOf(wanted: WantedPackage, read: PackageVersionRead, downloads: DownloadsRead): PackageRecord {
  return {
    ecosystem: wanted.ecosystem,
    name: wanted.name,
    servers: wanted.servers,
    version: read.ok ? read.version : null,
    problem: read.ok ? null : { reason: read.reason, message: read.message },
    vulnerabilities: null,
    truncated: false,
    weeklyDownloads: downloads.ok ? downloads.weekly : null,
  };
}

/**
 * Reads the current version of every package the watched servers ship and writes the day's package layer
 * (OSV not asked yet). Returns the file, or null when no server ships a package (then nothing is written).
 * A registry that fails leaves its reason on the package; nothing here throws for it.
 */
export async function writePackageVersions(input: PackageReadInput): Promise<PackageLayerFile | null> {
  const wanted = packagesToRead(input.servers, input.optedOut);
  if (wanted.length === 0) return null;
  const reads = await mapWithLimit(wanted, PACKAGE_READ_CONCURRENCY, (entry) =>
    entry.ecosystem === 'npm'
      ? readNpmPackage(entry.name, { ...input.network, registryUrl: input.npmUrl })
      : readPypiPackage(entry.name, { ...input.network, pypiUrl: input.pypiUrl }),
  );
  // The last week's downloads, read with the version: the count says how many people run the server as a package.
  const downloads = await mapWithLimit(wanted, PACKAGE_READ_CONCURRENCY, (entry) =>
    readWeeklyDownloads(entry.ecosystem, entry.name, {
      ...input.network,
      npmDownloadsUrl: input.npmDownloadsUrl,
      pypiStatsUrl: input.pypiStatsUrl,
    }),
  );
  const layer: PackageLayerFile = {
    day: input.day,
    methodologyVersion: input.methodologyVersion,
    readAt: input.now.toISOString(),
    packages: wanted.map((entry, index) =>
      recordOf(entry, reads[index] as PackageVersionRead, downloads[index] as DownloadsRead),
    ),
    osv: null,
  };
  // Checked before it is written: a day file the read model could not parse back would stop every rebuild.
  await putJson(input.storage, dayPackagesPath(input.day), PackageLayerFileSchema.parse(layer));
  return layer;
}

/** Inputs of {@link checkPackagesWithOsv}. */
export interface OsvCheckInput {
  storage: Storage;
  day: string;
  now: Date;
  network: NetworkOptions;
  osvUrl: string;
}

/**
 * Asks OSV about every version the day's layer read, in one batch, and writes the answer into the same day
 * file: each package's vulnerability ids, or, when OSV fails, the reason (the ids stay null, so nothing
 * reads as clean that was not checked). Returns the check, or null when the day has no layer yet.
 */
export async function checkPackagesWithOsv(input: OsvCheckInput): Promise<OsvCheck | null> {
  const layer = await readPackageLayer(input.storage, input.day);
  if (layer === null) return null;
  const asked = layer.packages.filter((record) => record.version !== null);
  const queries: OsvQuery[] = asked.map((record) => ({
    ecosystem: record.ecosystem,
    name: record.name,
    version: record.version as string,
  }));
  const read = await queryOsvBatch(queries, { ...input.network, osvUrl: input.osvUrl });
  const attempts = (layer.osv?.attempts ?? 0) + 1;
  const checkedAt = input.now.toISOString();
  let packages = layer.packages;
  let osv: OsvCheck;
  if (read.ok) {
    const byKey = new Map(read.findings.map((finding) => [`${finding.ecosystem} ${finding.name}`, finding]));
    packages = layer.packages.map((record) => {
      const finding = record.version === null ? undefined : byKey.get(`${record.ecosystem} ${record.name}`);
      return finding === undefined ? record : { ...record, vulnerabilities: finding.ids, truncated: finding.truncated };
    });
    osv = { checkedAt, ok: true, problem: null, attempts };
  } else {
    osv = { checkedAt, ok: false, problem: { reason: read.reason, message: read.message }, attempts };
  }
  await putJson(
    input.storage,
    dayPackagesPath(input.day),
    PackageLayerFileSchema.parse({ ...layer, packages, osv } satisfies PackageLayerFile),
  );
  return osv;
}
