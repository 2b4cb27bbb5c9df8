// The pages over the demo's month, through app.request: each page shows the real figures the read model
// holds for the demo fleet, unknown servers get a 404 page, and every page stays within its budgets.
import { type HourResult, viewHourProfile } from '@mcp-atlas/reliability/live';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../src/http/app.js';
import { createSiteAddress } from '../src/http/site-address.js';
import { APP_VERSION, METHODOLOGY_VERSION } from '../src/methodology.js';
import type { AtlasView } from '../src/view/build-view.js';
import { buildDemoSite, DEMO_TODAY, type DemoSite, getPage, PAGE_BUDGET_BYTES } from './pages-fixtures.js';

let site: DemoSite;

beforeAll(async () => {
  site = await buildDemoSite();
});

/** The page's text with tags removed and entities of quotes decoded, for reading sentences. */
function textOf(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the state page', () => {
  it('counts the newest day’s letters as the fleet answered them', async () => {
    const page = await getPage(site.app, '/');
    expect(page.status).toBe(200);
    const expected = { o: 0, a: 0, p: 0, d: 0 };
    // Only servers on the published map are counted: the member its robots.txt shuts out has left it.
    for (const server of site.view().servers)
      expected[site.outcome.letters.get(server.id)!.at(-1) as keyof typeof expected]++;
    // As designed, day 30 of the month gives o 10, a 1, p 1, d 3 (the file share is down on it, 30 % 4 = 2, and so
    // are the redirecting member and the web page). The counts are taken from the letters the probes actually
    // gave, so a check that timed out on a loaded machine still agrees with the page.
    for (const [letter, count] of Object.entries(expected)) {
      expect(page.text).toMatch(new RegExp(`data-letter="${letter}">.*?<td class="num">${count}</td>`));
    }
    expect(page.text).toMatch(/data-letter="n">.*?<td class="num">0<\/td>/);
    expect(textOf(page.text)).toContain('1 of them answers, but not as a standard MCP endpoint');
  });

  it('draws the uptime distribution once the median server has 14 observed days', async () => {
    const page = await getPage(site.app, '/');
    expect(page.text).toContain('data-distribution="shown"');
    expect(page.text).toContain('role="img"');
    // As designed: 11 members never fail (sign-in and payment count as up), the file share is down on 8 of its
    // 30 kept days (day indexes 2, 6, ..., 30), 22/30 = 73.3%, and the redirect and the web page never answer:
    // below 50%: 2, 50 to 79.9%: 1, 100%: 12. The oracle below counts the letters the probes actually gave.
    const bands = [0, 0, 0, 0, 0, 0, 0];
    for (const server of site.view().servers) {
      const kept = site.outcome.letters.get(server.id)!.slice(-30);
      const percent = (100 * [...kept].filter((l) => l !== 'd').length) / kept.length;
      bands[
        percent < 50
          ? 0
          : percent < 80
            ? 1
            : percent < 90
              ? 2
              : percent < 95
                ? 3
                : percent < 99
                  ? 4
                  : percent < 100
                    ? 5
                    : 6
      ]! += 1;
    }
    const labels = ['below 50%', '50 to 79.9%', '80 to 89.9%', '90 to 94.9%', '95 to 98.9%', '99 to 99.9%', '100%'];
    expect(page.text).toContain(
      `<desc id="histogram-desc">${labels.map((label, i) => `${label}: ${bands[i]}`).join('; ')}</desc>`,
    );
    expect(textOf(page.text)).toContain('the median server has 30 observed days');
  });

  it('lists the day’s changes and says when no tool rose in risk', async () => {
    const text = textOf((await getPage(site.app, '/')).text);
    expect(text).toContain('Changes on 2026-11-29');
    expect(text).toMatch(/File share \(flaky\) : Stopped answering/);
    expect(text).toContain('No tool rose in risk on this day.');
  });

  it('shows the latest sealed root and how to verify it', async () => {
    const page = await getPage(site.app, '/');
    const root = site.view().roots.get('2026-11-29')!;
    expect(page.text).toContain(root.root);
    expect(page.text).toContain(root.previous_root!);
    expect(page.text).toContain('/api/maps?a=root&amp;day=2026-11-29');
    expect(page.text).toContain('const day = &quot;2026-11-29&quot;;');
    expect(page.text).toContain('mcp-atlas verify --url http://localhost');
  });
});

