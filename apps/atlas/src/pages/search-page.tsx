// The tool search page (`/search`): a plain GET form, and the results rendered on the server from the same
// answer GET /api/toolsearch gives, so it works with JavaScript off and a search can be bookmarked or shared.
import { SEARCH_RULES } from '@mcp-atlas/route/rules';
import type { FC } from 'hono/jsx';
import { QUERY_MAX_LENGTH } from '../http/limits.js';
import { WITHHELD_DESCRIPTION_NOTE } from '../http/present-server.js';
import type { ToolSearchResult } from '../http/schemas.js';
import type { AtlasView } from '../view/build-view.js';
import { plural } from './format.js';
import { LevelPill } from './parts.js';

/** The risk allowances the form offers, with the words it shows for each. */
export const RISK_CHOICES = [
  { value: 'any', label: 'any risk level' },
  { value: 'change', label: 'read-only and data-changing tools' },
  { value: 'read', label: 'read-only tools only' },
] as const;

/** What the search page shows: the form as filled in, and the results or the reason there are none. */
export interface SearchPageProps {
  view: AtlasView;
  query: string;
  risk: string;
  limit: string;
  results: ToolSearchResult['results'] | null;
  error: string | null;
}

const Results: FC<{ view: AtlasView; query: string; results: ToolSearchResult['results'] }> = ({
  view,
  query,
  results,
}) => (
  <section aria-labelledby="results-heading">
    <h2 id="results-heading">
      {plural(results.length, 'result')} for “{query}”
    </h2>
    {results.length === 0 ? (
      <p>No tool matches. Try other words, or allow more risk levels.</p>
    ) : (
      <ol data-results>
        {results.map((hit) => (
          <li data-hit={`${hit.serverId}/${hit.tool}`}>
            <code>{hit.tool}</code> <LevelPill level={hit.level} /> on{' '}
            <a href={`/servers/${hit.serverId}`}>{view.byId.get(hit.serverId)?.title ?? hit.serverId}</a>
            {hit.descriptionWithheld !== undefined ? (
              <div class="small muted" data-withheld={hit.descriptionWithheld}>
                {WITHHELD_DESCRIPTION_NOTE}
              </div>
            ) : (
              <div class="small muted">{hit.description}</div>
            )}
            <div class="small muted">score {hit.score.toFixed(3)}</div>
          </li>
        ))}
      </ol>
    )}
  </section>
);

/** The search page's content. */
export const SearchPage: FC<SearchPageProps> = (props) => (
  <>
    <h1>Tool search</h1>
    <p>
      Find a tool by what it does across {plural(props.view.toolCount, 'tool')} on{' '}
      {plural(props.view.servers.length, 'server')}. The same search answers{' '}
      <a href="/api/toolsearch?q=weather">/api/toolsearch</a> and the MCP tool <code>find_tool</code>.
    </p>
    {/* biome-ignore lint/a11y/useSemanticElements: the <search> element is too new for the browsers the pages support; role="search" gives the same landmark */}
    <form class="search" method="get" action="/search" role="search">
      <label>
        What should the tool do?
        <input type="search" name="q" value={props.query} maxlength={QUERY_MAX_LENGTH} required />
      </label>
      <label>
        Risk levels
        <select name="risk">
          {RISK_CHOICES.map((choice) => (
            <option value={choice.value} selected={props.risk === choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Results
        <input
          type="number"
          name="limit"
          min="1"
          max={SEARCH_RULES.maxResultLimit}
          value={props.limit === '' ? String(SEARCH_RULES.defaultLimit) : props.limit}
        />
      </label>
      <button type="submit">Search</button>
    </form>
    {props.error !== null ? (
      <p class="note" role="alert" data-search-error>
        {props.error}
      </p>
    ) : null}
    {props.results !== null ? <Results view={props.view} query={props.query} results={props.results} /> : null}
  </>
);
