// The query string as one value per name, for the API and the pages alike: a name given twice is refused
// with the same words everywhere, rather than one of its values being guessed at.
import type { Context } from 'hono';

/** The query as one value per name, or the sentence refusing a name given more than once. */
export function flattenQuery(c: Context): { ok: true; value: Record<string, string> } | { ok: false; message: string } {
  const flat: Record<string, string> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) return { ok: false, message: `${name}: given ${values.length} times; give it once` };
    flat[name] = values[0] as string;
  }
  return { ok: true, value: flat };
}
