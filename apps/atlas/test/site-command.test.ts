// `mcp-atlas site <url>` against loopback sites: one that names an SDK McpServer in its Link header (pass), one
// whose server card names an endpoint behind sign-in (partial), one whose /mcp answers a web page (fail), one with
// nothing (not found), and one checked without --allow-private (not measured). Plain words, --json, exit codes.
// With a service's store (--data, --store or their variables), an endpoint on an opted-out subdomain is not requested.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SiteCheckResultSchema } from '@mcp-atlas/probe';
import { createNodeHttpClient } from '@mcp-atlas/probe/node';
import { DOCUMENT_RULES } from '@mcp-atlas/probe/rules';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commandSite, type SiteEnvironment } from '../src/commands/site.js';
import { addOptedOutHost } from '../src/data/opted-out.js';
import { createFsStorage } from '../src/storage/fs-storage.js';

type Route = (req: IncomingMessage, res: ServerResponse, origin: string) => Promise<void> | void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A loopback site: `routes` by path; anything else is a 404. */
async function startSite(routes: Record<string, Route>): Promise<string> {
  let origin = '';
  const server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', origin).pathname];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    Promise.resolve(route(req, res, origin)).catch(() => res.writeHead(500).end());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return origin;
}

/** The SDK's McpServer over stateless Streamable HTTP, with three read-only tools. */
const sdkEndpoint: Route = async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const server = new McpServer({ name: 'site-fixture', version: '1.0.0' });
  for (const name of ['find_product', 'list_stores', 'get_hours'])
    server.registerTool(
      name,
      { description: `${name} for the shop.`, inputSchema: { q: z.string() }, annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    );
  // No sessionIdGenerator: the transport runs stateless.
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  res.on('close', () => void transport.close());
  await transport.handleRequest(req, res, body === '' ? undefined : JSON.parse(body));
};

async function runSite(
  args: readonly string[],
  extra: Pick<SiteEnvironment, 'network' | 'variables'> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await commandSite(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    ...extra,
  });
  return { code, stdout, stderr };
}

