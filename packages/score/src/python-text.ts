// Pure text helpers that reproduce how Python 3 treats strings, so the signal rules give the open engine's
// answers on the same text. Internal to the package: not exported from index.ts.
//
// Three places where JavaScript and Python disagree matter to the rules:
// - `\s` and `str.strip()`: Python's whitespace adds U+001C..U+001F and U+0085 and leaves out U+FEFF;
// - lengths and slices: Python counts code points, JavaScript counts UTF-16 units;
// - `str.splitlines()` splits on more line breaks than `\n` and `\r\n`.

/** A regex character class with exactly the code points Python 3 counts as whitespace (`str.isspace`). */
export const PY_WHITESPACE_CLASS =
  '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';

const LEADING_WHITESPACE = new RegExp(`^${PY_WHITESPACE_CLASS}+`);
const TRAILING_WHITESPACE = new RegExp(`${PY_WHITESPACE_CLASS}+$`);
const LINE_BREAKS = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** Python's `str.strip()` with no argument. */
export function stripPython(text: string): string {
  return text.replace(LEADING_WHITESPACE, '').replace(TRAILING_WHITESPACE, '');
}

/** Python's `str.splitlines()` (without the keepends flag). */
export function splitLinesPython(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(LINE_BREAKS);
  // Python drops the empty piece after a final line break.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** How many code points `text` has: Python's `len(text)`. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** `text[start:end]` in code points, as Python slices (no negative indexes). */
export function sliceCodePoints(text: string, start: number, end?: number): string {
  return Array.from(text).slice(start, end).join('');
}
