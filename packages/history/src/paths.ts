/**
 * Which file paths a day's seal accepts.
 *
 * Pure module. A path names a file relative to the day folder, with forward slashes. Anything that
 * could point outside the folder, or that has two spellings for one file, is refused: otherwise two
 * different seals could describe the same folder, or a verifier could be steered to another file.
 */
import { describeValue, HistoryError } from './errors.js';

// Control characters would break the one-line-per-file format (a newline) or hide in logs.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
// UTF-8 cannot encode a lone surrogate; encoders replace it, so two paths could hash alike.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `path` is refused, or `null` when it is a valid day path. @internal */
export function pathProblem(path: unknown): string | null {
  if (typeof path !== 'string') return `path must be a string, got ${describeValue(path)}`;
  if (path === '') return 'path must not be empty';
  const refused = (why: string): string => `path ${describeValue(path)} is refused: ${why}`;
  if (path.includes('\\')) return refused('it contains a backslash (use forward slashes)');
  if (path.startsWith('/')) return refused('it starts with a slash (paths are relative to the day folder)');
  if (CONTROL_CHARACTER.test(path)) return refused('it contains a control character');
  if (LONE_SURROGATE.test(path)) return refused('it is not well-formed Unicode (a lone surrogate)');
  for (const segment of path.split('/')) {
    if (segment === '') return refused('it has an empty segment');
    if (segment === '..') return refused('it has a ".." segment');
    if (segment === '.') return refused('it has a "." segment');
  }
  return null;
}

/**
 * Throws `invalid-path` unless `path` is a valid path inside a day folder: non-empty, forward
 * slashes, no leading slash, no empty, `.` or `..` segment, no backslash, no control character,
 * well-formed Unicode.
 *
 * @example
 * assertDayPath('results/003.json') // ok
 * assertDayPath('../keys/private')  // throws: path "../keys/private" is refused: it has a ".." segment
 */
export function assertDayPath(path: unknown): asserts path is string {
  const problem = pathProblem(path);
  if (problem !== null) throw new HistoryError('invalid-path', problem);
}

/**
 * Orders two day paths the way lines are sorted: by UTF-16 code unit, as JavaScript's `<` compares
 * strings. For ASCII paths this is byte order (what `LC_ALL=C sort` gives). For non-ASCII paths it
 * can differ from UTF-8 byte order: characters U+E000–U+FFFF sort after characters above U+FFFF.
 *
 * @example
 * ['b.json', 'B.json', 'a/z.json'].sort(compareDayPaths) // ['B.json', 'a/z.json', 'b.json']
 */
export function compareDayPaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
