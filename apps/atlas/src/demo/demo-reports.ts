// Agents' reports in the demo: a few demo agents (two paying, with the demo's public license keys, and two
// anonymous, told apart by their network) report calls to some fleet members over the simulated month, and
// report the breaking member failing in the last hour. Every report goes through the intake's own pieces:
// the body is validated with the intake's schema, the reporter id is the intake's keyed hash, a paying key
// is the one the demo's license validator accepts, and the line is the intake's line, appended to the day's
// log before that day is sealed (so the seal covers it, as it covers a served day's log).

import { dayFromTime } from '@mcp-atlas/history';
import { reporterKey } from '@mcp-atlas/reliability';
import { dayReportsPath } from '../data/paths.js';
import { anonymousReporterId, paidReporterId, reportLineOf, storedReportOf } from '../http/report-intake.js';
import { ReportBodySchema, type StoredReport } from '../http/schemas.js';
import type { LicenseValidator } from '../serve/serve-atlas.js';
import type { Storage } from '../storage/storage.js';
import type { FleetMember } from './fleet.js';

/** The fleet members the demo agents report on; enough of them are rated that ratings show. */
export const DEMO_RATED_MEMBERS: readonly string[] = ['weather', 'ledger', 'files', 'inbox'];

/** The demo agents: the license keys of the paying ones, the network addresses (documentation ranges) of the others. */
export const DEMO_AGENTS: readonly ({ licenseKey: string } | { address: string })[] = [
  { licenseKey: 'demo-paid-license-1' },
  { licenseKey: 'demo-paid-license-2' },
  { address: '198.51.100.23' },
  { address: '203.0.113.40' },
];

/** One demo agent, as the intake would know it. */
export interface DemoReporter {
  id: string;
  paid: boolean;
}

/**
 * The demo agents as the report intake identifies them under `secret` (the serving process's reporter
 * secret): a license key counts as paying only when `validateLicense` accepts it, as at the intake; a paying
 * agent whose key is refused is left out (the demo has no network to tell it apart by).
 */
export async function demoReporters(secret: Uint8Array, validateLicense: LicenseValidator): Promise<DemoReporter[]> {
  const reporters: DemoReporter[] = [];
  for (const agent of DEMO_AGENTS) {
    if ('licenseKey' in agent && (await validateLicense(agent.licenseKey)))
      reporters.push({ id: paidReporterId(secret, agent.licenseKey), paid: true });
    else if ('address' in agent)
      reporters.push({ id: anonymousReporterId(secret, reporterKey(agent.address)), paid: false });
  }
  return reporters;
}

/** A report as an agent sends it, validated by the intake's schema, then stored as the intake stores it. */
function storedReport(body: unknown, member: FleetMember, reporter: DemoReporter, at: Date): StoredReport {
  return storedReportOf(ReportBodySchema.parse(body), member.id, reporter, at);
}

/**
 * The reports of simulated day `dayIndex` (UTC day `day`): each paying agent reports one call to every rated
 * member that day, each anonymous agent every other day, at its own hour. A call works when the member's
 * daily letter is `o` that day, and fails with a server error otherwise (the flaky member's 503 days). One
 * report per agent, member and day stays inside the intake's quotas (3 per server, 50 per reporter).
 */
export function reportsOfDay(
  day: string,
  dayIndex: number,
  members: readonly FleetMember[],
  reporters: readonly DemoReporter[],
): StoredReport[] {
  const reports: StoredReport[] = [];
  reporters.forEach((reporter, r) => {
    if (!reporter.paid && (dayIndex + r) % 2 === 1) return;
    for (const member of members) {
      if (!DEMO_RATED_MEMBERS.includes(member.id)) continue;
      const ok = member.expectedLetter(dayIndex) === 'o';
      const tool = member.tools(dayIndex)[0]?.name ?? 'unknown';
      const at = new Date(
        `${day}T${String(7 + 3 * r).padStart(2, '0')}:${String((dayIndex * 7 + r * 11) % 60).padStart(2, '0')}:00.000Z`,
      );
      const body = ok
        ? { server: member.id, tool, ok: true, ms: 250 + ((dayIndex * 37 + r * 91) % 600), matched: true }
        : { server: member.id, tool, ok: false, reason: 'server_error', ms: 40 };
      reports.push(storedReport(body, member, reporter, at));
    }
  });
  return reports;
}

/**
 * The reports of the breaking member's outage: every demo agent reports a failed call (a server error)
 * after `breakAt`, inside the last hour before `now` and on `now`'s UTC day (a sealed day takes no more
 * reports), newest last.
 */
export function outageReports(
  member: FleetMember,
  reporters: readonly DemoReporter[],
  breakAt: Date,
  now: Date,
): StoredReport[] {
  const from = Math.max(
    breakAt.getTime(),
    now.getTime() - 60 * 60_000,
    Date.parse(`${dayFromTime(now)}T00:00:00.000Z`),
  );
  const step = Math.floor((now.getTime() - from) / (reporters.length + 1));
  const tool = member.tools(0)[0]?.name ?? 'unknown';
  return reporters.map((reporter, i) =>
    storedReport(
      { server: member.id, tool, ok: false, reason: 'server_error', ms: 30 },
      member,
      reporter,
      new Date(from + step * (i + 1)),
    ),
  );
}

/** Appends reports to their days' logs, one append per day (the intake's line format, newline-ended). */
export async function appendReports(storage: Storage, reports: readonly StoredReport[]): Promise<void> {
  const byDay = new Map<string, StoredReport[]>();
  for (const report of reports) {
    const day = report.at.slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), report]);
  }
  for (const [day, list] of byDay) {
    const lines = list.map((report) => reportLineOf(report, false));
    const bytes = new Uint8Array(lines.reduce((sum, line) => sum + line.length, 0));
    let offset = 0;
    for (const line of lines) {
      bytes.set(line, offset);
      offset += line.length;
    }
    await storage.append(dayReportsPath(day), bytes);
  }
}
