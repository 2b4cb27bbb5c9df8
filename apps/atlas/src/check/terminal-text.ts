// Text a server chose (its name, version, tool names, error messages) on its way to a terminal. A terminal acts
// on control characters: `ESC]0;...BEL` sets the window title, `ESC[2K` erases a line, a backspace or a line break
// can hide or fake a line of the report. The escaping is JSON's, as `review list` quotes a tool's name, so text
// with no control character prints exactly as before and hostile text prints as a visible, quoted string.

// C0 controls except the tab (NUL, BEL, backspace, ESC, line breaks...), DEL, the C1 controls (the 8-bit CSI among
// them), and the bidi embeddings, overrides and isolates, which show text in another order than it is stored. A
// tab moves the cursor right and nothing more, so it is left as it is.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

// JSON.stringify escapes the C0 controls but writes the others as they are.
const LEFT_RAW_BY_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const escapeCharacter = (character: string): string => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * JSON text with DEL, the C1 controls and the bidi controls written as `\u` escapes: the same JSON value, with
 * nothing left in it that a terminal acts on.
 *
 * @example escapeJsonControls('"a\u009bb"') // '"a\\u009bb"'
 */
export function escapeJsonControls(json: string): string {
  return json.replace(LEFT_RAW_BY_JSON, escapeCharacter);
}

/**
 * A piece of server text as a terminal may show it: unchanged when it holds no control character, otherwise
 * JSON-quoted with every control character escaped, so it can neither steer the terminal nor pose as a line of
 * its own.
 *
 * @example quoteControlText('memory') // 'memory'
 * @example quoteControlText('x\u001b]0;pwned\u0007') // '"x\\u001b]0;pwned\\u0007"'
 */
export function quoteControlText(text: string): string {
  return CONTROL_CHARACTER.test(text) ? escapeJsonControls(JSON.stringify(text)) : text;
}
