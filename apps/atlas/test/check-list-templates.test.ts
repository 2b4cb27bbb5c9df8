// `check --list-all` reads resources/templates/list next to resources and prompts, against real SDK servers on
// loopback: an McpServer with a ResourceTemplate, one with a plain resource only (an empty list), a low-level
// SDK Server that declares resources but has no template handler ("method not found" is a note, not an error),
// one whose template list comes in two pages, and one that offers no resources at all. Then the lock file: a
// template is written into it, a later change to it trips the change gate (JSON, text and a valid SARIF log say
// so), and a lock file written before templates were kept still loads and calls no template added.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SARIF_GATE_RULES } from '../src/check/constants.js';
import { type CheckReport, CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import { sarifSchemaErrors } from './fixtures/check-sarif-schema.js';

type Build = () => McpServer | Server;

const running: HttpServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(
    running.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Serves a fresh SDK server per request over stateless Streamable HTTP on a free loopback port. */
async function serve(build: Build): Promise<string> {
  const http = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
      await build().connect(transport);
      res.on('close', () => void transport.close());
      await transport.handleRequest(req, res, body === '' ? undefined : JSON.parse(body));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  running.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

function withTool(server: McpServer): McpServer {
  server.registerTool('get_time', { description: 'Returns the time.', annotations: { readOnlyHint: true } }, () => ({
    content: [{ type: 'text', text: 'noon' }],
  }));
  return server;
}

const noteResource = (server: McpServer): void => {
  server.registerResource('welcome', 'note://welcome', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, text: 'hello' }],
  }));
};

const withTemplate: Build = () => {
  const server = withTool(new McpServer({ name: 'templates', version: '1.0.0' }));
  noteResource(server);
  server.registerResource(
    'note-by-title',
    new ResourceTemplate('note://{title}', { list: undefined }),
    { description: 'A note by its title.', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, text: 'a note' }] }),
  );
  return server;
};

const resourceOnly: Build = () => {
  const server = withTool(new McpServer({ name: 'plain', version: '1.0.0' }));
  noteResource(server);
  return server;
};

const toolsOnly: Build = () => withTool(new McpServer({ name: 'tools-only', version: '1.0.0' }));

/** A low-level SDK server that declares resources; `templatePages` null means no template handler at all. */
function lowLevel(templatePages: string[][] | null): Build {
  return () => {
    const server = new Server({ name: 'low-level', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'get_time', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
    }));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [{ uri: 'note://welcome', name: 'welcome' }],
    }));
    if (templatePages !== null)
      server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
        const page = Number(request.params?.cursor ?? '0');
        const next = page + 1 < templatePages.length ? { nextCursor: String(page + 1) } : {};
        const uris = templatePages[page] ?? [];
        return { resourceTemplates: uris.map((uriTemplate) => ({ uriTemplate, name: uriTemplate })), ...next };
      });
    return server;
  };
}

async function check(url: string, json = true): Promise<{ code: number; stdout: string }> {
  const dir = makeWorkDir();
  dirs.push(dir);
  return runCheckIn(dir, [url, '--list-all', ...(json ? ['--json'] : [])]);
}

const listAllOf = async (url: string): Promise<NonNullable<CheckReport['listAll']>> => {
  const run = await check(url);
  expect(run.code).toBe(0);
  const listed = CheckReportSchema.parse(JSON.parse(run.stdout)).listAll;
  if (listed === null) throw new Error('listAll missing from the report');
  return listed;
};

