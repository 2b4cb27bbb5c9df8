// The parts of a server page that come from outside our own checks: what its verified owner wrote (always
// shown as the owner's words, never as ours), when it was submitted, the age of its domain from RDAP, and the
// packages it ships with their known vulnerabilities from OSV. Each part shows only when the read model has it.
import { ROUTE_SCORE_RULES } from '@mcp-atlas/route/rules';
import type { FC } from 'hono/jsx';
import type { ServerView } from '../view/build-view.js';
import { formatCount, formatInstant, plural } from './format.js';
import { TableHead } from './parts.js';

const OwnerSection: FC<{ owner: NonNullable<ServerView['owner']> }> = ({ owner }) => (
  <section aria-labelledby="owner-heading" data-owner>
    <h2 id="owner-heading">From the owner</h2>
    <p class="small">
      The owner proved control of <span class="mono">{owner.origin}</span> (last checked{' '}
      <time datetime={owner.verifiedAt}>{formatInstant(owner.verifiedAt)}</time>).
      {owner.fiveMinuteChecks ? ' They asked for five-minute checks.' : ''}
    </p>
    {owner.note !== null ? (
      <figure class="owner" data-owner-note>
        <figcaption class="small">
          The owner’s note, in their own words (not checked or endorsed by mcp-atlas), set{' '}
          <time datetime={owner.note.setAt}>{formatInstant(owner.note.setAt)}</time>:
        </figcaption>
        <blockquote>
          <p>{owner.note.text}</p>
        </blockquote>
      </figure>
    ) : null}
  </section>
);

const DomainAgeLine: FC<{ age: NonNullable<ServerView['domainAge']> }> = ({ age }) => (
  <p data-domain-age>
    Domain <span class="mono">{age.domain}</span>:{' '}
    {age.ageDays !== null && age.registeredAt !== null ? (
      <>
        registered {age.registeredAt.slice(0, 10)}, {plural(age.ageDays, 'day')} ago
        {age.young ? <strong> (younger than {ROUTE_SCORE_RULES.youngDomainDays} days)</strong> : null}
      </>
    ) : (
      <>no registration date found{age.problem !== null ? ` (${age.problem.message})` : ''}</>
    )}
    <span class="small muted"> · public RDAP record, looked up {age.lookedUpDay}</span>
  </p>
);

function vulnerabilityWords(record: ServerView['packages']['packages'][number]): string {
  if (record.vulnerabilities === null) return 'not checked yet';
  if (record.vulnerabilities.length === 0) return 'none known';
  return `${record.truncated ? 'at least ' : ''}${plural(record.vulnerabilities.length, 'known vulnerability', 'known vulnerabilities')}`;
}

const PackagesSection: FC<{ packages: ServerView['packages'] }> = ({ packages }) => (
  <section aria-labelledby="packages-heading" data-packages>
    <h2 id="packages-heading">Packages it ships</h2>
    <p class="small">
      Current versions from the package registries and last week's downloads on {packages.day}; known vulnerabilities
      from OSV
      {packages.osv === null
        ? ' (not checked yet for this day)'
        : packages.osv.ok
          ? `, checked ${formatInstant(packages.osv.checkedAt)}`
          : ` (the check failed: ${packages.osv.problem?.message ?? 'no answer'})`}
      .
    </p>
    <div class="scroll">
      <table>
        <TableHead
          columns={[
            { label: 'package' },
            { label: 'version' },
            { label: 'downloads last week', numeric: true },
            { label: 'vulnerabilities' },
          ]}
        />
        <tbody>
          {packages.packages.map((record) => (
            <tr data-package={`${record.ecosystem}/${record.name}`}>
              <td>
                <span class="muted small">{record.ecosystem}</span> <code>{record.name}</code>
              </td>
              <td>{record.version ?? `unknown${record.problem !== null ? ` (${record.problem.message})` : ''}`}</td>
              <td class="num" data-downloads>
                {record.weeklyDownloads === undefined || record.weeklyDownloads === null
                  ? 'not read'
                  : formatCount(record.weeklyDownloads)}
              </td>
              <td>
                {vulnerabilityWords(record)}
                {record.vulnerabilities !== null && record.vulnerabilities.length > 0 ? (
                  <ul class="small" data-vulnerabilities>
                    {record.vulnerabilities.map((id) => (
                      <li>
                        <code>{id}</code>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    {packages.newer !== null ? (
      <p class="small muted">
        Versions of {packages.newer.day} were read, but OSV has{' '}
        {packages.newer.osv === null ? 'not been asked about them yet' : 'not answered for them'}; the table shows the
        newest day it answered for.
      </p>
    ) : null}
  </section>
);

/** The owner's part and where the server comes from; nothing when the read model has neither. */
export const ServerOrigin: FC<{ server: ServerView }> = ({ server }) => {
  const hasOrigin = server.submittedAt !== null || server.domainAge !== null;
  return (
    <>
      {server.owner !== null ? <OwnerSection owner={server.owner} /> : null}
      {hasOrigin ? (
        <section aria-labelledby="origin-heading">
          <h2 id="origin-heading">Where it comes from</h2>
          {server.submittedAt !== null ? (
            <p data-submitted>
              Submitted by its owner on <time datetime={server.submittedAt}>{server.submittedAt.slice(0, 10)}</time>.
            </p>
          ) : null}
          {server.domainAge !== null ? <DomainAgeLine age={server.domainAge} /> : null}
        </section>
      ) : null}
    </>
  );
};

/** The packages the server ships and their known vulnerabilities; nothing when it ships none we know of. */
export const ServerPackages: FC<{ server: ServerView }> = ({ server }) =>
  server.packages.packages.length > 0 ? <PackagesSection packages={server.packages} /> : null;
