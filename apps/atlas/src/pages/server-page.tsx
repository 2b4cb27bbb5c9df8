// The server page (`/servers/:id`): everything the observatory says about one server. Every figure, label
// and threshold comes from the read model and so from the packages; this file lays them out and says what
// each one means.
import { FINDING_TITLES, type FindingId } from '@mcp-atlas/findings';
import { TOKEN_RULES } from '@mcp-atlas/findings/rules';
import { describePublicRating, type SeriesDay } from '@mcp-atlas/reliability';
import { CHANCE_RULES, RATING_RULES, SHOWN_STATUS_RULES, UPTIME_RULES } from '@mcp-atlas/reliability/rules';
import type { FC } from 'hono/jsx';
import type { z } from 'zod';
import { presentLeftOut, presentTools, WITHHELD_DESCRIPTION_NOTE } from '../http/present-server.js';
import type { ServerChangeSchema } from '../http/schemas.js';
import type { AtlasView, ServerView } from '../view/build-view.js';
import { ReportedBySection } from './catalog-parts.js';
import { EmbedSnippets } from './embed.js';
import {
  formatCount,
  formatInstant,
  formatMs,
  formatShare,
  formatStars,
  formatUptime,
  joinWords,
  ordinal,
  plural,
} from './format.js';
import { LetterLegend, LetterStrip, LevelPill, StatePill, TableHead } from './parts.js';
import { ScoreSection } from './score-parts.js';
import { ServerDaysSection } from './server-charts.js';
import { ServerOrigin, ServerPackages } from './server-extras.js';
import { LETTER_COLOURS } from './styles.js';

type ServerChange = z.infer<typeof ServerChangeSchema>;

/** The name a page gives a server: its title, else its id. */
export function nameOf(server: ServerView): string {
  return server.title ?? server.id;
}

const IncidentBanner: FC<{ server: ServerView }> = ({ server }) => {
  const incident = server.incident;
  if (!incident.shown) return null;
  return (
    <section class="banner" role="alert" aria-labelledby="incident-heading" data-incident>
      <h2 id="incident-heading">Live incident</h2>
      <p>{incident.explanation}</p>
      {incident.since !== null ? (
        <p class="small">
          Failures since <time datetime={incident.since}>{formatInstant(incident.since)}</time>; confirmed by{' '}
          {joinWords(
            incident.confirmedBy.map((by) => (by === 'own_check' ? 'our own check' : 'a paying reporter')),
            'and',
          )}
          .
        </p>
      ) : null}
      {incident.until !== null ? (
        <p class="small" data-incident-until>
          If nothing new is reported, it ends at <time datetime={incident.until}>{formatInstant(incident.until)}</time>.
        </p>
      ) : null}
    </section>
  );
};

const StatusSection: FC<{ server: ServerView }> = ({ server }) => {
  const { shown } = server;
  return (
    <section aria-labelledby="status-heading">
      <h2 id="status-heading">Status</h2>
      <p class="status" data-status={shown.state ?? 'none'}>
        <StatePill state={shown.state} />
      </p>
      {shown.state === 'non_standard' ? (
        <p class="note">
          The server answers over HTTP, but not as a standard MCP endpoint (an HTTP{' '}
          {joinWords(SHOWN_STATUS_RULES.nonStandardHttpStatuses.map(String))}, or an answer that is not MCP). We show
          that rather than calling it down; its daily letter is still <b>d</b>.
        </p>
      ) : null}
      {shown.heldBack ? (
        <p class="note" data-held-back>
          Our newest hourly check failed, but it is the first failure in a row, so the status still shows the check
          before it.
        </p>
      ) : null}
      {!shown.heldBack && shown.failuresInARow >= SHOWN_STATUS_RULES.failuresInARowToShow ? (
        <p class="note">
          Our last {formatCount(shown.failuresInARow)} hourly checks failed in a row, so the status shows it as not
          answering.
        </p>
      ) : null}
      <p class="small muted">
        A single failed hourly or five-minute check can be a blip on our side or the network's, so the status changes
        only from the {ordinal(SHOWN_STATUS_RULES.failuresInARowToShow)} failure in a row; until then it shows the check
        before it.
      </p>
      {server.latest !== null ? <LatestCheck latest={server.latest} /> : <p>This server has not been checked yet.</p>}
    </section>
  );
};

