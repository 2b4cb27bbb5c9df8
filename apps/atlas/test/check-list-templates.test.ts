// `check --list-all` reads resources/templates/list next to resources and prompts, against real SDK servers on
// loopback: an McpServer with a ResourceTemplate, one with a plain resource only (an empty list), a low-level
// SDK Server that declares resources but has no template handler ("method not found" is a note, not an error),
// one whose template list comes in two pages, and one that offers no resources at all.
import { rmSync } from 'node:fs';
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type CheckReport, CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';

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
