// The demo fleet: real MCP servers on loopback, built with the SDK's McpServer, plus the misbehaving kinds
// a registry really holds. Each request may carry the simulated day in DEMO_DAY_HEADER, so every day of a
// simulated month can be probed at once and each server still answers as it would have on that day.
import type { ServerType } from '@hono/node-server';
import { DOCUMENT_RULES } from '@mcp-atlas/probe/rules';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Hono } from 'hono';
import { answerStatelessMcp } from '../http/stateless-mcp.js';
import { listen } from '../serve/listen.js';
import { claimFleetDomain, forgetFleetDomain, publicMemberUrl, registerFleetAddress } from './fleet-names.js';
import {
  CALENDAR_TOOLS,
  CODEHOST_TOOLS,
  CURRENCY_TOOLS,
  type DemoTool,
  FILES_TOOLS,
  INBOX_TOOLS,
  LEDGER_TOOLS,
  MAPS_TOOLS,
  NOTES_TOOLS,
  RECIPES_TOOLS,
  TICKETS_TOOLS_AFTER,
  TICKETS_TOOLS_BEFORE,
  TRANSLATE_TOOLS,
  WAREHOUSE_TOOLS,
  WEATHER_TOOLS,
} from './fleet-tools.js';

/** The header the demo's probe adds so a fleet server knows which simulated day it is answering for. */
export const DEMO_DAY_HEADER = 'x-atlas-demo-day';

/**
 * The header the demo's live checks (hourly, five-minute, observation) add: the instant, ISO 8601, the check
 * stands for. The breaking member reads it to know whether its outage had begun; daily checks do not send it.
 */
export const DEMO_AT_HEADER = 'x-atlas-demo-at';

/** How long the slow member waits before answering initialize: past the 3 s "slow" finding. */
export const SLOW_MEMBER_DELAY_MS = 3_300;

/** What a member does, which decides the letter it should get. */
export type MemberKind =
  | 'healthy'
  | 'sign-in'
  | 'payment'
  | 'flaky'
  | 'slow'
  | 'changing'
  | 'redirect'
  | 'not-mcp'
  /** Answers every daily check, then fails (HTTP 503) from the fleet's `breakAt` on: the live incident. */
  | 'breaking'
  /** Answers, until its robots.txt shuts every bot out from {@link robotsOutDayFor}: it leaves the map. */
  | 'robots-out'
  /** Answers; not on the watched list: its owner submitted it and it is in its observation week. */
  | 'submitted';

/** A fleet member's description, before it is started. */
export interface MemberSpec {
  id: string;
  title: string;
  kind: MemberKind;
  tools: (day: number) => readonly DemoTool[];
  /** The server version it reports; the changing member keeps it, so its change is silent. */
  version: string;
}

/** A running member. */
export interface FleetMember extends MemberSpec {
  /** Where it listens: its own loopback port. */
  url: string;
  /**
   * The public-looking name the demo watches it under (fleet-names.ts): the demo's network sends it to `url`, and
   * the quality score reads it as a real deployment's endpoint.
   */
  publicUrl: string;
  /** The letter a correct daily check gives it on `day`; null when its robots.txt keeps our bot out that day. */
  expectedLetter(day: number): 'o' | 'a' | 'p' | 'd' | null;
  /** False for the submitted member: the daily check does not know it until its observation admits it. */
  watched: boolean;
}

/** The payment address the paying member asks agents to pay. */
export const DEMO_PAY_TO = '0x5afe00000000000000000000000000000000beef';

/** Where the moved member redirects: another registrable domain, which the probe records and never follows. */
export const DEMO_REDIRECT_TARGET = 'https://mcp.moved-elsewhere.example/mcp';

function isFlakyDownDay(day: number): boolean {
  // Down on every fourth day, starting with the third, so a month has a few scattered outages.
  return day % 4 === 2;
}

/** Its live checks fail too, at every even hour (UTC) of any day; a daily check (no instant) never does. */
function isFlakyDownHour(at: number | null): boolean {
  return at !== null && new Date(at).getUTCHours() % 2 === 0;
}

