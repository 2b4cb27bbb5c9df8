/**
 * Agreement between agents' reports and our own checks, and the weight it earns a reporter.
 * Pure module.
 */

import {
  AGREEMENT_COUNT,
  AGREEMENT_FLOOR,
  AGREEMENT_PRIOR_AGREE,
  AGREEMENT_PRIOR_TOTAL,
  AGREEMENT_SPAN,
  ANONYMOUS_REPORTER_WEIGHT,
  DISAGREEMENT_COUNT,
  FAILURE_REASONS,
  PAID_REPORTER_WEIGHT,
  REACHABILITY_REASONS,
  SENSOR_WEIGHT,
} from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { assertBoolean, assertNonNegative, assertOneOf } from './validate.js';

/** One of the seven failure reasons of a report. */
export type FailureReason = (typeof FAILURE_REASONS)[number];

/**
 * How a report compared with our checks: `true` agreed, `false` disagreed. `'half'` is accepted as
 * a disagreement already marked as counting half; it counts exactly like `false`.
 */
export type Agreement = boolean | 'half';

/** What our newest check saw, for comparing a report against it. */
export interface OwnCheckView {
  /** The newest check saw the server answering (a sign-in or payment answer counts as answering). */
  answering: boolean;
  /** The newest check saw a server error (an HTTP 5xx). */
  serverError: boolean;
}

/** A reporter's (or sensor's) running count of agreements and disagreements with our checks. */
export interface AgreementTally {
  agree: number;
  disagree: number;
}

const REACHABILITY_SET: ReadonlySet<string> = new Set(REACHABILITY_REASONS);

/**
 * Whether a report agrees with our newest check. It agrees when its worked/failed matches whether
 * our check saw the server answering, or when it reports a failure our handshake cannot see: any
 * stated reason except `unreachable` and `timeout`, and `server_error` only when our check saw a
 * server error too. A failure with no stated reason agrees only by matching. Returns a boolean;
 * {@link tallyAgreement} counts a disagreement as half.
 *
 * @example
 * reportAgreement({ ok: false, reason: 'args' }, { answering: true, serverError: false });        // true
 * reportAgreement({ ok: false, reason: 'timeout' }, { answering: true, serverError: false });     // false
 * reportAgreement({ ok: false, reason: 'server_error' }, { answering: true, serverError: true }); // true
 */
export function reportAgreement(report: { ok: boolean; reason?: FailureReason | null }, check: OwnCheckView): boolean {
  const ok = assertBoolean(report.ok, 'report.ok', 'invalid-report');
  const reason = assertOneOf(report.reason, FAILURE_REASONS, 'report.reason', 'invalid-report');
  const answering = assertBoolean(check.answering, 'check.answering', 'invalid-check');
  const serverError = assertBoolean(check.serverError, 'check.serverError', 'invalid-check');
  if (ok === answering) return true;
  if (ok || reason === null || REACHABILITY_SET.has(reason)) return false;
  return reason !== 'server_error' || serverError;
}

/**
 * Adds up agreements: each `true` adds 1 to `agree`, each disagreement (`false` or `'half'`) adds
 * 0.5 to `disagree`, because our own check may be the one that is out of date. `null` and
 * `undefined` (not compared) add nothing.
 *
 * @example
 * tallyAgreement([true, true, false, 'half', undefined]); // { agree: 2, disagree: 1 }
 */
export function tallyAgreement(values: readonly (Agreement | null | undefined)[]): AgreementTally {
  let agree = 0;
  let disagree = 0;
  values.forEach((value, index) => {
    if (value !== null && value !== undefined && value !== true && value !== false && value !== 'half') {
      throw new ReliabilityInputError(
        'invalid-report',
        `agrees[${index}]`,
        `expected true, false, 'half' or null, received ${describeValue(value)}`,
      );
    }
    agree += agreeIncrement(value);
    disagree += disagreeIncrement(value);
  });
  return { agree, disagree };
}

/** @internal What one `agrees` value adds to the agree count. */
export function agreeIncrement(value: Agreement | null | undefined): number {
  return value === true ? AGREEMENT_COUNT : 0;
}

/** @internal What one `agrees` value adds to the disagree count: a disagreement counts half. */
export function disagreeIncrement(value: Agreement | null | undefined): number {
  return value === false || value === 'half' ? DISAGREEMENT_COUNT : 0;
}

/**
 * The agreement factor of a weight: 0.5 + 0.5 x (agree + 1) / (agree + disagree + 2). A new
 * reporter gets 0.75; it tends to 1 with agreements and to 0.5 with disagreements.
 *
 * @example
 * computeAgreementFactor({ agree: 0, disagree: 0 }); // 0.75
 * computeAgreementFactor({ agree: 2, disagree: 0 }); // 0.875
 */
export function computeAgreementFactor(tally: AgreementTally): number {
  const agree = assertNonNegative(tally.agree, 'agree');
  const disagree = assertNonNegative(tally.disagree, 'disagree');
  return (
    AGREEMENT_FLOOR + (AGREEMENT_SPAN * (agree + AGREEMENT_PRIOR_AGREE)) / (agree + disagree + AGREEMENT_PRIOR_TOTAL)
  );
}

/**
 * The weight of one reporter's reports: (paid ? 1.0 : 0.3) x (0.5 + 0.5 x (agree + 1) /
 * (agree + disagree + 2)). `agree` and `disagree` are tallies as {@link tallyAgreement} makes them.
 *
 * @example
 * reporterWeight({ paid: true, agree: 0, disagree: 0 });  // 0.75
 * reporterWeight({ paid: false, agree: 2, disagree: 0 }); // 0.2625
 */
export function reporterWeight(r: { paid: boolean; agree: number; disagree: number }): number {
  return reporterBaseWeight(assertBoolean(r.paid, 'paid', 'invalid-report')) * computeAgreementFactor(r);
}

/** @internal The weight of a report before agreement and decay: 1.0 paid, 0.3 anonymous. */
export function reporterBaseWeight(paid: boolean): number {
  return paid ? PAID_REPORTER_WEIGHT : ANONYMOUS_REPORTER_WEIGHT;
}

/**
 * The weight of a gateway sensor's daily entry: 0.3 times the sensor's agreement factor, the same
 * as an anonymous agent with the same tally.
 *
 * @example
 * sensorWeight({ agree: 0, disagree: 0 }); // 0.225
 */
export function sensorWeight(tally: AgreementTally): number {
  return SENSOR_WEIGHT * computeAgreementFactor(tally);
}
