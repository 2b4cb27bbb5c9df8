// What a server says about itself is untrusted: tool names, descriptions, titles, finding messages and change
// details reach the pages as text and must render inert, in element text and in attributes alike.
import { XMLValidator } from 'fast-xml-parser';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { appOver, getPage, HOSTILE_CHANGES, HOSTILE_SERVER, writeHandObservatory } from './pages-fixtures.js';

const DAY = '2026-11-29';
const NOW = new Date('2026-11-30T08:00:00Z');

let app: Hono;

beforeAll(async () => {
  ({ app } = await appOver(await writeHandObservatory(DAY, [HOSTILE_SERVER], HOSTILE_CHANGES), NOW));
});

/** Markup the hostile texts would produce if any of them were written unescaped. */
const LIVE_MARKUP = [
  /<script/i,
  /<img src=x/i,
  /<svg onload/i,
  /<b onclick/i,
  /<iframe/i,
  /onmouseover="alert/i,
  /<\/textarea>/i,
  /<marquee/i,
  /<blink/i,
];

describe('hostile text from a server', () => {
  it.each(['/', '/servers', '/servers/hostile', '/reliable', '/search?q=finds+things', '/widget/hostile'])(
    'renders inert on %s',
    async (path) => {
      const page = await getPage(app, path);
      expect(page.status).toBe(200);
      for (const pattern of LIVE_MARKUP) expect(pattern.test(page.text), `${path} ${pattern}`).toBe(false);
    },
  );

  it('still shows the hostile names, escaped, so a reader sees what the server said', async () => {
    const page = (await getPage(app, '/servers/hostile')).text;
    expect(page).toContain('<code>&lt;script&gt;alert(2)&lt;/script&gt;</code>');
    expect(page).toContain('data-tool="x&quot; onmouseover=&quot;alert(4)"');
    expect(page).toContain('&quot;&gt;&lt;svg onload=alert(3)&gt;');
    expect(page).toContain('<h1>&lt;img src=x onerror=alert(1)&gt;Hostile &amp; Co</h1>');
    expect(page).toContain('&lt;b onclick=alert(6)&gt;bold&lt;/b&gt;');
    expect(page).toContain('&lt;iframe src=javascript:alert(8)&gt;');
    expect(page).toContain('<title>&lt;img src=x onerror=alert(1)&gt;Hostile &amp; Co · mcp-atlas</title>');
  });

  it('escapes the title in the embed snippets twice: once for the snippet, once for the page', async () => {
    // The app was made without a site address, so its snippets name the default http://localhost.
    const page = (await getPage(app, '/servers/hostile')).text;
    // The snippet text is itself HTML (alt="...&lt;img..."), shown as text on the page.
    expect(page).toContain(
      'alt=&quot;mcp-atlas status of &amp;lt;img src=x onerror=alert(1)&amp;gt;Hostile &amp;amp; Co&quot;',
    );
    expect(page).toContain(
      '[![mcp-atlas status of &lt;img src=x onerror=alert(1)&gt;Hostile &amp; Co](http://localhost/badge/hostile.svg)]',
    );
  });

  it('keeps the badge valid XML', async () => {
    const svg = await (await app.request('/badge/hostile.svg')).text();
    expect(XMLValidator.validate(svg)).toBe(true);
  });
});
