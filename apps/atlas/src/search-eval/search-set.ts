// The evaluation set a search-eval run grades with: its bytes, their SHA-256, its version and its
// jobs, checked by the route package's parser. The set the schedule runs is the newest frozen one the route
// package ships (eval/toolsearch-v2.json; v1 stays published beside it, and figures are compared only within one
// version); the command takes any set file.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseSearchJobs, RouteInputError, type SearchJob } from '@mcp-atlas/route';

/** A set read and checked: the exact bytes (served as they are), their SHA-256, the version and the jobs. */
export interface SearchEvalSet {
  version: string;
  sha256: string;
  jobs: SearchJob[];
  bytes: Uint8Array;
}

/** A set file that cannot be used, with the reason in the message. */
export class SearchEvalSetError extends Error {}

/**
 * The frozen sets the route package ships, by version, oldest first. The last is the one the schedule runs;
 * the earlier ones stay published so figures measured on them can still be checked.
 */
export const PACKAGED_SET_FILES: Readonly<Record<string, string>> = Object.freeze({
  v1: join('eval', 'toolsearch-v1.json'),
  v2: join('eval', 'toolsearch-v2.json'),
});

/** The version of the newest frozen set: the one the schedule runs. */
export const PACKAGED_SET_VERSION = 'v2';

/** The path of a frozen set the route package ships, found through its own package.json; null for a version it lacks. */
export function packagedSetPathOf(version: string): string | null {
  const file = Object.hasOwn(PACKAGED_SET_FILES, version) ? PACKAGED_SET_FILES[version] : undefined;
  if (file === undefined) return null;
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@mcp-atlas/route/package.json')), file);
}

/** The path of the newest frozen set the route package ships: the one the schedule runs. */
export function packagedSearchEvalSetPath(): string {
  const path = packagedSetPathOf(PACKAGED_SET_VERSION);
  if (path === null) throw new Error(`no packaged search-eval set ${PACKAGED_SET_VERSION}`);
  return path;
}

/** Parses a set's bytes: JSON with a string `version` and jobs the route package's judge accepts. */
export function parseSearchEvalSet(bytes: Uint8Array, where: string): SearchEvalSet {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new SearchEvalSetError(`${where}: not a JSON file (${(error as Error).message})`);
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version !== 'string' || version.trim() === '')
    throw new SearchEvalSetError(`${where}: the set must name its version (a "version" string)`);
  let jobs: SearchJob[];
  try {
    jobs = parseSearchJobs(value);
  } catch (error) {
    if (error instanceof RouteInputError) throw new SearchEvalSetError(`${where}: ${error.message}`);
    throw error;
  }
  if (jobs.length === 0) throw new SearchEvalSetError(`${where}: the set has no jobs`);
  return { version, sha256: createHash('sha256').update(bytes).digest('hex'), jobs, bytes };
}

/** Reads and checks a set file; a missing or unreadable file is a SearchEvalSetError naming it. */
export async function readSearchEvalSet(path: string): Promise<SearchEvalSet> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new SearchEvalSetError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseSearchEvalSet(bytes, path);
}
