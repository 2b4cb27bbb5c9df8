import { describe, expect, it } from 'vitest';
import { CHANGE_DAYS_KEPT, FIVE_MINUTE_DAYS_KEPT, LETTER_WINDOW_DAYS, OUTAGES_KEPT } from '../src/constants.js';

describe('what the daily fold keeps per server', () => {
  it('is 30 daily letters, 60 days of change days, 5 outages and 92 days of five-minute counters', () => {
    expect([LETTER_WINDOW_DAYS, CHANGE_DAYS_KEPT, OUTAGES_KEPT, FIVE_MINUTE_DAYS_KEPT]).toEqual([30, 60, 5, 92]);
  });
});
