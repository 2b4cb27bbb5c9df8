/**
 * The public surface of @mcp-atlas/operations: a root of at most 40 runtime names (what the service calls), and
 * a `./rules` subpath of frozen rule groups. The groups of the operating rules that came from
 * @mcp-atlas/reliability are pinned here with the numbers the methodology states.
 */
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as rules from '../src/rules.js';

describe('the root entry', () => {
  it('holds at most 40 runtime names and no rule group', () => {
    expect(Object.keys(api).length).toBeLessThanOrEqual(40);
    for (const name of Object.keys(api)) expect(name, name).not.toMatch(/_RULES$/);
  });

  it('throws the error class of @mcp-atlas/reliability for bad input to the rules that came from it', () => {
    expect(() => api.priceCheck(-1)).toThrow(ReliabilityInputError);
  });
});

describe('the rules subpath', () => {
  it('exports only frozen rule groups', () => {
    for (const [name, group] of Object.entries(rules)) {
      expect(name).toMatch(/^[A-Z][A-Z_]*_RULES$/);
      expect(Object.isFrozen(group), name).toBe(true);
    }
  });

  it('holds the compute caps, intake quotas and submission rules', () => {
    expect(rules.COST_CAP_RULES).toEqual({
      dailyCheckBudgetUsd: 0.1,
      fiveMinuteBudgetUsd: 0.25,
      defaultCheckCostModel: { perCheckUsd: 0.00001, perSecondUsd: 0.00001 },
      checkWallMsWithoutHistory: 8_000,
      reservationStaleMs: 900_000,
    });
    expect(rules.INTAKE_QUOTA_RULES).toEqual({
      submissionsPerRequesterPerDay: 10,
      submissionsPerHostPerDay: 3,
      ownershipChecksPerRequesterPerDay: 20,
      ownershipChecksPerHostPerDay: 10,
      ownershipFailuresPerRequesterPerHostPerDay: 3,
      ownershipFailuresPerHostPerDay: 10,
    });
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
  });

  it('holds the retention, domain age and package layer rules', () => {
    expect(rules.RETENTION_RULES.days).toEqual({
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
    expect(rules.RETENTION_RULES.needsAggregate).toEqual(['rawSensorBatches', 'rawDemandRecords', 'dailyCallMarkers']);
    expect(rules.RETENTION_RULES.keepsCurrentMonth).toEqual(['dailyCallMarkers']);
    expect(rules.RETENTION_RULES.aggregateGraceMinutes).toBe(5);
    expect(Object.isFrozen(rules.RETENTION_RULES.days)).toBe(true);
    expect(rules.DOMAIN_AGE_RULES).toEqual({ lookupsPerScan: 40, keepDays: 30 });
    expect(rules.PACKAGE_LAYER_RULES).toEqual({ packagesPerServerMax: 10, lookbackDays: 7, osvRetryHours: 1 });
    expect(rules.WEBHOOK_RULES).toEqual({
      retryDelaysSeconds: [60, 300, 1_800, 7_200],
      timeoutMs: 10_000,
      deliveriesKept: 50,
    });
    expect(Object.isFrozen(rules.WEBHOOK_RULES.retryDelaysSeconds)).toBe(true);
    expect(rules.POLITENESS_RULES).toEqual({ checksPerHost: 1, checksPerHostMax: 64 });
  });
});
