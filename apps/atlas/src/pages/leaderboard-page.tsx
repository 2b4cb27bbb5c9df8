// The quality-score leaderboard (`/leaderboard`): every server on the map by tier, then composite, with its grade
// as "A (5/5)", its tier and its flags, a page at a time. The order and the rows are GET /api/leaderboard's.
import { SHOWN_SCORE_RULES } from '@mcp-atlas/operations/rules';
import { VISIBILITY_LEVELS } from '@mcp-atlas/score';
import { GRADE_RULES } from '@mcp-atlas/score/rules';
import type { FC } from 'hono/jsx';
import { type LeaderboardPlace, leaderboardRowsOf } from '../http/leaderboard.js';
import { SCORE_DROP_FEED_PATHS } from '../http/score-drop-feed.js';
import { VISIBILITY_DESCRIPTIONS } from '../score/shown-score.js';
import type { AtlasView } from '../view/build-view.js';
import { joinWords, plural } from './format.js';
import { TableHead } from './parts.js';
import { BadgeList, FlagWords, GradePill } from './score-parts.js';

/** Servers listed per leaderboard page. */
export const LEADERBOARD_PER_PAGE = 100;

/** How many pages the leaderboard has (at least one, even when empty). */
export function countLeaderboardPages(servers: number): number {
  return Math.max(1, Math.ceil(servers / LEADERBOARD_PER_PAGE));
}

const Row: FC<{ row: LeaderboardPlace }> = ({ row }) => (
  <tr data-server={row.id} data-tier={row.visibilityLevel}>
    <td class="num">{row.rank}</td>
    <td>
      <a href={`/servers/${row.id}`}>{row.title ?? row.id}</a>
    </td>
    <td>
      <GradePill score={row.scoredDay === null ? null : row} />
    </td>
    <td class="num">{row.compositeScore ?? '–'}</td>
    <td>{row.visibilityLevel}</td>
    <td class="small">
      <FlagWords flags={row.flags} />
    </td>
    <td>
      <BadgeList badges={row.badges} />
    </td>
  </tr>
);

// "A+ from 95, ..., D from 40 and F below 40", from the package's thresholds.
const gradeScale = GRADE_RULES.thresholds.map((row, i) =>
  row.min === 0 ? `${row.grade} below ${GRADE_RULES.thresholds[i - 1]?.min ?? 0}` : `${row.grade} from ${row.min}`,
);

/** One page of the leaderboard; `page` counts from 1. */
export const LeaderboardPage: FC<{ view: AtlasView; page: number }> = ({ view, page }) => {
  const rows = leaderboardRowsOf(view);
  const pages = countLeaderboardPages(rows.length);
  const shown = rows.slice((page - 1) * LEADERBOARD_PER_PAGE, page * LEADERBOARD_PER_PAGE);
  return (
    <>
      <h1>Quality score leaderboard</h1>
      <p>
        {plural(rows.length, 'server')} on the map{pages > 1 ? `; page ${page} of ${pages}` : ''}, ordered by tier, best
        first ({VISIBILITY_LEVELS.join(', ')}), then by composite score, then by id.
      </p>
      <p class="small muted">
        The grade reads “A (5/5)”: the letter, then how many of the dimensions that apply to the server are scored.
        Grades: {joinWords(gradeScale, 'and')}. Tiers say how much of the score rests on measurement:{' '}
        {VISIBILITY_LEVELS.map((level) => `${level}, ${VISIBILITY_DESCRIPTIONS[level]}`).join('; ')}.
      </p>
      <p class="small" data-score-drop-feed>
        Servers whose score fell {GRADE_RULES.dropAlertPoints} points or more:{' '}
        <a href={SCORE_DROP_FEED_PATHS.atom} type="application/atom+xml">
          Atom feed
        </a>{' '}
        · <a href={SCORE_DROP_FEED_PATHS.json}>JSON</a>
        {view.scores.drops.length > 0
          ? ` (${plural(view.scores.drops.length, 'drop')} in the last ${SHOWN_SCORE_RULES.trendDays} days)`
          : ''}
        .
      </p>
      {rows.length === 0 ? (
        <p>No server is on the map yet.</p>
      ) : (
        <div class="scroll">
          <table data-leaderboard>
            <TableHead
              columns={[
                { label: 'place', numeric: true },
                { label: 'server' },
                { label: 'grade' },
                { label: 'score', numeric: true },
                { label: 'tier' },
                { label: 'flags' },
                { label: 'badges' },
              ]}
            />
            <tbody>
              {shown.map((row) => (
                <Row row={row} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 ? (
        <p>
          {page > 1 ? <a href={`/leaderboard?page=${page - 1}`}>previous page</a> : null}
          {page > 1 && page < pages ? ' · ' : null}
          {page < pages ? <a href={`/leaderboard?page=${page + 1}`}>next page</a> : null}
        </p>
      ) : null}
    </>
  );
};
