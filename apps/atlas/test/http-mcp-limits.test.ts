// POST /mcp cannot be used to fill the disk or the memory: a JSON-RPC batch carries at most
// MCP_ENDPOINT_RULES.batchMaxMessages messages (a longer one is refused whole and runs nothing), each network may make
// MCP_ENDPOINT_RULES' tool calls per minute and per UTC day (429 with Retry-After past them), each network and
// the endpoint as a whole answer a bounded number of requests at once (429 and 503), and the call log writes at
// most MCP_ENDPOINT_RULES.callLogLinesPerDay lines a day (later calls are answered and counted, not written, and
// the count is logged). The real app on 127.0.0.1; networks are told apart by X-Forwarded-For (one trusted
// hop); the limits read the fixture's injected clock, and held requests wait on gates the test opens, so no
// verdict rests on wall time.
import { MCP_ENDPOINT_RULES } from '@mcp-atlas/operations/rules';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpCallLogPath } from '../src/data/paths.js';
import type { HttpDeps } from '../src/http/app.js';
import { MCP_REQUESTS_IN_FLIGHT_MAX, MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX } from '../src/http/limits.js';
import { FIXTURE_NOW, type RunningFixture, startFixture, TODAY } from './fixtures/http-atlas.js';
import { waitFor } from './setup/wait-for.js';

const fixtures: RunningFixture[] = [];

afterEach(async () => {
  while (fixtures.length > 0) await fixtures.pop()!.close();
});

async function start(deps: Partial<HttpDeps> = {}): Promise<RunningFixture> {
  const f = await startFixture({ deps });
  fixtures.push(f);
  return f;
}

/** The address of the n-th test network (each its own /24). */
const network = (n: number): string => `198.51.${n}.10`;

/** A find_tool call as a JSON-RPC request. */
const findTool = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'find_tool', arguments: { query: 'list my notes', limit: 1 } },
});

/** `count` find_tool calls, numbered from `first`. */
const findTools = (count: number, first = 1) => Array.from({ length: count }, (_, i) => findTool(first + i));

interface McpAnswer {
  status: number;
  retryAfter: string | null;
  body: any;
}

/** POSTs one JSON-RPC message or batch to /mcp from `address`. */
async function post(f: RunningFixture, body: unknown, address: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${f.base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-forwarded-for': address,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: text === '' ? null : JSON.parse(text),
  } satisfies McpAnswer;
}

/** Lines in the call log of `day`. */
async function callLogLines(f: RunningFixture, day = TODAY): Promise<number> {
  const bytes = await f.storage.get(mcpCallLogPath(day));
  return bytes === null
    ? 0
    : new TextDecoder()
        .decode(bytes)
        .split('\n')
        .filter((line) => line !== '').length;
}

/** Makes `count` calls from `address` in batches of MCP_ENDPOINT_RULES.batchMaxMessages, expecting each batch to be answered. */
async function spend(f: RunningFixture, address: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += MCP_ENDPOINT_RULES.batchMaxMessages) {
    const answer = await post(
      f,
      findTools(Math.min(MCP_ENDPOINT_RULES.batchMaxMessages, count - done), done + 1),
      address,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
}

describe('the batch limit', () => {
  it(`answers a batch of ${MCP_ENDPOINT_RULES.batchMaxMessages} tool calls and refuses one of ${MCP_ENDPOINT_RULES.batchMaxMessages + 1} whole`, async () => {
    const f = await start();
    const at = await post(f, findTools(MCP_ENDPOINT_RULES.batchMaxMessages), network(1));
    expect(at.status).toBe(200);
    expect(at.body).toHaveLength(MCP_ENDPOINT_RULES.batchMaxMessages);
    expect(at.body.every((answer: any) => answer.result?.isError !== true)).toBe(true);
    await waitFor(
      'the batch’s calls are logged',
      async () => (await callLogLines(f)) === MCP_ENDPOINT_RULES.batchMaxMessages,
    );

    const over = await post(f, findTools(MCP_ENDPOINT_RULES.batchMaxMessages + 1), network(2));
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, data: { limit: MCP_ENDPOINT_RULES.batchMaxMessages } },
    });
    expect(over.body.error.message).toContain(`at most ${MCP_ENDPOINT_RULES.batchMaxMessages} messages`);
    // Nothing ran: no line was logged, and the network's allowance is whole.
    expect(await callLogLines(f)).toBe(MCP_ENDPOINT_RULES.batchMaxMessages);
    await spend(f, network(2), MCP_ENDPOINT_RULES.toolCallsPerNetworkPerMinute);
  });

  it('still answers a single message and a short batch of other methods as before', async () => {
    const f = await start();
    const single = await post(f, findTool(7), network(1));
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ jsonrpc: '2.0', id: 7 });
    const listed = await post(f, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], network(1));
    expect(listed.status).toBe(200);
    // The transport answers a batch of one request with that one answer.
    expect(listed.body.result.tools).toHaveLength(4);
  });
});

