/**
 * The hour-of-day profile: the latest result our checks saw at each UTC hour. Pure module.
 *
 * It shows at a glance whether a server goes down at a certain time of day (a nightly deploy, a
 * backup window), and it is shown only once enough hours have a result to say so.
 */

import { DAILY_LETTERS, HOUR_PROFILE_MIN_HOURS, HOURS_PER_DAY, MS_PER_HOUR, NO_DATA_LETTER } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import type { ObservedLetter } from './letters.js';
import { instantOf } from './validate.js';

/** The latest result at one UTC hour. */
export interface HourSlot {
  letter: ObservedLetter;
  /** When that check ran, ISO 8601 UTC. */
  at: string;
}

/** 24 slots, index = UTC hour; null where no check has a result yet. */
export type HourProfile = readonly (HourSlot | null)[];

/** One check result to place in the profile. */
export interface HourResult {
  letter: ObservedLetter;
  at: Date | string;
}

/** A profile and whether it may be shown. */
export interface HourProfileView {
  hours: HourProfile;
  hoursWithResult: number;
  /** True once at least 6 hours have a result. */
  shown: boolean;
}

const OBSERVED: ReadonlySet<string> = new Set(DAILY_LETTERS.filter((letter) => letter !== NO_DATA_LETTER));

/** An hour profile with no results. */
export function createHourProfile(): HourProfile {
  return new Array<HourSlot | null>(HOURS_PER_DAY).fill(null);
}

/**
 * Places one result in the profile at its UTC hour, unless that hour already holds a newer one.
 * Returns a new profile; the input is not changed.
 *
 * @example
 * recordHourResult(createHourProfile(), { letter: 'o', at: '2025-06-01T13:05:00Z' })[13];
 * // { letter: 'o', at: '2025-06-01T13:05:00.000Z' }
 */
export function recordHourResult(profile: HourProfile, result: HourResult): HourProfile {
  if (!Array.isArray(profile) || profile.length !== HOURS_PER_DAY) {
    throw new ReliabilityInputError(
      'invalid-check',
      'profile',
      `expected ${HOURS_PER_DAY} slots, received ${describeValue(profile)}`,
    );
  }
  if (result === null || typeof result !== 'object' || !OBSERVED.has(result.letter)) {
    throw new ReliabilityInputError(
      'invalid-check',
      'result.letter',
      `expected one of o, a, p, d, received ${describeValue(result?.letter)}`,
    );
  }
  const atMs = instantOf(result.at, 'result.at', 'invalid-check');
  const at = new Date(atMs);
  const hour = at.getUTCHours();
  const current = profile[hour];
  if (current !== null && current !== undefined && Date.parse(current.at) > atMs) return profile;
  const next = [...profile];
  next[hour] = { letter: result.letter, at: at.toISOString() };
  return next;
}

/**
 * Whether a slot as it stands after a result (`after`) tells something the slot before it (`before`) did not: a
 * result where there was none, another letter, or a result of another clock hour (the same hour of another
 * day). A later result of the same clock hour with the same letter tells nothing new: the slot already shows
 * that hour's latest letter, and keeps the time of the first result of the run. A caller that keeps profiles
 * in a file rewrites it only for news, not on every five-minute check.
 *
 * @example
 * isHourSlotNews({ letter: 'o', at: '2026-12-10T13:00:00.000Z' }, { letter: 'o', at: '2026-12-10T13:35:00.000Z' }); // false
 * isHourSlotNews({ letter: 'o', at: '2026-12-10T13:00:00.000Z' }, { letter: 'd', at: '2026-12-10T13:35:00.000Z' }); // true
 */
export function isHourSlotNews(before: HourSlot | null, after: HourSlot | null): boolean {
  if (after === before || after === null) return false;
  if (before === null || before.letter !== after.letter) return true;
  return Math.floor(Date.parse(before.at) / MS_PER_HOUR) !== Math.floor(Date.parse(after.at) / MS_PER_HOUR);
}

/**
 * Builds the profile from check results in any order (the latest result per UTC hour wins; on a
 * tie the later one in the list) and says whether it is shown: from 6 hours with a result.
 *
 * @example
 * viewHourProfile(results); // { hours: [...24 slots], hoursWithResult: 6, shown: true }
 */
export function viewHourProfile(results: readonly HourResult[]): HourProfileView {
  if (!Array.isArray(results)) {
    throw new ReliabilityInputError(
      'invalid-check',
      'results',
      `expected an array, received ${describeValue(results)}`,
    );
  }
  let hours = createHourProfile();
  for (const result of results) hours = recordHourResult(hours, result);
  return describeHourProfile(hours);
}

/** Counts the hours with a result and says whether the profile is shown (from 6). */
export function describeHourProfile(hours: HourProfile): HourProfileView {
  const hoursWithResult = hours.filter((slot) => slot !== null).length;
  return { hours, hoursWithResult, shown: hoursWithResult >= HOUR_PROFILE_MIN_HOURS };
}
