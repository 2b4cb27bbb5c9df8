// Node-only: running a stdio server in a PID namespace of its own, through Debian's bubblewrap.
//
// Ending a server's process group misses any process that left the group: one started with `detached: true`
// (setsid) is in a session of its own, and lives on after the check. In a PID namespace the server's first
// process is the namespace's init; when it ends, the kernel ends every process left in the namespace, whatever
// group or session it moved to. `--die-with-parent` ends that init if the probe itself dies.
import { spawnSync } from 'node:child_process';
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { STDIO_ISOLATION_RULES } from '../rules.js';

/**
 * How a stdio server's processes are kept together so that all of them end with the check:
 * - `auto`: in a PID namespace where bubblewrap works, otherwise as a process group;
 * - `pid-namespace`: only in a PID namespace; a check refuses to start the server when bubblewrap does not work;
 * - `process-group`: as a process group only (a process that starts a session of its own can outlive the check).
 */
export type StdioIsolation = 'auto' | 'pid-namespace' | 'process-group';

/** What a started server actually ran in. */
export type StdioIsolationUsed = 'pid-namespace' | 'process-group';

/** The three `StdioIsolation` values, for parsing a setting. */
export const STDIO_ISOLATIONS: readonly StdioIsolation[] = Object.freeze(['auto', 'pid-namespace', 'process-group']);

/**
 * The bubblewrap arguments before the server's command. The host's file system is kept as it is (a stdio server
 * is the user's own program, with the user's files); only the process tree is fenced in, with a /proc of its
 * own so the server sees only its own processes.
 */
export const PID_NAMESPACE_ARGS: readonly string[] = Object.freeze([
  '--dev-bind',
  '/',
  '/',
  '--unshare-pid',
  '--die-with-parent',
  '--proc',
  '/proc',
  '--',
]);

// Whether bubblewrap works here is asked once per process: it does not change while the process runs.
let bubblewrapWorks: boolean | null = null;

/**
 * True when `bwrap` is on PATH and can make a PID namespace here. It may be installed and still fail: a container
 * without user namespaces, or a kernel that forbids them to unprivileged users. So this runs `true` in one.
 */
export function pidNamespaceAvailable(): boolean {
  if (process.platform !== 'linux') return false;
  if (bubblewrapWorks === null) bubblewrapWorks = tryBubblewrap();
  return bubblewrapWorks;
}

function tryBubblewrap(): boolean {
  const bwrap = findExecutable(STDIO_ISOLATION_RULES.bubblewrapCommand, process.env.PATH, process.cwd());
  if (bwrap === null) return false;
  const trial = spawnSync(bwrap, [...PID_NAMESPACE_ARGS, 'true'], {
    stdio: 'ignore',
    timeout: STDIO_ISOLATION_RULES.trialTimeoutMs,
  });
  return trial.status === 0;
}

/**
 * Where `command` would be run from: itself when it names a path (relative to `cwd`), otherwise the first
 * executable of that name on `path`; null when there is none. Used to tell "no such command" apart before
 * the command is handed to bubblewrap, which would report it only as an exit status.
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

/** The command line that runs `command args` in a PID namespace of its own. */
export function inPidNamespace(command: string, args: readonly string[]): { command: string; args: string[] } {
  return { command: STDIO_ISOLATION_RULES.bubblewrapCommand, args: [...PID_NAMESPACE_ARGS, command, ...args] };
}
