// Node-only: the check of a local server. Its package is installed at the exact version a registry entry names,
// started over stdio inside the sandbox, and asked what a remote server is asked (initialize, initialized,
// tools/list, never a tool call). The result says whether it installed, whether it listed its tools, and, when a
// limit of the sandbox stopped it, which one.
import { readdirSync, readFileSync } from 'node:fs';
import {
  LOCAL_CPU_LIMIT_EXIT,
  LOCAL_MEMORY_FAILURE,
  LOCAL_PROCESS_FAILURE,
  LOCAL_SANDBOX_LIMITS,
} from '../local-constants.js';
import { refusedResult } from '../probe-server.js';
import type { Letter, ProbeResult } from '../schemas.js';
import {
  type Installed,
  type InstallFailureReason,
  type InstallSettings,
  installPackage,
  LocalInstallError,
  type LocalPackage,
} from './local-install.js';
import { findSandbox, runtimeFolder, sandboxCommand, unsearchableFolder } from './sandbox.js';
import { probeStdioProcess, type StdioProbeOutcome } from './stdio.js';

/**
 * How a local check ended:
 * - `listed`: it installed, started and listed its tools;
 * - `needs-configuration`: a required variable or argument has no default, so it was not run;
 * - `not-installed`: the exact version could not be installed (the reason says why);
 * - `stopped`: a limit of the sandbox ended it (`stoppedBy` says which);
 * - `not-listed`: it started but did not list its tools (it exited, answered wrongly or not at all);
 * - `no-sandbox`: this machine cannot make the sandbox, so nothing was run.
 */
export type LocalOutcome = 'listed' | 'needs-configuration' | 'not-installed' | 'stopped' | 'not-listed' | 'no-sandbox';

/** The sandbox limit that ended a server. */
export type LocalLimit = 'cpu-time' | 'memory' | 'processes' | 'output' | 'wall-time';

/** What one local check found. */
export interface LocalCheckResult {
  registryType: LocalPackage['registryType'];
  identifier: string;
  version: string;
  outcome: LocalOutcome;
  /** o: listed; a: needs configuration; d: anything else that ran or tried to. */
  letter: Letter;
  message: string;
  /** The command a user runs to start it (npx or uvx at the exact version). */
  installCommand: string;
  /** Required variables and arguments with no default. */
  missing: string[];
  /** The registry's integrity of what was installed, null when nothing was. */
  integrity: string | null;
  /** Why the install failed, null when it did not. */
  installFailure: InstallFailureReason | null;
  /** Whether this run installed the package (false: it was in the cache, or was not installed). */
  freshInstall: boolean;
  stoppedBy: LocalLimit | null;
  /** The stdio check's result, with its tools and raw text; with no step when nothing was run. */
  probe: ProbeResult;
}

/** Options of a local check: where packages come from and are kept, and a signal that ends the check. */
export interface LocalCheckOptions extends InstallSettings {
  signal?: AbortSignal;
}

/** What every result says of the package itself. */
type CheckBase = Pick<LocalCheckResult, 'registryType' | 'identifier' | 'version' | 'installCommand' | 'missing'>;

/**
 * The result of a check that ran nothing. Its probe result has no step: needing configuration reads as
 * `auth-required` (letter a: a secret is needed first), anything else as `spawn-failed` (letter d).
 */
function notRun(
  base: CheckBase,
  outcome: Exclude<LocalOutcome, 'listed' | 'stopped' | 'not-listed'>,
  message: string,
  extra: Partial<Pick<LocalCheckResult, 'installFailure' | 'integrity'>> = {},
): LocalCheckResult {
  const probe = refusedResult(
    base.installCommand,
    outcome === 'needs-configuration' ? 'auth-required' : 'spawn-failed',
    message,
  );
  return {
    ...base,
    integrity: null,
    installFailure: null,
    freshInstall: false,
    stoppedBy: null,
    ...extra,
    outcome,
    letter: probe.letter,
    message,
    probe,
  };
}

