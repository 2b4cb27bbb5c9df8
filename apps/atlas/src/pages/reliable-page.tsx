// The most-reliable lists (`/reliable`): per category, the servers ranked by the reliability package's
// order, with the top-10% marks. The listing rule and the marks are the package's; this page only says them.
import { type CategoryRanking, labelUptimePeriod } from '@mcp-atlas/reliability';
import { RANKING_RULES } from '@mcp-atlas/reliability/rules';
import type { FC } from 'hono/jsx';
import type { AtlasView } from '../view/build-view.js';
import { formatMs, formatPercent, formatUptime, plural } from './format.js';
import { TableHead } from './parts.js';

const TOP_SHARE = `top ${formatPercent(Math.round(100 / RANKING_RULES.topPlacesDivisor))}`;

/** An element id for a category's heading: lower-case letters, digits and dashes only. */
function headingIdOf(category: string): string {
  return `category-${category.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

const CategoryTable: FC<{ ranking: CategoryRanking; titleOf: (id: string) => string }> = ({ ranking, titleOf }) => (
  <section aria-labelledby={headingIdOf(ranking.category)} data-category={ranking.category}>
    <h2 id={headingIdOf(ranking.category)}>{ranking.category}</h2>
    <div class="scroll">
      <table>
        <TableHead
          columns={[
            { label: 'place', numeric: true },
            { label: 'server' },
            { label: 'uptime', numeric: true },
            { label: 'newest handshake', numeric: true },
            { label: 'mark', hidden: true },
          ]}
        />
        <tbody>
          {ranking.ranked.map((server) => (
            <tr data-server={server.id}>
              <td class="num">{server.rank}</td>
              <td>
                <a href={`/servers/${server.id}`}>{titleOf(server.id)}</a>
              </td>
              <td class="num">
                {formatUptime(server.uptime)} <span class="small muted">{labelUptimePeriod(server.daysObserved)}</span>
              </td>
              <td class="num">{formatMs(server.handshakeMs)}</td>
              <td>
                {server.topTenth ? (
                  <span class="top" data-top>
                    {TOP_SHARE}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  </section>
);

/** The most-reliable page's content. */
export const ReliablePage: FC<{ view: AtlasView }> = ({ view }) => {
  const titleOf = (id: string) => view.byId.get(id)?.title ?? id;
  return (
    <>
      <h1>Most reliable servers by category</h1>
      <p>
        A server is listed in its category when it is answering with tools now, a category could be read from its tools,
        and it has at least {plural(RANKING_RULES.minObservedDays, 'observed daily result')}. The order is the share of
        observed days it answered, then the newest handshake time (faster first), then more days observed, then its
        address. Places in the first{' '}
        {RANKING_RULES.topPlacesDivisor === 10 ? 'tenth' : `1/${RANKING_RULES.topPlacesDivisor}`} (rounded up) of a
        category with at least {plural(RANKING_RULES.topPlacesMinRanked, 'ranked server')} are marked {TOP_SHARE}.
      </p>
      <p class="small muted">
        Nothing else moves a server: places are never sold, and plans, owner verification and agents' ratings do not
        count.
      </p>
      {view.rankings.length === 0 ? (
        <p>No server qualifies yet.</p>
      ) : (
        view.rankings.map((ranking) => <CategoryTable ranking={ranking} titleOf={titleOf} />)
      )}
    </>
  );
};
