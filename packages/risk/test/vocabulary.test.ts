import { describe, expect, it } from 'vitest';
import { CHANGING_VERBS, HIGH_RISK_VERBS, KNOWN_VERBS, READING_VERBS, SENSITIVE_NOUNS } from '../src/vocabulary.js';

describe('the word lists', () => {
  it('give each verb exactly one class', () => {
    for (const verb of HIGH_RISK_VERBS) {
      expect(CHANGING_VERBS.has(verb), verb).toBe(false);
      expect(READING_VERBS.has(verb), verb).toBe(false);
    }
    for (const verb of CHANGING_VERBS) expect(READING_VERBS.has(verb), verb).toBe(false);
  });
  it('know every verb of the three lists', () => {
    expect(KNOWN_VERBS.size).toBe(HIGH_RISK_VERBS.size + CHANGING_VERBS.size + READING_VERBS.size);
  });
  it('hold the seed verbs and nouns', () => {
    for (const verb of ['delete', 'pay', 'grant', 'deploy', 'run', 'execute'])
      expect(HIGH_RISK_VERBS.has(verb)).toBe(true);
    for (const noun of [
      'payment',
      'payout',
      'refund',
      'transfer',
      'password',
      'credential',
      'secret',
      'shell',
      'sudo',
      'terminal',
      'wallet',
    ]) {
      expect(SENSITIVE_NOUNS.has(noun), noun).toBe(true);
    }
  });
  it('are lower case single words', () => {
    for (const word of [...KNOWN_VERBS, ...SENSITIVE_NOUNS]) expect(word).toMatch(/^[a-z0-9]+$/);
  });
});
