// Our own fixture tools for a made-up notebook server. Names pick risk levels through verbs the risk
// rules treat plainly: get (reads), create (changes data), delete (high risk).

export const objectSchema = { type: 'object', properties: { page: { type: 'string' } }, required: ['page'] };

export function tool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, description: `Works on one notebook page (${name}).`, inputSchema: objectSchema, ...extra };
}

export const getPage = tool('get_page', { description: 'Returns the text of one notebook page.' });
export const createPage = tool('create_page', { description: 'Adds a new page to the notebook.' });
export const deletePage = tool('delete_page', { description: 'Takes a page out of the notebook.' });

/** A string of exactly `length` characters. */
export function textOfLength(length: number): string {
  return 'a'.repeat(length);
}

/** A JSON array text of exactly `length` characters (at least 2), standing in for a server's tools text. */
export function toolsJsonOfLength(length: number): string {
  if (length < 2) throw new Error('a JSON array text has at least 2 characters');
  return `[${' '.repeat(length - 2)}]`;
}

/** A value nested `depth` levels deep: depth 1 is `{}`, depth 2 is `{ "a": {} }`, and so on. */
export function nestedObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

/** A schema object holding exactly `nodes` JSON values, itself included (nodes >= 1). */
export function schemaWithNodes(nodes: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  // The schema and its `properties` object are 2 values; each property adds one more.
  if (nodes === 1) return {};
  for (let i = 0; i < nodes - 2; i++) properties[`p${i}`] = i;
  return { properties };
}

/** Runs `run` and returns what it threw; fails the test when it throws nothing. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw, and it returned');
}
