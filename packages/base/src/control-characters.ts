/**
 * Taking out the characters of a server's text that change how it is read instead of being read: what a
 * server says about itself (names, titles, descriptions, versions, tool names) reaches agents and pages, and a
 * terminal escape, a NUL, a backspace or a bidi override there could hide or rewrite what a reader sees.
 *
 * Pure module: no I/O, no clock, no dependency.
 */

// C0 controls but tab, line feed and carriage return (ordinary line breaks and indentation in descriptions),
// DEL, the C1 controls, and the bidi embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069)
// that can show text in another order than it is stored. The direction marks U+200E and U+200F stay: text in
// right-to-left scripts spells with them.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` without control characters: the C0 controls except tab, line feed and carriage return, DEL, the
 * C1 controls, and the bidi embeddings, overrides and isolates are removed; everything else is kept as it
 * is, so ordinary text comes back unchanged (the very same string).
 *
 * @example stripControlCharacters('Reads a file.\u001b[2J\u0007') // 'Reads a file.[2J'
 */
export function stripControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '');
}