// Given the newest check itself rather than the server, so the caller's null check narrows it once for all.
const LatestCheck: FC<{ latest: NonNullable<ServerView['latest']> }> = ({ latest }) => {
  return (
    <dl class="small">
      <dt>Newest daily check</dt>
      <dd>
        letter <b>{latest.letter}</b>: {latest.message}
      </dd>
      <dt>Handshake and tool list took</dt>
      <dd>{formatMs(latest.elapsedMs)}</dd>
      {latest.protocolVersion !== null ? (
        <>
          <dt>Protocol version</dt>
          <dd>{latest.protocolVersion}</dd>
        </>
      ) : null}
      {latest.serverName !== null ? (
        <>
          <dt>Server says it is</dt>
          <dd>
            {latest.serverName}
            {latest.serverVersion !== null ? ` ${latest.serverVersion}` : ''}
          </dd>
        </>
      ) : null}
      {latest.paymentAddress !== null ? (
        <>
          <dt>Asks agents to pay</dt>
          <dd class="mono hash">{latest.paymentAddress}</dd>
        </>
      ) : null}
      {latest.redirect !== null ? (
        <>
          <dt>Redirects to</dt>
          <dd class="mono hash">
            {latest.redirect.location}
            {latest.redirect.sameSite ? '' : ' (another domain: not followed)'}
          </dd>
        </>
      ) : null}
    </dl>
  );
};

const FiguresSection: FC<{ server: ServerView }> = ({ server }) => {
  const { uptime } = server;
  return (
    <section aria-labelledby="figures-heading">
      <h2 id="figures-heading">Uptime, success chance and stability</h2>
      <dl class="figures">
        <div data-figure="uptime">
          <dt>Uptime, {uptime.label}</dt>
          <dd>{uptime.percent === null ? 'none yet' : formatUptime(uptime.percent)}</dd>
          <dd class="small muted">from {uptime.sourceLabel}</dd>
          {uptime.longPercent !== null ? (
            <dd class="small">
              {formatUptime(uptime.longPercent)} over {UPTIME_RULES.fiveMinuteLongWindowDays} days
            </dd>
          ) : null}
        </div>
        <div data-figure="success-chance">
          <dt>Chance the next check works</dt>
          <dd>{formatShare(server.successChance)}</dd>
          <dd class="small muted">newer days weigh more</dd>
        </div>
        <div data-figure="stability">
          <dt>Stability of the tool list</dt>
          <dd>{server.stability.toFixed(2)}</dd>
          <dd class="small muted">
            {plural(server.changeDaysLast30, 'change day')} in the last {CHANCE_RULES.stabilityWindowDays} days
          </dd>
        </div>
      </dl>
      <p class="small muted">
        These figures measure the handshake and the tool list, not a tool call. See the{' '}
        <a href="/methodology/reliability">methodology</a> for the formulas.
      </p>
    </section>
  );
};

const HourProfileSection: FC<{ server: ServerView }> = ({ server }) => {
  const profile = server.hourProfile;
  return (
    <section aria-labelledby="hours-heading">
      <h2 id="hours-heading">Hour of day</h2>
      {profile.shown ? (
        <>
          <p class="small">The latest result our checks saw at each hour of the day (UTC).</p>
          <ol class="hours" aria-label="Latest result at each UTC hour" data-hour-profile="shown">
            {profile.hours.map((slot, hour) => {
              const label = `${String(hour).padStart(2, '0')}:00 UTC`;
              if (slot === null)
                return (
                  <li
                    style="background:#f0f0f0;color:#212121"
                    aria-label={`${label}: no result yet`}
                  >{`${String(hour).padStart(2, '0')} ·`}</li>
                );
              const colours = LETTER_COLOURS[slot.letter];
              return (
                <li
                  style={`background:${colours.background};color:${colours.text}`}
                  aria-label={`${label}: ${slot.letter}`}
                  title={formatInstant(slot.at)}
                >
                  {`${String(hour).padStart(2, '0')} ${slot.letter}`}
                </li>
              );
            })}
          </ol>
        </>
      ) : (
        <p data-hour-profile="pending">
          The hour-of-day profile appears once {plural(SHOWN_STATUS_RULES.hourProfileMinHours, 'hour')} of the day have
          a result; {formatCount(profile.hoursWithResult)} so far.
        </p>
      )}
    </section>
  );
};

