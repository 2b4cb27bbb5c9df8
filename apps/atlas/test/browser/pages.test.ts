// Every page of the demo in a real browser (Debian's Chromium driven by playwright-core), served over
// loopback by the real app: each page loads, shows the real letters, figures and tool names, logs no console
// error, and leaves a screenshot in test-artifacts/screenshots (kept by CI, never committed). Pages are read
// with JavaScript off, since none needs it; a phone-sized pass checks layout and contrast, and the printed
// verification snippet is run with node and must print "verified".
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDaySeries } from '../../src/data/day-series-file.js';
import { createSiteAddress } from '../../src/http/site-address.js';
import { METHODOLOGY_VERSION } from '../../src/methodology.js';
import { listen } from '../../src/serve/listen.js';
import {
  appOver,
  buildDemoSite,
  DEMO_TODAY,
  type DemoSite,
  HOSTILE_CHANGES,
  HOSTILE_SERVER,
  PAGE_BUDGET_BYTES,
  SERIES_DAY,
  writeHandObservatory,
  writeSeriesObservatory,
} from '../pages-fixtures.js';
import { launchChromium } from './chromium.js';

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-artifacts', 'screenshots');

let site: DemoSite;
let base: string;
let hostileBase: string;
/** A server with a full 90-day day series, for the server page's charts. */
let seriesBase: string;
const servers: ServerType[] = [];
let browser: Browser;
/** JavaScript off: what a reader without scripts, or a text browser, gets. */
let plain: BrowserContext;
/** A phone: small viewport, touch, JavaScript on (for the layout and contrast measurements). */
let phone: BrowserContext;
const measured: string[] = [];

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  site = await buildDemoSite();
  // The app names the address it is served at (never a request's Host), so it is made once the port is known.
  let demoApp: Hono | null = null;
  const demo = await listen(
    (request, bindings) => demoApp!.fetch(request, bindings as Record<string, unknown>),
    0,
    '127.0.0.1',
  );
  servers.push(demo.server);
  demoApp = site.appAt(createSiteAddress({ bindHost: '127.0.0.1', port: demo.port }));
  base = `http://127.0.0.1:${demo.port}`;
  const { app: hostileApp } = await appOver(
    await writeHandObservatory('2026-11-29', [HOSTILE_SERVER], HOSTILE_CHANGES),
    new Date('2026-11-30T08:00:00Z'),
  );
  const hostile = await listen(hostileApp.fetch, 0, '127.0.0.1');
  servers.push(hostile.server);
  hostileBase = `http://127.0.0.1:${hostile.port}`;
  const { app: seriesApp } = await appOver(await writeSeriesObservatory(), new Date(`${SERIES_DAY}T12:00:00Z`));
  const seriesSite = await listen(seriesApp.fetch, 0, '127.0.0.1');
  servers.push(seriesSite.server);
  seriesBase = `http://127.0.0.1:${seriesSite.port}`;
  browser = await launchChromium();
  plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
});

