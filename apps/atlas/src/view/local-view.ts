// Local servers in the read model: each package-only registry entry of the last registry read that has a check
// on record, with the tools its newest listing check found. They are on the map, in the tool search and in the
// route, marked local; uptime, ratings and incidents are for remote servers only, so none is read for them.
import type { IndexServer } from '@mcp-atlas/route';
import { localCatalogPath } from '../data/paths.js';
import { type Catalog, CatalogSchema, type ServerDayResult } from '../data/schemas.js';
import {
  type LocalRecord,
  type LocalServerPackage,
  readLocalRecords,
  readLocalServers,
} from '../scan/local-servers.js';
import { getJson, type Storage } from '../storage/storage.js';
import { cleanCatalog, cleanDayResult, cleanTitle, readWithheldDescriptions } from './served-text.js';

/** A variable a local server declares: shown with whether it must be set; its value is never ours to give. */
export interface LocalVariableView {
  name: string;
  required: boolean;
  secret: boolean;
  /** The entry's declared default, when it has one. */
  default: string | null;
}

/** Everything the pages and the API say about one local server. */
export interface LocalServerView {
  id: string;
  title: string;
  /** The package URL of the version checked (`pkg:npm/...@version`). */
  purl: string;
  package: Pick<LocalServerPackage, 'registryType' | 'identifier' | 'version'>;
  /** The command a user runs to start it: npx or uvx at the exact version checked. */
  installCommand: string;
  variables: LocalVariableView[];
  /** Required variables and arguments with no default: it needs them before it can run. */
  missing: string[];
  outcome: LocalRecord['outcome'];
  stoppedBy: LocalRecord['stoppedBy'];
  /** The day the version was checked. */
  day: string;
  /** The check's record, without control characters (letter, reason, findings, tokens, tools hash). */
  latest: ServerDayResult;
  /** The tools of the newest check that listed them (maybe an earlier version's), or null. */
  catalog: Catalog | null;
  withheldDescriptions: ReadonlySet<string>;
  change: LocalRecord['change'];
  /** The quality score of the check, or null. */
  score: LocalRecord['score'];
  /** True when the newest check listed tools: the only sense in which a local server "answers". */
  listed: boolean;
}

function variablesOf(pkg: LocalServerPackage): LocalVariableView[] {
  return pkg.environmentVariables.map((variable) => ({
    name: variable.name,
    required: variable.isRequired === true,
    secret: variable.isSecret === true,
    default: variable.default ?? null,
  }));
}

async function readCatalog(storage: Storage, id: string): Promise<Catalog | null> {
  const parsed = CatalogSchema.safeParse(await getJson(storage, localCatalogPath(id)));
  return parsed.success ? parsed.data : null;
}

/** The local servers of the last registry read that have a check on record, by id. */
export async function readLocalView(storage: Storage): Promise<LocalServerView[]> {
  const listed = await readLocalServers(storage);
  const records = await readLocalRecords(storage);
  const views: LocalServerView[] = [];
  for (const server of listed) {
    const record = records.get(server.id);
    if (record === undefined) continue;
    const stored = record.lastListed === null ? null : await readCatalog(storage, server.id);
    views.push({
      id: server.id,
      title: cleanTitle(server.title) ?? server.id,
      purl: record.purl,
      package: {
        registryType: record.package.registryType,
        identifier: record.package.identifier,
        version: record.package.version,
      },
      installCommand: record.installCommand,
      variables: variablesOf(record.package),
      missing: record.missing,
      outcome: record.outcome,
      stoppedBy: record.stoppedBy,
      day: record.day,
      latest: cleanDayResult(record.result),
      catalog: stored === null ? null : cleanCatalog(stored),
      withheldDescriptions:
        stored === null ? new Set() : await readWithheldDescriptions(storage, server.id, stored.tools),
      change: record.change,
      score: record.score,
      listed: record.outcome === 'listed',
    });
  }
  return views.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * What the route's tool index is told about a local server: its tools, and whether its newest check listed them.
 * It has no uptime, stability, rating or domain, so the route's defaults for a server with no history apply.
 */
export function indexLocalServerOf(server: LocalServerView): IndexServer {
  return {
    id: server.id,
    name: server.title,
    url: server.purl,
    tools: server.catalog?.tools ?? [],
    answering: server.listed,
  };
}
