// The service's schedule, driven by an injected clock: seal the previous day from the seal time (any later
// run catches up), read the registry and run the daily check once per day, the hourly check once per hour, the
// five-minute checks for owners who opted in (with their second-failure alerts), the slotted checks of
// submitted servers (and their decisions), the reporters' and sensors' agreement with our checks once per
// hour, the review queue's failures and incidents once per hour (the daily check queues its catalogs' pattern
// matches itself), the daily aggregates of days that are over, and retention once per day.
//
// Two lanes. The daily lane runs the daily check (with its fold, and first the fold of an earlier day whose
// scan finished unfolded) and the outside tasks that read its results; a daily scan can take longer than an
// hour. The tick lane runs everything else, one tick every TICK_MS, and never waits for the daily lane, so the
// five-minute and hourly checks keep their slots while a daily scan runs. Each lane runs its tasks in order and
// never overlaps itself; a tick starts the daily lane when it is not running. A stop waits for both.

import { dayFromTime } from '@mcp-atlas/history';
import {
  estimateChecksCost,
  isPeriodOver,
  isSealTime,
  nameHourSlot,
  namePeriodSlot,
  priceCheck,
} from '@mcp-atlas/operations';
import { CHECK_SCHEDULE_RULES, POLITENESS_RULES } from '@mcp-atlas/operations/rules';
import { isOptedOut, type NetworkOptions, type ProbeResult, probeServer } from '@mcp-atlas/probe';
import { SESSION_RULES } from '@mcp-atlas/probe/rules';
import { isAnsweringLetter } from '@mcp-atlas/reliability';
import {
  decideOwnerAlert,
  recordFiveMinuteCheck,
  recordFiveMinuteObservation,
  type TimedObservation,
} from '@mcp-atlas/reliability/live';
import { z } from 'zod';
import { type CostSettings, type ResolvedCosts, resolveCosts } from '../costs/cost-settings.js';
import { SpendGate } from '../costs/spend-gate.js';
import { observationOfCheck } from '../data/check-observation.js';
import { type FiveMinuteObservation, readFiveMinuteChecks, writeFiveMinuteChecks } from '../data/five-minute-checks.js';
import { readOptedOutHosts } from '../data/opted-out.js';
import { OWNER_ALERTS_KEPT, type OwnerAlert, readOwnerAlerts, writeOwnerAlerts } from '../data/owner-alerts.js';
import {
  dayIndexPath,
  daySummaryPath,
  FIVE_MINUTE_OPT_IN_PATH,
  fiveMinuteSpendPath,
  HOURLY_PATH,
  serverStatePath,
} from '../data/paths.js';
import { addReviewItems, queueCatalogReviews, reviewItemsOfIncident } from '../data/review-queue.js';
import {
  HourlyFileSchema,
  type ServerDayResult,
  type ServerState,
  ServerStateSchema,
  type WatchedServer,
} from '../data/schemas.js';
import { readWatchedServers } from '../data/watched-servers.js';
import { writeDueAggregates } from '../demand/aggregates.js';
import type { DirectorySetting } from '../discovery/sync-catalog.js';
import type { Logger } from '../log.js';
import { METHODOLOGY_VERSION } from '../methodology.js';
import type { OutsideServiceUrls } from '../outside/outside-config.js';
import { OutsideTasks } from '../outside/outside-tasks.js';
import { deliverOwnerWebhooks } from '../owners/webhooks.js';
import { createProgress } from '../progress.js';
import { checkLocalServers, type LocalCheckFn } from '../scan/check-local.js';
import { foldCheckedDays, foldDay, updateServerState } from '../scan/fold-day.js';
import { createHostGate, type HostGate } from '../scan/host-gate.js';
import { readLocalServers } from '../scan/local-servers.js';
import { mapWithLimit } from '../scan/pool.js';
import { readOriginsOfDay } from '../scan/read-origins.js';
import { DEFAULT_SCAN_CONCURRENCY, scanDay } from '../scan/scan-day.js';
import type { ScoreDayOptions } from '../score/score-day.js';
import type { RepositoryReader } from '../score/score-inputs.js';
import type { SigningKeys } from '../seal/keys.js';
import { sealDueDays } from '../seal/seal-day.js';
import { type MonthlySearchEvalDeps, runMonthlySearchEvalIfDue } from '../search-eval/monthly-run.js';
import { getJson, type Storage } from '../storage/storage.js';
import { observeSubmissions } from '../submissions/observe.js';
import { writeAgreementRecords } from '../view/agreement-job.js';
import { buildView } from '../view/build-view.js';
import { hourlyObservationsOf } from '../view/live-inputs.js';
import type { ClusterOnce } from '../workers/cluster-once.js';
import type { EnqueuedDay } from '../workers/enqueue-day.js';
import { type HourResultOf, nextHourlyEntry, recordHourResults, writeHourlyFile } from './hourly-entry.js';
import { syncRegistry } from './registry-sync.js';
import { enforceRetention } from './retention.js';
import { TaskBackoff } from './task-backoff.js';

