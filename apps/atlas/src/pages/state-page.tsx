// The state page (`/`): the newest checked day at a glance. Counts by letter, the uptime distribution (or
// when it will appear), the day's changes and rises in risk, and the newest sealed root with the lines that
// verify it.
import type { DayRoot } from '@mcp-atlas/history';
import { countObservedDays } from '@mcp-atlas/reliability';
import { LETTER_RULES } from '@mcp-atlas/reliability/rules';
import type { FC } from 'hono/jsx';
import type { Change } from '../data/schemas.js';
import type { AtlasView } from '../view/build-view.js';
import { CatalogCountsSection } from './catalog-parts.js';
import { formatCount, plural } from './format.js';
import { LettersByDayChart, lettersByDay } from './letters-by-day-chart.js';
import { ObservingSection } from './observing-section.js';
import { describeLetter, TableHead } from './parts.js';
import { LETTER_COLOURS } from './styles.js';
import { UptimeDistribution } from './uptime-histogram.js';
import { verificationSnippet } from './verify-snippet.js';

/** How many servers got each letter on the view's day, and how many have no result that day. */
export interface LetterCountsToday {
  o: number;
  a: number;
  p: number;
  d: number;
  /** Servers without a result on the day (their check did not run): the letter `n`. */
  n: number;
  /** Of the `d`, those that answered, but not as a standard MCP endpoint. */
  notStandardMcp: number;
}

/** Counts the view's servers by the letter of the newest day. */
export function countLettersToday(view: AtlasView): LetterCountsToday {
  const counts: LetterCountsToday = { o: 0, a: 0, p: 0, d: 0, n: 0, notStandardMcp: 0 };
  for (const server of view.servers) {
    const latest = server.latest;
    if (latest === null) {
      counts.n++;
      continue;
    }
    counts[latest.letter]++;
    if (latest.letter === 'd' && latest.notStandardMcp) counts.notStandardMcp++;
  }
  return counts;
}

/** Every rise in risk among the day's changes, one per tool. */
export function riskRisesOf(
  changes: readonly Change[],
): { serverId: string; name: string; from: string | null; to: string }[] {
  return changes.flatMap((change) =>
    (change.diff?.riskRises ?? []).map((rise) => ({ serverId: change.serverId, ...rise })),
  );
}

/** The newest sealed root, or null before the first seal. */
export function latestRootOf(view: AtlasView): DayRoot | null {
  let latest: DayRoot | null = null;
  for (const record of view.roots.values()) if (latest === null || record.day > latest.day) latest = record;
  return latest;
}

const LetterCountTable: FC<{ counts: LetterCountsToday }> = ({ counts }) => (
  <table>
    <TableHead columns={[{ label: 'letter' }, { label: 'meaning' }, { label: 'servers', numeric: true }]} />
    <tbody>
      {LETTER_RULES.letters.map((letter) => (
        <tr data-letter={letter}>
          <td>
            <span
              class="pill"
              style={`background:${LETTER_COLOURS[letter].background};color:${LETTER_COLOURS[letter].text}`}
            >
              {letter}
            </span>
          </td>
          <td>
            {describeLetter(letter)}
            {letter === 'd' && counts.notStandardMcp > 0 ? (
              <span class="muted small">
                {' '}
                ({formatCount(counts.notStandardMcp)} of them {counts.notStandardMcp === 1 ? 'answers' : 'answer'}, but
                not as a standard MCP endpoint)
              </span>
            ) : null}
          </td>
          <td class="num">{formatCount(counts[letter === LETTER_RULES.noDataLetter ? 'n' : letter])}</td>
        </tr>
      ))}
    </tbody>
  </table>
);

const ChangeList: FC<{ changes: readonly Change[]; titleOf: (id: string) => string }> = ({ changes, titleOf }) => {
  if (changes.length === 0) return <p>No server changed on this day.</p>;
  return (
    <ul>
      {changes.map((change) => (
        <li>
          <a href={`/servers/${change.serverId}`}>{titleOf(change.serverId)}</a>: {change.detail}
          {change.diff?.silent === true ? <span class="muted small"> (silent: same server version)</span> : null}
        </li>
      ))}
    </ul>
  );
};

