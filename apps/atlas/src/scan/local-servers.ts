// Local servers: registry entries that ship only as a package (npm or PyPI) and have no remote endpoint. The
// registry read writes their list (state/local-servers.json); the daily check installs each package at its exact
// version into the probe's sandbox and keeps one record per server (state/local/<id>.json) and the catalog of
// the tools it listed (state/local-catalogs/<id>.json). A version is checked once; a new version is checked again
// and compared with the last one that listed tools.
import { z } from 'zod';
import { LOCAL_RECORDS_PREFIX, LOCAL_SERVERS_PATH, localRecordPath, SERVER_ID_PATTERN } from '../data/paths.js';
import { ServerDayResultSchema } from '../data/schemas.js';
import { ServerScoreSchema } from '../score/day-scores.js';
import { getJson, getJsonOrNull, putJson, type Storage } from '../storage/storage.js';

const LocalVariableSchema = z.object({
  name: z.string().min(1).max(200),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().max(1000).optional(),
});

const LocalArgumentSchema = z.object({
  type: z.enum(['positional', 'named']),
  name: z.string().max(200).optional(),
  value: z.string().max(1000).optional(),
  default: z.string().max(1000).optional(),
  isRequired: z.boolean().optional(),
});

/** The package a local server ships as: the registry entry's `packages[]` element, at its exact version. */
export const LocalServerPackageSchema = z.object({
  registryType: z.enum(['npm', 'pypi']),
  identifier: z.string().min(1).max(214),
  version: z.string().min(1).max(128),
  environmentVariables: z.array(LocalVariableSchema).max(50),
  packageArguments: z.array(LocalArgumentSchema).max(50),
});
export type LocalServerPackage = z.infer<typeof LocalServerPackageSchema>;

/** A package-only registry entry, as the daily check reads it. */
export const LocalServerSchema = z.object({
  id: z.string().regex(SERVER_ID_PATTERN),
  title: z.string().max(200),
  package: LocalServerPackageSchema,
});
export type LocalServer = z.infer<typeof LocalServerSchema>;

const LocalServersFileSchema = z.object({ servers: z.array(LocalServerSchema) });

/** The outcome names of the probe's local check (see the methodology's "Local servers" page). */
export const LOCAL_OUTCOMES = [
  'listed',
  'needs-configuration',
  'not-installed',
  'stopped',
  'not-listed',
  'no-sandbox',
] as const;

/** The sandbox limits that can stop a local server (the probe's `LocalLimit`). */
export const LocalLimitSchema = z.enum(['cpu-time', 'memory', 'processes', 'output', 'wall-time']);

/** What changed in a new version's tools since the last version that listed tools. */
export const LocalChangeSchema = z.object({
  fromVersion: z.string(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
  riskRises: z.array(z.string()),
});

/** One local server's newest check: what was installed, how it ended, and the day's record of its tools. */
export const LocalRecordSchema = z.object({
  id: z.string().regex(SERVER_ID_PATTERN),
  title: z.string().max(200),
  /** The package URL (`pkg:npm/...@version`) that names what was checked; the record's `url`. */
  purl: z.string(),
  package: LocalServerPackageSchema,
  installCommand: z.string(),
  /** Required variables and arguments with no default: the server needs them before it can run. */
  missing: z.array(z.string()),
  outcome: z.enum(LOCAL_OUTCOMES),
  stoppedBy: LocalLimitSchema.nullable(),
  integrity: z.string().nullable(),
  day: z.string(),
  /** How long the whole check took, install included, in milliseconds: what it was charged, and the next estimate. */
  wallMs: z.number().int().nonnegative(),
  /** The check's record in the same shape as a remote server's daily result (letter, tools hash, findings). */
  result: ServerDayResultSchema,
  /** The last version before this one that listed tools, and what changed since, or null. */
  change: LocalChangeSchema.nullable(),
  /** The quality score computed from this check (the score's local-server dimensions), or null when none could be. */
  score: ServerScoreSchema.nullable(),
  /** The version and tools hash of the newest check that listed tools (this one or an earlier one), or null. */
  lastListed: z.object({ version: z.string(), toolsHash: z.string() }).nullable(),
});
export type LocalRecord = z.infer<typeof LocalRecordSchema>;

/** The local servers of the last registry read, or none. */
export async function readLocalServers(storage: Storage): Promise<LocalServer[]> {
  const data = await getJson(storage, LOCAL_SERVERS_PATH);
  return data === null ? [] : LocalServersFileSchema.parse(data).servers;
}

/** Replaces the list of local servers. */
export async function writeLocalServers(storage: Storage, servers: readonly LocalServer[]): Promise<void> {
  await putJson(storage, LOCAL_SERVERS_PATH, { servers });
}

/**
 * One local server's record, or null before its first check. A record that cannot be read or does not parse is
 * null too: the version is then checked again and the record written whole, rather than stopping every local check.
 */
export async function readLocalRecord(storage: Storage, id: string): Promise<LocalRecord | null> {
  const parsed = LocalRecordSchema.safeParse(await getJsonOrNull(storage, localRecordPath(id)));
  return parsed.success ? parsed.data : null;
}

/** Every local server's record, by id; a record that cannot be read or does not parse is left out, not fatal. */
export async function readLocalRecords(storage: Storage): Promise<Map<string, LocalRecord>> {
  const records = new Map<string, LocalRecord>();
  for (const path of await storage.list(LOCAL_RECORDS_PREFIX)) {
    const parsed = LocalRecordSchema.safeParse(await getJsonOrNull(storage, path));
    if (parsed.success) records.set(parsed.data.id, parsed.data);
  }
  return records;
}

/** The package URL of a package version (the purl spec: npm scopes are written `%40scope/name`). */
export function packageUrlOf(pkg: Pick<LocalServerPackage, 'registryType' | 'identifier' | 'version'>): string {
  const name = pkg.registryType === 'npm' ? pkg.identifier.replace(/^@/, '%40') : pkg.identifier.toLowerCase();
  return `pkg:${pkg.registryType}/${name}@${encodeURIComponent(pkg.version)}`;
}
