// SARIF output of `mcp-atlas check`: validated against the SARIF 2.1.0 schema, one result per finding and
// one per risk rise, each pinned to the baseline file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SARIF_RISK_RISE_RULE } from '../src/check/constants.js';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { changeDayFor, type Fleet, startFleet } from '../src/demo/fleet.js';
import { fetchOnDay, makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import { sarifSchemaErrors } from './fixtures/check-sarif-schema.js';

let fleet: Fleet;
const urlOf = (id: string): string => fleet.members.find((m) => m.id === id)?.url ?? '';

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
}
interface SarifLog {
  version: string;
  runs: { tool: { driver: { rules: { id: string }[] } }; results: SarifResult[] }[];
}

beforeAll(async () => {
  fleet = await startFleet(30);
});
afterAll(async () => {
  await fleet.close();
});

describe('SARIF output', () => {
  it('the schema check itself rejects a log that is not SARIF', () => {
    expect(sarifSchemaErrors({ version: '2.1.0' }).length).toBeGreaterThan(0);
    expect(sarifSchemaErrors({ version: '9.9', runs: [] }).length).toBeGreaterThan(0);
  });

  it('one result per finding, valid SARIF 2.1.0', async () => {
    const dir = makeWorkDir();
    const run = await runCheckIn(dir, [urlOf('translate'), '--json', '--sarif', 'check.sarif']);
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    const log = JSON.parse(readFileSync(join(dir, 'check.sarif'), 'utf8')) as SarifLog;
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.version).toBe('2.1.0');
    const run0 = log.runs[0]!;
    expect(run0.results.map((r) => r.ruleId)).toEqual(report.findings.map((f) => `mcp-atlas/finding/${f.id}`));
    expect(report.findings.length).toBeGreaterThanOrEqual(2);
    for (const result of run0.results) {
      expect(run0.tool.driver.rules[result.ruleIndex]?.id).toBe(result.ruleId);
      expect(result.locations[0]?.physicalLocation.artifactLocation.uri).toBe('mcp-atlas.lock.json');
    }
  });

  it('one result per risk rise against the baseline, level error, valid SARIF 2.1.0', async () => {
    const dir = makeWorkDir();
    const url = urlOf('tickets');
    await runCheckIn(dir, [url, '--baseline', 'tickets.lock.json', '--update-baseline'], { fetch: fetchOnDay(0) });
    const run = await runCheckIn(dir, [url, '--baseline', 'tickets.lock.json', '--sarif', 'out.sarif', '--json'], {
      fetch: fetchOnDay(changeDayFor(30)),
    });
    expect(run.code).toBe(0);
    const log = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')) as SarifLog;
    expect(sarifSchemaErrors(log)).toEqual([]);
    const rises = log.runs[0]!.results.filter((r) => r.ruleId === SARIF_RISK_RISE_RULE);
    expect(rises).toHaveLength(1);
    expect(rises[0]).toMatchObject({
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'tickets.lock.json' } } }],
    });
    expect(rises[0]?.message.text).toContain('tool "delete_ticket" rose from absent to high-risk');
  });

  it('a server that does not answer gives a valid log with no results', async () => {
    const dir = makeWorkDir();
    const run = await runCheckIn(dir, [urlOf('homepage'), '--sarif', 'empty.sarif']);
    expect(run.code).toBe(1);
    const log = JSON.parse(readFileSync(join(dir, 'empty.sarif'), 'utf8')) as SarifLog;
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0]?.results).toEqual([]);
  });
});
