import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRpcAnswer } from '../src/answer.js';
import { startStep } from '../src/clock.js';
import {
  classifyTransportError,
  createFetchHttpClient,
  drainBody,
  type HttpResponse,
  readCappedBody,
} from '../src/http.js';
import {
  decideNextPage,
  interpretInitializeResult,
  interpretToolsPage,
  supportedVersionsFrom,
  ToolCollector,
} from '../src/interpret.js';
import { locateToolsArray } from '../src/json-span.js';
import { parsePaymentAddress } from '../src/payment.js';
import { SseParser } from '../src/sse.js';
import { scaledClock } from './fixtures/env.js';

function headers(values: Record<string, string>) {
  return { get: (name: string) => values[name.toLowerCase()] ?? null };
}

function response(
  chunks: (string | Uint8Array)[],
  contentType: string | null = 'application/json',
): HttpResponse & { discarded: () => boolean } {
  let discarded = false;
  const bytes = chunks.map((c) => (typeof c === 'string' ? new TextEncoder().encode(c) : c));
  return {
    status: 200,
    headers: headers(contentType === null ? {} : { 'content-type': contentType }),
    body: (async function* () {
      for (const chunk of bytes) yield chunk;
    })(),
    discard: () => {
      discarded = true;
    },
    discarded: () => discarded,
  };
}

describe('SseParser', () => {
  it('dispatches on blank lines, joins data lines, skips comments and names the event type', () => {
    const parser = new SseParser();
    expect(parser.push(': hello\n\nevent: note\ndata: a\ndata:b\n\ndata: {"x":1}\n\n')).toEqual([
      { event: 'note', data: 'a\nb' },
      { event: 'message', data: '{"x":1}' },
    ]);
  });

  it('handles CR, LF and CRLF, also split across chunks, and never dispatches an unfinished event', () => {
    const parser = new SseParser();
    expect(parser.push('data: one\r')).toEqual([]);
    expect(parser.push('\n\r\ndata: two\r\r')).toEqual([
      { event: 'message', data: 'one' },
      { event: 'message', data: 'two' },
    ]);
    expect(parser.push('data: three')).toEqual([]);
    expect(parser.push('\n')).toEqual([]);
  });

  it('gives the same events however the stream is cut (property)', () => {
    const text = 'event: message\r\ndata: {"id":1}\r\n\r\n: c\ndata: x\ndata: y\n\ndata: z\r\r';
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const parser = new SseParser();
        const events = [];
        let last = 0;
        for (const point of [...points, text.length]) {
          events.push(...parser.push(text.slice(last, point)));
          last = point;
        }
        expect(events).toEqual([
          { event: 'message', data: '{"id":1}' },
          { event: 'message', data: 'x\ny' },
          { event: 'message', data: 'z' },
        ]);
      }),
    );
  });
});