describe('the server page', () => {
  it('shows the strip of 30 letters with dates, the legend and the uptime with its label', async () => {
    const page = await getPage(site.app, `/servers/${DEMO_TODAY.incident}`);
    const letters = site.outcome.letters.get(DEMO_TODAY.incident)!.slice(-30);
    const cells = [
      ...page.text.matchAll(
        /<li style="background:#[0-9a-f]{6};color:#[0-9a-f]{6}" title="([^"]+)"[^>]*>([oapdn])<\/li>/g,
      ),
    ];
    expect(cells.map((cell) => cell[2]).join('')).toBe(letters);
    const words = { o: 'answering with tools', d: 'not answering' } as Record<string, string>;
    expect(cells[0]![1]).toBe(`2026-10-31: ${letters[0]}, ${words[letters[0]!]}`);
    expect(cells.at(-1)![1]).toBe(`2026-11-29: ${letters.at(-1)}, ${words[letters.at(-1)!]}`);
    const text = textOf(page.text);
    for (const legend of [
      'o answering with tools',
      'a asks for sign-in',
      'p asks for payment',
      'd not answering',
      'n no data',
    ])
      expect(text).toContain(legend);
    // 73.3% as designed (22 of 30 days); the figure is the read model's, from the letters the probes gave.
    expect(text).toContain(
      `Uptime, 30-day uptime ${site.view().byId.get(DEMO_TODAY.incident)!.uptime.percent!.toFixed(1)}% from daily checks`,
    );
  });

  it('shows a live incident as a banner, and two failures in a row as not answering', async () => {
    const page = await getPage(site.app, `/servers/${DEMO_TODAY.incident}`);
    expect(page.text).toContain('role="alert"');
    const text = textOf(page.text);
    expect(text).toContain('Live incident');
    expect(text).toContain('confirmed by our own check');
    expect(page.text).toContain('data-status="down"');
    expect(text).toContain('Our last 2 hourly checks failed in a row');
  });

  it('holds back a single failed hourly check under the second-failure rule', async () => {
    const page = await getPage(site.app, `/servers/${DEMO_TODAY.heldBack}`);
    expect(page.text).toContain('data-status="answering"');
    expect(page.text).toContain('data-held-back');
    expect(textOf(page.text)).toContain('the status changes only from the second failure in a row');
    expect(page.text).not.toContain('data-incident');
  });

  it('says "answers, but not as a standard MCP endpoint" for the web page member', async () => {
    const page = await getPage(site.app, '/servers/homepage');
    expect(page.text).toContain('data-status="non_standard"');
    const text = textOf(page.text);
    expect(text).toContain('answers, but not as a standard MCP endpoint');
    expect(text).toContain('an HTTP 400, 405, 406, 415 or 422');
    expect(text).toContain('its daily letter is still d');
  });

  it('shows stars only when the rating is visible', async () => {
    const rated = textOf((await getPage(site.app, `/servers/${DEMO_TODAY.rated}`)).text);
    const rating = site.view().byId.get(DEMO_TODAY.rated)!.rating;
    expect(rating.visible).toBe(true);
    expect(rated).toContain(`${rating.stars!.toFixed(1)} of 5 stars`);
    expect(rated).toContain('from 3 reporters');
    const unrated = await getPage(site.app, '/servers/tickets');
    expect(unrated.text).toContain('data-stars="hidden"');
    expect(textOf(unrated.text)).toContain('not enough reports.');
    expect(unrated.text).not.toContain('of 5 stars');
  });

  it('lists the tools with their risk level and the rule that set it, and the change days with tool-by-tool diffs', async () => {
    const page = await getPage(site.app, '/servers/tickets');
    const text = textOf(page.text);
    expect(text).toContain(
      'delete_ticket Permanently deletes a ticket and its messages. high-risk rule 1: The tool declares destructiveHint: true.',
    );
    expect(text).toContain('list_tickets Lists support tickets by status. read-only rule 3');
    expect(text).toContain('reply_ticket');
    // The member changed 4 days before the end of the 31-day month: day index 27, 2026-11-26.
    expect(text).toContain('2026-11-26');
    expect(text).toContain('added: delete_ticket');
    expect(text).toContain('rise in risk: delete_ticket added as high-risk');
    expect(text).toContain('silent: the server reported the same version');
  });

  it('shows findings, the token estimate, success chance and stability', async () => {
    const view = site.view();
    const translate = view.byId.get('translate')!;
    const page = await getPage(site.app, '/servers/translate');
    const text = textOf(page.text);
    expect(page.text).toContain('data-finding="slow"');
    expect(text).toContain(`about ${translate.latest!.tokens} tokens`);
    expect(text).toContain(`${(translate.successChance * 100).toFixed(1)}%`);
    const tickets = textOf((await getPage(site.app, '/servers/tickets')).text);
    // One change day in the last 30: 1 / (1 + 0.5 x 1).
    expect(tickets).toContain('Stability of the tool list 0.67 1 change day in the last 30 days');
  });

  it('waits for 6 hours with a result before showing the hour-of-day profile', async () => {
    const pending = textOf((await getPage(site.app, `/servers/${DEMO_TODAY.incident}`)).text);
    expect(pending).toContain('appears once 6 hours of the day have a result; 2 so far');
    const hours = (count: number): HourResult[] =>
      Array.from({ length: count }, (_, h) => ({
        letter: h === 3 ? 'd' : 'o',
        at: `2026-11-29T${String(h * 2).padStart(2, '0')}:10:00Z`,
      }));
    const appWithProfile = (count: number) => {
      const view = site.view();
      const server = { ...view.byId.get('notes')!, hourProfile: viewHourProfile(hours(count)) };
      const changed: AtlasView = {
        ...view,
        servers: view.servers.map((s) => (s.id === 'notes' ? server : s)),
        byId: new Map(view.byId).set('notes', server),
      };
      return createHttpApp({
        getView: () => changed,
        storage: site.storage,
        publicKey: site.outcome.keys.publicKey,
        now: () => new Date(),
        methodologyVersion: METHODOLOGY_VERSION,
        appVersion: APP_VERSION,
        botUserAgent: 'bot',
        validateLicense: async () => false,
        reporterSecret: new Uint8Array(32),
      });
    };
    const five = await getPage(appWithProfile(5), '/servers/notes');
    expect(five.text).toContain('data-hour-profile="pending"');
    expect(textOf(five.text)).toContain('5 so far');
    const six = await getPage(appWithProfile(6), '/servers/notes');
    expect(six.text).toContain('data-hour-profile="shown"');
    expect(six.text).toContain('aria-label="06:00 UTC: d"');
    expect(six.text).toContain('aria-label="10:00 UTC: o"');
    expect(six.text).toContain('aria-label="12:00 UTC: no result yet"');
  });

  it('gives a badge and widget snippet naming the service’s public URL, whatever loopback name the request used', async () => {
    const app = site.appAt(
      createSiteAddress({ publicUrl: 'https://atlas.example.test', bindHost: '127.0.0.1', port: 8787 }),
    );
    for (const url of ['https://atlas.example.test/servers/notes', 'http://localhost:8787/servers/notes']) {
      const page = await getPage(app, url);
      expect(page.status, url).toBe(200);
      expect(page.text).toContain(
        '[![mcp-atlas status of Notebook](https://atlas.example.test/badge/notes.svg)](https://atlas.example.test/servers/notes)',
      );
      expect(page.text).toContain('&lt;iframe src=&quot;https://atlas.example.test/widget/notes&quot;');
      expect(page.text).toContain('<img src="/badge/notes.svg"');
      expect(page.text).not.toContain('localhost');
    }
  });

  it('answers an unknown or malformed id with a 404 page', async () => {
    for (const path of ['/servers/nobody-here', '/servers/NOT_AN_ID', '/widget/nobody-here']) {
      const page = await getPage(site.app, path);
      expect(page.status, path).toBe(404);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('<h1>Not found</h1>');
    }
  });
});

