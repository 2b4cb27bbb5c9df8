// The shapes of the files the app writes and reads back. Files are a trust boundary too (a disk can be
// edited or torn), so everything read is parsed with these schemas before use.
import { isDay } from '@mcp-atlas/base';
import { AuthDiscoverySchema, LetterSchema, ProbeStepSchema } from '@mcp-atlas/probe';
import { RISK_LEVELS } from '@mcp-atlas/risk';
import type { RouteFactors } from '@mcp-atlas/route';
import { z } from 'zod';
import { SERVER_ID_PATTERN } from './paths.js';

// The shared shapes below are derived from the packages that own them, so a change there shows here at
// compile time (or, for the day, through the same check the history package runs).

/**
 * A UTC day, YYYY-MM-DD, and a real calendar date (history's `isDay`): the one day shape every file and every
 * request uses. The pattern stays as well, so the JSON Schema and OpenAPI documents still state the format.
 */
export const DAY = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'expected a day written YYYY-MM-DD', abort: true })
  .refine(isDay, 'expected a real calendar date written YYYY-MM-DD');

/** The outcome letter of one check, as the probe decides it. */
const LETTER = LetterSchema;
/**
 * The letter of a check that measured something: every letter but `n`. A rate-limited check (`n`) says nothing
 * of whether the server is up, so it is never kept as an hourly or five-minute observation, nor as a last letter.
 */
const OBSERVED_LETTER = LetterSchema.exclude(['n']);

/**
 * A tool's risk level, as @mcp-atlas/risk classifies it: the app's one risk-level enum, built from the package's
 * RISK_LEVELS tuple, so a level added to or dropped there shows here.
 */
export const RiskLevelSchema = z.enum(RISK_LEVELS);

/**
 * Every multiplier of a route score, field for field @mcp-atlas/route's `RouteFactors`: the shape must name
 * exactly its keys (a factor added or dropped there fails to compile here) and parse to that type.
 */
export const RouteFactorsSchema = z.object({
  textMatch: z.number(),
  successChance: z.number(),
  stability: z.number(),
  leastPrivilege: z.number(),
  highRiskShare: z.number(),
  verbBonus: z.number(),
  directory: z.number(),
  guard: z.number(),
  agents: z.number(),
} satisfies Record<keyof RouteFactors, z.ZodNumber>) satisfies z.ZodType<RouteFactors>;

/** A package a registry entry ships as: `registryType`, `identifier` and `version` of the registry's `packages[]`. */
export const WatchedPackageSchema = z.object({
  registryType: z.enum(['npm', 'pypi']),
  identifier: z.string().min(1).max(214),
  /** The version the registry entry names (the layer checks the package's current version, read daily). */
  version: z.string().max(128).optional(),
});
export type WatchedPackage = z.infer<typeof WatchedPackageSchema>;

/**
 * What a registry entry says that the quality score reads (security hygiene, distribution, context flags),
 * kept by server id in state/registry-score-facts.json because the registry is read once a day at most and
 * the score is computed every day. Built by score/registry-facts.ts, which clips every field to these limits.
 */
export const RegistryScoreFactsSchema = z.object({
  /** The entry's name (`io.github.acme/weather`). */
  registryId: z.string().max(200),
  description: z.string().max(2000),
  repositoryUrl: z.string().max(2000).nullable(),
  websiteUrl: z.string().max(2000).nullable(),
  /** Environment variables of its packages and headers of the watched remote, with the entry's `isSecret`. */
  envVars: z.array(z.object({ name: z.string().max(200), isSecret: z.boolean() })).max(100),
  /** The watched remote's transport as the entry names it (`streamable-http`, `sse`). */
  transport: z.string().max(40).nullable(),
  /** Its packages of every registry type (npm, pypi, oci, ...): type and identifier. */
  packages: z.array(z.object({ registryType: z.string().max(40), identifier: z.string().max(300) })).max(20),
});
export type RegistryScoreFacts = z.infer<typeof RegistryScoreFactsSchema>;

/** The registry score facts file: each registry-listed server's facts, by server id. */
export const RegistryScoreFactsFileSchema = z.object({ servers: z.record(z.string(), RegistryScoreFactsSchema) });

