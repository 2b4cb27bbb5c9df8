// One walk over a JSON-like value that rewrites every string in it, keys included. The secret scrubber hides
// known values with it, and the text report makes server text safe for a terminal with it.

/** A copy of a JSON-like value with `rewrite` applied to every string, object keys included. */
export function mapJsonStrings<T>(value: T, rewrite: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return rewrite(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [rewrite(k), walk(inner)]));
    return v;
  };
  return walk(value) as T;
}
