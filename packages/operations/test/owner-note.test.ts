import { describe, expect, it } from 'vitest';
import { isOwnerNoteShortEnough } from '../src/owner-note.js';
import { OWNER_NOTE_RULES } from '../src/rules.js';

describe("an owner's note", () => {
  it('is at most 280 characters', () => {
    expect(OWNER_NOTE_RULES.maxCharacters).toBe(280);
    expect(Object.isFrozen(OWNER_NOTE_RULES)).toBe(true);
    expect(isOwnerNoteShortEnough('a'.repeat(279))).toBe(true);
    expect(isOwnerNoteShortEnough('a'.repeat(280))).toBe(true);
    expect(isOwnerNoteShortEnough('a'.repeat(281))).toBe(false);
  });

  it('counts code points, not UTF-16 units', () => {
    // 280 emoji are 560 UTF-16 units and still a note that fits.
    expect(isOwnerNoteShortEnough('🙂'.repeat(280))).toBe(true);
    expect(isOwnerNoteShortEnough('🙂'.repeat(281))).toBe(false);
  });
});
