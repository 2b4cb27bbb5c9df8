// One loopback fleet for a whole test file: started before its first test, closed after its last.
import { afterAll, beforeAll } from 'vitest';
import { type LoopbackFleet, startLoopbackFleet } from '../fixtures/loopback-fleet.js';

/** Starts `size` fleet servers (each answer held back `delayMs`) for the file; call the result for the fleet. */
export function useLoopbackFleetPerFile(size: number, delayMs: number): () => LoopbackFleet {
  let fleet: LoopbackFleet | undefined;
  beforeAll(async () => {
    fleet = await startLoopbackFleet(size, delayMs);
  });
  afterAll(async () => {
    await fleet?.close();
  });
  return () => {
    if (fleet === undefined) throw new Error('the loopback fleet is used before it started');
    return fleet;
  };
}
