/**
 * The live side of @mcp-atlas/reliability, published as `@mcp-atlas/reliability/live`: what the five-minute
 * and hourly checks record between two daily checks, the status a page shows from them, the hour-of-day
 * profile, when an owner is alerted, and how one check's raw facts are read as an outcome. Pure: no I/O, no
 * clock; `now` is an argument. This file re-exports the public names and nothing else.
 *
 * It is a subpath of its own so that the root holds the daily figures (uptime, chance, stability, rankings,
 * ratings, incidents) and stays small; the rules these functions apply are in `./rules` (`SHOWN_STATUS_RULES`,
 * `UPTIME_RULES`, `INCIDENT_RULES`).
 */

export {
  type CheckTallyDay,
  type LatencyCounts,
  latencyValuesOf,
  recordCheckTally,
  type TalliedCheck,
} from './check-tally.js';
export {
  type FiveMinuteDay,
  recordFiveMinuteCheck,
  recordFiveMinuteObservation,
  uptimeInputOf,
} from './five-minute.js';
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
export {
  type CheckFacts,
  failedHttpStatus,
  ownCheckOutcomeOf,
  ownCheckViewOf,
  type StepStatus,
} from './own-check-outcome.js';
export {
  type CheckObservation,
  describeShownState,
  displayState,
  type ShownState,
  type ShownStatus,
} from './status.js';
