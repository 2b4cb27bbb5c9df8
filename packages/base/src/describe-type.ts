/**
 * The short name of a value's type that error messages print after "got": the packages name a wrong argument
 * the same way. Pure module: no I/O, no clock, no dependency.
 */

/** How {@link describeType} writes the name. */
export interface DescribeTypeOptions {
  /**
   * Put an article before the type (`a string`, `an object`), as probe's messages read. Without it the bare
   * `typeof` name is written (`string`, `object`), as risk's and findings' messages read. `null` and
   * `an array` are written the same either way.
   */
  readonly article?: boolean;
}

/**
 * A short name for a value's type, for error messages: `null`, `an array`, else its `typeof` name, with an
 * article when `options.article` is true. The article is `an` before `object` and `a` before every other name
 * (so `a undefined`), because messages already published read that way.
 *
 * @example
 * describeType([])                        // 'an array'
 * describeType('x')                       // 'string'
 * describeType('x', { article: true })    // 'a string'
 * describeType({}, { article: true })     // 'an object'
 */
export function describeType(value: unknown, options: DescribeTypeOptions = {}): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  if (options.article !== true) return type;
  return type === 'object' ? 'an object' : `a ${type}`;
}
