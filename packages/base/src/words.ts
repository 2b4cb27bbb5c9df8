/**
 * The one camelCase word splitter of mcp-atlas. risk reads tool names with it, and route reads every text it
 * indexes with it, so a name is cut into the same words wherever it is read. Only what separates two words
 * differs: tool names break on the separators tool names use, free text on anything that is not a letter or a
 * digit.
 *
 * Pure module: no I/O, no clock, no dependency.
 */

const UNDERSCORE = 95;
const HYPHEN = 45;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
const SPACE = 32;
const TAB = 9;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

function isAsciiUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isAsciiLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

function isAsciiLowerOrDigit(code: number): boolean {
  return isAsciiLower(code) || (code >= 48 && code <= 57);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** True when the character at `index` belongs to a word (is not a separator). */
type WordTest = (code: number, text: string, index: number) => boolean;

// Tool names: everything but the separators names are written with is part of a word.
function isNameWordCode(code: number): boolean {
  return !(
    code === UNDERSCORE ||
    code === HYPHEN ||
    code === DOT ||
    code === SLASH ||
    code === COLON ||
    code === SPACE ||
    code === TAB
  );
}

// Free text: letters and digits in any script; surrogate pairs are read as one code point.
function isTextWordCode(code: number, text: string, index: number): boolean {
  if (code < 128) return isAsciiLowerOrDigit(code) || isAsciiUpper(code);
  return LETTER_OR_NUMBER.test(String.fromCodePoint(text.codePointAt(index) ?? code));
}

// A capital starts a new word after a lower-case letter or digit (`createPage`), and the last capital of a run
// starts one when a lower-case letter follows it, so acronyms stay whole (`getHTTPStatus`).
function startsHump(text: string, index: number): boolean {
  const previous = text.charCodeAt(index - 1);
  const next = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
  return isAsciiLowerOrDigit(previous) || (isAsciiUpper(previous) && isAsciiLower(next));
}

function splitWhere(text: string, isWordCode: WordTest): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isWordCode(code, text, i)) {
      // A low surrogate is the second half of the code point read at i - 1.
      if (isLowSurrogate(code) && start >= 0) continue;
      if (start >= 0) words.push(text.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (isAsciiUpper(code) && startsHump(text, i)) {
      words.push(text.slice(start, i).toLowerCase());
      start = i;
    }
  }
  if (start >= 0) words.push(text.slice(start).toLowerCase());
  return words;
}

/**
 * Splits a tool name into lower-cased words, on `_ - . / :` (and spaces and tabs) and on camelCase humps.
 * A run of capitals is one word, and its last capital starts the next word when a lower-case letter follows,
 * so acronyms survive: `getHTTPStatus` gives `get`, `http`, `status`. Digits stay with the word they touch.
 *
 * @example splitWords('pages.createPage') // ['pages', 'create', 'page']
 */
export function splitWords(name: string): string[] {
  return splitWhere(name, isNameWordCode);
}

/**
 * Splits any text into lower-cased words: on every character that is not a letter or digit (in any script), and
 * on camelCase humps as {@link splitWords} does. Nothing is dropped.
 *
 * @example splitText('list_pullRequests (GitHub)') // ['list', 'pull', 'requests', 'git', 'hub']
 */
export function splitText(text: string): string[] {
  return splitWhere(text, isTextWordCode);
}