afterAll(async () => {
  await browser?.close();
  for (const server of servers) {
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  if (measured.length > 0) console.log(`pages in Chromium (bytes, Server-Timing render):\n${measured.join('\n')}`);
});

interface Visit {
  page: Page;
  response: Response;
  /** Console errors, page errors and failed requests, in order. */
  errors: string[];
}

/**
 * Pages whose screenshot covers the first screen only: the longest methodology area is several screens long, and
 * a whole-page capture of a long page can outlast Playwright's 30 s limit on a loaded two-core machine.
 */
const FIRST_SCREEN_ONLY = new Set(['/methodology/score']);

/** Opens `path`, records every error the browser reports, checks the budgets, and takes a screenshot. */
async function visit(
  context: BrowserContext,
  path: string,
  shot: string,
  origin = base,
  fullPage = !FIRST_SCREEN_ONLY.has(path),
): Promise<Visit> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  page.on('requestfailed', (request) => errors.push(`request: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  const response = (await page.goto(`${origin}${path}`, { waitUntil: 'load' }))!;
  const bytes = (await response.body()).byteLength;
  const render = Number(/render;dur=([\d.]+)/.exec(response.headers()['server-timing'] ?? '')?.[1] ?? NaN);
  measured.push(`${path.padEnd(28)} ${String(bytes).padStart(7)} B  ${render.toFixed(1)} ms`);
  expect(bytes, path).toBeLessThan(PAGE_BUDGET_BYTES);
  // One request per page here, while Chromium itself takes CPU: the time is printed, and the render budget is
  // held in pages-demo.test.ts, which times each page over several requests.
  expect(Number.isFinite(render), path).toBe(true);
  await page.screenshot({ path: join(SCREENSHOTS, `${shot}.png`), fullPage });
  return { page, response, errors };
}

/** The landmarks and labels every full page has. */
async function expectAccessibleFrame(page: Page): Promise<void> {
  expect(await page.locator('html').getAttribute('lang')).toBe('en');
  expect(await page.locator('main').count()).toBe(1);
  expect(await page.locator('h1').count()).toBe(1);
  expect(await page.locator('header nav[aria-label]').count()).toBe(1);
  expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain('width=device-width');
  for (const img of await page.locator('img').all())
    expect((await img.getAttribute('alt'))?.length ?? 0).toBeGreaterThan(0);
  for (const svg of await page.locator('svg[role="img"]').all()) {
    const ids = ((await svg.getAttribute('aria-labelledby')) ?? '').split(' ');
    for (const id of ids) expect(await page.locator(`[id="${id}"]`).count(), id).toBe(1);
  }
}

describe('the demo in Chromium, JavaScript off', () => {
  it('state page: letters, the histogram, the day’s change and the root', async () => {
    const { page, response, errors } = await visit(plain, '/', 'state');
    expect(response.status()).toBe(200);
    await expectAccessibleFrame(page);
    for (const letter of ['o', 'a', 'p', 'd']) {
      const count = site.view().servers.filter((s) => site.outcome.letters.get(s.id)!.at(-1) === letter).length;
      expect(await page.locator(`tr[data-letter="${letter}"] td.num`).innerText(), letter).toBe(String(count));
    }
    expect(await page.locator('#histogram-title').textContent()).toBe(
      `Uptime distribution of ${site.view().servers.length} servers`,
    );
    expect(await page.locator('svg[aria-labelledby="histogram-title histogram-desc"] rect').count()).toBe(7);
    // The letters by day: 30 days, and the newest day's counts are the table's above.
    const chart = page.locator('[data-letters-by-day]');
    expect(await chart.locator('g[data-day]').count()).toBe(30);
    const newest = chart.locator('tbody tr').last();
    const lastLetters = site.view().servers.map((s) => site.outcome.letters.get(s.id)!.at(-1));
    expect(await newest.locator('td.num').first().textContent()).toBe(
      String(lastLetters.filter((letter) => letter === 'o').length),
    );
    expect(await chart.locator('rect[data-letter="d"]').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'File share (flaky)' }).count()).toBe(1);
    expect(await page.locator('[data-root]').innerText()).toBe(site.view().roots.get('2026-11-29')!.root);
    expect(errors).toEqual([]);
  });

  it('the verification snippet printed on the state page prints "verified" when run', async () => {
    const page = await plain.newPage();
    await page.goto(`${base}/`);
    const snippet = await page.locator('code[data-verify-snippet]').textContent();
    const file = join(await mkdtemp(join(tmpdir(), 'atlas-verify-')), 'verify.mjs');
    await writeFile(file, snippet!);
    const { stdout } = await promisify(execFile)(process.execPath, [file]);
    expect(stdout.trim()).toBe('verified');
  });

  it('server list: every server with its status', async () => {
    const { page, errors } = await visit(plain, '/servers', 'servers');
    await expectAccessibleFrame(page);
    expect(await page.locator('tr[data-server]').count()).toBe(site.view().servers.length);
    expect(errors).toEqual([]);
  });

  it('server pages: each shows its 30 letters, status, uptime and tools', async () => {
    for (const server of site.view().servers) {
      const { page, response, errors } = await visit(plain, `/servers/${server.id}`, `server-${server.id}`);
      expect(response.status(), server.id).toBe(200);
      await expectAccessibleFrame(page);
      expect(await page.locator('h1').innerText()).toBe(server.title);
      expect(await page.locator('ol.strip li').count(), server.id).toBe(30);
      expect((await page.locator('ol.strip li').allInnerTexts()).join('')).toBe(server.letters);
      expect(await page.locator('[data-figure="uptime"] dt').innerText()).toBe(`Uptime, ${server.uptime.label}`);
      // The 90-day charts, from the day series the demo's real folds wrote.
      expect(await page.locator('[data-uptime-days-chart] rect[data-day]').count(), server.id).toBe(90);
      const series = (await readDaySeries(site.storage, server.id)) ?? [];
      const closed = series.filter((day) => day.handshake !== null && day.handshake !== undefined).length;
      expect(await page.locator('[data-handshake-chart] g[data-line="p50"] circle').count(), server.id).toBe(closed);
      // The flaky member (down every fourth day) and the one with five-minute checks, for the closing note.
      if (server.id === 'files' || server.id === 'maps')
        await page
          .locator('section[data-server-days]')
          .screenshot({ path: join(SCREENSHOTS, `server-days-${server.id}.png`) });
      const names = (server.catalog?.verdicts ?? []).map((v) => v.name);
      expect(await page.locator('tr[data-tool] code').allInnerTexts(), server.id).toEqual(names);
      for (const verdict of server.catalog?.verdicts ?? []) {
        expect(await page.locator(`tr[data-tool="${verdict.name}"] .pill`).innerText()).toBe(verdict.level);
        expect(await page.locator(`tr[data-tool="${verdict.name}"] td`).nth(2).innerText()).toContain(
          `rule ${verdict.rule}`,
        );
      }
      expect(errors, server.id).toEqual([]);
    }
  });

  it('server page: 90 days of uptime and handshake times drawn as inline SVG under the CSP', async () => {
    const { page, response, errors } = await visit(plain, '/servers/steady', 'server-days-steady', seriesBase);
    expect(response.headers()['content-security-policy']).toContain("default-src 'none'");
    await expectAccessibleFrame(page);
    const uptime = page.locator('figure[data-uptime-days-chart] svg');
    expect(await uptime.isVisible()).toBe(true);
    expect((await uptime.boundingBox())?.width ?? 0).toBeGreaterThan(100);
    expect(await uptime.locator('rect[data-day]').count()).toBe(90);
    expect(await uptime.locator('rect[data-day-status="partial"]').count()).toBe(1);
    const handshake = page.locator('figure[data-handshake-chart] svg');
    expect(await handshake.isVisible()).toBe(true);
    // 83 closed days with figures per line (see writeSeriesObservatory), in three runs of consecutive days.
    expect(await handshake.locator('g[data-line="p50"] circle').count()).toBe(83);
    expect(await handshake.locator('g[data-line="p95"] polyline').count()).toBe(3);
    expect(await page.locator('[data-days-table] tbody tr').count()).toBe(90);
    await page.locator('section[data-server-days]').screenshot({ path: join(SCREENSHOTS, 'server-days-charts.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('server pages: the incident banner, the held-back failure, the non-standard wording and the stars', async () => {
    const incident = await plain.newPage();
    await incident.goto(`${base}/servers/${DEMO_TODAY.incident}`);
    expect(await incident.getByRole('alert').innerText()).toContain('Live incident');
    expect(await incident.locator('.status').innerText()).toBe('not answering');
    const heldBack = await plain.newPage();
    await heldBack.goto(`${base}/servers/${DEMO_TODAY.heldBack}`);
    expect(await heldBack.locator('.status').innerText()).toBe('answering with tools');
    expect(await heldBack.locator('[data-held-back]').innerText()).toContain('first failure in a row');
    const homepage = await plain.newPage();
    await homepage.goto(`${base}/servers/homepage`);
    expect(await homepage.locator('.status').innerText()).toBe('answers, but not as a standard MCP endpoint');
    const rated = await plain.newPage();
    await rated.goto(`${base}/servers/${DEMO_TODAY.rated}`);
    expect(await rated.locator('[data-stars]').innerText()).toMatch(/^\d\.\d of 5 stars/);
    const tickets = await plain.newPage();
    await tickets.goto(`${base}/servers/tickets`);
    expect(await tickets.locator('[data-stars]').innerText()).toBe('not enough reports.');
    expect(await tickets.locator('li[data-risk-rise]').innerText()).toBe(
      'rise in risk: delete_ticket added as high-risk',
    );
  });

  it('server page and state page: the directories that reported a server, and the counts per directory', async () => {
    const { page, errors } = await visit(plain, '/servers/notes', 'server-reported-by');
    const table = page.getByRole('region', { name: 'Reported by' }).getByRole('table');
    expect(await table.locator('tbody tr').count()).toBe(3);
    expect(await table.getByRole('link', { name: 'Glama' }).getAttribute('href')).toBe(
      'https://glama.ai/mcp/servers/n0tes',
    );
    expect(await table.getByRole('link', { name: 'awesome-mcp-servers' }).getAttribute('href')).toBe(
      'https://github.com/atlas-demo/notes',
    );
    expect(errors).toEqual([]);
    const state = await visit(plain, '/', 'state-directories');
    const counts = state.page.locator('[data-catalog-counts]');
    expect(await counts.locator('tr[data-source="glama"] td.num').first().innerText()).toBe('3');
    expect(await counts.locator('tr[data-source-count="3"] td').last().innerText()).toBe('1');
    expect(state.errors).toEqual([]);
  });

  it('most reliable: one table per category', async () => {
    const { page, errors } = await visit(plain, '/reliable', 'reliable');
    await expectAccessibleFrame(page);
    for (const ranking of site.view().rankings)
      expect(await page.locator(`section[data-category="${ranking.category}"] tr[data-server]`).count()).toBe(
        ranking.ranked.length,
      );
    expect(await page.getByRole('link', { name: 'Notebook' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('tool search: the form submits and shows results without JavaScript', async () => {
    const { page, errors } = await visit(plain, '/search', 'search-empty');
    await expectAccessibleFrame(page);
    await page.getByLabel('What should the tool do?').fill('weather forecast');
    await page.getByLabel('Risk levels').selectOption('read');
    await Promise.all([
      page.waitForURL(/\/search\?q=weather\+forecast&risk=read/),
      page.getByRole('button', { name: 'Search' }).click(),
    ]);
    expect(await page.locator('li[data-hit] code').first().innerText()).toBe('get_forecast');
    expect(await page.locator('#results-heading').innerText()).toContain('for “weather forecast”');
    await page.screenshot({ path: join(SCREENSHOTS, 'search-results.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('methodology: the contents with its version, and an area reached from it', async () => {
    const { page, errors } = await visit(plain, '/methodology', 'methodology');
    await expectAccessibleFrame(page);
    expect(await page.locator('h1').innerText()).toBe('mcp-atlas methodology');
    expect(await page.locator('[data-methodology-version]').innerText()).toContain(
      `methodology version ${METHODOLOGY_VERSION}`,
    );
    await Promise.all([
      page.waitForURL(/\/methodology\/risk$/),
      page.getByRole('link', { name: 'Tool risk levels' }).click(),
    ]);
    await expectAccessibleFrame(page);
    expect(await page.locator('h1#tool-risk-levels').innerText()).toBe('Tool risk levels');
    expect(await page.locator('h2#the-eight-rules').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('methodology: the longest area, with a link back to the contents', async () => {
    const { page, errors } = await visit(plain, '/methodology/score', 'methodology-score');
    await expectAccessibleFrame(page);
    expect(await page.locator('h1').innerText()).toBe('Quality score');
    expect(await page.getByRole('link', { name: 'All areas of the methodology' }).getAttribute('href')).toBe(
      '/methodology',
    );
    expect(errors).toEqual([]);
  });

  it('widget: status, labelled uptime and letters in a small page', async () => {
    const { page, errors } = await visit(plain, '/widget/notes', 'widget-notes');
    expect(await page.locator('main').count()).toBe(1);
    expect(await page.locator('[data-status]').innerText()).toBe('answering with tools');
    expect(await page.locator('[data-uptime]').innerText()).toBe('100.0% 30-day uptime (daily checks)');
    expect(await page.locator('ol.mini li').count()).toBe(30);
    expect(errors).toEqual([]);
  });

  it('badge: an SVG the browser renders and its XML parser accepts', async () => {
    const { page, response, errors } = await visit(plain, '/badge/homepage.svg', 'badge-homepage', base, false);
    expect(response.headers()['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers()['cache-control']).toBe('public, max-age=300');
    expect(errors).toEqual([]);
    await page.close();
    const svg = await (await fetch(`${base}/badge/homepage.svg`)).text();
    const checker = await phone.newPage();
    const parsed = await checker.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        errors: doc.getElementsByTagName('parsererror').length,
        root: doc.documentElement.nodeName,
        title: doc.querySelector('title')?.textContent,
      };
    }, svg);
    expect(parsed).toEqual({
      errors: 0,
      root: 'svg',
      title: 'mcp-atlas: non-standard | 0.0%',
    });
  });

  it('leaderboard: at least four grades, with badges and the link to the score-drop feed', async () => {
    const { page, errors } = await visit(plain, '/leaderboard', 'leaderboard');
    await expectAccessibleFrame(page);
    const grades = new Set(
      (await page.locator('tr[data-server] td:nth-child(3)').allInnerTexts()).map((text) => text.split(' ')[0]),
    );
    expect(grades.size, [...grades].join(', ')).toBeGreaterThanOrEqual(4);
    expect(await page.locator('tr[data-server] [data-score-badges] li').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-score-drop-feed] a[type="application/atom+xml"]').getAttribute('href')).toBe(
      '/score-drops.atom',
    );
    expect(errors).toEqual([]);
  });

  it('server pages: each scored one shows its badges, its uptime windows and its trend chart', async () => {
    const scored = site.view().servers.filter((server) => site.view().scores.latest.has(server.id));
    expect(scored.length).toBeGreaterThan(0);
    for (const server of scored) {
      const { page, errors } = await visit(plain, `/servers/${server.id}`, `server-score-${server.id}`);
      const score = site.view().scores.latest.get(server.id)?.score;
      const badges = Object.values(score?.badges ?? {}).flat();
      expect(await page.locator('section[data-score] [data-score-badges] li').count(), server.id).toBe(badges.length);
      if (badges.length > 0)
        expect(await page.locator('section[data-score] [data-score-badges]').isVisible(), server.id).toBe(true);
      expect(await page.locator('[data-uptime-windows]').innerText(), server.id).toContain('over 30 days');
      // The chart is drawn by the browser under the page's CSP: a visible SVG with one dot per scored day.
      const chart = page.locator('figure[data-score-trend-chart] svg');
      expect(await chart.isVisible(), server.id).toBe(true);
      const box = await chart.boundingBox();
      expect(box?.width ?? 0, server.id).toBeGreaterThan(100);
      const scoredDays = (site.view().scores.trends.get(server.id) ?? []).filter((p) => p.compositeScore !== null);
      expect(await chart.locator('circle[data-day]').count(), server.id).toBe(scoredDays.length);
      expect(errors, server.id).toEqual([]);
      await page.close();
    }
    // At least one member has badges, so the check above saw some drawn.
    expect(
      scored.some(
        (server) => Object.values(site.view().scores.latest.get(server.id)?.score.badges ?? {}).flat().length > 0,
      ),
    ).toBe(true);
  });

  it('score-drop feed: Atom that the browser’s XML parser accepts', async () => {
    const response = await fetch(`${base}/score-drops.atom`);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const checker = await phone.newPage();
    const parsed = await checker.evaluate(
      (text) => {
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        return {
          errors: doc.getElementsByTagName('parsererror').length,
          root: doc.documentElement.localName,
          namespace: doc.documentElement.namespaceURI,
          entries: doc.getElementsByTagName('entry').length,
        };
      },
      await response.text(),
    );
    await checker.close();
    const drops = (await (await fetch(`${base}/api/score-drops`)).json()) as { drops: unknown[] };
    expect(parsed).toEqual({
      errors: 0,
      root: 'feed',
      namespace: 'http://www.w3.org/2005/Atom',
      entries: drops.drops.length,
    });
  });

  it('unknown server: a 404 page (the 404 status is the only error the browser reports)', async () => {
    const { page, response, errors } = await visit(plain, '/servers/nobody-here', 'not-found');
    expect(response.status()).toBe(404);
    await expectAccessibleFrame(page);
    expect(await page.locator('h1').innerText()).toBe('Not found');
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 404 (Not Found)']);
  });
});

describe('on a phone, JavaScript on', () => {
  const paths = [
    '/',
    '/servers',
    '/servers/tickets',
    '/servers/files',
    '/reliable',
    '/search?q=create+a+note',
    '/methodology',
    '/methodology/score',
  ];

  it.each(paths)('%s fits the screen and its coloured labels keep a 4.5:1 contrast', async (path) => {
    const { page, errors } = await visit(
      phone,
      path,
      `phone-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'state'}`,
    );
    const layout = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      width: window.innerWidth,
    }));
    expect(layout.scroll, path).toBeLessThanOrEqual(layout.width);
    // Every image (the badge on a server page) loaded and has a size.
    const widths = await page
      .locator('img')
      .evaluateAll((images) => images.map((img) => (img as HTMLImageElement).naturalWidth));
    if (path.startsWith('/servers/')) expect(widths, path).toHaveLength(1);
    for (const width of widths) expect(width, path).toBeGreaterThan(0);
    const ratios = await page.evaluate(() => {
      const luminance = (rgb: string) => {
        const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
          const c = Number(v) / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        }) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      return Array.from(document.querySelectorAll('.pill, ol.strip li, ol.hours li, .legend .cell, button')).map(
        (element) => {
          const style = getComputedStyle(element);
          const [a, b] = [luminance(style.color), luminance(style.backgroundColor)];
          return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        },
      );
    });
    for (const ratio of ratios) expect(ratio, path).toBeGreaterThanOrEqual(4.5);
    expect(errors, path).toEqual([]);
  });
});

describe('hostile tool names in a real browser, JavaScript on and the CSP bypassed', () => {
  it('render as text: no script element, no dialog, the names readable as written', async () => {
    // Bypassing the Content-Security-Policy leaves escaping as the only defence, which is what is tested.
    const context = await browser.newContext({ bypassCSP: true });
    const dialogs: string[] = [];
    for (const path of ['/', '/servers/hostile', '/search?q=finds+things', '/widget/hostile']) {
      const { page, errors } = await visit(
        context,
        path,
        `hostile-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'state'}`,
        hostileBase,
      );
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.mouse.move(200, 400);
      expect(await page.evaluate(() => document.querySelectorAll('script, iframe, marquee, blink').length), path).toBe(
        0,
      );
      expect(errors, path).toEqual([]);
    }
    const page = await context.newPage();
    await page.goto(`${hostileBase}/servers/hostile`);
    expect(await page.locator('tr[data-tool] code').allInnerTexts()).toEqual([
      '<script>alert(2)</script>',
      'x" onmouseover="alert(4)',
    ]);
    expect(await page.locator('h1').innerText()).toBe('<img src=x onerror=alert(1)>Hostile & Co');
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
