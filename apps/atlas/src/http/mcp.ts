// The observatory as an MCP server, for agents: find a tool, pick a route, report how a call went. Served
// statelessly over Streamable HTTP: each POST gets a fresh McpServer and transport, so no session state
// lives between requests and any instance of the app can answer any request.

import { MCP_ENDPOINT_RULES } from '@mcp-atlas/operations/rules';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type DemandRecorder, routedServerOf } from '../demand/recorder.js';
import type { ResolvedHttpDeps } from './deps.js';
import type { Refusal } from './errors.js';
import { MCP_BODY_MAX_BYTES } from './limits.js';
import type { McpAdmission } from './mcp-admission.js';
import { agentIdOf, clientNameOf, countryOf, type McpCallLog } from './mcp-call-log.js';
import { answerRoute, answerToolSearch } from './read-answers.js';
import type { ReportCaller, ReportIntake } from './report-intake.js';
import { SUBMISSION_ADMISSION_TEXT, SUBMISSION_OBSERVATION_TEXT } from './rule-text.js';
import {
  FindToolInputSchema,
  ReportAcceptedSchema,
  ReportBodySchema,
  RouteAnswerSchema,
  RouteInputSchema,
  ToolSearchResultSchema,
} from './schemas.js';
import { answerStatelessMcp } from './stateless-mcp.js';
import { SubmissionAnswerSchema, SubmissionBodySchema, type SubmissionIntake } from './submission-intake.js';

/** What the MCP endpoint needs beyond the app's dependencies. */
export interface McpContext {
  deps: ResolvedHttpDeps;
  reports: ReportIntake;
  /** Who sent this request, for report_road's reporter identity. */
  caller: ReportCaller;
  /** Takes submit_mcp_server's submissions (the same intake as POST /api/submissions). */
  submissions: SubmissionIntake;
  /** Counts the server each routed task went to (the same counter as GET /api/route). */
  demand: DemandRecorder;
  /** Writes one line per tool call, up to the day's cap. */
  callLog: McpCallLog;
  /** The limits per network and on requests in flight, asked before any work starts. */
  admission: McpAdmission;
  /**
   * The request's headers, for the call log's client name (User-Agent) and country (a CDN header behind a
   * trusted proxy); `handleMcpRequest` fills it in. Without it, calls are logged with an empty user agent.
   */
  headers?: Headers;
}

