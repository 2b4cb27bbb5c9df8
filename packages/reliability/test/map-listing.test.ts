import { describe, expect, it } from 'vitest';
import { leftOutReasonOf, ReliabilityInputError } from '../src/index.js';

const onMap = { listedByNewestCheck: true, optedOut: false, excludedByRobots: false, inRegistry: true };

describe('which servers are on the published map', () => {
  it('keeps a server the newest daily check listed', () => {
    expect(leftOutReasonOf(onMap)).toBeNull();
  });

  it('keeps an opted-out or robots-excluded host until the next daily check stops listing it', () => {
    expect(leftOutReasonOf({ ...onMap, optedOut: true })).toBeNull();
    expect(leftOutReasonOf({ ...onMap, excludedByRobots: true })).toBeNull();
    expect(leftOutReasonOf({ ...onMap, listedByNewestCheck: false, optedOut: true })).toBe('opted-out');
    expect(leftOutReasonOf({ ...onMap, listedByNewestCheck: false, excludedByRobots: true })).toBe('robots');
  });

  it('takes an entry gone from the registry off at once', () => {
    expect(leftOutReasonOf({ ...onMap, inRegistry: false })).toBe('not-in-registry');
    expect(leftOutReasonOf({ ...onMap, listedByNewestCheck: false, inRegistry: false })).toBe('not-in-registry');
  });

  it('names the owner’s opt-out first, then robots, when several apply', () => {
    expect(
      leftOutReasonOf({ listedByNewestCheck: false, optedOut: true, excludedByRobots: true, inRegistry: false }),
    ).toBe('opted-out');
    expect(
      leftOutReasonOf({ listedByNewestCheck: false, optedOut: false, excludedByRobots: true, inRegistry: false }),
    ).toBe('robots');
  });

  it('says when the newest check left a server out for no known reason', () => {
    expect(leftOutReasonOf({ ...onMap, listedByNewestCheck: false })).toBe('not-checked');
  });

  it('applies no listing rule before the first daily check or without a watched list', () => {
    expect(
      leftOutReasonOf({ listedByNewestCheck: null, optedOut: true, excludedByRobots: true, inRegistry: null }),
    ).toBeNull();
  });

  it('refuses facts that are not booleans', () => {
    expect(() => leftOutReasonOf({ ...onMap, optedOut: 'yes' as never })).toThrow(ReliabilityInputError);
  });
});
