// Pure module: where a server that answered 402 asks agents to pay, read x402-style. A change of that
// address between two checks is reported by the app, so only a plausible, bounded string is kept.
import { MAX_PAYMENT_ADDRESS_LENGTH, PAYMENT_HEADER_CAP_CHARS } from './constants.js';
import type { HeaderReader } from './http.js';
import { parseBoundedJson } from './json-depth.js';

function firstPayTo(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  const accepts = (value as { accepts?: unknown }).accepts;
  if (!Array.isArray(accepts)) return null;
  for (const option of accepts) {
    if (option === null || typeof option !== 'object') continue;
    const payTo = (option as { payTo?: unknown }).payTo;
    if (typeof payTo === 'string' && isPlausibleAddress(payTo)) return payTo;
  }
  return null;
}

function isPlausibleAddress(text: string): boolean {
  // Visible ASCII only: an address is an identifier, and anything else would be odd to show or compare.
  return text.length > 0 && text.length <= MAX_PAYMENT_ADDRESS_LENGTH && /^[\x21-\x7e]+$/.test(text);
}

function decodeBase64Json(text: string): unknown {
  if (text.length > PAYMENT_HEADER_CAP_CHARS) return undefined;
  try {
    const normalized = text.trim().replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(normalized);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const parsed = parseBoundedJson(new TextDecoder().decode(bytes));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the payment address of a 402 answer, or null. In order: the x402 v2 `PAYMENT-REQUIRED` header
 * (base64 JSON), then the body as x402 v1 JSON (`accepts[].payTo`) or as a
 * JSON-RPC error whose `data` carries the same object. The first plausible address wins.
 *
 * @example
 * parsePaymentAddress(headers, { x402Version: 1, accepts: [{ payTo: '0xabc' }] }) // '0xabc'
 */
export function parsePaymentAddress(headers: HeaderReader, body: unknown): string | null {
  const header = headers.get('payment-required');
  if (header !== null) {
    const fromHeader = firstPayTo(decodeBase64Json(header));
    if (fromHeader !== null) return fromHeader;
  }
  const fromBody = firstPayTo(body);
  if (fromBody !== null) return fromBody;
  if (body !== null && typeof body === 'object') {
    const error = (body as { error?: unknown }).error;
    if (error !== null && typeof error === 'object') return firstPayTo((error as { data?: unknown }).data);
  }
  return null;
}
