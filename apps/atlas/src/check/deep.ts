// Deep mode: error-handling checks and a small fuzz pass over a live session, then the protocol compliance
// score with its parts. What an answer counts as and what the counts are worth are the probe's rules
// (its src/compliance.ts); this file makes the calls. It opens its own MCP session with the SDK client,
// because the probe never calls tools. Only read-only tools are ever called, in every case, so a server that
// mishandles a bad input cannot be made to change or delete anything by this check.

import { isUsableSchema } from '@mcp-atlas/findings';
import {
  type AuthDiscovery,
  classifyDeepCall,
  createFetchHttpClient,
  readWellKnown,
  scoreCompliance,
  withOriginHeaders,
} from '@mcp-atlas/probe';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  DEEP_CALL_TIMEOUT_MS,
  DEEP_MAX_TOOLS,
  DEEP_UNKNOWN_TOOL_NAME,
  FUZZ_OVERSIZED_CHARS,
  FUZZ_UNICODE_TEXT,
  PLAIN_VALUES,
  WRONG_TYPE_FOR_OTHER,
  WRONG_TYPE_FOR_STRING,
} from './constants.js';
import { checkHostHeader } from './host-header.js';
import type { CallOutcome, CheckedTool, DeepCase, DeepReport } from './report-schema.js';
import { openSession, type SessionTarget } from './session.js';
import { headerRecord } from './target-access.js';

/** Where deep mode connects: the same target the handshake checked, reached the same way. */
export type DeepTarget = SessionTarget;

