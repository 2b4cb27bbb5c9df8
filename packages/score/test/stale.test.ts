import { describe, expect, it } from 'vitest';
import {
  ageInDays,
  decayStaticAnalysis,
  STALE_DECAY_FLOOR,
  STALE_DECAY_STEPS,
  staleDecayFactor,
} from '../src/stale.js';
import type { StaticAnalysis } from '../src/types.js';

describe('staleDecayFactor', () => {
  it('holds the Scoreboard page steps', () => {
    expect(STALE_DECAY_STEPS.map((s) => [s.maxDays, s.factor])).toEqual([
      [7, 1],
      [14, 0.97],
      [30, 0.9],
      [60, 0.75],
      [90, 0.55],
    ]);
    expect(STALE_DECAY_FLOOR).toBe(0.4);
  });

  it('steps at and around every boundary', () => {
    const cases: [number, number][] = [
      [-3, 1],
      [0, 1],
      [7, 1],
      [8, 0.97],
      [14, 0.97],
      [15, 0.9],
      [30, 0.9],
      [31, 0.75],
      [60, 0.75],
      [61, 0.55],
      [90, 0.55],
      [91, 0.4],
      [3650, 0.4],
    ];
    for (const [days, factor] of cases) expect(staleDecayFactor(days), `${days} days`).toBe(factor);
  });
});

describe('ageInDays', () => {
  it('counts whole days, dropping the fraction', () => {
    expect(ageInDays('2026-02-22T00:00:00Z', '2026-03-01T00:00:00Z')).toBe(7);
    expect(ageInDays('2026-02-22T00:00:01Z', '2026-03-01T00:00:00Z')).toBe(6);
    expect(ageInDays('2026-03-01T00:00:00Z', '2026-03-01T23:59:59Z')).toBe(0);
  });

  it('reads a time without an offset as UTC, and an offset as given', () => {
    expect(ageInDays('2026-02-22T00:00:00', '2026-03-01T00:00:00Z')).toBe(7);
    expect(ageInDays('2026-02-22T02:00:00+02:00', '2026-03-01T00:00:00Z')).toBe(7);
  });

  it('is null for an unreadable time', () => {
    expect(ageInDays('last tuesday', '2026-03-01T00:00:00Z')).toBeNull();
    expect(ageInDays('2026-02-22T00:00:00Z', '')).toBeNull();
  });
});

describe('decayStaticAnalysis', () => {
  const analysis: StaticAnalysis = {
    schemaCompleteness: 85,
    descriptionQuality: 78,
    documentationCoverage: 72,
    maintenancePulse: 80,
    dependencyHealth: 75,
    licenseClarity: 100,
    versionHygiene: 65,
    details: { maintenance_pulse: { release_count: 2 } },
  };

  it('multiplies the seven sub-scores and truncates, keeping details', () => {
    expect(decayStaticAnalysis(analysis, 20)).toEqual({
      schemaCompleteness: 76, // 76.5
      descriptionQuality: 70, // 70.2
      documentationCoverage: 64, // 64.8
      maintenancePulse: 72,
      dependencyHealth: 67, // 67.5
      licenseClarity: 90,
      versionHygiene: 58, // 58.5
      details: analysis.details,
    });
    expect(analysis.schemaCompleteness).toBe(85);
  });

  it('keeps a repository part that was not measured as null', () => {
    const partial: StaticAnalysis = { ...analysis, maintenancePulse: null, versionHygiene: null };
    const decayed = decayStaticAnalysis(partial, 20);
    expect(decayed.maintenancePulse).toBeNull();
    expect(decayed.versionHygiene).toBeNull();
    expect(decayed.documentationCoverage).toBe(64);
  });

  it('changes nothing in the first week and floors at 0.40', () => {
    expect(decayStaticAnalysis(analysis, 7)).toEqual(analysis);
    expect(decayStaticAnalysis(analysis, 200).licenseClarity).toBe(40);
    expect(decayStaticAnalysis(analysis, 9).licenseClarity).toBe(97);
  });
});
