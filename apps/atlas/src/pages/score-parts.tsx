// The quality score on the pages: the grade label, and the server page's section with the dimension checklist,
// what would raise the score, the flags and the trend. The figures come from the days' scores files through the
// read model, the statuses and "what if" composites from @mcp-atlas/score (through score/shown-score.ts); this
// file lays them out.
import type { Badge, BadgeGroup, ScoreResult } from '@mcp-atlas/score';
import { COMPOSITE_RULES } from '@mcp-atlas/score/rules';
import type { FC } from 'hono/jsx';
import type { ScoreTrendPoint, ServerScore, UptimeWindows } from '../score/day-scores.js';
import {
  ATLAS_SCORE_SCOPE,
  BADGE_GROUP_LABELS,
  badgeListOf,
  type ChecklistEntry,
  checklistOf,
  gradeLabelOf,
  type ScoreRaiser,
  scoreRaisersOf,
  UPTIME_WINDOW_SPANS,
  VISIBILITY_DESCRIPTIONS,
} from '../score/shown-score.js';
import type { AtlasView, ServerView } from '../view/build-view.js';
import { GRADE_COLOURS } from './badge.js';
import { formatUptime, plural } from './format.js';
import { TableHead } from './parts.js';
import { TrendChart } from './score-trend-chart.js';
import { BADGE_LEVEL_COLOURS } from './styles.js';

/** How many of the things that would raise the score the server page lists. */
export const RAISERS_SHOWN = 3;

/** The grade as a coloured label with its dimensions, such as "A (5/5)"; a server without a score says so. */
export const GradePill: FC<{
  score: Pick<ScoreResult, 'grade' | 'dimensionsScored' | 'dimensionsApplicable'> | null;
}> = ({ score }) => (
  <span class="pill" style={`background:${GRADE_COLOURS[score?.grade ?? '']}`} data-grade={score?.grade ?? ''}>
    {score === null ? 'not scored yet' : gradeLabelOf(score)}
  </span>
);

const STATUS_WORDS: Readonly<Record<ChecklistEntry['status'], string>> = {
  scored: 'scored',
  pending: 'pending',
  'not-applicable': 'not applicable',
};

