/**
 * An owner's note: their own words, shown next to ours with the date their token file last proved control.
 * Kept short and plain so it cannot pass for ours. Pure module: no I/O, no clock.
 */

/** Longest owner note, in characters (Unicode code points). */
export const OWNER_NOTE_MAX_CHARACTERS = 280;

/**
 * True when `text` fits an owner's note: at most `OWNER_NOTE_RULES.maxCharacters` code points, so an emoji or
 * an accented letter written as one code point counts once.
 *
 * @example
 * isOwnerNoteShortEnough('a'.repeat(280)); // true
 * isOwnerNoteShortEnough('a'.repeat(281)); // false
 */
export function isOwnerNoteShortEnough(text: string): boolean {
  return [...text].length <= OWNER_NOTE_MAX_CHARACTERS;
}
