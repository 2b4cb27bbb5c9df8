// The public score-drop feed: every server whose composite fell by the drop threshold or more from its previous
// scored day (GET /api/score-drops as JSON, GET /score-drops.atom as an Atom feed, each for one server with
// `server`). The drops come from the signed scores files, through the read model (view/score-view.ts); the rule
// is the score package's. Owners with a verified claim also get theirs in the owner's alerts.
import { scoreInstantOf } from '@mcp-atlas/operations';
import { SHOWN_SCORE_RULES } from '@mcp-atlas/operations/rules';
import { GRADE_RULES } from '@mcp-atlas/score/rules';
import { z } from 'zod';
import type { AtlasView } from '../view/build-view.js';
import type { ServerScoreDrop } from '../view/score-view.js';
import { ServerIdSchema } from './schemas.js';

/** The feed's paths. */
export const SCORE_DROP_FEED_PATHS = Object.freeze({ json: '/api/score-drops', atom: '/score-drops.atom' });

/** GET /api/score-drops and /score-drops.atom: `server`, one server's drops only. */
export const ScoreDropFeedQuerySchema = z.strictObject({ server: ServerIdSchema.optional() });
export type ScoreDropFeedQuery = z.infer<typeof ScoreDropFeedQuerySchema>;

const ScoreDropEntrySchema = z.object({
  serverId: z.string(),
  title: z.string().nullable(),
  url: z.string().describe('The endpoint checked.'),
  page: z.string().describe("The server's page."),
  day: z.string().describe('The day of the lower score.'),
  previousDay: z.string().describe('The scored day it fell from: the newest before, at most a week back.'),
  from: z.number(),
  to: z.number(),
  drop: z.number().describe(`Points lost: at least ${GRADE_RULES.dropAlertPoints}.`),
  fromGrade: z.string(),
  toGrade: z.string(),
});
export type ScoreDropEntry = z.infer<typeof ScoreDropEntrySchema>;

/** GET /api/score-drops. */
export const ScoreDropFeedSchema = z.object({
  day: z.string().nullable().describe('The newest scanned day.'),
  days: z.int().describe('Days of scores the feed covers, the newest included.'),
  atom: z.string().describe('The same feed as Atom.'),
  drops: z.array(ScoreDropEntrySchema).describe('Newest day first, then the largest drop.'),
});
export type ScoreDropFeed = z.infer<typeof ScoreDropFeedSchema>;

function feedPath(path: string, server: string | undefined): string {
  return server === undefined ? path : `${path}?server=${encodeURIComponent(server)}`;
}

function entryOf(view: AtlasView, origin: string, drop: ServerScoreDrop): ScoreDropEntry {
  const server = view.byId.get(drop.serverId);
  const { serverId, ...rest } = drop;
  return {
    serverId,
    title: server?.title ?? null,
    url: server?.url ?? '',
    page: `${origin}/servers/${encodeURIComponent(serverId)}`,
    ...rest,
  };
}

/** The feed's drops, of every server on the map or of one. */
export function presentScoreDropFeed(view: AtlasView, query: ScoreDropFeedQuery, origin: string): ScoreDropFeed {
  const drops = view.scores.drops
    .filter((d) => view.byId.has(d.serverId) && (query.server === undefined || d.serverId === query.server))
    .map((d) => entryOf(view, origin, d));
  return {
    day: view.day,
    days: SHOWN_SCORE_RULES.trendDays,
    atom: `${origin}${feedPath(SCORE_DROP_FEED_PATHS.atom, query.server)}`,
    drops,
  };
}

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Text safe inside an XML element or attribute: the five special characters escaped, and the characters XML 1.0
 * forbids (controls other than tab and newlines, lone surrogates, U+FFFE and U+FFFF) dropped.
 *
 * @example
 * xmlText('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] as string);
}

function atomEntry(entry: ScoreDropEntry): string {
  const name = entry.title ?? entry.serverId;
  const summary =
    `${name}'s quality score fell ${entry.drop} points, from ${entry.from} (${entry.fromGrade || 'no grade'}) on ` +
    `${entry.previousDay} to ${entry.to} (${entry.toGrade || 'no grade'}) on ${entry.day}.`;
  return [
    '  <entry>',
    `    <title>${xmlText(`${name}: score ${entry.from} → ${entry.to}`)}</title>`,
    `    <id>${xmlText(`${entry.page}#score-drop-${entry.day}`)}</id>`,
    `    <link rel="alternate" type="text/html" href="${xmlText(entry.page)}"/>`,
    `    <updated>${scoreInstantOf(entry.day)}</updated>`,
    `    <summary>${xmlText(summary)}</summary>`,
    '  </entry>',
  ].join('\n');
}

/**
 * The feed as an Atom 1.0 document (RFC 4287). Its `updated` is the newest drop's time, or with none the newest
 * scanned day's, so a reader sees it change only when the feed does.
 */
export function renderScoreDropAtom(feed: ScoreDropFeed, origin: string, server: string | undefined): string {
  const self = `${origin}${feedPath(SCORE_DROP_FEED_PATHS.atom, server)}`;
  const newest = feed.drops[0]?.day ?? feed.day;
  const title = server === undefined ? 'mcp-atlas: quality score drops' : `mcp-atlas: quality score drops of ${server}`;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title>${xmlText(title)}</title>`,
    `  <subtitle>Servers whose quality score fell ${GRADE_RULES.dropAlertPoints} points or more from their previous scored day.</subtitle>`,
    `  <id>${xmlText(self)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(`${origin}/leaderboard`)}"/>`,
    `  <updated>${newest === null ? '1970-01-01T00:00:00Z' : scoreInstantOf(newest)}</updated>`,
    '  <author><name>mcp-atlas</name></author>',
    ...feed.drops.map(atomEntry),
    '</feed>',
    '',
  ].join('\n');
}
