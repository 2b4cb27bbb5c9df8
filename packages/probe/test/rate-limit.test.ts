import { describe, expect, it } from 'vitest';
import { decideRateLimitRetry } from '../src/index.js';
import { RATE_LIMIT_RULES } from '../src/rules.js';

const DAY = '2026-12-06';
const at = (time: string) => new Date(`${DAY}T${time}Z`);
const tryAt = (retryAfterMs: number | null, retriesDone: number, time = '10:00:00.000') => ({
  retryAfterMs,
  retriesDone,
  day: DAY,
  now: at(time),
});

describe('decideRateLimitRetry', () => {
  it('publishes its bounds: 2 retries, waits of at most 300 s, 30 s when no wait is named', () => {
    expect(RATE_LIMIT_RULES).toEqual({ retries: 2, waitMaxMs: 300_000, defaultWaitMs: 30_000 });
  });

  it('waits what the server asked, after the first try and the second, never after the third', () => {
    expect(decideRateLimitRetry(tryAt(2000, 0))).toEqual({ retry: true, waitMs: 2000 });
    expect(decideRateLimitRetry(tryAt(2000, 1))).toEqual({ retry: true, waitMs: 2000 });
    expect(decideRateLimitRetry(tryAt(2000, 2))).toEqual({ retry: false, why: 'retries-used' });
  });

  it('waits 30 s when the server named no wait, and asks again at once for a wait of 0', () => {
    expect(decideRateLimitRetry(tryAt(null, 0))).toEqual({ retry: true, waitMs: 30_000 });
    expect(decideRateLimitRetry(tryAt(0, 0))).toEqual({ retry: true, waitMs: 0 });
  });

  it('takes a wait of 300 s and refuses 300.001 s', () => {
    expect(decideRateLimitRetry(tryAt(300_000, 0))).toEqual({ retry: true, waitMs: 300_000 });
    expect(decideRateLimitRetry(tryAt(300_001, 0))).toEqual({ retry: false, why: 'wait-too-long' });
  });

  it('asks again only when the next try starts before the UTC day ends', () => {
    expect(decideRateLimitRetry(tryAt(2000, 0, '23:59:57.999'))).toEqual({ retry: true, waitMs: 2000 });
    expect(decideRateLimitRetry(tryAt(2000, 0, '23:59:58.000'))).toEqual({ retry: false, why: 'past-day-end' });
    expect(decideRateLimitRetry(tryAt(null, 0, '23:59:30.000'))).toEqual({ retry: false, why: 'past-day-end' });
  });

  it('never asks again once the check has run past its day', () => {
    const next = { retryAfterMs: 0, retriesDone: 0, day: DAY, now: new Date('2026-12-07T00:00:00.000Z') };
    expect(decideRateLimitRetry(next)).toEqual({ retry: false, why: 'past-day-end' });
  });
});
