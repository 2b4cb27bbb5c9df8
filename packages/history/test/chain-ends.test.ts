// Days cut off either end of a whole history are caught: the first root of a history chains to nothing, and
// the ends are checked against what the verifier knows (the days the history must cover, the newest day its
// publisher names). A chain alone cannot show a cut end; these checks can.
import { describe, expect, it } from 'vitest';
import { checkChainEnds, HistoryError, verifyChainSync } from '../src/index.js';
import { PUBLIC_KEY, sealedChain } from './helpers.js';

const CHAIN = sealedChain('2026-09-29', 5); // 09-29, 09-30, 10-01, 10-02, 10-03
const SPAN = { first: '2026-09-29', last: '2026-10-03' };
const FIRST_LINKED =
  'previous_root is not null, but this is the first day of the history: the days before it are missing';

function thrown(action: () => unknown): HistoryError {
  try {
    action();
  } catch (error) {
    if (error instanceof HistoryError) return error;
    throw error;
  }
  throw new Error('expected a HistoryError');
}

describe('a whole history (anchorRoot: null) starts with a root that chains to nothing', () => {
  it('verifies the untouched history', () => {
    expect(verifyChainSync(CHAIN, PUBLIC_KEY, { anchorRoot: null })).toEqual({ ok: true, days: 5 });
  });

  it('breaks at the new first day when the oldest day is cut', () => {
    expect(verifyChainSync(CHAIN.slice(1), PUBLIC_KEY, { anchorRoot: null })).toEqual({
      ok: false,
      day: '2026-09-30',
      index: 0,
      reason: FIRST_LINKED,
    });
  });

  it('breaks at the new first day when the three oldest days are cut', () => {
    expect(verifyChainSync(CHAIN.slice(3), PUBLIC_KEY, { anchorRoot: null })).toEqual({
      ok: false,
      day: '2026-10-02',
      index: 0,
      reason: FIRST_LINKED,
    });
  });

  it('still takes a window of the chain as given when no anchor is asked for', () => {
    expect(verifyChainSync(CHAIN.slice(3), PUBLIC_KEY)).toEqual({ ok: true, days: 2 });
  });
});

describe('checkChainEnds', () => {
  it('passes a history that covers since and through, at its ends and inside', () => {
    expect(checkChainEnds(SPAN, {})).toEqual({ ok: true });
    expect(checkChainEnds(SPAN, { since: '2026-09-29', through: '2026-10-03' })).toEqual({ ok: true }); // at
    expect(checkChainEnds(SPAN, { since: '2026-09-30', through: '2026-10-02' })).toEqual({ ok: true }); // inside
  });

  it('fails when the history starts after since: its first days were cut', () => {
    expect(checkChainEnds(SPAN, { since: '2026-09-28' })).toEqual({
      ok: false,
      day: '2026-09-28',
      reason:
        'the history starts on 2026-09-29, after this day, which it must cover (since): days at its start are missing',
    });
  });

  it('fails when the history ends before through: its last days were cut', () => {
    expect(checkChainEnds(SPAN, { through: '2026-10-04' })).toEqual({
      ok: false,
      day: '2026-10-04',
      reason:
        'the history ends on 2026-10-03, before this day, which it must cover (through): days at its end are missing',
    });
  });

  it('fails when since lies after the history, or through before it', () => {
    expect(checkChainEnds(SPAN, { since: '2026-10-04' })).toMatchObject({
      ok: false,
      day: '2026-10-04',
      reason: expect.stringContaining('the history ends on 2026-10-03, before this day'),
    });
    expect(checkChainEnds(SPAN, { through: '2026-09-28' })).toMatchObject({
      ok: false,
      day: '2026-09-28',
      reason: expect.stringContaining('the history starts on 2026-09-29, after this day'),
    });
  });

  it('wants the last day to be exactly the latest day the publisher names', () => {
    expect(checkChainEnds(SPAN, { latest: '2026-10-03' })).toEqual({ ok: true });
    expect(checkChainEnds(SPAN, { latest: '2026-10-04' })).toEqual({
      ok: false,
      day: '2026-10-04',
      reason:
        'this day is named as the latest sealed day, but the history ends on 2026-10-03: days at its end are missing',
    });
    expect(checkChainEnds(SPAN, { latest: '2026-10-02' })).toEqual({
      ok: false,
      day: '2026-10-02',
      reason: 'this day is named as the latest sealed day, but the history goes on to 2026-10-03',
    });
    expect(checkChainEnds(SPAN, { latest: null })).toEqual({
      ok: false,
      day: '2026-10-03',
      reason: 'the history holds sealed days up to this day, but no latest sealed day is named',
    });
  });

  it('fails a history with no sealed day unless it is allowed to be empty and no day is asked for', () => {
    expect(checkChainEnds(null, {})).toEqual({
      ok: false,
      day: null,
      reason: 'no day is sealed, so there is no history to check',
    });
    expect(checkChainEnds(null, { allowEmpty: true })).toEqual({ ok: true });
    expect(checkChainEnds(null, { allowEmpty: true, latest: null })).toEqual({ ok: true });
    expect(checkChainEnds(null, { allowEmpty: true, through: '2026-10-03' })).toEqual({
      ok: false,
      day: '2026-10-03',
      reason: 'no day is sealed, so the history cannot cover this day',
    });
    expect(checkChainEnds(null, { allowEmpty: true, latest: '2026-10-03' })).toEqual({
      ok: false,
      day: '2026-10-03',
      reason: 'this day is named as the latest sealed day, but the history holds no sealed day at all',
    });
  });

  it('throws for the caller’s own mistakes', () => {
    expect(thrown(() => checkChainEnds(SPAN, { since: '2026-02-30' })).code).toBe('invalid-day');
    expect(thrown(() => checkChainEnds(SPAN, { since: '2026-10-02', through: '2026-10-01' })).code).toBe(
      'invalid-input',
    );
    expect(thrown(() => checkChainEnds({ first: '2026-10-03', last: '2026-09-29' }, {})).code).toBe('invalid-input');
  });
});
