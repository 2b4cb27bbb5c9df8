import { describe, expect, it } from 'vitest';
import type { CategoryScores, VisibilityLevel } from '../src/types.js';
import {
  applicableDimensions,
  compareForLeaderboard,
  DIMENSIONS,
  decideVisibility,
  dimensionChecklist,
  MIN_DIMENSIONS_FOR_COMPOSITE,
  VISIBILITY_LEVELS,
  visibilityRank,
} from '../src/visibility.js';

const none: CategoryScores = {
  schemaQuality: null,
  protocol: null,
  reliability: null,
  docsMaintenance: null,
  security: null,
  agentUsability: null,
};
const five: CategoryScores = {
  ...none,
  schemaQuality: 80,
  protocol: 90,
  reliability: 95,
  docsMaintenance: 70,
  security: 83,
};
const remote = { isRemote: true, hasSandboxProbe: false, hasReliabilityData: true, hasDeepProbe: true };
const local = { isRemote: false, hasSandboxProbe: false, hasReliabilityData: false, hasDeepProbe: false };

function level(categories: CategoryScores, context: typeof remote) {
  const v = decideVisibility({ categories, ...context });
  return [v.visibilityLevel, v.dimensionsScored, v.dimensionsApplicable];
}

describe('applicableDimensions', () => {
  it('gives a local server 3, one with a sandbox probe 4, a monitored remote 5, with agent usability 6', () => {
    const count = (a: Record<string, boolean>) => Object.values(a).filter(Boolean).length;
    const base = { isRemote: false, hasSandboxProbe: false, hasReliabilityData: false, hasAgentUsability: false };
    expect(count(applicableDimensions(base))).toBe(3);
    expect(count(applicableDimensions({ ...base, hasSandboxProbe: true }))).toBe(4);
    expect(count(applicableDimensions({ ...base, hasReliabilityData: true }))).toBe(3); // reliability needs a remote
    expect(count(applicableDimensions({ ...base, isRemote: true }))).toBe(4); // no probe history yet
    expect(count(applicableDimensions({ ...base, isRemote: true, hasReliabilityData: true }))).toBe(5);
    expect(
      count(applicableDimensions({ ...base, isRemote: true, hasReliabilityData: true, hasAgentUsability: true })),
    ).toBe(6);
  });
});

describe('decideVisibility', () => {
  it('is complete with every applicable dimension and agent usability', () => {
    expect(level({ ...five, agentUsability: 70 }, remote)).toEqual(['complete', 6, 6]);
  });

  it('is verified with every applicable dimension and a live probe', () => {
    expect(level(five, remote)).toEqual(['verified', 5, 5]);
    const sandboxed = { ...local, hasSandboxProbe: true };
    expect(level({ ...five, reliability: null }, sandboxed)).toEqual(['verified', 4, 4]);
  });

  it('is assessed with every applicable dimension and no live probe', () => {
    expect(level({ ...none, schemaQuality: 80, docsMaintenance: 70, security: 90 }, local)).toEqual(['assessed', 3, 3]);
  });

  it('counts a protocol score beyond the applicable ones, as the engine does (4/3)', () => {
    expect(level({ ...five, reliability: null }, { ...local, hasDeepProbe: true })).toEqual(['verified', 4, 3]);
  });

  it('is limited with two or more dimensions but a gap', () => {
    expect(level({ ...five, reliability: null }, remote)).toEqual(['limited', 4, 5]);
    expect(
      level(
        { ...none, schemaQuality: 14, docsMaintenance: 84, security: 83 },
        { ...remote, hasReliabilityData: false, hasDeepProbe: false },
      ),
    ).toEqual(['limited', 3, 4]);
    expect(level({ ...none, security: 80, agentUsability: 70 }, remote)).toEqual(['limited', 2, 6]);
  });

  it('is unscored with fewer than two dimensions', () => {
    expect(MIN_DIMENSIONS_FOR_COMPOSITE).toBe(2);
    expect(level({ ...none, security: 30 }, { ...remote, hasReliabilityData: false, hasDeepProbe: false })).toEqual([
      'unscored',
      1,
      4,
    ]);
    expect(level(none, local)).toEqual(['unscored', 0, 3]);
  });

  it('needs a protocol score for a live probe', () => {
    const v = decideVisibility({ categories: { ...five, protocol: null }, ...remote });
    expect(v.visibilityLevel).toBe('limited');
  });
});

describe('dimensionChecklist', () => {
  it('marks scored, pending and not applicable', () => {
    const v = decideVisibility({ categories: { ...five, reliability: null }, ...remote });
    expect(dimensionChecklist({ ...five, reliability: null }, v.applicable)).toEqual({
      schemaQuality: 'scored',
      protocol: 'scored',
      reliability: 'pending',
      docsMaintenance: 'scored',
      security: 'scored',
      agentUsability: 'not-applicable',
    });
    const l = decideVisibility({ categories: { ...none, security: 90 }, ...local });
    expect(dimensionChecklist({ ...none, security: 90 }, l.applicable)).toEqual({
      schemaQuality: 'pending',
      protocol: 'not-applicable',
      reliability: 'not-applicable',
      docsMaintenance: 'pending',
      security: 'scored',
      agentUsability: 'not-applicable',
    });
    expect(DIMENSIONS).toHaveLength(6);
  });
});

describe('leaderboard order', () => {
  it('ranks tiers complete > verified > assessed > limited > unscored', () => {
    expect(VISIBILITY_LEVELS).toEqual(['complete', 'verified', 'assessed', 'limited', 'unscored']);
    expect(VISIBILITY_LEVELS.map(visibilityRank)).toEqual([0, 1, 2, 3, 4]);
  });

  it('sorts by tier, then composite, a missing composite last', () => {
    const rows: { id: string; visibilityLevel: VisibilityLevel; compositeScore: number | null }[] = [
      { id: 'a', visibilityLevel: 'limited', compositeScore: 99 },
      { id: 'b', visibilityLevel: 'verified', compositeScore: 70 },
      { id: 'c', visibilityLevel: 'unscored', compositeScore: null },
      { id: 'd', visibilityLevel: 'verified', compositeScore: 88 },
      { id: 'e', visibilityLevel: 'complete', compositeScore: 60 },
      { id: 'f', visibilityLevel: 'unscored', compositeScore: null },
      { id: 'g', visibilityLevel: 'assessed', compositeScore: 95 },
    ];
    expect(rows.sort(compareForLeaderboard).map((r) => r.id)).toEqual(['e', 'd', 'b', 'g', 'a', 'c', 'f']);
  });
});