const RootSection: FC<{ root: DayRoot | null; base: string }> = ({ root, base }) => {
  if (root === null)
    return <p>No day has been sealed yet. The first seal happens after the first full day of checks.</p>;
  return (
    <>
      <dl>
        <dt>Day</dt>
        <dd>
          <time datetime={root.day}>{root.day}</time>
        </dd>
        <dt>Root (SHA-256)</dt>
        <dd class="mono hash" data-root>
          {root.root}
        </dd>
        <dt>Previous root</dt>
        <dd class="mono hash">{root.previous_root ?? 'none: this is the first day of the chain'}</dd>
        <dt>Files covered</dt>
        <dd>{formatCount(root.files.length)}</dd>
      </dl>
      <h3>How to verify it</h3>
      <p>
        Each day's files are hashed line by line, chained to the previous root, and the root is signed with Ed25519. The
        public key is at <a href="/.well-known/mcp-atlas.json">/.well-known/mcp-atlas.json</a> and each root at{' '}
        <a href={`/api/maps?a=root&day=${root.day}`}>{`/api/maps?a=root&day=${root.day}`}</a>. Save these lines as{' '}
        <code>verify.mjs</code> and run <code>node verify.mjs</code>; it prints <code>verified</code> when the root
        matches its files and the signature matches the key:
      </p>
      <pre>
        <code data-verify-snippet>{verificationSnippet(base, root.day)}</code>
      </pre>
      <p>
        To check the whole chain at once, run <code>mcp-atlas verify --url {base}</code>.
      </p>
    </>
  );
};

/** The state page's content. */
export const StatePage: FC<{ view: AtlasView; base: string }> = ({ view, base }) => {
  const counts = countLettersToday(view);
  const rises = riskRisesOf(view.changes);
  const titleOf = (id: string) => view.byId.get(id)?.title ?? id;
  return (
    <>
      <h1>The state of remote MCP servers</h1>
      {view.day === null ? (
        <p>No day has been checked yet.</p>
      ) : (
        <p>
          Newest checked day: <time datetime={view.day}>{view.day}</time>. {plural(view.servers.length, 'server')}{' '}
          watched, {plural(view.toolCount, 'tool')} listed.
        </p>
      )}
      <section aria-labelledby="letters-heading">
        <h2 id="letters-heading">Servers by letter{view.day === null ? '' : ` on ${view.day}`}</h2>
        <LetterCountTable counts={counts} />
        {view.day === null ? null : (
          <>
            <h3>Letters by day</h3>
            <LettersByDayChart days={lettersByDay(view.servers, view.day)} />
          </>
        )}
      </section>
      <section aria-labelledby="distribution-heading">
        <h2 id="distribution-heading">Uptime distribution</h2>
        <UptimeDistribution
          day={view.day}
          observedDays={view.servers.map((s) => countObservedDays(s.letters))}
          percents={view.servers.flatMap((s) => (s.uptime.percent === null ? [] : [s.uptime.percent]))}
        />
      </section>
      <ObservingSection observing={view.observing} />
      <CatalogCountsSection catalog={view.catalog} />
      <section aria-labelledby="changes-heading">
        <h2 id="changes-heading">Changes{view.day === null ? '' : ` on ${view.day}`}</h2>
        <ChangeList changes={view.changes} titleOf={titleOf} />
        <h3>Rises in risk</h3>
        {rises.length === 0 ? (
          <p>No tool rose in risk on this day.</p>
        ) : (
          <ul>
            {rises.map((rise) => (
              <li data-risk-rise>
                <a href={`/servers/${rise.serverId}`}>{titleOf(rise.serverId)}</a>: <code>{rise.name}</code>{' '}
                {rise.from === null ? `added as ${rise.to}` : `rose from ${rise.from} to ${rise.to}`}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="root-heading">
        <h2 id="root-heading">Latest sealed root</h2>
        <RootSection root={latestRootOf(view)} base={base} />
      </section>
    </>
  );
};
