// How figures are written on the pages. Only presentation lives here: every figure arrives computed (and
// rounded where a rule says how) by a package, so these functions never decide a value, only its spelling.
import { UPTIME_RULES } from '@mcp-atlas/reliability/rules';

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A whole number with thousands separators: 12,345. */
export function formatCount(value: number): string {
  return WHOLE.format(value);
}

/**
 * An uptime percentage with the decimals the reliability package rounds it to, so 99.9 stays 99.9 and a
 * figure is never rounded up to 100 here.
 */
export function formatUptime(percent: number): string {
  return `${percent.toFixed(UPTIME_RULES.decimals)}%`;
}

/** A share from 0 to 1 as a percentage with one decimal: 0.9375 -> 93.8%. */
export function formatShare(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** A rule's whole-number percent as written in prose: 90 -> 90%. */
export function formatPercent(percent: number): string {
  return `${formatCount(percent)}%`;
}

/**
 * A rule's factor or weight as written in prose, with at least one decimal so it reads as a factor and
 * never with trailing noise: 0.8 -> 0.8, 1 -> 1.0, 1.15 -> 1.15.
 */
export function formatFactor(value: number): string {
  const text = String(value);
  return text.includes('.') ? text : value.toFixed(1);
}

/** A time of day in UTC, zero-padded: { hour: 4, minute: 5 } -> 04:05 UTC. */
export function formatTimeOfDay(time: { hour: number; minute: number }): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')} UTC`;
}

/** A duration in milliseconds: 240 ms, 3.3 s. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Stars from 1 to 5 with one decimal. */
export function formatStars(stars: number): string {
  return stars.toFixed(1);
}

/** "1 day", "3 days": a count with its noun, singular for one. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** An ISO 8601 instant written for people, in UTC: 2026-11-30 11:05 UTC. */
export function formatInstant(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const ORDINALS = [
  'zeroth',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
];

/** An ordinal word for small counts ("second"), digits with a suffix beyond ten ("12th"). */
export function ordinal(count: number): string {
  return ORDINALS[count] ?? `${count}th`;
}

/** A list of words joined for reading: "a", "a or b", "a, b or c". */
export function joinWords(words: readonly string[], last = 'or'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;
}
