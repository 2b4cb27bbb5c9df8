// Gateways and directory-listed servers: the operator marks them with `mcp-atlas mark`, readRouteMarks reads
// the lists back, and a tool index built with them gives the route's 0.7 gateway guard, the 1.15 directory
// factor, and the high-risk set-aside of gateways.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolIndex, type IndexServer, routeTask } from '@mcp-atlas/route';
import { ROUTE_SCORE_RULES } from '@mcp-atlas/route/rules';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCommand } from '../src/commands.js';
import { type RouteMarks, readRouteMarks } from '../src/data/route-marks.js';
import { createLogger } from '../src/log.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { putJson } from '../src/storage/storage.js';

const PAYMENTS = [
  {
    name: 'list_transactions',
    description: 'Lists the payments received and sent in a date range.',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'create_invoice',
    description: 'Drafts an invoice for a customer; nothing is sent yet.',
    annotations: { readOnlyHint: false },
  },
  { name: 'transfer_funds', description: 'Moves money from the account to a saved bank account.' },
];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atlas-marks-'));
  await putJson(createFsStorage(dir), 'state/servers.json', {
    servers: ['pay-gw', 'pay-listed', 'pay-plain'].map((id) => ({
      id,
      url: `https://${id}.example.com/mcp`,
      source: 'registry',
    })),
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    return { code: await runCommand(argv, createLogger('silent')), out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

/** The tool index as the read model should build it: the marks become `gateway` and `directoryListed`. */
function indexWith(marks: RouteMarks) {
  const servers: IndexServer[] = ['pay-gw', 'pay-listed', 'pay-plain'].map((id) => ({
    id,
    tools: PAYMENTS,
    successChance: 0.9,
    gateway: marks.gateways.has(id),
    directoryListed: marks.directories.has(id),
  }));
  return createToolIndex(servers);
}

describe('marks from the command line to the route', () => {
  it('a marked gateway gets the 0.7 guard and is set aside for high-risk tasks; a listed server gets 1.15', async () => {
    expect(await run(['mark', 'gateway', 'pay-gw', '--data', dir])).toMatchObject({
      code: EXIT_OK,
      out: 'pay-gw added to the gateways\n',
    });
    expect(await run(['mark', 'directory', 'pay-listed', '--data', dir])).toMatchObject({
      code: EXIT_OK,
      out: 'pay-listed added to the directory-listed servers\n',
    });
    expect((await run(['mark', 'gateway', 'pay-gw', '--data', dir])).out).toBe('pay-gw already among the gateways\n');
    expect(JSON.parse(await readFile(join(dir, 'state/gateways.json'), 'utf8'))).toEqual({ servers: ['pay-gw'] });

    const marks = await readRouteMarks(createFsStorage(dir));
    expect(marks).toEqual({ gateways: new Set(['pay-gw']), directories: new Set(['pay-listed']), problems: [] });

    const change = routeTask(indexWith(marks), 'create an invoice for a customer', { limit: 10 });
    const factorsOf = (id: string) => change.picks.find((p) => p.serverId === id)!.factors;
    expect(ROUTE_SCORE_RULES.guardGateway).toBe(0.7);
    expect(ROUTE_SCORE_RULES.directoryFactor).toBe(1.15);
    expect(factorsOf('pay-gw')).toMatchObject({ guard: 0.7, directory: 1 });
    expect(factorsOf('pay-listed')).toMatchObject({ guard: 1, directory: 1.15 });
    expect(factorsOf('pay-plain')).toMatchObject({ guard: 1, directory: 1 });
    const scoreOf = (id: string) => change.picks.find((p) => p.serverId === id)!.score;
    expect(scoreOf('pay-gw')).toBeCloseTo(scoreOf('pay-plain') * 0.7, 12);
    expect(scoreOf('pay-listed')).toBeCloseTo(scoreOf('pay-plain') * 1.15, 12);
    expect(change.picks[0]!.serverId).toBe('pay-listed');

    const high = routeTask(indexWith(marks), 'transfer funds to a saved bank account', { limit: 10 });
    expect(high.taskRisk).toBe('high');
    expect(high.picks.map((p) => p.serverId).sort()).toEqual(['pay-listed', 'pay-plain']);
    expect(high.setAside).toEqual([
      { serverId: 'pay-gw', tool: 'transfer_funds', reason: 'gateway, and the task is high risk' },
    ]);
  });

  it('--off removes a mark, and the route treats the server as plain again', async () => {
    await run(['mark', 'gateway', 'pay-gw', '--data', dir]);
    expect(await run(['mark', 'gateway', 'pay-gw', '--off', '--data', dir])).toMatchObject({
      code: EXIT_OK,
      out: 'pay-gw removed from the gateways\n',
    });
    expect((await run(['mark', 'gateway', 'pay-gw', '--off', '--data', dir])).out).toBe(
      'pay-gw not among the gateways\n',
    );
    const marks = await readRouteMarks(createFsStorage(dir));
    expect(marks.gateways.size).toBe(0);
    const high = routeTask(indexWith(marks), 'transfer funds to a saved bank account', { limit: 10 });
    expect(high.setAside).toEqual([]);
  });

  it('says when a marked server is not watched (it may be marked ahead of its first check)', async () => {
    expect((await run(['mark', 'directory', 'future-server', '--data', dir])).out).toContain(
      'future-server is not among the watched servers',
    );
    expect((await readRouteMarks(createFsStorage(dir))).directories.has('future-server')).toBe(true);
  });

  it('no lists yet: nothing is marked', async () => {
    expect(await readRouteMarks(createFsStorage(dir))).toEqual({
      gateways: new Set(),
      directories: new Set(),
      problems: [],
    });
  });

  it('a list edited into a wrong shape counts as empty for the reader, and mark refuses to overwrite it', async () => {
    await writeFile(join(dir, 'state/gateways.json'), '{"servers": ["Not An Id"]}');
    await writeFile(join(dir, 'state/directories.json'), 'not json');
    const marks = await readRouteMarks(createFsStorage(dir));
    expect(marks.gateways.size).toBe(0);
    expect(marks.problems).toEqual([
      expect.stringMatching(/^state\/gateways\.json is not a list/),
      expect.stringMatching(/^state\/directories\.json is not a list/),
    ]);
    expect(await run(['mark', 'gateway', 'pay-gw', '--data', dir])).toMatchObject({
      code: EXIT_FAILED,
      err: expect.stringContaining('fix or delete it first'),
    });
    expect(await readFile(join(dir, 'state/gateways.json'), 'utf8')).toBe('{"servers": ["Not An Id"]}');
  });

  it('usage errors: an unknown kind, a bad id, a missing server, a missing data folder', async () => {
    for (const argv of [
      ['mark', 'proxy', 'pay-gw', '--data', dir],
      ['mark', 'gateway', 'Pay GW', '--data', dir],
      ['mark', 'gateway', '--data', dir],
      ['mark', 'gateway', 'pay-gw', '--data', join(dir, 'nowhere')],
    ]) {
      expect((await run(argv)).code, argv.join(' ')).toBe(EXIT_USAGE);
    }
  });
});
