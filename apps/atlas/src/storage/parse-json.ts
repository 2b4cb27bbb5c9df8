// Reading our own files back: a file is a trust boundary too, so a line that does not parse is a value to
// skip and log, never a crash of the request that happened to read it.

/** The parsed JSON of `text`, or null when it is not JSON. */
export function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
