/**
 * Whose daily allowance a gateway sensor's batch spends, published as `@mcp-atlas/operations/sensors`. Pure
 * module: the caller checks the token and counts, this module decides.
 *
 * A sensor id is a name anyone can type, so an id alone proves nothing: a stranger who sends batches under a
 * real sensor's id must not be able to spend that sensor's allowance (or make its outcomes look like theirs).
 * Two kinds of sender follow from that:
 *
 * - a registered sensor, whose operator was given a secret token (`mcp-atlas sensors add`). A batch that
 *   carries the token spends that sensor's own allowance and nothing else, from whatever network it comes. A
 *   batch under a registered id without the token, or with a wrong one, is refused: the id is taken;
 * - an unregistered sensor id, sent without a token. Its batches spend the allowance of the network they came
 *   from (one allowance per network, however many ids it uses), so they can never spend another network's
 *   allowance or a registered sensor's.
 *
 * The daily allowance itself is SENSOR_RULES.outcomesPerDay of @mcp-atlas/reliability/rules, the same for both.
 */

import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { assertBoolean, assertCount, describeValue } from './validate.js';

/** What the caller found about a batch's token: none sent, one that matches the sensor's, or one that does not. */
export type SensorCredential = 'none' | 'valid' | 'wrong';

/** What is known about one batch before it is taken, counting only outcomes already accepted today (UTC). */
export interface SensorAllowanceInput {
  /** True when the batch's sensor id is registered (and not revoked). */
  registered: boolean;
  /** The token check's result; `valid` is possible only for a registered sensor. */
  credential: SensorCredential;
  /** Outcomes the registered sensor sent today with its token (read only for an authenticated batch). */
  registeredToday: number;
  /** Outcomes accepted today without a token from the batch's network, under any sensor id. */
  networkToday: number;
}

/** Which allowance a batch spends and how much of it is used, or why it is refused before any count. */
export type SensorAllowanceDecision =
  | { status: 'admitted'; spends: 'registered-sensor' | 'network'; acceptedToday: number }
  | { status: 'refused'; reason: 'invalid_sensor_token' | 'sensor_token_required' };

/**
 * Decides whose allowance a sensor batch spends. In order: a wrong token is refused
 * (`invalid_sensor_token`); a valid token spends the registered sensor's allowance; no token for a registered
 * id is refused (`sensor_token_required`); no token for an unregistered id spends the sending network's
 * allowance. The caller then admits outcomes up to the daily allowance from `acceptedToday`.
 *
 * @example
 * decideSensorAllowance({ registered: true, credential: 'valid', registeredToday: 300, networkToday: 20_000 });
 * // { status: 'admitted', spends: 'registered-sensor', acceptedToday: 300 }
 * decideSensorAllowance({ registered: true, credential: 'none', registeredToday: 0, networkToday: 0 });
 * // { status: 'refused', reason: 'sensor_token_required' }
 * decideSensorAllowance({ registered: false, credential: 'none', registeredToday: 20_000, networkToday: 12 });
 * // { status: 'admitted', spends: 'network', acceptedToday: 12 }
 */
export function decideSensorAllowance(input: SensorAllowanceInput): SensorAllowanceDecision {
  if (typeof input !== 'object' || input === null)
    throw new ReliabilityInputError(
      'invalid-number',
      'input',
      `expected { registered, credential, registeredToday, networkToday }, received ${describeValue(input)}`,
    );
  const registered = assertBoolean(input.registered, 'registered', 'invalid-number');
  const registeredToday = assertCount(input.registeredToday, 'registeredToday');
  const networkToday = assertCount(input.networkToday, 'networkToday');
  switch (input.credential) {
    case 'wrong':
      return { status: 'refused', reason: 'invalid_sensor_token' };
    case 'valid':
      if (!registered) return { status: 'refused', reason: 'invalid_sensor_token' };
      return { status: 'admitted', spends: 'registered-sensor', acceptedToday: registeredToday };
    case 'none':
      if (registered) return { status: 'refused', reason: 'sensor_token_required' };
      return { status: 'admitted', spends: 'network', acceptedToday: networkToday };
    default:
      throw new ReliabilityInputError(
        'invalid-number',
        'credential',
        `expected 'none', 'valid' or 'wrong', received ${describeValue(input.credential)}`,
      );
  }
}
