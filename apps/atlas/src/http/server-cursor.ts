// The paging cursor of GET /api/servers. A cursor names the last server a page gave, so the next page starts
// right after that server: in the same read model it continues exactly, and in a newer one (a server joined or
// left the map between two pages) it still continues in id order instead of failing or repeating a page.
// The id travels base64url-encoded so that clients treat the cursor as opaque and do not build their own.
import { SERVER_ID_PATTERN } from '../data/paths.js';

/** The cursor that continues a server list after the server with this id. */
export function encodeServerCursor(lastId: string): string {
  return Buffer.from(lastId, 'utf8').toString('base64url');
}

/**
 * The server id a cursor continues after, or null when the text is not a cursor this service gives out.
 * Node's base64url decoder skips characters it does not know, so a cursor is accepted only when encoding the
 * decoded id again gives back the very same text.
 *
 * @example
 * decodeServerCursor(encodeServerCursor('notes-hub')); // 'notes-hub'
 * decodeServerCursor('%%%');                            // null
 */
export function decodeServerCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return SERVER_ID_PATTERN.test(id) && encodeServerCursor(id) === cursor ? id : null;
}
