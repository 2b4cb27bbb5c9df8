import { describe, expect, it } from 'vitest';
import { computeAgreementFactor, reportAgreement, sensorWeight, tallyAgreement } from '../src/agreement.js';
import { type FailureReason, ReliabilityInputError, reporterWeight } from '../src/index.js';

const up = { answering: true, serverError: false };
const down = { answering: false, serverError: false };
const fiveHundred = { answering: false, serverError: true };

describe('reportAgreement', () => {
  it('agrees when worked or failed matches what our newest check saw', () => {
    expect(reportAgreement({ ok: true }, up)).toBe(true);
    expect(reportAgreement({ ok: false, reason: 'timeout' }, down)).toBe(true);
    expect(reportAgreement({ ok: false, reason: null }, down)).toBe(true);
    expect(reportAgreement({ ok: true }, down)).toBe(false);
  });

  it('agrees on failures our handshake cannot see', () => {
    for (const reason of ['auth', 'args', 'rate_limited', 'wrong_result'] as FailureReason[]) {
      expect(reportAgreement({ ok: false, reason }, up)).toBe(true);
    }
  });

  it('disagrees on unreachable or timeout while our check saw the server answering', () => {
    expect(reportAgreement({ ok: false, reason: 'unreachable' }, up)).toBe(false);
    expect(reportAgreement({ ok: false, reason: 'timeout' }, up)).toBe(false);
  });

  it('agrees on server_error only when our check saw a server error too', () => {
    expect(reportAgreement({ ok: false, reason: 'server_error' }, up)).toBe(false);
    expect(reportAgreement({ ok: false, reason: 'server_error' }, { answering: true, serverError: true })).toBe(true);
    expect(reportAgreement({ ok: false, reason: 'server_error' }, fiveHundred)).toBe(true);
  });

  it('does not let a failure without a reason agree against a check that saw the server up', () => {
    expect(reportAgreement({ ok: false }, up)).toBe(false);
  });

  it('throws on malformed reports or checks', () => {
    expect(() => reportAgreement({ ok: false, reason: 'bored' as FailureReason }, up)).toThrow(/report\.reason/);
    expect(() => reportAgreement({ ok: 'yes' as unknown as boolean }, up)).toThrow(ReliabilityInputError);
    expect(() => reportAgreement({ ok: true }, { answering: true } as typeof up)).toThrow(/check\.serverError/);
  });
});

describe('tallyAgreement', () => {
  it('adds 1 per agreement and 0.5 per disagreement', () => {
    expect(tallyAgreement([])).toEqual({ agree: 0, disagree: 0 });
    expect(tallyAgreement([true, true, false, 'half', undefined, null])).toEqual({ agree: 2, disagree: 1 });
    expect(tallyAgreement([false])).toEqual({ agree: 0, disagree: 0.5 });
  });

  it('throws on a value that is not an agreement', () => {
    expect(() => tallyAgreement(['yes' as unknown as boolean])).toThrow(/agrees\[0\]/);
  });
});

describe('reporter weight', () => {
  it('has an agreement factor of 0.5 + 0.5 x (agree + 1) / (agree + disagree + 2)', () => {
    expect(computeAgreementFactor({ agree: 0, disagree: 0 })).toBe(0.75);
    expect(computeAgreementFactor({ agree: 2, disagree: 0 })).toBe(0.875);
    expect(computeAgreementFactor({ agree: 0, disagree: 2 })).toBe(0.625);
    expect(computeAgreementFactor({ agree: 1, disagree: 0.5 })).toBeCloseTo(0.5 + 0.5 * (2 / 3.5), 12);
  });

  it('is 1.0 paid or 0.3 anonymous times the agreement factor', () => {
    expect(reporterWeight({ paid: true, agree: 0, disagree: 0 })).toBe(0.75);
    expect(reporterWeight({ paid: false, agree: 0, disagree: 0 })).toBeCloseTo(0.225, 12);
    expect(reporterWeight({ paid: false, agree: 2, disagree: 0 })).toBeCloseTo(0.2625, 12);
    expect(reporterWeight({ paid: true, agree: 0, disagree: 2 })).toBe(0.625);
  });

  it('gives a sensor 0.3 times its agreement factor', () => {
    expect(sensorWeight({ agree: 0, disagree: 0 })).toBeCloseTo(0.225, 12);
    expect(sensorWeight({ agree: 8, disagree: 0 })).toBeCloseTo(0.285, 12);
  });

  it('throws on negative tallies', () => {
    expect(() => reporterWeight({ paid: true, agree: -1, disagree: 0 })).toThrow(/agree/);
    expect(() => computeAgreementFactor({ agree: 0, disagree: Number.POSITIVE_INFINITY })).toThrow(
      ReliabilityInputError,
    );
    expect(() => reporterWeight({ paid: 1 as unknown as boolean, agree: 0, disagree: 0 })).toThrow(/paid/);
  });
});
