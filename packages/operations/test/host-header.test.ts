import { describe, expect, it } from 'vitest';
import { judgeForeignHostAnswer } from '../src/index.js';
import { HOST_HEADER_RULES } from '../src/rules.js';

const HOST = 'rebinding-check.mcp-atlas.invalid';

function outcomeOf(status: number): string {
  return judgeForeignHostAnswer({ status }, HOST, 100).outcome;
}

describe('the Host-header verdict', () => {
  it('names its statuses in a frozen group', () => {
    expect(HOST_HEADER_RULES).toEqual({
      signInStatus: 401,
      refusalStatuses: { from: 400, below: 500 },
      answeredStatuses: { from: 200, below: 300 },
    });
    expect(Object.isFrozen(HOST_HEADER_RULES)).toBe(true);
    expect(Object.isFrozen(HOST_HEADER_RULES.refusalStatuses)).toBe(true);
  });

  it('a refusal passes: 400 to 499 but 401', () => {
    expect(outcomeOf(399)).toBe('fail');
    expect(outcomeOf(400)).toBe('pass');
    expect(outcomeOf(402)).toBe('pass');
    expect(outcomeOf(403)).toBe('pass');
    expect(outcomeOf(421)).toBe('pass');
    expect(outcomeOf(499)).toBe('pass');
    expect(outcomeOf(500)).toBe('fail');
  });

  it('a request for sign-in says nothing about the host', () => {
    expect(judgeForeignHostAnswer({ status: 401 }, HOST, 100)).toEqual({
      outcome: 'not-run',
      status: 401,
      host: HOST,
      reason: 'the server asked for sign-in (401) before looking at the host; give --header with a token to test it',
    });
  });

  it('an answer fails: 200 to 299 with the rebinding reason, anything else not refused with its own', () => {
    expect(outcomeOf(199)).toBe('fail');
    expect(judgeForeignHostAnswer({ status: 200 }, HOST, 100).reason).toMatch(/DNS rebinding/);
    expect(judgeForeignHostAnswer({ status: 299 }, HOST, 100).reason).toMatch(/DNS rebinding/);
    expect(judgeForeignHostAnswer({ status: 199 }, HOST, 100).reason).toMatch(/should answer 403 or 421/);
    expect(judgeForeignHostAnswer({ status: 300 }, HOST, 100)).toEqual({
      outcome: 'fail',
      status: 300,
      host: HOST,
      reason: 'the server did not refuse a request for another host (HTTP 300); it should answer 403 or 421',
    });
    expect(outcomeOf(307)).toBe('fail');
    expect(outcomeOf(500)).toBe('fail');
  });

  it('a closed connection passes and no answer in time fails, with no status', () => {
    expect(judgeForeignHostAnswer({ closed: 'socket hang up' }, HOST, 100)).toEqual({
      outcome: 'pass',
      status: null,
      host: HOST,
      reason: 'the server closed the connection (socket hang up)',
    });
    expect(judgeForeignHostAnswer({ timedOut: true }, HOST, 250)).toEqual({
      outcome: 'fail',
      status: null,
      host: HOST,
      reason: 'no answer within 250 ms instead of a refusal',
    });
  });

  it('keeps the field order a report prints', () => {
    expect(Object.keys(judgeForeignHostAnswer({ status: 403 }, HOST, 100))).toEqual([
      'outcome',
      'status',
      'host',
      'reason',
    ]);
  });
});
