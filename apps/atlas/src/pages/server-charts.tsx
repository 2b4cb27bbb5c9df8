// The server page's two charts over the last 90 days, from the server's day series (@mcp-atlas/reliability's
// advanceDaySeries, written by each day's fold): a bar per day coloured by the day's uptime, and the median and
// 95th-percentile handshake times as two lines. Inline SVG with no script, since the pages' CSP allows none;
// every bar and point has a <title> with its day and figures, and the same figures are in a folded table below.
// What a day's uptime reads (its five-minute checks or its daily letter) is the reliability package's
// daySeriesStatus; this file only draws.
import { daysBetween } from '@mcp-atlas/base';
import { daySeriesStatus, type SeriesDay, type SeriesDayStatus, type SeriesSource } from '@mcp-atlas/reliability';
import { FOLD_RULES, UPTIME_RULES } from '@mcp-atlas/reliability/rules';
import type { FC } from 'hono/jsx';
import type { ServerState } from '../data/schemas.js';
import { formatCount, formatMs, formatUptime, plural } from './format.js';
import { ChartSvg, TableHead } from './parts.js';

/** The drawing boxes, in SVG user units; the page scales them to its width. */
const UPTIME_DAYS_BOX = Object.freeze({ width: 600, height: 64, left: 8, right: 8, top: 4, bottom: 20 });
export const HANDSHAKE_BOX = Object.freeze({ width: 600, height: 180, left: 48, right: 8, top: 8, bottom: 20 });

/** Bar colours by the day's status; `partial` is an orange with a 3:1 contrast against the white page. */
const DAY_STATUS_COLOURS: Readonly<Record<SeriesDayStatus['status'], string>> = Object.freeze({
  up: '#1b5e20',
  partial: '#c25e00',
  down: '#b71c1c',
  none: '#e0e0e0',
});

const P50_COLOUR = '#0b4f9c';
const P95_COLOUR = '#8a4b00';
const GRID_COLOUR = '#d0d0d0';
const TEXT_COLOUR = '#4a4a4a';

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/** What one bar's title says about its day. */
function dayStatusText(status: SeriesDayStatus): string {
  if (status.status === 'none') return `${status.day}: no check counted`;
  if (status.source === 'daily')
    return `${status.day}: ${status.status === 'up' ? 'answered' : 'did not answer'} the daily check`;
  return `${status.day}: ${formatUptime(status.percent as number)} of ${plural(status.checks, 'five-minute check')} answered`;
}

/**
 * One sentence on the 90 days: how many had a result, and how many of those were up, partly up and down.
 *
 * @example uptimeDaysSummary([{ status: 'up', ... }, { status: 'down', ... }, { status: 'none', ... }])
 * // 'Up on 1 of 2 days with a result, down on 1.'
 */
export function uptimeDaysSummary(days: readonly SeriesDayStatus[]): string {
  const count = (status: SeriesDayStatus['status']) => days.filter((day) => day.status === status).length;
  const counted = days.length - count('none');
  if (counted === 0) return `No check counted in the last ${plural(days.length, 'day')}.`;
  const parts = [`Up on ${formatCount(count('up'))} of ${plural(counted, 'day')} with a result`];
  if (count('partial') > 0) parts.push(`partly up on ${formatCount(count('partial'))}`);
  if (count('down') > 0) parts.push(`down on ${formatCount(count('down'))}`);
  return `${parts.join(', ')}.`;
}

/** One drawn day of the handshake chart. */
export interface HandshakePoint {
  day: string;
  x: number;
  p50Y: number;
  p95Y: number;
  p50Ms: number;
  p95Ms: number;
  samples: number;
}

/**
 * The top of the handshake chart's scale: the smallest 1, 2 or 5 times a power of ten at or above the highest
 * 95th percentile, so the grid lines fall on round figures. 100 ms when there is nothing higher.
 *
 * @example handshakeScaleTop(430) // 500
 * @example handshakeScaleTop(1000) // 1000
 */
export function handshakeScaleTop(highestMs: number): number {
  if (!(highestMs > 100)) return 100;
  const power = 10 ** Math.floor(Math.log10(highestMs));
  for (const step of [1, 2, 5, 10]) if (step * power >= highestMs) return step * power;
  return 10 * power;
}

/** The x of a day in the handshake chart's window of `days` days ending `lastDay`: the first at the left edge. */
function xOfDay(day: string, lastDay: string, days: number): number {
  const { left, width, right } = HANDSHAKE_BOX;
  const slot = days - 1 - daysBetween(day, lastDay);
  return round1(left + (slot / Math.max(1, days - 1)) * (width - left - right));
}

/**
 * The closed days of the window ending `lastDay` that have handshake times, oldest first, placed on a scale from 0
 * to `top` milliseconds.
 */
