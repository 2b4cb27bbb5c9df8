// Reading ISO 8601 times the way the engine's Python does (`datetime.fromisoformat` after turning a trailing Z into
// +00:00). Internal to the package. Unlike `Date.parse`, a time without an offset is UTC, as the engine assumes,
// never the local time of whichever machine runs the score.

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:.(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:\.\d+)?)?)?)?)?$/u;

function daysInMonth(year: number, month: number): number {
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return last.getUTCDate();
}

function offsetMinutes(offset: string | undefined): number | null {
  if (offset === undefined || offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(/:/g, '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length >= 4 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

/**
 * Milliseconds since the epoch for an ISO 8601 time (`2026-01-31`, `2026-01-31T10:00:00Z`,
 * `2026-01-31 10:00:00.123456+02:00`), or null when the text is not one. No offset means UTC.
 */
export function parseIsoTime(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = ISO_TIME.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const shift = offsetMinutes(offset);
  if (shift === null) return null;
  const millis = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, millis);
  return utc.getTime() - shift * 60_000;
}
