// The status badge (`/badge/:id.svg`): a shields-style SVG with the shown status and the uptime, short by default
// so that it sits in a README's row of badges; the same figures as a shields endpoint (`/badge/:id.json`), so that
// shields.io can draw it in any of its styles. Built as a string, not with JSX, because it is a standalone XML
// document: every piece of text goes through escapeXml, and the badge is checked with a real XML parser in the tests.
import type { UptimeSummary } from '@mcp-atlas/reliability';
import type { ShownState } from '@mcp-atlas/reliability/live';
import type { Grade, ScoreResult } from '@mcp-atlas/score';
import { gradeLabelOf } from '../score/shown-score.js';
import { formatUptime } from './format.js';
import { STATE_COLOURS } from './styles.js';

/** The badge's left-hand text. */
export const BADGE_LABEL = 'mcp-atlas';

/** How long caches may keep a badge: the status can change with each hourly check, so a few minutes. */
export const BADGE_MAX_AGE_SECONDS = 300;

const FONT = 'Verdana,Geneva,DejaVu Sans,sans-serif';

/** The styles a badge is drawn in, as shields.io names them (`?style=`). */
export const BADGE_STYLES = ['flat', 'flat-square', 'for-the-badge'] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];

/** True when `value` is one of BADGE_STYLES. */
export function isBadgeStyle(value: string): value is BadgeStyle {
  return (BADGE_STYLES as readonly string[]).includes(value);
}

/** The longest `?label=` a badge takes, in characters: a label, not a paragraph. */
export const BADGE_LABEL_MAX_CHARS = 40;

/** How each style is drawn: height, font, padding, corner radius, and whether text is upper-case and bold. */
const STYLE_GEOMETRY: Readonly<
  Record<
    BadgeStyle,
    { height: number; fontSize: number; padding: number; radius: number; shine: boolean; caps: boolean }
  >
> = {
  flat: { height: 20, fontSize: 11, padding: 6, radius: 3, shine: true, caps: false },
  'flat-square': { height: 20, fontSize: 11, padding: 6, radius: 0, shine: false, caps: false },
  'for-the-badge': { height: 28, fontSize: 10, padding: 9, radius: 0, shine: false, caps: true },
};

/** Escapes text for XML character data and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
}

// Approximate advance widths of Verdana at 11px, in pixels; `textLength` then fits the text to exactly
// this width, so a badge never overflows whatever font the viewer has.
const NARROW = new Set(Array.from(" .,:;'|!il·()[]"));
const WIDE = new Set(Array.from('mwMW%@'));

/** The estimated width of `text` in pixels at the badge's font size. */
export function estimateTextWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    if (NARROW.has(char)) width += 3.9;
    else if (WIDE.has(char)) width += 10.5;
    else if (/[A-Z0-9]/.test(char)) width += 7.3;
    else width += 6.6;
  }
  return Math.ceil(width);
}

/**
 * The uptime as a badge, widget or list says it: the figure with its label and its source from the reliability
 * package ("96.7% 30-day uptime (daily checks)", "80.0% uptime over 5 days observed (daily checks)"), or that
 * there is none yet. The source is always said, so a daily figure is never read as a five-minute one.
 */
export function describeUptimeShort(uptime: UptimeSummary): string {
  if (uptime.percent === null) return 'no uptime yet';
  const figure = uptime.isThirtyDay
    ? `${formatUptime(uptime.percent)} ${uptime.label}`
    : `${formatUptime(uptime.percent)} uptime ${uptime.label}`;
  return `${figure} (${uptime.sourceLabel})`;
}

/** The status in one word or two, for the short badge. */
const SHORT_STATE_WORDS: Readonly<Record<ShownState, string>> = {
  answering: 'up',
  sign_in: 'sign-in',
  payment: 'payment',
  non_standard: 'non-standard',
  down: 'down',
};

/**
 * The right-hand text and colour of a server's badge as a README shows it: the status in a word and the uptime
 * figure ("up | 99.9%"); the figure's window and source are on the server's page and in the full badge.
 */
export function shortBadgeMessageOf(
  state: ShownState | null,
  uptime: UptimeSummary,
): { message: string; colour: string } {
  const status = state === null ? 'not checked yet' : SHORT_STATE_WORDS[state];
  const message = uptime.percent === null ? status : `${status} | ${formatUptime(uptime.percent)}`;
  return { message, colour: STATE_COLOURS[state ?? 'unknown'] };
}

/** What an unknown server's badge says: a badge, never a broken image. */
export const UNKNOWN_BADGE = Object.freeze({ message: 'unknown', colour: STATE_COLOURS.unknown });

