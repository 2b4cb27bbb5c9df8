import { describe, expect, it } from 'vitest';
import { type RankableServer, ReliabilityInputError, rankMostReliable } from '../src/index.js';
import { countTopPlaces, findListingGaps } from '../src/ranking.js';

function server(id: string, overrides: Partial<RankableServer> = {}): RankableServer {
  return {
    id,
    url: `https://${id}.example/mcp`,
    category: 'search',
    answeringNow: true,
    letters: 'o'.repeat(20),
    handshakeMs: 300,
    ...overrides,
  };
}

function idsOf(servers: readonly RankableServer[], category = 'search'): string[] {
  return (
    rankMostReliable(servers)
      .find((c) => c.category === category)
      ?.ranked.map((r) => r.id) ?? []
  );
}

describe('who is listed', () => {
  it('needs answering now, a category and 14 observed days', () => {
    expect(findListingGaps(server('a'))).toEqual([]);
    expect(findListingGaps(server('a', { answeringNow: false }))).toEqual(['not_answering']);
    expect(findListingGaps(server('a', { category: null }))).toEqual(['no_category']);
    expect(findListingGaps(server('a', { category: '' }))).toEqual(['no_category']);
    expect(findListingGaps(server('a', { letters: 'o'.repeat(13) }))).toEqual(['too_few_days']);
    expect(findListingGaps(server('a', { letters: 'o'.repeat(13) + 'n'.repeat(17) }))).toEqual(['too_few_days']);
    expect(findListingGaps(server('a', { letters: 'o'.repeat(14) + 'n'.repeat(16) }))).toEqual([]);
    expect(findListingGaps(server('a', { letters: 'd'.repeat(14) }))).toEqual([]); // observed, even if down
    expect(findListingGaps(server('a', { answeringNow: false, category: null, letters: '' }))).toEqual([
      'not_answering',
      'no_category',
      'too_few_days',
    ]);
  });

  it('leaves out servers that are not listed', () => {
    const ranked = rankMostReliable([
      server('listed'),
      server('down-now', { answeringNow: false }),
      server('uncategorised', { category: null }),
      server('young', { letters: 'o'.repeat(13) }),
    ]);
    expect(ranked).toHaveLength(1);
    expect(ranked[0]?.ranked.map((r) => r.id)).toEqual(['listed']);
  });
});

describe('order within a category', () => {
  it('puts the highest share of observed days not d first', () => {
    expect(idsOf([server('b', { letters: `${'o'.repeat(13)}d` }), server('a', { letters: 'o'.repeat(14) })])).toEqual([
      'a',
      'b',
    ]);
    // n days are not in the share: 14 of 14 beats 29 of 30
    expect(
      idsOf([
        server('b', { letters: `${'o'.repeat(29)}d` }),
        server('a', { letters: 'o'.repeat(14) + 'n'.repeat(16) }),
      ]),
    ).toEqual(['a', 'b']);
  });

  it('breaks an exact share tie by the lower handshake time', () => {
    // 14 of 15 and 28 of 30 are the same share
    const a = server('a', { letters: `${'o'.repeat(14)}d`, handshakeMs: 250 });
    const b = server('b', { letters: `${'o'.repeat(28)}dd`, handshakeMs: 200 });
    expect(idsOf([a, b])).toEqual(['b', 'a']);
  });

  it('then by more observed days', () => {
    const a = server('a', { letters: 'o'.repeat(14) });
    const b = server('b', { letters: 'o'.repeat(20) });
    expect(idsOf([a, b])).toEqual(['b', 'a']);
  });

  it('then by the address, so ties are stable', () => {
    const a = server('a', { url: 'https://zeta.example/mcp' });
    const b = server('b', { url: 'https://alpha.example/mcp' });
    expect(idsOf([a, b])).toEqual(['b', 'a']);
    expect(idsOf([b, a])).toEqual(['b', 'a']);
  });

  it('reports rank, uptime, days and handshake for each listed server', () => {
    const [category] = rankMostReliable([server('a', { letters: `${'o'.repeat(13)}d`, handshakeMs: 420 })]);
    expect(category).toEqual({
      category: 'search',
      ranked: [
        {
          id: 'a',
          url: 'https://a.example/mcp',
          rank: 1,
          topTenth: false,
          uptime: 92.9,
          daysObserved: 14,
          handshakeMs: 420,
        },
      ],
    });
  });
});

