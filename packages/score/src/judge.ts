/**
 * Schema interpretability: blending several models' readings of a server's tool schemas into one
 * agent-usability score, and finding the tools they disagree on. Pure module: no I/O, no clock, no model.
 *
 * The open engine takes the agent-usability score as a finished number; the Scoreboard's page describes
 * how it is made. These rules follow the page. The package never calls a model: it blends numbers
 * that a caller's evaluation produced.
 */

import { roundHalfEven } from './rounding.js';

/**
 * Blend weights, lowest model score first, so the worst reading counts most: three models 50/30/20,
 * two models 60/40, one model 100.
 */
export const JUDGE_BLEND_WEIGHTS: Readonly<Record<1 | 2 | 3, readonly number[]>> = Object.freeze({
  1: Object.freeze([1]),
  2: Object.freeze([0.6, 0.4]),
  3: Object.freeze([0.5, 0.3, 0.2]),
});

/**
 * Consensus bands over the spread (highest minus lowest model score): up to 10 high, up to 25 medium,
 * above 25 low.
 */
export const CONSENSUS_SPREAD = Object.freeze({ high: 10, medium: 25 });

/** Factor applied to the blended score when consensus is low (0.90). */
export const LOW_CONSENSUS_FACTOR = 0.9;

/**
 * A tool is ambiguous when, among the models that rated it (two or more), any one metric's spread is
 * above this (25 points).
 */
export const AMBIGUOUS_TOOL_SPREAD = 25;

/** How well the models agree. */
export type Consensus = 'high' | 'medium' | 'low';

/** One model's reading of one tool, each metric 0-100. */
export interface JudgeToolRating {
  /** The tool's name. */
  tool: string;
  /** Can the model tell what the tool does from its name and description? */
  clarity: number;
  /** Are the parameters typed, described and constrained? */
  inputCompleteness: number;
  /** Would the model build a correct call on the first try? */
  confidence: number;
}

/** One model's readings of every tool of a server. */
export interface JudgeEvaluation {
  model: string;
  tools: readonly JudgeToolRating[];
}

/** The blended result. */
export interface BlendedJudgeScore {
  /** 0-100, rounded half to even, after any low-consensus penalty; null with no model score. */
  score: number | null;
  /** Highest minus lowest model score. */
  spread: number;
  consensus: Consensus;
}

/** The full schema-interpretability result of {@link evaluateSchemaInterpretability}. */
export interface SchemaInterpretability extends BlendedJudgeScore {
  /** Each model's derived score (unrounded), in the order given. */
  modelScores: { model: string; score: number }[];
  /** Names of the tools the models disagree on, in first-seen order. */
  ambiguousTools: string[];
}

/**
 * A model's server score, derived from its per-tool metrics rather than any overall figure it states:
 * the average of each tool's three metrics, averaged over the tools. null when it rated no tool.
 * Example: tools at (90, 80, 70) and (60, 60, 60) give (80 + 60) / 2 = 70.
 */
export function deriveJudgeScore(tools: readonly JudgeToolRating[]): number | null {
  if (tools.length === 0) return null;
  let sum = 0;
  for (const t of tools) sum += (t.clarity + t.inputCompleteness + t.confidence) / 3;
  return sum / tools.length;
}

/** The consensus band of a spread: `consensusFor(10)` is 'high', `(25)` 'medium', `(25.5)` 'low'. */
export function consensusFor(spread: number): Consensus {
  if (spread <= CONSENSUS_SPREAD.high) return 'high';
  if (spread <= CONSENSUS_SPREAD.medium) return 'medium';
  return 'low';
}

/**
 * Blends one to three model scores, lowest weighted most ({@link JUDGE_BLEND_WEIGHTS}), multiplies by
 * {@link LOW_CONSENSUS_FACTOR} when the spread is above 25, and rounds half to even.
 * `blendJudgeScores([90, 60, 80])` is 0.5*60 + 0.3*80 + 0.2*90 = 72, spread 30, low: 64.8 -> 65.
 * Throws a RangeError for more than three scores (the method defines no weights for them) or a
 * non-finite score.
 */
export function blendJudgeScores(scores: readonly number[]): BlendedJudgeScore {
  if (scores.length > 3) throw new RangeError(`blendJudgeScores takes 1 to 3 model scores, got ${scores.length}`);
  for (const s of scores) if (!Number.isFinite(s)) throw new RangeError(`blendJudgeScores: score ${s} is not finite`);
  if (scores.length === 0) return { score: null, spread: 0, consensus: 'high' };
  const sorted = [...scores].sort((a, b) => a - b);
  const weights = JUDGE_BLEND_WEIGHTS[sorted.length as 1 | 2 | 3];
  let blended = 0;
  sorted.forEach((s, i) => {
    blended += s * (weights[i] as number);
  });
  const spread = (sorted[sorted.length - 1] as number) - (sorted[0] as number);
  const consensus = consensusFor(spread);
  if (consensus === 'low') blended *= LOW_CONSENSUS_FACTOR;
  return { score: roundHalfEven(blended), spread, consensus };
}

/**
 * Tools whose ratings disagree: for each tool rated by two or more models, any metric whose highest
 * minus lowest rating is above {@link AMBIGUOUS_TOOL_SPREAD} makes it ambiguous. The result is what
 * the registry metadata key `ambiguous_tools` holds; two or more give the AMBIGUOUS_SCHEMA flag.
 */
export function findAmbiguousTools(evaluations: readonly JudgeEvaluation[]): string[] {
  const byTool = new Map<string, JudgeToolRating[]>();
  for (const evaluation of evaluations) {
    for (const rating of evaluation.tools) {
      const list = byTool.get(rating.tool) ?? [];
      list.push(rating);
      byTool.set(rating.tool, list);
    }
  }
  const ambiguous: string[] = [];
  for (const [tool, ratings] of byTool) {
    if (ratings.length < 2) continue;
    const metrics = ['clarity', 'inputCompleteness', 'confidence'] as const;
    const disagrees = metrics.some((m) => {
      const values = ratings.map((r) => r[m]);
      return Math.max(...values) - Math.min(...values) > AMBIGUOUS_TOOL_SPREAD;
    });
    if (disagrees) ambiguous.push(tool);
  }
  return ambiguous;
}

/**
 * The whole schema-interpretability step: each model's derived score, the blend with its consensus
 * penalty, and the ambiguous tools. Models that rated no tool are left out of the blend. The `score`
 * is what scoreServer takes as `agentUsability`.
 */
export function evaluateSchemaInterpretability(evaluations: readonly JudgeEvaluation[]): SchemaInterpretability {
  const modelScores: { model: string; score: number }[] = [];
  for (const evaluation of evaluations) {
    const score = deriveJudgeScore(evaluation.tools);
    if (score != null) modelScores.push({ model: evaluation.model, score });
  }
  const blended = blendJudgeScores(modelScores.map((m) => m.score));
  return { ...blended, modelScores, ambiguousTools: findAmbiguousTools(evaluations) };
}