/** A shields.io endpoint answer (schemaVersion 1): what `https://img.shields.io/endpoint?url=…` draws. */
export interface ShieldsEndpoint {
  schemaVersion: 1;
  label: string;
  message: string;
  /** Hex without the `#`, which shields reads as a hex colour. */
  color: string;
  cacheSeconds: number;
}

/** The shields endpoint answer for a badge's label, message and colour (`#rrggbb`). */
export function shieldsEndpointOf(label: string, message: string, colour: string): ShieldsEndpoint {
  return {
    schemaVersion: 1,
    label,
    message,
    color: colour.replace(/^#/, ''),
    cacheSeconds: BADGE_MAX_AGE_SECONDS,
  };
}

/**
 * The label a `?label=` asks for: its control characters dropped and cut to BADGE_LABEL_MAX_CHARS; `fallback`
 * when absent. An empty label is kept: shields then draws the message alone, and so does this badge.
 */
export function badgeLabelOf(requested: string | undefined, fallback: string): string {
  if (requested === undefined) return fallback;
  return Array.from(requested.replace(/[\u0000-\u001f\u007f-\u009f]/g, ''))
    .slice(0, BADGE_LABEL_MAX_CHARS)
    .join('');
}

/** The grade badge's left-hand text (`/badge/:id/grade.svg`). */
export const GRADE_BADGE_LABEL = 'mcp-atlas score';

/** Colour of each letter grade ('' is no grade), for the grade badge and the pages (white text on each). */
export const GRADE_COLOURS: Readonly<Record<Grade, string>> = Object.freeze({
  'A+': '#1b5e20',
  A: '#2e7d32',
  B: '#33691e',
  C: '#7a4f00',
  D: '#a04000',
  F: '#b71c1c',
  '': '#555555',
});

/**
 * The right-hand text and colour of a server's grade badge: the grade with its dimensions ("A (5/5)"), or that
 * the server has no score yet.
 */
export function gradeBadgeMessageOf(
  score: Pick<ScoreResult, 'grade' | 'dimensionsScored' | 'dimensionsApplicable'> | null,
): { message: string; colour: string } {
  if (score === null) return { message: 'not scored yet', colour: GRADE_COLOURS[''] };
  return { message: gradeLabelOf(score), colour: GRADE_COLOURS[score.grade] };
}

/**
 * A shields-style badge in `style`: a grey label, a coloured message, both readable by screen readers. An empty
 * label draws the message alone.
 */
export function renderBadge(label: string, message: string, colour: string, style: BadgeStyle = 'flat'): string {
  const geometry = STYLE_GEOMETRY[style];
  const shown = (text: string) => (geometry.caps ? text.toUpperCase() : text);
  // Upper-case bold text at 10px runs about as wide as the estimate at 11px, plus its letter spacing.
  const widthOf = (text: string) =>
    text === ''
      ? 0
      : estimateTextWidth(shown(text)) + (geometry.caps ? Array.from(text).length : 0) + 2 * geometry.padding;
  const labelWidth = widthOf(label);
  const messageWidth = widthOf(message);
  const width = labelWidth + messageWidth;
  const { height } = geometry;
  const title = escapeXml(label === '' ? message : `${label}: ${message}`);
  const baseline = Math.round(height / 2 + geometry.fontSize / 2 - 1);
  const text = (content: string, x: number, textWidth: number) =>
    `<text x="${x}" y="${baseline}" textLength="${textWidth}" lengthAdjust="spacingAndGlyphs">${escapeXml(shown(content))}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    geometry.shine
      ? '<linearGradient id="shine" x2="0" y2="100%"><stop offset="0" stop-color="#bbbbbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>'
      : '',
    `<clipPath id="round"><rect width="${width}" height="${height}" rx="${geometry.radius}" fill="#ffffff"/></clipPath>`,
    '<g clip-path="url(#round)">',
    labelWidth > 0 ? `<rect width="${labelWidth}" height="${height}" fill="#444444"/>` : '',
    `<rect x="${labelWidth}" width="${messageWidth}" height="${height}" fill="${escapeXml(colour)}"/>`,
    geometry.shine ? `<rect width="${width}" height="${height}" fill="url(#shine)"/>` : '',
    '</g>',
    `<g fill="#ffffff" text-anchor="middle" font-family="${FONT}" font-size="${geometry.fontSize}"${geometry.caps ? ' font-weight="bold"' : ''}>`,
    labelWidth > 0 ? text(label, labelWidth / 2, labelWidth - 2 * geometry.padding) : '',
    text(message, labelWidth + messageWidth / 2, messageWidth - 2 * geometry.padding),
    '</g>',
    '</svg>',
  ].join('');
}
