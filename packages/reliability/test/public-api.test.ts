/**
 * Pins the public names of @mcp-atlas/reliability: the root entry holds the functions users call, their types
 * and the error class; the live side is the `./live` subpath; the methodology's rule constants and vocabularies
 * are the `./rules` subpath, one frozen object per concern. A name added to or dropped from an entry fails here,
 * so every change to the semver promise is a deliberate one. Pure module under test; this file reads no clock.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as live from '../src/live.js';
import * as rules from '../src/rules.js';

describe('the root entry', () => {
  it('exports exactly these runtime names, at most 40, and no rule constant', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ReliabilityInputError',
      'admitSensorBatch',
      'advanceDaySeries',
      'checkClosureNote',
      'checkReportQuota',
      'checkUptime',
      'countChangeDays',
      'countObservedDays',
      'dailyUptime',
      'daySeriesStatus',
      'decideClosedIncident',
      'decideIncident',
      'decideUptimeDistribution',
      'describePublicRating',
      'describeUptime',
      'foldServerDay',
      'foldSkippedDay',
      'isAnsweringLetter',
      'isDayFolded',
      'labelUptimePeriod',
      'leftOutReasonOf',
      'lettersAsOf',
      'median',
      'newServerFoldState',
      'rankMostReliable',
      'rateServer',
      'reportDecay',
      'reporterKey',
      'reporterWeight',
      'speedScore',
      'stability',
      'starsFor',
      'successChance',
      'summarizeSensorOutcomes',
      'tallyAgreementRecords',
      'toolListBaseline',
    ]);
  });
});

describe('the live subpath', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(live).sort()).toEqual([
      'createHourProfile',
      'decideOwnerAlert',
      'describeHourProfile',
      'describeShownState',
      'displayState',
      'failedHttpStatus',
      'incidentChecksOf',
      'isAnsweringNow',
      'isHourSlotNews',
      'latencyValuesOf',
      'newestHandshakeMs',
      'ownCheckOutcomeOf',
      'ownCheckViewOf',
      'recordCheckTally',
      'recordFiveMinuteCheck',
      'recordFiveMinuteObservation',
      'recordHourResult',
      'shownStatusOf',
      'uptimeInputOf',
      'viewHourProfile',
    ]);
  });
});

describe('the rules subpath', () => {
  it('exports one frozen object per concern and nothing else', () => {
    expect(Object.keys(rules).sort()).toEqual([
      'CHANCE_RULES',
      'FOLD_RULES',
      'INCIDENT_RULES',
      'LETTER_RULES',
      'MAP_LISTING_RULES',
      'RANKING_RULES',
      'RATING_RULES',
      'REPORT_LIMIT_RULES',
      'SENSOR_RULES',
      'SHOWN_STATUS_RULES',
      'UPTIME_RULES',
    ]);
    for (const [name, group] of Object.entries(rules)) expect(Object.isFrozen(group), name).toBe(true);
  });

  it('holds the methodology numbers', () => {
    expect(rules.LETTER_RULES).toEqual({
      windowDays: 30,
      answeringLetters: ['o', 'a', 'p'],
      letters: ['o', 'a', 'p', 'd', 'n'],
      downLetter: 'd',
      noDataLetter: 'n',
    });
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
      checkTallyDaysKept: 8,
      checkCountDaysKept: 31,
      changeKinds: ['tools', 'started-answering', 'stopped-answering', 'sign-in', 'payment-address', 'redirect'],
      daySeriesDaysKept: 90,
      daySeriesPercentiles: { low: 50, high: 95 },
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
    expect(rules.RATING_RULES.failureReasons).toEqual([
      'unreachable',
      'auth',
      'args',
      'server_error',
      'timeout',
      'rate_limited',
      'wrong_result',
    ]);
    expect(rules.RATING_RULES.surprises).toEqual(['side_effect', 'unexpected_cost', 'data_leak_suspected', 'other']);
    expect(rules.INCIDENT_RULES.ownCheckKinds).toEqual(['hourly', 'five_minute', 'daily']);
    expect(rules.MAP_LISTING_RULES).toEqual({
      leftOutReasons: ['opted-out', 'robots', 'not-in-registry', 'not-checked'],
    });
  });
});
