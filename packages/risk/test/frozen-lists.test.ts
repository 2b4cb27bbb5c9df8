import { afterEach, describe, expect, it } from 'vitest';
import { classifyTools, createClassifier, decideToolCalls, type VerbClass } from '../src/index.js';
import {
  CHANGING_VERBS,
  HIGH_RISK_VERBS,
  KNOWN_VERBS,
  NEGATION_WORDS,
  RAISE_PHRASES,
  READING_VERBS,
  SENSITIVE_NOUN_PAIRS,
  SENSITIVE_NOUNS,
  VERB_CLASSES,
} from '../src/vocabulary.js';

// One tool per rule, plus a raise and a negated raise, so a changed list shows up in some verdict.
const TOOLS = [
  { name: 'customers_delete', annotations: { destructiveHint: true } },
  { name: 'delete_page' },
  { name: 'update_cache', annotations: { readOnlyHint: true } },
  { name: 'rotate_password' },
  { name: 'createApiKey' },
  { name: 'update_page', annotations: {} },
  { name: 'get_page', annotations: {} },
  { name: 'list_pages' },
  { name: 'weather' },
  { name: 'edit_row', description: 'Edits a row. It does not delete the record.', annotations: {} },
  { name: 'edit_doc', description: 'Permanently deletes the document when empty.', annotations: {} },
  { name: 'nuke_cluster', annotations: {} },
];

const BEFORE = JSON.stringify(classifyTools(TOOLS));
const BEFORE_DECISIONS = JSON.stringify(decideToolCalls(TOOLS));

const stringSets: [string, ReadonlySet<string>][] = [
  ['HIGH_RISK_VERBS', HIGH_RISK_VERBS],
  ['CHANGING_VERBS', CHANGING_VERBS],
  ['READING_VERBS', READING_VERBS],
  ['KNOWN_VERBS', KNOWN_VERBS],
  ['SENSITIVE_NOUNS', SENSITIVE_NOUNS],
  ['NEGATION_WORDS', NEGATION_WORDS],
  ['SENSITIVE_NOUN_PAIRS api', SENSITIVE_NOUN_PAIRS[0]?.[1] as ReadonlySet<string>],
];

// The prototype tricks below really change the exported sets; each test puts them back so later tests
// (and the check that verdicts did not move) start from the shipped lists.
const snapshots = new Map<ReadonlySet<string>, string[]>(stringSets.map(([, set]) => [set, [...set]]));
const verbClassesSnapshot = [...VERB_CLASSES];

afterEach(() => {
  for (const [set, words] of snapshots) {
    Set.prototype.clear.call(set);
    for (const word of words) Set.prototype.add.call(set, word);
  }
  Map.prototype.clear.call(VERB_CLASSES);
  for (const [verb, verbClass] of verbClassesSnapshot) Map.prototype.set.call(VERB_CLASSES, verb, verbClass);
});

function expectVerdictsUnchanged(): void {
  expect(JSON.stringify(classifyTools(TOOLS))).toBe(BEFORE);
  expect(JSON.stringify(decideToolCalls(TOOLS))).toBe(BEFORE_DECISIONS);
  // A classifier compiled after the mutation starts from the private lists too.
  expect(JSON.stringify(createClassifier({ extraHighRiskVerbs: ['zorch'] }).classifyTools(TOOLS))).toBe(BEFORE);
}

describe('the exported word sets are read-only', () => {
  it('cover every level in the sample', () => {
    const levels = new Set(classifyTools(TOOLS).map((v) => v.level));
    expect([...levels].sort()).toEqual(['changes-data', 'high-risk', 'read-only']);
  });

  it.each(stringSets)('%s: add, delete and clear throw a TypeError and change nothing', (_name, set) => {
    const mutable = set as Set<string>;
    const size = set.size;
    expect(() => mutable.add('update')).toThrow(TypeError);
    expect(() => mutable.add('update')).toThrow(/read-only/);
    expect(() => mutable.delete([...set][0] as string)).toThrow(TypeError);
    expect(() => mutable.clear()).toThrow(TypeError);
    expect(set.size).toBe(size);
    expect(set).toBeInstanceOf(Set);
    expectVerdictsUnchanged();
  });

  it('VERB_CLASSES: set, delete and clear throw a TypeError', () => {
    const mutable = VERB_CLASSES as Map<string, VerbClass>;
    expect(() => mutable.set('delete', 'reading')).toThrow(TypeError);
    expect(() => mutable.delete('delete')).toThrow(TypeError);
    expect(() => mutable.clear()).toThrow(TypeError);
    expect(VERB_CLASSES.get('delete')).toBe('high-risk');
    expectVerdictsUnchanged();
  });

  it('the arrays and phrases are frozen', () => {
    expect(() => (RAISE_PHRASES as unknown[]).push({})).toThrow(TypeError);
    expect(() => (SENSITIVE_NOUN_PAIRS as unknown[]).pop()).toThrow(TypeError);
    expect(() => {
      (RAISE_PHRASES[0] as { pattern: RegExp }).pattern = /x/;
    }).toThrow(TypeError);
    const stems = RAISE_PHRASES[0]?.stems as string[];
    expect(stems.length).toBeGreaterThan(0);
    expect(() => stems.push('x')).toThrow(TypeError);
    expectVerdictsUnchanged();
  });
});

describe('a mutation through the prototype changes no verdict', () => {
  it('Set.prototype.add.call on the verb and noun sets', () => {
    Set.prototype.add.call(HIGH_RISK_VERBS, 'update');
    Set.prototype.add.call(HIGH_RISK_VERBS, 'weather');
    Set.prototype.add.call(READING_VERBS, 'delete');
    Set.prototype.add.call(SENSITIVE_NOUNS, 'page');
    Set.prototype.add.call(NEGATION_WORDS, 'permanently');
    expect(HIGH_RISK_VERBS.has('update')).toBe(true); // the exported set did change...
    expectVerdictsUnchanged(); // ...but the classifier never reads it
  });

  it('Set.prototype.delete.call and clear.call', () => {
    Set.prototype.delete.call(HIGH_RISK_VERBS, 'delete');
    Set.prototype.clear.call(SENSITIVE_NOUNS);
    Set.prototype.clear.call(NEGATION_WORDS);
    Set.prototype.clear.call(SENSITIVE_NOUN_PAIRS[0]?.[1]);
    expect(SENSITIVE_NOUNS.size).toBe(0);
    expectVerdictsUnchanged();
  });

  it('Map.prototype.set.call and clear.call on VERB_CLASSES', () => {
    Map.prototype.set.call(VERB_CLASSES, 'delete', 'reading');
    Map.prototype.set.call(VERB_CLASSES, 'weather', 'high-risk');
    expectVerdictsUnchanged();
    Map.prototype.clear.call(VERB_CLASSES);
    expectVerdictsUnchanged();
  });
});