/** A server the observatory watches. */
export const WatchedServerSchema = z.object({
  id: z.string().regex(SERVER_ID_PATTERN),
  url: z.string().url(),
  title: z.string().max(200).optional(),
  // `directory`: a server only other directories list, with a remote endpoint (the registry lists it not).
  source: z.enum(['registry', 'demo', 'submitted', 'directory']),
  /** Only the demo's own loopback fleet may be probed at a private address. */
  allowPrivate: z.boolean().optional(),
  /** When its owner submitted it (source `submitted`): the route's guard treats it as new for 30 days. */
  submittedAt: z.iso.datetime().optional(),
  /** The npm and PyPI packages its registry entry says it ships as (the package layer reads them daily). */
  packages: z.array(WatchedPackageSchema).optional(),
});
export type WatchedServer = z.infer<typeof WatchedServerSchema>;

export const WatchedServersSchema = z.object({ servers: z.array(WatchedServerSchema) });

/** The opted-out hosts file. */
export const OptedOutSchema = z.object({ hosts: z.array(z.string()) });

export const FindingRecordSchema = z.object({
  id: z.string(),
  message: z.string(),
  tools: z.array(z.string()).optional(),
  value: z.number().optional(),
});
export type FindingRecord = z.infer<typeof FindingRecordSchema>;

/** What one server's daily check found, as written to a shard of the day's results. */
export const ServerDayResultSchema = z.object({
  id: z.string(),
  url: z.string(),
  letter: LETTER,
  reason: z.string(),
  message: z.string(),
  notStandardMcp: z.boolean(),
  protocolVersion: z.string().nullable(),
  serverName: z.string().nullable(),
  serverVersion: z.string().nullable(),
  elapsedMs: z.number(),
  steps: z.array(ProbeStepSchema),
  toolCount: z.number().int(),
  toolsHash: z.string().nullable(),
  tokens: z.number().int().nullable(),
  findings: z.array(FindingRecordSchema),
  highRiskTools: z.number().int(),
  paymentAddress: z.string().nullable(),
  redirect: z.object({ location: z.string(), followed: z.boolean(), sameSite: z.boolean() }).nullable(),
  /** What sign-in discovery found after a 401 or 403 (letter a). Absent in results written before it was kept. */
  authDiscovery: AuthDiscoverySchema.nullable().optional(),
  /**
   * The waits (ms) the daily check took before asking a rate-limited server again, oldest first; absent when it
   * asked once. A result with waits and letter o is a server that let us in after waiting.
   */
  rateLimitWaitsMs: z.array(z.number().int().nonnegative()).optional(),
  category: z.string().nullable(),
  /**
   * When the check started, ISO 8601. Absent in results written before it was kept: such a check is
   * dated by its day only (it sets the shown status, but cannot confirm an incident in a 2-hour window).
   */
  checkedAt: z.iso.datetime({ offset: true }).optional(),
});
export type ServerDayResult = z.infer<typeof ServerDayResultSchema>;

export const ShardFileSchema = z.object({
  day: DAY,
  shard: z.number().int().nonnegative(),
  results: z.array(ServerDayResultSchema),
});
export type ShardFile = z.infer<typeof ShardFileSchema>;

export const DayIndexSchema = z.object({
  day: DAY,
  methodologyVersion: z.string(),
  shards: z.number().int().positive(),
  servers: z.array(z.object({ id: z.string(), url: z.string(), shard: z.number().int().nonnegative() })),
  /**
   * The order the day runs its shards in (fixed with the index, so a resumed scan keeps it). Absent in
   * indexes written before the cost cap: those ran 0, 1, 2, ...
   */
  order: z.array(z.number().int().nonnegative()).optional(),
});
export type DayIndex = z.infer<typeof DayIndexSchema>;

/** A tool as the catalog keeps it: what the server said, and our verdict on it. */
export const CatalogToolSchema = z.object({
  name: z.string(),
  hash: z.string(),
  level: RiskLevelSchema,
  rule: z.number().int().min(1).max(8),
  raised: z.boolean(),
  reason: z.string(),
});
export type CatalogTool = z.infer<typeof CatalogToolSchema>;

export const CatalogSchema = z.object({
  id: z.string(),
  day: DAY,
  toolsHash: z.string(),
  serverVersion: z.string().nullable(),
  /** The tools array exactly as tools/list returned it (parsed), for diffs and search. */
  tools: z.array(z.unknown()),
  verdicts: z.array(CatalogToolSchema),
});
export type Catalog = z.infer<typeof CatalogSchema>;

