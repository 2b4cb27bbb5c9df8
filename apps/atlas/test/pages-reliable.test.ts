// The most-reliable lists over hand-written observatories: who is listed, in what order, and which places get
// the top-10% mark (the first tenth, rounded up, in categories of at least 10 ranked servers).
import { describe, expect, it } from 'vitest';
import { appOver, getPage, type HandServer, writeHandObservatory } from './pages-fixtures.js';

const DAY = '2026-11-29';
const NOW = new Date('2026-11-30T08:00:00Z');

/** `count` answering servers of `category`, each with 20 observed days and a slower handshake than the one before. */
function category(name: string, count: number): HandServer[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${name}-${String(i + 1).padStart(2, '0')}`,
    letters: 'o'.repeat(20),
    category: name,
    handshakeMs: 100 + i * 10,
  }));
}

async function reliablePage(servers: HandServer[]): Promise<string> {
  const { app } = await appOver(await writeHandObservatory(DAY, servers), NOW);
  const page = await getPage(app, '/reliable');
  expect(page.status).toBe(200);
  return page.text;
}

/** The ids in one category's table, in order, with whether each row carries the mark. */
function rowsOf(html: string, name: string): { id: string; top: boolean }[] {
  const section = new RegExp(`data-category="${name}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
  return [...section.matchAll(/<tr data-server="([^"]+)">([\s\S]*?)<\/tr>/g)].map((m) => ({
    id: m[1]!,
    top: m[2]!.includes('data-top'),
  }));
}

describe('most reliable by category', () => {
  it.each([
    // ranked servers -> marked places: none below 10, then ceil(n / 10)
    [9, 0],
    [10, 1],
    [11, 2],
    [20, 2],
    [21, 3],
  ])('%i ranked servers: %i marked top 10%', async (count, marked) => {
    const rows = rowsOf(await reliablePage(category('search', count)), 'search');
    expect(rows).toHaveLength(count);
    expect(rows.filter((r) => r.top).map((r) => r.id)).toEqual(rows.slice(0, marked).map((r) => r.id));
  });

  it('orders by share of answering days, then by handshake time', async () => {
    const servers: HandServer[] = [
      { id: 'fast-but-flaky', letters: `d${'o'.repeat(19)}`, category: 'maps', handshakeMs: 50 },
      { id: 'slow-and-steady', letters: 'o'.repeat(20), category: 'maps', handshakeMs: 900 },
      { id: 'quick-and-steady', letters: 'o'.repeat(20), category: 'maps', handshakeMs: 120 },
    ];
    expect(rowsOf(await reliablePage(servers), 'maps').map((r) => r.id)).toEqual([
      'quick-and-steady',
      'slow-and-steady',
      'fast-but-flaky',
    ]);
  });

  it('leaves out servers with fewer than 14 observed days, without a category, or not answering now', async () => {
    const servers: HandServer[] = [
      { id: 'listed', letters: 'o'.repeat(14), category: 'docs' },
      { id: 'too-new', letters: 'o'.repeat(13), category: 'docs' },
      { id: 'no-category', letters: 'o'.repeat(20), category: null },
      { id: 'down-today', letters: `${'o'.repeat(19)}d`, category: 'docs' },
    ];
    const html = await reliablePage(servers);
    expect(rowsOf(html, 'docs').map((r) => r.id)).toEqual(['listed']);
    for (const id of ['too-new', 'no-category', 'down-today']) expect(html).not.toContain(`data-server="${id}"`);
  });

  it('says so when no server qualifies', async () => {
    expect(await reliablePage([{ id: 'young', letters: 'ooo', category: 'docs' }])).toContain(
      'No server qualifies yet.',
    );
  });
});
