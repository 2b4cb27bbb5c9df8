// The public score-drop feed: every server's falls of 10 points or more, read from the days' signed scores files,
// served for real on loopback as JSON (GET /api/score-drops) and Atom (GET /score-drops.atom), for every server or
// one. Also the owner's feed, which reads the same rule, and the Atom text on hand-made entries.
import { GRADE_RULES } from '@mcp-atlas/score/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOwnerAlerts } from '../src/data/owner-alerts.js';
import { renderScoreDropAtom, type ScoreDropFeed, xmlText } from '../src/http/score-drop-feed.js';
import { findScoreDrops } from '../src/score/score-alerts.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJsonAt, type RunningFixture, startFixture, VIEW_DAY, writeFixture } from './fixtures/http-atlas.js';
import { handScore, writeScores } from './fixtures/score-files.js';

/** The origin the fixture's app names itself by (loopback, with no public URL set). */
const ORIGIN = 'http://localhost';

/** notes-hub's drop of the view day, as both feeds and the owner's alerts give it. */
const NOTES_DROP = {
  day: VIEW_DAY,
  previousDay: '2026-11-28',
  from: 92,
  to: 80,
  drop: 12,
  fromGrade: 'A',
  toGrade: 'B',
};

let f: RunningFixture;
beforeAll(async () => {
  const { storage, keys } = await writeFixture(createMemoryStorage(), 0, async (store) => {
    // notes-hub: 92 -> 80 (12 points) from 2026-11-28 to 2026-11-30, with no score on 2026-11-29 between.
    // ticket-yard: 95 -> 85 (10: a drop) -> 76 (9: none). locked-crm rises. weather-desk has one day only.
    await writeScores(store, '2026-11-28', [
      handScore('notes-hub', 'verified', 92),
      handScore('ticket-yard', 'verified', 95),
      handScore('locked-crm', 'assessed', 50),
    ]);
    await writeScores(store, '2026-11-29', [
      handScore('ticket-yard', 'verified', 85),
      handScore('locked-crm', 'assessed', 60),
    ]);
    await writeScores(store, VIEW_DAY, [
      handScore('notes-hub', 'verified', 80),
      handScore('ticket-yard', 'verified', 76),
      handScore('locked-crm', 'assessed', 75),
      handScore('weather-desk', 'complete', 70),
    ]);
  });
  f = await startFixture({ storage, keys });
});
afterAll(async () => {
  await f.close();
});

describe('GET /api/score-drops', () => {
  it('lists every server’s drops of the trend’s days, newest day first', async () => {
    expect(GRADE_RULES.dropAlertPoints).toBe(10);
    const { status, headers, body } = await getJsonAt(`${f.base}/api/score-drops`);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(body).toMatchObject({ day: VIEW_DAY, days: 30, atom: `${ORIGIN}/score-drops.atom` });
    expect(body.drops).toEqual([
      {
        serverId: 'notes-hub',
        title: 'Notes Hub',
        url: 'https://notes-hub.example.test/mcp',
        page: `${ORIGIN}/servers/notes-hub`,
        ...NOTES_DROP,
      },
      expect.objectContaining({ serverId: 'ticket-yard', day: '2026-11-29', from: 95, to: 85, drop: 10 }),
    ]);
  });

  it('gives one server’s drops with `server`, an empty list for a server that has none', async () => {
    const one = await getJsonAt(`${f.base}/api/score-drops?server=ticket-yard`);
    expect(one.body.drops.map((d: { day: string }) => d.day)).toEqual(['2026-11-29']);
    expect(one.body.atom).toBe(`${ORIGIN}/score-drops.atom?server=ticket-yard`);
    const none = await getJsonAt(`${f.base}/api/score-drops?server=locked-crm`);
    expect(none).toMatchObject({ status: 200, body: { drops: [] } });
  });

  it.each([
    ['server=nobody-here', 404, 'unknown_server'],
    ['server=Not%20An%20Id', 400, 'invalid_query'],
    ['since=2026-11-01', 400, 'invalid_query'],
    ['server=a&server=b', 400, 'invalid_query'],
  ])('refuses %s with %i and a clear code', async (query, status, code) => {
    for (const path of ['/api/score-drops', '/score-drops.atom']) {
      const answer = await getJsonAt(`${f.base}${path}?${query}`);
      expect(answer.status, path).toBe(status);
      expect(answer.body.error.code, path).toBe(code);
    }
  });
});

