// The check command's one typed error: bad input from the person running it, which exits with code 2.

/** A usage error of `mcp-atlas check`: a bad flag, a missing or edited baseline, a refused deep run. */
export class CheckUsageError extends Error {
  override name = 'CheckUsageError';
}
