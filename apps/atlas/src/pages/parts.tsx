// Small pieces several pages share: the strip of daily letters and its legend, the status and risk-level
// labels. Every word that carries a rule (what a letter or a shown state means) comes from
// @mcp-atlas/reliability; only colours and layout are decided here.
import { describeShownState, displayState, type ShownState } from '@mcp-atlas/reliability/live';
import { LETTER_RULES } from '@mcp-atlas/reliability/rules';
import type { FC } from 'hono/jsx';
import { daysOfLetters } from '../data/days.js';
import { LETTER_COLOURS, LEVEL_COLOURS, STATE_COLOURS } from './styles.js';

type Letter = (typeof LETTER_RULES.letters)[number];

/** What a daily letter means, in the words the shown status uses for the same result. */
export function describeLetter(letter: Letter): string {
  if (letter === LETTER_RULES.noDataLetter) return 'no data: the daily check did not run that day';
  return describeShownState(displayState({ letter }));
}

function isLetter(value: string): value is Letter {
  return (LETTER_RULES.letters as readonly string[]).includes(value);
}

/** The server's daily letters, oldest first, one coloured cell each with the letter written in it. */
export const LetterStrip: FC<{ letters: string; lastDay: string | null; label: string }> = ({
  letters,
  lastDay,
  label,
}) => {
  const days = daysOfLetters(letters, lastDay);
  return (
    <ol class="strip" aria-label={label}>
      {Array.from(letters).map((letter, i) => {
        const known = isLetter(letter) ? letter : LETTER_RULES.noDataLetter;
        const colours = LETTER_COLOURS[known];
        const words = `${days[i] ?? ''}: ${letter}, ${describeLetter(known)}`;
        return (
          <li style={`background:${colours.background};color:${colours.text}`} title={words} aria-label={words}>
            {letter}
          </li>
        );
      })}
    </ol>
  );
};

/** The legend of the letter strip: every letter, its colour and its meaning. */
export const LetterLegend: FC = () => (
  <ul class="legend" aria-label="What each letter means">
    {LETTER_RULES.letters.map((letter) => (
      <li>
        <span
          class="cell"
          style={`background:${LETTER_COLOURS[letter].background};color:${LETTER_COLOURS[letter].text}`}
          aria-hidden="true"
        >
          {letter}
        </span>{' '}
        <b>{letter}</b> {describeLetter(letter)}
      </li>
    ))}
  </ul>
);

/** A shown state as a coloured label with its words; `null` (never checked) is written as such. */
export const StatePill: FC<{ state: ShownState | null }> = ({ state }) => (
  <span class="pill" style={`background:${STATE_COLOURS[state ?? 'unknown']}`}>
    {state === null ? 'not checked yet' : describeShownState(state)}
  </span>
);

/** A tool's risk level as a coloured label. */
export const LevelPill: FC<{ level: keyof typeof LEVEL_COLOURS }> = ({ level }) => (
  <span class="pill" style={`background:${LEVEL_COLOURS[level]}`}>
    {level}
  </span>
);

/** One column heading: its words, and whether the column holds figures (right-aligned). */
export interface Column {
  label: string;
  numeric?: boolean;
  /** Read by screen readers only (a column of marks needs a name but no visible heading). */
  hidden?: boolean;
}

/** A table's heading row, every cell a column header. */
export const TableHead: FC<{ columns: readonly Column[] }> = ({ columns }) => (
  <thead>
    <tr>
      {columns.map((column) => (
        <th scope="col" class={column.numeric === true ? 'num' : undefined}>
          {column.hidden === true ? <span class="sr">{column.label}</span> : column.label}
        </th>
      ))}
    </tr>
  </thead>
);

/** What names a chart: its title, and a longer description where it has one, each with its element id. */
export interface ChartNames {
  title: { id: string; text: string };
  desc?: { id: string; text: string };
}

/**
 * The frame of the pages' inline charts: an SVG image of `width` by `height` user units, named by its own
 * <title> (and <desc>), which `aria-labelledby` points at.
 */
export const ChartSvg: FC<{ width: number; height: number; names: ChartNames; children?: unknown }> = (props) => {
  const { title, desc } = props.names;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${props.width} ${props.height}`}
      width={props.width}
      height={props.height}
      role="img"
      aria-labelledby={desc === undefined ? title.id : `${title.id} ${desc.id}`}
    >
      <title id={title.id}>{title.text}</title>
      {desc === undefined ? null : <desc id={desc.id}>{desc.text}</desc>}
      {props.children}
    </svg>
  );
};
