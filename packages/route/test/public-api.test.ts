// The root entry is the public API: these names and nothing else, and it imports nothing Node-only.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as route from '../src/index.js';
import * as rules from '../src/rules.js';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));

describe('public API', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(route).sort()).toEqual(
      [
        'CATEGORIES',
        'RouteInputError',
        'agentsFactor',
        'categorize',
        'createToolIndex',
        'directoryFactor',
        'evaluateOneTool',
        'evaluateSearch',
        'gradeHit',
        'guardFactor',
        'highRiskShareFactor',
        'leastPrivilegeFactor',
        'metricsOfGrades',
        'parseOneToolSet',
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
        'withLiveFields',
      ].sort(),
    );
  });

  it('keeps the rule constants on the rules subpath, one frozen object per concern', () => {
    expect(Object.keys(rules).sort()).toEqual([
      'CATEGORY_RULES',
      'ONE_TOOL_RULES',
      'ROUTE_RULES_VERSION',
      'ROUTE_SCORE_RULES',
      'SEARCH_EVAL_RULES',
      'SEARCH_RULES',
      'TEXT_RULES',
    ]);
    for (const [name, value] of Object.entries(rules)) {
      if (name !== 'ROUTE_RULES_VERSION') expect(Object.isFrozen(value), name).toBe(true);
    }
    expect(rules.ROUTE_RULES_VERSION).toBe('1.2.0');
    expect(rules.SEARCH_RULES.defaultLimit).toBe(10);
    expect(rules.SEARCH_RULES.maxResultLimit).toBe(100);
    expect(rules.ROUTE_SCORE_RULES).toMatchObject({
      defaultLimit: 5,
      verbBonus: 1.6,
      leastPrivilegeMore: 0.35,
      leastPrivilegeLess: 0.15,
      highRiskShareWeight: 0.3,
      directoryFactor: 1.15,
      guardReadTaskHighRiskServer: 0.5,
      guardGateway: 0.7,
      guardNew: 0.8,
      newServerDays: 30,
      youngDomainDays: 90,
      riskRiseDays: 7,
      agentsBase: 0.5,
      agentsSlope: 0.5,
      defaultSuccessChance: 0.5,
      defaultStability: 1,
    });
    expect(rules.ONE_TOOL_RULES).toEqual({ topK: 5, mrrDepth: 10 });
    expect(rules.SEARCH_EVAL_RULES).toEqual({
      topK: 5,
      mrrDepth: 10,
      gradePreferred: 2,
      gradeFit: 1,
      weakestJobsShown: 10,
    });
    expect(rules.CATEGORY_RULES).toMatchObject({ nameScore: 2, trustsServerName: true, minScore: 2, minShare: 0.2 });
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
