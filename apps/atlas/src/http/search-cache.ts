// A bounded cache of tool-search answers. A view never changes once built (a scan swaps in a new one), so
// an answer is keyed by its view and query and can never go stale; dropping the view drops its answers.
import type { SearchHit } from '@mcp-atlas/route';
import type { AtlasView } from '../view/build-view.js';

/** Default number of distinct searches remembered per view. */
export const DEFAULT_SEARCH_CACHE_ENTRIES = 2_000;

/** Remembers recent search answers of the current view, least recently used out first. */
export interface SearchCache {
  get(view: AtlasView, key: string): SearchHit[] | undefined;
  set(view: AtlasView, key: string, hits: SearchHit[]): void;
}

/** A cache holding at most `entries` answers per view; 0 turns caching off. */
export function createSearchCache(entries: number = DEFAULT_SEARCH_CACHE_ENTRIES): SearchCache {
  const byView = new WeakMap<AtlasView, Map<string, SearchHit[]>>();
  return {
    get(view, key) {
      const answers = byView.get(view);
      const hits = answers?.get(key);
      if (answers !== undefined && hits !== undefined) {
        // Re-inserting moves the key to the newest end of the Map's order.
        answers.delete(key);
        answers.set(key, hits);
      }
      return hits;
    },
    set(view, key, hits) {
      if (entries <= 0) return;
      let answers = byView.get(view);
      if (answers === undefined) {
        answers = new Map();
        byView.set(view, answers);
      }
      answers.set(key, hits);
      if (answers.size > entries) answers.delete(answers.keys().next().value as string);
    },
  };
}
