// Agreement with the open engine on held-out cases: 1,000 made-up servers (seeded random inputs, no server's real
// data) that the engine mcp-scoring-engine 0.9.0 scored with its own compute_score, written by
// fixtures/generate-engine-held-out.py. None of them was used to write the package. The package must agree on at
// least 99.5% of composites and grades and 99% of flag lists; the figures are printed so a change that moves them
// shows.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { scoreServer } from '../src/score-server.js';
import type { ScoreInput, ScoreResult } from '../src/types.js';

interface HeldOutCase {
  name: string;
  input: ScoreInput;
  expected: ScoreResult;
}

interface HeldOutFile {
  engine: string;
  seed: number;
  now: string;
  cases: HeldOutCase[];
}

const FILE = JSON.parse(
  gunzipSync(readFileSync(new URL('./fixtures/engine-held-out.json.gz', import.meta.url))).toString('utf8'),
) as HeldOutFile;

/** The agreement the package must reach on the held-out cases. */
const THRESHOLDS = Object.freeze({ compositeAndGrade: 0.995, flags: 0.99 });

/** Share of the cases where `same` holds, with the names of those where it does not. */
function agreement(same: (c: HeldOutCase, actual: ScoreResult) => boolean): { share: number; misses: string[] } {
  const misses = FILE.cases.filter((c) => !same(c, scoreServer(c.input))).map((c) => c.name);
  return { share: 1 - misses.length / FILE.cases.length, misses };
}

describe('agreement with the engine 0.9.0 on held-out cases', () => {
  it('holds 1,000 engine-scored cases over every tier and most flags', () => {
    expect(FILE.engine).toBe('mcp-scoring-engine 0.9.0');
    expect(FILE.cases).toHaveLength(1000);
    const tiers = new Set(FILE.cases.map((c) => c.expected.visibilityLevel));
    expect([...tiers].sort()).toEqual(['assessed', 'complete', 'limited', 'unscored', 'verified']);
    const flags = new Set(FILE.cases.flatMap((c) => c.expected.flags.map((f) => f.key)));
    expect(flags.size).toBeGreaterThanOrEqual(13);
    expect(flags).toContain('PROMPT_INJECTION');
  });

  it('agrees on the composite and the grade of at least 99.5% of them', () => {
    const { share, misses } = agreement(
      (c, actual) => actual.compositeScore === c.expected.compositeScore && actual.grade === c.expected.grade,
    );
    console.info(`composite and grade: ${(share * 100).toFixed(1)}% agree; differ: ${misses.join(', ') || 'none'}`);
    expect(share).toBeGreaterThanOrEqual(THRESHOLDS.compositeAndGrade);
  });

  it('agrees on the flags (keys, severities, labels, descriptions, order) of at least 99%', () => {
    const { share, misses } = agreement(
      (c, actual) => JSON.stringify(actual.flags) === JSON.stringify(c.expected.flags),
    );
    console.info(`flags: ${(share * 100).toFixed(1)}% agree; differ: ${misses.join(', ') || 'none'}`);
    expect(share).toBeGreaterThanOrEqual(THRESHOLDS.flags);
  });

  it('gives the whole result (categories, tier, badges, classification) of the engine on every case', () => {
    const { share, misses } = agreement((c, actual) => JSON.stringify(actual) === JSON.stringify(c.expected));
    console.info(`whole result: ${(share * 100).toFixed(1)}% agree; differ: ${misses.join(', ') || 'none'}`);
    expect(misses).toEqual([]);
  });
});
