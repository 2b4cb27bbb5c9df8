// The badge as a standalone SVG document: valid XML whatever the text, every text escaped, sized to its text,
// labelled for screen readers, short by default and drawn in shields.io's three common styles; and the same badge
// as a shields.io endpoint answer, checked against the rules of shields' own endpoint schema.

import { describeUptime } from '@mcp-atlas/reliability';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BADGE_STYLES,
  badgeLabelOf,
  describeUptimeShort,
  escapeXml,
  estimateTextWidth,
  renderBadge,
  shortBadgeMessageOf,
} from '../src/pages/badge.js';
import { type RunningFixture, startFixture } from './fixtures/http-atlas.js';

const parser = new XMLParser({ ignoreAttributes: false, textNodeName: '#text' });

describe('the badge SVG', () => {
  it.each([
    ['plain', 'answering with tools | 99.9% 30-day uptime'],
    ['markup', '<script>alert(1)</script>'],
    ['quotes and ampersands', `a "b" & 'c' <d>`],
    ['non-ASCII', 'naïve — 数据'],
  ])('is valid XML with %s text, and says exactly that text', (_case, message) => {
    const svg = renderBadge('mcp-atlas', message, '#1b5e20');
    expect(XMLValidator.validate(svg)).toBe(true);
    const doc = parser.parse(svg) as {
      svg: { title: string; '@_aria-label': string; '@_role': string; g: { text?: { '#text': string }[] }[] };
    };
    expect(doc.svg['@_role']).toBe('img');
    expect(doc.svg.title).toBe(`mcp-atlas: ${message}`);
    expect(doc.svg['@_aria-label']).toBe(`mcp-atlas: ${message}`);
    const texts = doc.svg.g.flatMap((g) => g.text ?? []).map((t) => t['#text']);
    expect(texts).toEqual(['mcp-atlas', message]);
  });

  it('escapes the five XML special characters', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });

  it('grows with its text', () => {
    const short = renderBadge('mcp-atlas', 'down', '#b71c1c');
    const long = renderBadge(
      'mcp-atlas',
      'answers, but not as a standard MCP endpoint | 0.0% 30-day uptime',
      '#7a4f00',
    );
    const widthOf = (svg: string) => Number(/^<svg[^>]* width="(\d+)"/.exec(svg)![1]);
    expect(widthOf(long)).toBeGreaterThan(widthOf(short) + 200);
    expect(estimateTextWidth('iii')).toBeLessThan(estimateTextWidth('MMM'));
  });
});

describe('what the badge says', () => {
  it('gives the uptime with the label and the source the reliability package chose', () => {
    expect(describeUptimeShort(describeUptime({ letters: `${'o'.repeat(13)}d` }))).toBe(
      '92.9% 30-day uptime (daily checks)',
    );
    expect(describeUptimeShort(describeUptime({ letters: `${'o'.repeat(12)}d` }))).toBe(
      '92.3% uptime over 13 days observed (daily checks)',
    );
    expect(describeUptimeShort(describeUptime({ letters: 'nnn' }))).toBe('no uptime yet');
    expect(describeUptimeShort(describeUptime({ letters: `${'o'.repeat(29)}d` }))).toBe(
      '96.7% 30-day uptime (daily checks)',
    );
    // From 12 five-minute checks on, the figure is theirs, and the badge says so.
    const fiveMinute = describeUptime({ letters: 'o'.repeat(20), fiveMinute: { answered: 11, total: 12 } });
    expect(fiveMinute.source).toBe('five_minute');
    expect(describeUptimeShort(fiveMinute)).toMatch(/^91\.7% .* \(five-minute checks\)$/);
  });

  it('says the status in a word and the uptime figure, and when a server was never checked', () => {
    const uptime = describeUptime({ letters: 'o'.repeat(20) });
    expect(shortBadgeMessageOf('answering', uptime)).toEqual({ message: 'up | 100.0%', colour: '#1b5e20' });
    expect(shortBadgeMessageOf('non_standard', uptime).message).toBe('non-standard | 100.0%');
    expect(shortBadgeMessageOf('down', describeUptime({ letters: 'oood' })).message).toBe('down | 75.0%');
    expect(shortBadgeMessageOf(null, describeUptime({ letters: '' }))).toEqual({
      message: 'not checked yet',
      colour: '#555555',
    });
  });
});

