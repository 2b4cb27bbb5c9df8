import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import { decideObservation, type ObservationFigures, reviewSubmission, type SubmissionCheck } from '../src/index.js';
import {
  observationWindow,
  SUBMISSION_ADMIT_PERCENT,
  SUBMISSION_CHECK_INTERVAL_HOURS,
  SUBMISSION_EXTEND_PERCENT,
  SUBMISSION_MAX_EXTENSIONS,
  SUBMISSION_MAX_TOOL_LIST_CHANGES,
  SUBMISSION_MIN_CHECKS,
  SUBMISSION_WINDOW_DAYS,
  summarizeObservation,
} from '../src/submission.js';

const START = '2026-03-01T10:00:00.000Z';
const HOUR = 3_600_000;
const at = (hours: number): string => new Date(Date.parse(START) + hours * HOUR).toISOString();

/** A check `hours` after START; answered checks list tool list `hash`. */
function check(hours: number, answered: boolean, hash = 'list-a', described = true): SubmissionCheck {
  return {
    at: at(hours),
    answeredWithTools: answered,
    toolsHash: answered ? hash : null,
    allToolsDescribed: described,
  };
}

/** The 28 slots of a window starting `offsetHours` after START, answered unless listed in `down`. */
function week(offsetHours = 0, down: number[] = [], hash = 'list-a'): SubmissionCheck[] {
  return Array.from({ length: 28 }, (_, slot) => check(offsetHours + slot * 6, !down.includes(slot), hash));
}

const figures = (over: Partial<ObservationFigures>): ObservationFigures => ({
  checks: 28,
  answered: 28,
  toolListChanges: 0,
  undescribedChecks: 0,
  extensions: 0,
  ...over,
});

describe('the submission rules', () => {
  it('are the published numbers', () => {
    expect([
      SUBMISSION_CHECK_INTERVAL_HOURS,
      SUBMISSION_WINDOW_DAYS,
      SUBMISSION_MIN_CHECKS,
      SUBMISSION_ADMIT_PERCENT,
      SUBMISSION_EXTEND_PERCENT,
      SUBMISSION_MAX_TOOL_LIST_CHANGES,
      SUBMISSION_MAX_EXTENSIONS,
    ]).toEqual([6, 7, 20, 90, 70, 1, 1]);
  });
});

describe('observationWindow', () => {
  it('runs 7 days from the submission, and the extra window the 7 days after', () => {
    expect(observationWindow(START, 0)).toEqual({ index: 0, start: START, end: '2026-03-08T10:00:00.000Z' });
    expect(observationWindow(new Date(START), 1)).toEqual({
      index: 1,
      start: '2026-03-08T10:00:00.000Z',
      end: '2026-03-15T10:00:00.000Z',
    });
  });

  it('refuses a second extra window and malformed times', () => {
    expect(() => observationWindow(START, 2)).toThrow(/extensions: expected at most 1, received 2/);
    expect(() => observationWindow('2026-03-01 10:00', 0)).toThrow(ReliabilityInputError);
  });
});

