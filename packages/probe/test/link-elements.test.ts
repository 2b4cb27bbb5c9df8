// findLinkElements as a linear scan: the same links as before on ordinary pages, HTML's rule for an
// unclosed comment, and adversarial pages of 256 KiB (which cost the old regex version seconds of CPU)
// read in a few milliseconds. The ratio against the old version is measured by bench/link-elements-bench.mjs.
import { describe, expect, it } from 'vitest';
import { findLinkElements } from '../src/discovery.js';

const KIB_256 = 256 * 1024;

function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

describe('findLinkElements', () => {
  it('reads link tags in any case, with any quoting, in document order', () => {
    const html = `<LINK REL="MCP" HREF="/a"><link\nrel=mcp-server\nhref=/b /><link href='/c' rel='preload mcp'>`;
    expect(findLinkElements(html)).toEqual(['/a', '/b', '/c']);
  });

  it('skips comments, and an unclosed comment hides the rest of the page, as in HTML', () => {
    expect(findLinkElements('<!-- <link rel=mcp href=/hidden> --><link rel=mcp href=/shown>')).toEqual(['/shown']);
    expect(findLinkElements('<link rel=mcp href=/before><!-- <link rel=mcp href=/after>')).toEqual(['/before']);
  });

  it('does not take other elements that start with "link" or a tag that never ends', () => {
    expect(findLinkElements('<linkx rel=mcp href=/x><link_2 rel=mcp href=/y><link rel=mcp href=/z>')).toEqual(['/z']);
    expect(findLinkElements('<link rel=mcp href=/never-closed')).toEqual([]);
  });

  it.each([
    ['unclosed comments', repeatTo('<!--', KIB_256)],
    ['unclosed link tags', repeatTo('<link', KIB_256)],
    ['tags that all end at one far bracket', `${repeatTo('<link rel=mcp ', KIB_256)}>`],
    ['many small comments and links', repeatTo('<!--x--><link rel=mcp href=/m>', KIB_256)],
  ])('reads 256 KiB of %s in linear time', (_label, html) => {
    const started = performance.now();
    findLinkElements(html);
    // The old version took seconds on the first three; a linear pass over 256 KiB takes milliseconds.
    expect(performance.now() - started).toBeLessThan(500);
  });
});
