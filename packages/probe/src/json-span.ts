// Pure module: finds where values sit inside JSON text that JSON.parse already accepted, so the probe
// can hand over the tools arrays exactly as the server wrote them (spacing, escapes, key order) rather
// than a re-serialization. The scanner trusts its input to be valid JSON.

/** A half-open range [start, end) of the text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

function skipWhitespace(text: string, index: number): number {
  let i = index;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i++;
  }
  return i;
}

function skipString(text: string, index: number): number {
  // text[index] is the opening quote.
  let i = index + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) return i + 1;
    i += c === 92 ? 2 : 1;
  }
  return i;
}

/** Returns the index just past the JSON value that starts at `index`. */
export function skipValue(text: string, index: number): number {
  const first = text.charCodeAt(index);
  if (first === 34) return skipString(text, index);
  if (first !== 123 && first !== 91) {
    let i = index;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 44 || c === 125 || c === 93 || c === 32 || c === 9 || c === 10 || c === 13) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  let i = index;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = skipString(text, i);
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

/**
 * The span of the member `key` of the object starting at `index` (the last one, as JSON.parse keeps the
 * last of duplicate keys), or null.
 */
export function findMember(text: string, index: number, key: string): Span | null {
  if (text.charCodeAt(index) !== 123) return null;
  let found: Span | null = null;
  let i = skipWhitespace(text, index + 1);
  while (i < text.length && text.charCodeAt(i) !== 125) {
    const keyEnd = skipString(text, i);
    // Most keys hold no escape and compare as written; only an escaped one needs decoding.
    const rawName = text.slice(i + 1, keyEnd - 1);
    const name = rawName.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : rawName;
    i = skipWhitespace(text, keyEnd) + 1; // past the colon
    const valueStart = skipWhitespace(text, i);
    const valueEnd = skipValue(text, valueStart);
    if (name === key) found = { start: valueStart, end: valueEnd };
    i = skipWhitespace(text, valueEnd);
    if (text.charCodeAt(i) === 44) i = skipWhitespace(text, i + 1);
  }
  return found;
}

/** The spans of the elements of the array starting at `index`. */
export function arrayElements(text: string, index: number): Span[] {
  const spans: Span[] = [];
  if (text.charCodeAt(index) !== 91) return spans;
  let i = skipWhitespace(text, index + 1);
  while (i < text.length && text.charCodeAt(i) !== 93) {
    const end = skipValue(text, i);
    // Only text that is not JSON can hold a value that takes no room; stop rather than spin on it.
    if (end <= i) break;
    spans.push({ start: i, end });
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) === 44) i = skipWhitespace(text, i + 1);
  }
  return spans;
}

/**
 * Locates `result.tools` in the JSON text of a JSON-RPC answer: the whole array's span and each
 * element's (skipped when `withElements` is false). `batchIndex` picks the element of a batch (a top-level
 * array) that held the answer.
 */
export function locateToolsArray(
  text: string,
  batchIndex: number | null,
  withElements = true,
): { array: Span; elements: Span[] } | null {
  let start = skipWhitespace(text, 0);
  if (batchIndex !== null) {
    const element = arrayElements(text, start)[batchIndex];
    if (element === undefined) return null;
    start = element.start;
  }
  const result = findMember(text, start, 'result');
  if (result === null) return null;
  const tools = findMember(text, result.start, 'tools');
  if (tools === null || text.charCodeAt(tools.start) !== 91) return null;
  return { array: tools, elements: withElements ? arrayElements(text, tools.start) : [] };
}