describe('styles and labels', () => {
  const widthOf = (svg: string) => Number(/^<svg[^>]* width="(\d+)"/.exec(svg)![1]);
  const heightOf = (svg: string) => Number(/^<svg[^>]* height="(\d+)"/.exec(svg)![1]);

  it('draws each style as valid XML: flat rounded, flat-square square, for-the-badge taller in capitals', () => {
    const drawn = Object.fromEntries(
      BADGE_STYLES.map((style) => [style, renderBadge('mcp-atlas', 'up | 99.9%', '#1b5e20', style)]),
    );
    for (const svg of Object.values(drawn)) expect(XMLValidator.validate(svg)).toBe(true);
    expect(drawn.flat).toContain('rx="3"');
    expect(drawn['flat-square']).toContain('rx="0"');
    expect(drawn['flat-square']).not.toContain('linearGradient');
    expect(heightOf(drawn.flat!)).toBe(20);
    expect(heightOf(drawn['for-the-badge']!)).toBe(28);
    expect(drawn['for-the-badge']).toContain('>UP | 99.9%</text>');
    // Screen readers get the words as written, not in capitals.
    expect(parser.parse(drawn['for-the-badge']!).svg.title).toBe('mcp-atlas: up | 99.9%');
  });

  it('keeps the default badge short, well under the 440 px the long text took', () => {
    expect(widthOf(renderBadge('mcp-atlas', 'up | 99.9%', '#1b5e20'))).toBeLessThan(150);
  });

  it('takes a label without control characters, cut at 40 characters; an empty one draws the message alone', () => {
    expect(badgeLabelOf(undefined, 'mcp-atlas')).toBe('mcp-atlas');
    expect(badgeLabelOf('uptime\u0000\n\u009f', 'mcp-atlas')).toBe('uptime');
    expect(badgeLabelOf('x'.repeat(41), 'mcp-atlas')).toBe('x'.repeat(40));
    const alone = renderBadge('', 'up', '#1b5e20');
    expect(XMLValidator.validate(alone)).toBe(true);
    expect(parser.parse(alone).svg.title).toBe('up');
    expect(alone).not.toContain('#444444');
  });
});

// The rules of shields.io's endpoint schema (services/endpoint-common.js in badges/shields): schemaVersion 1, a
// label (empty allowed), a message that is not empty, optional strings and a whole cacheSeconds from 0, and no
// key it does not know.
const ShieldsEndpointSchema = z
  .object({
    schemaVersion: z.literal(1),
    label: z.string(),
    message: z.string().min(1),
    color: z.string().optional(),
    labelColor: z.string().optional(),
    isError: z.boolean().optional(),
    namedLogo: z.string().optional(),
    logoSvg: z.string().optional(),
    style: z.string().optional(),
    cacheSeconds: z.number().int().min(0).optional(),
  })
  .strict();

describe('the badge over HTTP', () => {
  let f: RunningFixture;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  it('answers /badge/<id>.json in shields’ endpoint schema, with the label asked for', async () => {
    const response = await fetch(`${f.base}/badge/notes-hub.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = ShieldsEndpointSchema.parse(await response.json());
    expect(body).toMatchObject({ label: 'mcp-atlas', cacheSeconds: 300 });
    expect(body.color).toMatch(/^[0-9a-f]{6}$/);
    const labelled = ShieldsEndpointSchema.parse(
      await (await fetch(`${f.base}/badge/notes-hub.json?label=status`)).json(),
    );
    expect(labelled.label).toBe('status');
    const unknown = ShieldsEndpointSchema.parse(await (await fetch(`${f.base}/badge/nobody-here.json`)).json());
    expect(unknown).toMatchObject({ message: 'unknown', color: '555555' });
  });

  it('answers an unknown id with a 200 "unknown" SVG, a style it knows in that style, and another with a 400 badge', async () => {
    const unknown = await fetch(`${f.base}/badge/nobody-here.svg`);
    expect(unknown.status).toBe(200);
    expect(parser.parse(await unknown.text()).svg.title).toBe('mcp-atlas: unknown');
    const square = await fetch(`${f.base}/badge/notes-hub.svg?style=flat-square&label=mcp`);
    const squareSvg = await square.text();
    expect(square.status).toBe(200);
    expect(squareSvg).toContain('rx="0"');
    expect(parser.parse(squareSvg).svg.title).toMatch(/^mcp: /);
    const refused = await fetch(`${f.base}/badge/notes-hub.svg?style=plastic`);
    expect(refused.status).toBe(400);
    expect(parser.parse(await refused.text()).svg.title).toBe(
      'mcp-atlas: style: one of flat, flat-square, for-the-badge',
    );
    const grade = await fetch(`${f.base}/badge/notes-hub/grade.svg?style=for-the-badge`);
    expect(grade.status).toBe(200);
    expect(heightOfText(await grade.text())).toBe(28);
  });
});

function heightOfText(svg: string): number {
  return Number(/^<svg[^>]* height="(\d+)"/.exec(svg)![1]);
}
