// Runtime-neutral module: one webhook delivery, a POST through the probe's guard, DNS pinning and time limit, so a
// webhook URL an owner gives can reach no address a check could not (no private network unless allowed, https
// only). Redirects are not followed: a 3xx is a failed delivery, as is any status outside 2xx.
import { getDocument } from './get-document.js';
import { type NetworkOptions, resolveNetworkSettings } from './options.js';

/** The bytes of an answer read at most: a receiver's body says nothing the status does not. */
const WEBHOOK_ANSWER_CAP_BYTES = 4_096;

/** What one delivery did. */
export type WebhookDelivery =
  | { ok: true; status: number; elapsedMs: number }
  | { ok: false; status: number | null; reason: string; message: string; elapsedMs: number };

/** One delivery to send. */
export interface WebhookPost {
  url: string;
  /** The JSON body, sent as is (sign these exact bytes). */
  body: string;
  /** Headers added to the request (content type, signature); the user agent is the network's. */
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
}

/**
 * POSTs a webhook delivery. Never throws for what the receiver does: a refused URL is `guard:<reason>` with
 * nothing sent, no answer in time is `timeout`, and an answer outside 2xx is `http-status` with its status.
 *
 * @example
 * await postWebhook({ url, body, headers: { 'content-type': 'application/json' }, timeoutMs: 10_000 });
 * // { ok: true, status: 204, elapsedMs: 41 }
 */
export async function postWebhook(post: WebhookPost, options?: NetworkOptions): Promise<WebhookDelivery> {
  const got = await getDocument(post.url, resolveNetworkSettings(options), {
    timeoutMs: post.timeoutMs,
    capBytes: WEBHOOK_ANSWER_CAP_BYTES,
    maxRedirects: 0,
    accept: '*/*',
    wantsBody: () => false,
    post: { body: post.body, headers: post.headers },
  });
  if (!got.ok) return { ok: false, status: null, reason: got.reason, message: got.message, elapsedMs: got.elapsedMs };
  if (got.status >= 200 && got.status < 300) return { ok: true, status: got.status, elapsedMs: got.elapsedMs };
  return {
    ok: false,
    status: got.status,
    reason: 'http-status',
    message: `the receiver answered ${got.status}`,
    elapsedMs: got.elapsedMs,
  };
}
