import { describe, expect, it } from 'vitest';
import { type DayScanFacts, findUnfinishedPart } from '../src/index.js';

/** A day whose scan started, with 3 shards: servers in shards 0, 1, 1 and 2. */
function facts(overrides: Partial<DayScanFacts> = {}): DayScanFacts {
  return {
    scanStarted: true,
    skippedByCap: 0,
    index: { shards: 3, serverShards: [0, 1, 1, 2] },
    shardsWithFile: new Set([0, 1, 2]),
    ...overrides,
  };
}

describe('the finished-day rule', () => {
  it('a day on which no scan started is finished, whatever else it holds', () => {
    expect(findUnfinishedPart(facts({ scanStarted: false, skippedByCap: null, index: null }))).toBeNull();
  });

  it('a started scan needs its summary, then its index', () => {
    expect(findUnfinishedPart(facts({ skippedByCap: null }))).toEqual({ missing: 'summary' });
    expect(findUnfinishedPart(facts({ skippedByCap: null, index: null }))).toEqual({ missing: 'summary' });
    expect(findUnfinishedPart(facts({ index: null }))).toEqual({ missing: 'index' });
  });

  it('every shard with its file is finished', () => {
    expect(findUnfinishedPart(facts())).toBeNull();
    expect(findUnfinishedPart(facts({ index: { shards: 0, serverShards: [] }, shardsWithFile: new Set() }))).toBeNull();
  });

  it('missing shards are finished only when they hold exactly the servers the cap skipped', () => {
    const missingTwo = { shardsWithFile: new Set([0]) };
    // Shards 1 and 2 hold 3 servers.
    expect(findUnfinishedPart(facts({ ...missingTwo, skippedByCap: 3 }))).toBeNull();
    expect(findUnfinishedPart(facts({ ...missingTwo, skippedByCap: 2 }))).toEqual({
      missing: 'shards',
      shards: [1, 2],
      serversInMissing: 3,
      skippedByCap: 2,
      leftAtStop: 0,
    });
    expect(findUnfinishedPart(facts({ ...missingTwo, skippedByCap: 4 }))).toEqual({
      missing: 'shards',
      shards: [1, 2],
      serversInMissing: 3,
      skippedByCap: 4,
      leftAtStop: 0,
    });
  });

  it('missing shards are finished when the cap and a closed stop together account for their servers', () => {
    const missingTwo = { shardsWithFile: new Set([0]) };
    // Shards 1 and 2 hold 3 servers: the cap skipped 1 and the stop left 2, or the stop left all 3.
    expect(findUnfinishedPart(facts({ ...missingTwo, skippedByCap: 1, leftAtStop: 2 }))).toBeNull();
    expect(findUnfinishedPart(facts({ ...missingTwo, skippedByCap: 0, leftAtStop: 3 }))).toBeNull();
    expect(findUnfinishedPart(facts({ ...missingTwo, skippedByCap: 0, leftAtStop: 2 }))).toEqual({
      missing: 'shards',
      shards: [1, 2],
      serversInMissing: 3,
      skippedByCap: 0,
      leftAtStop: 2,
    });
    expect(findUnfinishedPart(facts({ ...missingTwo, skippedByCap: 1, leftAtStop: 3 }))).toMatchObject({
      serversInMissing: 3,
      leftAtStop: 3,
    });
  });

  it('a lost shard with nothing skipped is partial', () => {
    expect(findUnfinishedPart(facts({ shardsWithFile: new Set([0, 2]) }))).toEqual({
      missing: 'shards',
      shards: [1],
      serversInMissing: 2,
      skippedByCap: 0,
      leftAtStop: 0,
    });
  });

  it('an empty missing shard matches a cap that skipped nothing', () => {
    const index = { shards: 3, serverShards: [0, 1] };
    expect(findUnfinishedPart(facts({ index, shardsWithFile: new Set([0, 1]) }))).toBeNull();
    expect(findUnfinishedPart(facts({ index, shardsWithFile: new Set([0, 1]), skippedByCap: 1 }))).toEqual({
      missing: 'shards',
      shards: [2],
      serversInMissing: 0,
      skippedByCap: 1,
      leftAtStop: 0,
    });
  });

  it('files for shards the index does not list change nothing', () => {
    expect(findUnfinishedPart(facts({ shardsWithFile: new Set([0, 1, 2, 3, 7]) }))).toBeNull();
  });
});
