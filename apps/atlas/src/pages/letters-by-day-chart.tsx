// The state page's daily letters over the letter window: for each day, how many servers got each letter, drawn
// as stacked bars in an inline SVG (no script: the pages' CSP allows none). Each bar part has a <title> with its
// day, letter and count, and the same counts are in a table below, for screen readers and text browsers.
import { daysBetween, shiftDay } from '@mcp-atlas/base';
import { LETTER_RULES } from '@mcp-atlas/reliability/rules';
import type { FC } from 'hono/jsx';
import { formatCount, plural } from './format.js';
import { ChartSvg, TableHead } from './parts.js';
import { LETTER_COLOURS } from './styles.js';

type Letter = (typeof LETTER_RULES.letters)[number];

/** One day of the chart: the day and how many servers got each letter on it. */
export interface LetterDay {
  day: string;
  counts: Record<Letter, number>;
}

const emptyCounts = (): Record<Letter, number> => ({ o: 0, a: 0, p: 0, d: 0, n: 0 });

/**
 * The letter counts of the `LETTER_RULES.windowDays` days ending `lastDay`, oldest first. A server's letters end
 * on its `lettersThrough` day, one letter a day going back; days a server has no letter for are not counted.
 *
 * @example lettersByDay([{ letters: 'od', lettersThrough: '2026-12-02' }], '2026-12-02').slice(-2)
 * // [{ day: '2026-12-01', counts: { o: 1, ... } }, { day: '2026-12-02', counts: { d: 1, ... } }]
 */
export function lettersByDay(
  servers: readonly { letters: string; lettersThrough: string | null }[],
  lastDay: string,
): LetterDay[] {
  const window = LETTER_RULES.windowDays;
  const days: LetterDay[] = Array.from({ length: window }, (_, i) => ({
    day: shiftDay(lastDay, i - window + 1),
    counts: emptyCounts(),
  }));
  for (const server of servers) {
    if (server.lettersThrough === null) continue;
    // The window slot of the server's last letter: window - 1 when it ends on lastDay, less when it ends earlier.
    const lastSlot = window - 1 - daysBetween(server.lettersThrough, lastDay);
    for (let back = 0; back < server.letters.length; back++) {
      const slot = days[lastSlot - back];
      const letter = server.letters[server.letters.length - 1 - back] as Letter;
      if (slot !== undefined && letter in slot.counts) slot.counts[letter]++;
    }
  }
  return days;
}

// The drawing box, in SVG user units; the page scales it to its width.
const WIDTH = 600;
const HEIGHT = 180;
const TOP = 8;
const BOTTOM = 22;
const LEFT = 8;
const BAR_AREA = HEIGHT - TOP - BOTTOM;

/** The stacked bars, `o` at the bottom, then `a`, `p`, `d` and `n` on top. */
export const LettersByDayChart: FC<{ days: readonly LetterDay[] }> = ({ days }) => {
  const totals = days.map((day) => LETTER_RULES.letters.reduce((sum, letter) => sum + day.counts[letter], 0));
  const most = Math.max(1, ...totals);
  const slot = (WIDTH - 2 * LEFT) / Math.max(1, days.length);
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const down = days.reduce((sum, day) => sum + day.counts.d, 0);
  return (
    <figure data-letters-by-day>
      <ChartSvg
        width={WIDTH}
        height={HEIGHT}
        names={{
          title: {
            id: 'letters-by-day-title',
            text: `Servers by daily letter, ${first} to ${last}: ${plural(down, 'not-answering result')} in all`,
          },
        }}
      >
        {days.map((day, i) => {
          let y = HEIGHT - BOTTOM;
          const x = (LEFT + i * slot + slot * 0.1).toFixed(1);
          return (
            <g data-day={day.day}>
              {LETTER_RULES.letters.map((letter) => {
                const count = day.counts[letter];
                if (count === 0) return null;
                const height = (count / most) * BAR_AREA;
                y -= height;
                return (
                  <rect
                    x={x}
                    y={y.toFixed(1)}
                    width={(slot * 0.8).toFixed(1)}
                    height={height.toFixed(1)}
                    fill={LETTER_COLOURS[letter].background}
                    data-letter={letter}
                  >
                    <title>{`${day.day}: ${plural(count, 'server')} with ${letter}`}</title>
                  </rect>
                );
              })}
            </g>
          );
        })}
        <text x={LEFT} y={HEIGHT - 6} font-size="11" fill="#333333">
          {first}
        </text>
        <text x={WIDTH - LEFT} y={HEIGHT - 6} text-anchor="end" font-size="11" fill="#333333">
          {last}
        </text>
      </ChartSvg>
      <details>
        <summary class="small">The same counts as a table</summary>
        <table class="small">
          <TableHead
            columns={[{ label: 'day' }, ...LETTER_RULES.letters.map((letter) => ({ label: letter, numeric: true }))]}
          />
          <tbody>
            {days.map((day) => (
              <tr>
                <td>
                  <time datetime={day.day}>{day.day}</time>
                </td>
                {LETTER_RULES.letters.map((letter) => (
                  <td class="num">{formatCount(day.counts[letter])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
};
