/**
 * @mcp-atlas/reliability: uptime, success chance, stability, rankings, agent ratings and incidents for MCP
 * servers. Pure: no I/O, no clock, no randomness; `now` is always an argument.
 *
 * This file re-exports the public names and nothing else: the functions users call, their types and the error
 * class. The live side (five-minute and hourly results, the shown status, the hour-of-day profile, owner alerts)
 * is the `./live` subpath (live.ts); the methodology's rule constants and vocabularies are the `./rules` subpath
 * (rules.ts). The service's operating rules (cost caps, intake quotas, submissions, retention, domain age) are
 * @mcp-atlas/operations'.
 */

export {
  type Agreement,
  type AgreementTally,
  type FailureReason,
  type OwnCheckView,
  reporterWeight,
} from './agreement.js';
export {
  type AgreementRecord,
  type AgreementSubject,
  type TimedCheckView,
  tallyAgreementRecords,
} from './agreement-records.js';
export { countChangeDays, stability, successChance } from './chance.js';
export {
  advanceDaySeries,
  type DayHandshake,
  daySeriesStatus,
  type SeriesDay,
  type SeriesDayStatus,
  type SeriesFold,
  type SeriesSource,
  type SeriesWallTimes,
} from './day-series.js';
export { ReliabilityInputError, type ReliabilityInputErrorCode } from './errors.js';
export {
  type ChangeKind,
  type DailyCheckOutcome,
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
export { checkClosureNote, decideClosedIncident, type IncidentClosure } from './incident-closure.js';
export {
  decideIncident,
  type IncidentCheck,
  type IncidentDecision,
  type IncidentInput,
  type IncidentReport,
  type IncidentSensorOutcome,
  type OwnCheckKind,
  type OwnCheckOutcome,
} from './incidents.js';
export {
  countObservedDays,
  type DailyLetter,
  isAnsweringLetter,
  type LetterCounts,
  type ObservedLetter,
} from './letters.js';
export { type LeftOutReason, leftOutReasonOf, type MapFacts } from './map-listing.js';
export {
  type CategoryRanking,
  type ListingGap,
  type RankableServer,
  type RankedServer,
  rankMostReliable,
} from './ranking.js';
export {
  describePublicRating,
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
  admitSensorBatch,
  type SensorBatch,
  type SensorBatchDecision,
  type SensorOutcome,
  type ServerSensorDayEntry,
  summarizeSensorOutcomes,
} from './sensors.js';
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
} from './uptime.js';
