// Runtime-neutral module (no node: imports; network only through the injected client): the MCP session over Streamable HTTP, shared by
// probeServer (the daily/hourly/five-minute checks) and checkSite (the site scanner's check), which differ only in the
// policy they pass. Every request goes through the guard and the pinned addresses; every answer is read
// under a cap and a time limit; whatever the server does ends as an outcome, never as an exception.
import { type RpcAnswer, readErrorBody, readRpcAnswer } from './answer.js';
import { discoverAuth } from './auth-discovery.js';
import { type Deadline, type ProbeClock, remainingMs, type StepTimer, startStep } from './clock.js';
import {
  ACCEPT_ENCODING,
  DELETE_TIMEOUT_MS,
  DNS_TIMEOUT_MS,
  FIRST_TOOLS_LIST_REQUEST_ID,
  INITIALIZE_ANSWER_CAP_BYTES,
  INITIALIZE_REQUEST_ID,
  INITIALIZE_TIMEOUT_MS,
  INITIALIZED_TIMEOUT_MS,
  MAX_SSE_RESUMPTIONS,
  MCP_ACCEPT,
  NOT_STANDARD_MCP_STATUSES,
  PAYMENT_STATUS,
  RATE_LIMIT_STATUS,
  RATE_LIMIT_WITH_WAIT_STATUSES,
  REDIRECT_STATUSES,
  SIGN_IN_STATUSES,
  SSE_DEFAULT_RETRY_MS,
  SSE_MAX_RETRY_WAIT_MS,
  TOOLS_LIST_PAGE_TIMEOUT_MS,
} from './constants.js';
import { checkTarget, hostOf, isSameSite, resolveTarget } from './guard.js';
import {
  classifyTransportError,
  drainBody,
  type HeaderReader,
  type HttpClient,
  type HttpResponse,
  mediaTypeOf,
} from './http.js';
import {
  decideNextPage,
  interpretInitializeResult,
  interpretToolsPage,
  isEchoableHeader,
  RESERIALIZED_WARNING,
  supportedVersionsFrom,
  ToolCollector,
} from './interpret.js';
import { isIpAddress } from './ip.js';
import { describeTooDeep } from './json-depth.js';
import type { NetworkSettings } from './options.js';
import { parsePaymentAddress } from './payment.js';
import { parseRetryAfter } from './retry-after.js';
import type {
  AuthDiscovery,
  ProbeReason,
  ProbeRedirect,
  ProbeStep,
  ServerInfo,
  StepName,
  StepOutcome,
} from './schemas.js';

/** @internal How a session is run: what differs between the probe and the site check. */
export interface HandshakePolicy {
  readonly protocolVersion: string;
  readonly clientInfo: { name: string; version: string };
  /** Redirects on initialize followed when they stay on the site (0: none). */
  readonly maxRedirects: number;
  readonly initializeCapBytes: number;
  readonly toolsPageCapBytes: number;
  readonly maxToolPages: number;
  readonly maxToolsKept: number;
  /** Send tools/list only when initialize declared the tools capability (the site check). */
  readonly listToolsOnlyWhenDeclared: boolean;
  readonly sendDelete: boolean;
  readonly deadlineMs: number | null;
  /**
   * Whether each step keeps its own limit (lookup 5 s, initialize 8 s, the notification 5 s, a tools/list page
   * 8 s) inside the deadline. Default true (probeServer). The site check sets false: its 12 s cover the whole
   * session, and a server may spend them as it likes. Without a deadline the step limits always apply, or a
   * silent server could hold the session forever.
   */
  readonly perStepLimits?: boolean;
  /** Whether a sign-in request (401/403) is followed by read-only sign-in discovery (probeServer). Default false. */
  readonly discoverAuth?: boolean;
  /**
   * Whether any 3xx answer, on any step (the notification included), ends the session as an unfollowed
   * redirect. Default false: only REDIRECT_STATUSES on initialize are redirects, and a redirect on tools/list
   * is an HTTP error (probeServer's letters). The site check sets true: there every 3xx is "not followed".
   */
  readonly anyRedirectEnds?: boolean;
}

/** True for every 3xx status, 300 and 304 included: an answer that points elsewhere instead of answering. */
export function isRedirectStatus(status: number): boolean {
  return status >= 300 && status < 400;
}

