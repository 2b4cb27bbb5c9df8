// Agents' reports: validate the fixed fields, name the reporter (a keyed hash of its license key when the key
// validates, else a keyed hash of the network the report came from), apply the daily quotas, and append one
// JSON line to the day's reports.jsonl. Shared by POST /api/reports and the report_road MCP tool, so both
// follow the same rules. The day's log is read from storage once per day and then only its counts are kept:
// this process is the only writer of that file. The log is append-only: each accepted report adds one line
// (Storage.append: write and fsync, with reports that arrive during an fsync sharing the next one), so the
// bytes written per report stay the same however long the day's log grows. Quotas are decided and counted
// one report at a time, in order; the wait for the line to be durable happens outside that queue, which is
// what lets concurrent reports share an fsync. Each request is answered only once its own line is durable.
// A report's tool name is kept only when the server's newest tool list names it (see keptToolOf).
import { checkReportQuota, ReliabilityInputError, reporterKey } from '@mcp-atlas/reliability';
import { keyedId } from '../data/keyed-id.js';
import { dayReportsPath, rootPath } from '../data/paths.js';
import { parseReportLog } from '../data/report-log.js';
import { SealedDayWriteError } from '../storage/sealed-days.js';
import { createSerialQueue } from '../storage/serial-queue.js';
import type { ResolvedHttpDeps } from './deps.js';
import { type Answer, invalidInput, type Refusal, refuse } from './errors.js';
import { countSubmission, countUnreadable, type IntakeHooks } from './intake-hooks.js';
import { LICENSE_HEADER_MAX_LENGTH, TOOL_NAME_PATTERN } from './limits.js';
import { type ReportAccepted, type ReportBody, ReportBodySchema, type StoredReport } from './schemas.js';
import { resolveServer } from './server-ref.js';

/** What is known about the sender of a report, read from the request and used only to name the reporter. */
export interface ReportCaller {
  /** The client's IP address, or null when the runtime gives none. */
  address: string | null;
  /** The license key header, or null when absent. */
  licenseKey: string | null;
}

/** Takes reports in; one per app, since it holds the day's quota counts. */
export interface ReportIntake {
  /**
   * Validates and stores one report, or says why not. Nothing is stored when the answer is a refusal. Every call
   * is counted through `onIntake`, whether POST /api/reports or the report_road tool made it.
   */
  submit(input: unknown, caller: ReportCaller): Promise<Answer<ReportAccepted>>;
  /**
   * For a POST whose body could not be read, so submit never ran: counts it as a refused report and returns
   * `refusal` for the route to answer with.
   */
  refuseUnreadable(refusal: Refusal): Refusal;
}

/** The dependencies of the report intake. */
export type ReportIntakeDeps = Pick<
  ResolvedHttpDeps,
  'getView' | 'storage' | 'now' | 'validateLicense' | 'reporterSecret' | 'logger'
> &
  IntakeHooks;

/** The day's report log as this process knows it: the counts the quotas need, and whether its end is torn. */
interface ReportDay {
  day: string;
  byReporter: Map<string, number>;
  byReporterServer: Map<string, number>;
  /**
   * The file may end inside a line (a crash mid-append, or an append that failed): the next line then
   * starts with a line break, so it never glues onto the torn one (the reader skips the empty or torn line).
   */
  tornTail: boolean;
}

const LINE_FEED = 0x0a;

const encoder = new TextEncoder();

function pairKey(reporter: string, server: string): string {
  return `${reporter}\u0000${server}`;
}

function countReport(day: ReportDay, report: Pick<StoredReport, 'reporter' | 'server'>, by = 1): void {
  day.byReporter.set(report.reporter, (day.byReporter.get(report.reporter) ?? 0) + by);
  const key = pairKey(report.reporter, report.server);
  day.byReporterServer.set(key, (day.byReporterServer.get(key) ?? 0) + by);
}

/** The bytes one accepted report appends: its JSON line, after a line break when the log's end is torn. */
export function reportLineOf(record: StoredReport, tornTail: boolean): Uint8Array {
  return encoder.encode(`${tornTail ? '\n' : ''}${JSON.stringify(record)}\n`);
}

/** The keyed hash an anonymous reporter is known by: its network never appears in storage. */
export function anonymousReporterId(secret: Uint8Array, network: string): string {
  return `anon:${keyedId(secret, 'network', network)}`;
}