describe('the tool calls per network and minute', () => {
  it(`takes ${MCP_ENDPOINT_RULES.toolCallsPerNetworkPerMinute} calls a minute from one network, refuses the next, and takes more the next minute`, async () => {
    const f = await start();
    const perMinute = MCP_ENDPOINT_RULES.toolCallsPerNetworkPerMinute;
    f.setNow(new Date('2026-12-01T10:00:15.000Z'));
    await spend(f, network(1), perMinute - 1); // just under
    expect((await post(f, findTool(100), network(1))).status).toBe(200); // at
    const over = await post(f, findTool(101), network(1)); // just over
    expect(over.status).toBe(429);
    expect(over.retryAfter).toBe('45');
    expect(over.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, data: { reason: 'network_minute_limit', limit: perMinute } },
    });
    // Another address of the same /24 is the same network; another network has its own allowance.
    expect((await post(f, findTool(102), '198.51.1.200')).status).toBe(429);
    expect((await post(f, findTool(103), network(2))).status).toBe(200);
    // A request without tool calls is not counted against the allowance.
    expect((await post(f, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, network(1))).status).toBe(200);
    // A batch that would pass the allowance is refused whole, even though part of it would fit.
    f.setNow(new Date('2026-12-01T10:01:00.000Z'));
    await spend(f, network(1), perMinute - 5);
    const partly = await post(f, findTools(6), network(1));
    expect(partly.status).toBe(429);
    expect((await post(f, findTools(5), network(1))).status).toBe(200);
    await waitFor('every answered call is logged', async () => (await callLogLines(f)) === 2 * perMinute + 1);
  });
});

describe('the tool calls per network and UTC day', () => {
  it(`takes ${MCP_ENDPOINT_RULES.toolCallsPerNetworkPerDay} calls a day from one network, refuses the next until midnight`, async () => {
    const f = await start();
    const perDay = MCP_ENDPOINT_RULES.toolCallsPerNetworkPerDay;
    const perMinute = MCP_ENDPOINT_RULES.toolCallsPerNetworkPerMinute;
    // Spread over minutes, so that only the daily allowance can refuse.
    let minute = 0;
    for (let done = 0; done < perDay - 1; done += perMinute) {
      f.setNow(new Date(FIXTURE_NOW.getTime() + minute++ * 60_000));
      await spend(f, network(1), Math.min(perMinute, perDay - 1 - done));
    }
    f.setNow(new Date(FIXTURE_NOW.getTime() + minute++ * 60_000));
    expect((await post(f, findTool(1), network(1))).status).toBe(200); // the 1,000th
    f.setNow(new Date('2026-12-01T23:59:30.000Z'));
    const over = await post(f, findTool(2), network(1));
    expect(over.status).toBe(429);
    expect(over.retryAfter).toBe('30');
    expect(over.body.error.data).toEqual({ reason: 'network_daily_limit', limit: perDay });
    f.setNow(new Date('2026-12-02T00:00:00.000Z'));
    expect((await post(f, findTool(3), network(1))).status).toBe(200);
  });
});

