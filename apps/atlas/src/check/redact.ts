// The one place `mcp-atlas check` decides what a recorded target may show. Every target, command line, URL and
// header that reaches a report, a text line, a SARIF log or a lock file goes through here, so a secret passed
// on the command line (`env API_KEY=...`, `https://user:pass@host`, `?token=...`, `--header 'Authorization: ...'`)
// is written as `***`. A scrubber also replaces every known secret value in the final text, for the case where a
// server or an error message echoes one back.
// Which names look secret is a rule, so it lives in @mcp-atlas/risk (next to its sensitive nouns).
import { looksSecretName } from '@mcp-atlas/risk';
import { mapJsonStrings } from './json-strings.js';

/** What a hidden value is written as. */
export const REDACTED = '***';

/** Secret values shorter than this are not scrubbed from free text (a value like `1` would garble every line). */
export const MIN_SCRUBBED_VALUE_LENGTH = 4;

/**
 * A URL as it may be recorded: user name and password become `***`, and so does the value of every query
 * parameter whose name looks secret. Text that is not a URL is returned unchanged.
 *
 * @example redactUrl('https://me:pw@x.test/mcp?api_key=1&q=2') // 'https://***:***@x.test/mcp?api_key=***&q=2'
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  const secretQuery = [...url.searchParams.keys()].some(looksSecretName);
  // Nothing to hide: the text stays exactly as given (no normalised trailing slash).
  if (url.username === '' && url.password === '' && !secretQuery) return text;
  if (url.username !== '') url.username = REDACTED;
  if (url.password !== '') url.password = REDACTED;
  if (secretQuery) {
    // Rebuilt in order, so the recorded URL reads like the one given.
    const entries = [...url.searchParams].map(([key, value]) => [key, looksSecretName(key) ? REDACTED : value]);
    url.search = new URLSearchParams(entries).toString();
  }
  // URLSearchParams writes `*` as is, but the user-info setters escape it; undo that so every redaction reads ***.
  return url.toString().replaceAll('%2A', '*');
}

// A word that starts with a scheme and `//` is read as a URL.
const URL_WORD = /^[a-z][a-z0-9+.-]*:\/\//i;

function redactWord(word: string): string {
  if (URL_WORD.test(word)) return redactUrl(word);
  const equals = word.indexOf('=');
  if (equals <= 0) return word;
  const name = word.slice(0, equals);
  const value = word.slice(equals + 1);
  if (looksSecretName(name)) return `${name}=${REDACTED}`;
  // DATABASE_URL=postgres://user:pass@host/db: the name is harmless, the URL's user info is not.
  return URL_WORD.test(value) ? `${name}=${redactUrl(value)}` : word;
}

/**
 * A command line as it may be recorded: a `NAME=value` word with a secret-looking NAME becomes `NAME=***`, the
 * word after a secret-looking flag (`--api-key VALUE`) becomes `***`, and URLs are redacted as by redactUrl.
 */
export function redactCommandWords(words: readonly string[]): string[] {
  return words.map((word, index) => {
    const previous = index > 0 ? (words[index - 1] as string) : '';
    if (previous.startsWith('-') && !previous.includes('=') && looksSecretName(previous.replace(/^-+/, '')))
      return REDACTED;
    return redactWord(word);
  });
}

/** A header as it may be recorded: its name, and `***` for the value, whatever the name. */
export function redactHeader(name: string): string {
  return `${name}: ${REDACTED}`;
}

/**
 * Collects the secret values of one run (from `--env`, `--header`, a URL's user info and query, secret-looking
 * `NAME=value` words) and removes them from any text: as written, percent-encoded, and JSON-escaped.
 */
export class SecretScrubber {
  private readonly values = new Set<string>();

  /** Remembers a value to hide; values under MIN_SCRUBBED_VALUE_LENGTH characters are left out. */
  add(value: string): void {
    if (value.length < MIN_SCRUBBED_VALUE_LENGTH) return;
    this.values.add(value);
    this.values.add(encodeURIComponent(value));
    this.values.add(JSON.stringify(value).slice(1, -1));
  }

  /** Remembers the secrets of a URL: user name, password, secret-looking query values. */
  addUrl(text: string): void {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return;
    }
    this.add(decodeURIComponent(url.username));
    this.add(decodeURIComponent(url.password));
    for (const [key, value] of url.searchParams) if (looksSecretName(key)) this.add(value);
  }

  /** Remembers the secrets of a command line: the values redactCommandWords hides. */
  addCommandWords(words: readonly string[]): void {
    const redacted = redactCommandWords(words);
    words.forEach((word, index) => {
      if (redacted[index] === word) return;
      if (redacted[index] === REDACTED) this.add(word);
      else if (URL_WORD.test(word)) this.addUrl(word);
      else {
        const value = word.slice(word.indexOf('=') + 1);
        if (URL_WORD.test(value)) this.addUrl(value);
        else this.add(value);
      }
    });
  }

  /**
   * A JSON-like value with every string scrubbed, keys included. check runs the server's answers through this
   * before hashing, so a server that echoes a secret gets `***` in its lock file, and the hashes stay stable.
   */
  scrubValue<T>(value: T): T {
    if (this.values.size === 0) return value;
    return mapJsonStrings(value, (text) => this.scrub(text));
  }

  /** The text with every remembered value replaced by `***`, longest values first. */
  scrub(text: string): string {
    let out = text;
    for (const value of [...this.values].sort((a, b) => b.length - a.length)) out = out.split(value).join(REDACTED);
    return out;
  }
}