/** The command that starts `pkg` on a user's machine. */
export function installCommandOf(pkg: Pick<LocalPackage, 'registryType' | 'identifier' | 'version'>): string {
  return pkg.registryType === 'npm'
    ? `npx -y ${pkg.identifier}@${pkg.version}`
    : `uvx ${pkg.identifier}==${pkg.version}`;
}

/** The required variables and arguments that have no value or default, by name. */
export function missingConfiguration(pkg: LocalPackage): string[] {
  const missing: string[] = [];
  for (const variable of pkg.environmentVariables ?? [])
    if (variable.isRequired === true && !isPlainValue(variable.default)) missing.push(variable.name);
  for (const [index, argument] of (pkg.packageArguments ?? []).entries())
    if (argument.isRequired === true && argumentValue(argument) === null)
      missing.push(argument.name ?? `argument ${index + 1}`);
  return missing;
}

// A value with a `{placeholder}` in it is for the user to fill in, so it counts as none.
function isPlainValue(value: string | undefined): value is string {
  return value !== undefined && value !== '' && !/\{[^}]*\}/.test(value);
}

function argumentValue(argument: NonNullable<LocalPackage['packageArguments']>[number]): string | null {
  if (isPlainValue(argument.value)) return argument.value;
  if (isPlainValue(argument.default)) return argument.default;
  return null;
}

/** The arguments after the entry point: each declared one with a value or a default, in order. */
export function packageArgs(pkg: LocalPackage): string[] {
  const args: string[] = [];
  for (const argument of pkg.packageArguments ?? []) {
    const value = argumentValue(argument);
    if (value === null) continue;
    if (argument.type === 'named' && argument.name !== undefined) args.push(argument.name, value);
    else args.push(value);
  }
  return args;
}

/** The declared variables that have a default: the only values a sandboxed server gets. */
function declaredDefaults(pkg: LocalPackage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of pkg.environmentVariables ?? [])
    if (isPlainValue(variable.default)) env[variable.name] = variable.default;
  return env;
}

/**
 * Checks one local server: installs its package at the exact version, runs it in the sandbox and lists its tools.
 * Never throws for anything the package does; a bad name or version is a `not-installed` result.
 *
 * @example
 * import { checkLocalPackage } from '@mcp-atlas/probe/node';
 * const result = await checkLocalPackage(
 *   { registryType: 'npm', identifier: '@modelcontextprotocol/server-memory', version: '2026.1.26' },
 *   { cacheDir: '/var/cache/mcp-atlas', npmRegistry: 'https://registry.npmjs.org/', pypiIndex: 'https://pypi.org/simple/' },
 * );
 * result.outcome; // 'listed'
 */
export async function checkLocalPackage(pkg: LocalPackage, options: LocalCheckOptions): Promise<LocalCheckResult> {
  const base: CheckBase = {
    registryType: pkg.registryType,
    identifier: pkg.identifier,
    version: pkg.version,
    installCommand: installCommandOf(pkg),
    missing: missingConfiguration(pkg),
  };
  if (base.missing.length > 0) {
    const names = base.missing.join(', ');
    const verb = base.missing.length === 1 ? 'has' : 'have';
    return notRun(base, 'needs-configuration', `needs configuration: ${names} ${verb} no default, so it was not run`);
  }
  const sandbox = findSandbox();
  if (!sandbox.works) return notRun(base, 'no-sandbox', `local checks are off: ${sandbox.problem}`);
  let installed: Installed;
  try {
    installed = await installPackage(pkg, options);
  } catch (error) {
    const reason = error instanceof LocalInstallError ? error.reason : 'install-failed';
    return notRun(base, 'not-installed', `not installed: ${(error as Error).message}`, { installFailure: reason });
  }
  const blocked = unsearchableFolder(installed.dir);
  if (blocked !== null)
    return notRun(base, 'no-sandbox', `local checks are off: the sandbox's user cannot pass through ${blocked}`, {
      integrity: installed.integrity,
    });
  const ran = await runInSandbox(sandbox, installed, pkg, options.signal);
  await sandboxEnded(installed.entryPoint);
  const stoppedBy = limitThatStopped(ran);
  const listed = ran.result.reason === 'ok';
  const outcome: LocalOutcome = listed ? 'listed' : stoppedBy !== null ? 'stopped' : 'not-listed';
  return {
    ...base,
    integrity: installed.integrity,
    installFailure: null,
    freshInstall: !installed.cached,
    stoppedBy: listed ? null : stoppedBy,
    probe: ran.result,
    outcome,
    letter: listed ? 'o' : 'd',
    message:
      listed || stoppedBy === null ? ran.result.message : `stopped by its ${stoppedBy} limit: ${ran.result.message}`,
  };
}

