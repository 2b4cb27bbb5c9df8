// Argument parsing and dispatch for `mcp-atlas`. Exit codes scripts can rely on: 0 done, 1 failed
// (a broken chain, a failed scan), 2 usage error. Each command lives in its own file under commands/.
import { CHECK_USAGE, runCheckCommand } from './check/command.js';
import { commandDemo, DEMO_USAGE } from './commands/demo.js';
import { commandIncidents, INCIDENTS_USAGE } from './commands/incidents.js';
import { commandKeys, KEYS_USAGE } from './commands/keys.js';
import { commandMark, MARK_USAGE } from './commands/mark.js';
import { commandReview, REVIEW_USAGE } from './commands/review.js';
import { commandScan, SCAN_USAGE } from './commands/scan.js';
import { commandSeal, SEAL_USAGE } from './commands/seal.js';
import { commandSearchEval, SEARCH_EVAL_USAGE } from './commands/search-eval.js';
import { commandSensors, SENSORS_USAGE } from './commands/sensors.js';
import { commandServe, SERVE_USAGE } from './commands/serve.js';
import { EXIT_OK, EXIT_USAGE, UsageError, usageHint } from './commands/shared.js';
import { commandSite, SITE_USAGE } from './commands/site.js';
import { commandVerify, VERIFY_USAGE } from './commands/verify.js';
import { commandWorker, WORKER_USAGE } from './commands/worker.js';
import { createLogger, type Logger } from './log.js';
import { APP_VERSION } from './methodology.js';
import { nameSource, settingSources } from './serve/settings.js';

export { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './commands/shared.js';

const USAGE = `Usage: mcp-atlas <command> [options]

Commands:
${[DEMO_USAGE, SERVE_USAGE, SCAN_USAGE, WORKER_USAGE, SEAL_USAGE, VERIFY_USAGE].join('\n')}
${CHECK_USAGE}
${SITE_USAGE}
${[REVIEW_USAGE, INCIDENTS_USAGE, MARK_USAGE, KEYS_USAGE, SENSORS_USAGE].join('\n')}
${SEARCH_EVAL_USAGE}

mcp-atlas <command> --help prints one command's options; mcp-atlas --version prints the version.
Exit codes: 0 done, 1 failed (for verify: the chain is broken), 2 usage error.
`;

type CommandRunner = (args: readonly string[], log: Logger) => Promise<number>;

/** Every command by name; a new command adds its file under commands/ and one line here. */
const COMMANDS: Readonly<Record<string, CommandRunner>> = {
  demo: commandDemo,
  seal: commandSeal,
  // Without a logger from the caller, serve makes its own on stdout, in the configured format and level.
  serve: (args, log) => commandServe(args, log),
  scan: commandScan,
  worker: commandWorker,
  verify: (args) => commandVerify(args),
  check: (args) => runCheckCommand(args),
  site: (args) => commandSite(args),
  review: (args) => commandReview(args),
  incidents: (args) => commandIncidents(args),
  mark: (args) => commandMark(args),
  keys: (args) => commandKeys(args),
  sensors: (args) => commandSensors(args),
  'search-eval': (args) => commandSearchEval(args),
};

/** Each command's usage lines, for `mcp-atlas <command> --help`. */
const USAGE_OF: Readonly<Record<string, string>> = {
  demo: DEMO_USAGE,
  seal: SEAL_USAGE,
  serve: SERVE_USAGE,
  scan: SCAN_USAGE,
  worker: WORKER_USAGE,
  verify: VERIFY_USAGE,
  check: CHECK_USAGE,
  site: SITE_USAGE,
  review: REVIEW_USAGE,
  incidents: INCIDENTS_USAGE,
  mark: MARK_USAGE,
  keys: KEYS_USAGE,
  sensors: SENSORS_USAGE,
  'search-eval': SEARCH_EVAL_USAGE,
};

/** True when the command's own arguments (those before a `--`, after which a stdio command's begin) ask for help. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * A usage error as printed: one line naming what is wrong (and the environment variable, when the bad value came
 * from one), then a hint where the options are. The whole usage text would bury the line in a journal.
 */
function printUsageError(message: string, command: string | undefined, rest: readonly string[]): void {
  const known = command !== undefined && Object.hasOwn(COMMANDS, command);
  const named = nameSource(message, settingSources(rest, process.env));
  process.stderr.write(`mcp-atlas: ${named}\n${usageHint(known ? command : null)}\n`);
}

/** Runs one command line; resolves to the exit code. */
export async function runCommand(argv: readonly string[], log?: Logger): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === '--version' || command === '-v' || command === 'version') {
      process.stdout.write(`mcp-atlas ${APP_VERSION}\n`);
      return EXIT_OK;
    }
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(USAGE);
      return command === undefined ? EXIT_USAGE : EXIT_OK;
    }
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run === undefined) throw new UsageError(`unknown command "${command}"`);
    const usage = USAGE_OF[command];
    if (usage !== undefined && asksForHelp(rest)) {
      process.stdout.write(`Usage: mcp-atlas ${usage.trimStart()}\n`);
      return EXIT_OK;
    }
    if (command === 'serve') return await run(rest, log as Logger);
    // The demo prints its table for a person on stdout; its logs on stderr are short text lines to match, not
    // JSON, unless MCP_ATLAS_LOG_FORMAT asks for JSON.
    if (command === 'demo')
      return await run(
        rest,
        log ?? createLogger(undefined, { format: process.env.MCP_ATLAS_LOG_FORMAT === 'json' ? 'json' : 'pretty' }),
      );
    return await run(rest, log ?? createLogger());
  } catch (error) {
    if (error instanceof UsageError) {
      printUsageError(error.message, command, rest);
      return EXIT_USAGE;
    }
    throw error;
  }
}