describe('readRpcAnswer', () => {
  it('reads a JSON result and keeps its text', async () => {
    const answer = await readRpcAnswer(response(['{"jsonrpc":"2.0",', '"id":4,"result":{"tools":[]}}']), 4, 1024);
    expect(answer).toEqual({
      kind: 'result',
      result: { tools: [] },
      text: '{"jsonrpc":"2.0","id":4,"result":{"tools":[]}}',
      batchIndex: null,
    });
  });

  it('takes the first event whose id matches and stops reading', async () => {
    const r = response(
      [
        'data: {"jsonrpc":"2.0","id":9,"result":{}}\n\n',
        'data: {"jsonrpc":"2.0","id":1,"result":{"a":1}}\n\n',
        'data: never read\n\n',
      ],
      'text/event-stream',
    );
    expect(await readRpcAnswer(r, 1, 1024)).toMatchObject({ kind: 'result', result: { a: 1 } });
    expect(r.discarded()).toBe(true);
  });

  it('an error without an id answers the request (the server could not read it)', async () => {
    expect(
      await readRpcAnswer(
        response(['{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}']),
        1,
        1024,
      ),
    ).toEqual({
      kind: 'error',
      code: -32700,
      message: 'Parse error',
      data: undefined,
    });
  });

  it.each([
    [['{"jsonrpc":"2.0","id":2,"result":{}}'], 'application/json', 'id 2'],
    [['{"id":1,"result":{}}'], 'application/json', 'JSON-RPC 2.0'],
    [['{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":1}}'], 'application/json', 'JSON-RPC 2.0'],
    [['oops'], 'application/json', 'not JSON'],
    [[''], 'application/json', 'empty'],
    [['{"status":"ok"}'], 'application/json', 'no JSON-RPC response'],
    [['<p>hi</p>'], 'text/html', 'text/html'],
    [['data: {"jsonrpc":"2.0","id":7,"result":{}}\n\n'], 'text/event-stream', 'ended without an answer'],
    [[new Uint8Array([0x7b, 0xff, 0x7d])], 'application/json', 'UTF-8'],
  ])('%j as %s is not MCP (%s)', async (chunks, type, detail) => {
    const answer = await readRpcAnswer(response(chunks, type), 1, 1024);
    expect(answer.kind).toBe('not-mcp');
    expect(answer.kind === 'not-mcp' && answer.detail).toContain(detail);
  });

  it('reads a body with no content type as JSON', async () => {
    expect(await readRpcAnswer(response(['{"jsonrpc":"2.0","id":1,"result":{}}'], null), 1, 1024)).toMatchObject({
      kind: 'result',
    });
  });

  it('stops at the cap: exactly the cap is read, one byte more is over', async () => {
    const text = '{"jsonrpc":"2.0","id":1,"result":{}}';
    expect(await readRpcAnswer(response([text]), 1, text.length)).toMatchObject({ kind: 'result' });
    expect(await readRpcAnswer(response([text]), 1, text.length - 1)).toEqual({
      kind: 'over-cap',
      cap: text.length - 1,
    });
    const sse = 'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n';
    expect(await readRpcAnswer(response([sse], 'text/event-stream'), 1, sse.length - 1)).toEqual({
      kind: 'over-cap',
      cap: sse.length - 1,
    });
  });
});

describe('body helpers', () => {
  it('readCappedBody keeps the first cap bytes when over', async () => {
    const r = response(['abc', 'defg']);
    const body = await readCappedBody(r, 5);
    expect(body.ok).toBe(false);
    expect(body.ok === false && new TextDecoder().decode(body.head)).toBe('abcde');
    expect(r.discarded()).toBe(true);
    expect(await readCappedBody(response(['abc', 'de']), 5)).toEqual({
      ok: true,
      bytes: new TextEncoder().encode('abcde'),
    });
  });

  it('drainBody never throws, even on a broken body', async () => {
    const broken: HttpResponse = {
      status: 202,
      headers: headers({}),
      body: (async function* () {
        yield new Uint8Array(1);
        throw new Error('reset');
      })(),
      discard: () => undefined,
    };
    await expect(drainBody(broken)).resolves.toBeUndefined();
  });

  it.each([
    [{ code: 'HPE_HEADER_OVERFLOW' }, 'invalid-http'],
    [new TypeError('fetch failed', { cause: { code: 'UND_ERR_HEADERS_OVERFLOW' } }), 'invalid-http'],
    [{ code: 'HPE_INVALID_CONSTANT' }, 'invalid-http'],
    [{ code: 'Z_DATA_ERROR' }, 'invalid-http'],
    [{ code: 'CERT_HAS_EXPIRED' }, 'tls-error'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'tls-error'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'tls-error'],
    [new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }), 'no-connection'],
    [new Error('anything else'), 'no-connection'],
  ])('classifyTransportError(%j) is %s', (error, failure) => {
    expect(classifyTransportError(error).failure).toBe(failure);
  });

  it('the fetch client asks for manual redirects and Connection: close, and passes the body through', async () => {
    const seen: RequestInit[] = [];
    const client = createFetchHttpClient(async (_url, init) => {
      seen.push(init);
      return new Response('hello', { status: 201, headers: { 'x-a': '1' } });
    })();
    const controller = new AbortController();
    const answer = await client.request({
      url: 'https://a.example.com/',
      method: 'POST',
      headers: { accept: 'x' },
      body: '{}',
      signal: controller.signal,
      addresses: null,
    });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      redirect: 'manual',
      body: '{}',
      headers: { accept: 'x', connection: 'close' },
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('X-A')).toBe('1');
    const body = await readCappedBody(answer, 100);
    expect(body.ok && new TextDecoder().decode(body.bytes)).toBe('hello');
    client.close();
  });
});

