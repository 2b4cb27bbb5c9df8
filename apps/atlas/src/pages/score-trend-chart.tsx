// The score trend as an inline SVG line chart on the server page: one point per scored day over the trend's
// days, the composite on a 0-100 scale with the grade thresholds drawn as faint lines. Pure drawing, no script:
// the pages' CSP allows no script at all, and everything here is SVG attributes and elements, with each point's
// day and grade in a <title> so a pointer or a screen reader can read it. The day table stays below it, folded.
import { daysBetween } from '@mcp-atlas/base';
import { GRADE_RULES } from '@mcp-atlas/score/rules';
import type { FC } from 'hono/jsx';
import type { ScoreTrendPoint } from '../score/day-scores.js';
import { gradeLabelOf } from '../score/shown-score.js';

/** The chart's drawing box, in SVG user units; the page scales it to its width. */
export const TREND_CHART_BOX = Object.freeze({ width: 600, height: 160, left: 32, right: 8, top: 8, bottom: 20 });

const LINE_COLOUR = '#0b4f9c';
const GRID_COLOUR = '#d0d0d0';
const TEXT_COLOUR = '#4a4a4a';

/** Where one point of the trend is drawn. */
export interface ChartPoint {
  x: number;
  y: number;
  point: ScoreTrendPoint;
}

/** The vertical position of a composite (0 at the bottom of the plot, 100 at its top). */
function yOf(composite: number): number {
  const { height, top, bottom } = TREND_CHART_BOX;
  const plot = height - top - bottom;
  return round1(top + plot - (composite / 100) * plot);
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * The positions of the trend's scored points, oldest on the left: x by the day's distance from the first day
 * (so a day the cost cap skipped leaves a gap), y by the composite. Days without a composite are left out.
 *
 * @example chartPointsOf([{ day: '2026-12-01', compositeScore: 100, ... }, { day: '2026-12-03', compositeScore: 0, ... }])
 * // [{ x: 32, y: 8, ... }, { x: 592, y: 140, ... }]
 */
export function chartPointsOf(points: readonly ScoreTrendPoint[]): ChartPoint[] {
  const scored = points.filter((p) => p.compositeScore !== null);
  const first = scored[0];
  const last = scored[scored.length - 1];
  if (first === undefined || last === undefined) return [];
  const span = Math.max(1, daysBetween(first.day, last.day));
  const { width, left, right } = TREND_CHART_BOX;
  return scored.map((point) => ({
    x: round1(left + (daysBetween(first.day, point.day) / span) * (width - left - right)),
    y: yOf(point.compositeScore as number),
    point,
  }));
}

/** One sentence on the trend: where it started, where it is, and its lowest and highest composite. */
export function trendSummaryOf(points: readonly ScoreTrendPoint[]): string {
  const scored = points.filter((p) => p.compositeScore !== null);
  const first = scored[0];
  const last = scored[scored.length - 1];
  if (first === undefined || last === undefined) return 'No composite on any of these days.';
  const values = scored.map((p) => p.compositeScore as number);
  return (
    `${first.compositeScore} on ${first.day}, ${last.compositeScore} on ${last.day}; ` +
    `lowest ${Math.min(...values)}, highest ${Math.max(...values)} over ${scored.length} scored days.`
  );
}

/** The chart: grade threshold lines, the composite line and a dot per scored day. */
export const TrendChart: FC<{ points: readonly ScoreTrendPoint[] }> = ({ points }) => {
  const drawn = chartPointsOf(points);
  const { width, height, left, right } = TREND_CHART_BOX;
  const summary = trendSummaryOf(points);
  const thresholds = GRADE_RULES.thresholds.filter((row) => row.min > 0);
  return (
    <figure data-score-trend-chart>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="img"
        aria-labelledby="score-trend-title"
        xmlns="http://www.w3.org/2000/svg"
      >
        {/* Named by its own title, as the pages' other charts are: one chart per page, so the id is unique. */}
        <title id="score-trend-title">{`Composite score by day: ${summary}`}</title>
        {thresholds.map((row) => (
          <g data-threshold={row.grade}>
            <line x1={left} x2={width - right} y1={yOf(row.min)} y2={yOf(row.min)} stroke={GRID_COLOUR} />
            <text x={left - 4} y={yOf(row.min) + 4} text-anchor="end" font-size="10" fill={TEXT_COLOUR}>
              {row.grade}
            </text>
          </g>
        ))}
        {drawn.length > 1 ? (
          <polyline
            points={drawn.map((p) => `${p.x},${p.y}`).join(' ')}
            fill="none"
            stroke={LINE_COLOUR}
            stroke-width="2"
          />
        ) : null}
        {drawn.map((p) => (
          <circle cx={p.x} cy={p.y} r="3" fill={LINE_COLOUR} data-day={p.point.day}>
            <title>{`${p.point.day}: ${gradeLabelOf(p.point)}, ${p.point.compositeScore}`}</title>
          </circle>
        ))}
        {drawn.length > 0 ? (
          <>
            <text x={left} y={height - 4} font-size="10" fill={TEXT_COLOUR}>
              {drawn[0]?.point.day}
            </text>
            <text x={width - right} y={height - 4} text-anchor="end" font-size="10" fill={TEXT_COLOUR}>
              {drawn[drawn.length - 1]?.point.day}
            </text>
          </>
        ) : null}
      </svg>
      <figcaption class="small">{summary}</figcaption>
    </figure>
  );
};
