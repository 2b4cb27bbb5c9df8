// Node-only: the same handshake against a local server started as a child process, through the MCP
// SDK's stdio transport, returning the same result shape as probeServer.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type Deadline, type StopCause, startStep } from '../clock.js';
import {
  FIRST_TOOLS_LIST_REQUEST_ID,
  INITIALIZE_REQUEST_ID,
  INITIALIZE_TIMEOUT_MS,
  INITIALIZED_TIMEOUT_MS,
  MAX_TOOLS_KEPT,
  MAX_TOOLS_PAGES,
  PROBE_RULES_VERSION,
  STDERR_TAIL_BYTES,
  TOOLS_LIST_PAGE_TIMEOUT_MS,
  TOOLS_PAGE_CAP_BYTES,
} from '../constants.js';
import { ProbeInputError, describeType } from '../errors.js';
import { RESERIALIZED_WARNING, ToolCollector, decideNextPage, interpretInitializeResult, interpretToolsPage, supportedVersionsFrom } from '../interpret.js';
import { type ProbeOptions, resolveProbeSettings } from '../options.js';
import { letterForReason } from '../probe-server.js';
import type { ProbeReason, ProbeResult, ProbeStep, ServerInfo, StepName, StepOutcome } from '../schemas.js';

/** The local server to start: a command, its arguments, extra environment and working directory. */
export interface StdioServer {
  command: string;
  args?: readonly string[];
  /** Added to the SDK's safe default environment (HOME, PATH, ...), not replacing it. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
}

/** Options of `probeStdio`: the handshake options of probeServer that make sense for a local process. */
export type StdioProbeOptions = Pick<ProbeOptions, 'protocolVersion' | 'clientInfo' | 'deadlineMs' | 'signal' | 'clock'>;

/**
 * The SDK transport parses each line before handing the message over, and the raw text is gone. The
 * findings package needs the tools arrays exactly as sent, so this buffer does the same line splitting
 * and also remembers the raw text (and whether it was valid UTF-8) of the message it last returned.
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
    this.lastLine = line;
    return deserializeMessage(line);
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
  }
}

/** The transport with the raw-line buffer in place of its own. */
class RawStdioTransport extends StdioClientTransport {
  readonly raw: RawLineBuffer;

  constructor(server: StdioServer) {
    super({
      command: server.command,
      args: [...(server.args ?? [])],
      ...(server.env === undefined ? {} : { env: { ...server.env } }),
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      stderr: 'pipe',
    });
    this.raw = new RawLineBuffer(TOOLS_PAGE_CAP_BYTES);
    // The field is private in the SDK's types but is the documented seam of the class (see above).
    (this as unknown as { _readBuffer: RawLineBuffer })._readBuffer = this.raw;
  }
}

type Answer =
  | { kind: 'message'; message: Record<string, unknown>; raw: string | null; validUtf8: boolean }
  | { kind: 'closed' }
  | { kind: 'stopped'; cause: StopCause };

function checkServer(server: unknown): StdioServer {
  const s = server as Partial<StdioServer> | null;
  if (s === null || typeof s !== 'object') throw new ProbeInputError('invalid-command', `server must be an object, got ${describeType(server)}`);
  if (typeof s.command !== 'string' || s.command.trim() === '') throw new ProbeInputError('invalid-command', 'server.command must be a non-empty string');
  if (s.args !== undefined && (!Array.isArray(s.args) || s.args.some((a) => typeof a !== 'string'))) {
    throw new ProbeInputError('invalid-command', 'server.args must be an array of strings');
  }
  if (s.env !== undefined && (s.env === null || typeof s.env !== 'object' || Object.values(s.env).some((v) => typeof v !== 'string'))) {
    throw new ProbeInputError('invalid-command', 'server.env must map names to strings');
  }
  if (s.cwd !== undefined && typeof s.cwd !== 'string') throw new ProbeInputError('invalid-command', 'server.cwd must be a string');
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
  const target = checkServer(server);
  const settings = resolveProbeSettings(options);
  const run = new StdioHandshake(target, settings.clock, settings.signal, settings.deadlineMs, settings.protocolVersion, settings.clientInfo);
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

  constructor(
    server: StdioServer,
    clock: Deadline['clock'],
    signal: AbortSignal | undefined,
    deadlineMs: number | null,
    private readonly protocolVersionOffered: string,
    private readonly clientInfo: { name: string; version: string },
  ) {
    this.commandLine = [server.command, ...(server.args ?? [])].join(' ');
    this.startedAt = clock.now();
    this.deadline = { clock, endsAt: deadlineMs === null ? null : this.startedAt + deadlineMs, signal };
    this.transport = new RawStdioTransport(server);
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
      if (this.transport.raw.overCap) return;
      this.warnings.push(`stdio: ${error.message.slice(0, 300)}`);
    };
  }