/** The day the changing member swaps its tool list (rewrites one tool and adds a high-risk one). */
export function changeDayFor(days: number): number {
  return Math.max(1, days - 4);
}

/** The day from which the robots-out member's robots.txt disallows every bot (it answered before). */
export function robotsOutDayFor(days: number): number {
  return Math.max(1, days - 7);
}

function fleetSpecs(days: number): MemberSpec[] {
  const same = (tools: readonly DemoTool[]) => () => tools;
  return [
    { id: 'notes', title: 'Notebook', kind: 'healthy', tools: same(NOTES_TOOLS), version: '2.3.0' },
    { id: 'weather', title: 'Weather', kind: 'healthy', tools: same(WEATHER_TOOLS), version: '1.0.4' },
    { id: 'ledger', title: 'Ledger payments', kind: 'healthy', tools: same(LEDGER_TOOLS), version: '5.1.0' },
    { id: 'codehost', title: 'Code host', kind: 'healthy', tools: same(CODEHOST_TOOLS), version: '0.9.2' },
    { id: 'calendar', title: 'Team calendar', kind: 'healthy', tools: same(CALENDAR_TOOLS), version: '1.2.0' },
    { id: 'warehouse', title: 'Analytics warehouse', kind: 'healthy', tools: same(WAREHOUSE_TOOLS), version: '3.0.0' },
    { id: 'maps', title: 'Maps', kind: 'healthy', tools: same(MAPS_TOOLS), version: '4.4.1' },
    { id: 'vault', title: 'Password vault (sign-in)', kind: 'sign-in', tools: same([]), version: '1.0.0' },
    { id: 'paywall', title: 'Premium data (payment)', kind: 'payment', tools: same([]), version: '1.0.0' },
    { id: 'files', title: 'File share (flaky)', kind: 'flaky', tools: same(FILES_TOOLS), version: '2.0.0' },
    { id: 'translate', title: 'Translator (slow)', kind: 'slow', tools: same(TRANSLATE_TOOLS), version: '0.3.0' },
    {
      id: 'tickets',
      title: 'Support desk (changes)',
      kind: 'changing',
      tools: (day) => (day >= changeDayFor(days) ? TICKETS_TOOLS_AFTER : TICKETS_TOOLS_BEFORE),
      version: '1.8.0',
    },
    { id: 'moved', title: 'Moved away (redirect)', kind: 'redirect', tools: same(NOTES_TOOLS), version: '1.0.0' },
    { id: 'homepage', title: 'A web page (not MCP)', kind: 'not-mcp', tools: same([]), version: '1.0.0' },
    { id: 'inbox', title: 'Mail inbox (down now)', kind: 'breaking', tools: same(INBOX_TOOLS), version: '6.2.0' },
    {
      id: 'recipes',
      title: 'Recipe book (robots.txt says no)',
      kind: 'robots-out',
      tools: same(RECIPES_TOOLS),
      version: '1.1.0',
    },
    {
      id: 'currency',
      title: 'Currency converter (submitted)',
      kind: 'submitted',
      tools: same(CURRENCY_TOOLS),
      version: '0.1.0',
    },
  ];
}

function expectedLetterFor(kind: MemberKind, day: number, days: number): 'o' | 'a' | 'p' | 'd' | null {
  switch (kind) {
    case 'robots-out':
      return day >= robotsOutDayFor(days) ? null : 'o';
    case 'sign-in':
      return 'a';
    case 'payment':
      return 'p';
    case 'flaky':
      return isFlakyDownDay(day) ? 'd' : 'o';
    case 'redirect':
    case 'not-mcp':
      return 'd';
    default:
      return 'o';
  }
}

function dayOf(request: Request): number {
  const value = Number(request.headers.get(DEMO_DAY_HEADER) ?? '0');
  return Number.isInteger(value) && value >= 0 ? value : 0;
}

