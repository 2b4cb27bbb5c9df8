/**
 * @mcp-atlas/reliability: uptime, success chance, stability, rankings, agent ratings and live
 * incidents for MCP servers. Pure: no I/O, no clock, no randomness; `now` is always an argument.
 * This file re-exports the public names and nothing else: functions, types, the error class and the
 * vocabularies. The methodology's rule constants are the `./rules` subpath (rules.ts); the operations policy
 * (cost caps, intake quotas, retention) is the `./policy` subpath (policy.ts).
 */

export {
  type Agreement,
  type AgreementTally,
  computeAgreementFactor,
  type FailureReason,
  type OwnCheckView,
  reportAgreement,
  reporterWeight,
  sensorWeight,
  tallyAgreement,
} from './agreement.js';
export {
  type AgreementRecord,
  type AgreementSubject,
  type TimedCheckView,
  tallyAgreementRecords,
} from './agreement-records.js';
export { countChangeDays, stability, successChance, weighDay } from './chance.js';
// The vocabularies (letters, report reasons, check outcomes) are data shapes, not thresholds: they stay here.
export {
  DAILY_LETTERS,
  DOWN_LETTER,
  FAILURE_REASONS,
  NO_DATA_LETTER,
  OWN_CHECK_KINDS,
  OWN_CHECK_OUTCOMES,
  SURPRISES,
} from './constants.js';
export {
  type CapDecision,
  type CapStartInput,
  type CheckCostModel,
  chargeSpend,
  decideCapStart,
  estimateChecksCost,
  estimateCheckWallMs,
  isReservationLive,
  microUsdToUsd,
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
export { ReliabilityInputError, type ReliabilityInputErrorCode } from './errors.js';
export {
  type FiveMinuteDay,
  keepFiveMinuteDays,
  recordFiveMinuteCheck,
  recordFiveMinuteObservation,
  uptimeInputOf,
} from './five-minute.js';
export {
  CHANGE_KINDS,
  type ChangeKind,
  type DailyCheckOutcome,
  describeToolChange,
  type FoldContext,
  type FoldResult,
  foldServerDay,
  foldSkippedDay,
  isDayFolded,
  lettersAsOf,
  newServerFoldState,
  type RiskRise,
  type ServerChange,
  type ServerFoldState,
  type ToolListBaseline,
  type ToolListDiffInput,
  type ToolListDiffSummary,
  toolListBaseline,
} from './fold.js';
export {
  createHourProfile,
  describeHourProfile,
  type HourProfile,
  type HourProfileView,
  type HourResult,
  type HourSlot,
  isHourSlotNews,
  recordHourResult,
  viewHourProfile,
} from './hour-profile.js';
export {
  checkClosureNote,
  decideClosedIncident,
  type IncidentClosure,
  lastClosureAt,
} from './incident-closure.js';
export {
  decideIncident,
  type IncidentCheck,
  type IncidentDecision,
  type IncidentInput,
  type IncidentReport,
  type IncidentSensorOutcome,
  isRealCheckFailure,
  type OwnCheckKind,
  type OwnCheckOutcome,
} from './incidents.js';
export {
  chargeOwnershipFailure,
  checkOwnershipCheckQuota,
  checkSubmissionQuota,
  decideOwnershipCheck,
  decideSubmission,
  type IntakeQuotaDecision,
  type IntakeUsage,
  type OwnershipCheckDecision,
  type OwnershipCheckUsage,
  type OwnershipFailureCharge,
  type SubmissionUsage,
} from './intake-quota.js';
export {
  appendDailyLetter,
  countLetters,
  countObservedDays,
  type DailyLetter,
  isAnsweringLetter,
  isDailyLetters,
  type LetterCounts,
  type ObservedLetter,
} from './letters.js';
export {
  type DailyObservation,
  decideOwnerAlert,
  incidentChecksOf,
  isAnsweringNow,
  type LiveChecks,
  newestHandshakeMs,
  type OwnerAlertDecision,
  shownStatusOf,
  type TimedObservation,
} from './live-checks.js';
export { LEFT_OUT_REASONS, type LeftOutReason, leftOutReasonOf, type MapFacts } from './map-listing.js';
export {
  type CheckFacts,
  failedHttpStatus,
  incidentCheckOf,
  ownCheckOutcomeOf,
  ownCheckViewOf,
  type StepStatus,
} from './own-check-outcome.js';
export {
  type CategoryRanking,
  countTopPlaces,
  findListingGaps,
  type ListingGap,
  type RankableServer,
  type RankedServer,
  rankMostReliable,
} from './ranking.js';
export {
  describePublicRating,
  isRatingVisible,
  median,
  type PublicRating,
  type RateOptions,
  type Rating,
  type Report,
  rateServer,
  reportDecay,
  type SensorDayEntry,
  type Surprise,
  speedScore,
  starsFor,
  type TallyLookup,
} from './ratings.js';
export { checkReportQuota, type QuotaDecision, type ReportUsage, reporterKey } from './reporters.js';
export {
  decideRetention,
  isPastRetentionLimit,
  needsAggregateBeforeDelete,
  oldestKeptDay,
  RETENTION_STORES,
  type RetentionDecision,
  type RetentionKeepReason,
  type RetentionQuestion,
  type RetentionStore,
} from './retention-policy.js';
export {
  isAtOrAfterTimeOfDay,
  isDayClosed,
  isOsvCheckDue,
  type OsvCheckState,
  packageLayerDays,
  type UtcTimeOfDay,
} from './schedule-windows.js';
export {
  admitSensorBatch,
  type SensorBatch,
  type SensorBatchDecision,
  type SensorOutcome,
  type ServerSensorDayEntry,
  summarizeSensorOutcomes,
} from './sensors.js';
export {
  type CheckObservation,
  decideShownStatus,
  describeShownState,
  displayState,
  type ShownState,
  type ShownStatus,
  shouldAlertOwner,
} from './status.js';
export {
  decideObservation,
  type ObservationDecision,
  type ObservationFigures,
  type ObservationWindow,
  observationWindow,
  reviewSubmission,
  type Submission,
  type SubmissionCheck,
  type SubmissionCondition,
  type SubmissionConditionId,
  type SubmissionReview,
  type SubmissionVerdict,
  summarizeObservation,
} from './submission.js';
export {
  type CheckCounts,
  checkUptime,
  type DistributionStatus,
  dailyUptime,
  decideUptimeDistribution,
  describeUptime,
  labelUptimePeriod,
  type UptimeInput,
  type UptimeSummary,
  usesFiveMinuteFigure,
} from './uptime.js';