describe('GET /score-drops.atom', () => {
  it('is an Atom feed of the same drops, each linking to the server page', async () => {
    const response = await fetch(`${f.base}/score-drops.atom`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">')).toBe(
      true,
    );
    // The feed is as new as its newest drop, measured at that day's last second.
    expect(xml).toContain(`<updated>${VIEW_DAY}T23:59:59Z</updated>\n  <author>`);
    expect(xml.match(/<entry>/g)).toHaveLength(2);
    expect(xml).toContain(`<id>${ORIGIN}/servers/notes-hub#score-drop-${VIEW_DAY}</id>`);
    expect(xml).toContain(`<link rel="alternate" type="text/html" href="${ORIGIN}/servers/notes-hub"/>`);
    expect(xml).toContain(`<title>Notes Hub: score 92 → 80</title>`);
    expect(xml).toContain(`<link rel="self" type="application/atom+xml" href="${ORIGIN}/score-drops.atom"/>`);
  });
});

describe('the leaderboard page', () => {
  it('links to both forms of the feed and counts its drops', async () => {
    const html = await (await fetch(`${f.base}/leaderboard`)).text();
    expect(html).toContain('<a href="/score-drops.atom" type="application/atom+xml">');
    expect(html).toContain('<a href="/api/score-drops">JSON</a> (2 drops in the last 30 days).');
  });
});

describe('the Atom text', () => {
  it('escapes the five XML characters and drops the characters XML forbids', () => {
    expect(xmlText(`a < b & "c" 'd' > e`)).toBe('a &lt; b &amp; &quot;c&quot; &apos;d&apos; &gt; e');
    expect(xmlText('bell\u0007 nul\u0000 tab\t ok \uFFFE')).toBe('bell nul tab\t ok ');
  });

  it('writes a hostile title as text, and an empty feed dated by its day', () => {
    const feed: ScoreDropFeed = {
      day: '2026-12-04',
      days: 30,
      atom: 'https://atlas.example/score-drops.atom',
      drops: [
        {
          serverId: 'evil',
          title: '</title><script>alert(1)</script>',
          url: 'https://evil.example/mcp',
          page: 'https://atlas.example/servers/evil',
          day: '2026-12-04',
          previousDay: '2026-12-03',
          from: 90,
          to: 40,
          drop: 50,
          fromGrade: 'A',
          toGrade: '',
        },
      ],
    };
    const xml = renderScoreDropAtom(feed, 'https://atlas.example', undefined);
    expect(xml).not.toContain('<script>');
    expect(xml).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;: score 90 → 40</title>');
    expect(xml).toContain('to 40 (no grade) on 2026-12-04.</summary>');
    const empty = renderScoreDropAtom({ ...feed, drops: [] }, 'https://atlas.example', 'evil');
    expect(empty).toContain('<updated>2026-12-04T23:59:59Z</updated>');
    expect(empty).toContain('<title>mcp-atlas: quality score drops of evil</title>');
    expect(empty).not.toContain('<entry>');
  });
});

describe('the owner’s feed reads the same rule', () => {
  it('finds the view day’s drop across a day without a score, and none at 9 points', async () => {
    const drops = await findScoreDrops(f.storage, VIEW_DAY, [
      handScore('notes-hub', 'verified', 80),
      handScore('ticket-yard', 'verified', 76),
    ]);
    expect(drops).toEqual([
      {
        serverId: 'notes-hub',
        alert: NOTES_DROP,
      },
    ]);
    // No owner is verified in the fixture, so nothing was written to owners' alerts.
    expect((await readOwnerAlerts(f.storage)).servers).toEqual({});
  });
});