export function handshakePointsOf(series: readonly SeriesDay[], lastDay: string, top: number): HandshakePoint[] {
  const days = FOLD_RULES.daySeriesDaysKept;
  const { height, top: padTop, bottom } = HANDSHAKE_BOX;
  const plot = height - padTop - bottom;
  const yOf = (ms: number) => round1(padTop + plot - (Math.min(ms, top) / top) * plot);
  const points: HandshakePoint[] = [];
  for (const entry of series) {
    const back = daysBetween(entry.day, lastDay);
    if (entry.handshake === null || entry.handshake === undefined || back < 0 || back >= days) continue;
    const { p50Ms, p95Ms, samples } = entry.handshake;
    points.push({
      day: entry.day,
      x: xOfDay(entry.day, lastDay, days),
      p50Y: yOf(p50Ms),
      p95Y: yOf(p95Ms),
      p50Ms,
      p95Ms,
      samples,
    });
  }
  return points.sort((a, b) => a.day.localeCompare(b.day));
}

/** The points split where a day is missing, so a line never bridges days without a figure. */
export function consecutiveRuns(points: readonly HandshakePoint[]): HandshakePoint[][] {
  const runs: HandshakePoint[][] = [];
  for (const point of points) {
    const run = runs.at(-1);
    const previous = run?.at(-1);
    if (run !== undefined && previous !== undefined && daysBetween(previous.day, point.day) === 1) run.push(point);
    else runs.push([point]);
  }
  return runs;
}

const UptimeDaysChart: FC<{ days: readonly SeriesDayStatus[] }> = ({ days }) => {
  const { width, height, left, right, top, bottom } = UPTIME_DAYS_BOX;
  const slot = (width - left - right) / Math.max(1, days.length);
  const summary = uptimeDaysSummary(days);
  return (
    <figure data-uptime-days-chart>
      <ChartSvg
        width={width}
        height={height}
        names={{
          title: { id: 'uptime-days-title', text: `Uptime by day, ${days[0]?.day} to ${days.at(-1)?.day}: ${summary}` },
        }}
      >
        {days.map((day, i) => (
          <rect
            x={round1(left + i * slot + slot * 0.15)}
            y={top}
            width={round1(slot * 0.7)}
            height={height - top - bottom}
            fill={DAY_STATUS_COLOURS[day.status]}
            data-day={day.day}
            data-day-status={day.status}
          >
            <title>{dayStatusText(day)}</title>
          </rect>
        ))}
        <text x={left} y={height - 6} font-size="11" fill={TEXT_COLOUR}>
          {days[0]?.day}
        </text>
        <text x={width - right} y={height - 6} text-anchor="end" font-size="11" fill={TEXT_COLOUR}>
          {days.at(-1)?.day}
        </text>
      </ChartSvg>
      <figcaption class="small">{summary}</figcaption>
    </figure>
  );
};

/** One line of the handshake chart: a polyline per run of consecutive days, a dot per day. */
const HandshakeLine: FC<{ points: readonly HandshakePoint[]; which: 'p50' | 'p95' }> = ({ points, which }) => {
  const colour = which === 'p50' ? P50_COLOUR : P95_COLOUR;
  const yOf = (p: HandshakePoint) => (which === 'p50' ? p.p50Y : p.p95Y);
  return (
    <g data-line={which}>
      {consecutiveRuns(points)
        .filter((run) => run.length > 1)
        .map((run) => (
          <polyline
            points={run.map((p) => `${p.x},${yOf(p)}`).join(' ')}
            fill="none"
            stroke={colour}
            stroke-width="2"
          />
        ))}
      {points.map((p) => (
        <circle cx={p.x} cy={yOf(p)} r="2.5" fill={colour} data-day={p.day}>
          <title>{`${p.day}: median ${formatMs(p.p50Ms)}, 95th percentile ${formatMs(p.p95Ms)}, from ${plural(p.samples, 'check')}`}</title>
        </circle>
      ))}
    </g>
  );
};

