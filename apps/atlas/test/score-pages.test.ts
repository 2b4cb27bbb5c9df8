// The quality score on the pages: /leaderboard (order, "A (5/5)", tier, flags, links), the server page's score
// section (checklist, what would raise the score, flags, trend) and the grade badge; first over the HTTP fixture
// with hand-made scores files, then over the demo, whose days are scored by the service's own daily scoring.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageSightingOf } from '../src/pages/routes.js';
import { compareScoredServers } from '../src/score/shown-score.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { type RunningFixture, startFixture, VIEW_DAY, writeFixture } from './fixtures/http-atlas.js';
import { handScore, STAGING_FLAG, writeScores } from './fixtures/score-files.js';
import { buildDemoSite, type DemoSite, getPage, PAGE_BUDGET_BYTES } from './pages-fixtures.js';

const parser = new XMLParser({ ignoreAttributes: false, textNodeName: '#text' });

/** The page's text with tags removed and the common entities decoded, for reading sentences. */
function textOf(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** The ids of the leaderboard's rows, in page order. */
function rowIds(html: string): string[] {
  return [...html.matchAll(/<tr data-server="([^"]+)"/g)].map((m) => m[1] as string);
}

async function getText(url: string): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

describe('over hand-made scores', () => {
  let f: RunningFixture;
  beforeAll(async () => {
    const { storage, keys } = await writeFixture(createMemoryStorage(), 0, async (store) => {
      // notes-hub: two days, so its trend shows; limited with schema 80, protocol 100, security 70 (composite 83).
      await writeScores(store, '2026-11-29', [handScore('notes-hub', 'verified', 92)]);
      await writeScores(store, VIEW_DAY, [
        handScore('notes-hub', 'limited', 83, {
          dimensionsScored: 3,
          categories: {
            schemaQuality: 80,
            protocol: 100,
            reliability: null,
            docsMaintenance: null,
            security: 70,
            agentUsability: null,
          },
        }),
        handScore('ticket-yard', 'verified', 96),
        handScore('ledger-pay', 'limited', 55, { flags: [STAGING_FLAG], dimensionsScored: 3 }),
      ]);
    });
    f = await startFixture({ storage, keys });
  });
  afterAll(async () => {
    await f.close();
  });

  it('/leaderboard lists every server by tier, then score, with "A (5/5)", the tier and the flags, each linked', async () => {
    const page = await getText(`${f.base}/leaderboard`);
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    // verified 96, limited 83, limited 55, then the unscored by id.
    expect(rowIds(page.text)).toEqual([
      'ticket-yard',
      'notes-hub',
      'ledger-pay',
      'locked-crm',
      'odd-endpoint',
      'weather-desk',
    ]);
    const text = textOf(page.text);
    expect(text).toContain('A+ (5/5)');
    expect(text).toContain('B (3/5)');
    expect(text).toContain('Staging Endpoint');
    expect(text).toContain('not scored yet');
    expect(page.text).toContain('href="/servers/ticket-yard"');
    expect(page.text).toMatch(/<tr data-server="ledger-pay" data-tier="limited">/);
    expect(text).toContain('A+ from 95');
    expect(text).toContain('F below 40');
  });

  it('/leaderboard refuses a page that does not exist', async () => {
    expect((await getText(`${f.base}/leaderboard?page=2`)).status).toBe(400);
    expect((await getText(`${f.base}/leaderboard?page=x`)).status).toBe(400);
  });

  it('the server page shows the checklist, what would raise the score most, and the trend', async () => {
    const page = await getText(`${f.base}/servers/notes-hub`);
    expect(page.status).toBe(200);
    for (const [dimension, status] of [
      ['schemaQuality', 'scored'],
      ['protocol', 'scored'],
      ['reliability', 'pending'],
      ['docsMaintenance', 'pending'],
      ['security', 'scored'],
      ['agentUsability', 'not-applicable'],
    ])
      expect(page.text).toContain(`data-dimension="${dimension}" data-status="${status}"`);
    // As hand-computed in score-api.test.ts: security +9, schema +8, reliability +4 (only the first three shown).
    const raisers = [...page.text.matchAll(/data-raiser="([^"]+)"/g)].map((m) => m[1]);
    expect(raisers).toEqual(['security', 'schemaQuality', 'reliability']);
    const text = textOf(page.text);
    expect(text).toContain('B (3/5)');
    expect(text).toContain('Tier limited');
    expect(text).toContain('reliability is still pending: scored at its best it would add up to +4 points (to 87)');
    expect([...page.text.matchAll(/<tr data-day="([^"]+)"/g)].map((m) => m[1])).toEqual(['2026-11-29', VIEW_DAY]);
  });

  it('the server page says so when a server has no score, and lists its flags when it has some', async () => {
    expect(textOf((await getText(`${f.base}/servers/weather-desk`)).text)).toContain('has not been scored yet');
    const flagged = await getText(`${f.base}/servers/ledger-pay`);
    expect(flagged.text).toContain('data-flag="STAGING_ARTIFACT"');
    expect(textOf(flagged.text)).toContain('Staging Endpoint (warning) : caps the composite at 55');
    expect(flagged.text).toContain('data-raiser="STAGING_ARTIFACT"');
  });

  it('the grade badge is valid SVG with the grade and its dimensions, grey without a score, "unknown" for no server', async () => {
    const badge = await getText(`${f.base}/badge/ticket-yard/grade.svg`);
    expect(badge.status).toBe(200);
    expect(badge.type).toContain('image/svg+xml');
    expect(XMLValidator.validate(badge.text)).toBe(true);
    expect(parser.parse(badge.text).svg.title).toBe('mcp-atlas score: A+ (5/5)');
    expect(badge.text).toContain('fill="#1b5e20"');
    const none = await getText(`${f.base}/badge/weather-desk/grade.svg`);
    expect(parser.parse(none.text).svg.title).toBe('mcp-atlas score: not scored yet');
    expect(none.text).toContain('fill="#555555"');
    // A 200, so that an image proxy shows the badge instead of a broken image.
    const unknown = await getText(`${f.base}/badge/no-such-server/grade.svg`);
    expect(unknown.status).toBe(200);
    expect(parser.parse(unknown.text).svg.title).toBe('mcp-atlas score: unknown');
    const json = await getText(`${f.base}/badge/ticket-yard/grade.json`);
    expect(JSON.parse(json.text)).toEqual({
      schemaVersion: 1,
      label: 'mcp-atlas score',
      message: 'A+ (5/5)',
      color: '1b5e20',
      cacheSeconds: 300,
    });
  });
});

describe('pageSightingOf', () => {
  it('counts the grade badge as a sighting of the server badge, and the leaderboard as a page view', () => {
    expect(pageSightingOf('/badge/notes-hub/grade.svg')).toEqual({ kind: 'badge', key: 'notes-hub' });
    expect(pageSightingOf('/badge/notes-hub/grade.json')).toEqual({ kind: 'badge', key: 'notes-hub' });
    expect(pageSightingOf('/badge/notes-hub.json')).toEqual({ kind: 'badge', key: 'notes-hub' });
    expect(pageSightingOf('/badge/Not%20An%20Id/grade.svg')).toBeNull();
    expect(pageSightingOf('/badge/notes-hub/other.svg')).toBeNull();
    expect(pageSightingOf('/leaderboard')).toEqual({ kind: 'view', key: 'leaderboard' });
  });
});

describe('over the demo', () => {
  let site: DemoSite;
  // The demo's folder is made under the run's temp root (test/setup/temp-root.ts), which the run removes.
  beforeAll(async () => {
    site = await buildDemoSite(8);
  });

  it('grades every server that answered with tools on the newest day', async () => {
    const view = site.view();
    const answering = view.servers.filter((s) => s.latest?.letter === 'o');
    expect(answering.length).toBeGreaterThan(0);
    for (const server of answering) {
      const scored = view.scores.latest.get(server.id);
      expect(scored?.day, server.id).toBe(view.day);
      expect(scored?.score.grade, server.id).toMatch(/^(A\+|A|B|C|D|F)$/);
    }
  });

  it('/api/leaderboard and /leaderboard are ordered by tier, then score', async () => {
    const view = site.view();
    const response = await site.app.request('/api/leaderboard?limit=1000');
    const body = (await response.json()) as { servers: { id: string; visibilityLevel: string; gradeLabel: string }[] };
    const expected = view.servers
      .map((s) => ({ id: s.id, score: view.scores.latest.get(s.id)?.score ?? null }))
      .sort(compareScoredServers)
      .map((s) => s.id);
    expect(body.servers.map((r) => r.id)).toEqual(expected);
    const page = await getPage(site.app, '/leaderboard');
    expect(page.status).toBe(200);
    expect(rowIds(page.text)).toEqual(expected);
    for (const row of body.servers.filter((r) => r.visibilityLevel !== 'unscored'))
      expect(row.gradeLabel).toMatch(/^(A\+|A|B|C|D|F) \(\d\/\d\)$/);
  });

  it('the leaderboard and a scored server page stay within the page budget', async () => {
    const scored = [...site.view().scores.latest.keys()][0] as string;
    for (const path of ['/leaderboard', `/servers/${scored}`]) {
      const page = await getPage(site.app, path);
      expect(page.status, path).toBe(200);
      expect(Buffer.byteLength(page.text), path).toBeLessThan(PAGE_BUDGET_BYTES);
    }
  });
});
