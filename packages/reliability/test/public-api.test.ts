/**
 * Pins the public names of @mcp-atlas/reliability: the root entry holds functions, types, the error class and
 * the vocabularies; the methodology's rule constants are the `./rules` subpath and the operations policy the
 * `./policy` subpath, one frozen object per concern. A name added to or dropped from an entry fails here, so
 * every change to the semver promise is a deliberate one. Pure module under test; this file reads no clock.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as policy from '../src/policy.js';
import * as rules from '../src/rules.js';

describe('the root entry', () => {
  it('exports exactly these runtime names, and no rule constant', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CHANGE_KINDS',
      'DAILY_LETTERS',
      'DOWN_LETTER',
      'FAILURE_REASONS',
      'LEFT_OUT_REASONS',
      'NO_DATA_LETTER',
      'OWN_CHECK_KINDS',
      'OWN_CHECK_OUTCOMES',
      'RETENTION_STORES',
      'ReliabilityInputError',
      'SURPRISES',
      'admitSensorBatch',
      'appendDailyLetter',
      'chargeOwnershipFailure',
      'chargeSpend',
      'checkClosureNote',
      'checkOwnershipCheckQuota',
      'checkReportQuota',
      'checkSubmissionQuota',
      'checkUptime',
      'computeAgreementFactor',
      'countChangeDays',
      'countLetters',
      'countObservedDays',
      'countTopPlaces',
      'createHourProfile',
      'dailyUptime',
      'decideCapStart',
      'decideClosedIncident',
      'decideIncident',
      'decideObservation',
      'decideOwnerAlert',
      'decideOwnershipCheck',
      'decideRetention',
      'decideShownStatus',
      'decideSubmission',
      'decideUptimeDistribution',
      'describeHourProfile',
      'describePublicRating',
      'describeShownState',
      'describeToolChange',
      'describeUptime',
      'displayState',
      'domainAgeDays',
      'estimateCheckWallMs',
      'estimateChecksCost',
      'failedHttpStatus',
      'findListingGaps',
      'foldServerDay',
      'foldSkippedDay',
      'incidentCheckOf',
      'incidentChecksOf',
      'isAnsweringLetter',
      'isAnsweringNow',
      'isAtOrAfterTimeOfDay',
      'isDailyLetters',
      'isDayClosed',
      'isDayFolded',
      'isDomainAgeFresh',
      'isHourSlotNews',
      'isOsvCheckDue',
      'isPastRetentionLimit',
      'isRatingVisible',
      'isRealCheckFailure',
      'isReservationLive',
      'keepFiveMinuteDays',
      'labelUptimePeriod',
      'lastClosureAt',
      'leftOutReasonOf',
      'lettersAsOf',
      'median',
      'microUsdToUsd',
      'needsAggregateBeforeDelete',
      'needsDomainAge',
      'newServerFoldState',
      'newestHandshakeMs',
      'observationWindow',
      'oldestKeptDay',
      'outstandingEstimate',
      'ownCheckOutcomeOf',
      'ownCheckViewOf',
      'packageLayerDays',
      'planDomainLookups',
      'planShardOrder',
      'priceCheck',
      'rankMostReliable',
      'rateServer',
      'recordFiveMinuteCheck',
      'recordFiveMinuteObservation',
      'recordHourResult',
      'reportAgreement',
      'reportDecay',
      'reporterKey',
      'reporterWeight',
      'reviewSubmission',
      'sensorWeight',
      'shouldAlertOwner',
      'shownStatusOf',
      'speedScore',
      'stability',
      'starsFor',
      'successChance',
      'summarizeObservation',
      'summarizeSensorOutcomes',
      'tallyAgreement',
      'tallyAgreementRecords',
      'toolListBaseline',
      'uptimeInputOf',
      'usdToMicroUsd',
      'usesFiveMinuteFigure',
      'viewHourProfile',
      'weighDay',
    ]);
  });
});

describe('the rules subpath', () => {
  it('exports one frozen object per concern and nothing else', () => {
    expect(Object.keys(rules).sort()).toEqual([
      'CHANCE_RULES',
      'DOMAIN_AGE_RULES',
      'FOLD_RULES',
      'INCIDENT_RULES',
      'LETTER_RULES',
      'PACKAGE_LAYER_RULES',
      'RANKING_RULES',
      'RATING_RULES',
      'REPORT_LIMIT_RULES',
      'SENSOR_RULES',
      'SHOWN_STATUS_RULES',
      'SUBMISSION_RULES',
      'UPTIME_RULES',
    ]);
    for (const [name, group] of Object.entries(rules)) expect(Object.isFrozen(group), name).toBe(true);
  });

  it('holds the methodology numbers', () => {
    expect(rules.LETTER_RULES).toEqual({ windowDays: 30, answeringLetters: ['o', 'a', 'p'] });
    expect(rules.UPTIME_RULES).toEqual({
      decimals: 1,
      capWhenMissed: 99.9,
      fiveMinuteMinChecks: 12,
      fiveMinuteWindowDays: 30,
      fiveMinuteLongWindowDays: 90,
      thirtyDayLabelMinDays: 14,
      thirtyDayLabel: '30-day uptime',
      distributionMinMedianDays: 14,
    });
    expect(rules.CHANCE_RULES).toEqual({
      priorSuccesses: 1,
      priorTrials: 2,
      dayWeightBase: 0.5,
      stabilityPenaltyPerChangeDay: 0.5,
      stabilityWindowDays: 30,
    });
    expect(rules.FOLD_RULES).toEqual({
      changeDaysKept: 60,
      outagesKept: 5,
      riskRiseDaysKept: 7,
      fiveMinuteDaysKept: 92,
    });
    expect(rules.RANKING_RULES).toEqual({ minObservedDays: 14, topPlacesDivisor: 10, topPlacesMinRanked: 10 });
    expect(rules.RATING_RULES).toMatchObject({
      paidReporterWeight: 1,
      anonymousReporterWeight: 0.3,
      reportHalfLifeDays: 7,
      reportWindowDays: 30,
      starFloor: 1,
      starSpan: 4,
      visibleMinReporters: 3,
      visibleMinPaidWeight: 1,
    });
    expect(rules.REPORT_LIMIT_RULES).toEqual({
      perReporterPerDay: 50,
      perReporterPerServerPerDay: 3,
      ipv4PrefixBits: 24,
      ipv6PrefixBits: 48,
    });
    expect(rules.SENSOR_RULES).toEqual({
      weight: 0.3,
      outcomesPerDay: 20_000,
      outcomesPerBatch: 100,
      outcomeMaxAgeHours: 24,
    });
    expect(rules.INCIDENT_RULES).toMatchObject({ windowHours: 2, minReporters: 2, minReportersWithCheck: 1 });
    expect(rules.SHOWN_STATUS_RULES).toMatchObject({ failuresInARowToShow: 2, hourProfileMinHours: 6 });
    expect(rules.SUBMISSION_RULES).toEqual({
      checkIntervalHours: 6,
      windowDays: 7,
      minChecks: 20,
      admitPercent: 90,
      extendPercent: 70,
      maxToolListChanges: 1,
      maxExtensions: 1,
      earlierAttemptsKept: 10,
    });
    expect(rules.DOMAIN_AGE_RULES).toEqual({ lookupsPerScan: 40, keepDays: 30 });
    expect(rules.PACKAGE_LAYER_RULES).toEqual({ packagesPerServerMax: 10, lookbackDays: 7, osvRetryHours: 1 });
  });
});

describe('the policy subpath', () => {
  it('exports the operations policy as one frozen object per concern and nothing else', () => {
    expect(Object.keys(policy).sort()).toEqual(['COST_CAP_POLICY', 'INTAKE_QUOTA_POLICY', 'RETENTION_POLICY']);
    for (const [name, group] of Object.entries(policy)) expect(Object.isFrozen(group), name).toBe(true);
  });

  it('holds the defaults the methodology states', () => {
    expect(policy.COST_CAP_POLICY).toEqual({
      dailyCheckBudgetUsd: 0.1,
      fiveMinuteBudgetUsd: 0.25,
      defaultCheckCostModel: { perCheckUsd: 0.00001, perSecondUsd: 0.00001 },
      checkWallMsWithoutHistory: 8_000,
      reservationStaleMs: 900_000,
    });
    expect(policy.INTAKE_QUOTA_POLICY).toEqual({
      submissionsPerRequesterPerDay: 10,
      submissionsPerHostPerDay: 3,
      ownershipChecksPerRequesterPerDay: 20,
      ownershipChecksPerHostPerDay: 10,
      ownershipFailuresPerRequesterPerHostPerDay: 3,
      ownershipFailuresPerHostPerDay: 10,
    });
    expect(policy.RETENTION_POLICY.days).toEqual({
      rawSensorBatches: 35,
      rawDemandRecords: 35,
      refusedSensorRequests: 35,
      askMarkers: 30,
      badgeSightings: 30,
      viewCounts: 90,
      dailyCallMarkers: 7,
      rateCounters: 7,
      mcpCallLog: 30,
    });
    expect(policy.RETENTION_POLICY.aggregateGraceMinutes).toBe(5);
    expect(Object.isFrozen(policy.RETENTION_POLICY.days)).toBe(true);
  });
});