function structured(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

function toolError(refusal: Refusal): CallToolResult {
  return { content: [{ type: 'text', text: `${refusal.code}: ${refusal.message}` }], isError: true };
}

// An unexpected failure becomes a plain tool error without internals (paths, stack) in its text.
function internalError(deps: ResolvedHttpDeps, tool: string, error: unknown): CallToolResult {
  deps.logger?.warn(
    { event: 'mcp_tool_failed', tool, error: error instanceof Error ? error.message : String(error) },
    'MCP tool failed',
  );
  return { content: [{ type: 'text', text: 'internal: the tool failed on our side; try again later' }], isError: true };
}

/** Builds the MCP server for one request, with its tools bound to this request's caller. */
export function createAtlasMcpServer(context: McpContext): McpServer {
  const { deps, reports, caller, submissions, demand, callLog } = context;
  const server = new McpServer({ name: 'mcp-atlas', version: deps.appVersion });
  const headers = context.headers ?? new Headers();
  const userAgent = headers.get('user-agent');
  const agent = agentIdOf(deps.reporterSecret, caller.address, userAgent);
  // Every tool call leaves one line in the call log (up to the day's cap) and one daily-call marker. The log
  // is not awaited: an answer never waits for it, and a failed write is logged rather than failing the call.
  const noteCall = (tool: string): void => {
    demand.recordCall(agent);
    const line = {
      tool,
      at: deps.now().toISOString(),
      client: clientNameOf(server.server.getClientVersion()?.name, userAgent),
      country: countryOf(headers, deps.trustedProxyHops),
      agent,
    };
    void callLog.record(line);
  };

  server.registerTool(
    'find_tool',
    {
      title: 'Find a tool',
      description:
        'Searches every tool of the MCP servers mcp-atlas watches for the ones that fit a plain-language need. ' +
        'Each result names its server id, the tool, the tool description, our risk level for it (read-only, ' +
        'changes-data or high-risk; a heuristic read from what the tool says about itself) and a relevance score. ' +
        'Set risk to read or change to leave out tools that may do more than you need. Only servers that answered ' +
        'with tools in our newest check are searched.',
      inputSchema: FindToolInputSchema,
      outputSchema: ToolSearchResultSchema,
      annotations: {
        title: 'Find a tool',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (args) => {
      noteCall('find_tool');
      try {
        const answer = answerToolSearch(deps.getView(), args.query, { risk: args.risk, limit: args.limit });
        if (answer.ok) demand.recordAsk(answer.value.results.map((hit) => hit.serverId));
        return answer.ok ? structured(answer.value) : toolError(answer.refusal);
      } catch (error) {
        return internalError(deps, 'find_tool', error);
      }
    },
  );

  server.registerTool(
    'route',
    {
      title: 'Pick a server and tool for a task',
      description:
        'Ranks the best tool of each matching server for a task, by text match times the chance the next call ' +
        'works, tool-list stability, least privilege and the other factors of the mcp-atlas route score, each ' +
        'returned with the pick. Servers left out for this task (not answering, tool list changed today, a recent ' +
        'rise in risk on a task that changes things, and more for high-risk tasks) are listed with the reason.',
      inputSchema: RouteInputSchema,
      outputSchema: RouteAnswerSchema,
      annotations: {
        title: 'Route a task',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (args) => {
      noteCall('route');
      try {
        const answer = answerRoute(deps.getView(), args.task, { now: deps.now(), limit: args.limit });
        if (!answer.ok) return toolError(answer.refusal);
        demand.recordAsk(answer.value.picks.map((pick) => pick.serverId));
        const routed = routedServerOf(answer.value);
        if (routed !== null) demand.record(routed);
        return structured(answer.value);
      } catch (error) {
        return internalError(deps, 'route', error);
      }
    },
  );

  server.registerTool(
    'report_road',
    {
      title: 'Report how a call went',
      description:
        'Tells mcp-atlas how one call to a tool of a watched server went, so agents’ ratings can form. Fixed ' +
        'fields only (no text of your own): the server id or URL, the tool, whether it worked, and optionally a ' +
        'failure reason, the time it took, whether the result matched the description, result tokens, the amount ' +
        'charged, a surprise and the tool-list hash you saw. Reports are limited per reporter and day; an ' +
        'anonymous reporter is known by its network only.',
      inputSchema: ReportBodySchema,
      outputSchema: ReportAcceptedSchema,
      annotations: {
        title: 'Report a call',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args) => {
      noteCall('report_road');
      try {
        // The same intake as POST /api/reports: its submit counts this report in the intake metrics.
        const result = await reports.submit(args, caller);
        return result.ok ? structured(result.value) : toolError(result.refusal);
      } catch (error) {
        return internalError(deps, 'report_road', error);
      }
    },
  );

  server.registerTool(
    'submit_mcp_server',
    {
      title: 'Submit an MCP server',
      description:
        'Asks mcp-atlas to watch a remote MCP server (its streamable-HTTP endpoint URL, https). A submitted server is ' +
        `${SUBMISSION_OBSERVATION_TEXT}, and ${SUBMISSION_ADMISSION_TEXT}. Submitting ` +
        'a URL that is already watched or under observation changes nothing and answers with its status. Submissions ' +
        'are limited per network and per host each day.',
      inputSchema: SubmissionBodySchema,
      outputSchema: SubmissionAnswerSchema,
      annotations: {
        title: 'Submit a server',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    async (args) => {
      noteCall('submit_mcp_server');
      try {
        const answer = await submissions.submit(args, { address: caller.address });
        return answer.ok ? structured(answer.value) : toolError(answer.refusal);
      } catch (error) {
        return internalError(deps, 'submit_mcp_server', error);
      }
    },
  );

  return server;
}

/** A JSON-RPC error answer with no id, as the transport gives for a request it refuses whole. */
function jsonRpcRefusal(
  status: number,
  message: string,
  data?: object,
  headers: Record<string, string> = {},
): Response {
  const error = { code: status === 400 ? -32600 : -32000, message, ...(data === undefined ? {} : { data }) };
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/**
 * The request's body as text, or null when it is larger than `maxBytes`: a declared length over the limit is
 * refused without reading, and a body without one is read only up to the limit.
 */
async function readBodyUpTo(request: Request, maxBytes: number): Promise<string | null> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The messages of a parsed body that call a tool (each runs a tool and writes a line of the call log). */
function countToolCalls(messages: readonly unknown[]): number {
  return messages.filter(
    (message) =>
      typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'tools/call',
  ).length;
}

/**
 * Answers one Streamable HTTP request with a fresh server and transport, closed once the answer is ready. Before
 * any of that is built, the body is read (up to MCP_BODY_MAX_BYTES), a batch longer than MCP_ENDPOINT_RULES.batchMaxMessages
 * is refused whole with 400, and the admission's limits per network and on requests in flight are asked (429 or
 * 503 with Retry-After); a refused request runs nothing and writes nothing.
 */
export async function handleMcpRequest(request: Request, context: McpContext): Promise<Response> {
  const text = await readBodyUpTo(request, MCP_BODY_MAX_BYTES);
  if (text === null) {
    return jsonRpcRefusal(413, `Payload Too Large: the body is larger than ${MCP_BODY_MAX_BYTES} bytes`, {
      limit: MCP_BODY_MAX_BYTES,
    });
  }
  let parsed: { value: unknown } | null = null;
  try {
    parsed = { value: JSON.parse(text) };
  } catch {
    // Not JSON: the transport answers it as it always has (after its Accept and media type checks).
  }
  const messages = parsed === null ? [] : Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  if (parsed !== null && Array.isArray(parsed.value) && messages.length > MCP_ENDPOINT_RULES.batchMaxMessages) {
    return jsonRpcRefusal(
      400,
      `Invalid Request: a batch carries at most ${MCP_ENDPOINT_RULES.batchMaxMessages} messages; this one has ${messages.length}, and none of them was run`,
      { limit: MCP_ENDPOINT_RULES.batchMaxMessages },
    );
  }
  const admitted = context.admission.admit(context.caller.address, countToolCalls(messages));
  if (!admitted.ok) {
    const { refusal } = admitted;
    return jsonRpcRefusal(
      refusal.status,
      refusal.message,
      { reason: refusal.reason, limit: refusal.limit },
      { 'Retry-After': String(refusal.retryAfterSeconds) },
    );
  }
  try {
    const server = createAtlasMcpServer({ ...context, headers: request.headers });
    if (parsed !== null) return await answerStatelessMcp(server, request, { parsedBody: parsed.value });
    // The body was read here, so the transport gets a copy of the request that still carries it.
    const copy = new Request(request.url, { method: request.method, headers: request.headers, body: text });
    return await answerStatelessMcp(server, copy, { maxRequestBodySize: MCP_BODY_MAX_BYTES });
  } finally {
    admitted.release();
  }
}
