// Runtime-neutral module (no node: imports; network only through the injected client): one guarded GET of a small
// document (robots.txt, a well-known file, a server card, the /mcp GET, a registry page), or one guarded POST of a
// webhook delivery, with the same guard, DNS pinning, time limit and size cap as the MCP session, and redirects
// followed only when asked (each hop guarded).
import { type Deadline, startStep } from './clock.js';
import { ACCEPT_ENCODING, REDIRECT_STATUSES } from './constants.js';
import { checkTarget, resolveTarget } from './guard.js';
import { classifyTransportError, type HeaderReader, readCappedBody } from './http.js';
import type { NetworkSettings } from './options.js';

/** @internal How to fetch one document. */
export interface GetOptions {
  readonly timeoutMs: number;
  readonly capBytes: number;
  /** Redirect hops followed (0: a redirect is returned as is). */
  readonly maxRedirects: number;
  readonly accept: string;
  /** An overall deadline shared with other steps, if any. */
  readonly deadline?: Deadline;
  /**
   * Decides from the status and headers whether the body is read at all. When it says no, the body is
   * dropped unread and `bytes` is empty: an event stream may never end, so waiting for its end would spend
   * the whole time limit on an answer its headers already settled. Without it every body is read.
   */
  readonly wantsBody?: (status: number, headers: HeaderReader) => boolean;
  /** Sends a POST with this body and these headers instead of a GET (a webhook delivery); `accept` still applies. */
  readonly post?: { readonly body: string; readonly headers: Readonly<Record<string, string>> };
}

/** @internal What one GET got: a status and a (possibly truncated) body, or why there was no answer. */
export type GetResult =
  | {
      ok: true;
      url: string;
      status: number;
      headers: HeaderReader;
      /** The body; when `overCap`, only its first `capBytes`. */
      bytes: Uint8Array;
      overCap: boolean;
      elapsedMs: number;
    }
  | { ok: false; url: string; reason: string; message: string; elapsedMs: number };

/**
 * GETs `url` within `timeoutMs` (redirect hops included), reading at most `capBytes`. The guard and the
 * address check run before each hop; a refusal is returned with its `guard:` reason and nothing is sent.
 */
export async function getDocument(url: string, network: NetworkSettings, options: GetOptions): Promise<GetResult> {
  const deadline: Deadline = options.deadline ?? { clock: network.clock, endsAt: null, signal: network.signal };
  const timer = startStep(deadline, options.timeoutMs);
  const client = network.makeClient();
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const guard = checkTarget(current, { allowPrivate: network.allowPrivate, optedOut: network.optedOut });
      if (!guard.ok)
        return { ok: false, url: current, reason: guard.reason, message: guard.message, elapsedMs: timer.elapsed() };
      const resolved = await resolveTarget(current, {
        allowPrivate: network.allowPrivate,
        ...(network.lookup === undefined ? {} : { lookup: network.lookup }),
        signal: timer.signal,
      });
      const early = timer.cause();
      if (early !== null)
        return {
          ok: false,
          url: current,
          reason: early,
          message: `no answer within ${options.timeoutMs} ms`,
          elapsedMs: timer.elapsed(),
        };
      if (!resolved.ok)
        return {
          ok: false,
          url: current,
          reason: resolved.reason,
          message: resolved.message,
          elapsedMs: timer.elapsed(),
        };
      const headers = { 'user-agent': network.userAgent, accept: options.accept, 'accept-encoding': ACCEPT_ENCODING };
      const response = await client.request({
        url: current,
        signal: timer.signal,
        addresses: resolved.addresses,
        ...(options.post === undefined
          ? { method: 'GET', headers }
          : { method: 'POST', headers: { ...options.post.headers, ...headers }, body: options.post.body }),
      });
      const location = response.headers.get('location');
      if (REDIRECT_STATUSES.has(response.status) && location !== null && hop < options.maxRedirects) {
        response.discard();
        try {
          current = new URL(location, current).href;
        } catch {
          return {
            ok: false,
            url: current,
            reason: 'redirect-invalid',
            message: `unusable Location: ${location.slice(0, 200)}`,
            elapsedMs: timer.elapsed(),
          };
        }
        continue;
      }
      if (options.wantsBody !== undefined && !options.wantsBody(response.status, response.headers)) {
        response.discard();
        return {
          ok: true,
          url: current,
          status: response.status,
          headers: response.headers,
          bytes: new Uint8Array(0),
          overCap: false,
          elapsedMs: timer.elapsed(),
        };
      }
      const body = await readCappedBody(response, options.capBytes);
      return {
        ok: true,
        url: current,
        status: response.status,
        headers: response.headers,
        bytes: body.ok ? body.bytes : body.head,
        overCap: !body.ok,
        elapsedMs: timer.elapsed(),
      };
    }
  } catch (error) {
    const cause = timer.cause();
    if (cause !== null)
      return {
        ok: false,
        url: current,
        reason: cause,
        message: `no answer within ${options.timeoutMs} ms`,
        elapsedMs: timer.elapsed(),
      };
    const { failure, message } = classifyTransportError(error);
    return { ok: false, url: current, reason: failure, message, elapsedMs: timer.elapsed() };
  } finally {
    timer.dispose();
    client.close();
  }
}
