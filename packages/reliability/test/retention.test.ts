import { describe, expect, it } from 'vitest';
import {
  CHANGE_DAYS_KEPT,
  FIVE_MINUTE_DAYS_KEPT,
  LETTER_WINDOW_DAYS,
  OUTAGES_KEPT,
  RETENTION_DAYS,
} from '../src/constants.js';

describe('the retention limits', () => {
  it('keep per server 30 daily letters, 60 days of change days, 5 outages and 92 days of five-minute counters', () => {
    expect([LETTER_WINDOW_DAYS, CHANGE_DAYS_KEPT, OUTAGES_KEPT, FIVE_MINUTE_DAYS_KEPT]).toEqual([30, 60, 5, 92]);
  });
  it('delete short-lived stores after their published limits', () => {
    expect(RETENTION_DAYS).toEqual({
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
    expect(Object.isFrozen(RETENTION_DAYS)).toBe(true);
  });
});
