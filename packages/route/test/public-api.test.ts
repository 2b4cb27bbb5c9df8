// The root entry is the public API: these names and nothing else, and it imports nothing Node-only.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as route from '../src/index.js';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));

describe('public API', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(route).sort()).toEqual(
      [
        'AGENTS_BASE',
        'AGENTS_SLOPE',
        'BM25_B',
        'BM25_K1',
        'CATEGORIES',
        'CATEGORY_MIN_SCORE',
        'CATEGORY_MIN_SHARE',
        'CATEGORY_NAME_SCORE',
        'CATEGORY_TRUSTS_SERVER_NAME',
        'CATEGORY_WORDS',
        'COVERAGE_EXPONENT',
        'DAY_MS',
        'DEFAULT_ROUTE_LIMIT',
        'DEFAULT_SEARCH_LIMIT',
        'DEFAULT_STABILITY',
        'DEFAULT_SUCCESS_CHANCE',
        'DIRECTORY_FACTOR',
        'EVAL_MRR_DEPTH',
        'EVAL_TOP_K',
        'GRADE_FIT',
        'GRADE_PREFERRED',
        'GUARD_GATEWAY',
        'GUARD_NEW',
        'GUARD_READ_TASK_HIGH_RISK_SERVER',
        'HIGH_RISK_SHARE_WEIGHT',
        'LEAST_PRIVILEGE_LESS',
        'LEAST_PRIVILEGE_MORE',
        'MAX_QUERY_TERMS',
        'MAX_RESULT_LIMIT',
        'MIN_STEM_LENGTH',
        'MIN_TOKEN_LENGTH',
        'NAME_FIELD_WEIGHT',
        'NEW_SERVER_DAYS',
        'QUERY_SYNONYMS',
        'RISK_RISE_DAYS',
        'ROUTE_RULES_VERSION',
        'RouteInputError',
        'SEARCH_LEVEL_PREFERENCE',
        'SERVER_FIELD_WEIGHT',
        'STEM_EXCEPTIONS',
        'STOP_WORDS',
        'SYNONYM_WEIGHT',
        'TASK_RISK_WITHOUT_VERB',
        'UNDOUBLE_CONSONANTS',
        'VERB_BONUS',
        'YOUNG_DOMAIN_DAYS',
        'agentsFactor',
        'categorize',
        'createToolIndex',
        'directoryFactor',
        'discountOfRank',
        'evaluateSearch',
        'gainOfGrade',
        'gradeHit',
        'guardFactor',
        'highRiskShareFactor',
        'leastPrivilegeFactor',
        'metricsOfGrades',
        'parseSearchJobs',
        'readTaskIntent',
        'routeTask',
        'scoreCategories',
        'scoreRoute',
        'searchTools',
        'splitText',
        'stemWord',
        'tokenize',
        'verbBonusFactor',
      ].sort(),
    );
  });

  it('has no Node-only import, clock or randomness in any source file (the package is pure)', () => {
    for (const file of readdirSync(srcDir)) {
      const text = readFileSync(`${srcDir}${file}`, 'utf8');
      expect(text, file).not.toMatch(/from ['"]node:/);
      expect(text, file).not.toMatch(/Date\.now\(|new Date\(\)|Math\.random|performance\.now|process\./);
      expect(text.split('\n')[0], `${file} says it is pure in its first comment`).toMatch(/^\/\/ Pure module:/);
    }
  });

  it('re-exports from index.ts and declares nothing there', () => {
    const index = readFileSync(`${srcDir}index.ts`, 'utf8');
    const statements = index.split('\n').filter((line) => /^(export|import|const|function|class|let)\b/.test(line));
    expect(statements.every((line) => line.startsWith('export {') || line.startsWith('export type {'))).toBe(true);
  });
});
