// Node-only: the same handshake against a local server started as a child process, over stdio, returning
// the same result shape as probeServer.
//
// The server runs in a process group of its own, and the whole group is ended when the check is done. A
// stdio server is often started through a wrapper (`npx ...`, `sh -c "node server.js"`, `uvx ...`); ending
// only the wrapper, as the SDK's StdioClientTransport does, leaves the real server running as an orphan.
// Where bubblewrap works, the group also runs in a PID namespace of its own, so that a process that left the
// group (a session of its own, through setsid) still ends with the server.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describeType } from '@mcp-atlas/base';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage, ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type Deadline, type StopCause, startStep } from '../clock.js';
import {
  FIRST_TOOLS_LIST_REQUEST_ID,
  INITIALIZE_REQUEST_ID,
  INITIALIZE_TIMEOUT_MS,
  INITIALIZED_TIMEOUT_MS,
  MAX_JSON_DEPTH,
  MAX_TOOLS_KEPT,
  MAX_TOOLS_PAGES,
  PROBE_RULES_VERSION,
  STDERR_TAIL_BYTES,
  TOOLS_LIST_PAGE_TIMEOUT_MS,
  TOOLS_PAGE_CAP_BYTES,
} from '../constants.js';
import { ProbeInputError } from '../errors.js';
import {
  decideNextPage,
  interpretInitializeResult,
  interpretToolsPage,
  RESERIALIZED_WARNING,
  supportedVersionsFrom,
  ToolCollector,
} from '../interpret.js';
import { describeTooDeep, exceedsJsonDepth } from '../json-depth.js';
import { type ProbeOptions, resolveProbeSettings } from '../options.js';
import { letterForReason } from '../probe-server.js';
import type { ProbeReason, ProbeResult, ProbeStep, ServerInfo, StepName, StepOutcome } from '../schemas.js';
import {
  findBubblewrap,
  findExecutable,
  inPidNamespace,
  type StdioIsolation,
  type StdioIsolationUsed,
} from './pid-namespace.js';

/** The local server to start: a command, its arguments, extra environment and working directory. */
export interface StdioServer {
  command: string;
  args?: readonly string[];
  /** Added to the SDK's safe default environment (HOME, PATH, ...), not replacing it. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
}

/** Options of `probeStdio`: the handshake options of probeServer that make sense for a local process. */
export type StdioProbeOptions = Pick<
  ProbeOptions,
  'protocolVersion' | 'clientInfo' | 'deadlineMs' | 'signal' | 'clock'
> & {
  /** How the server's processes are kept together; `auto` (the default) uses a PID namespace where it can. */
  isolation?: StdioIsolation;
  /** Bytes of stdout and stderr together after which the server is ended; without one, only a message is capped. */
  outputCapBytes?: number;
  /**
   * One wait for initialize and for each tools/list page, instead of the probe's own. A sandboxed server that
   * installs nothing at start may still be slow on a loaded machine; its whole check is held to `deadlineMs`.
   */
  stepTimeoutMs?: number;
};

/** A stdio check with what the process itself did: how it ended, its last stderr, and whether it wrote too much. */
export interface StdioProbeOutcome {
  result: ProbeResult;
  exit: StdioExit | null;
  stderrTail: string;
  outputOverCap: boolean;
}

/**
 * Thrown by the raw-line buffer for a line nested deeper than MAX_JSON_DEPTH: the line is dropped unread
 * (never handed to JSON.parse), and the handshake turns it into reason `too-deep` for the request waiting.
 */
class TooDeepLineError extends Error {
  constructor() {
    super(describeTooDeep('a message'));
    this.name = 'TooDeepLineError';
  }
}

/**
 * The SDK transport parses each line before handing the message over, and the raw text is gone. The
 * findings package needs the tools arrays exactly as sent, so this buffer does the same line splitting
 * and also remembers the raw text (and whether it was valid UTF-8) of the message it last returned.
 * A line nested past MAX_JSON_DEPTH is refused before it is parsed, as the HTTP probe refuses an answer.
 */
class RawLineBuffer {
  lastLine: string | null = null;
  lastLineValidUtf8 = true;
  overCap = false;
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly cap: number) {}

