// The site menu as a reader gets it: pages served over loopback by the real app carry one header menu with every
// NAV_LINKS entry in order, the search evaluation page among them, and every link in it answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAV_LINKS } from '../src/pages/layout.js';
import { type RunningFixture, startFixture } from './fixtures/http-atlas.js';

/** The [href, label] pairs of the header's site menu, in page order (the brand link first). */
function menuLinksOf(html: string): [string, string][] {
  const navs = [...html.matchAll(/<nav aria-label="Site">([\s\S]*?)<\/nav>/g)];
  expect(navs).toHaveLength(1);
  const nav = navs[0]?.[1] ?? '';
  return [...nav.matchAll(/<a[^>]*href="([^"]+)"[^>]*>\s*([^<]*?)\s*<\/a>/g)].map((m) => [
    m[1] as string,
    m[2] as string,
  ]);
}

describe('the site menu', () => {
  let f: RunningFixture;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  it.each(['/', '/search-eval', '/leaderboard'])('on %s lists every menu entry in order', async (path) => {
    const response = await fetch(`${f.base}${path}`);
    expect(response.status).toBe(200);
    const links = menuLinksOf(await response.text());
    expect(links).toEqual([
      ['/', 'mcp-atlas'],
      ...NAV_LINKS.slice(1).map((link): [string, string] => [link.href, link.label]),
    ]);
  });

  it('links the search evaluation page as "Search quality", right after the tool search', async () => {
    const links = menuLinksOf(await (await fetch(`${f.base}/`)).text());
    const at = links.findIndex(([href]) => href === '/search-eval');
    expect(links[at]).toEqual(['/search-eval', 'Search quality']);
    expect(links[at - 1]).toEqual(['/search', 'Tool search']);
  });

  it('has no link that leads nowhere', async () => {
    for (const link of NAV_LINKS) {
      const response = await fetch(`${f.base}${link.href}`);
      expect(response.status, link.href).toBe(200);
      await response.arrayBuffer();
    }
  });
});
