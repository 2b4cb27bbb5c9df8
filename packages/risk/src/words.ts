// Pure module: how tool names are cut into words and where the verb is read from.
import { BUILT_IN_LISTS } from './builtin-lists.js';
import type { VerbClass } from './vocabulary.js';

const UNDERSCORE = 95;
const HYPHEN = 45;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
const SPACE = 32;

function isSeparator(code: number): boolean {
  return (
    code === UNDERSCORE ||
    code === HYPHEN ||
    code === DOT ||
    code === SLASH ||
    code === COLON ||
    code === SPACE ||
    code === 9
  );
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isLowerOrDigit(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/**
 * Splits a tool name into lower-cased words, on `_ - . / :` (and whitespace) and on camelCase humps.
 * A run of capitals is one word, and its last capital starts the next word when a lower-case letter follows,
 * so acronyms survive: `getHTTPStatus` gives `get`, `http`, `status`. Digits stay with the word they touch.
 *
 * @example splitWords('pages.createPage') // ['pages', 'create', 'page']
 */
export function splitWords(name: string): string[] {
  const words: string[] = [];
  let start = -1;
  const length = name.length;
  for (let i = 0; i < length; i++) {
    const code = name.charCodeAt(i);
    if (isSeparator(code)) {
      if (start >= 0) words.push(name.slice(start, i).toLowerCase());
      start = -1;
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    if (isUpper(code)) {
      const previous = name.charCodeAt(i - 1);
      const next = i + 1 < length ? name.charCodeAt(i + 1) : 0;
      const humpAfterLower = isLowerOrDigit(previous);
      const acronymEnds = isUpper(previous) && next >= 97 && next <= 122;
      if (humpAfterLower || acronymEnds) {
        words.push(name.slice(start, i).toLowerCase());
        start = i;
      }
    }
  }
  if (start >= 0) words.push(name.slice(start).toLowerCase());
  return words;
}

/**
 * The verb among already split words: the first word when it is a known verb, else the last one when it is.
 * Beyond the seed: when neither is, the second word of a name of three or more words, because many servers
 * put their product first (`zpa_delete_app_connector`). This only fills a gap the seed leaves empty.
 * `verbClasses` is the verb lookup to use (the built-in lists unless a custom classifier passes its own).
 */
export function verbOfWords(
  words: readonly string[],
  verbClasses: ReadonlyMap<string, VerbClass> = BUILT_IN_LISTS.verbClasses,
): string | null {
  const first = words[0];
  if (first === undefined) return null;
  if (verbClasses.has(first)) return first;
  const last = words[words.length - 1] as string;
  if (verbClasses.has(last)) return last;
  const second = words[1];
  return words.length >= 3 && second !== undefined && verbClasses.has(second) ? second : null;
}

/**
 * The verb of a tool name: its first word when that is a known verb, otherwise its last word when that is one
 * (`delete_page` and `pages_create` both have a verb), otherwise the second word of a longer prefixed name
 * (`zpa_delete_app_connector`), otherwise null.
 *
 * @example toolVerb('pages_create') // 'create'
 */
export function toolVerb(name: string): string | null {
  return verbOfWords(splitWords(name));
}
