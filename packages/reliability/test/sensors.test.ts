import { describe, expect, it } from 'vitest';
import { admitSensorBatch, ReliabilityInputError, type SensorOutcome, summarizeSensorOutcomes } from '../src/index.js';

const NOW = new Date('2025-06-01T12:00:00Z');
const HOUR = 3_600_000;

function outcomes(count: number, at: Date = NOW): SensorOutcome[] {
  return Array.from({ length: count }, (_, i) => ({ server: `s${i}`, ok: true, at }));
}

describe('admitSensorBatch', () => {
  it('accepts a batch of 100 outcomes and refuses one of 101 whole', () => {
    expect(admitSensorBatch({ sensor: 'gw', outcomes: outcomes(100) }, { now: NOW, acceptedToday: 0 })).toMatchObject({
      status: 'accepted',
      dropped: { tooOld: 0, fromFuture: 0, overDailyLimit: 0 },
    });
    expect(admitSensorBatch({ sensor: 'gw', outcomes: outcomes(101) }, { now: NOW, acceptedToday: 0 })).toEqual({
      status: 'refused',
      reason: 'batch_too_large',
      limit: 100,
    });
  });

  it('keeps an outcome exactly 24 hours old and drops one a millisecond older', () => {
    const batch = {
      sensor: 'gw',
      outcomes: [
        { server: 'a', ok: true, at: new Date(NOW.getTime() - 24 * HOUR) },
        { server: 'b', ok: false, at: new Date(NOW.getTime() - 24 * HOUR - 1), reason: 'timeout' as const },
      ],
    };
    const decision = admitSensorBatch(batch, { now: NOW, acceptedToday: 0 });
    expect(decision).toEqual({
      status: 'accepted',
      accepted: [batch.outcomes[0]],
      dropped: { tooOld: 1, fromFuture: 0, overDailyLimit: 0 },
    });
  });

  it('drops outcomes dated after now', () => {
    const decision = admitSensorBatch(
      { sensor: 'gw', outcomes: [{ server: 'a', ok: true, at: new Date(NOW.getTime() + 1) }] },
      { now: NOW, acceptedToday: 0 },
    );
    expect(decision).toMatchObject({ status: 'accepted', accepted: [], dropped: { fromFuture: 1 } });
  });

  it('accepts up to 20,000 outcomes per sensor per day', () => {
    const partial = admitSensorBatch({ sensor: 'gw', outcomes: outcomes(15) }, { now: NOW, acceptedToday: 19_990 });
    expect(partial.status).toBe('accepted');
    if (partial.status === 'accepted') {
      expect(partial.accepted).toHaveLength(10);
      expect(partial.dropped.overDailyLimit).toBe(5);
    }
    expect(
      admitSensorBatch({ sensor: 'gw', outcomes: outcomes(1) }, { now: NOW, acceptedToday: 19_999 }),
    ).toMatchObject({
      status: 'accepted',
      dropped: { overDailyLimit: 0 },
    });
    expect(admitSensorBatch({ sensor: 'gw', outcomes: outcomes(1) }, { now: NOW, acceptedToday: 20_000 })).toEqual({
      status: 'refused',
      reason: 'daily_limit_reached',
      limit: 20_000,
    });
  });

  it('does not spend the daily limit on outcomes it drops for age', () => {
    const batch = [
      { server: 'a', ok: true, at: new Date(NOW.getTime() - 25 * HOUR) },
      { server: 'b', ok: true, at: NOW },
    ];
    const decision = admitSensorBatch({ sensor: 'gw', outcomes: batch }, { now: NOW, acceptedToday: 19_999 });
    expect(decision).toMatchObject({
      status: 'accepted',
      accepted: [batch[1]],
      dropped: { tooOld: 1, overDailyLimit: 0 },
    });
  });

  it('accepts an empty batch even at the limit', () => {
    expect(admitSensorBatch({ sensor: 'gw', outcomes: [] }, { now: NOW, acceptedToday: 20_000 })).toMatchObject({
      status: 'accepted',
      accepted: [],
    });
  });

  it('throws on malformed batches and outcomes', () => {
    const ctx = { now: NOW, acceptedToday: 0 };
    expect(() => admitSensorBatch({ sensor: '', outcomes: [] }, ctx)).toThrow(/batch\.sensor/);
    expect(() => admitSensorBatch({ sensor: 'gw', outcomes: 'x' as unknown as SensorOutcome[] }, ctx)).toThrow(
      /batch\.outcomes/,
    );
    expect(() => admitSensorBatch({ sensor: 'gw', outcomes: [{ server: 'a', ok: true, at: 'soon' }] }, ctx)).toThrow(
      /outcomes\[0\]\.at/,
    );
    expect(() =>
      admitSensorBatch({ sensor: 'gw', outcomes: [{ server: 'a', ok: true, at: NOW, ms: -1 }] }, ctx),
    ).toThrow(/ms/);
    expect(() => admitSensorBatch({ sensor: 'gw', outcomes: [] }, { now: NOW, acceptedToday: -1 })).toThrow(
      ReliabilityInputError,
    );
  });
});

describe('summarizeSensorOutcomes', () => {
  it('makes one entry per server and UTC day', () => {
    const entries = summarizeSensorOutcomes('gw', [
      { server: 's2', ok: true, at: '2025-06-01T10:00:00Z' },
      { server: 's1', ok: true, at: '2025-06-01T23:59:59Z' },
      { server: 's1', ok: false, at: '2025-06-01T11:00:00Z', reason: 'timeout' },
      { server: 's1', ok: true, at: '2025-06-02T00:00:00Z' },
      { server: 's1', ok: true, at: '2025-06-02T01:30:00+02:00' }, // 23:30 UTC on June 1
    ]);
    expect(entries).toEqual([
      { sensor: 'gw', server: 's1', day: '2025-06-01', worked: 2, calls: 3 },
      { sensor: 'gw', server: 's1', day: '2025-06-02', worked: 1, calls: 1 },
      { sensor: 'gw', server: 's2', day: '2025-06-01', worked: 1, calls: 1 },
    ]);
  });

  it('throws on a malformed outcome', () => {
    expect(() => summarizeSensorOutcomes('gw', [{ server: 's', ok: 'yes' as unknown as boolean, at: NOW }])).toThrow(
      /outcomes\[0\]\.ok/,
    );
  });
});
