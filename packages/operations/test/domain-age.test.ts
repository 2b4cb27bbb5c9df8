// The domain-age rules with hand-computed cases at and around each threshold: 40 new lookups per scan,
// dates kept 30 days, and ages on either side of the route's 90-day line.
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import { DOMAIN_AGE_KEEP_DAYS, DOMAIN_AGE_LOOKUPS_PER_SCAN } from '../src/domain-age.js';
import {
  type DomainLookupState,
  domainAgeDays,
  isDomainAgeFresh,
  needsDomainAge,
  planDomainLookups,
} from '../src/index.js';

const never = (domain: string): DomainLookupState => ({ domain, lookedUpDay: null, found: false });
// d01.example ... dNN.example, so names sort in number order.
const named = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `d${String(i + 1).padStart(2, '0')}.example`);

describe('the domain-age constants', () => {
  it('are 40 lookups per scan and 30 days kept', () => {
    expect(DOMAIN_AGE_LOOKUPS_PER_SCAN).toBe(40);
    expect(DOMAIN_AGE_KEEP_DAYS).toBe(30);
  });
});

describe('which servers get a lookup', () => {
  it('those with a high-risk tool, and submitted ones; no other', () => {
    expect(needsDomainAge({ highRiskTools: 1, submitted: false })).toBe(true);
    expect(needsDomainAge({ highRiskTools: 7, submitted: false })).toBe(true);
    expect(needsDomainAge({ highRiskTools: 0, submitted: true })).toBe(true);
    expect(needsDomainAge({ highRiskTools: 0, submitted: false })).toBe(false);
  });

  it('refuses input it cannot read', () => {
    expect(() => needsDomainAge({ highRiskTools: -1, submitted: false })).toThrow(ReliabilityInputError);
    expect(() => needsDomainAge({ highRiskTools: 0.5, submitted: false })).toThrow(ReliabilityInputError);
    expect(() => needsDomainAge({ highRiskTools: 0, submitted: 'yes' as never })).toThrow(ReliabilityInputError);
    expect(() => needsDomainAge(null as never)).toThrow(ReliabilityInputError);
  });
});

describe('at most 40 new lookups per scan', () => {
  it('39 due: all looked up', () => {
    const plan = planDomainLookups(named(39).map(never), '2026-11-10');
    expect(plan.lookup).toHaveLength(39);
    expect(plan.wait).toEqual([]);
  });

  it('40 due: all looked up', () => {
    const plan = planDomainLookups(named(40).map(never), '2026-11-10');
    expect(plan.lookup).toEqual(named(40));
    expect(plan.wait).toEqual([]);
  });

  it('41 due: the 41st waits for the next scan', () => {
    const plan = planDomainLookups(named(41).map(never), '2026-11-10');
    expect(plan.lookup).toEqual(named(40));
    expect(plan.wait).toEqual(['d41.example']);
  });

  it('next scan: the 40 found dates are reused and only the waiting one is asked', () => {
    const states: DomainLookupState[] = named(41).map((domain, i) =>
      i < 40 ? { domain, lookedUpDay: '2026-11-10', found: true } : never(domain),
    );
    expect(planDomainLookups(states, '2026-11-11')).toEqual({ reuse: named(40), lookup: ['d41.example'], wait: [] });
  });

  it('never-asked domains go first, then the oldest lookups, ties by name', () => {
    const plan = planDomainLookups(
      [
        { domain: 'failed-yesterday.example', lookedUpDay: '2026-11-09', found: false },
        { domain: 'expired-b.example', lookedUpDay: '2026-10-01', found: true },
        { domain: 'new-b.example', lookedUpDay: null, found: false },
        { domain: 'expired-a.example', lookedUpDay: '2026-10-01', found: true },
        { domain: 'new-a.example', lookedUpDay: null, found: false },
        { domain: 'fresh.example', lookedUpDay: '2026-11-01', found: true },
      ],
      '2026-11-10',
      4,
    );
    expect(plan).toEqual({
      reuse: ['fresh.example'],
      lookup: ['new-a.example', 'new-b.example', 'expired-a.example', 'expired-b.example'],
      wait: ['failed-yesterday.example'],
    });
  });

  it('a lookup that found no date is retried at the next scan, even the next day', () => {
    expect(
      planDomainLookups([{ domain: 'nodate.example', lookedUpDay: '2026-11-09', found: false }], '2026-11-10').lookup,
    ).toEqual(['nodate.example']);
  });

  it('refuses a duplicate domain, a bad day and a bad limit', () => {
    expect(() => planDomainLookups([never('a.example'), never('a.example')], '2026-11-10')).toThrow(/listed twice/);
    expect(() => planDomainLookups([never('a.example')], '2026-13-01')).toThrow(ReliabilityInputError);
    expect(() =>
      planDomainLookups([{ domain: 'a.example', lookedUpDay: 'yesterday', found: true }], '2026-11-10'),
    ).toThrow(ReliabilityInputError);
    expect(() => planDomainLookups([], '2026-11-10', -1)).toThrow(ReliabilityInputError);
    expect(() => planDomainLookups([{ domain: '', lookedUpDay: null, found: false }], '2026-11-10')).toThrow(
      ReliabilityInputError,
    );
  });
});