describe('mcp-atlas site', () => {
  it('pass: the home page’s Link header names an SDK server that lists its tools; exit 0, in plain words', async () => {
    const origin = await startSite({
      '/': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', link: '</mcp>; rel="mcp"' }).end('<html></html>');
      },
      '/mcp': sdkEndpoint,
    });
    const run = await runSite([`${origin}/some/page`, '--allow-private']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`mcp-atlas site ${origin}\n`);
    expect(run.stdout).toContain(`server card ${DOCUMENT_RULES.serverCardPath}: not found`);
    expect(run.stdout).toContain('Link header or <link rel="mcp"> on the home page: names an endpoint');
    expect(run.stdout).toContain(`endpoint: ${origin}/mcp, named by the Link header of the home page`);
    expect(run.stdout).toMatch(/1\. initialize: ok, HTTP 200, \d+ ms/);
    expect(run.stdout).toContain('tools listed: 3 (find_product, list_stores, get_hours)');
    expect(run.stdout).toContain('Verdict: PASS: an agent can find your MCP server and it lists its tools.');
  });

  it('--json prints the result object of checkSite', async () => {
    const origin = await startSite({
      '/': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', link: '</mcp>; rel="mcp"' }).end('<html></html>');
      },
      '/mcp': sdkEndpoint,
    });
    const run = await runSite([origin, '--json', '--allow-private']);
    const result = SiteCheckResultSchema.parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({
      verdict: 'pass',
      reason: 'lists-tools',
      toolCount: 3,
      posts: 3,
      source: 'link-header',
    });
  });

  it('partial: the server card names an endpoint that asks for sign-in; exit 1', async () => {
    const origin = await startSite({
      [DOCUMENT_RULES.serverCardPath]: (_req, res, site) => {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ name: 'shop', remotes: [{ type: 'streamable-http', url: `${site}/api/mcp` }] }));
      },
      '/api/mcp': (_req, res) => {
        res.writeHead(401, { 'www-authenticate': 'Bearer realm="shop"', 'content-type': 'application/json' }).end('{}');
      },
      '/.well-known/oauth-protected-resource': (_req, res, site) => {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ resource: `${site}/api/mcp`, authorization_servers: [`${site}/auth`] }));
      },
    });
    const run = await runSite([origin, '--allow-private']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`server card ${DOCUMENT_RULES.serverCardPath}: found`);
    expect(run.stdout).toContain(
      `endpoint: ${origin}/api/mcp, named by the server card (${DOCUMENT_RULES.serverCardPath})`,
    );
    expect(run.stdout).toContain('Verdict: PARTIAL');
    expect(run.stdout).toContain('(auth-challenge)');
    // No resource_metadata in the challenge: the path-based location is tried first, then the root one is found.
    expect(run.stdout).toContain(
      `protected resource metadata: ${origin}/.well-known/oauth-protected-resource, at the root well-known location`,
    );
    expect(run.stdout).toContain(`authorization server: ${origin}/auth\n`);
    expect(run.stdout).toContain('authorization server metadata: not found');
  });

  it('fail: /mcp signals MCP to a GET but answers a POST with a web page; exit 1, called a defect', async () => {
    const origin = await startSite({
      '/mcp': (req, res) => {
        if (req.method === 'GET') res.writeHead(405, { allow: 'POST' }).end();
        else res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>');
      },
    });
    const run = await runSite([origin, '--allow-private']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('GET /mcp: HTTP 405, which signals an MCP endpoint');
    expect(run.stdout).toContain('Verdict: FAIL');
    expect(run.stdout).toContain('This is a defect of the endpoint');
  });

  it('not found: a site that names no endpoint and has no /mcp; exit 1', async () => {
    const origin = await startSite({});
    const run = await runSite([origin, '--allow-private']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('endpoint: none found');
    expect(run.stdout).toContain('Verdict: NOT FOUND');
  });

  it('not measured without --allow-private: a loopback site is refused by the guard, and the text says how to allow it', async () => {
    const origin = await startSite({ '/mcp': sdkEndpoint });
    const run = await runSite([origin]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Verdict: NOT MEASURED');
    expect(run.stdout).toContain('only checked with --allow-private');
  });

  it('usage errors exit 2: no URL, not a URL, another scheme, an unknown flag, user info', async () => {
    for (const args of [
      [],
      ['not a url'],
      ['ftp://example.com'],
      ['https://example.com', '--deep'],
      ['https://u:p@example.com'],
    ]) {
      const run = await runSite(args);
      expect(run.code, args.join(' ')).toBe(2);
      // One line naming the problem, then where the options are: never the whole usage text.
      expect(run.stderr).toMatch(/^mcp-atlas site: [^\n]+\nrun "mcp-atlas site --help" for its options\n$/);
    }
  });
});

describe('mcp-atlas site with a service store: the opt-out list', () => {
  const folders: string[] = [];
  afterEach(async () => {
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  /** A data folder whose opt-out list names `hosts`, written the way the opt-out form writes it. */
  async function storeOptingOut(...hosts: string[]): Promise<string> {
    const folder = await mkdtemp(join(tmpdir(), 'atlas-site-optout-'));
    folders.push(folder);
    const storage = createFsStorage(folder);
    for (const host of hosts) await addOptedOutHost(storage, host);
    return folder;
  }

  /**
   * shop.test, whose home page names its endpoint on the subdomain mcp.shop.test; both names resolve to the
   * loopback site, and every POST the endpoint receives is counted.
   */
  async function startShop(): Promise<{
    origin: string;
    posts: () => number;
    network: NonNullable<SiteEnvironment['network']>;
  }> {
    let posts = 0;
    let port = '';
    const loopback = await startSite({
      '/': (_req, res) => {
        res
          .writeHead(200, { 'content-type': 'text/html', link: `<http://mcp.shop.test:${port}/mcp>; rel="mcp"` })
          .end('<html></html>');
      },
      '/mcp': (req, res, origin) => {
        if (req.method === 'POST') posts++;
        return sdkEndpoint(req, res, origin);
      },
    });
    port = new URL(loopback).port;
    const lookup = async (host: string): Promise<string[]> => {
      if (host === 'shop.test' || host === 'mcp.shop.test') return ['127.0.0.1'];
      throw new Error(`ENOTFOUND ${host}`);
    };
    return {
      origin: `http://shop.test:${port}`,
      posts: () => posts,
      network: { httpClient: createNodeHttpClient, lookup },
    };
  }

  it('--data: an endpoint on an opted-out subdomain is not requested; not measured, exit 1', async () => {
    const shop = await startShop();
    const folder = await storeOptingOut('mcp.shop.test');
    const run = await runSite([shop.origin, '--allow-private', '--json', '--data', folder], {
      network: shop.network,
      variables: {},
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      verdict: 'not-measured',
      reason: 'opted-out',
      endpoint: `${shop.origin.replace('shop.test', 'mcp.shop.test')}/mcp`,
      posts: 0,
    });
    expect(shop.posts()).toBe(0);
  });

  it('the same site without a store, or with a list that does not name it, passes', async () => {
    const shop = await startShop();
    const unnamed = await runSite([shop.origin, '--allow-private', '--json'], { network: shop.network, variables: {} });
    expect(unnamed.code).toBe(0);
    expect(JSON.parse(unnamed.stdout)).toMatchObject({ verdict: 'pass' });
    const other = await storeOptingOut('elsewhere.test');
    const listed = await runSite([shop.origin, '--allow-private', '--json', '--store', `file:${other}`], {
      network: shop.network,
      variables: {},
    });
    expect(listed.code).toBe(0);
    expect(shop.posts()).toBe(6);
  });

  it('MCP_ATLAS_DATA names the store when no flag does', async () => {
    const shop = await startShop();
    const folder = await storeOptingOut('shop.test');
    const run = await runSite([shop.origin, '--allow-private', '--json'], {
      network: shop.network,
      variables: { MCP_ATLAS_DATA: folder },
    });
    expect(run.code).toBe(1);
    // An opted-out name covers its subdomains, and the site itself is then not contacted either.
    expect(JSON.parse(run.stdout)).toMatchObject({ verdict: 'not-measured', posts: 0 });
    expect(shop.posts()).toBe(0);
  });

  it('a named store that does not exist is a usage error, and nothing is created', async () => {
    const folder = join(await storeOptingOut(), 'missing');
    const run = await runSite(['https://example.com', '--data', folder], { variables: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`no data folder at ${folder}`);
    expect(run.stderr).toContain('run "mcp-atlas site --help" for its options');
    expect(await stat(folder).catch(() => null)).toBeNull();
  });
});