/** @internal Everything a session learned; probeServer and checkSite each turn it into their result. */
export interface HandshakeOutcome {
  reason: ProbeReason;
  message: string;
  failedStep: StepName | null;
  /** The HTTP status of the answer that decided a failure, if it had one. */
  decidingStatus: number | null;
  notStandardMcp: boolean;
  endpoint: string;
  protocolVersion: string | null;
  supportedVersions: string[] | null;
  serverInfo: ServerInfo | null;
  capabilities: unknown;
  toolsDeclared: boolean;
  initialized: boolean;
  tools: unknown[];
  toolsJson: string | null;
  /** Every listed element's JSON text over the pages read, kept or not (`ToolCollector.listedJson`). */
  listedJson: string | null;
  toolCount: number;
  /** Tools listed that an agent could call by name: objects with a non-empty string `name` (every page read). */
  namedToolCount: number;
  toolsTruncated: boolean;
  pages: number;
  paymentAddress: string | null;
  /** The wait a rate-limited server asked for, in ms; null when it named none or did not limit the check. */
  retryAfterMs: number | null;
  authChallenge: string | null;
  /** Sign-in discovery, when the policy asks for it and the server asked for sign-in; else null. */
  authDiscovery: AuthDiscovery | null;
  sessionIssued: boolean;
  redirect: ProbeRedirect | null;
  steps: ProbeStep[];
  warnings: string[];
  posts: number;
  elapsedMs: number;
}

type StepRun<T> =
  | { ok: true; status: number; contentType: string | null; headers: HeaderReader; value: T; elapsedMs: number }
  | {
      ok: false;
      reason: ProbeReason;
      message: string;
      status: number | null;
      contentType: string | null;
      elapsedMs: number;
    };

/** What an initialize or tools/list answer amounted to, before interpretation. */
type Reply =
  /** `resumed`: how many times the answer's event stream was resumed before the answer came (or did not). */
  | { kind: 'answer'; answer: Exclude<RpcAnswer, { kind: 'stream-closed' }>; resumed: number }
  | { kind: 'redirect'; location: string | null }
  | { kind: 'auth'; challenge: string | null }
  | { kind: 'payment'; address: string | null }
  /** `retryAfterMs`: the wait its Retry-After asked for, or null when it named none the probe could read. */
  | { kind: 'rate-limited'; retryAfterMs: number | null }
  | { kind: 'http-error'; detail: string | null; supported: string[] | null };

class Failure {
  constructor(
    readonly reason: ProbeReason,
    readonly message: string,
    readonly step: StepName,
    readonly status: number | null = null,
  ) {}
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function describeStop(cause: 'timeout' | 'deadline' | 'aborted', step: StepName, limitMs: number): string {
  if (cause === 'timeout') return `${step} got no answer within ${limitMs} ms`;
  if (cause === 'deadline') return `the check's deadline passed during ${step}`;
  return `the check was aborted during ${step}`;
}

function errorDetail(json: unknown): { detail: string | null; supported: string[] | null } {
  if (json === null || typeof json !== 'object') return { detail: null, supported: null };
  const error = (json as { error?: unknown }).error;
  if (error === null || typeof error !== 'object') return { detail: null, supported: null };
  const message = (error as { message?: unknown }).message;
  const code = (error as { code?: unknown }).code;
  const detail =
    typeof message === 'string'
      ? `JSON-RPC error${typeof code === 'number' ? ` ${code}` : ''}: ${message.slice(0, 300)}`
      : null;
  return { detail, supported: supportedVersionsFrom((error as { data?: unknown }).data) };
}

/**
 * A rate-limit reply for a status that means "too many requests": always for 429, and for 503 only when it
 * names a wait the probe can read. Its HTTP date is counted from the answer's own Date field when it has one
 * (so a skewed clock on either side does not change the wait), else from this machine's time. Null otherwise.
 */
function readRateLimit(status: number, headers: HeaderReader): Extract<Reply, { kind: 'rate-limited' }> | null {
  if (status !== RATE_LIMIT_STATUS && !RATE_LIMIT_WITH_WAIT_STATUSES.has(status)) return null;
  const sentAt = Date.parse(headers.get('date') ?? '');
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), Number.isNaN(sentAt) ? Date.now() : sentAt);
  if (status !== RATE_LIMIT_STATUS && retryAfterMs === null) return null;
  return { kind: 'rate-limited', retryAfterMs };
}