  append(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > this.cap && this.findNewline() === -1) {
      this.overCap = true;
      this.clear();
      throw new Error(`a message is over ${this.cap} bytes`);
    }
  }

  private findNewline(): number {
    let offset = 0;
    for (const chunk of this.chunks) {
      const at = chunk.indexOf(10);
      if (at !== -1) return offset + at;
      offset += chunk.length;
    }
    return -1;
  }

  readMessage(): JSONRPCMessage | null {
    const at = this.findNewline();
    if (at === -1) return null;
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    const lineBytes = all.subarray(0, at);
    const rest = all.subarray(at + 1);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    let line: string;
    try {
      line = new TextDecoder('utf-8', { fatal: true }).decode(lineBytes);
      this.lastLineValidUtf8 = true;
    } catch {
      line = lineBytes.toString('utf8');
      this.lastLineValidUtf8 = false;
    }
    line = line.replace(/\r$/, '');
    // Measured before parsing: code that walks JSON recursively breaks on a line thousands of levels deep.
    if (exceedsJsonDepth(line, MAX_JSON_DEPTH)) throw new TooDeepLineError();
    this.lastLine = line;
    return deserializeMessage(line);
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
  }
}

/**
 * How long a stdio server has to exit by itself once its stdin is closed, before its process group is
 * sent SIGTERM. The same polite wait as the SDK's transport.
 */
export const STDIO_EXIT_GRACE_MS = 2_000;

/** How long the process group has between SIGTERM and SIGKILL. */
export const STDIO_KILL_GRACE_MS = 2_000;

/** How often the group is looked at while it is given time to end. */
const GROUP_POLL_MS = 25;

/** How long to wait for the kernel to tear down a group after SIGKILL, which cannot be caught. */
const KILL_SETTLE_MS = 1_000;

// Process groups are a POSIX feature; on Windows a detached child gets a console of its own instead.
const USE_PROCESS_GROUPS = process.platform !== 'win32';

/** The line buffer a transport parses stdout with: the SDK's ReadBuffer, or the probe's raw-line one. */
interface MessageBuffer {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

/** Options of `ProcessGroupStdioTransport`: the server to start, where its stderr goes, and the line buffer. */
export interface ProcessGroupStdioOptions extends StdioServer {
  /** `pipe` exposes stderr on `transport.stderr`; the default `ignore` drops it. */
  stderr?: 'pipe' | 'ignore';
  /**
   * How the server's processes are kept together so that all of them end on close. The default `auto` runs the
   * server in a PID namespace of its own where bubblewrap works, else as a process group; `pid-namespace` refuses
   * to start the server without one; `process-group` never uses one.
   */
  isolation?: StdioIsolation;
  /** @internal The probe swaps in a buffer that keeps each raw line. */
  buffer?: MessageBuffer;
  /**
   * Bytes of stdout and stderr together after which the server is ended (its output is then refused as a whole);
   * without one, only a single message is capped.
   */
  outputCapBytes?: number;
}

/** How a server's process ended: its exit code, or the signal that ended it. */
export interface StdioExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What a started server runs in, and why it is not a PID namespace when `auto` had to fall back. */
export interface StdioIsolationOutcome {
  used: StdioIsolationUsed;
  /** Null when the server runs as asked; else why `auto` fell back to a process group. */
  fallback: string | null;
}

/** The program actually started, its arguments, and what it runs in. */
interface Launch {
  command: string;
  args: string[];
  isolation: StdioIsolationOutcome;
}

/** The error a spawn of a missing command gives, for a command looked up before bubblewrap is started. */
function commandNotFound(command: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`spawn ${command} ENOENT`), {
    code: 'ENOENT',
    syscall: `spawn ${command}`,
    path: command,
  });
}

/**
 * How the server is started under `options.isolation`: the command itself as a process group, or bubblewrap
 * running it in a PID namespace. Throws when a PID namespace is required and cannot be had, or when the command
 * does not exist (bubblewrap would report that only as an exit status).
 */
