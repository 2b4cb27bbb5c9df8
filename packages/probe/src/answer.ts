// Pure module: reads the JSON-RPC answer to one request out of an HTTP response, as JSON or as an event
// stream whose first message carrying the request's id is the answer, under a byte cap. The envelope is
// checked with the MCP SDK's schemas; the payload is interpreted by the session.
import { JSONRPCErrorResponseSchema } from '@modelcontextprotocol/sdk/types.js';
import { decodeUtf8, type HttpResponse, mediaTypeOf, readCappedBody } from './http.js';
import { parseBoundedJson } from './json-depth.js';
import { SseParser } from './sse.js';

/** What one request got back. `text` is the JSON text holding the answer (the body, or the event's data). */
export type RpcAnswer =
  | { kind: 'result'; result: Record<string, unknown>; text: string; batchIndex: number | null }
  | { kind: 'error'; code: number; message: string; data: unknown }
  | { kind: 'not-mcp'; detail: string }
  | { kind: 'over-cap'; cap: number }
  | { kind: 'too-deep' }
  /**
   * The event stream ended without the answer after an event with an id: the server expects the client to
   * resume it (GET with Last-Event-ID, after `retryMs` when it sent one). `bytes` is what the stream cost.
   */
  | { kind: 'stream-closed'; lastEventId: string; retryMs: number | null; bytes: number };

type Located =
  | { kind: 'found'; message: unknown; batchIndex: number | null }
  | { kind: 'wrong-id'; id: unknown }
  | { kind: 'none' };

function isResponseLike(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && ('result' in value || 'error' in value)
  );
}

// A server that cannot tell which request it answers (a parse error) answers with a null or absent id.
function answersRequest(message: Record<string, unknown>, id: number): boolean {
  if (message.id === id) return true;
  return 'error' in message && (message.id === null || message.id === undefined);
}

/** Finds the answer to request `id` in a parsed JSON-RPC message or batch. */
function locateAnswer(value: unknown, id: number): Located {
  if (Array.isArray(value)) {
    let wrong: Located = { kind: 'none' };
    for (let index = 0; index < value.length; index++) {
      const element: unknown = value[index];
      if (!isResponseLike(element)) continue;
      if (answersRequest(element, id)) return { kind: 'found', message: element, batchIndex: index };
      wrong = { kind: 'wrong-id', id: element.id };
    }
    return wrong;
  }
  if (!isResponseLike(value)) return { kind: 'none' };
  return answersRequest(value, id)
    ? { kind: 'found', message: value, batchIndex: null }
    : { kind: 'wrong-id', id: value.id };
}

function withoutNullId(message: unknown): unknown {
  if (message === null || typeof message !== 'object' || (message as { id?: unknown }).id !== null) return message;
  const { id: _null, ...rest } = message as Record<string, unknown>;
  return rest;
}

function describeId(id: unknown): string {
  return JSON.stringify(id) ?? 'no id';
}

/** Checks the JSON-RPC envelope of a located answer: errors with the SDK's schema, results by hand to the same rules. */
function toAnswer(message: unknown, text: string, batchIndex: number | null): RpcAnswer {
  // JSON-RPC 2.0 answers an unreadable request with `"id": null`; the SDK schema only knows an absent id.
  const envelope = withoutNullId(message);
  // Check against the one schema the message claims to match: a failed zod parse is far dearer than a
  // successful one, and every answer goes through here.
  if ((message as Record<string, unknown>).error !== undefined) {
    const asError = JSONRPCErrorResponseSchema.safeParse(envelope);
    if (asError.success) {
      const { code, message: errorMessage, data } = asError.data.error;
      return { kind: 'error', code, message: errorMessage, data };
    }
    return { kind: 'not-mcp', detail: `the answer is not a JSON-RPC 2.0 response (${describeIssue(asError.error)})` };
  }
  // A result envelope is checked by hand, to the letter of the SDK's strict JSONRPCResultResponseSchema
  // (jsonrpc "2.0", an id, an object result, no other member), which spares a second zod pass and copy
  // over every result. The result itself is then checked with the SDK's payload schemas
  // (InitializeResultSchema, ListToolsResultSchema) by the caller.
  const problem = resultEnvelopeProblem(envelope);
  if (problem !== null) return { kind: 'not-mcp', detail: `the answer is not a JSON-RPC 2.0 response (${problem})` };
  return { kind: 'result', result: (message as { result: Record<string, unknown> }).result, text, batchIndex };
}

const RESULT_MEMBERS = new Set(['jsonrpc', 'id', 'result']);