const RatingSection: FC<{ server: ServerView }> = ({ server }) => {
  const rating = describePublicRating(server.rating);
  return (
    <section aria-labelledby="rating-heading">
      <h2 id="rating-heading">Agents' rating</h2>
      {rating.shown ? (
        <p data-stars>
          <strong>{formatStars(rating.stars)}</strong> of {RATING_RULES.starFloor + RATING_RULES.starSpan} stars;{' '}
          {formatShare(rating.reliability)} of reported calls worked, from {plural(server.rating.reporters, 'reporter')}{' '}
          over the last {RATING_RULES.reportWindowDays} days.
        </p>
      ) : (
        <p data-stars="hidden">{rating.label}.</p>
      )}
    </section>
  );
};

/** The newest check's findings and token estimate; the local server page shows it too. */
export const FindingsSection: FC<{ server: Pick<ServerView, 'latest'> }> = ({ server }) => {
  const latest = server.latest;
  const findings = latest?.findings ?? [];
  return (
    <section aria-labelledby="findings-heading">
      <h2 id="findings-heading">Findings and token cost</h2>
      {latest?.tokens !== null && latest?.tokens !== undefined ? (
        <p data-tokens>
          The tool list costs about <strong>{plural(latest.tokens, 'token')}</strong> of an agent's context (its JSON
          length divided by {TOKEN_RULES.charsPerToken}; real counts depend on each model's tokenizer).
        </p>
      ) : (
        <p>No token estimate: the newest check saw no tool list.</p>
      )}
      {latest?.letter !== 'o' ? (
        // Findings are read from a tool list; "No findings" would read as "passed every check".
        <p data-findings="none-read">No findings: the newest check saw no tool list to read.</p>
      ) : findings.length === 0 ? (
        <p>No findings.</p>
      ) : (
        <ul>
          {findings.map((finding) => (
            <li data-finding={finding.id}>
              <b>{FINDING_TITLES[finding.id as FindingId] ?? finding.id}</b>: {finding.message}
              {finding.tools !== undefined && finding.tools.length > 0 ? (
                <span class="small">
                  {' '}
                  (
                  {finding.tools.map((tool, i) => (
                    <>
                      {i > 0 ? ', ' : ''}
                      <code>{tool}</code>
                    </>
                  ))}
                  )
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};

/** A server's tools with their risk levels, from its newest catalog; the local server page shows it too. */
export const ToolsSection: FC<{ server: Pick<ServerView, 'catalog' | 'withheldDescriptions'> }> = ({ server }) => {
  const tools = presentTools(server);
  return (
    <section aria-labelledby="tools-heading">
      <h2 id="tools-heading">
        Tools{server.catalog !== null ? ` (${formatCount(tools.length)}, listed on ${server.catalog.day})` : ''}
      </h2>
      {tools.length === 0 ? (
        <p>No tools listed.</p>
      ) : (
        <div class="scroll">
          <table>
            <TableHead columns={[{ label: 'tool' }, { label: 'risk level' }, { label: 'why' }]} />
            <tbody>
              {tools.map((tool) => (
                <tr data-tool={tool.name}>
                  <td>
                    <code>{tool.name}</code>
                    {tool.description !== null ? <div class="small muted">{tool.description}</div> : null}
                    {tool.descriptionWithheld !== undefined ? (
                      <div class="small muted" data-withheld={tool.descriptionWithheld}>
                        {WITHHELD_DESCRIPTION_NOTE}
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <LevelPill level={tool.level} />
                  </td>
                  <td class="small">
                    rule {tool.rule}
                    {tool.raised ? ', raised to high-risk by its description' : ''}: {tool.reason}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="small muted">
        A risk level is a heuristic read from the tool's name, description and annotations (which are the server's
        hints, not promises). It is not a security audit, and never a judgement of the people who run the server.
      </p>
    </section>
  );
};

const DiffList: FC<{ label: string; names: readonly string[] }> = ({ label, names }) =>
  names.length === 0 ? null : (
    <li>
      {label}:{' '}
      {names.map((name, i) => (
        <>
          {i > 0 ? ', ' : ''}
          <code>{name}</code>
        </>
      ))}
    </li>
  );

const ChangeItem: FC<{ change: ServerChange }> = ({ change }) => (
  <li data-change-kind={change.kind}>
    {change.detail}
    {change.diff !== undefined ? (
      <ul class="small">
        <DiffList label="added" names={change.diff.added} />
        <DiffList label="removed" names={change.diff.removed} />
        <DiffList label="changed" names={change.diff.changed} />
        <DiffList label="rewritten at the same level" names={change.diff.rewritten} />
        {change.diff.renamed.map((rename) => (
          <li>
            renamed: <code>{rename.from}</code> to <code>{rename.to}</code>
          </li>
        ))}
        {change.diff.riskRises.map((rise) => (
          <li data-risk-rise>
            rise in risk: <code>{rise.name}</code>{' '}
            {rise.from === null ? `added as ${rise.to}` : `from ${rise.from} to ${rise.to}`}
          </li>
        ))}
        {change.diff.silent ? <li>silent: the server reported the same version</li> : null}
      </ul>
    ) : null}
  </li>
);

const ChangesSection: FC<{ changes: readonly ServerChange[] }> = ({ changes }) => {
  const days = [...new Set(changes.map((change) => change.day))];
  return (
    <section aria-labelledby="changes-heading">
      <h2 id="changes-heading">Change days</h2>
      {days.length === 0 ? (
        <p>No change in the days kept.</p>
      ) : (
        days.map((day) => (
          <>
            <h3>
              <time datetime={day}>{day}</time>
            </h3>
            <ul>
              {changes
                .filter((change) => change.day === day)
                .map((change) => (
                  <ChangeItem change={change} />
                ))}
            </ul>
          </>
        ))
      )}
    </section>
  );
};

const OutagesSection: FC<{ server: ServerView }> = ({ server }) => {
  const { outages, currentOutageDays } = server.state;
  if (outages.length === 0 && currentOutageDays === 0) return null;
  return (
    <section aria-labelledby="outages-heading">
      <h2 id="outages-heading">Outages</h2>
      {currentOutageDays > 0 ? <p>Down for {plural(currentOutageDays, 'day')} in a row so far.</p> : null}
      {outages.length > 0 ? (
        <p>
          Lengths of the last finished outages, oldest first: {outages.map((days) => plural(days, 'day')).join(', ')}.
        </p>
      ) : null}
    </section>
  );
};

/** The server page's content. */
/**
 * Says plainly that a server is off the published map, and why (the same words as the API's `leftOut`);
 * nothing while it is on the map.
 */
const LeftOutNotice: FC<{ server: ServerView }> = ({ server }) => {
  const leftOut = presentLeftOut(server);
  if (leftOut === null) return null;
  // The label reads "left out: <why>"; the page puts the why in a sentence of its own.
  const why = leftOut.label.slice(leftOut.label.indexOf(':') + 1).trim();
  return (
    <p class="note" role="status" data-left-out={leftOut.reason}>
      <strong>Left out of the published map:</strong> {why}. It is not in the server lists, the tool search, the route
      or the rankings; what it answered before stays here and in the signed daily history.
    </p>
  );
};

export const ServerPage: FC<{
  view: AtlasView;
  server: ServerView;
  changes: readonly ServerChange[];
  /** The server's day series, for the 90-day charts; undefined before its first fold that kept one. */
  series?: readonly SeriesDay[] | undefined;
  base: string;
}> = ({ view, server, changes, series, base }) => (
  <>
    <h1>{nameOf(server)}</h1>
    <p>
      <span class="mono hash">{server.url}</span>
      {server.category !== null ? <span class="muted"> · category {server.category}</span> : null}
    </p>
    <LeftOutNotice server={server} />
    <IncidentBanner server={server} />
    <StatusSection server={server} />
    <ServerOrigin server={server} />
    <section aria-labelledby="letters-heading">
      <h2 id="letters-heading">Daily letters</h2>
      {server.letters.length === 0 ? (
        <p>No daily result yet.</p>
      ) : (
        <>
          <p class="small">
            The last {plural(server.letters.length, 'daily result')}, oldest first
            {server.lettersThrough !== null ? `, up to ${server.lettersThrough}` : ''}.
          </p>
          <LetterStrip
            letters={server.letters}
            lastDay={server.lettersThrough}
            label={`Daily letters of ${nameOf(server)}, oldest first`}
          />
        </>
      )}
      <LetterLegend />
    </section>
    <FiguresSection server={server} />
    <ServerDaysSection state={server.state} series={series} lastDay={server.lettersThrough} />
    <ScoreSection view={view} server={server} />
    <HourProfileSection server={server} />
    <RatingSection server={server} />
    <FindingsSection server={server} />
    <ServerPackages server={server} />
    <ReportedBySection entry={view.catalog?.byServerId.get(server.id)} />
    <ToolsSection server={server} />
    <ChangesSection changes={changes} />
    <OutagesSection server={server} />
    <EmbedSnippets server={server} base={base} />
  </>
);
