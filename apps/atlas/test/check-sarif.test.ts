// SARIF output of `mcp-atlas check`: validated against the SARIF 2.1.0 schema; a result for every finding, risk
// rise and tripped gate (change, high-risk, not-answering); rules with readable names, help and a methodology
// link whose anchor exists; results on the tool's line of the lock file when there is one, and no file otherwise.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODOLOGY_URL, SARIF_GATE_RULES, SARIF_RISK_RISE_RULE } from '../src/check/constants.js';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { findToolLine, sarifRules } from '../src/check/sarif.js';
import { changeDayFor, type Fleet, startFleet } from '../src/demo/fleet.js';
import { fetchOnDay, makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import { sarifSchemaErrors } from './fixtures/check-sarif-schema.js';

let fleet: Fleet;
const urlOf = (id: string): string => fleet.members.find((m) => m.id === id)?.url ?? '';

interface SarifLocation {
  physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } };
  logicalLocations?: { name: string; kind: string }[];
}
interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: SarifLocation[];
}
interface SarifLog {
  version: string;
  runs: { tool: { driver: { rules: { id: string; name: string }[] } }; results: SarifResult[] }[];
}

const readLog = (dir: string, file: string): SarifLog => JSON.parse(readFileSync(join(dir, file), 'utf8')) as SarifLog;

// GitHub's heading anchors: lower case, punctuation other than - and _ dropped, spaces to hyphens.
const slug = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

beforeAll(async () => {
  fleet = await startFleet(30);
});
afterAll(async () => {
  await fleet.close();
});

describe('SARIF rules', () => {
  it('the schema check itself rejects a log that is not SARIF', () => {
    expect(sarifSchemaErrors({ version: '2.1.0' }).length).toBeGreaterThan(0);
    expect(sarifSchemaErrors({ version: '9.9', runs: [] }).length).toBeGreaterThan(0);
  });

  it('every rule has a readable name, short and full descriptions, help text and markdown, and a helpUri into the methodology', () => {
    // Every anchor of every area file, as `<file>#<anchor>`: a link names the file and a heading in it.
    const folder = fileURLToPath(new URL('../../../docs/methodology/', import.meta.url));
    const anchors = new Set(
      readdirSync(folder)
        .filter((file) => file.endsWith('.md'))
        .flatMap((file) =>
          readFileSync(join(folder, file), 'utf8')
            .split('\n')
            .filter((line) => line.startsWith('#'))
            .map((line) => `${file}#${slug(line.replace(/^#+\s*/, ''))}`),
        ),
    );
    const rules = sarifRules();
    expect(rules.map((r) => r.name)).toEqual(
      expect.arrayContaining(['HeavyToolList', 'VeryLongDescription', 'RiskRise', 'NotAnswering', 'ToolListChanged']),
    );
    for (const rule of rules) {
      expect(rule.name).toMatch(/^(?:[A-Z][a-z]+)+$/);
      expect(rule.shortDescription.text.length).toBeGreaterThan(2);
      expect(rule.fullDescription.text.length).toBeGreaterThan(rule.shortDescription.text.length);
      expect(rule.help.text).toContain(rule.helpUri);
      expect(rule.help.markdown).toContain(`](${rule.helpUri})`);
      expect(rule.helpUri.startsWith(`${METHODOLOGY_URL}/`)).toBe(true);
      expect(anchors.has(rule.helpUri.slice(`${METHODOLOGY_URL}/`.length)), rule.helpUri).toBe(true);
    }
  });

  it('findToolLine finds the line that opens a tool entry, not a nested "name" inside a definition', () => {
    const lock = `${JSON.stringify(
      {
        schema: 'mcp-atlas.lock/1',
        tools: [
          { name: 'a', definition: { name: 'a', inputSchema: { properties: { name: { type: 'string' } } } } },
          { name: 'b', definition: { name: 'b' } },
        ],
      },
      null,
      2,
    )}\n`;
    const lines = lock.split('\n');
    const b = findToolLine(lock, 'b') as number;
    expect(lines[b - 1]).toBe('    {');
    expect(lines[b]).toBe('      "name": "b",');
    expect(findToolLine(lock, 'name')).toBeNull();
    expect(findToolLine(lock, 'missing')).toBeNull();
  });
});