describe('the catalog on the pages', () => {
  // The demo's directories (src/demo/demo-directories.ts) list the notebook three times under three spellings of
  // its repository, the weather and vault servers on Glama too, the ledger on the awesome list, and three servers
  // no watched member is: a Glama-only one that left on day 20, a local one and a Docker image.
  it('shows on the notebook’s page the three directories that reported it, with links', async () => {
    const page = await getPage(site.app, '/servers/notes');
    const section = page.text.slice(
      page.text.indexOf('data-reported-by'),
      page.text.indexOf('</section>', page.text.indexOf('data-reported-by')),
    );
    expect([...section.matchAll(/data-source="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'official-registry',
      'glama',
      'awesome-mcp-servers',
    ]);
    expect(section).toContain('href="https://glama.ai/mcp/servers/n0tes"');
    expect(section).toContain('href="https://github.com/atlas-demo/notes"');
    expect(section).toContain('href="https://www.npmjs.com/package/@atlas-demo/notes"');
    expect(textOf(section)).toContain('3 directories listed this server');
    // A member no directory but the registry lists has one row; one with no registry entry has no section.
    expect((await getPage(site.app, '/servers/calendar')).text.match(/data-source=/g)).toHaveLength(1);
    expect((await getPage(site.app, '/servers/inbox')).text).not.toContain('data-reported-by');
  });

  it('gives the sources and the external pages in the API', async () => {
    const response = await site.app.request('/api/servers/notes');
    const body = (await response.json()) as {
      sources: { source: string; id: string; listsNow: boolean }[];
      external_urls: object;
    };
    expect(body.sources.map((seen) => [seen.source, seen.id, seen.listsNow])).toEqual([
      ['official-registry', 'io.github.atlas-demo/notes', true],
      ['glama', 'n0tes', true],
      ['awesome-mcp-servers', 'atlas-demo/notes', true],
    ]);
    expect(body.external_urls).toEqual({
      glama: 'https://glama.ai/mcp/servers/n0tes',
      npm: 'https://www.npmjs.com/package/@atlas-demo/notes',
    });
  });

  it('lists the whole catalog in the API, checked and listed-only servers alike, a page at a time', async () => {
    type Page = {
      day: string;
      total: number;
      next: string | null;
      servers: { key: string; checkedAs: string | null; active: boolean; sources: { source: string }[] }[];
    };
    const get = async (query: string) => (await (await site.app.request(`/api/catalog${query}`)).json()) as Page;
    const all = await get('');
    // 13 servers, the deactivated Glama-only one left out by default; the local server is listed, never checked.
    expect(all.total).toBe(12);
    const local = all.servers.find((server) => server.key === 'https://github.com/atlas-demo/local-files');
    expect(local).toMatchObject({ checkedAs: null, active: true, sources: [{ source: 'awesome-mcp-servers' }] });
    expect(all.servers.find((server) => server.key === 'https://github.com/atlas-demo/notes')?.checkedAs).toBe('notes');
    expect((await get('?state=deactivated')).servers.map((server) => server.key)).toEqual([
      'https://github.com/atlas-demo/retired-tool',
    ]);
    expect((await get('?state=all')).total).toBe(13);
    expect((await get('?source=glama')).servers.map((server) => server.key)).toEqual([
      'https://github.com/atlas-demo/notes',
      'https://github.com/atlas-demo/vault',
      'https://github.com/atlas-demo/weather',
    ]);
    // Pages of 5 in key order add up to the whole list, each key once.
    const keys: string[] = [];
    let page = await get('?limit=5');
    for (;;) {
      keys.push(...page.servers.map((server) => server.key));
      if (page.next === null) break;
      page = await get(`?limit=5&after=${encodeURIComponent(page.next)}`);
    }
    expect(keys).toEqual(all.servers.map((server) => server.key));
    const refused = await site.app.request('/api/catalog?source=npm');
    expect(refused.status).toBe(400);
    expect((await site.app.request('/api/catalog?limit=0')).status).toBe(400);
  });

  it('counts on the state page the servers of each directory and their overlap', async () => {
    const text = textOf((await getPage(site.app, '/')).text);
    // 10 registry entries, 3 more only directories list; the Glama-only one left on day 20 and is deactivated.
    expect(text).toContain(
      'holds 12 active servers (1 deactivated server, kept with its history), merged from 4 directories',
    );
    // Registry 10 (6 only there: calendar, codehost, files, translate, warehouse, paywall), Glama 3, Docker Hub 1
    // (only there), the awesome list 3 (the local one only there).
    expect(text).toContain('Official MCP Registry 10 6');
    expect(text).toContain('Glama 3 0');
    expect(text).toContain('Docker Hub MCP catalog 1 1');
    expect(text).toContain('awesome-mcp-servers 3 1');
    expect(text).toContain('Official MCP Registry and Glama 3');
    expect(text).toContain('Official MCP Registry and awesome-mcp-servers 2');
    expect(text).toContain('Glama and awesome-mcp-servers 1');
  });
});

describe('the server list, the most-reliable lists and the tool search page', () => {
  it('lists every server with its status and uptime', async () => {
    const page = await getPage(site.app, '/servers');
    for (const server of site.view().servers) expect(page.text).toContain(`data-server="${server.id}"`);
    expect(textOf(page.text)).toContain('15 servers watched');
    expect((await getPage(site.app, '/servers?page=2')).status).toBe(400);
  });

  it('ranks the answering servers of each category, each on its own list', async () => {
    const page = await getPage(site.app, '/reliable');
    for (const ranking of site.view().rankings) {
      expect(page.text).toContain(`data-category="${ranking.category}"`);
      for (const server of ranking.ranked) expect(page.text).toContain(`data-server="${server.id}"`);
    }
    // The flaky member is down today, and the sign-in and payment members list no tools: none is ranked.
    for (const id of ['files', 'vault', 'paywall', 'moved', 'homepage'])
      expect(page.text).not.toContain(`data-server="${id}"`);
    expect(textOf(page.text)).toContain('at least 14 observed daily results');
  });

  it('answers the search form with the same results as /api/toolsearch', async () => {
    const api = (await (await site.app.request('/api/toolsearch?q=weather%20forecast&risk=read&limit=3')).json()) as {
      results: { serverId: string; tool: string }[];
    };
    const page = await getPage(site.app, '/search?q=weather+forecast&risk=read&limit=3');
    expect(page.status).toBe(200);
    const hits = [...page.text.matchAll(/data-hit="([^"]+)"/g)].map((m) => m[1]);
    expect(hits).toEqual(api.results.map((r) => `${r.serverId}/${r.tool}`));
    expect(hits[0]).toBe('weather/get_forecast');
    expect(page.text).toContain('value="weather forecast"');
    expect(page.text).toContain('<option value="read" selected="">');
  });

  it('shows the empty form without a query, and refuses a bad query with a 400 page that says why', async () => {
    const empty = await getPage(site.app, '/search');
    expect(empty.status).toBe(200);
    expect(empty.text).not.toContain('data-results');
    const bad = await getPage(site.app, '/search?q=notes&limit=1000');
    expect(bad.status).toBe(400);
    expect(textOf(bad.text)).toContain('limit: must be a whole number from 1 to 100');
    const twice = await getPage(site.app, '/search?q=a&q=b');
    expect(twice.status).toBe(400);
    expect(textOf(twice.text)).toContain('q: given 2 times; give it once');
  });
});

describe('the badge and the widget', () => {
  it('draws a short valid SVG badge with the status and the uptime figure, cacheable for a few minutes', async () => {
    const response = await site.app.request('/badge/homepage.svg');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const svg = await response.text();
    expect(XMLValidator.validate(svg)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg) as {
      svg: { title: string; '@_aria-label': string };
    };
    expect(parsed.svg.title).toBe('mcp-atlas: non-standard | 0.0%');
    expect(parsed.svg['@_aria-label']).toBe(parsed.svg.title);
  });

  it('answers an unknown server with a grey "unknown" badge and status 200, so an image proxy shows it', async () => {
    const response = await site.app.request('/badge/nobody.svg');
    expect(response.status).toBe(200);
    const svg = await response.text();
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('<title>mcp-atlas: unknown</title>');
    expect((await site.app.request('/badge/notes.png')).status).toBe(404);
  });

  it('serves the widget as a small page that may be framed anywhere', async () => {
    const page = await getPage(site.app, '/widget/notes');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(textOf(page.text)).toContain('Notebook answering with tools 100.0% 30-day uptime (daily checks)');
    expect((await getPage(site.app, '/')).headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('budgets', () => {
  it('keeps every page under 100 KB, each methodology page included', async () => {
    const paths = [
      '/',
      '/servers',
      '/reliable',
      '/search?q=create+a+note',
      '/methodology',
      '/methodology/score',
      '/methodology/operations',
      '/widget/notes',
      '/badge/notes.svg',
      ...site.view().servers.map((s) => `/servers/${s.id}`),
    ];
    // Size only: how fast a page renders is measured by the benchmarks (bench/), never by a test, so that a
    // busy machine cannot fail it.
    for (const path of paths) {
      const response = await site.app.request(path);
      const bytes = (await response.arrayBuffer()).byteLength;
      expect(response.status, path).toBe(200);
      expect(bytes, path).toBeLessThan(PAGE_BUDGET_BYTES);
    }
  });
});