describe('top 10%', () => {
  it('is the first tenth rounded up, from 10 ranked servers', () => {
    expect(countTopPlaces(0)).toBe(0);
    expect(countTopPlaces(9)).toBe(0);
    expect(countTopPlaces(10)).toBe(1);
    expect(countTopPlaces(11)).toBe(2);
    expect(countTopPlaces(20)).toBe(2);
    expect(countTopPlaces(21)).toBe(3);
    expect(countTopPlaces(100)).toBe(10);
    expect(countTopPlaces(101)).toBe(11);
  });

  function category(size: number): boolean[] {
    const servers = Array.from({ length: size }, (_, i) =>
      server(`s${String(i).padStart(2, '0')}`, { handshakeMs: 100 + i }),
    );
    return rankMostReliable(servers)[0]?.ranked.map((r) => r.topTenth) ?? [];
  }

  it('marks no one in a category of 9', () => {
    expect(category(9).filter(Boolean)).toHaveLength(0);
  });

  it('marks the first place in a category of 10', () => {
    expect(category(10).slice(0, 2)).toEqual([true, false]);
  });

  it('marks the first two places in a category of 11', () => {
    expect(category(11).slice(0, 3)).toEqual([true, true, false]);
  });

  it('counts only ranked servers toward the 10', () => {
    const servers = [
      ...Array.from({ length: 9 }, (_, i) => server(`s${i}`)),
      server('too-young', { letters: 'o'.repeat(5) }),
    ];
    expect(rankMostReliable(servers)[0]?.ranked.some((r) => r.topTenth)).toBe(false);
  });
});

describe('categories', () => {
  it('ranks each category on its own and sorts categories by name', () => {
    const result = rankMostReliable([
      server('w1', { category: 'weather', handshakeMs: 500 }),
      server('s1', { category: 'search' }),
      server('w2', { category: 'weather', handshakeMs: 100 }),
    ]);
    expect(result.map((c) => c.category)).toEqual(['search', 'weather']);
    expect(result[1]?.ranked.map((r) => [r.id, r.rank])).toEqual([
      ['w2', 1],
      ['w1', 2],
    ]);
  });

  it('returns no categories for no servers', () => {
    expect(rankMostReliable([])).toEqual([]);
  });
});

describe('bad input', () => {
  it('throws on a repeated id', () => {
    expect(() => rankMostReliable([server('a'), server('a')])).toThrow(/appears more than once/);
  });

  it('throws on a bad handshake time of a listed server, not of one left out', () => {
    expect(() => rankMostReliable([server('a', { handshakeMs: -1 })])).toThrow(/servers\[0\]\.handshakeMs/);
    expect(() => rankMostReliable([server('a', { handshakeMs: Number.NaN })])).toThrow(ReliabilityInputError);
    expect(rankMostReliable([server('a', { answeringNow: false, handshakeMs: Number.NaN })])).toEqual([]);
  });

  it('throws on bad letters, ids, urls and categories with the field named', () => {
    expect(() => rankMostReliable([server('a', { letters: 'oox' })])).toThrow(/servers\[0\]\.letters/);
    expect(() => rankMostReliable([server('')])).toThrow(/servers\[0\]\.id/);
    expect(() => rankMostReliable([server('a', { url: '' })])).toThrow(/servers\[0\]\.url/);
    expect(() => rankMostReliable([server('a', { category: 7 as unknown as string })])).toThrow(/category/);
    expect(() => rankMostReliable([server('a', { answeringNow: 'yes' as unknown as boolean })])).toThrow(
      /answeringNow/,
    );
    expect(() => rankMostReliable(null as unknown as RankableServer[])).toThrow(ReliabilityInputError);
  });
});
