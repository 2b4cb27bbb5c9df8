// Node-only: running a stdio server in a PID namespace of its own, through Debian's bubblewrap.
//
// Ending a server's process group misses any process that left the group: one started with `detached: true`
// (setsid) is in a session of its own, and lives on after the check. In a PID namespace the kernel ends every
// process left inside once the server's first process ends, whatever group or session it moved to.
import { spawnSync } from 'node:child_process';
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { STDIO_BUBBLEWRAP_COMMAND, STDIO_ISOLATION_TRIAL_TIMEOUT_MS, STDIO_PID_NAMESPACE_ARGS } from '../constants.js';

/**
 * How a stdio server's processes are kept together so that all of them end with the check:
 * - `auto`: in a PID namespace where bubblewrap works, otherwise as a process group (and the result says so);
 * - `pid-namespace`: only in a PID namespace; the server is not started when bubblewrap does not work here;
 * - `process-group`: as a process group only (a process that starts a session of its own can outlive the check).
 */
export type StdioIsolation = 'auto' | 'pid-namespace' | 'process-group';

/** What a started server actually ran in. */
export type StdioIsolationUsed = 'pid-namespace' | 'process-group';

/** The three `StdioIsolation` values, for reading a setting. */
export const STDIO_ISOLATIONS: readonly StdioIsolation[] = Object.freeze(['auto', 'pid-namespace', 'process-group']);

/** Whether `value` names one of the `StdioIsolation` values. */
export function isStdioIsolation(value: unknown): value is StdioIsolation {
  return typeof value === 'string' && (STDIO_ISOLATIONS as readonly string[]).includes(value);
}

/** Whether bubblewrap can make a PID namespace here: where it is, or why not. */
export type BubblewrapStatus = { works: true; path: string } | { works: false; problem: string };

// Asked once per process: whether bubblewrap works does not change while the process runs.
let bubblewrapStatus: BubblewrapStatus | undefined;

/**
 * Whether bubblewrap can make a PID namespace here. It may be installed and still fail (a container without user
 * namespaces, a kernel that forbids them to unprivileged users), so the first call runs `true` in one and the
 * outcome is kept for the life of the process.
 */
export function findBubblewrap(): BubblewrapStatus {
  if (bubblewrapStatus === undefined) bubblewrapStatus = tryBubblewrap();
  return bubblewrapStatus;
}

function tryBubblewrap(): BubblewrapStatus {
  if (process.platform !== 'linux')
    return { works: false, problem: `PID namespaces need Linux, this is ${process.platform}` };
  const path = findExecutable(STDIO_BUBBLEWRAP_COMMAND, process.env.PATH, process.cwd());
  if (path === null) return { works: false, problem: `bubblewrap (${STDIO_BUBBLEWRAP_COMMAND}) is not installed` };
  const trial = spawnSync(path, [...STDIO_PID_NAMESPACE_ARGS, 'true'], {
    stdio: 'ignore',
    timeout: STDIO_ISOLATION_TRIAL_TIMEOUT_MS,
  });
  if (trial.status === 0) return { works: true, path };
  const why = trial.error?.message ?? `exit ${trial.status ?? trial.signal}`;
  return { works: false, problem: `bubblewrap cannot make a PID namespace here (${why})` };
}

/**
 * Where `command` would be run from: itself when it names a path (relative to `cwd`), otherwise the first
 * executable of that name on `path`; null when there is none. bubblewrap would report a missing command only
 * as an exit status, so the command is looked up before it is handed over, and a missing one fails as a spawn.
 */
export function findExecutable(command: string, path: string | undefined, cwd: string): string | null {
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutableFile(file) ? file : null;
  }
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const file = join(isAbsolute(dir) ? dir : resolve(cwd, dir), command);
    if (isExecutableFile(file)) return file;
  }
  return null;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The command line that runs `executable args` in a PID namespace of its own, through bubblewrap at `bwrap`. */
export function inPidNamespace(
  bwrap: string,
  executable: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return { command: bwrap, args: [...STDIO_PID_NAMESPACE_ARGS, executable, ...args] };
}
