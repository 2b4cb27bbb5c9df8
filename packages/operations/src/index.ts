/**
 * @mcp-atlas/operations: the operating rules of an mcp-atlas service, the decisions that are not a
 * measurement of a server but say how the service runs its checks and what it shows. Pure: no I/O, no
 * clock; `now` is an argument. This file re-exports the public names and nothing else.
 */
export {
  type CapDecision,
  type CapStartInput,
  type CheckCostModel,
  chargeSpend,
  decideCapStart,
  estimateChecksCost,
  isReservationLive,
  outstandingEstimate,
  type PreviousShardRun,
  planShardOrder,
  priceCheck,
  type SpendTally,
  usdToMicroUsd,
} from './cost-cap.js';
export {
  type DomainAgeSubject,
  type DomainLookupPlan,
  type DomainLookupState,
  domainAgeDays,
  isDomainAgeFresh,
  needsDomainAge,
  planDomainLookups,
} from './domain-age.js';
export { type ForeignHostAnswer, type HostHeaderVerdict, judgeForeignHostAnswer } from './host-header.js';
export {
  chargeOwnershipFailure,
  decideOwnershipCheck,
  decideSubmission,
  type IntakeQuotaDecision,
  type IntakeUsage,
  type OwnershipCheckDecision,
  type OwnershipCheckUsage,
  type OwnershipFailureCharge,
  type SubmissionUsage,
} from './intake-quota.js';
export { decideMcpCalls, type McpCallDecision, type McpCallUsage } from './mcp-calls.js';
export { isOwnerNoteShortEnough } from './owner-note.js';
export {
  isAtOrAfterTimeOfDay,
  isOsvCheckDue,
  type OsvCheckState,
  packageLayerDays,
  type UtcTimeOfDay,
} from './package-layer.js';
export {
  decideRetention,
  isDayClosed,
  isPastRetentionLimit,
  needsAggregateBeforeDelete,
  type RetentionDecision,
  type RetentionKeepReason,
  type RetentionQuestion,
  type RetentionStore,
} from './retention.js';
export { decideIncidentReview, type IncidentReview } from './review.js';
export {
  isPeriodOver,
  isSealTime,
  isSearchEvalDue,
  nameHourSlot,
  namePeriodSlot,
  type SearchEvalRuns,
} from './schedule.js';
export {
  type CheckCount,
  deepProbeOf,
  type ProtocolCheck,
  type ReliabilityEvidence,
  reliabilityInputOf,
  reliabilityWindowOf,
  scoreInstantOf,
  staticAnalysisFrom,
  type TimedCheck,
} from './score-inputs.js';
export { type DayScanFacts, type DayUnfinished, findUnfinishedPart } from './seal.js';
export { firstShownScoreDay } from './shown-score.js';
export {
  decideObservation,
  type ObservationDecision,
  type ObservationFigures,
  type ObservationWindow,
  reviewSubmission,
  type Submission,
  type SubmissionCheck,
  type SubmissionCondition,
  type SubmissionConditionId,
  type SubmissionReview,
  type SubmissionVerdict,
} from './submission.js';