describe('step limits', () => {
  it('fires the step limit, or the deadline when it comes first, or the caller abort at once', async () => {
    const clock = scaledClock(1);
    const step = startStep({ clock, endsAt: null, signal: undefined }, 20);
    await new Promise((r) => setTimeout(r, 60));
    expect(step.cause()).toBe('timeout');
    step.dispose();

    const deadlineStep = startStep({ clock, endsAt: clock.now() + 10, signal: undefined }, 1_000);
    await new Promise((r) => setTimeout(r, 60));
    expect(deadlineStep.cause()).toBe('deadline');
    deadlineStep.dispose();

    const controller = new AbortController();
    controller.abort();
    const aborted = startStep({ clock, endsAt: null, signal: controller.signal }, 1_000);
    expect(aborted.cause()).toBe('aborted');
    expect(aborted.signal.aborted).toBe(true);
    aborted.dispose();

    const past = startStep({ clock, endsAt: clock.now() - 1, signal: undefined }, 1_000);
    expect(past.cause()).toBe('deadline');
    past.dispose();
  });
});

describe('interpreting results', () => {
  it('an initialize result must name a protocol version; the rest is tolerated with a warning', () => {
    expect(
      interpretInitializeResult({
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 's', version: '1' },
      }),
    ).toEqual({
      ok: true,
      protocolVersion: '2025-06-18',
      serverInfo: { name: 's', version: '1' },
      capabilities: { tools: {} },
      toolsDeclared: true,
      warning: null,
    });
    const loose = interpretInitializeResult({ protocolVersion: 'x' });
    expect(loose).toMatchObject({ ok: true, serverInfo: null, toolsDeclared: false });
    expect(loose.ok && loose.warning).toContain('does not match');
    expect(interpretInitializeResult({ protocolVersion: 3 })).toMatchObject({ ok: false });
    expect(interpretInitializeResult({ protocolVersion: '', capabilities: {} })).toMatchObject({ ok: false });
    expect(interpretInitializeResult({ protocolVersion: 'v', capabilities: { tools: null } })).toMatchObject({
      toolsDeclared: false,
    });
  });

  it('a tools page needs a tools array; cursor types are checked', () => {
    expect(interpretToolsPage({ tools: [], nextCursor: 'n' })).toMatchObject({
      ok: true,
      nextCursor: 'n',
      cursorInvalid: false,
      warning: null,
    });
    expect(interpretToolsPage({ tools: [], nextCursor: '' })).toMatchObject({
      ok: true,
      nextCursor: null,
      cursorInvalid: true,
    });
    expect(interpretToolsPage({ tools: [], nextCursor: 3 })).toMatchObject({
      ok: true,
      nextCursor: null,
      cursorInvalid: true,
    });
    expect(interpretToolsPage({ tools: [], nextCursor: null })).toMatchObject({ ok: true, cursorInvalid: false });
    expect(interpretToolsPage({ tool: [] })).toMatchObject({ ok: false });
  });

  it('paging stops on a repeated cursor, at the page limit, and on no cursor', () => {
    const seen = new Set<string>();
    expect(decideNextPage({ nextCursor: 'a', cursorInvalid: false }, 1, 3, seen)).toEqual({ next: 'a' });
    expect(decideNextPage({ nextCursor: 'b', cursorInvalid: false }, 2, 3, seen)).toEqual({ next: 'b' });
    expect(decideNextPage({ nextCursor: 'c', cursorInvalid: false }, 3, 3, seen)).toMatchObject({
      stop: expect.stringContaining('more than 3'),
    });
    expect(decideNextPage({ nextCursor: 'a', cursorInvalid: false }, 2, 3, seen)).toMatchObject({
      stop: expect.stringContaining('repeats'),
    });
    expect(decideNextPage({ nextCursor: null, cursorInvalid: false }, 1, 3, seen)).toEqual({ stop: null });
  });

  it('reads supported versions from error data', () => {
    expect(supportedVersionsFrom({ supported: ['a', 2, 'b'] })).toEqual(['a', 'b']);
    expect(supportedVersionsFrom({ supported: [] })).toBeNull();
    expect(supportedVersionsFrom('x')).toBeNull();
  });
});

