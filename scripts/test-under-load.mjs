// Runs the README's test command on a machine kept busy: two busy loops per core run beside it the whole time,
// so a test whose verdict rests on timing (a sleep, a tight limit) shows itself here rather than on a shared CI
// runner. The tests wait on events, never on wall time, so they must pass here as they do on an idle machine.
//
//   node scripts/test-under-load.mjs                       the README's test command (30 minutes and more)
//   node scripts/test-under-load.mjs -- <command> [args]   any other command, e.g. a few test files:
//   node scripts/test-under-load.mjs -- npx vitest run test/pg-storage.test.ts   (from apps/atlas)
//
// The busy loops end whatever happens: when the command ends, when this script is interrupted or fails, and even
// when it is killed outright (each loop checks that this script is still there and ends when it is not).
// The exit code is the command's.

import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/** The repository: where the README's test command runs (a command given after `--` runs where it is started). */
const REPO = resolve(import.meta.dirname, '..');

/** The README's test command, after its install step (the dependencies are installed by then). */
const README_TEST_COMMAND = ['npx', '--yes', 'pnpm@10', 'test'];

/** Busy loops per core: one keeps a core busy; two make the tests share every core with a loop. */
const LOOPS_PER_CORE = 2;

/**
 * One busy loop. Every hundred million turns (well under a second) it checks that the script that started it is
 * still running, so a loop never outlives it, even when the script is killed with SIGKILL and cleans up nothing.
 */
const BUSY_LOOP = `const parent = Number(process.argv[1]); let turns = 0;
for (;;) {
  if (++turns === 1e8) {
    turns = 0;
    try { process.kill(parent, 0); } catch { process.exit(0); }
  }
}`;

/** Starts the busy loops and returns them. */
function startBusyLoops(count) {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', BUSY_LOOP, String(process.pid)], { stdio: 'ignore' }),
  );
}

/** Ends every busy loop still running; safe to call more than once. */
function stopBusyLoops(loops) {
  for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
}

/** The command to run and its folder: the arguments after `--` here, else the README's test command at the root. */
function readCommand(args) {
  const dash = args.indexOf('--');
  const given = dash === -1 ? args : args.slice(dash + 1);
  return given.length > 0 ? { command: given, cwd: process.cwd() } : { command: README_TEST_COMMAND, cwd: REPO };
}

const { command, cwd } = readCommand(process.argv.slice(2));
const loops = startBusyLoops(availableParallelism() * LOOPS_PER_CORE);
process.on('exit', () => stopBusyLoops(loops));
console.log(`${loops.length} busy loops running (${LOOPS_PER_CORE} per core); running: ${command.join(' ')}`);

const child = spawn(command[0], command.slice(1), { cwd, stdio: 'inherit' });
// A signal to this script is passed on to the command; the script then waits for it to end and stops the loops.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (error) => {
  console.error(`could not start ${command[0]}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  stopBusyLoops(loops);
  console.log(`busy loops stopped; the command ended with ${signal ?? `code ${code}`}`);
  process.exit(code ?? 1);
});
