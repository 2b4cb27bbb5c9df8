// The server page's 90-day charts: the drawing helpers at their edges, and the page drawn from a hand-written
// 90-day series (writeSeriesObservatory) through the real view and app. Every count below is worked out from
// that fixture's description: 5 days missing, one `n`, two down, one partial five-minute day, the rest up.
import { describe, expect, it } from 'vitest';
import {
  consecutiveRuns,
  HANDSHAKE_BOX,
  type HandshakePoint,
  handshakePointsOf,
  handshakeScaleTop,
  uptimeDaysSummary,
} from '../src/pages/server-charts.js';
import { appOver, getPage, SERIES_DAY, writeSeriesObservatory } from './pages-fixtures.js';

describe('handshakeScaleTop', () => {
  it('rounds the highest 95th percentile up to 1, 2 or 5 times a power of ten, at least 100 ms', () => {
    const cases: [number, number][] = [
      [0, 100],
      [100, 100],
      [101, 200],
      [430, 500],
      [500, 500],
      [501, 1000],
      [1000, 1000],
      [2001, 5000],
      [5001, 10000],
    ];
    for (const [highest, top] of cases) expect(handshakeScaleTop(highest), String(highest)).toBe(top);
  });
});

describe('uptimeDaysSummary', () => {
  const day = (status: 'up' | 'partial' | 'down' | 'none') => ({
    day: '2026-11-29',
    status,
    percent: null,
    source: null,
    checks: 0,
  });

  it('counts the days with a result and names only the kinds that occur', () => {
    expect(uptimeDaysSummary([day('up'), day('up'), day('none')])).toBe('Up on 2 of 2 days with a result.');
    expect(uptimeDaysSummary([day('up'), day('partial'), day('down'), day('none')])).toBe(
      'Up on 1 of 3 days with a result, partly up on 1, down on 1.',
    );
    expect(uptimeDaysSummary([day('none'), day('none')])).toBe('No check counted in the last 2 days.');
  });
});

describe('handshakePointsOf and consecutiveRuns', () => {
  const closed = (day: string, p50Ms: number, p95Ms: number) => ({
    day,
    letter: 'o' as const,
    dailyMs: null,
    handshake: { p50Ms, p95Ms, samples: 3 },
  });

  it('places the window’s first day at the left edge and its last at the right, 0 ms at the bottom', () => {
    // The window of 90 days ending 2026-11-29 starts 2026-09-01.
    const points = handshakePointsOf(
      [closed('2026-09-01', 0, 500), closed('2026-11-29', 250, 500), closed('2026-08-31', 1, 1)],
      '2026-11-29',
      500,
    );
    const { left, width, right, top, height, bottom } = HANDSHAKE_BOX;
    expect(points.map((p) => [p.day, p.x, p.p50Y, p.p95Y])).toEqual([
      ['2026-09-01', left, height - bottom, top],
      ['2026-11-29', width - right, (top + height - bottom) / 2, top],
    ]);
  });

  it('leaves out open days and days closed without a figure, and splits the line at a missing day', () => {
    const points = handshakePointsOf(
      [
        closed('2026-11-25', 100, 200),
        closed('2026-11-26', 100, 200),
        { day: '2026-11-27', letter: 'd', dailyMs: null, handshake: null },
        closed('2026-11-28', 100, 200),
        { day: '2026-11-29', letter: 'o', dailyMs: 90 },
      ],
      '2026-11-29',
      200,
    );
    expect(points.map((p) => p.day)).toEqual(['2026-11-25', '2026-11-26', '2026-11-28']);
    expect(consecutiveRuns(points).map((run) => run.map((p: HandshakePoint) => p.day))).toEqual([
      ['2026-11-25', '2026-11-26'],
      ['2026-11-28'],
    ]);
  });
});

describe('the server page over a 90-day series', () => {
  it('draws a bar per day by its status, both handshake lines and the table', async () => {
    const { app } = await appOver(await writeSeriesObservatory(), new Date(`${SERIES_DAY}T12:00:00Z`));
    const page = await getPage(app, '/servers/steady');
    expect(page.status).toBe(200);
    const statuses = [...page.text.matchAll(/data-day-status="(\w+)"/g)].map((m) => m[1]);
    expect(statuses).toHaveLength(90);
    const count = (status: string) => statuses.filter((s) => s === status).length;
    // Missing days 75 to 71 back and the `n` day 30 back: none; 40 and 12 back: down; 3 back: 280 of 288.
    expect([count('up'), count('partial'), count('down'), count('none')]).toEqual([81, 1, 2, 6]);
    expect(page.text).toContain('2026-11-26: 97.2% of 288 five-minute checks answered');
    expect(page.text).toContain('Up on 81 of 84 days with a result, partly up on 1, down on 2.');
    // 85 days in the series, the newest still open and the `n` day without a figure: 83 points per line, in three
    // runs (89 to 76, 70 to 31, 29 to 1 days back).
    const p50 = page.text.split('data-line="p50"')[1]?.split('</g>')[0] ?? '';
    expect(p50.match(/<circle/g)).toHaveLength(83);
    expect(p50.match(/<polyline/g)).toHaveLength(3);
    expect(page.text.match(/data-days-table/g)).toHaveLength(1);
    const rows = page.text.split('data-days-table')[1]?.split('</table>')[0]?.match(/<tr>/g) ?? [];
    // One header row and 90 day rows.
    expect(rows).toHaveLength(91);
  });
});
