// The owner view in a real browser (Debian's Chromium, JavaScript off): the verified owner of a real loopback MCP
// server asks for an access token, fills the /owner form with it, and reads their alerts, demand, reports and
// score; a wrong token gets the form back with a 401 and nothing of the view. Screenshots go to
// test-artifacts/screenshots (kept by CI, never committed).
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOwnerAlerts } from '../../src/data/owner-alerts.js';
import { SERVERS_PATH } from '../../src/data/paths.js';
import { putJson } from '../../src/storage/storage.js';
import { postJson } from '../fixtures/http-atlas.js';
import { type OwnerHost, startOwnerHost, startWorld, type World } from '../fixtures/submission-world.js';
import { launchChromium } from './chromium.js';

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-artifacts', 'screenshots');
const START = '2026-05-04T00:10:00.000Z';
const FROM = { 'x-forwarded-for': '198.51.100.44' };
const ID = 'recipe-box';

let world: World;
let host: OwnerHost;
let browser: Browser;
let plain: BrowserContext;
let accessToken: string;

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  host = await startOwnerHost();
  world = await startWorld(START);
  await putJson(world.storage, SERVERS_PATH, {
    servers: [{ id: ID, url: host.url, title: 'Recipe Box', source: 'registry' }],
  });
  expect(await world.tickAt(START)).toContain('daily');
  const token = await postJson(`${world.base}/api/owners/token`, { server: ID }, FROM);
  host.state.verifyFile = `${token.body.token}\n`;
  expect((await postJson(`${world.base}/api/owners/verify`, { server: ID }, FROM)).status).toBe(200);
  accessToken = (await postJson(`${world.base}/api/owners/access`, { server: ID }, FROM)).body.accessToken;
  await writeOwnerAlerts(world.storage, {
    servers: {
      [ID]: {
        open: false,
        alerts: [],
        scoreDrops: [
          { day: '2026-05-03', previousDay: '2026-05-02', from: 88, to: 70, drop: 18, fromGrade: 'B', toGrade: 'C' },
        ],
      },
    },
  });
  browser = await launchChromium();
  plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  await world?.close();
  await host?.close();
});

/** Opens the form, fills it and submits it; returns the page after the answer loaded, with its errors. */
async function submit(server: string, token: string, shot: string) {
  const page = await plain.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  const form = await page.goto(`${world.base}/owner`, { waitUntil: 'load' });
  expect(form?.status()).toBe(200);
  await page.fill('#owner-server', server);
  await page.fill('#owner-token', token);
  const [answer] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'load' }),
    page.click('button[type="submit"]'),
  ]);
  await page.screenshot({ path: join(SCREENSHOTS, `${shot}.png`), fullPage: true });
  return { page, status: answer?.status(), errors };
}

describe('the owner view in Chromium', () => {
  it('shows the verified owner their alerts, demand, reports and score with their access token', async () => {
    const { page, status, errors } = await submit(ID, accessToken, 'owner-view');
    expect(status).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('Recipe Box: owner view');
    expect(await page.locator('[data-owner-score-drops] tbody tr').count()).toBe(1);
    expect(await page.locator('[data-owner-score-drops] tbody tr td').allInnerTexts()).toEqual([
      '2026-05-03',
      '88 (B)',
      '70 (C)',
      '18',
    ]);
    expect(await page.locator('[data-owner-reports]').innerText()).toContain('0 reports');
    expect(await page.locator('[data-owner-section="owner-webhook"]').innerText()).toContain('No webhook set.');
    for (const section of [
      'owner-alerts',
      'owner-demand',
      'owner-reports',
      'owner-changes',
      'owner-webhook',
      'owner-score',
    ])
      expect(await page.locator(`[data-owner-section="${section}"]`).isVisible(), section).toBe(true);
    // The token was posted, never put in the address.
    expect(page.url()).toBe(`${world.base}/owner`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses a wrong token: the form again, a 401, and nothing of the view', async () => {
    const { page, status, errors } = await submit(ID, `${accessToken.slice(0, -2)}zz`, 'owner-view-refused');
    expect(status).toBe(401);
    expect(await page.locator('[data-refused]').isVisible()).toBe(true);
    expect(await page.locator('[data-owner-section]').count()).toBe(0);
    // The 401 status is the only error the browser reports.
    expect(errors.every((e) => e.includes('401'))).toBe(true);
    await page.close();
  });
});