function runInSandbox(
  sandbox: Extract<ReturnType<typeof findSandbox>, { works: true }>,
  installed: Installed,
  pkg: LocalPackage,
  signal: AbortSignal | undefined,
): Promise<StdioProbeOutcome> {
  const program = installed.runtime ?? installed.entryPoint;
  const readOnly = [installed.dir];
  const runtime = runtimeFolder(installed.runtime ?? pythonOf(installed.entryPoint));
  if (runtime !== null) readOnly.push(runtime);
  const launch = sandboxCommand(sandbox, {
    program,
    args: [...(installed.runtime === null ? [] : [installed.entryPoint]), ...packageArgs(pkg)],
    env: declaredDefaults(pkg),
    readOnly,
  });
  return probeStdioProcess(
    // Only what the sandbox needs to start: the checker's own variables stay out (bubblewrap clears the rest).
    { command: launch.command, args: launch.args, env: {} },
    {
      isolation: 'process-group',
      deadlineMs: LOCAL_SANDBOX_LIMITS.wallMs,
      stepTimeoutMs: LOCAL_SANDBOX_LIMITS.wallMs,
      outputCapBytes: LOCAL_SANDBOX_LIMITS.outputBytes,
      ...(signal === undefined ? {} : { signal }),
    },
  );
}

/** How long a check waits, at most, for the kernel to end the processes left in a sandbox's PID namespace. */
const SANDBOX_TEARDOWN_MS = 2_000;
const TEARDOWN_POLL_MS = 25;

/**
 * Waits until no process runs `entryPoint`. Ending the sandbox's outer process ends its PID namespace, but the
 * kernel ends the processes inside it after that returns, so a check that returned at once could leave them
 * still running for a moment.
 */
async function sandboxEnded(entryPoint: string): Promise<void> {
  const until = Date.now() + SANDBOX_TEARDOWN_MS;
  while (processRuns(entryPoint) && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, TEARDOWN_POLL_MS));
}

function processRuns(word: string): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(word)) return true;
    } catch {
      // ended while we looked
    }
  }
  return false;
}

// A console script's interpreter: the virtual environment's python beside it.
function pythonOf(script: string): string {
  return `${script.slice(0, script.lastIndexOf('/'))}/python`;
}

/** Which limit ended the server, read from how it ended: the checker's own counts first, then the kernel's. */
export function limitThatStopped(
  ran: Pick<StdioProbeOutcome, 'result' | 'exit' | 'stderrTail' | 'outputOverCap'>,
): LocalLimit | null {
  if (ran.outputOverCap || ran.result.reason === 'answer-too-large') return 'output';
  if (ran.exit?.code === LOCAL_CPU_LIMIT_EXIT || ran.exit?.signal === 'SIGXCPU') return 'cpu-time';
  if (LOCAL_MEMORY_FAILURE.test(ran.stderrTail)) return 'memory';
  if (LOCAL_PROCESS_FAILURE.test(ran.stderrTail)) return 'processes';
  if (ran.result.reason === 'deadline' || ran.result.reason === 'timeout') return 'wall-time';
  return null;
}