const Checklist: FC<{ entries: readonly ChecklistEntry[] }> = ({ entries }) => (
  <div class="scroll">
    <table data-score-checklist>
      <TableHead columns={[{ label: 'dimension' }, { label: 'status' }, { label: 'score', numeric: true }]} />
      <tbody>
        {entries.map((entry) => (
          <tr data-dimension={entry.dimension} data-status={entry.status}>
            <td>{entry.label}</td>
            <td>{STATUS_WORDS[entry.status]}</td>
            <td class="num">{entry.score === null ? '–' : entry.score}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);

function raiserWords(raiser: ScoreRaiser): string {
  const gain = `+${plural(raiser.points, 'point')} (to ${raiser.to})`;
  if (raiser.kind === 'pending') return `${raiser.label}: scored at its best it would add up to ${gain}`;
  if (raiser.kind === 'flag') return `clearing the flag “${raiser.label}” would add ${gain}`;
  return `${raiser.label}: at its best it would add ${gain}`;
}

const Raisers: FC<{ raisers: readonly ScoreRaiser[] }> = ({ raisers }) =>
  raisers.length === 0 ? (
    <p class="small">Nothing measured here would raise the composite further.</p>
  ) : (
    <ol data-score-raisers>
      {raisers.slice(0, RAISERS_SHOWN).map((raiser) => (
        <li data-raiser={raiser.key} data-kind={raiser.kind}>
          {raiserWords(raiser)}
        </li>
      ))}
    </ol>
  );

// Each flag with its severity and, for a capping flag, its cap. The engine's one-line description (which may quote
// the endpoint or variable names) stays in the API's `score`, so the page says only what the flag does to the score.
const Flags: FC<{ flags: ServerScore['flags'] }> = ({ flags }) =>
  flags.length === 0 ? null : (
    <>
      <h3>Flags</h3>
      <ul data-score-flags>
        {flags.map((flag) => (
          <li data-flag={flag.key}>
            <b>{flag.label}</b> <span class="small muted">({flag.severity})</span>
            {Object.hasOwn(COMPOSITE_RULES.flagCaps, flag.key)
              ? `: caps the composite at ${COMPOSITE_RULES.flagCaps[flag.key]}`
              : null}
          </li>
        ))}
      </ul>
    </>
  );

// A badge's level picks its colour class (good, neutral, warning, critical); an unknown level reads as neutral.
function badgeClassOf(level: string): string {
  return `pill badge-${Object.hasOwn(BADGE_LEVEL_COLOURS, level) ? level : 'neutral'}`;
}

/** The score's badges as small coloured pills, each with its level written out for readers who cannot see colour. */
export const BadgeList: FC<{ badges: readonly (Badge & { group: BadgeGroup })[] }> = ({ badges }) =>
  badges.length === 0 ? null : (
    <ul class="badges" data-score-badges>
      {badges.map((badge) => (
        <li data-badge={badge.key} data-level={badge.level} data-group={badge.group}>
          <span class={badgeClassOf(badge.level)} title={`${BADGE_GROUP_LABELS[badge.group]}: ${badge.level}`}>
            {badge.label}
          </span>
        </li>
      ))}
    </ul>
  );

/** A short, comma-separated list of flags, each named by its label, for the lists of servers. */
export const FlagWords: FC<{ flags: readonly Pick<ServerScore['flags'][number], 'key' | 'label' | 'severity'>[] }> = ({
  flags,
}) =>
  flags.length === 0 ? null : (
    <span data-flags>
      {flags.map((flag, i) => (
        <>
          {i > 0 ? ', ' : null}
          <span data-flag={flag.key} title={flag.severity}>
            {flag.label}
          </span>
        </>
      ))}
    </span>
  );

const Trend: FC<{ points: readonly ScoreTrendPoint[] }> = ({ points }) =>
  points.length < 2 ? (
    <p class="small muted">The trend shows once the server has been scored on two days.</p>
  ) : (
    <>
      <TrendChart points={points} />
      <details class="small">
        <summary>Every day's score</summary>
        <div class="scroll">
          <table data-score-trend>
            <TableHead
              columns={[{ label: 'day' }, { label: 'grade' }, { label: 'composite', numeric: true }, { label: 'tier' }]}
            />
            <tbody>
              {points.map((point) => (
                <tr data-day={point.day}>
                  <td>{point.day}</td>
                  <td>{gradeLabelOf(point)}</td>
                  <td class="num">{point.compositeScore ?? '–'}</td>
                  <td>{point.visibilityLevel}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );

/** The three uptime windows kept with a score, in one sentence; nothing for a score kept before them. */
const UptimeWindowLine: FC<{ uptime: UptimeWindows | undefined }> = ({ uptime }) => {
  if (uptime === undefined) return null;
  const part = (window: UptimeWindows[keyof UptimeWindows], span: string) =>
    window.uptimePct === null
      ? `no check over ${span}`
      : `${formatUptime(window.uptimePct)} over ${span} (${plural(window.checks, 'check')})`;
  return (
    <p class="small" data-uptime-windows>
      Uptime of every daily, hourly and five-minute check: {part(uptime.last24h, UPTIME_WINDOW_SPANS.last24h)},{' '}
      {part(uptime.last7d, UPTIME_WINDOW_SPANS.last7d)} (the one the score reads) and{' '}
      {part(uptime.last30d, UPTIME_WINDOW_SPANS.last30d)}.
    </p>
  );
};

/** The server page's quality-score section: grade, tier, checklist, what would raise it, flags and trend. */
export const ScoreSection: FC<{ view: AtlasView; server: ServerView }> = ({ view, server }) => {
  const scored = view.scores.latest.get(server.id);
  const trend = view.scores.trends.get(server.id) ?? [];
  return (
    <section aria-labelledby="score-heading" data-score>
      <h2 id="score-heading">Quality score</h2>
      {scored === undefined ? (
        <p>This server has not been scored yet: scores are computed with each day’s check.</p>
      ) : (
        <>
          <p class="grade-line">
            <GradePill score={scored.score} />{' '}
            {scored.score.compositeScore === null ? null : <span>{scored.score.compositeScore} / 100</span>}
          </p>
          <p class="small">
            Tier <b data-tier={scored.score.visibilityLevel}>{scored.score.visibilityLevel}</b>:{' '}
            {VISIBILITY_DESCRIPTIONS[scored.score.visibilityLevel]}. Scored on {scored.day} from our own checks and the
            registry entry; a pending dimension is left out and the weights of the others are renormalised.
          </p>
          <UptimeWindowLine uptime={scored.score.uptime} />
          <BadgeList badges={badgeListOf(scored.score.badges)} />
          <Checklist entries={checklistOf(scored.score, ATLAS_SCORE_SCOPE)} />
          <h3>What would raise the score</h3>
          <Raisers raisers={scoreRaisersOf(scored.score, ATLAS_SCORE_SCOPE)} />
          <Flags flags={scored.score.flags} />
          <h3>Score trend</h3>
          <Trend points={trend} />
        </>
      )}
    </section>
  );
};