export const ChangeSchema = z.object({
  serverId: z.string(),
  kind: z.enum(['tools', 'started-answering', 'stopped-answering', 'sign-in', 'payment-address', 'redirect']),
  detail: z.string(),
  diff: z
    .object({
      added: z.array(z.string()),
      removed: z.array(z.string()),
      changed: z.array(z.string()),
      rewritten: z.array(z.string()),
      riskRises: z.array(z.object({ name: z.string(), from: z.string().nullable(), to: z.string() })),
      renamed: z.array(z.object({ from: z.string(), to: z.string() })),
      silent: z.boolean(),
    })
    .optional(),
});
export type Change = z.infer<typeof ChangeSchema>;

export const ChangesFileSchema = z.object({ day: DAY, changes: z.array(ChangeSchema) });
export type ChangesFile = z.infer<typeof ChangesFileSchema>;

export const SummarySchema = z.object({
  day: DAY,
  methodologyVersion: z.string(),
  servers: z.number().int(),
  /** Servers by letter; `n` (rate-limited all day) is absent in summaries written before it existed. */
  letters: z.object({
    o: z.number().int(),
    a: z.number().int(),
    p: z.number().int(),
    d: z.number().int(),
    n: z.number().int().optional(),
  }),
  tools: z.number().int(),
  changes: z.number().int(),
  riskRises: z.number().int(),
  /** Servers of the day's index left unchecked because the daily cost cap was reached (their day is `n`). */
  skippedByCap: z.number().int().nonnegative().default(0),
  /**
   * Servers of the day's index left unchecked because the day's check stopped (a crash) before their shard and
   * was not resumed before the day ended; a later start closed the day, recording them as `n`.
   */
  leftAtStop: z.number().int().nonnegative().default(0),
});
export type Summary = z.infer<typeof SummarySchema>;

/** Wall times of answering checks: `[whole milliseconds, how many checks]` pairs, fastest first. */
const LATENCY_COUNTS = z.array(z.tuple([z.number().int().nonnegative(), z.number().int().positive()]));

/** One UTC day's tally of a server's hourly checks: every check counted, with the answering ones' wall times. */
export const CheckTallyDaySchema = z.object({
  day: DAY,
  answered: z.number().int().nonnegative(),
  checks: z.number().int().nonnegative(),
  latencyMs: LATENCY_COUNTS,
});

/**
 * One folded day of a server's day series (@mcp-atlas/reliability's `SeriesDay`): its letter, its daily check's
 * wall time, and once the next fold has closed it, its handshake-time percentiles (null when none was kept).
 */
const SeriesDaySchema = z.object({
  day: DAY,
  letter: LETTER,
  dailyMs: z.number().int().nonnegative().nullable(),
  handshake: z
    .object({
      p50Ms: z.number().int().nonnegative(),
      p95Ms: z.number().int().nonnegative(),
      samples: z.number().int().positive(),
    })
    .nullable()
    .optional(),
});

/**
 * A server's day series file, state/series/<id>.json: each folded day of the last 90, oldest first. Kept apart
 * from the state, which every read-model rebuild parses for every server, since only the server page reads it.
 */
export const DaySeriesFileSchema = z.object({ id: z.string(), days: z.array(SeriesDaySchema) });

/** The rolling state of one server: not signed, replaced after each daily check. */
export const ServerStateSchema = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string().optional(),
  /** Daily letters, oldest first, at most 30 (`n` for a day the check did not run). */
  letters: z.string(),
  /** The last day whose letter is in `letters`. */
  lastDay: DAY.nullable(),
  /** Days on which the tool list changed, newest last, kept 60 days. */
  changeDays: z.array(DAY),
  /** Lengths in days of the last 5 finished outages, newest last. */
  outages: z.array(z.number().int().positive()),
  /** Days down in a row so far (0 when answering). */
  currentOutageDays: z.number().int().nonnegative(),
  /**
   * Five-minute counters, one pair per UTC day, kept 92 days; the answering checks' wall times (counts per whole
   * millisecond) ride on the newest 8 days' pairs. Pairs written before the wall times were kept have none.
   */
  fiveMinute: z.array(
    z.object({
      day: DAY,
      answered: z.number().int().nonnegative(),
      checks: z.number().int().nonnegative(),
      latencyMs: LATENCY_COUNTS.optional(),
    }),
  ),
  toolsHash: z.string().nullable(),
  serverVersion: z.string().nullable(),
  lastLetter: OBSERVED_LETTER.nullable(),
  lastPaymentAddress: z.string().nullable(),
  lastHandshakeMs: z.number().nullable(),
  /** The day of the newest catalog (the last day tools were listed), for the next diff. */
  lastCatalogDay: DAY.nullable(),
  /** Where the server last redirected to another domain, so the change is reported once. */
  lastRedirect: z.string().nullable(),
  /** Days on which a tool rose in risk, kept for the route's set-aside window. */
  riskRiseDays: z.array(DAY),
});
export type ServerState = z.infer<typeof ServerStateSchema>;