describe('check --list-all: resource templates', () => {
  it('lists a ResourceTemplate of an SDK McpServer by its URI template, with a hash, next to the resources', async () => {
    const url = await serve(withTemplate);
    const listed = await listAllOf(url);
    expect(listed.resourceTemplates).toMatchObject({ declared: true, error: null, note: null });
    expect(listed.resourceTemplates.entries.map((e) => [e.key, e.name])).toEqual([['note://{title}', 'note-by-title']]);
    expect(listed.resourceTemplates.entries[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
    // The template is not mixed into the plain resources.
    expect(listed.resources.entries.map((e) => e.key)).toEqual(['note://welcome']);

    const text = await check(url, false);
    expect(text.stdout).toContain('resource templates: 1\n');
    expect(text.stdout).toMatch(/ {4}note:\/\/\{title\} {2}[0-9a-f]{12}\n/);
  });

  it('an SDK McpServer with resources and no template gives an empty list, neither a note nor an error', async () => {
    const listed = await listAllOf(await serve(resourceOnly));
    expect(listed.resourceTemplates).toEqual({ declared: true, entries: [], error: null, note: null });
    expect(listed.resources.entries.map((e) => e.key)).toEqual(['note://welcome']);
  });

  it('a server that declares resources but does not implement the template list gets a note, not an error', async () => {
    const url = await serve(lowLevel(null));
    const listed = await listAllOf(url);
    expect(listed.resourceTemplates.declared).toBe(true);
    expect(listed.resourceTemplates.entries).toEqual([]);
    expect(listed.resourceTemplates.error).toBeNull();
    expect(listed.resourceTemplates.note).toContain('does not implement resources/templates/list');
    expect(listed.resourceTemplates.note).toContain('-32601');
    // The other lists are still read.
    expect(listed.resources.entries.map((e) => e.key)).toEqual(['note://welcome']);

    const text = await check(url, false);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('resource templates: none (the server does not implement resources/templates/list');
  });

  it('follows nextCursor across pages of templates', async () => {
    const listed = await listAllOf(await serve(lowLevel([['a://{x}', 'b://{x}'], ['c://{x}']])));
    expect(listed.resourceTemplates.entries.map((e) => e.key)).toEqual(['a://{x}', 'b://{x}', 'c://{x}']);
    expect(listed.resourceTemplates.note).toBeNull();
  });

  it('a server without the resources capability is not asked: not offered', async () => {
    const url = await serve(toolsOnly);
    const listed = await listAllOf(url);
    expect(listed.resourceTemplates).toEqual({ declared: false, entries: [], error: null, note: null });
    const text = await check(url, false);
    expect(text.stdout).toContain('resource templates: not offered');
  });
});

/** The template a test can change between runs: its URI template, name and description. */
interface TemplateState {
  uriTemplate: string;
  name: string;
  description: string;
}

const firstTemplate = (): TemplateState => ({
  uriTemplate: 'note://{title}',
  name: 'note-by-title',
  description: 'A note by its title.',
});

/** A server like `withTemplate` whose templates are read from `templates` on every request. */
function editable(templates: TemplateState[]): Build {
  return () => {
    const server = withTool(new McpServer({ name: 'templates', version: '1.0.0' }));
    noteResource(server);
    for (const t of templates)
      server.registerResource(
        t.name,
        new ResourceTemplate(t.uriTemplate, { list: undefined }),
        { description: t.description, mimeType: 'text/plain' },
        (uri) => ({ contents: [{ uri: uri.href, text: 'a note' }] }),
      );
    return server;
  };
}

interface LockEntry {
  key: string;
  hash: string;
  definition: Record<string, unknown>;
}
interface LockJson {
  resources?: LockEntry[];
  resourceTemplates?: LockEntry[];
  [field: string]: unknown;
}

interface SarifResult {
  ruleId: string;
  message: { text: string };
  locations: { physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } } }[];
  partialFingerprints: Record<string, string>;
}

const LOCK = 'mcp-atlas.lock.json';
const compareArgs = (url: string): string[] => [url, '--list-all', '--baseline', LOCK, '--fail-on', 'change'];
const reportOf = (stdout: string): CheckReport => CheckReportSchema.parse(JSON.parse(stdout));

/** A work folder holding a lock file written with --list-all against `url`. */
async function lockedDir(url: string): Promise<string> {
  const dir = makeWorkDir();
  dirs.push(dir);
  const first = await runCheckIn(dir, [url, '--list-all', '--update-baseline']);
  expect(first.code).toBe(0);
  return dir;
}

const readLock = (dir: string): LockJson => JSON.parse(readFileSync(join(dir, LOCK), 'utf8')) as LockJson;

