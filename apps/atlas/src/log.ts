// Structured JSON logs (pino). Commands that print for people and scripts (check, verify, scan) log on stderr so
// their stdout stays clean; `serve` logs on stdout, one JSON object a line, as log collectors expect of a service.
// `pretty` turns each line into short text for a person at a terminal.
import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/** The log formats `serve` takes: JSON lines for machines, short text lines for people. */
export const LOG_FORMATS = ['json', 'pretty'] as const;

/** One of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The levels pino knows, `silent` included. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Where and how a logger writes. */
export interface LoggerOptions {
  /** 1 for stdout, 2 for stderr (the default), or any stream with `write`. */
  destination?: 1 | 2 | { write(line: string): void };
  format?: LogFormat;
}

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every line carries that a person does not need to read. */
const QUIET_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service']);

/**
 * Turns one pino JSON line into `HH:MM:SS LEVEL message key=value ...`. A line that is not JSON is passed
 * through, so nothing is ever lost.
 */
export function formatPrettyLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof record.time === 'number' ? new Date(record.time).toISOString().slice(11, 19) : '--:--:--';
  const level = LEVEL_NAMES[Number(record.level)] ?? String(record.level);
  const fields = Object.entries(record)
    .filter(([key]) => !QUIET_FIELDS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${time} ${level.padEnd(5)} ${String(record.msg ?? '')}${fields.length > 0 ? ` ${fields.join(' ')}` : ''}\n`;
}

/** A pino destination that prints each line through {@link formatPrettyLine}. */
function prettyDestination(fd: 1 | 2 | { write(line: string): void }): DestinationStream {
  const out = typeof fd === 'number' ? pino.destination({ fd, sync: true }) : fd;
  return { write: (line: string) => void out.write(formatPrettyLine(line)) };
}

/** Creates the app's logger; `silent` for tests and `--quiet`. Logs go to stderr unless `destination` says otherwise. */
export function createLogger(
  level: string = process.env.MCP_ATLAS_LOG_LEVEL ?? 'info',
  options: LoggerOptions = {},
): Logger {
  const fd = options.destination ?? 2;
  const destination =
    options.format === 'pretty'
      ? prettyDestination(fd)
      : typeof fd === 'number'
        ? pino.destination({ fd, sync: true })
        : (fd as DestinationStream);
  return pino({ level, base: { service: 'mcp-atlas' } }, destination);
}