describe('decideObservation at and around every threshold', () => {
  it('admits at exactly 20 checks and exactly 90% (18 of 20)', () => {
    const decision = decideObservation(figures({ checks: 20, answered: 18 }));
    expect(decision.verdict).toBe('admitted');
    expect(decision.figures.answeredPercent).toBe(90);
    expect(decision.conditions.every((c) => c.met)).toBe(true);
    expect(decision.reasons).toEqual([
      '20 checks ran (at least 20 needed)',
      '18 of 20 answered with tools, 90% (at least 90% needed)',
      'the tool list changed 0 times (at most 1 allowed)',
      'every tool listed had a description',
    ]);
  });

  it('gives 19 checks, all answered, one more window (too few checks), then refuses', () => {
    const first = decideObservation(figures({ checks: 19, answered: 19 }));
    expect(first.verdict).toBe('extended');
    expect(first.reasons).toEqual([
      '19 checks ran (at least 20 needed)',
      'one more 7-day window follows (granted once)',
    ]);
    const second = decideObservation(figures({ checks: 19, answered: 19, extensions: 1 }));
    expect(second.verdict).toBe('refused');
    expect(second.reasons).toEqual(['19 checks ran (at least 20 needed)', 'the extra window was already used']);
  });

  it('admits 90.00% and extends 89.99%, which reads 89.9 rather than rounding up to 90.0', () => {
    expect(decideObservation(figures({ checks: 10_000, answered: 9_000 })).verdict).toBe('admitted');
    const below = decideObservation(figures({ checks: 10_000, answered: 8_999 }));
    expect(below.verdict).toBe('extended');
    expect(below.figures.answeredPercent).toBe(89.9);
    expect(below.conditions.find((c) => c.id === 'answered')).toEqual({
      id: 'answered',
      met: false,
      text: '8999 of 10000 answered with tools, 89.9% (at least 90% needed)',
    });
  });

  it('extends at exactly 70% (14 of 20; 7,000 of 10,000) and refuses at 69.99% and 65%', () => {
    expect(decideObservation(figures({ checks: 20, answered: 14 })).verdict).toBe('extended');
    expect(decideObservation(figures({ checks: 10_000, answered: 7_000 })).verdict).toBe('extended');
    const under = decideObservation(figures({ checks: 10_000, answered: 6_999 }));
    expect(under.verdict).toBe('refused');
    expect(under.reasons).toEqual(['6999 of 10000 answered with tools, 69.9% (under 70%, so no extra window)']);
    expect(decideObservation(figures({ checks: 20, answered: 13 })).verdict).toBe('refused');
  });

  it('extends 25 of 28 (89.2%) and 22 of 28 (78.5%), and admits 26 of 28 (92.8%)', () => {
    expect(decideObservation(figures({ answered: 25 })).figures.answeredPercent).toBe(89.2);
    expect(decideObservation(figures({ answered: 25 })).verdict).toBe('extended');
    expect(decideObservation(figures({ answered: 22 })).figures.answeredPercent).toBe(78.5);
    expect(decideObservation(figures({ answered: 22 })).verdict).toBe('extended');
    expect(decideObservation(figures({ answered: 26 })).verdict).toBe('admitted');
  });

  it('admits one tool-list change and refuses two', () => {
    expect(decideObservation(figures({ toolListChanges: 1 })).verdict).toBe('admitted');
    const two = decideObservation(figures({ toolListChanges: 2 }));
    expect(two.verdict).toBe('refused');
    expect(two.reasons).toEqual(['the tool list changed 2 times (at most 1 allowed)']);
  });

  it('refuses a server that once listed a tool without a description', () => {
    const one = decideObservation(figures({ undescribedChecks: 1 }));
    expect(one.verdict).toBe('refused');
    expect(one.reasons).toEqual([
      '1 answered check listed a tool without a description (every tool must be described)',
    ]);
  });

  it('extends 70% to 90% on the share alone, whatever else failed, as the rule says', () => {
    const decision = decideObservation(figures({ answered: 22, toolListChanges: 2 }));
    expect(decision.verdict).toBe('extended');
    expect(decision.reasons).toEqual([
      '22 of 28 answered with tools, 78.5% (at least 90% needed)',
      'the tool list changed 2 times (at most 1 allowed)',
      'one more 7-day window follows (granted once)',
    ]);
  });

  it('refuses a second extension, and admits a second window that passes', () => {
    const again = decideObservation(figures({ answered: 22, extensions: 1 }));
    expect(again.verdict).toBe('refused');
    expect(again.reasons).toEqual([
      '22 of 28 answered with tools, 78.5% (at least 90% needed)',
      'the extra window was already used',
    ]);
    expect(decideObservation(figures({ answered: 28, extensions: 1 })).verdict).toBe('admitted');
  });

  it('extends a window in which no check ran (our schedule missed it), once', () => {
    const none = decideObservation(figures({ checks: 0, answered: 0 }));
    expect(none.verdict).toBe('extended');
    expect(none.figures.answeredPercent).toBeNull();
    expect(none.conditions.find((c) => c.id === 'answered')?.text).toBe(
      '0 of 0 answered with tools, no checks (at least 90% needed)',
    );
    expect(decideObservation(figures({ checks: 0, answered: 0, extensions: 1 })).verdict).toBe('refused');
  });

  it('throws on figures that cannot be', () => {
    expect(() => decideObservation(figures({ answered: 29 }))).toThrow(
      /figures.answered: expected at most figures.checks \(28\), received 29/,
    );
    expect(() => decideObservation(figures({ answered: 3, undescribedChecks: 4 }))).toThrow(/undescribedChecks/);
    expect(() => decideObservation(figures({ checks: -1 }))).toThrow(ReliabilityInputError);
    expect(() => decideObservation(figures({ extensions: 2 }))).toThrow(/figures.extensions/);
    expect(() => decideObservation(null as unknown as ObservationFigures)).toThrow(/figures: expected an object/);
  });
});

