// Agents and gateways know a server by its address, pages and tools by our id: a reference may be either.
import type { AtlasView, ServerView } from '../view/build-view.js';

// The view is replaced whole after each scan, so an index built for one view stays right for its lifetime.
const urlIndexes = new WeakMap<AtlasView, Map<string, ServerView>>();

function urlIndexOf(view: AtlasView): Map<string, ServerView> {
  let index = urlIndexes.get(view);
  if (index === undefined) {
    index = new Map(view.servers.map((server) => [server.url, server]));
    urlIndexes.set(view, index);
  }
  return index;
}

/** The server a reference names, by id first and then by the exact URL we watch it at; null when none. */
export function resolveServer(view: AtlasView, ref: string): ServerView | null {
  return view.byId.get(ref) ?? urlIndexOf(view).get(ref) ?? null;
}