/** The instant a live check stands for, from DEMO_AT_HEADER; null for a daily check (no header) or a bad value. */
function atOf(request: Request): number | null {
  const value = request.headers.get(DEMO_AT_HEADER);
  const ms = value === null ? Number.NaN : Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function buildMcpServer(spec: MemberSpec, day: number): McpServer {
  const server = new McpServer({ name: `demo-${spec.id}`, version: spec.version });
  for (const tool of spec.tools(day)) {
    const config: {
      description?: string;
      inputSchema?: DemoTool['input'] & object;
      annotations?: NonNullable<DemoTool['annotations']>;
    } = {};
    if (tool.description !== undefined) config.description = tool.description;
    if (tool.input !== null) config.inputSchema = tool.input;
    if (tool.annotations !== undefined) config.annotations = tool.annotations;
    // The observatory never calls a tool; the handler exists because a real server has one.
    server.registerTool(tool.name, config, async () => ({
      content: [{ type: 'text' as const, text: `demo ${tool.name}` }],
    }));
  }
  return server;
}

async function answerMcp(spec: MemberSpec, request: Request): Promise<Response> {
  return answerStatelessMcp(buildMcpServer(spec, dayOf(request)), request);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request a fleet member received, as the privacy tests read it. */
export interface ReceivedRequest {
  member: string;
  httpMethod: string;
  /** The path asked for: /mcp, /robots.txt, a well-known file. */
  path: string;
  /** The simulated day the request stood for (DEMO_DAY_HEADER; 0 without it). */
  day: number;
  /** JSON-RPC methods in the body (a batch may hold several). */
  rpcMethods: string[];
  /** Header names that carry credentials, if the client sent any. */
  credentialHeaders: string[];
}

const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'x-api-key'];

async function describeRequest(member: string, request: Request): Promise<ReceivedRequest> {
  let rpcMethods: string[] = [];
  if (request.method === 'POST') {
    const body = (await request
      .clone()
      .json()
      .catch(() => null)) as unknown;
    const messages = Array.isArray(body) ? body : [body];
    rpcMethods = messages
      .map((m) => (m as { method?: unknown } | null)?.method)
      .filter((m): m is string => typeof m === 'string');
  }
  return {
    member,
    httpMethod: request.method,
    path: new URL(request.url).pathname,
    day: dayOf(request),
    rpcMethods,
    credentialHeaders: CREDENTIAL_HEADERS.filter((name) => request.headers.has(name)),
  };
}

/** What a member's behaviour depends on besides its kind. */
interface MemberContext {
  days: number;
  /** From this instant the breaking member fails its live checks; null: it never breaks. */
  breakAtMs: number | null;
  /** The owner-verification tokens the member's origin serves at DOCUMENT_RULES.verifyTokenPath, one a line. */
  verifyTokens: string[];
}

function memberApp(
  spec: MemberSpec,
  received: ReceivedRequest[],
  otherReceived: ReceivedRequest[],
  context: MemberContext,
): Hono {
  const app = new Hono();
  // Every request is recorded, so tests can tell what the observatory asked each member, and for which day:
  // MCP requests in `received`, the rest (robots.txt, well-known files) in `otherReceived`.
  app.use('*', async (c, next) => {
    const described = await describeRequest(spec.id, c.req.raw);
    (described.path === '/mcp' ? received : otherReceived).push(described);
    await next();
  });
  app.all('/mcp', async (c) => {
    const request = c.req.raw;
    const day = dayOf(request);
    switch (spec.kind) {
      case 'sign-in':
        return c.json({ error: 'unauthorized' }, 401, {
          'WWW-Authenticate': 'Bearer resource_metadata="/.well-known/oauth-protected-resource"',
        });
      case 'payment':
        return c.json(
          {
            x402Version: 1,
            error: 'payment required',
            accepts: [
              { scheme: 'exact', network: 'base', payTo: DEMO_PAY_TO, maxAmountRequired: '10000', resource: '/mcp' },
            ],
          },
          402,
        );
      case 'redirect':
        return c.redirect(DEMO_REDIRECT_TARGET, 307);
      case 'not-mcp':
        return c.html(
          '<!doctype html><html><head><title>Welcome</title></head><body><h1>Our product</h1></body></html>',
        );
      case 'flaky':
        if (isFlakyDownDay(day) || isFlakyDownHour(atOf(request))) return c.text('upstream unavailable', 503);
        break;
      case 'breaking': {
        const at = atOf(request);
        if (context.breakAtMs !== null && at !== null && at >= context.breakAtMs)
          return c.text('mail backend unavailable', 503);
        break;
      }
      case 'slow': {
        const body =
          request.method === 'POST'
            ? ((await request
                .clone()
                .json()
                .catch(() => null)) as { method?: string } | null)
            : null;
        if (body?.method === 'initialize') await sleep(SLOW_MEMBER_DELAY_MS);
        break;
      }
      default:
        break;
    }
    return answerMcp(spec, request);
  });
  app.get('/robots.txt', (c) => {
    const shut = spec.kind === 'robots-out' && dayOf(c.req.raw) >= robotsOutDayFor(context.days);
    return c.text(shut ? 'User-agent: *\nDisallow: /\n' : 'User-agent: *\nAllow: /\n');
  });
  // The owner-verification file, as an owner would publish it; empty (404) until the demo's owner puts a token in.
  app.get(DOCUMENT_RULES.verifyTokenPath, (c) =>
    context.verifyTokens.length === 0 ? c.text('not found', 404) : c.text(`${context.verifyTokens.join('\n')}\n`),
  );
  return app;
}

/** A running fleet and how to stop it. */
export interface Fleet {
  members: FleetMember[];
  /** Every MCP request (to /mcp) the fleet received, in arrival order. */
  received: ReceivedRequest[];
  /** Every other request (robots.txt, well-known and token files), in arrival order. */
  otherReceived: ReceivedRequest[];
  /** Makes a member's origin serve an owner-verification token, as its owner would after asking for one. */
  publishVerifyToken(id: string, token: string): void;
  close(): Promise<void>;
}

/** Options of {@link startFleet}. */
export interface FleetOptions {
  /** When the breaking member starts failing its live checks; absent, it never does. */
  breakAt?: Date;
}

/**
 * Starts every member of the demo fleet on its own loopback port (127.0.0.1 only) and returns their URLs.
 * `days` is the length of the simulated history; it decides when the changing member changes.
 */
export async function startFleet(days: number, options: FleetOptions = {}): Promise<Fleet> {
  const running: { server: ServerType; member: FleetMember }[] = [];
  const received: ReceivedRequest[] = [];
  const otherReceived: ReceivedRequest[] = [];
  const contexts = new Map<string, MemberContext>();
  const domain = claimFleetDomain();
  for (const spec of fleetSpecs(days)) {
    const context: MemberContext = { days, breakAtMs: options.breakAt?.getTime() ?? null, verifyTokens: [] };
    contexts.set(spec.id, context);
    const { server, port } = await listen(memberApp(spec, received, otherReceived, context).fetch, 0, '127.0.0.1');
    const member: FleetMember = {
      ...spec,
      url: `http://127.0.0.1:${port}/mcp`,
      publicUrl: publicMemberUrl(spec.id, domain),
      expectedLetter: (day) => expectedLetterFor(spec.kind, day, days),
      watched: spec.kind !== 'submitted',
    };
    registerFleetAddress(member.publicUrl, member.url);
    running.push({ server, member });
  }
  return {
    members: running.map((r) => r.member),
    received,
    otherReceived,
    publishVerifyToken: (id, token) => {
      const context = contexts.get(id);
      if (context === undefined) throw new Error(`the demo fleet has no member ${id}`);
      context.verifyTokens.push(token);
    },
    close: async () => {
      forgetFleetDomain(domain);
      await Promise.all(
        running.map(
          ({ server }) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
            }),
        ),
      );
    },
  };
}
