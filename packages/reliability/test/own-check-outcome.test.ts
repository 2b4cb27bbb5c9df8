import { describe, expect, it } from 'vitest';
import { decideIncident, ReliabilityInputError } from '../src/index.js';
import { failedHttpStatus, ownCheckOutcomeOf, ownCheckViewOf } from '../src/live.js';
import { incidentCheckOf } from '../src/own-check-outcome.js';

describe('our checks in the incident rule’s words', () => {
  it.each([
    [{ letter: 'o', reason: 'ok', httpStatus: null }, 'answered'],
    [{ letter: 'a', reason: 'auth-required', httpStatus: 401 }, 'sign_in'],
    [{ letter: 'p', reason: 'payment-required', httpStatus: 402 }, 'sign_in'],
    [{ letter: 'd', reason: 'timeout', httpStatus: null }, 'timeout'],
    [{ letter: 'd', reason: 'deadline', httpStatus: null }, 'timeout'],
    [{ letter: 'd', reason: 'no-connection', httpStatus: null }, 'no_connection'],
    [{ letter: 'd', reason: 'dns-failed', httpStatus: null }, 'no_connection'],
    [{ letter: 'd', reason: 'tls-error', httpStatus: null }, 'no_connection'],
    // The status thresholds: 399 is no 4xx, 400 and 499 are client errors, 404 is its own, 500 starts server errors.
    [{ letter: 'd', reason: 'http-error', httpStatus: 399 }, 'broken_handshake'],
    [{ letter: 'd', reason: 'http-error', httpStatus: 400 }, 'client_error'],
    [{ letter: 'd', reason: 'http-error', httpStatus: 404 }, 'not_found'],
    [{ letter: 'd', reason: 'http-error', httpStatus: 499 }, 'client_error'],
    [{ letter: 'd', reason: 'http-error', httpStatus: 500 }, 'server_error'],
    [{ letter: 'd', reason: 'http-error', httpStatus: 503 }, 'server_error'],
    [{ letter: 'd', reason: 'http-error', httpStatus: null }, 'broken_handshake'],
    [{ letter: 'd', reason: 'not-mcp', httpStatus: 200 }, 'broken_handshake'],
    [{ letter: 'd', reason: 'jsonrpc-error', httpStatus: 200 }, 'broken_handshake'],
    [{ letter: 'd', reason: 'answer-too-large', httpStatus: 200 }, 'broken_handshake'],
    // An answer nested past the probe's limit is refused unread: the handshake broke, the server did answer.
    [{ letter: 'd', reason: 'too-deep', httpStatus: 200 }, 'broken_handshake'],
    [{ letter: 'd', reason: 'redirect-cross-site', httpStatus: 307 }, 'redirect'],
    [{ letter: 'd', reason: 'guard:ip-literal', httpStatus: null }, null],
  ] as const)('%j -> %s', (facts, outcome) => {
    expect(ownCheckOutcomeOf(facts)).toBe(outcome);
  });

  it('refuses a letter that is not a check’s', () => {
    expect(() => ownCheckOutcomeOf({ letter: 'n' as never, reason: 'ok', httpStatus: null })).toThrow(
      ReliabilityInputError,
    );
  });

  it('dates a check and leaves out one that says nothing', () => {
    expect(
      incidentCheckOf('daily', '2026-11-30T00:10:00Z', { letter: 'd', reason: 'http-error', httpStatus: 502 }),
    ).toEqual({
      kind: 'daily',
      at: '2026-11-30T00:10:00Z',
      outcome: 'server_error',
    });
    expect(
      incidentCheckOf('five_minute', '2026-11-30T00:10:00Z', { letter: 'd', reason: 'aborted', httpStatus: null }),
    ).toBeNull();
    expect(() =>
      incidentCheckOf('weekly' as never, '2026-11-30T00:10:00Z', { letter: 'o', reason: 'ok', httpStatus: null }),
    ).toThrow(ReliabilityInputError);
    expect(() => incidentCheckOf('hourly', 'not a time', { letter: 'o', reason: 'ok', httpStatus: null })).toThrow(
      ReliabilityInputError,
    );
  });

  it('a five-minute check confirms an incident like any other of our checks', () => {
    const check = incidentCheckOf('five_minute', '2026-11-30T11:55:00Z', {
      letter: 'd',
      reason: 'timeout',
      httpStatus: null,
    })!;
    const decision = decideIncident(
      {
        checks: [check],
        reports: [{ reporter: 'anon:a', paid: false, ok: false, at: '2026-11-30T11:50:00Z', reason: 'timeout' }],
      },
      new Date('2026-11-30T12:00:00Z'),
    );
    expect(decision).toMatchObject({ shown: true, confirmedBy: ['own_check'], ownCheckFailed: true });
  });

  it('reads what a check says for the agreement rule', () => {
    expect(ownCheckViewOf({ letter: 'o', reason: 'ok', httpStatus: null })).toEqual({
      answering: true,
      serverError: false,
    });
    expect(ownCheckViewOf({ letter: 'a', reason: 'auth-required', httpStatus: 401 })).toEqual({
      answering: true,
      serverError: false,
    });
    expect(ownCheckViewOf({ letter: 'd', reason: 'http-error', httpStatus: 502 })).toEqual({
      answering: false,
      serverError: true,
    });
    expect(ownCheckViewOf({ letter: 'd', reason: 'timeout', httpStatus: null })).toEqual({
      answering: false,
      serverError: false,
    });
    expect(ownCheckViewOf({ letter: 'd', reason: 'guard:private', httpStatus: null })).toBeNull();
  });

  it('finds the status of the step that failed', () => {
    expect(
      failedHttpStatus([
        { httpStatus: 200, outcome: 'ok' },
        { httpStatus: 502, outcome: 'http-error' },
      ]),
    ).toBe(502);
    expect(
      failedHttpStatus([
        { httpStatus: 200, outcome: 'ok' },
        { httpStatus: null, outcome: 'timeout' },
      ]),
    ).toBeNull();
    expect(failedHttpStatus([{ httpStatus: 200, outcome: 'ok' }])).toBeNull();
    expect(failedHttpStatus([])).toBeNull();
  });
});
