import type { SearchHit } from '@mcp-atlas/route';
import { describe, expect, it } from 'vitest';
import { createSearchCache } from '../src/http/search-cache.js';
import type { AtlasView } from '../src/view/build-view.js';

const viewA = {} as AtlasView;
const viewB = {} as AtlasView;
const hit = (tool: string): SearchHit[] => [{ serverId: 's', tool, description: '', level: 'read-only', score: 1 }];

describe('the tool-search cache', () => {
  it('answers a repeated search of the same view from memory', () => {
    const cache = createSearchCache(10);
    cache.set(viewA, 'q', hit('a'));
    expect(cache.get(viewA, 'q')).toEqual(hit('a'));
  });
  it('never answers a search of a newer view from an older one', () => {
    const cache = createSearchCache(10);
    cache.set(viewA, 'q', hit('a'));
    expect(cache.get(viewB, 'q')).toBeUndefined();
  });
  it('drops the least recently used answer when full', () => {
    const cache = createSearchCache(2);
    cache.set(viewA, 'one', hit('1'));
    cache.set(viewA, 'two', hit('2'));
    cache.get(viewA, 'one');
    cache.set(viewA, 'three', hit('3'));
    expect(cache.get(viewA, 'two')).toBeUndefined();
    expect(cache.get(viewA, 'one')).toEqual(hit('1'));
    expect(cache.get(viewA, 'three')).toEqual(hit('3'));
  });
  it('keeps nothing when its size is 0', () => {
    const cache = createSearchCache(0);
    cache.set(viewA, 'q', hit('a'));
    expect(cache.get(viewA, 'q')).toBeUndefined();
  });
});