describe('requests in flight', () => {
  /** A license check that holds every report_road call until `open` is called, counting those it holds. */
  function heldLicenses() {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const held = { count: 0 };
    const validateLicense = async (): Promise<boolean> => {
      held.count++;
      await gate;
      return false;
    };
    return { validateLicense, held, open };
  }

  const reportRoad = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'report_road', arguments: { server: 'notes-hub', tool: 'list_notes', ok: true } },
  });
  const licensed = { 'x-mcp-atlas-license': 'lic-held-0000' };

  it(`answers ${MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX} requests of one network at once, refuses the next with 429, and lets other networks in`, async () => {
    const { validateLicense, held, open } = heldLicenses();
    const f = await start({ validateLicense });
    const pending = Array.from({ length: MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX }, (_, i) =>
      post(f, reportRoad(i), network(1), licensed),
    );
    try {
      await waitFor(
        'every request of the network is held',
        () => held.count === MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX,
      );
      const over = await post(f, findTool(1), network(1));
      expect(over.status).toBe(429);
      expect(over.retryAfter).toBe('1');
      expect(over.body.error.data).toEqual({
        reason: 'network_in_flight_limit',
        limit: MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX,
      });
      expect((await post(f, findTool(2), network(2))).status).toBe(200);
    } finally {
      // Held requests end before the server closes, whatever the verdict.
      open();
      await Promise.allSettled(pending);
    }
    for (const answer of await Promise.all(pending)) expect(answer.status).toBe(200);
    expect((await post(f, findTool(3), network(1))).status).toBe(200);
  });

  it(`answers ${MCP_REQUESTS_IN_FLIGHT_MAX} requests at once in all, refuses the next with 503, and takes it once one ends`, async () => {
    const { validateLicense, held, open } = heldLicenses();
    const f = await start({ validateLicense });
    const networks = MCP_REQUESTS_IN_FLIGHT_MAX / MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX;
    const pending = Array.from({ length: MCP_REQUESTS_IN_FLIGHT_MAX }, (_, i) =>
      post(f, reportRoad(i), network(10 + (i % networks)), licensed),
    );
    try {
      await waitFor('every request is held', () => held.count === MCP_REQUESTS_IN_FLIGHT_MAX);
      const over = await post(f, findTool(1), network(99));
      expect(over.status).toBe(503);
      expect(over.retryAfter).toBe('1');
      expect(over.body.error.data).toEqual({ reason: 'in_flight_limit', limit: MCP_REQUESTS_IN_FLIGHT_MAX });
    } finally {
      open();
      await Promise.allSettled(pending);
    }
    for (const answer of await Promise.all(pending)) expect(answer.status).toBe(200);
    expect((await post(f, findTool(2), network(99))).status).toBe(200);
  });
});

describe('the call log’s daily cap', () => {
  it(`writes the ${MCP_ENDPOINT_RULES.callLogLinesPerDay}th line of a day, then counts calls without writing them, and logs the count once`, async () => {
    const cap = MCP_ENDPOINT_RULES.callLogLinesPerDay;
    const events: Record<string, unknown>[] = [];
    const logger = {
      info: () => undefined,
      warn: (fields: object) => void events.push(fields as Record<string, unknown>),
    };
    const f = await start({ logger });
    // The day's log already holds all but one line (written before a restart, say): the cap counts them.
    const earlier = `${JSON.stringify({ tool: 'find_tool', at: FIXTURE_NOW.toISOString(), client: 'x', country: 'unknown', agent: 'a' })}\n`;
    await f.storage.put(mcpCallLogPath(TODAY), new TextEncoder().encode(earlier.repeat(cap - 1)));
    const full = () => events.filter((event) => event.event === 'mcp_call_log_full');

    expect((await post(f, findTool(1), network(1))).status).toBe(200); // the line at the cap
    await waitFor('the call at the cap is written', async () => (await callLogLines(f)) === cap);
    expect(full()).toEqual([]);

    expect((await post(f, findTool(2), network(1))).status).toBe(200); // answered, not written
    await waitFor('the call past the cap is decided', async () => full().length > 0 || (await callLogLines(f)) > cap);
    expect(await callLogLines(f)).toBe(cap);
    expect(full()).toEqual([{ event: 'mcp_call_log_full', day: TODAY, limit: cap }]);

    expect((await post(f, findTools(3, 3), network(2))).status).toBe(200);
    // The next day's first call is written, and the day before's unwritten calls are logged once.
    f.setNow(new Date('2026-12-02T00:00:01.000Z'));
    expect((await post(f, findTool(9), network(1))).status).toBe(200);
    await waitFor('the next day’s call is written', async () => (await callLogLines(f, '2026-12-02')) === 1);
    await waitFor('the count is logged', () => events.some((event) => event.event === 'mcp_call_log_unwritten'));
    expect(events.filter((event) => event.event === 'mcp_call_log_unwritten')).toEqual([
      { event: 'mcp_call_log_unwritten', day: TODAY, unwritten: 4, limit: cap },
    ]);
    expect(full()).toHaveLength(1);
    expect(await callLogLines(f)).toBe(cap);
  });
});
