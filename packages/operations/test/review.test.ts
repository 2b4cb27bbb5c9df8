import { decideIncident } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import { decideIncidentReview } from '../src/index.js';
import { REVIEW_QUEUE_RULES } from '../src/rules.js';

const NOW = new Date('2026-11-10T12:00:00Z');

/** A decision with nothing counted, changed by `overrides`. */
function decision(overrides: Partial<Parameters<typeof decideIncidentReview>[0]> = {}) {
  return {
    shown: false,
    since: null,
    confirmed: false,
    failingReporters: [],
    failingSensors: [],
    lastWorkedAt: null,
    ...overrides,
  };
}

describe('what an incident decision puts before a person', () => {
  it('nothing counted: nothing to review', () => {
    expect(decideIncidentReview(decideIncident({}, NOW))).toBeNull();
    expect(decideIncidentReview(decision())).toBeNull();
  });

  it('a shown incident is reviewed from its earliest counted failure', () => {
    expect(decideIncidentReview(decision({ shown: true, since: '2026-11-10T11:00:00Z', confirmed: true }))).toEqual({
      kind: 'incident',
      openedAt: '2026-11-10T11:00:00Z',
    });
  });

  it('a shown incident without its start is not an incident item', () => {
    expect(decideIncidentReview(decision({ shown: true, since: null, confirmed: true }))).toBeNull();
    expect(decideIncidentReview(decision({ shown: true, since: null, failingReporters: ['a'] }))).toEqual({
      kind: 'unconfirmed-failure',
      reporters: 1,
      lastWorkedAt: null,
    });
  });

  it('one failing reporter or sensor that nothing confirmed is enough; none is not', () => {
    expect(decideIncidentReview(decision({ failingSensors: ['s1'], lastWorkedAt: '2026-11-10T10:00:00Z' }))).toEqual({
      kind: 'unconfirmed-failure',
      reporters: 1,
      lastWorkedAt: '2026-11-10T10:00:00Z',
    });
    expect(decideIncidentReview(decision({ failingReporters: ['a', 'b'], failingSensors: ['s1'] }))).toEqual({
      kind: 'unconfirmed-failure',
      reporters: 3,
      lastWorkedAt: null,
    });
    expect(decideIncidentReview(decision({ failingReporters: [], failingSensors: [] }))).toBeNull();
  });

  it('confirmed failures that are not shown need no review', () => {
    expect(decideIncidentReview(decision({ confirmed: true, failingReporters: ['a'] }))).toBeNull();
  });

  it('one open item per server for failures and for incidents', () => {
    expect(REVIEW_QUEUE_RULES.oneOpenPerServerKinds).toEqual(['unconfirmed-failure', 'incident']);
    expect(Object.isFrozen(REVIEW_QUEUE_RULES.oneOpenPerServerKinds)).toBe(true);
  });
});