/** How a message names a rate limit: with the wait asked for, in seconds, when there was one. */
function describeRateLimit(retryAfterMs: number | null): string {
  if (retryAfterMs === null) return 'rate-limited (no wait named)';
  return `rate-limited (asks to wait ${Math.ceil(retryAfterMs / 1000)} s)`;
}

/** The wait before resuming a stream: the server's `retry`, cut to SSE_MAX_RETRY_WAIT_MS, or the default. */
export function resumeWaitMs(retryMs: number | null): number {
  return Math.min(retryMs ?? SSE_DEFAULT_RETRY_MS, SSE_MAX_RETRY_WAIT_MS);
}

/** How a step's detail names resumed streams: nothing when none was. */
function resumedNote(resumed: number): string {
  return resumed === 0 ? '' : `; resumed ${resumed}x`;
}

/** Waits `ms` on the injected clock; rejects as soon as `signal` aborts (the step's limit or the deadline). */
function waitOn(clock: ProbeClock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('aborted while waiting to resume'));
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(new Error('aborted while waiting to resume'));
    };
    const handle = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** @internal One MCP session over HTTP. */
export class HttpHandshake {
  private readonly steps: ProbeStep[] = [];
  private readonly warnings: string[] = [];
  private readonly collector: ToolCollector;
  private readonly deadline: Deadline;
  private readonly startedAt: number;
  private client: HttpClient | null = null;
  private endpoint: URL;
  private addresses: string[] | null = null;
  private sessionId: string | null = null;
  private headerVersion: string;
  private posts = 0;
  private redirect: ProbeRedirect | null = null;
  private authChallenge: string | null = null;
  private authDiscovery: AuthDiscovery | null = null;
  private paymentAddress: string | null = null;
  private retryAfterMs: number | null = null;
  private protocolVersion: string | null = null;
  private supportedVersions: string[] | null = null;
  private serverInfo: ServerInfo | null = null;
  private capabilities: unknown = null;
  private toolsDeclared = false;
  private initialized = false;
  private pages = 0;

  constructor(
    url: string,
    private readonly network: NetworkSettings,
    private readonly policy: HandshakePolicy,
  ) {
    this.collector = new ToolCollector(policy.maxToolsKept);
    this.startedAt = network.clock.now();
    this.deadline = {
      clock: network.clock,
      endsAt: policy.deadlineMs === null ? null : this.startedAt + policy.deadlineMs,
      signal: network.signal,
    };
    this.endpoint = new URL(url);
    this.headerVersion = policy.protocolVersion;
  }

  /** Runs the whole session; the URL must have passed checkTarget already. */
  async run(): Promise<HandshakeOutcome> {
    let failure: Failure | null = null;
    let endedAt = this.startedAt;
    try {
      failure = await this.handshake();
      endedAt = this.network.clock.now();
      await this.closeSession();
      // After the session, so its time stays the session's: discovery has its own budget inside the deadline.
      if (failure?.reason === 'auth-required' && this.policy.discoverAuth === true)
        this.authDiscovery = await discoverAuth(this.endpoint, this.authChallenge, this.network, this.deadline);
    } finally {
      this.client?.close();
    }
    return this.outcome(failure, endedAt - this.startedAt);
  }

  private async handshake(): Promise<Failure | null> {
    const resolved = await this.resolve(this.endpoint);
    if (resolved !== null) return resolved;
    this.client = this.network.makeClient();
    const initFailure = await this.initialize();
    if (initFailure !== null) return initFailure;
    const notifyFailure = await this.notifyInitialized();
    if (notifyFailure !== null) return notifyFailure;
    if (this.policy.listToolsOnlyWhenDeclared && !this.toolsDeclared) return null;
    return this.listTools();
  }

  private async resolve(target: URL): Promise<Failure | null> {
    const options = {
      allowPrivate: this.network.allowPrivate,
      ...(this.network.lookup === undefined ? {} : { lookup: this.network.lookup }),
    };
    // Only a real lookup is a step with its own limit; an IP literal or an unpinned target needs none.
    if (this.network.lookup === undefined || isIpAddress(hostOf(target))) {
      const resolved = await resolveTarget(target.href, options);
      if (!resolved.ok) return new Failure(resolved.reason, resolved.message, 'resolve');
      this.addresses = resolved.addresses;
      return null;
    }
    const timer = startStep(this.deadline, this.stepLimit(DNS_TIMEOUT_MS));
    try {
      const resolved = await resolveTarget(target.href, { ...options, signal: timer.signal });
      const cause = timer.cause();
      if (!resolved.ok) {
        const reason: ProbeReason = cause ?? resolved.reason;
        const message = cause === null ? resolved.message : describeStop(cause, 'resolve', DNS_TIMEOUT_MS);
        this.record('resolve', null, target.href, null, null, timer.elapsed(), reason, message);
        return new Failure(reason, message, 'resolve');
      }
      this.record(
        'resolve',
        null,
        target.href,
        null,
        null,
        timer.elapsed(),
        'ok',
        (resolved.addresses ?? []).join(', '),
      );
      this.addresses = resolved.addresses;
      return null;
    } finally {
      timer.dispose();
    }
  }

