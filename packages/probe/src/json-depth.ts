// Pure module: how deeply a JSON text nests, measured by one linear pass over the text before it is
// parsed, so that a hostile answer nested thousands of levels deep is refused as a result instead of
// reaching code that walks it recursively (JSON.stringify throws RangeError at a few thousand levels).
import { MAX_JSON_DEPTH } from './constants.js';

/**
 * True when `text` nests arrays and objects more than `maxDepth` levels deep. The outermost array or
 * object is level 1; a bare string, number, `true`, `false` or `null` is level 0. Brackets inside strings
 * do not count (escapes are honoured). One pass, no recursion, constant memory, and it stops at the
 * first bracket past the limit. The text need not be valid JSON: only brackets and strings are read.
 *
 * @example
 * exceedsJsonDepth('{"a":[1,[2]]}', 3) // false: three levels
 * exceedsJsonDepth('{"a":[1,[2]]}', 2) // true
 * exceedsJsonDepth('"[[[["', 0)        // false: the brackets sit inside a string
 */
export function exceedsJsonDepth(text: string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string: a backslash escapes the next character, so `\"` never ends it.
      i++;
      while (i < length) {
        const s = text.charCodeAt(i);
        if (s === 34) break;
        i += s === 92 ? 2 : 1;
      }
    } else if (c === 123 || c === 91) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return false;
}

/** @internal What reading a JSON text under the depth limit gave. */
export type BoundedJson = { ok: true; value: unknown } | { ok: false; why: 'too-deep' | 'not-json' };

/**
 * @internal Parses `text` as JSON unless it nests deeper than MAX_JSON_DEPTH, which is checked first,
 * so a refused text is never turned into objects. Never throws.
 */
export function parseBoundedJson(text: string): BoundedJson {
  if (exceedsJsonDepth(text)) return { ok: false, why: 'too-deep' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, why: 'not-json' };
  }
}

/** @internal The sentence a refusal for depth gives, naming the limit. */
export function describeTooDeep(what: string): string {
  return `${what} nests deeper than ${MAX_JSON_DEPTH} levels`;
}
