// Pure module: the public API of @mcp-atlas/base, the private package the others bundle (README.md says why).
// This file re-exports the day helpers, the word splitters, the address parsers, describeType and the
// control-character filter for servers' text.

export { parseIpv4, parseIpv6 } from './address.js';
export { stripControlCharacters } from './control-characters.js';
export {
  dayNumberOf,
  dayOfNumber,
  dayOfTime,
  dayStartMs,
  daysBetween,
  daysSince,
  isDay,
  MS_PER_DAY,
  shiftDay,
} from './day.js';
export { type DescribeTypeOptions, describeType } from './describe-type.js';
export { splitText, splitWords } from './words.js';
