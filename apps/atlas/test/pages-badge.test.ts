// The badge as a standalone SVG document: valid XML whatever the text, every text escaped, sized to its text,
// and labelled for screen readers.

import { describeUptime } from '@mcp-atlas/reliability';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { badgeMessageOf, describeUptimeShort, escapeXml, estimateTextWidth, renderBadge } from '../src/pages/badge.js';

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

  it('names the shown state in the package’s words, and says when a server was never checked', () => {
    const uptime = describeUptime({ letters: 'o'.repeat(20) });
    expect(badgeMessageOf('non_standard', uptime).message).toBe(
      'answers, but not as a standard MCP endpoint | 100.0% 30-day uptime (daily checks)',
    );
    expect(badgeMessageOf(null, describeUptime({ letters: '' })).message).toBe('not checked yet | no uptime yet');
  });
});
