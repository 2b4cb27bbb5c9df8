// GET /api/servers, serialized once per read model. A view never changes once built, so each server's summary is
// turned into JSON text once, the whole list is kept as bytes with a strong ETag, and a page is the pieces of its
// servers joined, not a new serialization of 2,000 objects per request. The whole list is exactly the JSON of
// `{ day, servers, observing }` it always was; a page adds `total` and `next`.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AtlasView } from '../view/build-view.js';
import { presentObserving, presentServerSummary } from './present-server.js';
import { SERVER_LIST_DEFAULT_LIMIT, type ServerListQuery, ServerListSchema } from './schemas.js';
import { encodeServerCursor } from './server-cursor.js';

/** One page of GET /api/servers: the list's fields, the number of servers on the map, and the next cursor. */
export const ServerListPageSchema = ServerListSchema.extend({
  total: z.int().describe('Servers on the map in this read model, over all pages.'),
  next: z.string().nullable().describe('The `cursor` that asks for the page after this one, or null on the last page.'),
});
export type ServerListPage = z.infer<typeof ServerListPageSchema>;

/** What one view's list keeps between requests: the whole answer as bytes, and each server's JSON text. */
interface SerializedServerList {
  /** The unpaged answer, exactly `JSON.stringify({ day, servers, observing })`. */
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** A strong validator: a digest of the unpaged answer, which every page is derived from. */
  readonly digest: string;
  readonly ids: readonly string[];
  /** Each server's summary as JSON text, in list order. */
  readonly pieces: readonly string[];
  readonly positionOf: ReadonlyMap<string, number>;
  readonly dayText: string;
  readonly observingText: string;
}

/** An answer of GET /api/servers: the body to send and its ETag. */
export interface ServerListAnswer {
  readonly body: Uint8Array<ArrayBuffer> | string;
  readonly etag: string;
}

const encoder = new TextEncoder();

function serializeServerList(view: AtlasView): SerializedServerList {
  const pieces = view.servers.map((server) => JSON.stringify(presentServerSummary(view, server)));
  const dayText = JSON.stringify(view.day);
  // Submitted servers in observation are listed apart: they are not on the map until admitted.
  const observingText = JSON.stringify(view.observing.map(presentObserving));
  const bytes = encoder.encode(`{"day":${dayText},"servers":[${pieces.join(',')}],"observing":${observingText}}`);
  return {
    bytes,
    digest: createHash('sha256').update(bytes).digest('base64url').slice(0, 32),
    ids: view.servers.map((server) => server.id),
    pieces,
    positionOf: new Map(view.servers.map((server, index) => [server.id, index])),
    dayText,
    observingText,
  };
}

/**
 * Where the page after the server `after` starts. Within one view that is the next position; a cursor from an
 * older view whose server has left the map continues with the first id after it, in the order buildView sorts by.
 */
function startAfter(list: SerializedServerList, after: string | undefined): number {
  if (after === undefined) return 0;
  const position = list.positionOf.get(after);
  if (position !== undefined) return position + 1;
  const next = list.ids.findIndex((id) => id.localeCompare(after) > 0);
  return next === -1 ? list.ids.length : next;
}

function pageOf(list: SerializedServerList, query: ServerListQuery): ServerListAnswer {
  const limit = query.limit ?? SERVER_LIST_DEFAULT_LIMIT;
  const start = startAfter(list, query.cursor);
  const end = Math.min(start + limit, list.pieces.length);
  const next = end < list.pieces.length ? encodeServerCursor(list.ids[end - 1] as string) : null;
  const body =
    `{"day":${list.dayText},"servers":[${list.pieces.slice(start, end).join(',')}],` +
    `"observing":${list.observingText},"total":${list.pieces.length},"next":${JSON.stringify(next)}}`;
  // The page is a function of the whole list, the limit and where it starts, so those name it.
  const from = query.cursor === undefined ? '' : encodeServerCursor(query.cursor);
  return { body, etag: `"${list.digest}.${limit}.${from}"` };
}

/**
 * The server lists of the views it has seen, each serialized on its first request and kept while its view is.
 *
 * @example
 * const lists = createServerLists();
 * const { body, etag } = lists.answer(view, { limit: 100 });
 */
export function createServerLists(): { answer(view: AtlasView, query: ServerListQuery): ServerListAnswer } {
  const serialized = new WeakMap<AtlasView, SerializedServerList>();
  return {
    answer(view, query) {
      let list = serialized.get(view);
      if (list === undefined) {
        list = serializeServerList(view);
        serialized.set(view, list);
      }
      if (query.limit === undefined && query.cursor === undefined)
        return { body: list.bytes, etag: `"${list.digest}"` };
      return pageOf(list, query);
    },
  };
}

/**
 * True when an `If-None-Match` header names this entity tag, so a 304 may answer. The comparison is the weak one
 * the header calls for (a `W/` prefix does not matter), and `*` matches any current answer.
 *
 * @example
 * ifNoneMatchHits('W/"abc", "def"', '"def"'); // true
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
