// The list of servers (`/servers`): every watched server with its shown status and uptime, a page at a time
// so the page stays small however many servers are watched.
import type { FC } from 'hono/jsx';
import type { ServerScore } from '../score/day-scores.js';
import type { AtlasView } from '../view/build-view.js';
import { describeUptimeShort } from './badge.js';
import { formatShare, plural } from './format.js';
import { LocalServersSection } from './local-server-page.js';
import { ObservingSection } from './observing-section.js';
import { StatePill, TableHead } from './parts.js';
import { FlagWords, GradePill } from './score-parts.js';

/** Servers listed per page. */
export const SERVERS_PER_PAGE = 100;

/** How many pages the server list has (at least one, even when empty). */
export function countServerPages(servers: number): number {
  return Math.max(1, Math.ceil(servers / SERVERS_PER_PAGE));
}

// The server's grade and its flags, from its shown quality score; both blank-ish for a server not scored yet.
const ScoreCells: FC<{ score: ServerScore | null }> = ({ score }) => (
  <>
    <td>
      <GradePill score={score} />
    </td>
    <td class="small">
      <FlagWords flags={score?.flags ?? []} />
    </td>
  </>
);

/** One page of the server list; `page` counts from 1. */
export const ServersPage: FC<{ view: AtlasView; page: number }> = ({ view, page }) => {
  const pages = countServerPages(view.servers.length);
  const shown = view.servers.slice((page - 1) * SERVERS_PER_PAGE, page * SERVERS_PER_PAGE);
  return (
    <>
      <h1>Servers</h1>
      <p>
        {plural(view.servers.length, 'server')} watched{pages > 1 ? `; page ${page} of ${pages}` : ''}.
      </p>
      <div class="scroll">
        <table>
          <TableHead
            columns={[
              { label: 'server' },
              { label: 'status' },
              { label: 'uptime' },
              { label: 'success chance', numeric: true },
              { label: 'grade' },
              { label: 'flags' },
            ]}
          />
          <tbody>
            {shown.map((server) => (
              <tr data-server={server.id}>
                <td>
                  <a href={`/servers/${server.id}`}>{server.title ?? server.id}</a>
                </td>
                <td>
                  <StatePill state={server.shown.state} />
                </td>
                <td>{describeUptimeShort(server.uptime)}</td>
                <td class="num">{formatShare(server.successChance)}</td>
                <ScoreCells score={view.scores.latest.get(server.id)?.score ?? null} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav aria-label="Pages of the server list">
          {page > 1 ? <a href={`/servers?page=${page - 1}`}>previous page</a> : null}
          {page > 1 && page < pages ? ' · ' : null}
          {page < pages ? <a href={`/servers?page=${page + 1}`}>next page</a> : null}
        </nav>
      ) : null}
      <LocalServersSection servers={view.local} />
      <ObservingSection observing={view.observing} />
    </>
  );
};
