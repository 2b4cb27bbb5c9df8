// Which score a page shows: the newest of the last seven days, the newest day included, with the window's first
// day pinned just inside and the day before it just outside.
import { describe, expect, it } from 'vitest';
import { SHOWN_SCORE_RULES } from '../src/score-rules.js';
import { firstShownScoreDay } from '../src/shown-score.js';

describe('firstShownScoreDay', () => {
  it('opens the shown window six days before the newest day: seven days in all', () => {
    expect(SHOWN_SCORE_RULES.maxDays).toBe(7);
    expect(firstShownScoreDay('2026-12-08')).toBe('2026-12-02');
    // A score of 2026-12-02 is still shown on 2026-12-08 (just inside); one of 2026-12-01 is not (just outside).
    expect('2026-12-02' >= firstShownScoreDay('2026-12-08')).toBe(true);
    expect('2026-12-01' >= firstShownScoreDay('2026-12-08')).toBe(false);
  });

  it('crosses a month boundary', () => {
    expect(firstShownScoreDay('2026-12-03')).toBe('2026-11-27');
  });
});
