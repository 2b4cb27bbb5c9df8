// The catalog on the pages: which directories reported a server (with links to its page at each), and on the
// state page how many servers each directory lists and how the directories overlap. Every count comes from
// @mcp-atlas/discovery through the view; the words of each source are its DISCOVERY_RULES titles.
import type { SourceName } from '@mcp-atlas/discovery';
import { DISCOVERY_RULES } from '@mcp-atlas/discovery/rules';
import type { FC } from 'hono/jsx';
import type { CatalogView, ReportedBy, ServerCatalogView } from '../view/catalog-view.js';
import { plural } from './format.js';
import { TableHead } from './parts.js';

const titleOf = (source: SourceName): string => DISCOVERY_RULES.sourceTitles[source];

/** The link of a source's row: the server's own page there when known, else its repository, else the source. */
function linkOf(entry: ServerCatalogView, seen: ReportedBy): string {
  const kind = (
    DISCOVERY_RULES.sourcePageLinks as Partial<Record<SourceName, keyof ServerCatalogView['externalUrls']>>
  )[seen.source];
  const page = kind === undefined ? undefined : entry.externalUrls[kind];
  if (page !== undefined) return page;
  if ((seen.source === 'github-topics' || seen.source === 'awesome-mcp-servers') && entry.repositoryUrl !== null)
    return entry.repositoryUrl;
  return DISCOVERY_RULES.sourceHomes[seen.source];
}

/** The server page's "Reported by": each directory that listed the server, with when, and its package pages. */
export const ReportedBySection: FC<{ entry: ServerCatalogView | undefined }> = ({ entry }) => {
  if (entry === undefined || entry.reportedBy.length === 0) return null;
  const packages = (['npm', 'pypi'] as const).flatMap((kind) => {
    const url = entry.externalUrls[kind];
    return url === undefined ? [] : [{ kind, url }];
  });
  return (
    <section aria-labelledby="reported-heading" data-reported-by>
      <h2 id="reported-heading">Reported by</h2>
      <p class="small">
        {plural(entry.reportedBy.length, 'directory', 'directories')} listed this server. A directory that no longer
        lists it shows the last day it did.
      </p>
      <table>
        <TableHead
          columns={[{ label: 'Directory' }, { label: 'Listed as' }, { label: 'First seen' }, { label: 'Last seen' }]}
        />
        <tbody>
          {entry.reportedBy.map((seen) => (
            <tr data-source={seen.source}>
              <td>
                <a href={linkOf(entry, seen)} rel="nofollow noopener">
                  {titleOf(seen.source)}
                </a>
              </td>
              <td class="mono">{seen.sourceId}</td>
              <td>{seen.firstSeen}</td>
              <td>{seen.listsNow ? `${seen.lastSeen} (lists it now)` : seen.lastSeen}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {packages.length > 0 ? (
        <p class="small">
          Packages:{' '}
          {packages.map((item, index) => (
            <>
              {index > 0 ? ', ' : ''}
              <a href={item.url} rel="nofollow noopener">
                {item.kind === 'npm' ? 'npm' : 'PyPI'}
              </a>
            </>
          ))}
        </p>
      ) : null}
    </section>
  );
};

/** The state page's catalog section: servers per directory, what only one lists, and the overlaps. */
export const CatalogCountsSection: FC<{ catalog: CatalogView | null }> = ({ catalog }) => {
  if (catalog === null) return null;
  const { summary } = catalog;
  const readOf = new Map(catalog.reads.map((read) => [read.source, read]));
  const columns = summary.bySource.filter((column) => column.lastListed !== null || readOf.has(column.source));
  return (
    <section aria-labelledby="catalog-heading" data-catalog-counts>
      <h2 id="catalog-heading">Where servers are listed</h2>
      <p>
        The catalog of <time datetime={catalog.day}>{catalog.day}</time> holds {plural(summary.active, 'active server')}{' '}
        ({plural(summary.servers - summary.active, 'deactivated server')}, kept with{' '}
        {summary.servers - summary.active === 1 ? 'its' : 'their'} history), merged from{' '}
        {plural(columns.length, 'directory', 'directories')}. Every server of it, listed or checked, is in{' '}
        <a href="/api/catalog">/api/catalog</a>.
      </p>
      <table>
        <TableHead
          columns={[
            { label: 'Directory' },
            { label: 'Servers', numeric: true },
            { label: 'Only there', numeric: true },
            { label: 'Last listed' },
            { label: 'Newest read' },
          ]}
        />
        <tbody>
          {columns.map((column) => {
            const read = readOf.get(column.source);
            return (
              <tr data-source={column.source}>
                <td>{titleOf(column.source)}</td>
                <td class="num">{column.listed}</td>
                <td class="num">{column.onlyHere}</td>
                <td>{column.lastListed ?? 'never'}</td>
                <td>
                  {read === undefined
                    ? 'not read'
                    : read.note === null
                      ? read.outcome
                      : `${read.outcome}: ${read.note}`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h3>Servers by number of directories</h3>
      <table>
        <TableHead
          columns={[
            { label: 'Directories', numeric: true },
            { label: 'Servers', numeric: true },
          ]}
        />
        <tbody>
          {summary.bySourceCount.flatMap((count, index) =>
            count === 0
              ? []
              : [
                  <tr data-source-count={index + 1}>
                    <td>{index + 1}</td>
                    <td>{count}</td>
                  </tr>,
                ],
          )}
        </tbody>
      </table>
      <h3>Overlap</h3>
      {summary.pairs.length === 0 ? (
        <p>No two directories list a server in common.</p>
      ) : (
        <table>
          <TableHead columns={[{ label: 'Directories' }, { label: 'Servers in both', numeric: true }]} />
          <tbody>
            {summary.pairs.map((pair) => (
              <tr data-pair={`${pair.a} ${pair.b}`}>
                <td>
                  {titleOf(pair.a)} and {titleOf(pair.b)}
                </td>
                <td>{pair.both}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
};
