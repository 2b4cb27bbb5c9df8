import { describe, expectTypeOf, it } from 'vitest';
import {
  decideObservation,
  type IntakeQuotaDecision,
  type IntakeUsage,
  type ObservationDecision,
  type ObservationFigures,
  reviewSubmission,
  type Submission,
  type SubmissionReview,
  type SubmissionVerdict,
} from '../src/index.js';
import { checkOwnershipCheckQuota, checkSubmissionQuota } from '../src/intake-quota.js';

describe('public types of submissions and intake limits', () => {
  it('pins the decision and the quotas', () => {
    expectTypeOf(decideObservation).toEqualTypeOf<(figures: ObservationFigures) => ObservationDecision>();
    expectTypeOf(reviewSubmission).toEqualTypeOf<(submission: Submission, now: Date) => SubmissionReview>();
    expectTypeOf<SubmissionVerdict>().toEqualTypeOf<'admitted' | 'extended' | 'refused'>();
    expectTypeOf(checkSubmissionQuota).toEqualTypeOf<(usage: IntakeUsage) => IntakeQuotaDecision>();
    expectTypeOf(checkOwnershipCheckQuota).toEqualTypeOf<(usage: IntakeUsage) => IntakeQuotaDecision>();
  });
});