const HandshakeChart: FC<{ series: readonly SeriesDay[]; lastDay: string }> = ({ series, lastDay }) => {
  const highest = Math.max(0, ...series.map((entry) => entry.handshake?.p95Ms ?? 0));
  const scaleTop = handshakeScaleTop(highest);
  const points = handshakePointsOf(series, lastDay, scaleTop);
  const { width, height, left, right, top, bottom } = HANDSHAKE_BOX;
  const plot = height - top - bottom;
  const summary =
    points.length === 0
      ? 'No finished day with a handshake time yet.'
      : `Median from ${formatMs(Math.min(...points.map((p) => p.p50Ms)))} to ${formatMs(Math.max(...points.map((p) => p.p50Ms)))}, ` +
        `95th percentile up to ${formatMs(Math.max(...points.map((p) => p.p95Ms)))}, over ${plural(points.length, 'day')}.`;
  return (
    <figure data-handshake-chart>
      <ChartSvg
        width={width}
        height={height}
        names={{
          title: { id: 'handshake-title', text: `Handshake time by day, median and 95th percentile: ${summary}` },
        }}
      >
        {[0, 0.5, 1].map((share) => {
          const y = round1(top + plot - share * plot);
          return (
            <g>
              <line x1={left} x2={width - right} y1={y} y2={y} stroke={GRID_COLOUR} />
              <text x={left - 4} y={y + 4} text-anchor="end" font-size="10" fill={TEXT_COLOUR}>
                {formatMs(share * scaleTop)}
              </text>
            </g>
          );
        })}
        <HandshakeLine points={points} which="p95" />
        <HandshakeLine points={points} which="p50" />
        <text x={left} y={height - 4} font-size="10" fill={TEXT_COLOUR}>
          {points[0]?.day ?? ''}
        </text>
        <text x={width - right} y={height - 4} text-anchor="end" font-size="10" fill={TEXT_COLOUR}>
          {points.at(-1)?.day ?? ''}
        </text>
      </ChartSvg>
      <figcaption class="small">
        <span style={`color:${P50_COLOUR}`}>■</span> median <span style={`color:${P95_COLOUR}`}>■</span> 95th
        percentile. {summary}
      </figcaption>
    </figure>
  );
};

/** The figures of every day of the window, newest first, as a table. */
const DaysTable: FC<{ days: readonly SeriesDayStatus[]; series: readonly SeriesDay[] }> = ({ days, series }) => {
  const byDay = new Map(series.map((entry) => [entry.day, entry]));
  return (
    <details>
      <summary class="small">The same days as a table</summary>
      <table class="small" data-days-table>
        <TableHead
          columns={[
            { label: 'day' },
            { label: 'uptime', numeric: true },
            { label: 'from' },
            { label: 'median handshake', numeric: true },
            { label: '95th percentile', numeric: true },
          ]}
        />
        <tbody>
          {[...days].reverse().map((day) => {
            const handshake = byDay.get(day.day)?.handshake ?? null;
            return (
              <tr>
                <td>
                  <time datetime={day.day}>{day.day}</time>
                </td>
                <td class="num">{day.percent === null ? '–' : formatUptime(day.percent)}</td>
                <td>
                  {day.source === null
                    ? 'no check'
                    : day.source === 'daily'
                      ? 'daily check'
                      : plural(day.checks, 'five-minute check')}
                </td>
                <td class="num">{handshake === null ? '–' : formatMs(handshake.p50Ms)}</td>
                <td class="num">{handshake === null ? '–' : formatMs(handshake.p95Ms)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </details>
  );
};

/** The section: both charts over the days ending `lastDay` (the server's last folded day), or why there are none. */
export const ServerDaysSection: FC<{
  state: ServerState;
  series: readonly SeriesDay[] | undefined;
  lastDay: string | null;
}> = ({ state, series, lastDay }) => {
  const days = FOLD_RULES.daySeriesDaysKept;
  // Without a series file yet (a server last folded before the series was kept), the uptime reads the letters.
  const source: SeriesSource = { series, letters: state.letters, lastDay: state.lastDay };
  return (
    <section aria-labelledby="days-heading" data-server-days>
      <h2 id="days-heading">The last {days} days</h2>
      {lastDay === null ? (
        <p>No day has been checked yet.</p>
      ) : (
        <ServerDaysCharts source={source} fiveMinute={state.fiveMinute} lastDay={lastDay} />
      )}
      <p class="small muted">
        A day reads its five-minute checks when it has at least {UPTIME_RULES.fiveMinuteMinChecks} of them, else its
        daily check; hourly checks never count in uptime. Handshake times are the median and 95th percentile of every
        answering check of the day, drawn once the day is over. See the{' '}
        <a href="/methodology/reliability">methodology</a>.
      </p>
    </section>
  );
};

const ServerDaysCharts: FC<{ source: SeriesSource; fiveMinute: ServerState['fiveMinute']; lastDay: string }> = (
  props,
) => {
  const statuses = daySeriesStatus(props.source, props.fiveMinute, props.lastDay);
  const series = props.source.series ?? [];
  return (
    <>
      <h3>Uptime by day</h3>
      <UptimeDaysChart days={statuses} />
      <h3>Handshake time by day</h3>
      <HandshakeChart series={series} lastDay={props.lastDay} />
      <DaysTable days={statuses} series={series} />
    </>
  );
};
