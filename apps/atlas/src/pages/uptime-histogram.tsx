// The state page's uptime distribution: how many servers fall in each uptime band, drawn as an SVG bar chart
// on the server, with the same counts in a table for screen readers and text browsers. Whether it is shown at
// all is the reliability package's rule (decideUptimeDistribution); the bands are presentation only, finer
// near 100% because that is where most servers are.
import { type DistributionStatus, decideUptimeDistribution } from '@mcp-atlas/reliability';
import { UPTIME_RULES } from '@mcp-atlas/reliability/rules';
import type { FC } from 'hono/jsx';
import { formatCount, formatPercent, plural } from './format.js';
import { ChartSvg, TableHead } from './parts.js';

/** One band of the histogram: uptimes from `from` (included) up to `below` (excluded), in percent. */
export interface UptimeBand {
  label: string;
  /** The label under the bar, short enough to stay readable when a phone shrinks the chart. */
  short: string;
  from: number;
  below: number;
}

// The step between two uptime figures (0.1 with one decimal), so a band's label ends where the next begins.
const UPTIME_STEP = 10 ** -UPTIME_RULES.decimals;

/** A band's label, from its bounds and the uptime's decimals: "below 50%", "50 to 79.9%", "100%". */
function bandLabel(from: number, below: number): string {
  if (from === 0) return `below ${formatPercent(below)}`;
  if (below === Number.POSITIVE_INFINITY) return formatPercent(from);
  return `${from} to ${(below - UPTIME_STEP).toFixed(UPTIME_RULES.decimals)}%`;
}

function band(from: number, below: number, short: string): UptimeBand {
  return { label: bandLabel(from, below), short, from, below };
}

/**
 * The bands, lowest first. Uptimes carry UPTIME_RULES.decimals decimals, so "99 to 99.9%" holds every figure from
 * 99.0 to 99.9 (a server that missed a check stops there) and the last band holds exactly 100.
 */
export const UPTIME_BANDS: readonly UptimeBand[] = [
  band(0, 50, '<50'),
  band(50, 80, '50–79'),
  band(80, 90, '80–89'),
  band(90, 95, '90–94'),
  band(95, 99, '95–98'),
  band(99, 100, '99+'),
  band(100, Number.POSITIVE_INFINITY, '100'),
];

/** How many of `percents` fall in each band, in band order. */
export function countUptimeBands(percents: readonly number[]): number[] {
  // The bands do not overlap, so counting each band on its own counts every percent at most once.
  return UPTIME_BANDS.map((band) => percents.filter((percent) => percent >= band.from && percent < band.below).length);
}

// A narrow drawing with large type: a phone shrinks it less than a wide one, so the labels stay legible.
const WIDTH = 420;
const HEIGHT = 230;
const TOP = 24;
const BOTTOM = 48;
const LEFT = 8;
const BAR_AREA = HEIGHT - TOP - BOTTOM;

/** The histogram as an accessible SVG: a title, a description, and one titled bar per band. */
export const UptimeHistogram: FC<{ counts: readonly number[]; servers: number }> = ({ counts, servers }) => {
  const most = Math.max(1, ...counts);
  const slot = (WIDTH - 2 * LEFT) / counts.length;
  const summary = UPTIME_BANDS.map((band, i) => `${band.label}: ${counts[i]}`).join('; ');
  return (
    <ChartSvg
      width={WIDTH}
      height={HEIGHT}
      names={{
        title: { id: 'histogram-title', text: `Uptime distribution of ${plural(servers, 'server')}` },
        desc: { id: 'histogram-desc', text: summary },
      }}
    >
      <text x={WIDTH / 2} y={HEIGHT - 6} text-anchor="middle" font-size="13" fill="#333333">
        uptime, percent
      </text>
      <line x1={LEFT} y1={HEIGHT - BOTTOM} x2={WIDTH - LEFT} y2={HEIGHT - BOTTOM} stroke="#333333" stroke-width="1" />
      {counts.map((count, i) => {
        const height = Math.round((count / most) * BAR_AREA);
        const x = LEFT + i * slot + slot * 0.15;
        const y = HEIGHT - BOTTOM - height;
        const band = UPTIME_BANDS[i];
        // The counts come from countUptimeBands, one per band; a count without its band is a caller's bug.
        if (band === undefined)
          throw new Error(`uptime histogram: count ${i} has no band (${UPTIME_BANDS.length} bands)`);
        return (
          <g>
            <title>{`${band.label}: ${plural(count, 'server')}`}</title>
            <rect x={x.toFixed(1)} y={y} width={(slot * 0.7).toFixed(1)} height={height} fill="#1b5e20" />
            <text x={(x + slot * 0.35).toFixed(1)} y={y - 6} text-anchor="middle" font-size="16" fill="#1a1a1a">
              {formatCount(count)}
            </text>
            <text
              x={(x + slot * 0.35).toFixed(1)}
              y={HEIGHT - BOTTOM + 20}
              text-anchor="middle"
              font-size="14"
              fill="#1a1a1a"
            >
              {band.short}
            </text>
          </g>
        );
      })}
    </ChartSvg>
  );
};

/** The same counts as a table, so they can be read without the picture. */
export const UptimeBandTable: FC<{ counts: readonly number[] }> = ({ counts }) => (
  <table class="small">
    <caption class="muted">Servers per uptime band</caption>
    <TableHead columns={[{ label: 'uptime' }, { label: 'servers', numeric: true }]} />
    <tbody>
      {UPTIME_BANDS.map((band, i) => (
        <tr>
          <td>{band.label}</td>
          <td class="num">{formatCount(counts[i] ?? 0)}</td>
        </tr>
      ))}
    </tbody>
  </table>
);

/**
 * The distribution's place on the state page: the histogram once the median server has enough observed
 * days, otherwise how many days the median server has and the day the histogram appears.
 */
export const UptimeDistribution: FC<{
  observedDays: readonly number[];
  percents: readonly number[];
  day: string | null;
}> = (props) => {
  if (props.day === null) return <p>No day has been checked yet, so there is no uptime to show.</p>;
  const status: DistributionStatus = decideUptimeDistribution(props.observedDays, props.day);
  if (!status.shown) {
    if (status.medianDaysObserved === null) return <p>No server is watched yet.</p>;
    return (
      <p data-distribution="pending">
        The distribution appears once the median server has{' '}
        {plural(UPTIME_RULES.distributionMinMedianDays, 'observed day')}. The median server has{' '}
        <strong>{plural(status.medianDaysObserved, 'observed day')}</strong> so far; with a daily check every day, the
        distribution appears on{' '}
        <strong>
          <time datetime={status.appearsOn ?? ''}>{status.appearsOn}</time>
        </strong>
        .
      </p>
    );
  }
  const counts = countUptimeBands(props.percents);
  return (
    <figure data-distribution="shown">
      <UptimeHistogram counts={counts} servers={props.percents.length} />
      <figcaption class="muted small">
        Uptime of the {plural(props.percents.length, 'server')} with at least one observed day; the median server has{' '}
        {plural(status.medianDaysObserved, 'observed day')}.
      </figcaption>
      <UptimeBandTable counts={counts} />
    </figure>
  );
};
