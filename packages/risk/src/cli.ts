#!/usr/bin/env node
// The `mcp-risk` command: classify a tools/list result (or a bare tools array) read from a file or stdin.
import { readFileSync } from 'node:fs';
import { classifyTools } from './classify.js';
import { RISK_LEVELS, type RiskLevel, type RiskVerdict } from './types.js';

/** The levels `--fail-on` takes: a tool at that level or above fails the run. */
const FAIL_LEVELS: readonly RiskLevel[] = RISK_LEVELS.filter((level) => level !== 'read-only');

const USAGE = `Usage: mcp-risk [--json] [--fail-on LEVEL] [file]

Reads a tools/list result ({"tools": [...]}) or a tools array as JSON from the file, or from stdin
when no file (or "-") is given, and prints one line per tool: level, rule, name.

Options:
  --json            print a JSON array of {name, level, rule, raised, verb, reason}
  --fail-on LEVEL   exit 1 when a tool is at LEVEL or above: ${FAIL_LEVELS.join(' or ')}
  --help            show this help

Exit codes: 0 done (nothing at the --fail-on level), 1 a tool at the --fail-on level, 2 usage error.
`;

interface CliOptions {
  json: boolean;
  file: string | null;
  failOn: RiskLevel | null;
}

function parseFailLevel(value: string | undefined): RiskLevel {
  const level = FAIL_LEVELS.find((candidate) => candidate === value);
  if (level === undefined) throw new UsageError(`--fail-on takes ${FAIL_LEVELS.join(' or ')}`);
  return level;
}

class UsageError extends Error {}

function parseArgs(argv: readonly string[]): CliOptions | 'help' {
  const options: CliOptions = { json: false, file: null, failOn: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--json') options.json = true;
    else if (arg === '--fail-on') options.failOn = parseFailLevel(argv[++i]);
    else if (arg.startsWith('--fail-on=')) options.failOn = parseFailLevel(arg.slice('--fail-on='.length));
    else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`Unknown option ${arg}`);
    else if (options.file === null) options.file = arg;
    else throw new UsageError('Give at most one file');
  }
  return options;
}

function readInput(file: string | null): string {
  return readFileSync(file === null || file === '-' ? 0 : file, 'utf8');
}

function toolsFrom(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) {
    const holder = value as { tools?: unknown; result?: { tools?: unknown } };
    if (Array.isArray(holder.tools)) return holder.tools;
    if (Array.isArray(holder.result?.tools)) return holder.result.tools;
  }
  throw new UsageError('The input is neither a tools array nor an object with a "tools" array');
}

function nameOf(tool: unknown): string {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '(no name)';
}

function formatLine(tool: unknown, verdict: RiskVerdict): string {
  const raised = verdict.raised ? '+raised' : '';
  return `${verdict.level.padEnd(12)} rule ${verdict.rule}${raised.padEnd(8)} ${nameOf(tool)}`;
}

function main(argv: readonly string[]): number {
  let options: CliOptions | 'help';
  try {
    options = parseArgs(argv);
  } catch (error) {
    process.stderr.write(`mcp-risk: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  let tools: unknown[];
  try {
    const text = readInput(options.file);
    tools = toolsFrom(JSON.parse(text) as unknown);
  } catch (error) {
    const message =
      error instanceof SyntaxError ? `The input is not valid JSON: ${error.message}` : (error as Error).message;
    process.stderr.write(`mcp-risk: ${message}\n`);
    return 2;
  }
  const verdicts = classifyTools(tools);
  if (options.json) {
    const rows = verdicts.map((verdict, i) => ({ name: nameOf(tools[i]), ...verdict }));
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    process.stdout.write(verdicts.map((verdict, i) => `${formatLine(tools[i], verdict)}\n`).join(''));
  }
  return options.failOn !== null && reachesLevel(verdicts, options.failOn) ? 1 : 0;
}

/** True when some verdict is at `level` or above, in the order of RISK_LEVELS. */
function reachesLevel(verdicts: readonly RiskVerdict[], level: RiskLevel): boolean {
  const floor = RISK_LEVELS.indexOf(level);
  return verdicts.some((verdict) => RISK_LEVELS.indexOf(verdict.level) >= floor);
}

process.exitCode = main(process.argv.slice(2));
