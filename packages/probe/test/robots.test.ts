import { afterAll, describe, expect, it } from 'vitest';
import { ROBOTS_CAP_BYTES, ROBOTS_TIMEOUT_MS } from '../src/constants.js';
import { ProbeInputError, RobotsPolicySchema, readRobots } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { excludesOrigin, isPathAllowed, parseRobots, robotsPolicyFor, selectRobotsRules } from '../src/robots.js';
import { scaledClock } from './fixtures/env.js';
import { type LocalServer, startRawServer } from './fixtures/servers.js';

const AGENT = 'mcp-atlas-bot';

describe('parsing robots.txt into groups', () => {
  it('groups consecutive user-agent lines and the rules under them; ignores comments, other fields and stray rules', () => {
    const text = [
      'Disallow: /before-any-group',
      '# a comment line',
      'User-agent: alpha',
      'User-Agent: beta   # two agents, one group',
      'Disallow: /private',
      'Sitemap: https://example.com/sitemap.xml',
      'Allow: /private/open',
      'Crawl-delay: 10',
      'user-agent: *',
      'DISALLOW: /tmp',
      'Disallow:',
      'not a field line',
    ].join('\r\n');
    expect(parseRobots(text)).toEqual([
      {
        agents: ['alpha', 'beta'],
        rules: [
          { allow: false, path: '/private' },
          { allow: true, path: '/private/open' },
        ],
      },
      { agents: ['*'], rules: [{ allow: false, path: '/tmp' }] },
    ]);
  });

  it('a user-agent line after rules opens a new group', () => {
    const groups = parseRobots('User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n');
    expect(groups.map((g) => g.agents)).toEqual([['a'], ['b']]);
  });
});

describe('choosing the group for our agent (RFC 9309 2.2.1)', () => {
  const groups = parseRobots(
    [
      'User-agent: *',
      'Disallow: /',
      '',
      'User-agent: MCP-Atlas-Bot/2.0',
      'Disallow: /admin',
      '',
      'user-agent: mcp-atlas-bot',
      'Allow: /',
    ].join('\n'),
  );

  it('our own groups win over *, matched case-insensitively on the product token, and are merged', () => {
    expect(selectRobotsRules(groups, AGENT)).toEqual({
      group: 'agent',
      rules: [
        { allow: false, path: '/admin' },
        { allow: true, path: '/' },
      ],
    });
  });

  it('another agent falls back to *', () => {
    expect(selectRobotsRules(groups, 'otherbot')).toEqual({ group: 'wildcard', rules: [{ allow: false, path: '/' }] });
  });

  it('with neither, no rules apply', () => {
    expect(selectRobotsRules(parseRobots('User-agent: otherbot\nDisallow: /'), AGENT)).toEqual({
      group: 'none',
      rules: [],
    });
  });

  it('a token that only starts like ours is not ours', () => {
    expect(selectRobotsRules(parseRobots('User-agent: mcp-atlas-botnet\nDisallow: /'), AGENT).group).toBe('none');
  });
});

describe('matching paths', () => {
  it('the longest match wins, and allow wins a tie', () => {
    const rules = [
      { allow: false, path: '/docs' },
      { allow: true, path: '/docs/public' },
      { allow: true, path: '/same' },
      { allow: false, path: '/same' },
    ];
    expect(isPathAllowed(rules, '/docs/secret')).toBe(false);
    expect(isPathAllowed(rules, '/docs/public/a')).toBe(true);
    expect(isPathAllowed(rules, '/same')).toBe(true);
    expect(isPathAllowed(rules, '/elsewhere')).toBe(true);
  });

  it('supports * and a final $', () => {
    const rules = [
      { allow: false, path: '/*.json$' },
      { allow: false, path: '/a*/c' },
    ];
    expect(isPathAllowed(rules, '/data/x.json')).toBe(false);
    expect(isPathAllowed(rules, '/data/x.json?y=1')).toBe(true);
    expect(isPathAllowed(rules, '/abbb/c/d')).toBe(false);
    expect(isPathAllowed(rules, '/b/c')).toBe(true);
    expect(isPathAllowed([{ allow: false, path: '/$' }], '/')).toBe(false);
    expect(isPathAllowed([{ allow: false, path: '/$' }], '/x')).toBe(true);
  });

  it('compares percent-encoding and non-ASCII in one form', () => {
    expect(isPathAllowed([{ allow: false, path: '/caf%C3%A9' }], '/café')).toBe(false);
    expect(isPathAllowed([{ allow: false, path: '/%7Euser' }], '/~user/page')).toBe(false);
    expect(isPathAllowed([{ allow: false, path: '/a%2fb' }], '/a%2Fb')).toBe(false);
  });

  it('never disallows /robots.txt itself', () => {
    expect(isPathAllowed([{ allow: false, path: '/' }], '/robots.txt')).toBe(true);
  });
});

