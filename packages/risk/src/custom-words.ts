// Pure module: compiles a caller's extra words into word lists once, normalised the way tool names are read.
import { describeType, splitWords } from '@mcp-atlas/base';
import { BUILT_IN_LISTS, type WordLists } from './builtin-lists.js';
import { RiskOptionsError } from './errors.js';
import type { CustomWords } from './types.js';
import type { VerbClass } from './vocabulary.js';

type WordListName = keyof CustomWords;

/** The option names that carry word lists, in the order they are compiled. */
export const WORD_LIST_OPTIONS: readonly WordListName[] = Object.freeze([
  'extraHighRiskVerbs',
  'extraReadVerbs',
  'extraSensitiveNouns',
]);

// A custom word is read the way a tool name is: cut at separators and camelCase humps, lower-cased. A verb
// is matched against one word of a name, so it must come out as one word; a noun may be one or two.
function normaliseWord(value: unknown, where: string, maxWords: number): string[] {
  if (typeof value !== 'string') {
    throw new RiskOptionsError('word-not-string', `${where} must be a string, got ${describeType(value)}`);
  }
  const words = splitWords(value);
  if (words.length === 0) {
    throw new RiskOptionsError('empty-word', `${where} is empty: it holds no letters or digits`);
  }
  if (words.length > maxWords) {
    const kind = maxWords === 1 ? 'a verb is one word' : 'a sensitive noun is one or two words';
    throw new RiskOptionsError(
      'too-many-words',
      `${where} ${JSON.stringify(value)} reads as ${words.length} words (${words.join(' ')}), but ${kind} ` +
        'as tool names are cut (at _ - . / : spaces and camelCase humps)',
    );
  }
  return words;
}

function wordsOf(words: CustomWords, option: WordListName, maxWords: number): string[][] {
  const list: unknown = words[option];
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    throw new RiskOptionsError('words-not-array', `${option} must be an array of strings, got ${describeType(list)}`);
  }
  return list.map((value, i) => normaliseWord(value, `${option}[${i}]`, maxWords));
}

/** True when any word list option holds at least one entry. */
export function hasCustomWords(words: CustomWords): boolean {
  return WORD_LIST_OPTIONS.some((option) => {
    const list: unknown = words[option];
    return list !== undefined && (!Array.isArray(list) || list.length > 0);
  });
}

function readVerbConflict(verb: string, highRisk: ReadonlySet<string>): string | null {
  if (highRisk.has(verb)) return 'is also in extraHighRiskVerbs';
  const builtIn = BUILT_IN_LISTS.verbClasses.get(verb);
  if (builtIn === 'high-risk') return 'is already a high-risk verb';
  if (builtIn === 'changing') return 'is already a changing verb';
  return null;
}

function compileGapReadVerbs(readVerbs: string[][], highRisk: ReadonlySet<string>): Map<string, VerbClass> | null {
  const gap = new Map<string, VerbClass>();
  readVerbs.forEach(([verb], i) => {
    const word = verb as string;
    const conflict = readVerbConflict(word, highRisk);
    if (conflict !== null) {
      throw new RiskOptionsError(
        'word-conflict',
        `extraReadVerbs[${i}] "${word}" ${conflict}; extra words add to the lists and can never make a verb safer`,
      );
    }
    if (BUILT_IN_LISTS.verbClasses.get(word) !== 'reading') gap.set(word, 'reading');
  });
  return gap.size === 0 ? null : gap;
}

function compileNouns(nouns: string[][]): Pick<WordLists, 'sensitiveNouns' | 'nounPairs'> {
  const sensitiveNouns = new Set(BUILT_IN_LISTS.sensitiveNouns);
  const nounPairs = new Map([...BUILT_IN_LISTS.nounPairs].map(([first, seconds]) => [first, new Set(seconds)]));
  for (const [first, second] of nouns) {
    if (second === undefined) sensitiveNouns.add(first as string);
    else nounPairs.set(first as string, (nounPairs.get(first as string) ?? new Set()).add(second));
  }
  return { sensitiveNouns, nounPairs };
}

/**
 * Checks and compiles a caller's extra words into word lists, once. Returns the built-in lists themselves
 * when no words are given. Throws `RiskOptionsError` on a list that is not an array, a word that is not a
 * string, is empty or has too many words, or a reading verb the built-in lists already call changing or high-risk.
 */
export function compileWordLists(words: CustomWords): WordLists {
  const highRiskVerbs = wordsOf(words, 'extraHighRiskVerbs', 1);
  const readVerbs = wordsOf(words, 'extraReadVerbs', 1);
  const nouns = wordsOf(words, 'extraSensitiveNouns', 2);
  if (highRiskVerbs.length + readVerbs.length + nouns.length === 0) return BUILT_IN_LISTS;
  const highRisk = new Set(highRiskVerbs.map(([verb]) => verb as string));
  const verbClasses = new Map(BUILT_IN_LISTS.verbClasses);
  for (const verb of highRisk) verbClasses.set(verb, 'high-risk');
  return { verbClasses, gapReadVerbs: compileGapReadVerbs(readVerbs, highRisk), ...compileNouns(nouns) };
}
