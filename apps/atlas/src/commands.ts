// Argument parsing and dispatch for `mcp-atlas`. Exit codes scripts can rely on: 0 done, 1 failed
// (a broken chain, a failed scan), 2 usage error. Each command lives in its own file under commands/.
import { CHECK_USAGE, runCheckCommand } from './check/command.js';
import { commandDemo, DEMO_USAGE } from './commands/demo.js';
import { commandIncidents, INCIDENTS_USAGE } from './commands/incidents.js';
import { commandMark, MARK_USAGE } from './commands/mark.js';
import { commandReview, REVIEW_USAGE } from './commands/review.js';
import { commandScan, SCAN_USAGE } from './commands/scan.js';
import { commandSeal, SEAL_USAGE } from './commands/seal.js';
import { commandServe, SERVE_USAGE } from './commands/serve.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './commands/shared.js';
import { commandVerify, VERIFY_USAGE } from './commands/verify.js';
import { createLogger, type Logger } from './log.js';

export { DEFAULT_REGISTRY_URL } from './commands/serve.js';
export { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './commands/shared.js';

const USAGE = `Usage: mcp-atlas <command> [options]

Commands:
${[DEMO_USAGE, SERVE_USAGE, SCAN_USAGE, SEAL_USAGE, VERIFY_USAGE].join('\n')}
${CHECK_USAGE}
${[REVIEW_USAGE, INCIDENTS_USAGE, MARK_USAGE].join('\n')}

Exit codes: 0 done, 1 failed (for verify: the chain is broken), 2 usage error.
`;

type CommandRunner = (args: readonly string[], log: Logger) => Promise<number>;

/** Every command by name; a new command adds its file under commands/ and one line here. */
const COMMANDS: Readonly<Record<string, CommandRunner>> = {
  demo: commandDemo,
  seal: commandSeal,
  serve: commandServe,
  scan: commandScan,
  verify: (args) => commandVerify(args),
  check: (args) => runCheckCommand(args),
  review: (args) => commandReview(args),
  incidents: (args) => commandIncidents(args),
  mark: (args) => commandMark(args),
};

/** Runs one command line; resolves to the exit code. */
export async function runCommand(argv: readonly string[], log: Logger = createLogger()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(USAGE);
      return command === undefined ? EXIT_USAGE : EXIT_OK;
    }
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run === undefined) throw new UsageError(`unknown command "${command}"`);
    return await run(rest, log);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`mcp-atlas: ${error.message}\n\n${USAGE}`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