/** One hourly observation of a server. */
export const HourlyObservationSchema = z.object({
  letter: OBSERVED_LETTER,
  reason: z.string(),
  notMcp: z.boolean(),
  /** The HTTP status of the answer that failed the check, when there was one. */
  httpStatus: z.number().int().nullable().default(null),
  at: z.string(),
  /** Wall time of the whole check in milliseconds (the handshake time); absent in files written before it was kept. */
  elapsedMs: z.number().nonnegative().optional(),
});
export type HourlyObservation = z.infer<typeof HourlyObservationSchema>;

/**
 * The hourly check: one file, replaced every hour. Each server keeps this hour's observation and the one
 * before, which is all the second-failure display rule needs, the latest result at each UTC hour
 * (the hour-of-day profile), and per-day tallies of its hourly checks, carried from one file to the next.
 */
/** The latest hourly result at one UTC hour, for the hour-of-day profile. */
export const HourSlotSchema = z.object({ letter: OBSERVED_LETTER, at: z.string() });

/** 24 slots, index = UTC hour, carried from each hourly file into the next. */
export const HourSlotsSchema = z.array(HourSlotSchema.nullable()).length(24);

export const HourlyFileSchema = z.object({
  hour: z.string(),
  results: z.record(
    z.string(),
    HourlyObservationSchema.extend({
      previous: HourlyObservationSchema.nullable(),
      /** The hour-of-day profile; absent in files written before it was kept. */
      hours: HourSlotsSchema.optional(),
      /**
       * Every hourly check of the last 31 UTC days, one tally per day (wall times for the newest 8 only), so the
       * quality score and its uptime windows count them all; absent in files written before it was kept.
       */
      tally: z.array(CheckTallyDaySchema).optional(),
    }),
  ),
});
export type HourlyFile = z.infer<typeof HourlyFileSchema>;

const MICRO_USD = z.number().int().nonnegative();

/**
 * One UTC day's spend ledger of one compute cap (daily checks or five-minute checks). Every finished check
 * is charged here as it ends, so a restart neither loses nor repeats a charge; `parts` splits the spend by
 * shard (daily) or by server (five-minute), and `stopped` records the refusal that ended the day's checks
 * (the part refused, its estimate, and the spend the refusal counted: charges plus the estimates of work
 * still running then). `reservations` holds the estimates of work running now when several processes share
 * the ledger (shard workers): the part, its estimate, the gate that reserved it (`owner`), when it was made
 * and when its owner last charged a check of it (`aliveAt`, how a crashed worker's reservation is told
 * apart), and what its owner has charged to it so far (`chargedMicroUsd`: only the rest of the estimate counts
 * as still to spend). A ledger written before reservations were shared has no such field and reads as none; a
 * reservation written before charges were kept on it reads as having charged nothing.
 */
export const SpendLedgerSchema = z.object({
  day: DAY,
  budgetMicroUsd: MICRO_USD,
  spentMicroUsd: MICRO_USD,
  checks: z.number().int().nonnegative(),
  parts: z.record(z.string(), z.object({ spentMicroUsd: MICRO_USD, checks: z.number().int().nonnegative() })),
  stopped: z.object({ part: z.string(), estimateMicroUsd: MICRO_USD, spentMicroUsd: MICRO_USD }).nullable(),
  reservations: z
    .array(
      z.object({
        part: z.string(),
        estimateMicroUsd: MICRO_USD,
        owner: z.string().min(1),
        madeAt: z.iso.datetime(),
        aliveAt: z.iso.datetime(),
        chargedMicroUsd: MICRO_USD.default(0),
      }),
    )
    .default([]),
});
export type SpendLedger = z.infer<typeof SpendLedgerSchema>;
