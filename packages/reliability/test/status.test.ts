import { describe, expect, it } from 'vitest';
import { ReliabilityInputError } from '../src/index.js';
import { type CheckObservation, describeShownState, displayState } from '../src/live.js';
import { decideShownStatus, shouldAlertOwner } from '../src/status.js';

const o: CheckObservation = { letter: 'o' };
const a: CheckObservation = { letter: 'a' };
const d: CheckObservation = { letter: 'd', httpStatus: 503 };
const nonStandard: CheckObservation = { letter: 'd', httpStatus: 405 };

describe('displayState', () => {
  it('maps o, a, p and d to their states', () => {
    expect(displayState({ letter: 'o' })).toBe('answering');
    expect(displayState({ letter: 'a' })).toBe('sign_in');
    expect(displayState({ letter: 'p' })).toBe('payment');
    expect(displayState({ letter: 'd' })).toBe('down');
  });

  it('shows 400, 405, 406, 415, 422 and non-MCP answers as non-standard, never down', () => {
    for (const httpStatus of [400, 405, 406, 415, 422]) {
      expect(displayState({ letter: 'd', httpStatus })).toBe('non_standard');
    }
    expect(displayState({ letter: 'd', notMcp: true })).toBe('non_standard');
  });

  it('keeps other HTTP errors as down', () => {
    for (const httpStatus of [401, 404, 408, 410, 429, 500, 502, 503]) {
      expect(displayState({ letter: 'd', httpStatus })).toBe('down');
    }
    expect(displayState({ letter: 'd', httpStatus: null, notMcp: false })).toBe('down');
  });

  it('lets the letter win over a status on a check that answered', () => {
    expect(displayState({ letter: 'o', httpStatus: 400 })).toBe('answering');
  });

  it('throws on a letter a check cannot have', () => {
    expect(() => displayState({ letter: 'n' as 'o' })).toThrow(ReliabilityInputError);
    expect(() => displayState(null as unknown as CheckObservation)).toThrow(/check\.letter/);
  });

  it('has words for every state', () => {
    expect(describeShownState('non_standard')).toBe('answers, but not as a standard MCP endpoint');
    expect(describeShownState('down')).toBe('not answering');
    expect(describeShownState('answering')).toBe('answering with tools');
    expect(describeShownState('sign_in')).toBe('asks for sign-in');
    expect(describeShownState('payment')).toBe('asks for payment');
    expect(() => describeShownState('gone' as 'down')).toThrow(ReliabilityInputError);
  });
});

describe('decideShownStatus: the second failure in a row', () => {
  it('holds back a single failure and shows the check before it', () => {
    expect(decideShownStatus([o, d])).toEqual({ state: 'answering', heldBack: true, failuresInARow: 1 });
    expect(decideShownStatus([a, d])).toEqual({ state: 'sign_in', heldBack: true, failuresInARow: 1 });
    expect(decideShownStatus([o, d, o, d])).toEqual({ state: 'answering', heldBack: true, failuresInARow: 1 });
  });

  it('shows down from the second failure in a row', () => {
    expect(decideShownStatus([o, d, d])).toEqual({ state: 'down', heldBack: false, failuresInARow: 2 });
    expect(decideShownStatus([d, d])).toEqual({ state: 'down', heldBack: false, failuresInARow: 2 });
    expect(decideShownStatus([o, d, d, d])).toEqual({ state: 'down', heldBack: false, failuresInARow: 3 });
  });

  it('shows a recovery at once', () => {
    expect(decideShownStatus([d, d, o])).toEqual({ state: 'answering', heldBack: false, failuresInARow: 0 });
  });

  it('does not treat a non-standard answer as a failure', () => {
    expect(decideShownStatus([o, nonStandard])).toEqual({ state: 'non_standard', heldBack: false, failuresInARow: 0 });
    expect(decideShownStatus([o, nonStandard, d])).toEqual({
      state: 'non_standard',
      heldBack: true,
      failuresInARow: 1,
    });
  });

  it('falls back to the given state when there is no check before', () => {
    expect(decideShownStatus([])).toEqual({ state: null, heldBack: false, failuresInARow: 0 });
    expect(decideShownStatus([], 'answering')).toEqual({ state: 'answering', heldBack: false, failuresInARow: 0 });
    expect(decideShownStatus([d])).toEqual({ state: null, heldBack: true, failuresInARow: 1 });
    expect(decideShownStatus([d], 'sign_in')).toEqual({ state: 'sign_in', heldBack: true, failuresInARow: 1 });
  });

  it('alerts the owner by the same rule', () => {
    expect(shouldAlertOwner([o, d])).toBe(false);
    expect(shouldAlertOwner([o, d, d])).toBe(true);
    expect(shouldAlertOwner([d, o])).toBe(false);
  });

  it('throws when checks is not a list', () => {
    expect(() => decideShownStatus('od' as unknown as CheckObservation[])).toThrow(/checks/);
  });
});