  /** A step's own limit, or null when the policy leaves the steps to the deadline alone. */
  private stepLimit(limitMs: number): number | null {
    return this.policy.perStepLimits === false && this.deadline.endsAt !== null ? null : limitMs;
  }

  /** Whether an answer's status makes it a redirect under this session's policy. */
  private isRedirect(status: number): boolean {
    return this.policy.anyRedirectEnds === true ? isRedirectStatus(status) : REDIRECT_STATUSES.has(status);
  }

  private requestHeaders(post: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.network.userAgent,
      'accept-encoding': ACCEPT_ENCODING,
    };
    if (post) {
      headers['content-type'] = 'application/json';
      headers.accept = MCP_ACCEPT;
    }
    if (this.initialized || this.sessionId !== null) headers['mcp-protocol-version'] = this.headerVersion;
    if (this.sessionId !== null) headers['mcp-session-id'] = this.sessionId;
    return headers;
  }

  private async exchange<T>(
    method: 'POST' | 'DELETE',
    body: string | undefined,
    step: StepName,
    limitMs: number,
    read: (response: HttpResponse, signal: AbortSignal) => Promise<T>,
  ): Promise<StepRun<T>> {
    const timer: StepTimer = startStep(this.deadline, this.stepLimit(limitMs));
    let status: number | null = null;
    let contentType: string | null = null;
    try {
      const early = timer.cause();
      if (early !== null)
        return {
          ok: false,
          reason: early,
          message: describeStop(early, step, limitMs),
          status,
          contentType,
          elapsedMs: 0,
        };
      if (method === 'POST') this.posts++;
      const headers = this.requestHeaders(method === 'POST');
      const response = await (this.client as HttpClient).request({
        url: this.endpoint.href,
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: timer.signal,
        addresses: this.addresses,
      });
      status = response.status;
      contentType = response.headers.get('content-type');
      const value = await read(response, timer.signal);
      return { ok: true, status, contentType, headers: response.headers, value, elapsedMs: timer.elapsed() };
    } catch (error) {
      const cause = timer.cause();
      if (cause !== null)
        return {
          ok: false,
          reason: cause,
          message: describeStop(cause, step, limitMs),
          status,
          contentType,
          elapsedMs: timer.elapsed(),
        };
      const { failure, message } = classifyTransportError(error);
      return {
        ok: false,
        reason: failure,
        message: `${step}: ${message}`,
        status,
        contentType,
        elapsedMs: timer.elapsed(),
      };
    } finally {
      timer.dispose();
    }
  }

  private record(
    name: StepName,
    page: number | null,
    url: string,
    httpStatus: number | null,
    contentType: string | null,
    elapsedMs: number,
    outcome: StepOutcome,
    detail: string | null,
  ): void {
    this.steps.push({
      name,
      page,
      url,
      httpStatus,
      contentType,
      elapsedMs: Math.max(0, Math.round(elapsedMs)),
      outcome,
      detail,
    });
  }

  private recordRun<T>(
    name: StepName,
    page: number | null,
    url: string,
    run: StepRun<T>,
    outcome: StepOutcome,
    detail: string | null,
  ): void {
    this.record(name, page, url, run.status, run.contentType, run.elapsedMs, outcome, detail);
  }

  /** Reads a reply by its status: the answer of a 2xx, the Location of a redirect, the challenge of 401/403... */
  private async readReply(
    response: HttpResponse,
    id: number,
    cap: number,
    allowPayment: boolean,
    signal: AbortSignal,
  ): Promise<Reply> {
    const status = response.status;
    if (isSuccess(status)) {
      const first = await readRpcAnswer(response, id, cap);
      return { kind: 'answer', ...(await this.resumeStream(first, response.headers, id, cap, signal)) };
    }
    if (this.isRedirect(status)) {
      const location = response.headers.get('location');
      response.discard();
      return { kind: 'redirect', location };
    }
    if (SIGN_IN_STATUSES.has(status)) {
      const challenge = response.headers.get('www-authenticate');
      response.discard();
      return { kind: 'auth', challenge };
    }
    const rateLimit = readRateLimit(status, response.headers);
    if (rateLimit !== null) {
      response.discard();
      return rateLimit;
    }
    const { json } = await readErrorBody(response, INITIALIZE_ANSWER_CAP_BYTES);
    if (allowPayment && status === PAYMENT_STATUS)
      return { kind: 'payment', address: parsePaymentAddress(response.headers, json) };
    return { kind: 'http-error', ...errorDetail(json) };
  }

  /**
   * Resumes an answer's event stream that closed after an event id and before the answer, as the MCP spec's
   * Streamable HTTP transport asks: wait the server's `retry` (SSE_DEFAULT_RETRY_MS without one, at most
   * SSE_MAX_RETRY_WAIT_MS), GET the endpoint with Last-Event-ID, read the answer there; at most
   * MAX_SSE_RESUMPTIONS times, every byte of every stream counted against the one cap. The step's signal
   * ends a wait or a read when its limit or the deadline passes; the caller names which.
   */
  private async resumeStream(
    first: RpcAnswer,
    headers: HeaderReader,
    id: number,
    cap: number,
    signal: AbortSignal,
  ): Promise<{ answer: Exclude<RpcAnswer, { kind: 'stream-closed' }>; resumed: number }> {
    let answer = first;
    let resumed = 0;
    let used = 0;
    while (answer.kind === 'stream-closed') {
      if (resumed >= MAX_SSE_RESUMPTIONS) {
        const detail = `the event stream closed without the answer ${resumed + 1} times (resumed ${resumed}x with Last-Event-ID)`;
        return { answer: { kind: 'not-mcp', detail }, resumed };
      }
      used += answer.bytes;
      await waitOn(this.network.clock, resumeWaitMs(answer.retryMs), signal);
      resumed++;
      const response = await (this.client as HttpClient).request({
        url: this.endpoint.href,
        method: 'GET',
        headers: this.resumeHeaders(answer.lastEventId, headers),
        signal,
        addresses: this.addresses,
      });
      const type = mediaTypeOf(response.headers.get('content-type'));
      if (!isSuccess(response.status) || type !== 'text/event-stream') {
        response.discard();
        const detail = `resuming the event stream (GET with Last-Event-ID) answered ${response.status}${type === '' ? '' : ` ${type}`}, not an event stream`;
        return { answer: { kind: 'not-mcp', detail }, resumed };
      }
      answer = await readRpcAnswer(response, id, Math.max(0, cap - used));
    }
    return { answer, resumed };
  }

  /** The GET that resumes a stream: the session's headers (the one the stream's answer issued, during initialize). */
  private resumeHeaders(lastEventId: string, answerHeaders: HeaderReader): Record<string, string> {
    const headers = this.requestHeaders(false);
    headers.accept = 'text/event-stream';
    if (isEchoableHeader(lastEventId)) headers['last-event-id'] = lastEventId;
    const issued = answerHeaders.get('mcp-session-id');
    if (headers['mcp-session-id'] === undefined && issued !== null && isEchoableHeader(issued)) {
      headers['mcp-session-id'] = issued;
      headers['mcp-protocol-version'] = this.headerVersion;
    }
    return headers;
  }

  private initializeBody(): string {
    return JSON.stringify({
      jsonrpc: '2.0',
      id: INITIALIZE_REQUEST_ID,
      method: 'initialize',
      params: { protocolVersion: this.policy.protocolVersion, capabilities: {}, clientInfo: this.policy.clientInfo },
    });
  }

  private async initialize(): Promise<Failure | null> {
    for (let redirects = 0; ; redirects++) {
      const url = this.endpoint.href;
      const run = await this.exchange(
        'POST',
        this.initializeBody(),
        'initialize',
        INITIALIZE_TIMEOUT_MS,
        (response, signal) =>
          this.readReply(response, INITIALIZE_REQUEST_ID, this.policy.initializeCapBytes, true, signal),
      );
      if (!run.ok) {
        this.recordRun('initialize', null, url, run, run.reason, run.message);
        return new Failure(run.reason, run.message, 'initialize', run.status);
      }
      const reply = run.value;
      if (reply.kind === 'redirect') {
        const next = await this.takeRedirect(reply.location, redirects, run);
        if (next !== null) return next;
        continue;
      }
      return this.interpretInitialize(reply, run);
    }
  }

  private async takeRedirect(
    location: string | null,
    redirects: number,
    run: StepRun<Reply> & { ok: true },
  ): Promise<Failure | null> {
    const from = this.endpoint.href;
    let target: URL;
    try {
      if (location === null || location.trim() === '') throw new Error('no Location');
      target = new URL(location, this.endpoint);
    } catch {
      const message = `initialize answered ${run.status} without a usable Location`;
      this.recordRun('initialize', null, from, run, 'redirect-invalid', message);
      return new Failure('redirect-invalid', message, 'initialize', run.status);
    }
    const sameSite = isSameSite(target, this.endpoint);
    this.redirect = { location: target.href, followed: false, sameSite };
    if (!sameSite) {
      const message = `initialize redirects to another site (${target.host}); not followed`;
      this.recordRun('initialize', null, from, run, 'redirect-cross-site', message);
      return new Failure('redirect-cross-site', message, 'initialize', run.status);
    }
    if (redirects >= this.policy.maxRedirects) {
      const message =
        this.policy.maxRedirects === 0
          ? `initialize redirects (${run.status}); redirects are not followed`
          : `initialize redirects again (${run.status}) after ${redirects} followed`;
      this.recordRun('initialize', null, from, run, 'redirect-limit', message);
      return new Failure('redirect-limit', message, 'initialize', run.status);
    }
    const guard = checkTarget(target.href, {
      allowPrivate: this.network.allowPrivate,
      optedOut: this.network.optedOut,
    });
    if (!guard.ok) {
      const message = `initialize redirects to ${target.href}, which the guard refuses: ${guard.message}`;
      this.recordRun('initialize', null, from, run, guard.reason, message);
      return new Failure(guard.reason, message, 'initialize', run.status);
    }
    this.recordRun('initialize', null, from, run, 'redirect', `${run.status} to ${target.href}`);
    const resolved = await this.resolve(target);
    if (resolved !== null) return resolved;
    this.endpoint = target;
    this.redirect = { location: target.href, followed: true, sameSite: true };
    return null;
  }

  private interpretInitialize(
    reply: Exclude<Reply, { kind: 'redirect' }>,
    run: StepRun<Reply> & { ok: true },
  ): Failure | null {
    const url = this.endpoint.href;
    const fail = (reason: ProbeReason, message: string): Failure => {
      this.recordRun('initialize', null, url, run, reason, message);
      return new Failure(reason, message, 'initialize', run.status);
    };
    if (reply.kind === 'auth') {
      this.authChallenge = reply.challenge;
      return fail('auth-required', `initialize answered ${run.status}: sign-in needed`);
    }
    if (reply.kind === 'payment') {
      this.paymentAddress = reply.address;
      return fail(
        'payment-required',
        `initialize answered 402: payment needed${reply.address === null ? '' : ` (pay to ${reply.address})`}`,
      );
    }
    if (reply.kind === 'rate-limited') {
      this.retryAfterMs = reply.retryAfterMs;
      return fail('rate-limited', `initialize answered ${run.status}: ${describeRateLimit(reply.retryAfterMs)}`);
    }
    if (reply.kind === 'http-error') {
      this.supportedVersions = reply.supported;
      return fail(
        'http-error',
        `initialize answered HTTP ${run.status}${reply.detail === null ? '' : ` (${reply.detail})`}`,
      );
    }
    const answer = reply.answer;
    if (answer.kind === 'over-cap')
      return fail('answer-too-large', `the initialize answer is over ${answer.cap} bytes`);
    if (answer.kind === 'too-deep') return fail('too-deep', describeTooDeep('the initialize answer'));
    if (answer.kind === 'not-mcp') return fail('not-mcp', `initialize: ${answer.detail}`);
    if (answer.kind === 'error') {
      this.supportedVersions = supportedVersionsFrom(answer.data);
      // A server of a newer, stateless protocol generation may reject initialize outright; that is
      // recorded here like any other rejection, with the versions it says it supports.
      return fail(
        'jsonrpc-error',
        `initialize was rejected: JSON-RPC error ${answer.code}: ${answer.message.slice(0, 300)}`,
      );
    }
    const reading = interpretInitializeResult(answer.result);
    if (!reading.ok) return fail('not-mcp', `initialize: ${reading.detail}`);
    if (reading.warning !== null) this.warnings.push(reading.warning);
    this.protocolVersion = reading.protocolVersion;
    this.serverInfo = reading.serverInfo;
    this.capabilities = reading.capabilities;
    this.toolsDeclared = reading.toolsDeclared;
    this.initialized = true;
    if (isEchoableHeader(reading.protocolVersion)) this.headerVersion = reading.protocolVersion;
    else
      this.warnings.push(
        'the protocol version the server chose cannot be sent back as a header; the offered one is sent',
      );
    const session = run.headers.get('mcp-session-id');
    if (session !== null) {
      if (isEchoableHeader(session)) this.sessionId = session;
      else this.warnings.push('the server issued a session id that is not visible ASCII; it is not echoed');
    }
    this.recordRun(
      'initialize',
      null,
      url,
      run,
      'ok',
      `protocol ${reading.protocolVersion}${resumedNote(reply.resumed)}`,
    );
    return null;
  }

  /** Sends the notification; only a 3xx under a policy that ends on any redirect makes it a failure. */
  private async notifyInitialized(): Promise<Failure | null> {
    const url = this.endpoint.href;
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const run = await this.exchange('POST', body, 'initialized', INITIALIZED_TIMEOUT_MS, async (response) => {
      // Only the status and headers count. The body is drained (up to a small cap, within this step's
      // 5 s) so the connection can carry tools/list; a body that stalls is dropped when the step ends.
      await drainBody(response);
      return true;
    });
    if (!run.ok) {
      this.warnings.push(`notifications/initialized: ${run.message}`);
      this.recordRun('initialized', null, url, run, run.reason, run.message);
      return null;
    }
    if (this.policy.anyRedirectEnds === true && isRedirectStatus(run.status)) {
      const message = `notifications/initialized answered ${run.status}; redirects are not followed`;
      this.recordRun('initialized', null, url, run, 'redirect-limit', message);
      return new Failure('redirect-limit', message, 'initialized', run.status);
    }
    const detail = isSuccess(run.status)
      ? null
      : `answered ${run.status}; only initialize and tools/list decide the letter`;
    this.recordRun('initialized', null, url, run, 'ok', detail);
    return null;
  }

  private toolsListBody(id: number, cursor: string | null): string {
    return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: cursor === null ? {} : { cursor } });
  }

  private async listTools(): Promise<Failure | null> {
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let page = 1; page <= this.policy.maxToolPages; page++) {
      const id = FIRST_TOOLS_LIST_REQUEST_ID + page - 1;
      const url = this.endpoint.href;
      const run = await this.exchange(
        'POST',
        this.toolsListBody(id, cursor),
        'tools/list',
        TOOLS_LIST_PAGE_TIMEOUT_MS,
        (response, signal) => this.readReply(response, id, this.policy.toolsPageCapBytes, false, signal),
      );
      const stop = (reason: ProbeReason, message: string, status: number | null): Failure | null => {
        this.recordRun('tools/list', page, url, run, reason, message);
        if (this.pages === 0) return new Failure(reason, message, 'tools/list', status);
        this.warnings.push(`tools/list page ${page} not read: ${message}`);
        return null;
      };
      if (!run.ok) return stop(run.reason, run.message, run.status);
      const reply = run.value;
      if (reply.kind === 'auth') {
        if (this.collector.count === 0) {
          this.authChallenge = reply.challenge;
          this.recordRun(
            'tools/list',
            page,
            url,
            run,
            'auth-required',
            `tools/list answered ${run.status}: sign-in needed`,
          );
          return new Failure(
            'auth-required',
            `tools/list answered ${run.status} before any tool was listed: sign-in needed`,
            'tools/list',
            run.status,
          );
        }
        return stop('auth-required', `tools/list answered ${run.status}`, run.status);
      }
      if (reply.kind === 'rate-limited') {
        if (this.pages === 0) this.retryAfterMs = reply.retryAfterMs;
        return stop(
          'rate-limited',
          `tools/list answered ${run.status}: ${describeRateLimit(reply.retryAfterMs)}`,
          run.status,
        );
      }
      if (reply.kind === 'redirect' && this.policy.anyRedirectEnds === true)
        return stop('redirect-limit', `tools/list answered ${run.status}; redirects are not followed`, run.status);
      if (reply.kind !== 'answer') {
        const detail = reply.kind === 'http-error' && reply.detail !== null ? ` (${reply.detail})` : '';
        return stop('http-error', `tools/list answered HTTP ${run.status}${detail}`, run.status);
      }
      const answer = reply.answer;
      if (answer.kind === 'over-cap')
        return stop('answer-too-large', `tools/list page ${page} is over ${answer.cap} bytes`, run.status);
      if (answer.kind === 'too-deep') return stop('too-deep', describeTooDeep(`tools/list page ${page}`), run.status);
      if (answer.kind === 'not-mcp') return stop('not-mcp', `tools/list: ${answer.detail}`, run.status);
      if (answer.kind === 'error')
        return stop(
          'jsonrpc-error',
          `tools/list was rejected: JSON-RPC error ${answer.code}: ${answer.message.slice(0, 300)}`,
          run.status,
        );
      const reading = interpretToolsPage(answer.result);
      if (!reading.ok) return stop('not-mcp', `tools/list: ${reading.detail}`, run.status);
      if (reading.warning !== null) this.warnings.push(`page ${page}: ${reading.warning}`);
      this.collector.add(reading.tools, answer.text, answer.batchIndex);
      this.pages++;
      this.recordRun('tools/list', page, url, run, 'ok', `${reading.tools.length} tools${resumedNote(reply.resumed)}`);
      const decision = decideNextPage(reading, page, this.policy.maxToolPages, seen);
      if ('stop' in decision) {
        if (decision.stop !== null) this.warnings.push(decision.stop);
        return null;
      }
      cursor = decision.next;
    }
    return null;
  }

  private async closeSession(): Promise<void> {
    if (this.sessionId === null || !this.policy.sendDelete || this.client === null) return;
    if (this.network.signal?.aborted === true || remainingMs(this.deadline) <= 0) return;
    const url = this.endpoint.href;
    const run = await this.exchange('DELETE', undefined, 'delete', DELETE_TIMEOUT_MS, async (response) => {
      await drainBody(response);
      return true;
    });
    if (!run.ok) {
      this.recordRun('delete', null, url, run, run.reason, run.message);
      return;
    }
    this.recordRun('delete', null, url, run, 'ok', isSuccess(run.status) ? null : `answered ${run.status}`);
  }

  private outcome(failure: Failure | null, elapsedMs: number): HandshakeOutcome {
    const reason: ProbeReason = failure === null ? 'ok' : failure.reason;
    const status = failure?.status ?? null;
    const notStandardMcp =
      reason === 'not-mcp' || (reason === 'http-error' && status !== null && NOT_STANDARD_MCP_STATUSES.has(status));
    const toolsJson = this.collector.toolsJson();
    const listedJson = this.collector.listedJson();
    if (this.collector.reserialized) this.warnings.push(RESERIALIZED_WARNING);
    return {
      reason,
      message: failure === null ? this.successMessage() : failure.message,
      failedStep: failure === null ? null : failure.step,
      decidingStatus: status,
      notStandardMcp,
      endpoint: this.endpoint.href,
      protocolVersion: this.protocolVersion,
      supportedVersions: this.supportedVersions,
      serverInfo: this.serverInfo,
      capabilities: this.capabilities,
      toolsDeclared: this.toolsDeclared,
      initialized: this.initialized,
      tools: this.collector.tools,
      toolsJson,
      listedJson,
      toolCount: this.collector.count,
      namedToolCount: this.collector.named,
      toolsTruncated: this.collector.truncated,
      pages: this.pages,
      paymentAddress: this.paymentAddress,
      retryAfterMs: this.retryAfterMs,
      authChallenge: this.authChallenge,
      authDiscovery: this.authDiscovery,
      sessionIssued: this.sessionId !== null,
      redirect: this.redirect,
      steps: this.steps,
      warnings: this.warnings,
      posts: this.posts,
      elapsedMs: Math.max(0, Math.round(elapsedMs)),
    };
  }

  private successMessage(): string {
    if (this.pages === 0)
      return `initialized (protocol ${this.protocolVersion ?? '?'}); no tools capability declared, tools/list not sent`;
    const kept = this.collector.truncated ? ` (first ${this.collector.tools.length} kept)` : '';
    return `answered with ${this.collector.count} tools${kept} over ${this.pages} page${this.pages === 1 ? '' : 's'} (protocol ${this.protocolVersion ?? '?'})`;
  }
}