  async run(): Promise<ProbeResult> {
    let failure: { reason: ProbeReason; message: string; step: StepName } | null = null;
    let endedAt = this.startedAt;
    try {
      failure = await this.handshake();
      endedAt = this.deadline.clock.now();
    } finally {
      await this.transport.close().catch(() => undefined);
    }
    return this.result(failure, endedAt - this.startedAt);
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

  private record(name: StepName, page: number | null, elapsedMs: number, outcome: StepOutcome, detail: string | null): void {
    this.steps.push({ name, page, url: this.commandLine, httpStatus: null, contentType: null, elapsedMs: Math.max(0, Math.round(elapsedMs)), outcome, detail });
  }

  private exitedMessage(step: StepName): { reason: ProbeReason; message: string } {
    if (this.transport.raw.overCap) return { reason: 'answer-too-large', message: `${step}: a message is over ${TOOLS_PAGE_CAP_BYTES} bytes` };
    const tail = this.stderrTail.trim();
    return { reason: 'process-exited', message: `the server process ended during ${step}${tail === '' ? '' : `; stderr ends: ${tail.slice(-300)}`}` };
  }

  private async ask(id: number, method: string, params: Record<string, unknown>, limitMs: number): Promise<{ answer: Answer; elapsedMs: number }> {
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
    const spawnTimer = startStep(this.deadline, INITIALIZE_TIMEOUT_MS);
    try {
      await this.transport.start();
      this.record('spawn', null, spawnTimer.elapsed(), 'ok', null);
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
      INITIALIZE_TIMEOUT_MS,
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

  private readInitialize(answer: Answer, elapsedMs: number): { reason: ProbeReason; message: string; step: StepName } | null {
    const fail = (reason: ProbeReason, message: string): { reason: ProbeReason; message: string; step: StepName } => {
      this.record('initialize', null, elapsedMs, reason, message);
      return { reason, message, step: 'initialize' };
    };
    if (answer.kind === 'stopped') return fail(answer.cause, this.stopMessage(answer.cause, 'initialize', INITIALIZE_TIMEOUT_MS));
    if (answer.kind === 'closed') {
      const exited = this.exitedMessage('initialize');
      return fail(exited.reason, exited.message);
    }
    if (!answer.validUtf8) return fail('not-mcp', 'initialize: the answer is not valid UTF-8');
    const error = answer.message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error !== undefined) {
      this.supportedVersions = supportedVersionsFrom(error.data);
      return fail('jsonrpc-error', `initialize was rejected: JSON-RPC error ${String(error.code)}: ${String(error.message).slice(0, 300)}`);
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
        TOOLS_LIST_PAGE_TIMEOUT_MS,
      );
      const stop = (reason: ProbeReason, message: string): { reason: ProbeReason; message: string; step: StepName } | null => {
        this.record('tools/list', page, elapsedMs, reason, message);
        if (this.pages === 0) return { reason, message, step: 'tools/list' };
        this.warnings.push(`tools/list page ${page} not read: ${message}`);
        return null;
      };
      if (answer.kind === 'stopped') return stop(answer.cause, this.stopMessage(answer.cause, 'tools/list', TOOLS_LIST_PAGE_TIMEOUT_MS));
      if (answer.kind === 'closed') {
        const exited = this.exitedMessage('tools/list');
        return stop(exited.reason, exited.message);
      }
      if (!answer.validUtf8) return stop('not-mcp', 'tools/list: the answer is not valid UTF-8');
      const error = answer.message.error as { code?: unknown; message?: unknown } | undefined;
      if (error !== undefined) return stop('jsonrpc-error', `tools/list was rejected: JSON-RPC error ${String(error.code)}: ${String(error.message).slice(0, 300)}`);
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

  private result(failure: { reason: ProbeReason; message: string; step: StepName } | null, elapsedMs: number): ProbeResult {
    const reason: ProbeReason = failure === null ? 'ok' : failure.reason;
    const toolsJson = this.collector.toolsJson();
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