/** The keyed hash a paying reporter is known by: its license key never appears in storage. */
export function paidReporterId(secret: Uint8Array, licenseKey: string): string {
  return `paid:${keyedId(secret, 'license', licenseKey)}`;
}

/**
 * What the stored line holds in place of the tool name when the server has no tool list: an empty name. The line
 * schema (data/stored-records.ts) wants a string, and an empty one says "no name kept" without adding words.
 */
export const NO_TOOL_KEPT = '';

/**
 * The tool name a report keeps: the name itself when the server has a tool list (the intake has checked that the
 * list names it), else {@link NO_TOOL_KEPT}. Without a list to check against, a name-shaped string can carry
 * whatever the reporter wrote ("see-evil.example/x"), and the day's log is sealed and kept for good; the report
 * itself still counts, since ratings and incidents do not read the tool, so an agent's report of a server that is
 * down (and so never listed its tools) is not lost.
 *
 * @example keptToolOf({ catalog: null }, 'find_contact'); // ''
 */
export function keptToolOf(server: { catalog: object | null }, tool: string): string {
  return server.catalog === null ? NO_TOOL_KEPT : tool;
}

/** The stored line of an accepted report: fixed fields in a fixed order, plus who and when. */
export function storedReportOf(
  body: ReportBody,
  serverId: string,
  reporter: { id: string; paid: boolean },
  at: Date,
): StoredReport {
  return {
    server: serverId,
    tool: body.tool,
    ok: body.ok,
    ...(body.reason !== undefined ? { reason: body.reason } : {}),
    ...(body.ms !== undefined ? { ms: body.ms } : {}),
    ...(body.matched !== undefined ? { matched: body.matched } : {}),
    ...(body.resultTokens !== undefined ? { resultTokens: body.resultTokens } : {}),
    ...(body.charged !== undefined ? { charged: body.charged } : {}),
    ...(body.surprise !== undefined ? { surprise: body.surprise } : {}),
    ...(body.toolsHash !== undefined ? { toolsHash: body.toolsHash } : {}),
    reporter: reporter.id,
    paid: reporter.paid,
    at: at.toISOString(),
  };
}

/** Seconds from `now` to the next UTC midnight, when every daily quota starts over. */
export function secondsUntilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** Creates the report intake. */
/** The refusal of a report for a day whose files are sealed. */
function daySealed(day: string): Refusal {
  return refuse(409, 'day_sealed', `day ${day} is already sealed; reports for it are closed`);
}

