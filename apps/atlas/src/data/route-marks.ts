// Operator-kept marks the route reads: which servers are gateways (a 0.7 guard, and set aside for high-risk
// tasks) and which are listed in the Claude or ChatGPT directory (a 1.15 factor). Nothing in a server's own
// answers says either reliably, so a person keeps the two lists under state/ with `mcp-atlas mark`.
import { z } from 'zod';
import { getJsonOrNull, putJson, type Storage } from '../storage/storage.js';
import { DIRECTORIES_PATH, GATEWAYS_PATH, SERVER_ID_PATTERN } from './paths.js';

/** The two kinds of mark. */
export const ROUTE_MARK_KINDS = ['gateway', 'directory'] as const;
export type RouteMarkKind = (typeof ROUTE_MARK_KINDS)[number];

/** One mark list file: the server ids, sorted. */
export const RouteMarkFileSchema = z.object({ servers: z.array(z.string().regex(SERVER_ID_PATTERN)) });
export type RouteMarkFile = z.infer<typeof RouteMarkFileSchema>;

/** The marks as the route's tool index needs them, and any list that could not be read. */
export interface RouteMarks {
  gateways: Set<string>;
  directories: Set<string>;
  /** One sentence per list file that exists but is not a valid list (it then counts as empty). */
  problems: string[];
}

const PATH_OF: Readonly<Record<RouteMarkKind, string>> = { gateway: GATEWAYS_PATH, directory: DIRECTORIES_PATH };

/** A list file's servers, or null when the file exists but is not a valid list. */
async function readMarkList(storage: Storage, kind: RouteMarkKind): Promise<string[] | null> {
  const path = PATH_OF[kind];
  if ((await storage.get(path)) === null) return [];
  const parsed = RouteMarkFileSchema.safeParse(await getJsonOrNull(storage, path));
  return parsed.success ? parsed.data.servers : null;
}

/**
 * Reads both mark lists. A missing list is empty; a list that cannot be read (edited by hand into a wrong
 * shape) also counts as empty, so the read model keeps serving, and is named in `problems`.
 *
 * @example
 * const { gateways, directories } = await readRouteMarks(storage);
 * createToolIndex(servers.map((s) => ({ ...s, gateway: gateways.has(s.id), directoryListed: directories.has(s.id) })));
 */
export async function readRouteMarks(storage: Storage): Promise<RouteMarks> {
  const problems: string[] = [];
  const read = async (kind: RouteMarkKind): Promise<Set<string>> => {
    const list = await readMarkList(storage, kind);
    if (list === null)
      problems.push(`${PATH_OF[kind]} is not a list of server ids ({"servers": [...]}); it counts as empty`);
    return new Set(list ?? []);
  };
  return { gateways: await read('gateway'), directories: await read('directory'), problems };
}

/** Thrown when a mark list on disk cannot be read, so `mcp-atlas mark` never overwrites what a person wrote. */
export class RouteMarkFileError extends Error {}

/**
 * Marks a server (`on`) or removes its mark, in one atomic write of the list; returns whether the list
 * changed. Throws {@link RouteMarkFileError} when the list on disk is not a valid list.
 */
export async function setRouteMark(
  storage: Storage,
  kind: RouteMarkKind,
  server: string,
  on: boolean,
): Promise<boolean> {
  const id = z.string().regex(SERVER_ID_PATTERN).parse(server);
  const list = await readMarkList(storage, kind);
  if (list === null)
    throw new RouteMarkFileError(
      `${PATH_OF[kind]} is not a list of server ids ({"servers": [...]}); fix or delete it first`,
    );
  const servers = new Set(list);
  if (servers.has(id) === on) return false;
  if (on) servers.add(id);
  else servers.delete(id);
  await putJson(storage, PATH_OF[kind], { servers: [...servers].sort() });
  return true;
}