describe('found dates are kept 30 days', () => {
  // Looked up 2026-11-01: 2026-11-30 is 29 days later, 2026-12-01 is 30.
  it('reused from the lookup day through day 29', () => {
    expect(isDomainAgeFresh('2026-11-01', '2026-11-01')).toBe(true);
    expect(isDomainAgeFresh('2026-11-01', '2026-11-29')).toBe(true);
    expect(isDomainAgeFresh('2026-11-01', '2026-11-30')).toBe(true);
  });

  it('read again on day 30 and after', () => {
    expect(isDomainAgeFresh('2026-11-01', '2026-12-01')).toBe(false);
    expect(isDomainAgeFresh('2026-11-01', '2026-12-02')).toBe(false);
  });

  it('a lookup dated after today (a clock set back) is read again', () => {
    expect(isDomainAgeFresh('2026-11-02', '2026-11-01')).toBe(false);
  });

  it('the plan follows: day 29 reuses, day 30 looks up again', () => {
    const state = [{ domain: 'kept.example', lookedUpDay: '2026-11-01', found: true }];
    expect(planDomainLookups(state, '2026-11-30')).toEqual({ reuse: ['kept.example'], lookup: [], wait: [] });
    expect(planDomainLookups(state, '2026-12-01')).toEqual({ reuse: [], lookup: ['kept.example'], wait: [] });
  });
});

describe('a domain’s age in days', () => {
  // From 2026-08-12 to 2026-11-10: 19 days left in August, 30 in September, 31 in October, 10 in November = 90.
  it('counts whole UTC days from the registration day, around the 90-day line', () => {
    expect(domainAgeDays('2026-08-11T00:00:00Z', '2026-11-10')).toBe(91);
    expect(domainAgeDays('2026-08-12T00:00:00Z', '2026-11-10')).toBe(90);
    expect(domainAgeDays('2026-08-12T23:59:59Z', '2026-11-10')).toBe(90);
    expect(domainAgeDays('2026-08-13T00:00:00Z', '2026-11-10')).toBe(89);
  });

  it('uses the UTC day of a time given with an offset', () => {
    // 01:00 on the 13th at +02:00 is 23:00 on the 12th in UTC.
    expect(domainAgeDays('2026-08-13T01:00:00+02:00', '2026-11-10')).toBe(90);
  });

  it('is 0 on the registration day, and 0 for a registration dated in the future', () => {
    expect(domainAgeDays('2026-11-10T08:00:00Z', '2026-11-10')).toBe(0);
    expect(domainAgeDays('2027-01-01T00:00:00Z', '2026-11-10')).toBe(0);
  });

  it('spans years and leap days', () => {
    // 1995-08-14 to 2026-08-14: 31 x 365 + 8 leap days (1996 to 2024) = 11,323; then 88 days to 2026-11-10.
    expect(domainAgeDays('1995-08-14T04:00:00Z', '2026-11-10')).toBe(11_411);
  });

  it('refuses a time without an offset, and a bad day', () => {
    expect(() => domainAgeDays('2026-08-12', '2026-11-10')).toThrow(ReliabilityInputError);
    expect(() => domainAgeDays('2026-08-12T00:00:00Z', '11/10/2026')).toThrow(ReliabilityInputError);
  });
});