export function createReportIntake(deps: ReportIntakeDeps): ReportIntake {
  const queue = createSerialQueue();
  let current: ReportDay | null = null;

  async function loadDay(day: string): Promise<ReportDay> {
    if (current?.day === day) return current;
    const bytes = (await deps.storage.get(dayReportsPath(day))) ?? new Uint8Array();
    const tornTail = bytes.length > 0 && bytes[bytes.length - 1] !== LINE_FEED;
    const loaded: ReportDay = { day, byReporter: new Map(), byReporterServer: new Map(), tornTail };
    const { reports, unreadable } = parseReportLog(bytes);
    for (const report of reports) countReport(loaded, report);
    if (unreadable > 0)
      deps.logger?.warn({ day, unreadable }, 'lines of the report log do not parse; they do not count toward quotas');
    current = loaded;
    return loaded;
  }

  async function identify(caller: ReportCaller): Promise<Answer<{ id: string; paid: boolean }>> {
    const key = caller.licenseKey?.trim() ?? '';
    if (key.length > LICENSE_HEADER_MAX_LENGTH) {
      return {
        ok: false,
        refusal: refuse(
          400,
          'invalid_license',
          `the license key is longer than ${LICENSE_HEADER_MAX_LENGTH} characters`,
        ),
      };
    }
    // A key that does not validate is no error: the report simply counts as anonymous, as the rules say.
    if (key.length > 0 && (await deps.validateLicense(key)) === true) {
      return { ok: true, value: { id: paidReporterId(deps.reporterSecret, key), paid: true } };
    }
    if (caller.address === null) {
      return {
        ok: false,
        refusal: refuse(
          400,
          'no_client_address',
          'the network this report came from cannot be told, so it cannot be counted',
        ),
      };
    }
    try {
      return {
        ok: true,
        value: { id: anonymousReporterId(deps.reporterSecret, reporterKey(caller.address)), paid: false },
      };
    } catch (error) {
      if (error instanceof ReliabilityInputError) {
        return { ok: false, refusal: refuse(400, 'invalid_client_address', 'the client address is not an IP address') };
      }
      throw error;
    }
  }

  /**
   * Decides the quotas for one report and, when admitted, counts it and starts its append; runs in the queue.
   * The count is taken before the line is durable so the next report in the queue sees it; `durable`
   * settles when the line is on disk, and a failed append gives the count back.
   */
  async function admit(record: StoredReport): Promise<Answer<{ day: string; durable: Promise<void> }>> {
    const day = record.at.slice(0, 10);
    // A sealed day is never written again: its files are fixed by the signed root.
    if ((await deps.storage.get(rootPath(day))) !== null) return { ok: false, refusal: daySealed(day) };
    const log = await loadDay(day);
    const decision = checkReportQuota({
      reporterToday: log.byReporter.get(record.reporter) ?? 0,
      reporterServerToday: log.byReporterServer.get(pairKey(record.reporter, record.server)) ?? 0,
    });
    if (!decision.admitted) {
      const message =
        decision.reason === 'reporter_daily_limit'
          ? `this reporter already sent ${decision.limit} reports today (UTC); more are taken tomorrow`
          : `this reporter already sent ${decision.limit} reports about ${record.server} today (UTC); more are taken tomorrow`;
      return { ok: false, refusal: refuse(429, decision.reason, message, { limit: decision.limit }) };
    }
    const line = reportLineOf(record, log.tornTail);
    log.tornTail = false;
    countReport(log, record);
    const durable = deps.storage.append(dayReportsPath(day), line).catch((error: unknown) => {
      // A failed append leaves the quotas as they were, and may have left part of the line behind.
      countReport(log, record, -1);
      log.tornTail = true;
      throw error;
    });
    // The request awaits `durable` as soon as the queue lets go; this keeps a failure in between from being reported as unhandled.
    durable.catch(() => undefined);
    return { ok: true, value: { day, durable } };
  }

  async function append(record: StoredReport): Promise<Answer<ReportAccepted>> {
    const admitted = await queue.run(() => admit(record));
    if (!admitted.ok) return admitted;
    try {
      await admitted.value.durable;
    } catch (error) {
      // The day was sealed between the check above and the append; the store refused the line, so it is a 409.
      if (error instanceof SealedDayWriteError) return { ok: false, refusal: daySealed(admitted.value.day) };
      throw error;
    }
    return { ok: true, value: { accepted: true, day: admitted.value.day, server: record.server, paid: record.paid } };
  }

  // One report from its input to its answer; `submit` counts what this decided.
  async function judge(input: unknown, caller: ReportCaller): Promise<Answer<ReportAccepted>> {
    const parsed = ReportBodySchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, '(body)') };
    const body = parsed.data;
    const server = resolveServer(deps.getView(), body.server);
    if (server === null) {
      return {
        ok: false,
        refusal: refuse(404, 'unknown_server', `no server is watched under ${JSON.stringify(body.server)}`),
      };
    }
    if (server.catalog !== null) {
      if (!server.catalog.verdicts.some((verdict) => verdict.name === body.tool)) {
        return {
          ok: false,
          refusal: refuse(
            404,
            'unknown_tool',
            `${server.id} listed no tool named ${JSON.stringify(body.tool)} in its newest tool list`,
          ),
        };
      }
    } else if (!TOOL_NAME_PATTERN.test(body.tool)) {
      // Not kept (keptToolOf), but still checked: a sentence where a name belongs is a malformed report.
      return {
        ok: false,
        refusal: refuse(400, 'invalid_body', 'tool: must be a tool name (letters, digits, "_", ".", "/", ":" or "-")', {
          issues: [{ path: 'tool', message: 'must be a tool name' }],
        }),
      };
    }
    const reporter = await identify(caller);
    if (!reporter.ok) return reporter;
    const record = storedReportOf(
      { ...body, tool: keptToolOf(server, body.tool) },
      server.id,
      reporter.value,
      deps.now(),
    );
    const result = await append(record);
    if (result.ok) {
      deps.logger?.info(
        { event: 'report', server: server.id, ok: body.ok, paid: reporter.value.paid },
        'report accepted',
      );
      // Once the line is durable, the server's rating and incident may change: ask for a live update.
      deps.onServerEvidence?.([server.id]);
    } else deps.logger?.info({ event: 'report_refused', code: result.refusal.code }, 'report refused');
    return result;
  }

  return {
    submit: (input, caller) => countSubmission(deps, 'reports', () => judge(input, caller)),
    refuseUnreadable: (refusal) => countUnreadable(deps, 'reports', refusal),
  };
}