function resultEnvelopeProblem(envelope: unknown): string | null {
  const message = envelope as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return 'jsonrpc: expected "2.0"';
  if (typeof message.id !== 'string' && !(typeof message.id === 'number' && Number.isInteger(message.id)))
    return 'id: expected a string or an integer';
  const result = message.result;
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return 'result: expected an object';
  for (const key of Object.keys(message)) if (!RESULT_MEMBERS.has(key)) return `${key}: not a member of a response`;
  return null;
}

function describeIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return `${issue?.path.map(String).join('.') || 'message'}: ${issue?.message ?? 'invalid'}`;
}

async function readJsonAnswer(response: HttpResponse, id: number, cap: number): Promise<RpcAnswer> {
  const body = await readCappedBody(response, cap);
  if (!body.ok) return { kind: 'over-cap', cap };
  if (body.bytes.byteLength === 0) return { kind: 'not-mcp', detail: 'the answer is empty' };
  const text = decodeUtf8(body.bytes);
  if (text === null) return { kind: 'not-mcp', detail: 'the answer is not valid UTF-8' };
  const parsed = parseBoundedJson(text);
  if (!parsed.ok)
    return parsed.why === 'too-deep' ? { kind: 'too-deep' } : { kind: 'not-mcp', detail: 'the answer is not JSON' };
  const located = locateAnswer(parsed.value, id);
  if (located.kind === 'found') return toAnswer(located.message, text, located.batchIndex);
  if (located.kind === 'wrong-id')
    return { kind: 'not-mcp', detail: `the answer carries id ${describeId(located.id)}, not ${id}` };
  return { kind: 'not-mcp', detail: 'the JSON holds no JSON-RPC response' };
}

async function readStreamAnswer(response: HttpResponse, id: number, cap: number): Promise<RpcAnswer> {
  if (response.body === null) return { kind: 'not-mcp', detail: 'the event stream is empty' };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parser = new SseParser();
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > cap) {
      response.discard();
      return { kind: 'over-cap', cap };
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      response.discard();
      return { kind: 'not-mcp', detail: 'the event stream is not valid UTF-8' };
    }
    for (const event of parser.push(text)) {
      if (event.event !== 'message') continue;
      const parsed = parseBoundedJson(event.data);
      if (!parsed.ok) {
        // Too deep to read safely, whether or not it is our answer: the stream is refused.
        if (parsed.why === 'too-deep') {
          response.discard();
          return { kind: 'too-deep' };
        }
        continue; // Not a JSON-RPC message: keep waiting for ours.
      }
      const located = locateAnswer(parsed.value, id);
      if (located.kind !== 'found') continue; // Notifications and other ids come before the answer.
      response.discard();
      return toAnswer(located.message, event.data, located.batchIndex);
    }
  }
  if (parser.lastEventId !== '')
    return { kind: 'stream-closed', lastEventId: parser.lastEventId, retryMs: parser.retryMs, bytes: total };
  return { kind: 'not-mcp', detail: 'the event stream ended without an answer' };
}

/**
 * Reads the answer to request `id` from a 2xx response, reading at most `cap` bytes. JSON bodies (and
 * bodies with no content type) are parsed whole, unless they nest deeper than MAX_JSON_DEPTH (`too-deep`); an event stream is read until the first message whose
 * id matches, then dropped; one that ends first after an event id is `stream-closed`, for the caller to resume.
 * Anything else (an HTML page, plain text) is not MCP. Transport errors and
 * aborts propagate to the caller, which knows which limit fired.
 */
export async function readRpcAnswer(response: HttpResponse, id: number, cap: number): Promise<RpcAnswer> {
  const mediaType = mediaTypeOf(response.headers.get('content-type'));
  if (mediaType === 'text/event-stream') return readStreamAnswer(response, id, cap);
  if (mediaType === '' || mediaType === 'application/json' || mediaType.endsWith('+json')) {
    return readJsonAnswer(response, id, cap);
  }
  response.discard();
  return { kind: 'not-mcp', detail: `the answer is ${mediaType}, not JSON or an event stream` };
}

/**
 * Reads an error body (any status) for what it says: a JSON-RPC error's code, message and data, or
 * nothing. Used to explain HTTP errors and to find payment details; never throws.
 */
export async function readErrorBody(
  response: HttpResponse,
  cap: number,
): Promise<{ text: string | null; json: unknown }> {
  try {
    const body = await readCappedBody(response, cap);
    if (!body.ok) return { text: null, json: undefined };
    const text = decodeUtf8(body.bytes);
    if (text === null) return { text: null, json: undefined };
    // An error body too deep to read says nothing we use; it is kept as text only.
    const parsed = parseBoundedJson(text);
    return { text, json: parsed.ok ? parsed.value : undefined };
  } catch {
    return { text: null, json: undefined };
  } finally {
    response.discard();
  }
}
