#!/usr/bin/env node
// The `mcp-risk` command: classify a tools/list result (or a bare tools array) read from a file or stdin.
import { readFileSync } from 'node:fs';
import { classifyTools } from './classify.js';
import type { RiskVerdict } from './types.js';

const USAGE = `Usage: mcp-risk [--json] [file]

Reads a tools/list result ({"tools": [...]}) or a tools array as JSON from the file, or from stdin
when no file (or "-") is given, and prints one line per tool: level, rule, name.

Options:
  --json    print a JSON array of {name, level, rule, raised, verb, reason}
  --help    show this help
`;

interface CliOptions {
  json: boolean;
  file: string | null;
}

class UsageError extends Error {}

function parseArgs(argv: readonly string[]): CliOptions | 'help' {
  const options: CliOptions = { json: false, file: null };
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--json') options.json = true;
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
  return 0;
}

process.exitCode = main(process.argv.slice(2));