describe('check --list-all: resource templates in the lock file', () => {
  it('writes each template with its hash and definition, and an unchanged server passes the change gate', async () => {
    const url = await serve(editable([firstTemplate()]));
    const dir = await lockedDir(url);
    const lock = readLock(dir);
    expect(lock.resourceTemplates?.map((t) => [t.key, t.definition.name, t.definition.description])).toEqual([
      ['note://{title}', 'note-by-title', 'A note by its title.'],
    ]);

    const same = await runCheckIn(dir, [...compareArgs(url), '--json']);
    expect(same.code).toBe(0);
    const r = reportOf(same.stdout);
    expect(r.listAll?.resourceTemplates.entries[0]?.hash).toBe(lock.resourceTemplates?.[0]?.hash);
    expect(r.baseline).toMatchObject({ resourceTemplates: { added: [], removed: [], changed: [] }, unchanged: true });
  });

  it('a changed template description trips the change gate; JSON, text and a valid SARIF log name it', async () => {
    const templates = [firstTemplate()];
    const url = await serve(editable(templates));
    const dir = await lockedDir(url);
    (templates[0] as TemplateState).description = 'A note by its title, or by its tag.';

    const json = await runCheckIn(dir, [...compareArgs(url), '--json', '--sarif', 'out.sarif']);
    expect(json.code).toBe(1);
    const r = reportOf(json.stdout);
    expect(r.baseline).toMatchObject({
      added: [],
      changed: [],
      resources: { added: [], removed: [], changed: [] },
      resourceTemplates: { added: [], removed: [], changed: ['note://{title}'] },
      unchanged: false,
    });
    expect(r.gates.tripped).toEqual([
      { gate: 'change', detail: 'the tool list changed: resource templates changed note://{title}' },
    ]);

    const text = await runCheckIn(dir, compareArgs(url));
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`baseline ${LOCK}:\n  changed resource template note://{title}\n`);
    expect(text.stdout).toContain('  change: the tool list changed: resource templates changed note://{title}\n');

    const log = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')) as { runs: { results: SarifResult[] }[] };
    expect(sarifSchemaErrors(log)).toEqual([]);
    const changes = log.runs[0]?.results.filter((result) => result.ruleId === SARIF_GATE_RULES.change) ?? [];
    expect(changes.map((c) => c.message.text)).toEqual([`${url}: resource template "note://{title}" changed`]);
    // A template has no line of its own in the lock file: the result points at the file.
    expect(changes[0]?.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: LOCK } } }]);
  });

  it('a renamed template is changed, a new URI template added and the old removed: one SARIF alert each', async () => {
    const templates = [firstTemplate(), { uriTemplate: 'tag://{tag}', name: 'tag', description: 'Notes by tag.' }];
    const url = await serve(editable(templates));
    const dir = await lockedDir(url);
    (templates[0] as TemplateState).name = 'note';
    (templates[1] as TemplateState).uriTemplate = 'tag://{tag}/notes';

    const run = await runCheckIn(dir, [...compareArgs(url), '--json', '--sarif', 'out.sarif']);
    expect(run.code).toBe(1);
    expect(reportOf(run.stdout).baseline?.resourceTemplates).toEqual({
      added: ['tag://{tag}/notes'],
      removed: ['tag://{tag}'],
      changed: ['note://{title}'],
    });
    const log = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')) as { runs: { results: SarifResult[] }[] };
    expect(sarifSchemaErrors(log)).toEqual([]);
    const changes = log.runs[0]?.results.filter((result) => result.ruleId === SARIF_GATE_RULES.change) ?? [];
    expect(changes.map((c) => c.message.text.replace(`${url}: `, ''))).toEqual([
      'resource template "tag://{tag}/notes" was added',
      'resource template "tag://{tag}" was removed',
      'resource template "note://{title}" changed',
    ]);
    // Same rule, same file, no line: only the fingerprint keeps code scanning from folding the three into one.
    const fingerprints = new Set(changes.map((c) => c.partialFingerprints['mcpAtlasRule/v1']));
    expect(fingerprints.size).toBe(3);
  });

  it('without --list-all the templates are not read, so they are not compared', async () => {
    const templates = [firstTemplate()];
    const url = await serve(editable(templates));
    const dir = await lockedDir(url);
    (templates[0] as TemplateState).description = 'Changed.';
    const run = await runCheckIn(dir, [url, '--json', '--baseline', LOCK, '--fail-on', 'change']);
    expect(run.code).toBe(0);
    expect(reportOf(run.stdout).baseline).toMatchObject({ resourceTemplates: null, unchanged: true });
  });

  it('a lock file written before templates were kept still loads and calls no template added', async () => {
    const url = await serve(editable([firstTemplate()]));
    const dir = await lockedDir(url);
    const { resourceTemplates, ...older } = readLock(dir);
    expect(resourceTemplates).toHaveLength(1);
    writeFileSync(join(dir, LOCK), `${JSON.stringify(older, null, 2)}\n`);

    const run = await runCheckIn(dir, [...compareArgs(url), '--json']);
    expect(run.code).toBe(0);
    expect(reportOf(run.stdout).baseline).toMatchObject({
      resources: { added: [], removed: [], changed: [] },
      resourceTemplates: null,
      unchanged: true,
    });
    // Written again, the lock file gains the templates.
    await runCheckIn(dir, [url, '--list-all', '--update-baseline']);
    expect(readLock(dir).resourceTemplates?.map((t) => t.key)).toEqual(['note://{title}']);
  });

  it('a template definition edited in the lock file without its hash is refused (exit 2)', async () => {
    const url = await serve(editable([firstTemplate()]));
    const dir = await lockedDir(url);
    const lock = readLock(dir);
    const template = lock.resourceTemplates?.[0];
    if (template === undefined) throw new Error('the lock file holds no template');
    template.definition.description = 'edited by hand';
    writeFileSync(join(dir, LOCK), JSON.stringify(lock, null, 2));
    const run = await runCheckIn(dir, compareArgs(url));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the hash of "note://{title}" does not match its definition');
  });
});
