#!/usr/bin/env node
import { runCli } from './cli/run.js';
/**
 * The `mcp-history` bin: verifies a folder of signed day roots against a public key.
 * See `cli/run.ts` for the command itself; this file only wires it to the process.
 */
import { EXIT_INTERNAL_ERROR } from './constants.js';

runCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcp-history: unexpected failure: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = EXIT_INTERNAL_ERROR;
  },
);
