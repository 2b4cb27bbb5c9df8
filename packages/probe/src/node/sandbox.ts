// Node-only: the sandbox a local server runs in, written in one place. Debian's bubblewrap gives it its own user,
// PID, IPC, UTS and network namespaces, a read-only view of the system's programs and libraries and of the
// installed package, and tmpfs folders for its home and /tmp; prlimit, inside it, sets the kernel limits. No
// variable of the checker's environment goes in. Where the sandbox cannot be made, nothing is run.
import { spawnSync } from 'node:child_process';
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { STDIO_BUBBLEWRAP_COMMAND, STDIO_ISOLATION_TRIAL_TIMEOUT_MS } from '../constants.js';
import {
  LOCAL_SANDBOX_HOME,
  LOCAL_SANDBOX_LIMITS,
  LOCAL_SANDBOX_NAMESPACE_ARGS,
  LOCAL_SANDBOX_SYSTEM_DIRS,
  LOCAL_SANDBOX_UID,
} from '../local-constants.js';
import { findExecutable } from './pid-namespace.js';

/** The programs a sandbox is made with, or why it cannot be made on this machine. */
export type SandboxStatus =
  | { works: true; bwrap: string; prlimit: string; setpriv: string | null }
  | { works: false; problem: string };

/** What runs inside one sandbox: a program, its arguments and the few variables it gets. */
export interface SandboxedProgram {
  /** An absolute path on the host; its installation folder is bound read-only at the same path. */
  program: string;
  args: readonly string[];
  /** The only variables the program sees besides PATH, HOME and TMPDIR. */
  env?: Readonly<Record<string, string>>;
  /** Host folders bound read-only at their own paths: the installed package, the runtime's own folder. */
  readOnly: readonly string[];
}

// Asked once per process: whether a sandbox can be made does not change while the process runs.
let sandboxStatus: SandboxStatus | undefined;

/**
 * Whether a sandbox can be made here. bubblewrap may be installed and still fail (macOS, a container without user
 * namespaces), so the first call starts an empty sandbox with the whole profile and keeps the outcome.
 */
export function findSandbox(): SandboxStatus {
  if (sandboxStatus === undefined) sandboxStatus = trySandbox();
  return sandboxStatus;
}

function trySandbox(): SandboxStatus {
  if (process.platform !== 'linux')
    return { works: false, problem: `local checks need Linux, this is ${process.platform}` };
  const bwrap = findExecutable(STDIO_BUBBLEWRAP_COMMAND, process.env.PATH, process.cwd());
  if (bwrap === null) return { works: false, problem: `bubblewrap (${STDIO_BUBBLEWRAP_COMMAND}) is not installed` };
  const prlimit = findExecutable('prlimit', process.env.PATH, process.cwd());
  if (prlimit === null) return { works: false, problem: 'prlimit (util-linux) is not installed' };
  const setpriv = runsAsRoot() ? findExecutable('setpriv', process.env.PATH, process.cwd()) : null;
  if (runsAsRoot() && setpriv === null)
    return { works: false, problem: 'the checker runs as root and setpriv (util-linux) is not installed' };
  const status = { works: true as const, bwrap, prlimit, setpriv };
  const trial = sandboxCommand(status, { program: prlimit, args: ['--version'], readOnly: [] });
  const run = spawnSync(trial.command, trial.args, { stdio: 'ignore', timeout: STDIO_ISOLATION_TRIAL_TIMEOUT_MS });
  if (run.status === 0) return status;
  const why = run.error?.message ?? `exit ${run.status ?? run.signal}`;
  return { works: false, problem: `bubblewrap cannot make the sandbox here (${why})` };
}

function runsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * The command line that runs `target` in the sandbox. Run as root, the checker first drops to an unprivileged
 * user (setpriv), because the kernel does not hold root to a process limit; inside, prlimit sets the limits and
 * starts the program.
 */
export function sandboxCommand(
  status: Extract<SandboxStatus, { works: true }>,
  target: SandboxedProgram,
): { command: string; args: string[] } {
  const limits = LOCAL_SANDBOX_LIMITS;
  const bwrapArgs = [
    ...LOCAL_SANDBOX_NAMESPACE_ARGS,
    ...systemBinds(),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(limits.tmpfsBytes),
    '--tmpfs',
    '/tmp',
    '--size',
    String(limits.tmpfsBytes),
    '--tmpfs',
    LOCAL_SANDBOX_HOME,
    // After the tmpfs folders, so that a package kept under /tmp is not hidden by the sandbox's own /tmp.
    ...target.readOnly.flatMap((dir) => ['--ro-bind', dir, dir]),
    '--chdir',
    LOCAL_SANDBOX_HOME,
    ...environmentArgs(target),
    '--',
    status.prlimit,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--data=${limits.memoryBytes}`,
    `--nproc=${limits.processes}`,
    `--nofile=${limits.openFiles}`,
    `--fsize=${limits.fileBytes}`,
    '--core=0',
    '--',
    target.program,
    ...target.args,
  ];
  if (status.setpriv === null) return { command: status.bwrap, args: bwrapArgs };
  const id = String(LOCAL_SANDBOX_UID);
  return {
    command: status.setpriv,
    args: [`--reuid=${id}`, `--regid=${id}`, '--clear-groups', '--inh-caps=-all', status.bwrap, ...bwrapArgs],
  };
}

// The system folders as the host has them: a merged-/usr symlink stays a symlink, a real folder is bound read-only.
function systemBinds(): string[] {
  const args: string[] = [];
  for (const dir of LOCAL_SANDBOX_SYSTEM_DIRS) {
    let link: boolean;
    try {
      link = lstatSync(dir).isSymbolicLink();
    } catch {
      continue;
    }
    args.push(...(link ? ['--symlink', readlinkSync(dir), dir] : ['--ro-bind', dir, dir]));
  }
  return args;
}

function environmentArgs(target: SandboxedProgram): string[] {
  const path = [dirname(target.program), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  const env: Record<string, string> = {
    ...target.env,
    PATH: path,
    HOME: LOCAL_SANDBOX_HOME,
    TMPDIR: '/tmp',
  };
  return Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]);
}

/**
 * The folder to bind for a runtime at `executable` (Node.js, Python): none when it is under a system folder the
 * sandbox already has, else the installation folder above its `bin`.
 */
export function runtimeFolder(executable: string): string | null {
  const real = realpathSync(executable);
  if (LOCAL_SANDBOX_SYSTEM_DIRS.some((dir) => real.startsWith(`${dir}${sep}`))) return null;
  return dirname(dirname(real));
}

/**
 * The first folder on the way to `dir` that the sandbox's unprivileged user could not pass through, or null. A
 * root checker runs the sandbox as another user, who needs every folder above the package to be searchable.
 */
export function unsearchableFolder(dir: string): string | null {
  if (!runsAsRoot()) return null;
  let at = resolve(dir);
  for (;;) {
    const mode = statSync(at).mode;
    if ((mode & 0o001) === 0) return at;
    const up = dirname(at);
    if (up === at) return null;
    at = up;
  }
}
