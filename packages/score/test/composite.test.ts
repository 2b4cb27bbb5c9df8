import { describe, expect, it } from 'vitest';
import { applyFlagCaps, computeComposite, ENHANCED_WEIGHTS, STANDARD_WEIGHTS } from '../src/composite.js';
import { FLAG_SCORE_CAPS } from '../src/flags.js';
import { GRADE_THRESHOLDS, gradeFor } from '../src/grade.js';
import type { CategoryScores } from '../src/types.js';

const none: CategoryScores = {
  schemaQuality: null,
  protocol: null,
  reliability: null,
  docsMaintenance: null,
  security: null,
  agentUsability: null,
};

describe('weights', () => {
  it('are the engine 0.9.0 sets and each sums to 1', () => {
    expect(STANDARD_WEIGHTS).toEqual({
      schemaQuality: 0.25,
      protocol: 0.2,
      reliability: 0.2,
      docsMaintenance: 0.15,
      security: 0.2,
    });
    expect(ENHANCED_WEIGHTS).toEqual({
      schemaQuality: 0.2,
      protocol: 0.18,
      reliability: 0.18,
      docsMaintenance: 0.12,
      security: 0.17,
      agentUsability: 0.15,
    });
    const sum = (w: Record<string, number>) => Object.values(w).reduce((a, b) => a + b, 0);
    expect(sum(STANDARD_WEIGHTS)).toBeCloseTo(1, 12);
    expect(sum(ENHANCED_WEIGHTS)).toBeCloseTo(1, 12);
  });
});

describe('computeComposite', () => {
  it('weighs all five standard categories', () => {
    const c = { ...none, schemaQuality: 67, protocol: 87, reliability: 95, docsMaintenance: 78, security: 83 };
    const parts = computeComposite(c);
    expect(parts.weightSet).toBe('standard');
    expect(parts.rawScore).toBeCloseTo(81.45, 10);
    expect(parts.score).toBe(81);
  });

  it('uses the enhanced weights when agent usability is present', () => {
    const c = {
      schemaQuality: 82,
      protocol: 87,
      reliability: 95,
      docsMaintenance: 78,
      security: 83,
      agentUsability: 72,
    };
    const parts = computeComposite(c);
    expect(parts.weightSet).toBe('enhanced');
    expect(parts.rawScore).toBeCloseTo(83.43, 10);
    expect(parts.score).toBe(83);
  });

  it('renormalises over the scored categories', () => {
    // (80 * 0.25 + 60 * 0.15 + 90 * 0.2) / 0.6 = 78.33
    const parts = computeComposite({ ...none, schemaQuality: 80, docsMaintenance: 60, security: 90 });
    expect(parts.totalWeight).toBeCloseTo(0.6, 12);
    expect(parts.score).toBe(78);
    // Agent usability and security alone: (100 * 0.17 + 50 * 0.15) / 0.32 = 76.56
    expect(computeComposite({ ...none, security: 100, agentUsability: 50 }).score).toBe(77);
  });

  it('rounds a tie half to even (Python round), not up', () => {
    expect(computeComposite({ ...none, schemaQuality: 14, docsMaintenance: 84, security: 83 }).rawScore).toBe(54.5);
    expect(computeComposite({ ...none, schemaQuality: 14, docsMaintenance: 84, security: 83 }).score).toBe(54);
    expect(computeComposite({ ...none, schemaQuality: 60, docsMaintenance: 66, security: 69 }).score).toBe(64); // 64.5
    expect(computeComposite({ ...none, schemaQuality: 61, docsMaintenance: 63, security: 100 }).score).toBe(74); // 74.5
    expect(computeComposite({ ...none, schemaQuality: 50, docsMaintenance: 84, security: 83 }).score).toBe(70); // 69.5
  });

  it('clamps to 0-100 and gives null when nothing is scored', () => {
    expect(computeComposite({ ...none, security: 100, agentUsability: 200 }).score).toBe(100);
    expect(computeComposite({ ...none, security: 0, agentUsability: -50 }).score).toBe(0);
    expect(computeComposite(none)).toEqual({ weightSet: 'standard', totalWeight: 0, rawScore: null, score: null });
  });
});

describe('applyFlagCaps', () => {
  const f = (key: string) => ({ key });

  it('caps at the engine values: dead 0, archived 40, staging 55, injection 30, exfiltration 25', () => {
    expect(applyFlagCaps(88, [f('DEAD_REPO')], FLAG_SCORE_CAPS)).toBe(0);
    expect(applyFlagCaps(88, [f('REPO_ARCHIVED')], FLAG_SCORE_CAPS)).toBe(40);
    expect(applyFlagCaps(88, [f('STAGING_ARTIFACT')], FLAG_SCORE_CAPS)).toBe(55);
    expect(applyFlagCaps(88, [f('PROMPT_INJECTION')], FLAG_SCORE_CAPS)).toBe(30);
    expect(applyFlagCaps(88, [f('EXFILTRATION_RISK')], FLAG_SCORE_CAPS)).toBe(25);
  });

  it('leaves a score at or under its cap alone, and applies the lowest of several caps', () => {
    expect(applyFlagCaps(40, [f('REPO_ARCHIVED')], FLAG_SCORE_CAPS)).toBe(40);
    expect(applyFlagCaps(41, [f('REPO_ARCHIVED')], FLAG_SCORE_CAPS)).toBe(40);
    expect(applyFlagCaps(20, [f('REPO_ARCHIVED')], FLAG_SCORE_CAPS)).toBe(20);
    expect(
      applyFlagCaps(90, [f('STAGING_ARTIFACT'), f('REPO_ARCHIVED'), f('EXFILTRATION_RISK')], FLAG_SCORE_CAPS),
    ).toBe(25);
  });

  it('ignores flags without a cap, including inherited object keys', () => {
    expect(applyFlagCaps(90, [f('STALE_PROJECT'), f('TEMPLATE_DESCRIPTION')], FLAG_SCORE_CAPS)).toBe(90);
    expect(applyFlagCaps(90, [f('toString'), f('constructor')], FLAG_SCORE_CAPS)).toBe(90);
    expect(applyFlagCaps(90, [], FLAG_SCORE_CAPS)).toBe(90);
  });
});

describe('gradeFor', () => {
  it('uses the engine thresholds 95/85/70/55/40', () => {
    expect(GRADE_THRESHOLDS.map((t) => [t.min, t.grade])).toEqual([
      [95, 'A+'],
      [85, 'A'],
      [70, 'B'],
      [55, 'C'],
      [40, 'D'],
      [0, 'F'],
    ]);
  });

  it('grades at and around every threshold', () => {
    const cases: [number, string][] = [
      [100, 'A+'],
      [95, 'A+'],
      [94, 'A'],
      [85, 'A'],
      [84, 'B'],
      [70, 'B'],
      [69, 'C'],
      [55, 'C'],
      [54, 'D'],
      [40, 'D'],
      [39, 'F'],
      [0, 'F'],
      [-1, 'F'],
    ];
    for (const [score, grade] of cases) expect(gradeFor(score), String(score)).toBe(grade);
  });

  it('gives no grade without a composite', () => {
    expect(gradeFor(null)).toBe('');
    expect(gradeFor(Number.NaN)).toBe('');
  });
});