describe('SARIF results', () => {
  it('one result per finding; without a lock file the results carry no file, only a logical location', async () => {
    const dir = makeWorkDir();
    const run = await runCheckIn(dir, [urlOf('translate'), '--json', '--sarif', 'check.sarif']);
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    const log = readLog(dir, 'check.sarif');
    expect(sarifSchemaErrors(log)).toEqual([]);
    const run0 = log.runs[0]!;
    expect(run0.results.map((r) => r.ruleId)).toEqual(report.findings.map((f) => `mcp-atlas/finding/${f.id}`));
    expect(report.findings.length).toBeGreaterThanOrEqual(2);
    for (const result of run0.results) {
      expect(run0.tool.driver.rules[result.ruleIndex]?.id).toBe(result.ruleId);
      expect(result.locations.every((l) => l.physicalLocation === undefined)).toBe(true);
      expect(result.locations[0]?.logicalLocations?.[0]?.name).toBeTruthy();
    }
  });

  it('a tripped change gate gives valid results on the changed tool’s lock-file line, saying what changed', async () => {
    const dir = makeWorkDir();
    const url = urlOf('tickets');
    await runCheckIn(dir, [url, '--baseline', 'tickets.lock.json', '--update-baseline'], { fetch: fetchOnDay(0) });
    const run = await runCheckIn(
      dir,
      [url, '--baseline', 'tickets.lock.json', '--sarif', 'out.sarif', '--fail-on', 'change', '--json'],
      { fetch: fetchOnDay(changeDayFor(30)) },
    );
    expect(run.code).toBe(1);
    const log = readLog(dir, 'out.sarif');
    expect(sarifSchemaErrors(log)).toEqual([]);
    const results = log.runs[0]!.results;
    const changes = results.filter((r) => r.ruleId === SARIF_GATE_RULES.change);
    expect(changes.map((r) => r.message.text.replace(`${url}: `, ''))).toEqual([
      'tool "delete_ticket" was added',
      'tool "reply_ticket" changed: description: "Sends a reply to the customer on a ticket." -> "Sends a reply to the customer on a ticket, and can attach files."; input schema: added /properties/files',
    ]);
    const lockLines = readFileSync(join(dir, 'tickets.lock.json'), 'utf8').split('\n');
    const [added, changed] = changes;
    // The added tool is not in the lock file: the result names the file but no line.
    expect(added?.locations[0]?.physicalLocation).toEqual({ artifactLocation: { uri: 'tickets.lock.json' } });
    const line = changed?.locations[0]?.physicalLocation?.region?.startLine as number;
    expect(changed?.locations[0]?.physicalLocation?.artifactLocation.uri).toBe('tickets.lock.json');
    expect(lockLines[line - 1]).toBe('    {');
    expect(lockLines[line]).toBe('      "name": "reply_ticket",');
    expect(changed?.level).toBe('error');
    const rises = results.filter((r) => r.ruleId === SARIF_RISK_RISE_RULE);
    expect(rises).toHaveLength(1);
    expect(rises[0]?.message.text).toContain('tool "delete_ticket" rose from absent to high-risk');
  });

  it('after --update-baseline the added tool points at its own line of the new lock file', async () => {
    const dir = makeWorkDir();
    const url = urlOf('tickets');
    await runCheckIn(dir, [url, '--baseline', 'l.json', '--update-baseline'], { fetch: fetchOnDay(0) });
    await runCheckIn(
      dir,
      [url, '--baseline', 'l.json', '--update-baseline', '--sarif', 'u.sarif', '--fail-on', 'change'],
      { fetch: fetchOnDay(changeDayFor(30)) },
    );
    const log = readLog(dir, 'u.sarif');
    expect(sarifSchemaErrors(log)).toEqual([]);
    const added = log.runs[0]!.results.find((r) => r.message.text.endsWith('tool "delete_ticket" was added'));
    const line = added?.locations[0]?.physicalLocation?.region?.startLine as number;
    expect(readFileSync(join(dir, 'l.json'), 'utf8').split('\n')[line]).toBe('      "name": "delete_ticket",');
  });

  it('a tripped high-risk gate gives one result per high-risk tool', async () => {
    const dir = makeWorkDir();
    const run = await runCheckIn(dir, [urlOf('tickets'), '--sarif', 'h.sarif', '--fail-on', 'high-risk', '--json'], {
      fetch: fetchOnDay(changeDayFor(30)),
    });
    expect(run.code).toBe(1);
    const log = readLog(dir, 'h.sarif');
    expect(sarifSchemaErrors(log)).toEqual([]);
    const high = log.runs[0]!.results.filter((r) => r.ruleId === SARIF_GATE_RULES['high-risk']);
    expect(high.map((r) => r.locations[0]?.logicalLocations?.[0]?.name)).toEqual(['delete_ticket']);
    expect(high[0]?.message.text).toContain('tool "delete_ticket" is high-risk');
  });

  it('a server that does not answer gives a valid log with one not-answering result', async () => {
    const dir = makeWorkDir();
    const run = await runCheckIn(dir, [urlOf('homepage'), '--sarif', 'empty.sarif']);
    expect(run.code).toBe(1);
    const log = readLog(dir, 'empty.sarif');
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0]?.results.map((r) => [r.ruleId, r.level])).toEqual([
      [SARIF_GATE_RULES['not-answering'], 'error'],
    ]);
    expect(log.runs[0]?.results[0]?.locations[0]).toEqual({ logicalLocations: [{ name: 'server', kind: 'module' }] });
  });
});