/** A clock the schedule reads and waits on; tests inject one they can move. */
export interface ScheduleClock {
  now(): Date;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemScheduleClock: ScheduleClock = {
  now: () => new Date(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * How often the schedule wakes to look for due work: the loop's own pace, finer than every period of
 * CHECK_SCHEDULE_RULES (@mcp-atlas/operations/rules), which say when each task is due.
 */
export const TICK_MS = 30_000;
const OptInSchema = z.object({ servers: z.array(z.string()) });
/** Tasks whose work the read model does not show, so running them alone does not rebuild it. */
const TASKS_WITHOUT_REFRESH: ReadonlySet<string> = new Set(['retention', 'review', 'search-eval', 'webhooks']);
/**
 * Checks whose results change only the servers they checked: alone in a tick, they update those servers in
 * the read model (when the service gives `updateServers`) instead of rebuilding it whole.
 */
const PER_SERVER_TASKS: ReadonlySet<string> = new Set(['hourly', 'five-minute']);
/** The order tick() names the tasks it ran in, whichever lane ran them: the schedule's order. */
const TASK_ORDER: readonly string[] = [
  'seal',
  'submissions',
  'daily',
  'domain-age',
  'packages',
  'osv',
  'hourly',
  'five-minute',
  'agreement',
  'review',
  'webhooks',
  'aggregates',
  'retention',
  'search-eval',
];

/** What the schedule needs. */
export interface SchedulerDeps {
  storage: Storage;
  log: Logger;
  keys: SigningKeys;
  /** The registry to read each day; null watches only the servers already listed. */
  registryUrl: string | null;
  /** The directories read beside the registry into the day's catalog; none when absent. */
  directories?: readonly DirectorySetting[];
  /** The probe's network (the pinning Node client in production). */
  network: NetworkOptions;
  clock?: ScheduleClock;
  /** Rebuilds the read model after new data. */
  refresh?: () => Promise<void>;
  /** Updates only these servers in the read model (ratings, incidents, shown status); falls back to `refresh`. */
  updateServers?: (ids: readonly string[]) => void;
  concurrency?: number;
  progress?: boolean;
  /** The compute caps: budgets per UTC day and the cost model (defaults: the methodology's daily budgets). */
  costs?: CostSettings;
  /** Base URLs of RDAP, npm, PyPI and OSV (defaults: the public services). */
  outside?: OutsideServiceUrls;
  /** Where check outcomes, the daily check's progress and task failures are counted (the service's metrics). */
  metrics?: ScheduleMetrics;
  /** The monthly search-evaluation run against the service itself (its own base URL); absent: not run. */
  searchEval?: Pick<MonthlySearchEvalDeps, 'baseUrl' | 'fetch' | 'setPath'>;
  /**
   * Runs each task once across every process sharing the store (workers/cluster-once.ts: PostgreSQL advisory
   * locks and a table of runs). Without it, this process alone decides, as with a data folder.
   */
  clusterOnce?: ClusterOnce;
  /** Reads a server's repository for the daily score's docs-and-maintenance dimensions; absent: they stay pending. */
  readRepository?: RepositoryReader;
  /** The operator's verified publishers for the daily score; absent: the score's built-in list. */
  verifiedPublishers?: readonly string[];
  /** Checks of one host that may run at once across every lane (default POLITENESS_RULES.checksPerHost). */
  checksPerHost?: number;
  /** The gate every check passes (a cluster's, workers/host-locks.ts); absent: one of this process, of checksPerHost. */
  hostGate?: HostGate;
  /**
   * Hands each day's check to `mcp-atlas worker` processes instead of running it here: queues the day's shards
   * (workers/enqueue-day.ts) and leaves the checks and the fold to the workers. Absent: this process checks.
   */
  queueDay?: (day: string) => Promise<EnqueuedDay>;
  /**
   * Local checks: after the day's remote checks, each package-only registry entry whose version has no check yet
   * is installed and listed in the probe's sandbox (scan/check-local.ts). Absent: local servers are not run.
   */
  local?: { check: LocalCheckFn; concurrency?: number };
}

/** What the schedule reports to the service's metrics. */
export interface ScheduleMetrics {
  recordCheck(kind: 'daily' | 'hourly' | 'five-minute', letter: string): void;
  setScanProgress(day: string, done: number, total: number): void;
  recordTaskFailure(task: string): void;
}

/** One run of the tick lane: the tasks it ran, and the daily lane running beside it (null when none could start). */
interface TickRun {
  done: string[];
  daily: Promise<string[]> | null;
}

/** Runs a task by name when it is due; see Scheduler.attemptFor. */
type Attempt = (name: string, task: () => Promise<boolean>, period?: string | null) => Promise<void>;

/**
 * A promise the daily lane settles once it has read the day's robots.txt files (after the day's registry
 * read), or once it knows it will not read them; the tick lane's checks of that day wait for it.
 */
interface PendingOrigins {
  day: string;
  read: Promise<void>;
  settle: () => void;
}

function pendingOrigins(day: string): PendingOrigins {
  let settle!: () => void;
  const read = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { day, read, settle };
}

/** Task names in the schedule's order. */
function inTaskOrder(names: readonly string[]): string[] {
  return [...names].sort((a, b) => TASK_ORDER.indexOf(a) - TASK_ORDER.indexOf(b));
}

/** Runs due work on each tick of an injected clock. */
export class Scheduler {
  private timer: unknown = null;
  /** The tick lane's run in progress. */
  private running: Promise<TickRun> | null = null;
  /** The daily lane's run in progress. */
  private dailyRunning: Promise<string[]> | null = null;
  /** The daily lane's reading of the day's origins, while it has not settled. */
  private dailyOrigins: PendingOrigins | null = null;
  /** True while the daily lane folds an earlier day, whose aggregates must wait for it. */
  private foldingEarlierDays = false;
  private lastFiveMinute = 0;
  private lastRetentionDay: string | null = null;
  private lastSubmissionRun = Number.NEGATIVE_INFINITY;
  private lastAggregateHour: string | null = null;
  private lastAgreementHour: string | null = null;
  private lastReviewHour: string | null = null;
  private readonly clock: ScheduleClock;
  private readonly costs: ResolvedCosts;
  private readonly hostGate: HostGate;
  private readonly outside: OutsideTasks;
  private readonly backoff = new TaskBackoff();
  private stopping = false;
  /** Aborted by stop(): a daily check waiting to ask a rate-limited server again stops waiting. */
  private readonly stopped = new AbortController();

  constructor(private readonly deps: SchedulerDeps) {
    this.clock = deps.clock ?? systemScheduleClock;
    this.hostGate = deps.hostGate ?? createHostGate(deps.checksPerHost ?? POLITENESS_RULES.checksPerHost);
    this.costs = resolveCosts(deps.costs);
    this.outside = new OutsideTasks({
      storage: deps.storage,
      log: deps.log,
      network: deps.network,
      methodologyVersion: METHODOLOGY_VERSION,
      ...(deps.outside !== undefined ? { urls: deps.outside } : {}),
    });
  }

  /**
   * Starts ticking; the first tick runs at once. The next tick is armed when the tick lane's run ends, not the
   * daily lane's: a daily scan in progress holds up no five-minute or hourly check.
   */
  start(): void {
    const loop = (): void => {
      void this.runTick().finally(() => {
        if (this.timer !== null) this.timer = this.clock.setTimeout(loop, TICK_MS);
      });
    };
    this.timer = this.clock.setTimeout(loop, 0);
  }

  /** Stops ticking and waits for the work in progress in both lanes. */
  async stop(): Promise<void> {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    // The task running now in each lane finishes (its writes are atomic, a daily check's finished shards are
    // kept and it resumes at the next start); the tasks after it are not started.
    this.stopping = true;
    this.stopped.abort();
    await Promise.all([this.running, this.dailyRunning]);
  }

  /**
   * Runs everything due now and waits for it, the daily lane included (the one this tick started, or the one
   * already running); returns the names of the tasks run, in the schedule's order. Overlapping calls share one
   * run of the tick lane.
   */
  async tick(): Promise<string[]> {
    const run = await this.runTick();
    const daily = run.daily === null ? [] : await run.daily;
    return inTaskOrder([...run.done, ...daily]);
  }

  /** The tick lane's run for now, started unless one is in progress (the loop and tick() share it). */
  private runTick(): Promise<TickRun> {
    this.running ??= this.runDue(this.clock.now()).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * A function that runs a task by name when it is due at `now`, once across the cluster, and adds its name to
   * `done` when it did something. `period`: with a cluster, the task runs once per period across every process
   * (null: a lock only, and the task's own stored state, a root or a summary, says whether it is due).
   */
  private attemptFor(now: Date, done: string[]): Attempt {
    return async (name, task, period = null) => {
      if (this.stopping || !this.backoff.isDue(name, now.getTime())) return;
      try {
        const once = this.deps.clusterOnce;
        if (await (once === undefined ? task() : once.run(name, period, task))) done.push(name);
        const failures = this.backoff.succeeded(name);
        if (failures > 0) this.deps.log.info({ task: name, failures }, 'scheduled task recovered');
      } catch (error) {
        // One line per backoff step: the task is not tried again (so cannot log again) until the pause is over.
        const step = this.backoff.failed(name, this.clock.now().getTime());
        this.deps.metrics?.recordTaskFailure(name);
        this.deps.log.error(
          { task: name, err: error, failures: step.failures, retry_in_s: Math.round(step.retryInMs / 1000) },
          'scheduled task failed; it waits before the next try',
        );
      }
    };
  }

  /** The tick lane: everything but the daily lane's tasks, which it starts beside itself when they are not running. */
  private async runDue(now: Date): Promise<TickRun> {
    const done: string[] = [];
    const today = dayFromTime(now);
    const attempt = this.attemptFor(now, done);
    await attempt('seal', () => this.sealIfDue(now, today));
    // Before the daily lane starts, so a server admitted at this tick is in today's check if that has not run yet.
    await attempt(
      'submissions',
      () => this.submissionsIfDue(now),
      namePeriodSlot(now, CHECK_SCHEDULE_RULES.submissionLookPeriodMs),
    );
    const daily = this.startDailyLane(now);
    await attempt('hourly', () => this.hourlyIfDue(now, today), nameHourSlot(now));
    await attempt(
      'five-minute',
      () => this.fiveMinuteIfDue(now, today),
      namePeriodSlot(now, CHECK_SCHEDULE_RULES.fiveMinuteCheckPeriodMs),
    );
    // After the checks, so this hour's tallies compare reports with the newest checks.
    await attempt('agreement', () => this.agreementIfDue(now), nameHourSlot(now));
    // After the checks and the tallies, so the incident decisions read the newest of both.
    await attempt('review', () => this.reviewIfDue(now), nameHourSlot(now));
    // After every check of the tick, so an alert they raised goes out now; retries wait their turn in the queue.
    await attempt('webhooks', async () => (await deliverOwnerWebhooks(this.deps.storage, this.deps.network, now)) > 0);
    // Aggregates before retention: a raw day is deleted only once its aggregate exists.
    await attempt('aggregates', () => this.aggregatesIfDue(now), nameHourSlot(now));
    await attempt('retention', () => this.retentionIfDue(today), today);
    await attempt(
      'search-eval',
      async () =>
        this.deps.searchEval !== undefined &&
        runMonthlySearchEvalIfDue({ ...this.deps.searchEval, storage: this.deps.storage, log: this.deps.log }, now),
    );
    const checked = [...this.checkedThisTick];
    this.checkedThisTick = new Set();
    await this.showResults(done, checked);
    return { done, daily };
  }

  /** The daily lane running now, or a new run of it; null while stopping. */
  private startDailyLane(now: Date): Promise<string[]> | null {
    if (this.dailyRunning === null && !this.stopping)
      this.dailyRunning = this.runDailyLane(now).finally(() => {
        this.dailyRunning = null;
      });
    return this.dailyRunning;
  }

  /**
   * The daily lane: the daily check (which first folds an earlier day whose scan finished unfolded), then the
   * outside tasks that read its results, then the read model rebuilt.
   */
  private async runDailyLane(now: Date): Promise<string[]> {
    const done: string[] = [];
    const today = dayFromTime(now);
    const attempt = this.attemptFor(now, done);
    // Set before the first await, so the tick lane's checks that run next wait for today's robots.txt reads.
    const origins = pendingOrigins(today);
    this.dailyOrigins = origins;
    try {
      await attempt('daily', () => this.dailyIfDue(today));
    } finally {
      // Whether the daily check read them, was not due, or failed: the checks of the tick lane go on.
      origins.settle();
      if (this.dailyOrigins === origins) this.dailyOrigins = null;
    }
    // After the daily check: the domain ages its results call for, the day's package versions, and OSV from its time of day.
    await attempt('domain-age', () => this.outside.domainAgeIfDue(today, now));
    await attempt('packages', () => this.outside.packagesIfDue(today, now));
    await attempt('osv', () => this.outside.osvIfDue(today, now));
    await this.showResults(done, []);
    return done;
  }

  /** Servers the hourly and five-minute checks of the current tick looked at. */
  private checkedThisTick = new Set<string>();

  /** Puts a lane's results in front of readers: a whole rebuild, or only the servers `checked` by its checks. */
  private async showResults(done: readonly string[], checked: readonly string[]): Promise<void> {
    const shown = done.filter((name) => !TASKS_WITHOUT_REFRESH.has(name));
    if (shown.length === 0) return;
    if (this.deps.updateServers !== undefined && shown.every((name) => PER_SERVER_TASKS.has(name))) {
      this.deps.updateServers(checked);
      return;
    }
    try {
      await this.deps.refresh?.();
    } catch (error) {
      // A rebuild that fails (a file it cannot read) leaves the read model as it was, and the next task's
      // rebuild tries again; it must not end the schedule, nor the process (nothing awaits the loop's ticks).
      this.deps.log.error({ err: error }, 'read model rebuild failed; the pages keep the previous one');
    }
  }

  private async sealIfDue(now: Date, today: string): Promise<boolean> {
    if (!isSealTime(now)) return false;
    const written = await sealDueDays(this.deps.storage, today, this.deps.keys, (day, reason) =>
      this.deps.log.warn({ day, reason }, 'day not sealed: not finished'),
    );
    for (const record of written) this.deps.log.info({ day: record.day, root: record.root }, 'sealed');
    return written.length > 0;
  }

  private async readOptedOut(): Promise<string[]> {
    return readOptedOutHosts(this.deps.storage);
  }

  // Opted-out hosts are left off every check's list, and the probe's guard refuses them as well, before any
  // request. Each task reads the opted-out list once and hands it to every probe it runs.
  private probeOne = async (
    server: WatchedServer,
    optedOut: readonly string[],
    extra: { deadlineMs?: number } = {},
    kind: 'daily' | 'hourly' | 'five-minute' = 'daily',
  ): Promise<ProbeResult> => {
    // Every lane's checks pass one gate, so a host never sees more of our sessions at once than the rule allows.
    const result = await this.hostGate.run(server.url, () =>
      probeServer(server.url, { ...this.deps.network, optedOut, ...extra }),
    );
    this.deps.metrics?.recordCheck(kind, result.letter);
    return result;
  };

  /**
   * The schedule's daily task, for today only: folds any earlier day whose scan finished but was never folded
   * (a stop between its last shard and its fold), so today's fold does not record it as `n`, then runs today's.
   */
  private async dailyIfDue(today: string): Promise<boolean> {
    if ((await getJson(this.deps.storage, daySummaryPath(today))) !== null) return false;
    await this.foldEarlierDays(today);
    return this.runDaily(today);
  }

  /** Folds the earlier days foldCheckedDays finds finished; logs those it leaves and why. */
  private async foldEarlierDays(today: string): Promise<void> {
    this.foldingEarlierDays = true;
    try {
      const outcomes = await foldCheckedDays({
        storage: this.deps.storage,
        today,
        methodologyVersion: METHODOLOGY_VERSION,
        scoring: this.scoringOptions(),
      });
      for (const fold of outcomes) {
        if (fold.outcome === 'unfinished') {
          this.deps.log.warn(
            { day: fold.day, reason: fold.reason },
            'earlier day not folded: its files cannot be read',
          );
          continue;
        }
        if (fold.outcome === 'failed') {
          this.deps.log.error({ day: fold.day, err: fold.error }, 'earlier day not folded: its fold failed');
          continue;
        }
        const queued = await queueCatalogReviews(this.deps.storage, fold.day, this.clock.now());
        await this.recordDailyHours(fold.results);
        if (fold.leftAtStop.length > 0)
          this.deps.log.warn(
            { day: fold.day, leftAtStop: fold.leftAtStop.length, reviews: queued.length },
            'earlier day closed: its check stopped before some servers, which get n for the day',
          );
        else this.deps.log.info({ day: fold.day, reviews: queued.length }, 'earlier day folded: its scan had finished');
      }
    } finally {
      this.foldingEarlierDays = false;
    }
  }

  /**
   * The day's quality scoring as the schedule runs it: the queue's clock, the repository reader and the
   * operator's verified publishers, when given.
   */
  private scoringOptions(): ScoreDayOptions & { now: Date } {
    return {
      now: this.clock.now(),
      ...(this.deps.readRepository !== undefined ? { readRepository: this.deps.readRepository } : {}),
      ...(this.deps.verifiedPublishers !== undefined ? { verifiedPublishers: this.deps.verifiedPublishers } : {}),
    };
  }

  /**
   * The daily check handed to the workers: the day's shards queued (again: a shard queued or written is not
   * queued twice), the last worker folding the day. True when shards were queued now, so the pages show the
   * day's fixed list at once; a day with nothing watched is left open for the next tick to read the registry.
   */
  private async queueDaily(today: string, queueDay: (day: string) => Promise<EnqueuedDay>): Promise<boolean> {
    const outcome = await queueDay(today);
    if (outcome.nothingToCheck) {
      this.deps.log.warn({ day: today }, 'daily check not queued: no server is watched yet');
      return false;
    }
    if (outcome.queued > 0) this.deps.log.info(outcome, 'daily check queued for the workers');
    return outcome.queued > 0;
  }

  /** Puts daily results in the hour-of-day profile at the time each check started (results without one are left). */
  private async recordDailyHours(results: readonly ServerDayResult[]): Promise<void> {
    const timed = results.flatMap((r): HourResultOf[] =>
      // A rate-limited check (n) measured nothing, so it fills no hour.
      r.checkedAt === undefined || r.letter === 'n' ? [] : [{ id: r.id, letter: r.letter, at: r.checkedAt }],
    );
    await recordHourResults(this.deps.storage, timed);
  }

  /**
   * Reads the registry into the watched list unless the day's list is already fixed (it has its index) or no
   * registry is set. Resolves to the watched list it wrote, or null when it read nothing.
   */
  private async readRegistryUnlessFixed(today: string, optedOut: readonly string[]): Promise<WatchedServer[] | null> {
    if (this.deps.registryUrl === null) return null;
    if ((await this.deps.storage.get(dayIndexPath(today))) !== null) return null;
    // `serve --allow-private` watches a company's own network: its registry may list http and private addresses.
    const synced = await syncRegistry({
      storage: this.deps.storage,
      registryUrl: this.deps.registryUrl,
      network: this.deps.network,
      optedOut,
      allowPrivate: this.deps.network.allowPrivate === true,
      catalogDay: today,
      directories: this.deps.directories ?? [],
    });
    // The registry's list as written, plus the submitted servers that passed their observation.
    const servers = await readWatchedServers(this.deps.storage);
    this.deps.log.info(
      { watched: servers.length, skipped: synced.skipped.length, catalog: synced.catalog },
      'registry read',
    );
    return servers;
  }

  /** Runs (or resumes) the daily check of `day` unless it is complete; true when it ran. */
  async runDaily(today: string): Promise<boolean> {
    if ((await getJson(this.deps.storage, daySummaryPath(today))) !== null) return false;
    const optedOut = await this.readOptedOut();
    const synced = await this.readRegistryUnlessFixed(today, optedOut);
    if (this.deps.queueDay !== undefined) return this.queueDaily(today, this.deps.queueDay);
    const servers = synced ?? (await readWatchedServers(this.deps.storage));
    // Opted-out hosts drop off the map at this check: they are not checked and get no letter.
    const listed = servers.filter((s) => !isOptedOut(new URL(s.url).hostname, optedOut));
    const excluded = await readOriginsOfDay(
      {
        storage: this.deps.storage,
        network: this.deps.network,
        concurrency: this.deps.concurrency ?? DEFAULT_SCAN_CONCURRENCY,
      },
      today,
      listed,
    );
    // Read over the day's whole list: the tick lane's checks of the day can now read the same file.
    if (this.dailyOrigins?.day === today) this.dailyOrigins.settle();
    const checked = listed.filter((s) => !excluded.has(new URL(s.url).origin));
    const bar = this.deps.progress ? createProgress(`daily check ${today}`, checked.length) : null;
    this.deps.metrics?.setScanProgress(today, 0, checked.length);
    const scan = await scanDay({
      day: today,
      servers: checked,
      storage: this.deps.storage,
      methodologyVersion: METHODOLOGY_VERSION,
      probe: (server) => this.probeOne(server, optedOut),
      ...(this.deps.concurrency !== undefined ? { concurrency: this.deps.concurrency } : {}),
      onChecked: (count, total) => {
        bar?.tick(count);
        this.deps.metrics?.setScanProgress(today, count, total);
      },
      cap: { budgetMicroUsd: this.costs.dailyBudgetMicroUsd, model: this.costs.model },
      // Each result records when its check started, by the schedule's clock.
      now: () => this.clock.now(),
      signal: this.stopped.signal,
    });
    bar?.stop();
    // A capped day is still a whole day: folded (its skipped servers get `n`), summarized and later sealed.
    await foldDay({
      storage: this.deps.storage,
      day: today,
      results: scan.results,
      servers: checked,
      methodologyVersion: METHODOLOGY_VERSION,
      skippedByCap: scan.skippedByCap,
      // Injection matches of the day's scoring are queued for review at the schedule's time.
      scoring: this.scoringOptions(),
    });
    // The hour-of-day profile keeps the latest result of any check at each hour, the daily check's included.
    await this.recordDailyHours(scan.results);
    // The day's catalogs go to a person's review queue (review-only description checks), never to a page.
    const queued = await queueCatalogReviews(this.deps.storage, today, this.clock.now());
    if (queued.length > 0)
      this.deps.log.info({ day: today, items: queued.length }, 'tool descriptions queued for review');
    if (scan.capStop !== null) {
      const { shard, estimateMicroUsd, spentMicroUsd } = scan.capStop;
      const budgetMicroUsd = this.costs.dailyBudgetMicroUsd;
      this.deps.log.warn(
        {
          day: today,
          shard,
          estimateMicroUsd,
          spentMicroUsd,
          budgetMicroUsd,
          skippedServers: scan.skippedByCap.length,
        },
        'daily cost cap reached: the remaining shards run first tomorrow',
      );
      // A shard that alone costs more than the budget would wait every day; only the operator can fix that.
      if (estimateMicroUsd > budgetMicroUsd)
        this.deps.log.error(
          { shard, estimateMicroUsd, budgetMicroUsd },
          'a shard is estimated above the whole daily budget: raise the budget or split the scan into more shards',
        );
    }
    this.deps.log.info(
      {
        day: today,
        servers: scan.results.length,
        resumedShards: scan.shardsResumed.length,
        skippedByCap: scan.skippedByCap.length,
      },
      'daily check done',
    );
    if (this.deps.local !== undefined) await this.checkLocal(today, this.deps.local);
    return true;
  }

  /** The day's local checks, under the same daily cost cap; each server's record is written as it finishes. */
  private async checkLocal(today: string, local: NonNullable<SchedulerDeps['local']>): Promise<void> {
    const servers = await readLocalServers(this.deps.storage);
    if (servers.length === 0) return;
    const outcome = await checkLocalServers({
      day: today,
      servers,
      storage: this.deps.storage,
      check: local.check,
      ...(local.concurrency !== undefined ? { concurrency: local.concurrency } : {}),
      cap: { budgetMicroUsd: this.costs.dailyBudgetMicroUsd, model: this.costs.model },
      now: () => this.clock.now(),
    });
    for (const failure of outcome.failed)
      this.deps.log.error({ server: failure.id, err: failure.message }, 'local check could not be recorded');
    if (outcome.skippedByCap.length > 0)
      this.deps.log.warn(
        { day: today, skipped: outcome.skippedByCap.length },
        'daily cost cap reached: local checks wait',
      );
    this.deps.log.info(
      {
        day: today,
        checked: outcome.checked.length,
        listed: outcome.checked.filter((record) => record.outcome === 'listed').length,
        kept: outcome.kept.length,
      },
      'local checks done',
    );
  }

  /** Watched servers whose origin's robots.txt (read once today) lets our bot in. */
  private async allowedServers(today: string, optedOut: readonly string[]): Promise<WatchedServer[]> {
    // The daily lane reads the registry first and then the day's robots.txt files over the whole new list; a
    // read made here first, over yesterday's list, would become the day's file and leave today's new origins
    // unread, so the first checks of a day wait for the daily lane's.
    const pending = this.dailyOrigins;
    if (pending !== null && pending.day === today) await pending.read;
    // Opted-out hosts leave the list first, as in the daily check: not even their robots.txt is read again.
    const servers = (await readWatchedServers(this.deps.storage)).filter(
      (s) => !isOptedOut(new URL(s.url).hostname, optedOut),
    );
    const excluded = await readOriginsOfDay(
      {
        storage: this.deps.storage,
        network: this.deps.network,
        concurrency: this.deps.concurrency ?? DEFAULT_SCAN_CONCURRENCY,
      },
      today,
      servers,
    );
    return servers.filter((s) => !excluded.has(new URL(s.url).origin));
  }

  private async hourlyIfDue(now: Date, today: string): Promise<boolean> {
    const hour = nameHourSlot(now);
    const savedData = await getJson(this.deps.storage, HOURLY_PATH);
    const saved = savedData === null ? null : HourlyFileSchema.parse(savedData);
    if (saved !== null && saved.hour === hour) return false;
    const optedOut = await this.readOptedOut();
    const servers = await this.allowedServers(today, optedOut);
    const results = await mapWithLimit(servers, this.deps.concurrency ?? DEFAULT_SCAN_CONCURRENCY, async (server) => {
      const result = await this.probeOne(server, optedOut, {}, 'hourly');
      const before = saved?.results[server.id];
      const entry = nextHourlyEntry(before, result, this.clock.now().toISOString());
      return { id: server.id, entry, observed: entry !== before };
    });
    const kept = results.flatMap(({ id, entry }) => (entry === undefined ? [] : [[id, entry] as const]));
    await writeHourlyFile(this.deps.storage, hour, Object.fromEntries(kept));
    // A rate-limited check observed nothing: its server keeps its last entry and raises no alert this hour.
    const observedIds = results.filter((r) => r.observed).map((r) => r.id);
    for (const id of observedIds) this.checkedThisTick.add(id);
    await this.alertOwners('hourly', new Set(observedIds));
    return true;
  }

  /** The servers whose owners opted in to five-minute checks (and so to second-failure alerts). */
  private async readOptIn(): Promise<Set<string> | null> {
    const optIn = await getJson(this.deps.storage, FIVE_MINUTE_OPT_IN_PATH);
    return optIn === null ? null : new Set(OptInSchema.parse(optIn).servers);
  }

  /**
   * After a round of hourly or five-minute checks: for each opted-in server among `checked`, reads its kept
   * hourly and five-minute observations and records an alert from the second failure in a row (once per run
   * of failures), with a log line. The rule is the package's `decideOwnerAlert` (over `shouldAlertOwner`).
   */
  private async alertOwners(kind: OwnerAlert['kind'], checked: ReadonlySet<string>): Promise<void> {
    const optIn = await this.readOptIn();
    if (optIn === null) return;
    const ids = [...checked].filter((id) => optIn.has(id));
    if (ids.length === 0) return;
    const hourlyData = HourlyFileSchema.safeParse(await getJson(this.deps.storage, HOURLY_PATH));
    const hourly = hourlyData.success ? hourlyData.data.results : {};
    const fiveMinute = await readFiveMinuteChecks(this.deps.storage);
    const file = await readOwnerAlerts(this.deps.storage);
    let changed = false;
    for (const id of ids.sort()) {
      // A kept observation whose time does not parse is skipped, as the read model skips it.
      const observations: TimedObservation[] = [
        ...hourlyObservationsOf(hourly[id]),
        ...(fiveMinute[id] ?? []).filter((o) => !Number.isNaN(Date.parse(o.at))),
      ];
      if (observations.length === 0) continue;
      const before = file.servers[id] ?? { open: false, alerts: [] };
      const decision = decideOwnerAlert(observations, before.open);
      if (!decision.alert && decision.open === before.open) continue;
      changed = true;
      const newest = observations.reduce((a, b) => (Date.parse(b.at) > Date.parse(a.at) ? b : a));
      const alerts = decision.alert
        ? [
            ...before.alerts,
            {
              at: newest.at,
              kind,
              letter: newest.letter,
              reason: newest.reason,
              httpStatus: newest.httpStatus,
              failuresInARow: decision.failuresInARow,
            },
          ].slice(-OWNER_ALERTS_KEPT)
        : before.alerts;
      // Spread first, so the score-drop alerts the daily fold keeps in the same entry stay.
      file.servers[id] = { ...before, open: decision.open, alerts };
      if (decision.alert) {
        this.deps.log.warn(
          { server: id, kind, at: newest.at, reason: newest.reason, failuresInARow: decision.failuresInARow },
          'owner alert: the server failed two checks in a row',
        );
      }
    }
    if (changed) await writeOwnerAlerts(this.deps.storage, file);
  }

  /** Tallies every reporter's and sensor's agreement with our checks once per UTC hour, into the reporter records. */
  private async agreementIfDue(now: Date): Promise<boolean> {
    const hour = nameHourSlot(now);
    if (this.lastAgreementHour === hour) return false;
    this.lastAgreementHour = hour;
    const records = await writeAgreementRecords(this.deps.storage, now);
    this.deps.log.info(
      { reporters: Object.keys(records.reporters).length, sensors: Object.keys(records.sensors).length },
      'agreement tallied',
    );
    return true;
  }

  /**
   * Once per UTC hour: the incident decisions of every server on the map, read from a fresh read model at
   * `now`, add their shown incidents and unconfirmed failures to the review queue (each episode once).
   * True when it added an item.
   */
  private async reviewIfDue(now: Date): Promise<boolean> {
    const hour = nameHourSlot(now);
    if (this.lastReviewHour === hour) return false;
    this.lastReviewHour = hour;
    const view = await buildView(this.deps.storage, now);
    // A mark list edited into a wrong shape counts as empty; say so once an hour until someone fixes it.
    for (const problem of view.markProblems) this.deps.log.warn({ problem }, 'route mark list not read');
    const added = await addReviewItems(
      this.deps.storage,
      view.servers.flatMap((server) => reviewItemsOfIncident(server.id, server.incident, now)),
      now,
    );
    if (added.length > 0)
      this.deps.log.warn({ items: added.map((item) => item.id) }, 'failures and incidents queued for review');
    return added.length > 0;
  }

  private async fiveMinuteIfDue(now: Date, today: string): Promise<boolean> {
    if (!isPeriodOver(now, this.lastFiveMinute, CHECK_SCHEDULE_RULES.fiveMinuteCheckPeriodMs)) return false;
    const ids = await this.readOptIn();
    if (ids === null) return false;
    // The five-minute checks have their own cap and ledger; once it refuses a check, none runs until the next UTC day.
    const gate = await SpendGate.open(
      this.deps.storage,
      fiveMinuteSpendPath(today),
      today,
      this.costs.fiveMinuteBudgetMicroUsd,
    );
    if (gate.stopped) return false;
    this.lastFiveMinute = now.getTime();
    const optedOut = await this.readOptedOut();
    const servers = (await this.allowedServers(today, optedOut)).filter((s) => ids.has(s.id));
    // States are read before any check, so each check's turn at the cap comes in list order.
    const states = new Map<string, ServerState>();
    for (const server of servers) {
      const data = await getJson(this.deps.storage, serverStatePath(server.id));
      if (data !== null) states.set(server.id, ServerStateSchema.parse(data));
    }
    const observed = new Map<string, FiveMinuteObservation>();
    await mapWithLimit(servers, this.deps.concurrency ?? DEFAULT_SCAN_CONCURRENCY, async (server) => {
      const before = states.get(server.id);
      // A server with no daily check yet has nowhere to count its five-minute checks, so it is not probed.
      if (before === undefined) return;
      const { reservation } = await gate.tryStart(
        server.id,
        estimateChecksCost([before.lastHandshakeMs], this.costs.model),
      );
      // Refused by the cap: no probe, and nothing written, so a skipped check is never a failure.
      if (reservation === null) return;
      const at = this.clock.now().toISOString();
      const result = await this.probeOne(
        server,
        optedOut,
        { deadlineMs: SESSION_RULES.fiveMinuteCheckDeadlineMs },
        'five-minute',
      );
      await gate.charge(server.id, priceCheck(result.elapsedMs, this.costs.model));
      gate.release(reservation);
      // A rate-limited check (n) measured nothing: no counter moves and no observation is kept.
      const observation = observationOfCheck(result, at);
      if (observation === null) return;
      // Sign-in and payment answers count as up, like the daily letters: the server is there and answering.
      // The counters keep a number of UTC days (not of entries): the package drops older pairs. Under the
      // server's lock, so a fold running in the daily lane meanwhile neither loses this count nor loses its day.
      const written = await updateServerState(this.deps.storage, server.id, (state) =>
        state === null
          ? null
          : {
              ...state,
              fiveMinute: recordFiveMinuteCheck(
                state.fiveMinute,
                today,
                isAnsweringLetter(result.letter),
                result.elapsedMs,
              ),
            },
      );
      if (written === null) return;
      this.checkedThisTick.add(server.id);
      observed.set(server.id, observation);
    });
    if (observed.size > 0) {
      // One write per round: the newest two observations per server, for the shown status, incidents and alerts.
      const kept = await readFiveMinuteChecks(this.deps.storage);
      for (const [id, observation] of observed)
        kept[id] = recordFiveMinuteObservation(kept[id] ?? [], observation) as FiveMinuteObservation[];
      await writeFiveMinuteChecks(this.deps.storage, kept);
      // The hour-of-day profile keeps the latest result of any check at each hour, five-minute ones included.
      await recordHourResults(
        this.deps.storage,
        [...observed].map(([id, observation]) => ({ id, letter: observation.letter, at: observation.at })),
      );
      await this.alertOwners('five_minute', new Set(observed.keys()));
    }
    return servers.length > 0;
  }

  /** Checks submitted servers whose check slot came and decides finished windows; at most once per look period. */
  private async submissionsIfDue(now: Date): Promise<boolean> {
    if (!isPeriodOver(now, this.lastSubmissionRun, CHECK_SCHEDULE_RULES.submissionLookPeriodMs)) return false;
    this.lastSubmissionRun = now.getTime();
    const outcome = await observeSubmissions({
      storage: this.deps.storage,
      network: this.deps.network,
      log: this.deps.log,
      optedOut: await this.readOptedOut(),
      now: () => this.clock.now(),
      hostGate: this.hostGate,
      ...(this.deps.concurrency !== undefined ? { concurrency: this.deps.concurrency } : {}),
    });
    return outcome.checked.length > 0 || outcome.decided.length > 0;
  }

  /** Writes the daily aggregates (demand, sensors) of days that are over; looks once per hour. */
  private async aggregatesIfDue(now: Date): Promise<boolean> {
    const hour = nameHourSlot(now);
    // An earlier day being folded has no summary yet, so its state report would be skipped, and a month
    // closing meanwhile would be reported without it for good: wait for the fold (the next tick tries again).
    if (this.foldingEarlierDays || this.lastAggregateHour === hour) return false;
    this.lastAggregateHour = hour;
    const written = await writeDueAggregates(this.deps.storage, now);
    if (written.length > 0) this.deps.log.info({ aggregates: written.length }, 'daily aggregates written');
    return written.length > 0;
  }

  private async retentionIfDue(today: string): Promise<boolean> {
    if (this.lastRetentionDay === today) return false;
    this.lastRetentionDay = today;
    const removed = await enforceRetention(this.deps.storage, today);
    if (removed.length > 0) this.deps.log.info({ removed: removed.length }, 'retention');
    return true;
  }
}
