/**
 * Rounding the way the open engine (Python) rounds. Pure module: no I/O, no clock.
 *
 * The engine truncates category scores with `int()` and rounds the composite with `round()`, which
 * rounds a tie to the even neighbour (banker's rounding). `Math.round` sends every tie up, so 84.5
 * would become 85 (grade A) where the engine gives 84 (grade B): these helpers keep the answers equal.
 */

/**
 * Rounds to the nearest integer, a tie (exactly .5) going to the even neighbour, like Python's
 * `round(x)`: `roundHalfEven(84.5)` is 84, `roundHalfEven(85.5)` is 86, `roundHalfEven(-2.5)` is -2.
 * Works on the exact double value, so `roundHalfEven(2.675 * 10)` follows what the float holds.
 * A non-finite input is returned unchanged.
 */
export function roundHalfEven(value: number): number {
  if (!Number.isFinite(value)) return value;
  const floor = Math.floor(value);
  // For doubles below 2^52 the difference to the floor is exact, so the tie test is exact too.
  const fraction = value - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * Drops the fraction toward zero, like Python's `int(x)` on a float: `truncateScore(79.99)` is 79,
 * `truncateScore(-0.5)` is 0. The engine truncates every category score this way, it never rounds them.
 */
export function truncateScore(value: number): number {
  const truncated = Math.trunc(value);
  // Math.trunc(-0.5) is -0; Python's int gives 0, and -0 would print oddly in JSON consumers.
  return truncated === 0 ? 0 : truncated;
}
