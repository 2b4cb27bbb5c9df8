// Reading the registry into the list of watched servers. Entries are taken as the probe package reads them
// (latest versions, deleted entries left out); the remote is the probe's choice; SSE-only remotes, URL
// templates, IP addresses and opted-out hosts are left out here by the probe's guard, before any request.
// Each entry's npm and PyPI packages are kept with it, for the package layer.

import { PACKAGE_LAYER_RULES } from '@mcp-atlas/operations/rules';
import { checkTarget, listRegistryServers, type NetworkOptions, pickRemote } from '@mcp-atlas/probe';
import { OUTSIDE_SERVICE_RULES } from '@mcp-atlas/probe/rules';
import {
  type RegistryScoreFacts,
  type WatchedPackage,
  WatchedPackageSchema,
  type WatchedServer,
} from '../data/schemas.js';
import { serverIdFor } from '../data/server-id.js';
import { writeWatchedServers } from '../data/watched-servers.js';
import { scoreFactsOf, writeRegistryScoreFacts } from '../score/registry-facts.js';
import type { Storage } from '../storage/storage.js';

/** A registry entry that is not watched, and why. */
export interface SkippedEntry {
  name: string;
  why: string;
}

// The public registries the package layer reads; an entry naming another registry (a private mirror, a
// company's own) ships a package those do not hold, or a different one under the same name.
const PUBLIC_REGISTRY = {
  npm: OUTSIDE_SERVICE_RULES.defaultNpmRegistryUrl,
  pypi: OUTSIDE_SERVICE_RULES.defaultPypiUrl,
} as const;

function isPublicRegistry(type: WatchedPackage['registryType'], base: unknown): boolean {
  if (base === undefined) return true;
  return typeof base === 'string' && base.replace(/\/+$/, '').toLowerCase() === PUBLIC_REGISTRY[type];
}

/**
 * The npm and PyPI packages of a registry entry (`packages[]`: `registryType`, `identifier`, `version`),
 * each once, at most 10. Other package types, entries that do not parse, and packages hosted on a registry
 * other than the public npm registry or PyPI are left out.
 */
export function packagesOf(server: unknown): WatchedPackage[] {
  const listed = (server as { packages?: unknown } | null)?.packages;
  if (!Array.isArray(listed)) return [];
  const kept: WatchedPackage[] = [];
  const seen = new Set<string>();
  for (const item of listed) {
    if (item === null || typeof item !== 'object') continue;
    const raw = item as { registryType?: unknown; identifier?: unknown; version?: unknown; registryBaseUrl?: unknown };
    const type = typeof raw.registryType === 'string' ? raw.registryType.toLowerCase() : null;
    const parsed = WatchedPackageSchema.safeParse({
      registryType: type,
      identifier: raw.identifier,
      ...(typeof raw.version === 'string' ? { version: raw.version } : {}),
    });
    if (!parsed.success || !isPublicRegistry(parsed.data.registryType, raw.registryBaseUrl)) continue;
    const key = `${parsed.data.registryType} ${parsed.data.identifier}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(parsed.data);
    if (kept.length === PACKAGE_LAYER_RULES.packagesPerServerMax) break;
  }
  return kept;
}

/**
 * Reads the registry and writes the watched list; returns it with the entries left out. `network` is how
 * the registry is read (its `allowPrivate` lets a registry at a private address be read). `allowPrivate`
 * (default false) is for an observatory of a company's own servers: it keeps listed servers at IP
 * addresses, local names, private addresses and plain http, as the probe's option of that name does; the
 * template, user-info, SSE-only and opt-out rules still apply.
 */
export async function syncRegistry(input: {
  storage: Storage;
  registryUrl: string;
  network: NetworkOptions;
  optedOut: readonly string[];
  allowPrivate?: boolean;
}): Promise<{ servers: WatchedServer[]; skipped: SkippedEntry[] }> {
  const servers: WatchedServer[] = [];
  const skipped: SkippedEntry[] = [];
  const seen = new Set<string>();
  const scoreFacts = new Map<string, RegistryScoreFacts>();
  for await (const entry of listRegistryServers(input.registryUrl, input.network)) {
    const name = entry.server.name;
    const remote = pickRemote(entry);
    if (remote === null) {
      skipped.push({ name, why: 'no remote' });
      continue;
    }
    const target = checkTarget(remote.url, {
      optedOut: input.optedOut,
      remoteType: remote.type,
      allowPrivate: input.allowPrivate === true,
    });
    if (!target.ok) {
      skipped.push({ name, why: target.reason });
      continue;
    }
    const id = serverIdFor(name);
    if (seen.has(id)) continue;
    seen.add(id);
    const packages = packagesOf(entry.server);
    // What the daily quality score reads of the entry (security, distribution, context flags).
    scoreFacts.set(id, scoreFactsOf(entry.server, remote));
    servers.push({
      id,
      url: remote.url,
      title: name.slice(0, 200),
      source: 'registry',
      ...(packages.length > 0 ? { packages } : {}),
    });
  }
  servers.sort((a, b) => a.id.localeCompare(b.id));
  await writeWatchedServers(input.storage, servers);
  await writeRegistryScoreFacts(input.storage, scoreFacts);
  return { servers, skipped };
}
