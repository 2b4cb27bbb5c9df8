// The read answers shared by the HTTP routes and the MCP tools: tool search and route over the view's
// index, with the route package's input errors turned into refusals. The index reads the read model's tool
// text, already without control characters; a description the read model withholds is taken out of each hit
// here, so /api/toolsearch, find_tool and the search page never carry it.
import { type RiskAllowance, RouteInputError, routeTask, type SearchHit, searchTools } from '@mcp-atlas/route';
import type { AtlasView } from '../view/build-view.js';
import { WITHHELD_DESCRIPTION_REASON } from '../view/served-text.js';
import { type Answer, refuse } from './errors.js';
import type { RouteAnswer, ToolSearchResult } from './schemas.js';
import type { SearchCache } from './search-cache.js';

function fromRouteError<T>(error: unknown): Answer<T> {
  if (error instanceof RouteInputError) return { ok: false, refusal: refuse(400, error.code, error.message) };
  throw error;
}

/** A search hit as answered: marked when its server is local, its description withheld while the read model holds it back. */
function presentHit(view: AtlasView, hit: SearchHit): ToolSearchResult['results'][number] {
  const local = view.localById.get(hit.serverId);
  const server = local ?? view.byId.get(hit.serverId);
  const marked = local === undefined ? hit : { ...hit, local: true as const };
  if (server?.withheldDescriptions.has(hit.tool) !== true) return marked;
  return { ...marked, description: '', descriptionWithheld: WITHHELD_DESCRIPTION_REASON };
}

/** Tool search: the best tools for `query`, within the risk allowance. */
export function answerToolSearch(
  view: AtlasView,
  query: string,
  options: { risk?: RiskAllowance | undefined; limit?: number | undefined },
  cache?: SearchCache,
): Answer<ToolSearchResult> {
  const key = JSON.stringify([query, options.risk ?? null, options.limit ?? null]);
  const cached = cache?.get(view, key);
  if (cached !== undefined) return { ok: true, value: { results: cached } };
  try {
    const results = searchTools(view.toolIndex, query, {
      ...(options.risk !== undefined ? { risk: options.risk } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
    }).map((hit) => presentHit(view, hit));
    cache?.set(view, key, results);
    return { ok: true, value: { results } };
  } catch (error) {
    return fromRouteError(error);
  }
}

/** Route: the picks for `task`, each with its factors, and the servers set aside with their reasons. */
export function answerRoute(
  view: AtlasView,
  task: string,
  options: { now: Date; limit?: number | undefined },
): Answer<RouteAnswer> {
  try {
    const result = routeTask(view.toolIndex, task, {
      now: options.now,
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
    });
    // A local server's pick is marked, so an agent knows it installs the server rather than calls it.
    const picks = result.picks.map((pick) =>
      view.localById.has(pick.serverId) ? { ...pick, local: true as const } : pick,
    );
    return { ok: true, value: { task, ...result, picks } };
  } catch (error) {
    return fromRouteError(error);
  }
}
