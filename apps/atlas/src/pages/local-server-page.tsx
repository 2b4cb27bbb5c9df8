// The page of a local server (`/servers/<id>` of a package-only registry entry), and the list of them on the
// server list: how to install it, what it declares, how its sandboxed check ended, and its tools with their risk
// levels. No uptime, rating or incident is shown: those are for servers with a remote endpoint.
import type { FC } from 'hono/jsx';
import type { LocalServerView } from '../view/local-view.js';
import { formatCount, plural } from './format.js';
import { TableHead } from './parts.js';
import { GradePill } from './score-parts.js';
import { FindingsSection, ToolsSection } from './server-page.js';

/** How a local check ended, in words (the methodology's "Local servers" page defines each outcome). */
export function describeLocalOutcome(server: Pick<LocalServerView, 'outcome' | 'stoppedBy'>): string {
  switch (server.outcome) {
    case 'listed':
      return 'installed, and listed its tools in the sandbox';
    case 'needs-configuration':
      return 'needs configuration: it declares required settings with no default, so it was not run';
    case 'not-installed':
      return 'could not be installed at this version';
    case 'stopped':
      return server.stoppedBy === null
        ? 'stopped by a sandbox limit'
        : `stopped by the sandbox's ${server.stoppedBy.replace('-', ' ')} limit`;
    case 'not-listed':
      return 'ran in the sandbox, but did not list its tools';
    case 'no-sandbox':
      return 'not run: no sandbox could be made on the checking machine';
  }
}

/** The "local" label every mention of a local server carries. */
export const LocalPill: FC = () => (
  <span class="pill local" data-local>
    local
  </span>
);

const InstallSection: FC<{ server: LocalServerView }> = ({ server }) => (
  <section aria-labelledby="install-heading">
    <h2 id="install-heading">Install and run</h2>
    <p>
      It runs on your own machine over stdio. The {server.package.registryType === 'npm' ? 'npm' : 'PyPI'} package{' '}
      <code>{server.package.identifier}</code> at version <code>{server.package.version}</code> starts with:
    </p>
    <pre data-install-command>
      <code>{server.installCommand}</code>
    </pre>
    {server.variables.length === 0 ? (
      <p class="small">It declares no environment variables.</p>
    ) : (
      <div class="scroll">
        <table>
          <TableHead
            columns={[{ label: 'variable' }, { label: 'required' }, { label: 'secret' }, { label: 'default' }]}
          />
          <tbody>
            {server.variables.map((variable) => (
              <tr data-variable={variable.name}>
                <td>
                  <code>{variable.name}</code>
                </td>
                <td>{variable.required ? 'required' : 'optional'}</td>
                <td>{variable.secret ? 'secret' : ''}</td>
                <td>{variable.default !== null ? <code>{variable.default}</code> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
  </section>
);

const LocalCheckSection: FC<{ server: LocalServerView }> = ({ server }) => (
  <section aria-labelledby="check-heading">
    <h2 id="check-heading">Sandboxed check</h2>
    <p data-outcome={server.outcome}>
      Version <code>{server.package.version}</code>, checked on {server.day}: {describeLocalOutcome(server)}.
    </p>
    <dl class="small">
      <dt>Letter</dt>
      <dd>
        <b>{server.latest.letter}</b>: {server.latest.message}
      </dd>
      {server.missing.length > 0 ? (
        <>
          <dt>Needs before it runs</dt>
          <dd>{server.missing.join(', ')}</dd>
        </>
      ) : null}
    </dl>
    {server.change !== null ? (
      <p data-change>
        Since version <code>{server.change.fromVersion}</code>: {formatCount(server.change.added.length)} added,{' '}
        {formatCount(server.change.removed.length)} removed, {formatCount(server.change.changed.length)} changed
        {server.change.riskRises.length > 0 ? `; risk rose for ${server.change.riskRises.join(', ')}` : ''}.
      </p>
    ) : null}
    <p class="small muted">
      A local server is installed at the exact version its registry entry names, and run once per version in a sandbox
      with no network and no secrets. Uptime, ratings and incidents are for servers with a remote endpoint.
    </p>
  </section>
);

/** A local server's page. */
export const LocalServerPage: FC<{ server: LocalServerView }> = ({ server }) => (
  <>
    <h1>
      {server.title} <LocalPill />
    </h1>
    <p>
      <span class="mono hash">{server.purl}</span>
      {server.latest.category !== null ? <span class="muted"> · category {server.latest.category}</span> : null}
    </p>
    <InstallSection server={server} />
    <LocalCheckSection server={server} />
    <section aria-labelledby="score-heading">
      <h2 id="score-heading">Quality score</h2>
      <p>
        <GradePill score={server.score} />
        {server.score !== null ? (
          <span class="small muted">
            {' '}
            scored from this check: {server.score.dimensionsScored} of {server.score.dimensionsApplicable} dimensions
            that apply to a local server
          </span>
        ) : null}
      </p>
    </section>
    <FindingsSection server={server} />
    <ToolsSection server={server} />
  </>
);

/** The local servers on the server list: each marked local, with how its check ended and its install command. */
export const LocalServersSection: FC<{ servers: readonly LocalServerView[] }> = ({ servers }) =>
  servers.length === 0 ? null : (
    <section aria-labelledby="local-heading">
      <h2 id="local-heading">Local servers</h2>
      <p>
        {plural(servers.length, 'server')} that ship only as a package, run on your own machine. Each version is checked
        once in a sandbox.
      </p>
      <div class="scroll">
        <table>
          <TableHead
            columns={[
              { label: 'server' },
              { label: 'check' },
              { label: 'tools', numeric: true },
              { label: 'grade' },
              { label: 'install' },
            ]}
          />
          <tbody>
            {servers.map((server) => (
              <tr data-server={server.id} data-local>
                <td>
                  <a href={`/servers/${server.id}`}>{server.title}</a> <LocalPill />
                </td>
                <td class="small">{describeLocalOutcome(server)}</td>
                <td class="num">{formatCount(server.catalog?.verdicts.length ?? 0)}</td>
                <td>
                  <GradePill score={server.score} />
                </td>
                <td>
                  <code>{server.installCommand}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
