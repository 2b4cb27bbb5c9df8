// Reading the registry into the list of watched servers. Entries are taken as the probe package reads them
// (latest versions, deleted entries left out); the remote is the probe's choice; SSE-only remotes, URL
// templates, IP addresses and opted-out hosts are left out here by the probe's guard, before any request.
import { createHash } from 'node:crypto';
import { checkTarget, listRegistryServers, pickRemote, type NetworkOptions } from '@mcp-atlas/probe';
import type { WatchedServer } from '../data/schemas.js';
import { writeWatchedServers } from '../data/watched-servers.js';
import type { Storage } from '../storage/storage.js';

/** A registry entry that is not watched, and why. */
export interface SkippedEntry {
  name: string;
  why: string;
}

/**
 * A path- and URL-safe id for a registry name: the name lower-cased with runs of other characters turned
 * into dashes, plus a short hash of the exact name so two names that slug alike stay apart.
 */
export function serverIdFor(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'server';
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${slug}-${hash}`;
}

/** Reads the registry and writes the watched list; returns it with the entries left out. */
export async function syncRegistry(input: {
  storage: Storage;
  registryUrl: string;
  network: NetworkOptions;
  optedOut: readonly string[];
}): Promise<{ servers: WatchedServer[]; skipped: SkippedEntry[] }> {
  const servers: WatchedServer[] = [];
  const skipped: SkippedEntry[] = [];
  const seen = new Set<string>();
  for await (const entry of listRegistryServers(input.registryUrl, input.network)) {
    const name = entry.server.name;
    const remote = pickRemote(entry);
    if (remote === null) {
      skipped.push({ name, why: 'no remote' });
      continue;
    }
    const target = checkTarget(remote.url, { optedOut: input.optedOut, remoteType: remote.type });
    if (!target.ok) {
      skipped.push({ name, why: target.reason });
      continue;
    }
    const id = serverIdFor(name);
    if (seen.has(id)) continue;
    seen.add(id);
    servers.push({ id, url: remote.url, title: name.slice(0, 200), source: 'registry' });
  }
  servers.sort((a, b) => a.id.localeCompare(b.id));
  await writeWatchedServers(input.storage, servers);
  return { servers, skipped };
}