function planLaunch(options: ProcessGroupStdioOptions, env: Readonly<Record<string, string | undefined>>): Launch {
  const wanted = options.isolation ?? 'auto';
  const args = [...(options.args ?? [])];
  const asGroup = (fallback: string | null): Launch => ({
    command: options.command,
    args,
    isolation: { used: 'process-group', fallback },
  });
  if (wanted === 'process-group') return asGroup(null);
  const bubblewrap = findBubblewrap();
  if (!bubblewrap.works) {
    if (wanted === 'pid-namespace')
      throw new Error(`${bubblewrap.problem}, and isolation pid-namespace was asked for: the server was not started`);
    return asGroup(bubblewrap.problem);
  }
  const executable = findExecutable(options.command, env.PATH, options.cwd ?? process.cwd());
  if (executable === null) throw commandNotFound(options.command);
  return { ...inPidNamespace(bubblewrap.path, executable, args), isolation: { used: 'pid-namespace', fallback: null } };
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already empty; EPERM: nothing more this side can do.
  }
}

// Groups started and not yet ended. A detached group no longer shares the caller's terminal group, so if
// the caller exits before closing a transport, the group is killed on the way out rather than left behind.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
}

// On Linux, /proc shows each process's state and group. A member that is a zombie has ended: it only waits
// for its parent (or an init that may never reap it) to collect its exit status, so it does not count.
function procGroupHasLiveMember(pgid: number): boolean | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended while we looked
    }
    // Fields after the command name, which is in parentheses and may itself hold spaces or parentheses.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z') return true;
  }
  return false;
}

/** True while any process of the group `pgid` is still running. */
export function isProcessGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return procGroupHasLiveMember(pgid) ?? true;
}

