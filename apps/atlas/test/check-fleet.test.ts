// `mcp-atlas check` against the demo fleet: real SDK servers on loopback that answer, ask for sign-in or
// payment, are slow, are not MCP at all, or change their tool list on a given day.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaselineFileSchema, type CheckReport, CheckReportSchema } from '../src/check/report-schema.js';
import { changeDayFor, type Fleet, startFleet } from '../src/demo/fleet.js';
import { fetchOnDay, makeWorkDir, runCheckIn } from './fixtures/check-run.js';

const DAYS = 30;
let fleet: Fleet;
const urlOf = (id: string): string => {
  const member = fleet.members.find((m) => m.id === id);
  if (member === undefined) throw new Error(`no fleet member ${id}`);
  return member.url;
};
const report = (stdout: string): CheckReport => CheckReportSchema.parse(JSON.parse(stdout));

beforeAll(async () => {
  fleet = await startFleet(DAYS);
});
afterAll(async () => {
  await fleet.close();
});

describe('check of a healthy server', () => {
  it('passes with letter o, every tool classified and hashed, and the JSON report valid against its schema', async () => {
    const run = await runCheckIn(makeWorkDir(), [urlOf('notes'), '--json']);
    expect(run.code).toBe(0);
    const r = report(run.stdout);
    expect(r).toMatchObject({
      schema: 'mcp-atlas.check/1',
      letter: 'o',
      reason: 'ok',
      protocolVersion: '2025-06-18',
      transport: 'http',
      passed: true,
    });
    expect(r.serverInfo).toEqual({ name: 'demo-notes', version: '2.3.0' });
    expect(r.tools.map((t) => [t.name, t.level])).toEqual([
      ['list_notes', 'read-only'],
      ['search_notes', 'read-only'],
      ['get_note', 'read-only'],
      ['create_note', 'changes-data'],
      ['update_note', 'changes-data'],
      ['delete_note', 'high-risk'],
    ]);
    expect(r.tools.every((t) => /^[0-9a-f]{64}$/.test(t.hash))).toBe(true);
    expect(r.tokens).toBeGreaterThan(0);
    expect(r.steps.map((s) => s.name)).toContain('initialize');
    expect(r.gates).toEqual({ failOn: ['not-answering'], tripped: [] });
  });

  it('the JSON report has exactly the documented top-level fields, in order', async () => {
    const run = await runCheckIn(makeWorkDir(), [urlOf('weather'), '--json']);
    expect(Object.keys(JSON.parse(run.stdout) as object)).toEqual([
      'schema',
      'target',
      'transport',
      'letter',
      'reason',
      'message',
      'protocolVersion',
      'serverInfo',
      'steps',
      'tools',
      'toolCount',
      'findings',
      'tokens',
      'elapsedMs',
      'baseline',
      'deep',
      'listAll',
      'conformance',
      'access',
      'gates',
      'passed',
      'score',
      'published',
      'rulesVersions',
    ]);
  });

  it('prints a readable report without --json: letter, protocol, steps, tools with rules, findings, tokens', async () => {
    const run = await runCheckIn(makeWorkDir(), [urlOf('notes')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('letter o: ok');
    expect(run.stdout).toContain('protocol 2025-06-18, server demo-notes 2.3.0');
    expect(run.stdout).toMatch(/steps:\n {2}initialize +ok +\d+ ms/);
    expect(run.stdout).toMatch(/delete_note +high-risk +rule \d/);
    expect(run.stdout).toMatch(/about \d+ tokens/);
    expect(run.stdout).toContain('passed (gates: not-answering)');
  });
});

describe('gates and exit codes', () => {
  it('not-answering (the default) trips on a page that is not MCP: exit 1', async () => {
    const run = await runCheckIn(makeWorkDir(), [urlOf('homepage'), '--json']);
    expect(run.code).toBe(1);
    const r = report(run.stdout);
    expect(r.letter).toBe('d');
    expect(r.gates.tripped).toEqual([{ gate: 'not-answering', detail: `the server is not answering (${r.reason})` }]);
  });

  it('a sign-in (letter a) and a payment (letter p) are answers: the default gate passes', async () => {
    const vault = await runCheckIn(makeWorkDir(), [urlOf('vault'), '--json']);
    expect([vault.code, report(vault.stdout).letter]).toEqual([0, 'a']);
    const paywall = await runCheckIn(makeWorkDir(), [urlOf('paywall'), '--json']);
    expect([paywall.code, report(paywall.stdout).letter]).toEqual([0, 'p']);
  });

  it('high-risk trips on a server with a high-risk tool and passes on one without', async () => {
    const notes = await runCheckIn(makeWorkDir(), [urlOf('notes'), '--json', '--fail-on', 'high-risk']);
    expect(notes.code).toBe(1);
    expect(report(notes.stdout).gates.tripped).toEqual([{ gate: 'high-risk', detail: 'high-risk tools: delete_note' }]);
    const weather = await runCheckIn(makeWorkDir(), [urlOf('weather'), '--json', '--fail-on', 'high-risk']);
    expect(weather.code).toBe(0);
  });

  it('finding:<id> trips only on that finding: the slow server has slow and missing-descriptions', async () => {
    const slow = await runCheckIn(makeWorkDir(), [
      urlOf('translate'),
      '--json',
      '--fail-on',
      'finding:slow,finding:missing-descriptions',
    ]);
    expect(slow.code).toBe(1);
    const r = report(slow.stdout);
    expect(r.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['slow', 'missing-descriptions']));
    expect(r.gates.tripped.map((g) => g.gate)).toEqual(['finding:slow', 'finding:missing-descriptions']);
    const weather = await runCheckIn(makeWorkDir(), [urlOf('weather'), '--json', '--fail-on', 'finding:slow']);
    expect(weather.code).toBe(0);
  });

  it('gates may repeat --fail-on and are reported in the order given', async () => {
    const run = await runCheckIn(makeWorkDir(), [
      urlOf('homepage'),
      '--json',
      '--fail-on',
      'high-risk',
      '--fail-on',
      'not-answering',
    ]);
    expect(run.code).toBe(1);
    expect(report(run.stdout).gates.failOn).toEqual(['high-risk', 'not-answering']);
  });

  it('--help prints the usage and exits 0; after -- it belongs to the server command', async () => {
    const run = await runCheckIn(makeWorkDir(), ['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--fail-on GATE[,GATE...]');
    const parsed = await import('../src/check/command.js');
    expect(parsed.parseCheckArguments(['--', 'node', 'server.js', '--help']).target).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['server.js', '--help'],
    });
  });

  it('usage errors exit 2 and say what is wrong', async () => {
    const dir = makeWorkDir();
    const cases: [string[], RegExp][] = [
      [[], /one server URL/],
      [['not a url'], /not an absolute URL/],
      [['ftp://127.0.0.1/mcp'], /http or https/],
      [[urlOf('notes'), '--fail-on', 'sometimes'], /does not know "sometimes"/],
      [[urlOf('notes'), '--fail-on', 'finding:nope'], /does not know "finding:nope"/],
      [[urlOf('notes'), '--fail-on', 'risk-rise'], /give --baseline FILE/],
      [[urlOf('notes'), '--fail-on', 'change'], /give --baseline FILE/],
      [[urlOf('notes'), '--baseline', 'absent.lock.json'], /does not exist; write it with --update-baseline/],
      [[urlOf('notes'), '--colour'], /Unknown option/],
      [[urlOf('notes'), '--', 'node'], /not both/],
      [['--'], /must be followed by the command/],
      [['https://mcp.example.com/mcp', '--deep'], /--i-own-this-server/],
    ];
    for (const [args, message] of cases) {
      const run = await runCheckIn(dir, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stdout).toBe('');
    }
  });
});

