import { describe, expect, it } from 'vitest';
import {
  AMBIGUOUS_TOOL_SPREAD,
  blendJudgeScores,
  CONSENSUS_SPREAD,
  consensusFor,
  deriveJudgeScore,
  evaluateSchemaInterpretability,
  findAmbiguousTools,
  JUDGE_BLEND_WEIGHTS,
  type JudgeToolRating,
  LOW_CONSENSUS_FACTOR,
} from '../src/judge.js';

const rate = (tool: string, clarity: number, inputCompleteness: number, confidence: number): JudgeToolRating => ({
  tool,
  clarity,
  inputCompleteness,
  confidence,
});

describe('constants', () => {
  it('hold the Scoreboard page numbers', () => {
    expect(JUDGE_BLEND_WEIGHTS).toEqual({ 1: [1], 2: [0.6, 0.4], 3: [0.5, 0.3, 0.2] });
    expect(CONSENSUS_SPREAD).toEqual({ high: 10, medium: 25 });
    expect(LOW_CONSENSUS_FACTOR).toBe(0.9);
    expect(AMBIGUOUS_TOOL_SPREAD).toBe(25);
  });
});

describe('consensusFor', () => {
  it('bands the spread at 10 and 25', () => {
    expect(consensusFor(0)).toBe('high');
    expect(consensusFor(10)).toBe('high');
    expect(consensusFor(10.5)).toBe('medium');
    expect(consensusFor(25)).toBe('medium');
    expect(consensusFor(25.01)).toBe('low');
  });
});

describe('blendJudgeScores', () => {
  it('weighs three models 50/30/20 from the lowest up', () => {
    // 70 * 0.5 + 75 * 0.3 + 80 * 0.2 = 73.5 -> 74 (half to even), spread 10: high
    expect(blendJudgeScores([80, 70, 75])).toEqual({ score: 74, spread: 10, consensus: 'high' });
  });

  it('weighs two models 60/40', () => {
    expect(blendJudgeScores([90, 80])).toEqual({ score: 84, spread: 10, consensus: 'high' });
    // spread exactly 25 is medium: no penalty. 60 * 0.6 + 85 * 0.4 = 70
    expect(blendJudgeScores([85, 60])).toEqual({ score: 70, spread: 25, consensus: 'medium' });
  });

  it('multiplies by 0.90 when consensus is low', () => {
    // 60 * 0.5 + 80 * 0.3 + 90 * 0.2 = 72, spread 30 -> 64.8 -> 65
    expect(blendJudgeScores([90, 60, 80])).toEqual({ score: 65, spread: 30, consensus: 'low' });
    // 50 * 0.6 + 90 * 0.4 = 66, spread 40 -> 59.4 -> 59
    expect(blendJudgeScores([50, 90])).toEqual({ score: 59, spread: 40, consensus: 'low' });
    // spread 25.5: low. 60 * 0.6 + 85.5 * 0.4 = 70.2 -> 63.18 -> 63
    expect(blendJudgeScores([60, 85.5]).score).toBe(63);
  });

  it('passes one model through and has no score with none', () => {
    expect(blendJudgeScores([77])).toEqual({ score: 77, spread: 0, consensus: 'high' });
    expect(blendJudgeScores([])).toEqual({ score: null, spread: 0, consensus: 'high' });
  });

  it('refuses more than three scores or a non-finite one', () => {
    expect(() => blendJudgeScores([1, 2, 3, 4])).toThrow(RangeError);
    expect(() => blendJudgeScores([1, 2, 3, 4])).toThrow('blendJudgeScores takes 1 to 3 model scores, got 4');
    expect(() => blendJudgeScores([50, Number.NaN])).toThrow(RangeError);
  });
});

describe('deriveJudgeScore', () => {
  it('averages each tool’s three metrics, then the tools', () => {
    expect(deriveJudgeScore([rate('a', 90, 80, 70), rate('b', 60, 60, 60)])).toBe(70);
    expect(deriveJudgeScore([])).toBeNull();
  });
});

describe('findAmbiguousTools', () => {
  it('flags a tool whose any metric spreads more than 25 across models', () => {
    const evaluations = [
      { model: 'a', tools: [rate('search', 90, 80, 80), rate('fetch', 70, 70, 70), rate('solo', 10, 10, 10)] },
      { model: 'b', tools: [rate('search', 60, 80, 80), rate('fetch', 95, 70, 45)] },
      { model: 'c', tools: [rate('search', 85, 80, 80), rate('fetch', 70, 70, 70)] },
    ];
    // search: clarity 60..90 = 30 > 25. fetch: spreads 25 and 25, not above. solo: one model only.
    expect(findAmbiguousTools(evaluations)).toEqual(['search']);
  });

  it('finds none with a single model', () => {
    expect(findAmbiguousTools([{ model: 'a', tools: [rate('x', 0, 100, 50)] }])).toEqual([]);
  });
});

describe('evaluateSchemaInterpretability', () => {
  it('derives, blends and lists ambiguous tools in one step', () => {
    const result = evaluateSchemaInterpretability([
      { model: 'judge-a', tools: [rate('search', 90, 90, 90), rate('fetch', 90, 90, 90)] },
      { model: 'judge-b', tools: [rate('search', 50, 60, 70), rate('fetch', 60, 60, 60)] },
      { model: 'judge-c', tools: [] },
    ]);
    expect(result.modelScores).toEqual([
      { model: 'judge-a', score: 90 },
      { model: 'judge-b', score: 60 },
    ]);
    // 60 * 0.6 + 90 * 0.4 = 72, spread 30: low -> 64.8 -> 65
    expect(result.score).toBe(65);
    expect(result.consensus).toBe('low');
    expect(result.ambiguousTools).toEqual(['search', 'fetch']);
  });
});
