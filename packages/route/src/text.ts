// Pure module: how text is cut into words and words into stems, for the index, queries and the judge.
import { splitText as splitBaseText } from '@mcp-atlas/base';
import {
  MIN_STEM_LENGTH,
  MIN_TOKEN_LENGTH,
  QUERY_SYNONYMS,
  STEM_EXCEPTIONS,
  STOP_WORDS,
  UNDOUBLE_CONSONANTS,
} from './constants.js';

/**
 * Splits any text into lower-cased words, on every character that is not a letter or digit and on camelCase
 * humps, keeping acronyms whole. It is the project's one splitter (from the private @mcp-atlas/base, bundled
 * into this build, which @mcp-atlas/risk bundles too), so a tool name is cut into the same words when route
 * indexes it as when risk classifies it; route publishes it under its own name. See {@link tokenize} for search terms.
 *
 * @example splitText('list_pullRequests (GitHub)') // ['list', 'pull', 'requests', 'git', 'hub']
 */
export const splitText: (text: string) => string[] = splitBaseText;

function hasVowel(word: string): boolean {
  return /[aeiouy]/.test(word);
}

function stripPlural(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (/(?:s|x|z|ch|sh)es$/.test(word) && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function undouble(stem: string): string {
  const last = stem[stem.length - 1] ?? '';
  return stem.length > MIN_STEM_LENGTH && last === stem[stem.length - 2] && UNDOUBLE_CONSONANTS.has(last)
    ? stem.slice(0, -1)
    : stem;
}

function stripVerbEnding(word: string): string {
  for (const ending of ['ing', 'ed']) {
    if (!word.endsWith(ending)) continue;
    const stem = word.slice(0, -ending.length);
    // "string", "speed": what is left must still look like a word.
    if (stem.length >= MIN_STEM_LENGTH && hasVowel(stem) && !stem.endsWith('e')) return undouble(stem);
  }
  return word;
}

function stripFinalE(word: string): string {
  return word.endsWith('e') && word.length > MIN_STEM_LENGTH ? word.slice(0, -1) : word;
}

// A final y after a consonant becomes i, so query, queries and queried share `queri` (key and day keep y).
function turnFinalY(word: string): string {
  return word.length > MIN_STEM_LENGTH && /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}i` : word;
}

/**
 * The light stem of one lower-cased word: plural endings (-ies, -es, -s), then -ing or -ed, then a final -e,
 * then a final consonant-y to i, so that create, creates, created and creating share `creat`, and query and
 * queries share `queri`. Words in STEM_EXCEPTIONS, words with digits and two-letter words stay as they are.
 * Irregular forms (sent, ran) do not meet their base form.
 *
 * @example stemWord('queries') // 'queri'
 */
export function stemWord(word: string): string {
  if (word.length < MIN_STEM_LENGTH || STEM_EXCEPTIONS.has(word) || /\d/.test(word)) return word;
  return turnFinalY(stripFinalE(stripVerbEnding(stripPlural(word))));
}

/**
 * Search terms of a text: its words ({@link splitText}) without stop words and one-letter words, stemmed.
 * Repeats are kept, because the index counts them.
 *
 * @example tokenize('Sends an email to the user') // ['send', 'email', 'user']
 */
export function tokenize(text: string): string[] {
  return tokenizeWith(text, null);
}

/**
 * {@link tokenize} with a memo of stems: building an index meets the same words over and over, and a stem
 * never changes, so the index passes one memo for the whole build.
 */
export function tokenizeWith(text: string, memo: Map<string, string> | null): string[] {
  const terms: string[] = [];
  for (const word of splitText(text)) {
    if (word.length < MIN_TOKEN_LENGTH || STOP_WORDS.has(word)) continue;
    let stem = memo?.get(word);
    if (stem === undefined) {
      stem = stemWord(word);
      memo?.set(word, stem);
    }
    terms.push(stem);
  }
  return terms;
}

// A sentence ends at a line break, or at '.', '!' or '?' followed by white space; a full stop right after a
// one-letter word ("e.g.", "i.e.") or inside a number or a name ("v1.2", "next.js") does not end it.
const SENTENCE_END = /\r?\n|(?<!(?:^|[\s.(])[A-Za-z])[.!?](?=\s)/;

/**
 * Cuts a description into its first sentence (what the tool does, in most lists) and the rest (parameters,
 * examples, caveats). The lead keeps its closing mark; both parts are trimmed. A text with no sentence end is
 * all lead.
 *
 * @example splitLeadSentence('Lists files. Args: path.') // { lead: 'Lists files.', rest: 'Args: path.' }
 */
export function splitLeadSentence(text: string): { lead: string; rest: string } {
  const trimmed = text.trim();
  const match = SENTENCE_END.exec(trimmed);
  if (match === null) return { lead: trimmed, rest: '' };
  const end = match.index + (match[0].startsWith('\n') || match[0].startsWith('\r') ? 0 : 1);
  const lead = trimmed.slice(0, end).trim();
  // A description that opens with a blank line or a bare heading mark keeps looking for words.
  if (tokenize(lead).length === 0) {
    const next = splitLeadSentence(trimmed.slice(match.index + match[0].length));
    return { lead: next.lead, rest: next.rest };
  }
  return { lead, rest: trimmed.slice(match.index + match[0].length).trim() };
}

/** Stems of every word of a text, nothing dropped: what the evaluation judge compares. */
export function stemAll(text: string): string[] {
  return splitText(text).map(stemWord);
}

function stemmedSynonymTable(): ReadonlyMap<string, readonly string[]> {
  const table = new Map<string, string[]>();
  for (const [word, synonyms] of Object.entries(QUERY_SYNONYMS)) {
    const key = stemWord(word);
    const list = table.get(key) ?? [];
    for (const synonym of synonyms) {
      for (const term of tokenize(synonym)) if (term !== key && !list.includes(term)) list.push(term);
    }
    table.set(key, list);
  }
  return table;
}

const SYNONYMS_BY_STEM = stemmedSynonymTable();

/** The stemmed synonyms of one stemmed query term (empty when it has none). */
export function synonymsOf(term: string): readonly string[] {
  return SYNONYMS_BY_STEM.get(term) ?? [];
}
