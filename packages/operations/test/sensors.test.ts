// Whose allowance a sensor batch spends: every combination of registration and token, pinned by hand.
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import { decideSensorAllowance } from '../src/sensors.js';

describe('decideSensorAllowance', () => {
  it('spends a registered sensor’s own allowance when its token comes, whatever the network spent', () => {
    expect(
      decideSensorAllowance({ registered: true, credential: 'valid', registeredToday: 300, networkToday: 20_000 }),
    ).toEqual({ status: 'admitted', spends: 'registered-sensor', acceptedToday: 300 });
  });

  it('refuses a registered id sent without its token, even when nothing was spent', () => {
    expect(
      decideSensorAllowance({ registered: true, credential: 'none', registeredToday: 0, networkToday: 0 }),
    ).toEqual({ status: 'refused', reason: 'sensor_token_required' });
  });

  it('refuses a wrong token for a registered id and any token for an unregistered one', () => {
    for (const registered of [true, false]) {
      expect(decideSensorAllowance({ registered, credential: 'wrong', registeredToday: 0, networkToday: 0 })).toEqual({
        status: 'refused',
        reason: 'invalid_sensor_token',
      });
    }
    expect(
      decideSensorAllowance({ registered: false, credential: 'valid', registeredToday: 0, networkToday: 0 }),
    ).toEqual({ status: 'refused', reason: 'invalid_sensor_token' });
  });

  it('spends the sending network’s allowance for an unregistered id, never the registered sensor’s count', () => {
    expect(
      decideSensorAllowance({ registered: false, credential: 'none', registeredToday: 20_000, networkToday: 12 }),
    ).toEqual({ status: 'admitted', spends: 'network', acceptedToday: 12 });
  });

  it('throws the reliability input error on counts that are not whole numbers, or an unknown credential', () => {
    expect(() =>
      decideSensorAllowance({ registered: false, credential: 'none', registeredToday: 0, networkToday: -1 }),
    ).toThrow(ReliabilityInputError);
    expect(() =>
      decideSensorAllowance({ registered: 'yes' as never, credential: 'none', registeredToday: 0, networkToday: 0 }),
    ).toThrow(ReliabilityInputError);
    expect(() =>
      decideSensorAllowance({ registered: true, credential: 'maybe' as never, registeredToday: 0, networkToday: 0 }),
    ).toThrow(ReliabilityInputError);
  });
});