describe('summarizeObservation', () => {
  it('counts checks, answers, tool-list changes and undescribed lists in the current window only', () => {
    const checks = [
      check(0, true, 'a'),
      check(6, false),
      check(12, true, 'b', false),
      check(18, true, 'b'),
      check(24, true, 'a'),
      // After the first window: not counted while extensions is 0.
      check(170, true, 'c'),
    ];
    expect(summarizeObservation({ submittedAt: START, extensions: 0, checks })).toEqual({
      checks: 5,
      answered: 4,
      toolListChanges: 2,
      undescribedChecks: 1,
      extensions: 0,
    });
  });

  it('reads checks in time order whatever order they come in', () => {
    const checks = [check(12, true, 'a'), check(0, true, 'a'), check(6, true, 'b')];
    expect(summarizeObservation({ submittedAt: START, extensions: 0, checks }).toolListChanges).toBe(2);
  });

  it('counts a change at the boundary of the extra window against the last list before it', () => {
    const checks = [...week(0, [], 'a'), check(168, true, 'b'), check(174, true, 'b')];
    expect(summarizeObservation({ submittedAt: START, extensions: 1, checks })).toEqual({
      checks: 2,
      answered: 2,
      toolListChanges: 1,
      undescribedChecks: 0,
      extensions: 1,
    });
  });

  it('does not count a failed check as a change, and compares across it', () => {
    const checks = [check(0, true, 'a'), check(6, false), check(12, true, 'a')];
    expect(summarizeObservation({ submittedAt: START, extensions: 0, checks }).toolListChanges).toBe(0);
  });

  it('throws on malformed checks with the field at fault', () => {
    const bad = (c: unknown) => () =>
      summarizeObservation({ submittedAt: START, extensions: 0, checks: [c as SubmissionCheck] });
    expect(bad({ at: 'yesterday', answeredWithTools: true, toolsHash: 'a', allToolsDescribed: true })).toThrow(
      /checks\[0\]\.at/,
    );
    expect(bad({ at: START, answeredWithTools: 'yes', toolsHash: 'a', allToolsDescribed: true })).toThrow(
      /checks\[0\]\.answeredWithTools/,
    );
    expect(bad({ at: START, answeredWithTools: true, toolsHash: null, allToolsDescribed: true })).toThrow(
      /checks\[0\]\.toolsHash: expected the non-empty tool-list hash/,
    );
    expect(bad({ at: START, answeredWithTools: false, toolsHash: 7, allToolsDescribed: true })).toThrow(
      /checks\[0\]\.toolsHash/,
    );
    expect(bad(null)).toThrow(/checks\[0\]: expected an object/);
    expect(() => summarizeObservation({ submittedAt: START, extensions: 0, checks: 'none' as never })).toThrow(
      /submission.checks/,
    );
  });
});

describe('reviewSubmission', () => {
  it('makes the first check due at the submission time', () => {
    const review = reviewSubmission({ submittedAt: START, extensions: 0, checks: [] }, new Date(START));
    expect(review).toMatchObject({ checkDue: true, nextCheckAt: START, decision: null, window: { index: 0 } });
  });

  it('puts checks on a 6-hour grid: due at the slot, not a moment before', () => {
    const submission = { submittedAt: START, extensions: 0, checks: [check(0, true)] };
    expect(reviewSubmission(submission, new Date(Date.parse(at(6)) - 1))).toMatchObject({
      checkDue: false,
      nextCheckAt: at(6),
    });
    expect(reviewSubmission(submission, new Date(at(6)))).toMatchObject({ checkDue: true, nextCheckAt: at(6) });
  });

  it('skips a missed slot instead of making it up, and a late check keeps the grid', () => {
    const late = { submittedAt: START, extensions: 0, checks: [check(0, true), check(13, true)] };
    expect(reviewSubmission(late, new Date(at(14))).nextCheckAt).toBe(at(18));
  });

  it('has no slot left after the 28th check and decides when the window ends', () => {
    const full = { submittedAt: START, extensions: 0, checks: week() };
    const before = reviewSubmission(full, new Date(Date.parse(at(168)) - 1));
    expect(before).toMatchObject({ checkDue: false, nextCheckAt: null, decision: null });
    expect(before.figures).toEqual({
      checks: 28,
      answered: 28,
      toolListChanges: 0,
      undescribedChecks: 0,
      extensions: 0,
    });
    const after = reviewSubmission(full, new Date(at(168)));
    expect(after.decision?.verdict).toBe('admitted');
  });

  it('opens the extra window at its first slot once the caller records the extension', () => {
    const extended = { submittedAt: START, extensions: 1, checks: week(0, [1, 3, 5, 7, 9, 11]) };
    expect(reviewSubmission({ ...extended, extensions: 0 }, new Date(at(168))).decision?.verdict).toBe('extended');
    const review = reviewSubmission(extended, new Date(at(168)));
    expect(review).toMatchObject({
      checkDue: true,
      nextCheckAt: at(168),
      decision: null,
      window: { index: 1, start: at(168), end: at(336) },
    });
    expect(review.figures.checks).toBe(0);
  });

  it('decides a window in which checks stopped (a dead scheduler) without waiting for more', () => {
    const sparse = { submittedAt: START, extensions: 0, checks: [check(0, true)] };
    expect(reviewSubmission(sparse, new Date(at(200))).decision?.verdict).toBe('extended');
  });

  it('throws on a third window or a bad clock', () => {
    expect(() => reviewSubmission({ submittedAt: START, extensions: 2, checks: [] }, new Date(START))).toThrow(
      /submission.extensions/,
    );
    expect(() => reviewSubmission({ submittedAt: START, extensions: 0, checks: [] }, new Date('nope'))).toThrow(/now/);
  });
});
