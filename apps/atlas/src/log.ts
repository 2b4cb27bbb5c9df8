// Structured JSON logs (pino) on stderr, so stdout stays for what a command prints for people and scripts.
import { type Logger, pino } from 'pino';

export type { Logger };

/** Creates the app's logger; `silent` for tests and `--quiet`. */
export function createLogger(level: string = process.env.MCP_ATLAS_LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'mcp-atlas' } }, pino.destination(2));
}
