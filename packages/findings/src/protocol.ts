// Pure module: reading MCP protocol versions, which are calendar dates such as 2025-06-18.
import { OLDER_PROTOCOL_BEFORE } from './constants.js';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2 && isLeapYear(year)) return 29;
  return DAYS_IN_MONTH[month - 1] as number;
}

/**
 * Reads a protocol version as a date and returns it as the number `yyyymmdd`, so two versions compare
 * as numbers; returns null for anything that is not exactly `YYYY-MM-DD` naming a real calendar day
 * (no surrounding spaces, no time, no other types). Such versions are never judged older.
 *
 * @example parseProtocolDate('2025-03-26') // 20250326;  parseProtocolDate('2025-02-30') // null
 */
export function parseProtocolDate(version: unknown): number | null {
  if (typeof version !== 'string') return null;
  const match = DATE_PATTERN.exec(version);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return year * 10_000 + month * 100 + day;
}

const OLDER_BEFORE = parseProtocolDate(OLDER_PROTOCOL_BEFORE) as number;

/**
 * True when a protocol version is a date strictly before OLDER_PROTOCOL_BEFORE (2025-03-26). The
 * cut-off day itself and every later one are current; a version that is not a date is never older.
 *
 * @example isOlderProtocol('2024-11-05') // true;  isOlderProtocol('2025-03-26') // false;  isOlderProtocol('draft') // false
 */
export function isOlderProtocol(version: unknown): boolean {
  const date = parseProtocolDate(version);
  return date !== null && date < OLDER_BEFORE;
}
