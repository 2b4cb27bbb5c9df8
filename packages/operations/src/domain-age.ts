/**
 * Domain age: which servers get a lookup of their domain's public registration record, how many new
 * lookups one scan may make, how long a found date is kept, and a domain's age in whole days. Pure
 * module: no I/O, no clock; every day comes from the caller.
 *
 * What counts as a young domain (fewer than 90 days) is the route's rule and lives with it
 * (`ROUTE_SCORE_RULES.youngDomainDays` in @mcp-atlas/route); this module only produces the age the route reads.
 */

import { MS_PER_DAY } from '@mcp-atlas/base';
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { assertCount, describeValue, formatDay, instantOf, startOfDay } from './validate.js';

/** New lookups one scan may make; the domains past this number wait for the next scan. */
export const DOMAIN_AGE_LOOKUPS_PER_SCAN = 40;

/** Days a found registration date is used: looked up on day D, it serves D to D + 29 and is read again on D + 30. */
export const DOMAIN_AGE_KEEP_DAYS = 30;

/** What decides whether a server's domain is looked up. */
export interface DomainAgeSubject {
  /** High-risk tools in the server's newest tool list. */
  highRiskTools: number;
  /** The server was submitted by its owner (rather than read from a registry). */
  submitted: boolean;
}

/**
 * True when a server's domain age is looked up: it has at least one high-risk tool, or it was
 * submitted by its owner. Other servers are never looked up.
 *
 * @example
 * needsDomainAge({ highRiskTools: 1, submitted: false }); // true
 * needsDomainAge({ highRiskTools: 0, submitted: false }); // false
 */
export function needsDomainAge(subject: DomainAgeSubject): boolean {
  if (subject === null || typeof subject !== 'object') {
    throw new ReliabilityInputError(
      'invalid-server',
      'subject',
      `expected { highRiskTools, submitted }, received ${describeValue(subject)}`,
    );
  }
  const highRisk = assertCount(subject.highRiskTools, 'subject.highRiskTools', 'invalid-server');
  if (typeof subject.submitted !== 'boolean') {
    throw new ReliabilityInputError(
      'invalid-server',
      'subject.submitted',
      `expected true or false, received ${describeValue(subject.submitted)}`,
    );
  }
  return highRisk > 0 || subject.submitted;
}

/** Whole UTC days from `earlier` to `later` (negative when `later` comes first). */
function daysFrom(earlier: string, earlierField: string, later: string, laterField: string): number {
  return Math.round((startOfDay(later, laterField) - startOfDay(earlier, earlierField)) / MS_PER_DAY);
}

/**
 * True when a registration date found on `lookedUpDay` may still be used on `today`: 0 to 29 days
 * later. A lookup day after `today` (a clock set back) is not fresh, so it is read again.
 *
 * @example
 * isDomainAgeFresh('2026-11-01', '2026-11-30'); // true  (29 days)
 * isDomainAgeFresh('2026-11-01', '2026-12-01'); // false (30 days)
 */
export function isDomainAgeFresh(lookedUpDay: string, today: string): boolean {
  const days = daysFrom(lookedUpDay, 'lookedUpDay', today, 'today');
  return days >= 0 && days < DOMAIN_AGE_KEEP_DAYS;
}

/** What is known about one domain before a scan's lookups. */
export interface DomainLookupState {
  domain: string;
  /** The day of the last lookup, or null when it was never looked up. */
  lookedUpDay: string | null;
  /** True when that lookup found a registration date. */
  found: boolean;
}

/** Which domains a scan looks up, which keep their date, and which wait for the next scan. */
export interface DomainLookupPlan {
  /** Found within the last 30 days: used as is, no lookup. */
  reuse: string[];
  /** Looked up in this scan, at most 40, in the order they should be asked. */
  lookup: string[];
  /** Due, but past the scan's limit: they wait for the next scan. */
  wait: string[];
}

/**
 * Plans one scan's lookups. A domain whose date was found within the last 30 days is reused. Every other
 * domain is due: first those never looked up, then the rest (an expired date, or a lookup that found no
 * date) from the oldest lookup day, ties by name. The first 40 due are looked up; the others wait for the
 * next scan. A lookup that found no date is thus retried at the next scan, after every domain never asked.
 *
 * @example
 * planDomainLookups([{ domain: 'a.example', lookedUpDay: null, found: false }], '2026-11-10');
 * // { reuse: [], lookup: ['a.example'], wait: [] }
 */
export function planDomainLookups(
  domains: readonly DomainLookupState[],
  today: string,
  limit: number = DOMAIN_AGE_LOOKUPS_PER_SCAN,
): DomainLookupPlan {
  startOfDay(today, 'today');
  assertCount(limit, 'limit');
  if (!Array.isArray(domains))
    throw new ReliabilityInputError(
      'invalid-server',
      'domains',
      `expected an array, received ${describeValue(domains)}`,
    );
  const seen = new Set<string>();
  const reuse: string[] = [];
  const due: DomainLookupState[] = [];
  domains.forEach((entry, index) => {
    if (entry === null || typeof entry !== 'object' || typeof entry.domain !== 'string' || entry.domain === '') {
      throw new ReliabilityInputError(
        'invalid-server',
        `domains[${index}].domain`,
        `expected a non-empty string, received ${describeValue(entry?.domain)}`,
      );
    }
    if (seen.has(entry.domain))
      throw new ReliabilityInputError(
        'duplicate-server',
        `domains[${index}].domain`,
        `${entry.domain} is listed twice`,
      );
    seen.add(entry.domain);
    if (entry.lookedUpDay !== null) startOfDay(entry.lookedUpDay, `domains[${index}].lookedUpDay`);
    if (entry.found === true && entry.lookedUpDay !== null && isDomainAgeFresh(entry.lookedUpDay, today))
      reuse.push(entry.domain);
    else due.push(entry);
  });
  due.sort((a, b) => {
    if (a.lookedUpDay !== b.lookedUpDay) {
      if (a.lookedUpDay === null) return -1;
      if (b.lookedUpDay === null) return 1;
      return a.lookedUpDay < b.lookedUpDay ? -1 : 1;
    }
    return a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0;
  });
  return {
    reuse: reuse.sort(),
    lookup: due.slice(0, limit).map((entry) => entry.domain),
    wait: due.slice(limit).map((entry) => entry.domain),
  };
}

/**
 * A domain's age on `day`, in whole UTC days from the day of its registration (an ISO 8601 time with
 * offset). A registration dated after `day` gives 0: a record that claims the future is treated as brand new.
 *
 * @example
 * domainAgeDays('2026-08-12T23:59:00Z', '2026-11-10'); // 90
 * domainAgeDays('2026-08-13T00:00:00Z', '2026-11-10'); // 89
 */
export function domainAgeDays(registeredAt: string, day: string): number {
  const registered = formatDay(instantOf(registeredAt, 'registeredAt'));
  return Math.max(0, daysFrom(registered, 'registeredAt', day, 'day'));
}
