#!/usr/bin/env node
// The `mcp-atlas` command. It parses arguments and composes the app's parts; it holds no rule of its own.
import { runCommand } from './commands.js';

runCommand(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcp-atlas: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
