/**
 * Pins the public names of @mcp-atlas/risk: the root entry holds functions, types, the error class, the frozen
 * collection classes and the level vocabulary; the word lists are the `./rules` subpath, one frozen object per
 * concern. The word splitter and the day helpers are @mcp-atlas/base's, bundled and not re-exported. A name
 * added to or dropped from an entry fails here, so every change to the semver promise is a deliberate one.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as rules from '../src/rules.js';

describe('the root entry', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(api).sort()).toEqual([
      // Deprecated aliases of VERB_RULES' lists, kept for one minor release.
      'DEFAULT_POLICY',
      'FrozenMap',
      'FrozenSet',
      'RISK_LEVELS',
      'RiskOptionsError',
      'SECRET_NAME_WORDS',
      'classifyTool',
      'classifyTools',
      'createClassifier',
      'decideToolCall',
      'decideToolCalls',
      'findRaisePhrase',
      'findSensitiveNoun',
      'looksSecretName',
      'serverHasAnnotations',
      'toolVerb',
    ]);
  });

  it('lists the three levels lowest first, frozen', () => {
    expect(api.RISK_LEVELS).toEqual(['read-only', 'changes-data', 'high-risk']);
    expect(Object.isFrozen(api.RISK_LEVELS)).toBe(true);
  });
});

describe('the rules subpath', () => {
  it('exports the rules version and one frozen object per concern, and nothing else', () => {
    expect(Object.keys(rules).sort()).toEqual([
      'DESCRIPTION_RAISE_RULES',
      'RISK_RULES_VERSION',
      'SENSITIVE_NOUN_RULES',
      'VERB_RULES',
    ]);
    expect(rules.RISK_RULES_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const concerns = {
      DESCRIPTION_RAISE_RULES: rules.DESCRIPTION_RAISE_RULES,
      SENSITIVE_NOUN_RULES: rules.SENSITIVE_NOUN_RULES,
      VERB_RULES: rules.VERB_RULES,
    };
    for (const [name, concern] of Object.entries(concerns)) expect(Object.isFrozen(concern), name).toBe(true);
  });

  it('holds the methodology lists', () => {
    expect(rules.VERB_RULES.highRiskVerbs.has('delete')).toBe(true);
    expect(rules.VERB_RULES.changingVerbs.has('create')).toBe(true);
    expect(rules.VERB_RULES.readingVerbs.has('list')).toBe(true);
    expect(rules.VERB_RULES.verbClasses.get('run')).toBe('high-risk');
    expect(rules.VERB_RULES.knownVerbs.size).toBe(
      rules.VERB_RULES.highRiskVerbs.size + rules.VERB_RULES.changingVerbs.size + rules.VERB_RULES.readingVerbs.size,
    );
    expect(rules.SENSITIVE_NOUN_RULES.nouns.has('password')).toBe(true);
    expect(rules.SENSITIVE_NOUN_RULES.pairs.map(([first]) => first)).toEqual(['api']);
    expect(rules.DESCRIPTION_RAISE_RULES.negationWindowWords).toBe(3);
    expect(rules.DESCRIPTION_RAISE_RULES.negationWords.has('not')).toBe(true);
    expect(rules.DESCRIPTION_RAISE_RULES.phrases.length).toBeGreaterThan(0);
  });
});