describe('toolsJson from raw text', () => {
  it('a single page is handed over unchanged', () => {
    const text = '{"result": {"tools" : [ {"a":"}"} , {"b":"\\"]"} ] }, "id":2, "jsonrpc":"2.0"}';
    const collector = new ToolCollector(500);
    collector.add(JSON.parse(text).result.tools, text, null);
    expect(collector.toolsJson()).toBe('[ {"a":"}"} , {"b":"\\"]"} ]');
  });

  it('a page without raw text (or text that does not hold it) is re-serialized, and flagged', () => {
    const collector = new ToolCollector(10);
    collector.add([{ n: 1 }], '{"result":{"other":[]}}', null);
    collector.add([{ n: 2 }], null, null);
    expect(collector.toolsJson()).toBe('[{"n":1},{"n":2}]');
    expect(collector.reserialized).toBe(true);
  });

  it('finds keys written with escapes, as JSON.parse reads them', () => {
    const text = '{"\\u0072esult":{"t\\u006fols":[ {"a":1} ]}}';
    expect(JSON.parse(text)).toEqual({ result: { tools: [{ a: 1 }] } });
    const collector = new ToolCollector(10);
    collector.add([{ a: 1 }], text, null);
    expect(collector.toolsJson()).toBe('[ {"a":1} ]');
  });

  it('the last duplicate key wins, as in JSON.parse', () => {
    const text = '{"result":{"tools":[1],"tools":[2,3]}}';
    expect(locateToolsArray(text, null)?.elements.map((s) => text.slice(s.start, s.end))).toEqual(['2', '3']);
  });

  it('a cap splits the raw elements at the limit', () => {
    const collector = new ToolCollector(3);
    const first = '{"result":{"tools":[{"n":1},{"n":2}]}}';
    const second = '{"result":{"tools":[ {"n":3}, {"n":4} ]}}';
    collector.add([{ n: 1 }, { n: 2 }], first, null);
    collector.add([{ n: 3 }, { n: 4 }], second, null);
    expect(collector).toMatchObject({ count: 4, truncated: true });
    expect(collector.toolsJson()).toBe('[{"n":1},{"n":2},{"n":3}]');
  });

  it('for any tools array, spacing and escapes included, the kept text parses back to the kept tools (property)', () => {
    const tool = fc.record({
      name: fc.string(),
      description: fc.option(fc.string(), { nil: undefined }),
      extra: fc.jsonValue(),
    });
    const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');
    fc.assert(
      fc.property(
        fc.array(tool, { maxLength: 12 }),
        space,
        space,
        fc.integer({ min: 0, max: 14 }),
        (tools, a, b, limit) => {
          const parts = tools.map((t) => JSON.stringify(t, null, a === '' ? undefined : 1));
          const text = `{${a}"jsonrpc":"2.0","id":2,"result":${b}{"tools":${a}[${b}${parts.join(`${a},${b}`)}${a}]${b}}}`;
          const parsed = JSON.parse(text).result.tools as unknown[];
          const collector = new ToolCollector(limit);
          collector.add(parsed, text, null);
          expect(JSON.parse(collector.toolsJson() ?? 'null')).toEqual(parsed.slice(0, limit));
          expect(collector.reserialized).toBe(false);
          if (limit >= tools.length)
            expect(collector.toolsJson()).toBe(text.slice(text.indexOf('['), text.lastIndexOf(']') + 1));
        },
      ),
    );
  });
});

describe('parsePaymentAddress', () => {
  const b64 = (value: unknown) => btoa(JSON.stringify(value));

  it('reads the x402 v2 header first, then the v1 body, then a JSON-RPC error data', () => {
    expect(
      parsePaymentAddress(headers({ 'payment-required': b64({ accepts: [{ payTo: 'H' }] }) }), {
        accepts: [{ payTo: 'B' }],
      }),
    ).toBe('H');
    expect(parsePaymentAddress(headers({}), { accepts: [{ scheme: 'exact' }, { payTo: 'B2' }] })).toBe('B2');
    expect(
      parsePaymentAddress(headers({}), {
        jsonrpc: '2.0',
        error: { code: 402, message: 'pay', data: { accepts: [{ payTo: 'E' }] } },
      }),
    ).toBe('E');
  });

  it('ignores garbage, over-long and non-ASCII addresses', () => {
    expect(parsePaymentAddress(headers({ 'payment-required': '%%%not base64' }), null)).toBeNull();
    expect(parsePaymentAddress(headers({}), { accepts: [{ payTo: 'x'.repeat(257) }] })).toBeNull();
    expect(parsePaymentAddress(headers({}), { accepts: [{ payTo: 'x'.repeat(256) }] })).toBe('x'.repeat(256));
    expect(parsePaymentAddress(headers({}), { accepts: [{ payTo: 'has space' }] })).toBeNull();
    expect(parsePaymentAddress(headers({}), 'text')).toBeNull();
  });
});
