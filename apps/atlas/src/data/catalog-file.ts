// The day's catalog on disk: days/<day>/directories.json (sealed with the day) and state/catalog.json (the newest
// day's, which the next merge starts from). The merge and its rules are @mcp-atlas/discovery's; this file only
// reads and writes their result. A catalog server keeps the shape `mergeCatalog` returns; the schema checks the
// fields a page or the next merge reads and keeps the rest as written.
import type { CatalogServer } from '@mcp-atlas/discovery';
import { DISCOVERY_RULES } from '@mcp-atlas/discovery/rules';
import { z } from 'zod';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { CATALOG_PATH, dayDirectoriesPath } from './paths.js';
import { DAY } from './schemas.js';

const SourceNameSchema = z.enum(DISCOVERY_RULES.sources);

const SightingSchema = z.object({ sourceId: z.string(), firstSeen: DAY, lastSeen: DAY });

const CatalogServerSchema = z.looseObject({
  key: z.string(),
  aliases: z.array(z.string()),
  repositoryUrl: z.string().nullable(),
  registryId: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  remotes: z.array(z.object({ url: z.string(), transport: z.string() })),
  packages: z.array(z.looseObject({ registry: z.string(), name: z.string() })),
  externalUrls: z.record(z.string(), z.string()),
  facts: z.record(z.string(), z.record(z.string(), z.unknown())),
  sources: z.partialRecord(SourceNameSchema, SightingSchema),
  firstSeen: DAY,
  lastSeen: DAY,
  active: z.boolean(),
  deactivatedOn: DAY.nullable(),
});

/** How one directory's read of the day went. */
export const DirectoryReadSummarySchema = z.object({
  source: SourceNameSchema,
  outcome: z.enum(['complete', 'truncated', 'failed']),
  entries: z.int().min(0),
  pages: z.int().min(0),
  /** Why the list is cut or missing; null when read whole. */
  note: z.string().nullable(),
});
export type DirectoryReadSummary = z.infer<typeof DirectoryReadSummarySchema>;

/** The catalog file: the day, each directory's read, the servers, and which watched server each one is checked as. */
export const CatalogFileSchema = z.object({
  day: DAY,
  reads: z.array(DirectoryReadSummarySchema),
  servers: z.array(CatalogServerSchema),
  /** Catalog key to the id of the watched server it is checked as; a server not checked has no entry. */
  checkedAs: z.record(z.string(), z.string()),
});

/** The catalog of one day, as written. */
export interface CatalogFile {
  day: string;
  reads: DirectoryReadSummary[];
  servers: CatalogServer[];
  checkedAs: Record<string, string>;
}

/** The state's catalog file cannot be read: the merge stops rather than start again from nothing. */
export class CatalogFileError extends Error {
  constructor(why: string) {
    super(`${CATALOG_PATH} cannot be read (${why}); the catalog was not merged, and the file is left as it is`);
    this.name = 'CatalogFileError';
  }
}

function parseCatalog(value: unknown): CatalogFile | null {
  const parsed = CatalogFileSchema.safeParse(value);
  return parsed.success ? (parsed.data as unknown as CatalogFile) : null;
}

/**
 * The newest day's catalog, null before the first merge. A file that is there but does not parse throws
 * CatalogFileError: merging from nothing would drop every server's sightings and first day.
 */
export async function readCatalogState(storage: Storage): Promise<CatalogFile | null> {
  let value: unknown;
  try {
    value = await getJson(storage, CATALOG_PATH);
  } catch {
    throw new CatalogFileError('not JSON');
  }
  if (value === null) return null;
  const catalog = parseCatalog(value);
  if (catalog === null) throw new CatalogFileError('not a catalog');
  return catalog;
}

/** The newest catalog for a page: null when there is none or it does not parse (the page then shows no sources). */
export async function readShownCatalog(storage: Storage): Promise<CatalogFile | null> {
  try {
    return await readCatalogState(storage);
  } catch {
    return null;
  }
}

/** Writes the day's catalog, then the state's (so a stop between the two leaves yesterday's state to merge from). */
export async function writeCatalog(storage: Storage, catalog: CatalogFile): Promise<void> {
  await putJson(storage, dayDirectoriesPath(catalog.day), catalog);
  await putJson(storage, CATALOG_PATH, catalog);
}
