// The status badge (`/badge/:id.svg`): a shields-style SVG with the shown status and the uptime with its
// label. Built as a string, not with JSX, because it is a standalone XML document: every piece of text goes
// through escapeXml, and the badge is checked with a real XML parser in the tests.
import type { UptimeSummary } from '@mcp-atlas/reliability';
import { describeShownState, type ShownState } from '@mcp-atlas/reliability/live';
import type { Grade, ScoreResult } from '@mcp-atlas/score';
import { gradeLabelOf } from '../score/shown-score.js';
import { formatUptime } from './format.js';
import { STATE_COLOURS } from './styles.js';

/** The badge's left-hand text. */
export const BADGE_LABEL = 'mcp-atlas';

/** How long caches may keep a badge: the status can change with each hourly check, so a few minutes. */
export const BADGE_MAX_AGE_SECONDS = 300;

const HEIGHT = 20;
const PADDING = 6;
const FONT = 'Verdana,Geneva,DejaVu Sans,sans-serif';

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

/** The right-hand text and colour of a server's badge. */
export function badgeMessageOf(state: ShownState | null, uptime: UptimeSummary): { message: string; colour: string } {
  const status = state === null ? 'not checked yet' : describeShownState(state);
  return { message: `${status} | ${describeUptimeShort(uptime)}`, colour: STATE_COLOURS[state ?? 'unknown'] };
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

/** A shields-style badge: a grey label, a coloured message, both readable by screen readers. */
export function renderBadge(label: string, message: string, colour: string): string {
  const labelWidth = estimateTextWidth(label) + 2 * PADDING;
  const messageWidth = estimateTextWidth(message) + 2 * PADDING;
  const width = labelWidth + messageWidth;
  const title = escapeXml(`${label}: ${message}`);
  const text = (content: string, x: number, textWidth: number) =>
    `<text x="${x}" y="14" textLength="${textWidth}" lengthAdjust="spacingAndGlyphs">${escapeXml(content)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    '<linearGradient id="shine" x2="0" y2="100%"><stop offset="0" stop-color="#bbbbbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="round"><rect width="${width}" height="${HEIGHT}" rx="3" fill="#ffffff"/></clipPath>`,
    '<g clip-path="url(#round)">',
    `<rect width="${labelWidth}" height="${HEIGHT}" fill="#444444"/>`,
    `<rect x="${labelWidth}" width="${messageWidth}" height="${HEIGHT}" fill="${escapeXml(colour)}"/>`,
    `<rect width="${width}" height="${HEIGHT}" fill="url(#shine)"/>`,
    '</g>',
    `<g fill="#ffffff" text-anchor="middle" font-family="${FONT}" font-size="11">`,
    text(label, labelWidth / 2, labelWidth - 2 * PADDING),
    text(message, labelWidth + messageWidth / 2, messageWidth - 2 * PADDING),
    '</g>',
    '</svg>',
  ].join('');
}