// The waits below keep the event loop alive on purpose. Once the server's direct child has exited and its pipes
// have closed, these timers may be all that is left running; an unreferenced one would let Node exit in the
// middle of a check, before it printed anything, with exit code 0.
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `done` settles or `ms` pass, whichever comes first; the timer is cleared so it holds nothing open after. */
async function waitAtMost(done: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([done, elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends every process of the group `pgid`: SIGTERM, up to `graceMs` (STDIO_KILL_GRACE_MS) for them to go,
 * then SIGKILL for whatever is left. Resolves once the group is empty (or, at worst, a second after SIGKILL).
 */
export async function endProcessGroup(pgid: number, graceMs: number = STDIO_KILL_GRACE_MS): Promise<void> {
  if (!isProcessGroupAlive(pgid)) return;
  signalGroup(pgid, 'SIGTERM');
  if (await waitForGroupEnd(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitForGroupEnd(pgid, KILL_SETTLE_MS);
}

/** Polls until the group is empty (true) or `ms` pass (false). */
async function waitForGroupEnd(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (!isProcessGroupAlive(pgid)) return true;
    if (Date.now() >= until) return false;
    await pause(GROUP_POLL_MS);
  }
}

/**
 * An MCP client transport over stdio that starts the server in a process group of its own (`detached`)
 * and, on close, ends the whole group: stdin is closed, the server gets STDIO_EXIT_GRACE_MS to exit, then
 * the group gets SIGTERM and, STDIO_KILL_GRACE_MS later, SIGKILL. So a server started through a wrapper
 * (`npx`, `sh -c`) leaves no grandchild running. Works with the SDK's `Client` like StdioClientTransport.
 * On Windows, where there are no process groups, only the direct child is ended.
 *
 * @example
 * const client = new Client({ name: 'me', version: '1.0.0' });
 * await client.connect(new ProcessGroupStdioTransport({ command: 'npx', args: ['-y', 'some-mcp-server'] }));
 * await client.close(); // the server and every process it started are gone
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr when `stderr: 'pipe'` was asked for, readable before `start()`. */
  readonly stderr: PassThrough | null;
  private child: ChildProcess | null = null;
  private closing: Promise<void> | null = null;
  private readonly buffer: MessageBuffer;
  private launched: StdioIsolationOutcome | null = null;
  private exited: StdioExit | null = null;
  private outputBytes = 0;
  private overOutput = false;

  constructor(private readonly options: ProcessGroupStdioOptions) {
    this.buffer = options.buffer ?? new ReadBuffer();
    this.stderr = options.stderr === 'pipe' ? new PassThrough() : null;
  }

  /** The server's process id, which is also its process group's id; null before start and after close. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** How the server's first process ended; null while it runs or before it started. */
  get exitStatus(): StdioExit | null {
    return this.exited;
  }

  /** Whether the server wrote more than `outputCapBytes` and was ended for it. */
  get outputOverCap(): boolean {
    return this.overOutput;
  }

  /** What the server runs in (a PID namespace or a process group), once `start()` has been called; else null. */
  get isolation(): StdioIsolationOutcome | null {
    return this.launched;
  }

  /**
   * Starts the server; rejects when it cannot be started (no such command, say, or no PID namespace when
   * `isolation: 'pid-namespace'` asked for one).
   */
  start(): Promise<void> {
    if (this.child !== null) throw new Error('ProcessGroupStdioTransport already started');
    const env = { ...getDefaultEnvironment(), ...this.options.env };
    let launch: Launch;
    try {
      launch = planLaunch(this.options, env);
    } catch (error) {
      return Promise.reject(error);
    }
    this.launched = launch.isolation;
    return new Promise((resolve, reject) => {
      const child = spawn(launch.command, launch.args, {
        env,
        stdio: ['pipe', 'pipe', this.stderr === null ? 'ignore' : 'pipe'],
        shell: false,
        detached: USE_PROCESS_GROUPS,
        windowsHide: true,
        ...(this.options.cwd === undefined ? {} : { cwd: this.options.cwd }),
      });
      this.child = child;
      this.closing = null;
      child.on('error', (error) => {
        // A process that never started has nothing to end.
        if (child.pid === undefined && this.child === child) this.child = null;
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        if (USE_PROCESS_GROUPS && child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.on('exit', (code, signal) => {
        this.exited = { code, signal };
      });
      child.on('close', () => {
        if (this.child === child) this.child = null;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        if (this.countOutput(chunk)) this.receive(chunk);
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        if (this.countOutput(chunk)) this.stderr?.write(chunk);
      });
      // Written by hand so that it is counted, the stream still ends with the server's stderr, as a pipe would.
      child.stderr?.on('end', () => this.stderr?.end());
    });
  }

  // Counts what the server writes; past the cap the server is ended and nothing more of it is read.
  private countOutput(chunk: Buffer): boolean {
    if (this.overOutput) return false;
    this.outputBytes += chunk.length;
    const cap = this.options.outputCapBytes;
    if (cap === undefined || this.outputBytes <= cap) return true;
    this.overOutput = true;
    this.onerror?.(new Error(`the server wrote more than ${cap} bytes`));
    this.close().catch(() => undefined);
    return false;
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      this.close().catch(() => undefined);
      return;
    }
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  /** Writes one message to the server's stdin; rejects when the server is not running. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === null || stdin === undefined) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, waits for the server to exit, then ends its whole process group. A second call waits for the first. */
  close(): Promise<void> {
    if (this.closing === null) {
      const child = this.child;
      this.child = null;
      this.buffer.clear();
      this.closing = child === null ? Promise.resolve() : this.endChild(child);
    }
    return this.closing;
  }

  private async endChild(child: ChildProcess): Promise<void> {
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    try {
      child.stdin?.end();
    } catch {
      // a stdin already broken needs no closing
    }
    await waitAtMost(exited, STDIO_EXIT_GRACE_MS);
    if (USE_PROCESS_GROUPS && child.pid !== undefined) {
      await endProcessGroup(child.pid);
      liveGroups.delete(child.pid);
    } else if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await waitAtMost(exited, STDIO_KILL_GRACE_MS);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }
}

/** The transport with the raw-line buffer the probe reads, and stderr captured. */
class RawStdioTransport extends ProcessGroupStdioTransport {
  readonly raw: RawLineBuffer;

  constructor(
    server: StdioServer,
    isolation: StdioIsolation,
    outputCapBytes: number | undefined,
    raw: RawLineBuffer = new RawLineBuffer(TOOLS_PAGE_CAP_BYTES),
  ) {
    super({
      ...server,
      stderr: 'pipe',
      buffer: raw,
      isolation,
      ...(outputCapBytes === undefined ? {} : { outputCapBytes }),
    });
    this.raw = raw;
  }
}

type Answer =
  | { kind: 'message'; message: Record<string, unknown>; raw: string | null; validUtf8: boolean }
  | { kind: 'too-deep' }
  | { kind: 'closed' }
  | { kind: 'stopped'; cause: StopCause };

function checkServer(server: unknown): StdioServer {
  const s = server as Partial<StdioServer> | null;
  if (s === null || typeof s !== 'object')
    throw new ProbeInputError(
      'invalid-command',
      `server must be an object, got ${describeType(server, { article: true })}`,
    );
  if (typeof s.command !== 'string' || s.command.trim() === '')
    throw new ProbeInputError('invalid-command', 'server.command must be a non-empty string');
  if (s.args !== undefined && (!Array.isArray(s.args) || s.args.some((a) => typeof a !== 'string'))) {
    throw new ProbeInputError('invalid-command', 'server.args must be an array of strings');
  }
  if (
    s.env !== undefined &&
    (s.env === null || typeof s.env !== 'object' || Object.values(s.env).some((v) => typeof v !== 'string'))
  ) {
    throw new ProbeInputError('invalid-command', 'server.env must map names to strings');
  }
  if (s.cwd !== undefined && typeof s.cwd !== 'string')
    throw new ProbeInputError('invalid-command', 'server.cwd must be a string');
  return s as StdioServer;
}

/**
 * Runs the probe's handshake against a local MCP server over stdio: starts `command` with `args`
 * (through the SDK's `StdioClientTransport`, stderr captured), sends initialize, the initialized
 * notification and up to 3 tools/list pages under the same limits as probeServer, and stops the
 * process. The result has probeServer's shape; the letter is o or d (there is no HTTP, so no a or p),
 * `url` is the command line, and `toolsJson` is the raw text of the tools arrays as written.
 *
 * @example
 * import { probeStdio } from '@mcp-atlas/probe/node';
 * const result = await probeStdio({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
 */
export async function probeStdio(server: StdioServer, options?: StdioProbeOptions): Promise<ProbeResult> {
  return (await probeStdioProcess(server, options)).result;
}

/**
 * probeStdio, also telling how the server's process ended, its last stderr, and whether it passed the output cap:
 * what a sandboxed check needs to say which limit stopped a server.
 */
export async function probeStdioProcess(server: StdioServer, options?: StdioProbeOptions): Promise<StdioProbeOutcome> {
  const target = checkServer(server);
  const settings = resolveProbeSettings(options);
  const run = new StdioHandshake(
    target,
    settings.clock,
    settings.signal,
    settings.deadlineMs,
    settings.protocolVersion,
    settings.clientInfo,
    options?.isolation ?? 'auto',
    options?.outputCapBytes,
    options?.stepTimeoutMs,
  );
  return run.run();
}

class StdioHandshake {
  private readonly transport: RawStdioTransport;
  private readonly deadline: Deadline;
  private readonly startedAt: number;
  private readonly commandLine: string;
  private readonly steps: ProbeStep[] = [];
  private readonly warnings: string[] = [];
  private readonly collector = new ToolCollector(MAX_TOOLS_KEPT);
  private readonly waiters = new Map<number, (answer: Answer) => void>();
  private stderrTail = '';
  private closed = false;
  private protocolVersion: string | null = null;
  private supportedVersions: string[] | null = null;
  private serverInfo: ServerInfo | null = null;
  private capabilities: unknown = null;
  private pages = 0;
  private readonly initializeLimitMs: number;
  private readonly pageLimitMs: number;

  constructor(
    server: StdioServer,
    clock: Deadline['clock'],
    signal: AbortSignal | undefined,
    deadlineMs: number | null,
    private readonly protocolVersionOffered: string,
    private readonly clientInfo: { name: string; version: string },
    isolation: StdioIsolation,
    outputCapBytes: number | undefined,
    stepTimeoutMs: number | undefined,
  ) {
    this.initializeLimitMs = stepTimeoutMs ?? INITIALIZE_TIMEOUT_MS;
    this.pageLimitMs = stepTimeoutMs ?? TOOLS_LIST_PAGE_TIMEOUT_MS;
    this.commandLine = [server.command, ...(server.args ?? [])].join(' ');
    this.startedAt = clock.now();
    this.deadline = { clock, endsAt: deadlineMs === null ? null : this.startedAt + deadlineMs, signal };
    this.transport = new RawStdioTransport(server, isolation, outputCapBytes);
    this.transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.transport.onmessage = (message) => this.onMessage(message as Record<string, unknown>);
    this.transport.onclose = () => {
      this.closed = true;
      for (const waiter of this.waiters.values()) waiter({ kind: 'closed' });
      this.waiters.clear();
    };
    this.transport.onerror = (error) => {
      if (this.transport.raw.overCap || this.transport.outputOverCap) return;
      if (error instanceof TooDeepLineError) {
        this.refuseTooDeep();
        return;
      }
      this.warnings.push(`stdio: ${error.message.slice(0, 300)}`);
    };
  }

  async run(): Promise<StdioProbeOutcome> {
    let failure: { reason: ProbeReason; message: string; step: StepName } | null = null;
    let endedAt = this.startedAt;
    try {
      failure = await this.handshake();
      endedAt = this.deadline.clock.now();
    } finally {
      await this.transport.close().catch(() => undefined);
    }
    return {
      result: this.result(failure, endedAt - this.startedAt),
      exit: this.transport.exitStatus,
      stderrTail: this.stderrTail,
      outputOverCap: this.transport.outputOverCap,
    };
  }

  private onMessage(message: Record<string, unknown>): void {
    const raw = this.transport.raw.lastLine;
    const validUtf8 = this.transport.raw.lastLineValidUtf8;
    if ('method' in message) {
      this.answerServerRequest(message);
      return;
    }
    const id = message.id;
    if (typeof id !== 'number') return;
    const waiter = this.waiters.get(id);
    if (waiter === undefined) return;
    this.waiters.delete(id);
    waiter({ kind: 'message', message, raw, validUtf8 });
  }

  // A line too deep to parse has no id we can read. The handshake asks one thing at a time, so the line is
  // taken as the answer to the request waiting; with none waiting it is only a warning.
  private refuseTooDeep(): void {
    const waiting = [...this.waiters.values()];
    this.waiters.clear();
    if (waiting.length === 0) this.warnings.push(`stdio: ${describeTooDeep('a message')}, ignored`);
    for (const waiter of waiting) waiter({ kind: 'too-deep' });
  }

  // A server may ping its client or ask it for roots; a polite client answers rather than leaving it waiting.
  private answerServerRequest(message: Record<string, unknown>): void {
    if (!('id' in message)) return;
    const id = message.id as string | number;
    const reply: JSONRPCMessage =
      message.method === 'ping'
        ? { jsonrpc: '2.0', id, result: {} }
        : { jsonrpc: '2.0', id, error: { code: -32601, message: 'the probe offers no client features' } };
    this.transport.send(reply).catch(() => undefined);
  }

  private record(
    name: StepName,
    page: number | null,
    elapsedMs: number,
    outcome: StepOutcome,
    detail: string | null,
  ): void {
    this.steps.push({
      name,
      page,
      url: this.commandLine,
      httpStatus: null,
      contentType: null,
      elapsedMs: Math.max(0, Math.round(elapsedMs)),
      outcome,
      detail,
    });
  }

  private exitedMessage(step: StepName): { reason: ProbeReason; message: string } {
    if (this.transport.raw.overCap)
      return { reason: 'answer-too-large', message: `${step}: a message is over ${TOOLS_PAGE_CAP_BYTES} bytes` };
    if (this.transport.outputOverCap)
      return { reason: 'answer-too-large', message: `${step}: the server wrote more than its output limit` };
    const tail = this.stderrTail.trim();
    return {
      reason: 'process-exited',
      message: `the server process ended during ${step}${tail === '' ? '' : `; stderr ends: ${tail.slice(-300)}`}`,
    };
  }

  private async ask(
    id: number,
    method: string,
    params: Record<string, unknown>,
    limitMs: number,
  ): Promise<{ answer: Answer; elapsedMs: number }> {
    const timer = startStep(this.deadline, limitMs);
    try {
      const early = timer.cause();
      if (early !== null) return { answer: { kind: 'stopped', cause: early }, elapsedMs: 0 };
      if (this.closed) return { answer: { kind: 'closed' }, elapsedMs: 0 };
      const answered = new Promise<Answer>((resolve) => {
        this.waiters.set(id, resolve);
        timer.signal.addEventListener('abort', () => {
          this.waiters.delete(id);
          resolve({ kind: 'stopped', cause: timer.cause() ?? 'timeout' });
        });
      });
      // A failed write shows up as the process closing; the waiter hears of it through onclose.
      await this.transport.send({ jsonrpc: '2.0', id, method, params }).catch(() => undefined);
      return { answer: await answered, elapsedMs: timer.elapsed() };
    } finally {
      timer.dispose();
    }
  }

  private stopMessage(cause: StopCause, step: StepName, limitMs: number): string {
    if (cause === 'timeout') return `${step} got no answer within ${limitMs} ms`;
    if (cause === 'deadline') return `the check's deadline passed during ${step}`;
    return `the check was aborted during ${step}`;
  }

  private async handshake(): Promise<{ reason: ProbeReason; message: string; step: StepName } | null> {
    const spawnTimer = startStep(this.deadline, this.initializeLimitMs);
    try {
      await this.transport.start();
      this.record('spawn', null, spawnTimer.elapsed(), 'ok', this.describeIsolation());
    } catch (error) {
      const message = `could not start ${this.commandLine}: ${(error as Error).message}`;
      this.record('spawn', null, spawnTimer.elapsed(), 'spawn-failed', message);
      return { reason: 'spawn-failed', message, step: 'spawn' };
    } finally {
      spawnTimer.dispose();
    }

    const init = await this.ask(
      INITIALIZE_REQUEST_ID,
      'initialize',
      { protocolVersion: this.protocolVersionOffered, capabilities: {}, clientInfo: this.clientInfo },
      this.initializeLimitMs,
    );
    const initFailure = this.readInitialize(init.answer, init.elapsedMs);
    if (initFailure !== null) return initFailure;

    const notifyTimer = startStep(this.deadline, INITIALIZED_TIMEOUT_MS);
    try {
      await this.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      this.record('initialized', null, notifyTimer.elapsed(), 'ok', null);
    } catch (error) {
      this.warnings.push(`notifications/initialized: ${(error as Error).message}`);
      this.record('initialized', null, notifyTimer.elapsed(), 'process-exited', (error as Error).message);
    } finally {
      notifyTimer.dispose();
    }
    return this.listTools();
  }

  // Says what the server runs in; a fallback from a PID namespace is also a warning, since a process the server
  // starts in a session of its own may then outlive the check.
  private describeIsolation(): string | null {
    const isolation = this.transport.isolation;
    if (isolation === null) return null;
    if (isolation.used === 'pid-namespace') return 'in its own PID namespace (bubblewrap)';
    if (isolation.fallback === null) return 'in its own process group';
    this.warnings.push(
      `stdio: ${isolation.fallback}, so the server ran as a process group only; a process it starts in a session of its own can outlive the check`,
    );
    return `in its own process group (${isolation.fallback})`;
  }

  private readInitialize(
    answer: Answer,
    elapsedMs: number,
  ): { reason: ProbeReason; message: string; step: StepName } | null {
    const fail = (reason: ProbeReason, message: string): { reason: ProbeReason; message: string; step: StepName } => {
      this.record('initialize', null, elapsedMs, reason, message);
      return { reason, message, step: 'initialize' };
    };
    if (answer.kind === 'stopped')
      return fail(answer.cause, this.stopMessage(answer.cause, 'initialize', this.initializeLimitMs));
    if (answer.kind === 'closed') {
      const exited = this.exitedMessage('initialize');
      return fail(exited.reason, exited.message);
    }
    if (answer.kind === 'too-deep') return fail('too-deep', describeTooDeep('the initialize answer'));
    if (!answer.validUtf8) return fail('not-mcp', 'initialize: the answer is not valid UTF-8');
    const error = answer.message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error !== undefined) {
      this.supportedVersions = supportedVersionsFrom(error.data);
      return fail(
        'jsonrpc-error',
        `initialize was rejected: JSON-RPC error ${String(error.code)}: ${String(error.message).slice(0, 300)}`,
      );
    }
    const reading = interpretInitializeResult(answer.message.result as Record<string, unknown>);
    if (!reading.ok) return fail('not-mcp', `initialize: ${reading.detail}`);
    if (reading.warning !== null) this.warnings.push(reading.warning);
    this.protocolVersion = reading.protocolVersion;
    this.serverInfo = reading.serverInfo;
    this.capabilities = reading.capabilities;
    this.record('initialize', null, elapsedMs, 'ok', `protocol ${reading.protocolVersion}`);
    return null;
  }

  private async listTools(): Promise<{ reason: ProbeReason; message: string; step: StepName } | null> {
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let page = 1; page <= MAX_TOOLS_PAGES; page++) {
      const { answer, elapsedMs } = await this.ask(
        FIRST_TOOLS_LIST_REQUEST_ID + page - 1,
        'tools/list',
        cursor === null ? {} : { cursor },
        this.pageLimitMs,
      );
      const stop = (
        reason: ProbeReason,
        message: string,
      ): { reason: ProbeReason; message: string; step: StepName } | null => {
        this.record('tools/list', page, elapsedMs, reason, message);
        if (this.pages === 0) return { reason, message, step: 'tools/list' };
        this.warnings.push(`tools/list page ${page} not read: ${message}`);
        return null;
      };
      if (answer.kind === 'stopped')
        return stop(answer.cause, this.stopMessage(answer.cause, 'tools/list', this.pageLimitMs));
      if (answer.kind === 'closed') {
        const exited = this.exitedMessage('tools/list');
        return stop(exited.reason, exited.message);
      }
      if (answer.kind === 'too-deep') return stop('too-deep', describeTooDeep(`tools/list page ${page}`));
      if (!answer.validUtf8) return stop('not-mcp', 'tools/list: the answer is not valid UTF-8');
      const error = answer.message.error as { code?: unknown; message?: unknown } | undefined;
      if (error !== undefined)
        return stop(
          'jsonrpc-error',
          `tools/list was rejected: JSON-RPC error ${String(error.code)}: ${String(error.message).slice(0, 300)}`,
        );
      const reading = interpretToolsPage(answer.message.result as Record<string, unknown>);
      if (!reading.ok) return stop('not-mcp', `tools/list: ${reading.detail}`);
      if (reading.warning !== null) this.warnings.push(`page ${page}: ${reading.warning}`);
      this.collector.add(reading.tools, answer.raw, null);
      this.pages++;
      this.record('tools/list', page, elapsedMs, 'ok', `${reading.tools.length} tools`);
      const decision = decideNextPage(reading, page, MAX_TOOLS_PAGES, seen);
      if ('stop' in decision) {
        if (decision.stop !== null) this.warnings.push(decision.stop);
        return null;
      }
      cursor = decision.next;
    }
    return null;
  }

  private result(
    failure: { reason: ProbeReason; message: string; step: StepName } | null,
    elapsedMs: number,
  ): ProbeResult {
    const reason: ProbeReason = failure === null ? 'ok' : failure.reason;
    const toolsJson = this.collector.toolsJson();
    // The whole list's text is worked out before the warning too: a page re-serialized only for it counts.
    const listedJson = this.collector.listedJson();
    if (this.collector.reserialized) this.warnings.push(RESERIALIZED_WARNING);
    return {
      url: this.commandLine,
      endpoint: this.commandLine,
      letter: letterForReason(reason),
      reason,
      message:
        failure === null
          ? `answered with ${this.collector.count} tools over ${this.pages} page${this.pages === 1 ? '' : 's'} (protocol ${this.protocolVersion ?? '?'})`
          : failure.message,
      failedStep: failure === null ? null : failure.step,
      notStandardMcp: reason === 'not-mcp',
      protocolVersion: this.protocolVersion,
      supportedVersions: this.supportedVersions,
      serverInfo: this.serverInfo,
      capabilities: this.capabilities,
      tools: this.collector.tools,
      toolsJson,
      listedJson,
      toolCount: this.collector.count,
      toolsTruncated: this.collector.truncated,
      pages: this.pages,
      paymentAddress: null,
      authChallenge: null,
      sessionIssued: false,
      redirect: null,
      steps: this.steps,
      warnings: this.warnings,
      elapsedMs: Math.max(0, Math.round(elapsedMs)),
      rulesVersion: PROBE_RULES_VERSION,
    };
  }
}