describe('which rules exclude the origin', () => {
  it.each([
    ['/', true],
    ['/*', true],
    ['*', true],
    ['/$', false],
    ['/private', false],
  ])('Disallow: %s excludes=%s', (path, expected) => {
    expect(excludesOrigin([{ allow: false, path }])).toBe(expected);
  });

  it('an Allow: / does not exclude', () => {
    expect(excludesOrigin([{ allow: true, path: '/' }])).toBe(false);
  });

  it('Disallow: / for * excludes us only when no group names us', () => {
    expect(robotsPolicyFor('User-agent: *\nDisallow: /', AGENT).excludesOrigin).toBe(true);
    expect(
      robotsPolicyFor('User-agent: *\nDisallow: /\n\nUser-agent: mcp-atlas-bot\nDisallow: /private', AGENT)
        .excludesOrigin,
    ).toBe(false);
    expect(
      robotsPolicyFor('User-agent: mcp-atlas-bot\nDisallow: /\n\nUser-agent: *\nAllow: /', AGENT).excludesOrigin,
    ).toBe(true);
  });
});

describe('readRobots over HTTP', () => {
  const servers: LocalServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });
  async function serve(handler: Parameters<typeof startRawServer>[0]): Promise<LocalServer> {
    const server = await startRawServer(handler, '/robots.txt');
    servers.push(server);
    return server;
  }
  const network = { allowPrivate: true, httpClient: createNodeHttpClient };

  it('reads and applies a robots.txt, with the bot user agent', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /\n');
    });
    const policy = await readRobots(server.origin, AGENT, network);
    expect(RobotsPolicySchema.parse(policy)).toEqual(policy);
    expect(policy).toMatchObject({ status: 'parsed', httpStatus: 200, group: 'wildcard', excludesOrigin: true });
    expect(server.requests[0]?.headers['user-agent']).toMatch(/^mcp-atlas-bot\//);
  });

  it('a 404 means allowed', async () => {
    const server = await serve((_req, res) => res.writeHead(404).end());
    expect(await readRobots(server.origin, AGENT, network)).toMatchObject({
      status: 'not-found',
      excludesOrigin: false,
      httpStatus: 404,
    });
  });

  it('a 5xx means allowed too (no usable answer)', async () => {
    const server = await serve((_req, res) => res.writeHead(503).end());
    expect(await readRobots(server.origin, AGENT, network)).toMatchObject({
      status: 'unreachable',
      excludesOrigin: false,
      httpStatus: 503,
    });
  });

  it('no answer within 3 s means allowed', async () => {
    const server = await serve(() => undefined);
    const clock = scaledClock(20);
    const policy = await readRobots(server.origin, AGENT, { ...network, clock });
    expect(policy).toMatchObject({ status: 'unreachable', excludesOrigin: false });
    expect(clock.requested).toEqual([ROBOTS_TIMEOUT_MS]);
    expect(await server.waitForNoSockets()).toBe(0);
  });

  it('follows up to 5 redirects; a 6th is not followed', async () => {
    const hops = (limit: number) =>
      serve((req, res) => {
        const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? 0);
        if (n < limit) return res.writeHead(302, { location: `/robots.txt?n=${n + 1}` }).end();
        res.writeHead(200).end('User-agent: *\nDisallow: /\n');
      });
    const five = await hops(5);
    expect(await readRobots(five.origin, AGENT, network)).toMatchObject({ status: 'parsed', excludesOrigin: true });
    const six = await hops(6);
    expect(await readRobots(six.origin, AGENT, network)).toMatchObject({
      status: 'unreachable',
      excludesOrigin: false,
      httpStatus: 302,
    });
  });

  it('reads only the first 500 KiB: a rule past it does not count', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.end(`User-agent: *\n${'# padding\n'.repeat(ROBOTS_CAP_BYTES / 10)}Disallow: /\n`);
    });
    const policy = await readRobots(server.origin, AGENT, network);
    expect(policy).toMatchObject({ status: 'parsed', excludesOrigin: false });
    expect(policy.detail).toContain(String(ROBOTS_CAP_BYTES));
  });

  it('refuses a bad agent token or origin as a caller mistake', async () => {
    await expect(readRobots('https://example.com', 'bad agent/1.0', network)).rejects.toBeInstanceOf(ProbeInputError);
    await expect(readRobots('example.com', AGENT, network)).rejects.toMatchObject({ code: 'invalid-origin' });
  });
});