describe('baseline round trip', () => {
  it('writes the lock file, then passes unchanged against it, then reports the change, rename-free rise and gates', async () => {
    const dir = makeWorkDir();
    const url = urlOf('tickets');
    const before = fetchOnDay(0);
    const first = await runCheckIn(dir, [url, '--update-baseline', '--json'], { fetch: before });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('wrote mcp-atlas.lock.json (3 tools)');
    const lock = BaselineFileSchema.parse(JSON.parse(readFileSync(join(dir, 'mcp-atlas.lock.json'), 'utf8')));
    expect(lock.tools.map((t) => [t.name, t.level])).toEqual([
      ['list_tickets', 'read-only'],
      ['get_ticket', 'read-only'],
      ['reply_ticket', 'changes-data'],
    ]);
    expect(lock.serverVersion).toBe('1.8.0');

    const same = await runCheckIn(
      dir,
      [url, '--baseline', 'mcp-atlas.lock.json', '--fail-on', 'change,risk-rise', '--json'],
      { fetch: before },
    );
    expect(same.code).toBe(0);
    expect(report(same.stdout).baseline).toEqual({
      file: 'mcp-atlas.lock.json',
      added: [],
      removed: [],
      changed: [],
      renamed: [],
      riskRises: [],
      details: [],
      resources: null,
      resourceTemplates: null,
      prompts: null,
      unchanged: true,
    });

    const after = fetchOnDay(changeDayFor(DAYS));
    const changed = await runCheckIn(
      dir,
      [url, '--baseline', 'mcp-atlas.lock.json', '--fail-on', 'change,risk-rise', '--json'],
      { fetch: after },
    );
    expect(changed.code).toBe(1);
    const r = report(changed.stdout);
    expect(r.baseline).toEqual({
      file: 'mcp-atlas.lock.json',
      added: ['delete_ticket'],
      removed: [],
      changed: ['reply_ticket'],
      renamed: [],
      riskRises: [{ name: 'delete_ticket', from: null, to: 'high-risk' }],
      details: [
        {
          name: 'reply_ticket',
          description: {
            from: 'Sends a reply to the customer on a ticket.',
            to: 'Sends a reply to the customer on a ticket, and can attach files.',
          },
          inputSchema: { added: ['/properties/files'], removed: [], changed: [] },
          annotations: [],
        },
      ],
      resources: null,
      resourceTemplates: null,
      prompts: null,
      unchanged: false,
    });
    expect(r.gates.tripped.map((g) => g.gate)).toEqual(['change', 'risk-rise']);
    // The change gate says what changed in the rewritten tool, not only its name.
    expect(r.gates.tripped[0]?.detail).toContain(
      'changed reply_ticket (description: "Sends a reply to the customer on a ticket." -> "Sends a reply to the customer on a ticket, and can attach files."; input schema: added /properties/files)',
    );

    // Only the default gate: the change is reported but does not fail the build.
    const reported = await runCheckIn(dir, [url, '--baseline', 'mcp-atlas.lock.json'], { fetch: after });
    expect(reported.code).toBe(0);
    expect(reported.stdout).toContain('risk rise delete_ticket: new -> high-risk');

    // Accepting the change: update, then the same day is unchanged again.
    const update = await runCheckIn(dir, [url, '--baseline', 'mcp-atlas.lock.json', '--update-baseline'], {
      fetch: after,
    });
    expect(update.code).toBe(0);
    const again = await runCheckIn(dir, [url, '--baseline', 'mcp-atlas.lock.json', '--fail-on', 'change', '--json'], {
      fetch: after,
    });
    expect(again.code).toBe(0);
    expect(report(again.stdout).baseline?.unchanged).toBe(true);
  });

  it('reports a rename: same description and schema under a new name', async () => {
    const dir = makeWorkDir();
    const url = urlOf('weather');
    await runCheckIn(dir, [url, '--update-baseline']);
    const first = await runCheckIn(dir, [url, '--baseline', 'mcp-atlas.lock.json', '--json']);
    expect(report(first.stdout).baseline?.unchanged).toBe(true);
    // Rewrite the lock as if the server had called list_stations list_weather_stations before, with the hash recomputed.
    const lock = JSON.parse(readFileSync(join(dir, 'mcp-atlas.lock.json'), 'utf8')) as {
      tools: { name: string; definition: { name: string } }[];
    };
    const renamedDefinition = { ...lock.tools[2]!.definition, name: 'list_weather_stations' };
    const { hashTool } = await import('@mcp-atlas/findings');
    lock.tools[2] = {
      ...lock.tools[2]!,
      name: 'list_weather_stations',
      definition: renamedDefinition,
      hash: hashTool(renamedDefinition),
    } as never;
    writeFileSync(join(dir, 'mcp-atlas.lock.json'), JSON.stringify(lock));
    const run = await runCheckIn(dir, [url, '--baseline', 'mcp-atlas.lock.json', '--fail-on', 'change', '--json']);
    expect(run.code).toBe(1);
    expect(report(run.stdout).baseline).toMatchObject({
      added: [],
      removed: [],
      renamed: [{ from: 'list_weather_stations', to: 'list_stations' }],
      unchanged: false,
    });
  });

  it('refuses a lock file whose hash does not match its tool, and one that is not a baseline: exit 2', async () => {
    const dir = makeWorkDir();
    const url = urlOf('weather');
    await runCheckIn(dir, [url, '--update-baseline']);
    const lock = JSON.parse(readFileSync(join(dir, 'mcp-atlas.lock.json'), 'utf8')) as {
      tools: { definition: { description: string } }[];
    };
    lock.tools[0]!.definition.description = 'Edited by hand.';
    writeFileSync(join(dir, 'mcp-atlas.lock.json'), JSON.stringify(lock));
    const edited = await runCheckIn(dir, [url, '--baseline', 'mcp-atlas.lock.json']);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain('the hash of tool "get_forecast" does not match its definition');
    writeFileSync(join(dir, 'other.json'), '{"schema":"something-else"}');
    const other = await runCheckIn(dir, [url, '--baseline', 'other.json']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('is not an mcp-atlas.lock/1 baseline');
  });

  it('makes the folders of its outputs, and writes no output when one of them cannot be written: exit 2', async () => {
    const dir = makeWorkDir();
    const made = await runCheckIn(dir, [
      urlOf('weather'),
      ...['--baseline', 'new/locks/l.json', '--update-baseline', '--sarif', 'out/reports/c.sarif'],
    ]);
    expect(made.code).toBe(0);
    expect(BaselineFileSchema.parse(JSON.parse(readFileSync(join(dir, 'new/locks/l.json'), 'utf8'))).tools.length).toBe(
      3,
    );
    expect(JSON.parse(readFileSync(join(dir, 'out/reports/c.sarif'), 'utf8')).version).toBe('2.1.0');

    // A folder that cannot be made (a file is in its place): the lock file is not written either.
    writeFileSync(join(dir, 'blocked'), 'a file, not a folder');
    const refused = await runCheckIn(dir, [
      urlOf('weather'),
      ...['--baseline', 'second.json', '--update-baseline', '--sarif', 'blocked/c.sarif'],
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('cannot write blocked/c.sarif');
    expect(existsSync(join(dir, 'second.json'))).toBe(false);
    expect(refused.stdout).toBe('');
  });

  it('does not overwrite the lock file when the server sent no tool list', async () => {
    const dir = makeWorkDir();
    const run = await runCheckIn(dir, [urlOf('homepage'), '--update-baseline']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('mcp-atlas.lock.json was not written: no tool list was read');
  });
});