/** What deep mode needs from the handshake. */
export interface DeepInput {
  target: DeepTarget;
  letter: string;
  tools: readonly unknown[];
  checked: readonly CheckedTool[];
  version: string;
  /** Per-call limit; the default is DEEP_CALL_TIMEOUT_MS. */
  callTimeoutMs?: number;
  /** The handshake's own sign-in discovery (letter a), read in the MCP spec's order; null when it ran none. */
  authDiscovery?: AuthDiscovery | null;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function propertiesOf(schema: unknown): JsonObject {
  return isObject(schema) && isObject(schema.properties) ? schema.properties : {};
}

function requiredOf(schema: unknown): string[] {
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required : [];
  return required.filter((name): name is string => typeof name === 'string');
}

function typeOf(property: unknown): string | null {
  if (!isObject(property)) return null;
  if (typeof property.type === 'string') return property.type;
  if (Array.isArray(property.type) && typeof property.type[0] === 'string') return property.type[0];
  return null;
}

/** A value that satisfies a property's schema in the plainest way, to fill the fields a case does not test. */
export function plainValueFor(property: unknown): unknown {
  if (isObject(property) && Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  const type = typeOf(property);
  if ((type === 'number' || type === 'integer') && isObject(property) && typeof property.minimum === 'number')
    return property.minimum;
  // Fresh containers each time, so no two calls share one mutable value.
  if (type === 'array') return [];
  if (type === 'object') return {};
  if (type !== null && Object.hasOwn(PLAIN_VALUES, type)) return PLAIN_VALUES[type as keyof typeof PLAIN_VALUES];
  return PLAIN_VALUES.string;
}

/** A value of the wrong JSON type for a property of the given type. */
export function wrongValueFor(type: string): unknown {
  return type === 'string' ? WRONG_TYPE_FOR_STRING : WRONG_TYPE_FOR_OTHER;
}

function plainArguments(schema: unknown): JsonObject {
  const properties = propertiesOf(schema);
  const args: JsonObject = {};
  for (const name of requiredOf(schema)) args[name] = plainValueFor(properties[name]);
  return args;
}

/** Sorts a thrown error or a result into the four outcomes (the probe's rule, `classifyDeepCall`). */
export function classifyCall(answer: { result: unknown } | { error: unknown }): {
  outcome: CallOutcome;
  detail: string | null;
} {
  return classifyDeepCall(answer);
}

/** One session that reconnects after a crash, so one bad case does not spoil the ones after it. */
class DeepSession {
  private client: Client | null = null;

  constructor(
    private readonly input: DeepInput,
    private readonly timeoutMs: number,
  ) {}

  private async connect(): Promise<Client> {
    if (this.client !== null) return this.client;
    const client = await openSession(this.input.target, this.input.version, this.timeoutMs);
    this.client = client;
    return client;
  }

  async call(kind: DeepCase['kind'], tool: string, args: unknown): Promise<DeepCase> {
    const started = performance.now();
    let answer: { result: unknown } | { error: unknown };
    try {
      const client = await this.connect();
      const result = await client.request(
        { method: 'tools/call', params: { name: tool, arguments: args as JsonObject } },
        CallToolResultSchema,
        { timeout: this.timeoutMs },
      );
      answer = { result };
    } catch (error) {
      answer = { error };
    }
    const { outcome, detail } = classifyCall(answer);
    if (outcome === 'crash' || outcome === 'hang') await this.close();
    return { kind, tool, outcome, elapsedMs: Math.round(performance.now() - started), detail };
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => undefined);
  }
}

interface ReadOnlyTool {
  name: string;
  schema: unknown;
}

function readOnlyTools(input: DeepInput): ReadOnlyTool[] {
  const picked: ReadOnlyTool[] = [];
  input.checked.forEach((tool, index) => {
    const definition = input.tools[index];
    if (tool.level === 'read-only' && isObject(definition) && typeof definition.name === 'string')
      picked.push({ name: definition.name, schema: definition.inputSchema });
  });
  return picked.slice(0, DEEP_MAX_TOOLS);
}

async function runErrorHandling(session: DeepSession, tools: readonly ReadOnlyTool[]): Promise<DeepCase[]> {
  const cases: DeepCase[] = [await session.call('unknown-tool', DEEP_UNKNOWN_TOOL_NAME, {})];
  for (const tool of tools) {
    const required = requiredOf(tool.schema);
    if (required.length > 0) cases.push(await session.call('missing-required', tool.name, {}));
    const properties = propertiesOf(tool.schema);
    const typed = [...required, ...Object.keys(properties)].find((name) => typeOf(properties[name]) !== null);
    if (typed !== undefined) {
      const args = { ...plainArguments(tool.schema), [typed]: wrongValueFor(typeOf(properties[typed]) as string) };
      cases.push(await session.call('wrong-type', tool.name, args));
    }
  }
  return cases;
}

// The peer's invocation smoke test, limited to read-only tools: one call with plain schema-valid arguments.
async function runSmoke(session: DeepSession, tools: readonly ReadOnlyTool[]): Promise<DeepCase[]> {
  const cases: DeepCase[] = [];
  for (const tool of tools) cases.push(await session.call('smoke', tool.name, plainArguments(tool.schema)));
  return cases;
}

async function runFuzz(session: DeepSession, tools: readonly ReadOnlyTool[]): Promise<DeepCase[]> {
  const cases: DeepCase[] = [];
  for (const tool of tools) {
    const properties = propertiesOf(tool.schema);
    const required = requiredOf(tool.schema);
    const strings = Object.keys(properties).filter((name) => typeOf(properties[name]) === 'string');
    const field = strings.find((name) => required.includes(name)) ?? strings[0];
    const base = plainArguments(tool.schema);
    if (field !== undefined) {
      cases.push(
        await session.call('fuzz-oversized', tool.name, { ...base, [field]: 'a'.repeat(FUZZ_OVERSIZED_CHARS) }),
      );
      cases.push(await session.call('fuzz-empty', tool.name, { ...base, [field]: '' }));
      cases.push(await session.call('fuzz-unicode', tool.name, { ...base, [field]: FUZZ_UNICODE_TEXT }));
    }
    const nullField = required[0];
    if (nullField !== undefined) cases.push(await session.call('fuzz-null', tool.name, { ...base, [nullField]: null }));
  }
  return cases;
}

/** What the compliance score is computed from. `authDiscovery` is null when the server asked for no sign-in. */
export interface ComplianceInput {
  letter: string;
  tools: readonly unknown[];
  errorHandling: readonly DeepCase[];
  fuzz: readonly DeepCase[];
  smoke: readonly DeepCase[];
  authDiscovery: boolean | null;
}

/**
 * Counts what the session saw (tools with a usable input schema, each case's outcome) and scores it with the
 * probe's compliance rule (`scoreCompliance` of @mcp-atlas/probe): parts, equal weights, the bonus and the cap.
 */
export function scoreDeepSession(input: ComplianceInput): DeepReport['compliance'] {
  const outcomes = (cases: readonly DeepCase[]) => cases.map((c) => c.outcome);
  return scoreCompliance({
    letter: input.letter,
    toolCount: input.tools.length,
    usableSchemaCount: input.tools.filter((tool) => isObject(tool) && isUsableSchema(tool.inputSchema)).length,
    errorHandling: outcomes(input.errorHandling),
    fuzz: outcomes(input.fuzz),
    smoke: outcomes(input.smoke),
    authDiscovery: input.authDiscovery,
  });
}

// Only a server that asked for sign-in over HTTP is asked for its OAuth metadata.
async function readAuthDiscovery(input: DeepInput): Promise<boolean | null> {
  if (input.letter !== 'a' || input.target.kind !== 'http') return null;
  // The handshake already read the metadata in the spec's order; reading the root again would only repeat it.
  if (input.authDiscovery !== undefined && input.authDiscovery !== null)
    return input.authDiscovery.protectedResource !== null;
  const origin = new URL(input.target.url).origin;
  const headers = headerRecord(input.target.headers ?? []);
  // The documents are the server's own origin's, so its headers go with them, and to no other origin.
  const httpClient = withOriginHeaders(
    input.target.fetch === undefined ? nodeNetwork.httpClient : createFetchHttpClient(input.target.fetch),
    origin,
    headers,
  );
  const documents = await readWellKnown(origin, { httpClient, allowPrivate: true });
  return documents.oauthProtectedResource.found;
}

/** Runs deep mode against a server that passed the handshake; a server that did not is scored but not called. */
export async function runDeep(input: DeepInput): Promise<DeepReport> {
  const authDiscovery = await readAuthDiscovery(input);
  const { target } = input;
  const hostHeader =
    target.kind === 'http'
      ? await checkHostHeader({
          url: target.url,
          headers: target.headers ?? [],
          letter: input.letter,
          timeoutMs: input.callTimeoutMs ?? DEEP_CALL_TIMEOUT_MS,
        })
      : null;
  if (input.letter !== 'o') {
    const none = { letter: input.letter, tools: input.tools, errorHandling: [], fuzz: [], smoke: [], authDiscovery };
    return {
      errorHandling: [],
      fuzz: [],
      smoke: [],
      compliance: scoreDeepSession(none),
      skipped: `the handshake did not pass (letter ${input.letter}), so no tool was called`,
      hostHeader,
    };
  }
  const session = new DeepSession(input, input.callTimeoutMs ?? DEEP_CALL_TIMEOUT_MS);
  try {
    const tools = readOnlyTools(input);
    const errorHandling = await runErrorHandling(session, tools);
    const fuzz = await runFuzz(session, tools);
    const smoke = await runSmoke(session, tools);
    return {
      errorHandling,
      fuzz,
      smoke,
      compliance: scoreDeepSession({
        letter: input.letter,
        tools: input.tools,
        errorHandling,
        fuzz,
        smoke,
        authDiscovery,
      }),
      skipped: null,
      hostHeader,
    };
  } finally {
    await session.close();
  }
}
