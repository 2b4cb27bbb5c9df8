// The daily check of local servers: each package-only registry entry is installed at its exact version and
// listed in the probe's sandbox (@mcp-atlas/probe's checkLocalPackage), then recorded the way a remote server's
// check is (risk, findings, tokens, hashes, by check-server.ts). A version is checked once: a server whose record
// holds the same package is left as it is, until the registry names a new version (or the sandbox was missing
// last time). A new version that lists tools is compared with the last version that did.
//
// The daily cost cap covers these checks too: the day's pending local checks start only when the day's ledger
// admits their estimate, and each finished check is charged its wall time, install included. The catalog is
// written before the record, so a stop between the two checks the version again rather than losing its tools.
// Each record carries the quality score of its check (score/local-score.ts).
import { performance } from 'node:perf_hooks';
import { diffToolLists } from '@mcp-atlas/findings';
import { estimateChecksCost, priceCheck } from '@mcp-atlas/operations';
import type { LocalCheckResult, LocalPackage } from '@mcp-atlas/probe/node';
import { scanToolDescriptions } from '@mcp-atlas/score';
import { SpendGate, type SpendReservation } from '../costs/spend-gate.js';
import { dailySpendPath, localCatalogPath, localRecordPath } from '../data/paths.js';
import {
  addReviewItems,
  injectionItemId,
  readConfirmedInjectionIds,
  reviewItemsOfInjectionMatches,
} from '../data/review-queue.js';
import { type Catalog, CatalogSchema, type RegistryScoreFacts } from '../data/schemas.js';
import { scoreLocalCheck } from '../score/local-score.js';
import { readRegistryScoreFacts } from '../score/registry-facts.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { encodeCatalog, recordCheck } from './check-server.js';
import {
  type LocalRecord,
  type LocalServer,
  type LocalServerPackage,
  packageUrlOf,
  readLocalRecord,
} from './local-servers.js';
import { mapWithLimit } from './pool.js';
import type { DailyCap } from './scan-day.js';

/** Checks one package in the sandbox; the app passes the probe's `checkLocalPackage` with its settings bound. */
export type LocalCheckFn = (pkg: LocalPackage) => Promise<LocalCheckResult>;

/** Local checks at once: each runs a sandboxed process (and maybe an install), so far fewer than remote checks. */
export const DEFAULT_LOCAL_CONCURRENCY = 2;

/** The spend ledger's part the local checks are charged to (the remote shards are numbered parts). */
export const LOCAL_SPEND_PART = 'local';

/** Options of one day's local checks. */
export interface LocalScanOptions {
  day: string;
  servers: readonly LocalServer[];
  storage: Storage;
  check: LocalCheckFn;
  concurrency?: number;
  cap?: DailyCap;
  /** The clock that dates each record; the wall clock by default. */
  now?: () => Date;
  onChecked?: (record: LocalRecord) => void;
}

/** What one day's local checks did. */
export interface LocalScanOutcome {
  checked: LocalRecord[];
  /** Servers whose package version was checked on an earlier day: nothing was run. */
  kept: string[];
  /** Servers the daily cost cap left for another day. */
  skippedByCap: string[];
  /** Servers whose check our own code could not finish, with the error; they are checked again next day. */
  failed: { id: string; message: string }[];
}

/** Whether `record` already holds a check of exactly `pkg` (name, version, variables and arguments). */
function alreadyChecked(record: LocalRecord | null, pkg: LocalServerPackage): boolean {
  // Without a sandbox nothing ran: the version is checked again once there is one.
  return record !== null && record.outcome !== 'no-sandbox' && JSON.stringify(record.package) === JSON.stringify(pkg);
}

async function readLocalCatalog(storage: Storage, id: string): Promise<Catalog | null> {
  const parsed = CatalogSchema.safeParse(await getJson(storage, localCatalogPath(id)));
  return parsed.success ? parsed.data : null;
}

/** What changed since the last version that listed tools, or null when there is none or it is this version. */
async function changeSince(
  storage: Storage,
  previous: LocalRecord | null,
  version: string,
  catalog: Catalog | null,
): Promise<LocalRecord['change']> {
  if (catalog === null || previous?.lastListed == null || previous.lastListed.version === version) return null;
  const before = await readLocalCatalog(storage, previous.id);
  if (before === null) return null;
  const diff = diffToolLists(
    { tools: before.tools, serverVersion: before.serverVersion },
    { tools: catalog.tools, serverVersion: catalog.serverVersion },
  );
  return {
    fromVersion: previous.lastListed.version,
    added: diff.added,
    removed: diff.removed,
    changed: diff.changed,
    riskRises: diff.riskRises.map((rise) => rise.name),
  };
}

/**
 * Queues the injection-scan matches of a local server's tools for a person's review, as the day's scoring does for
 * remote catalogs (until one clears a match, its description stays withheld). True when a person already confirmed
 * one of them as an injection attempt: the score's flag then applies.
 */
async function queueDescriptionReviews(
  options: LocalScanOptions,
  id: string,
  tools: readonly unknown[] | null,
  checkedAt: string,
): Promise<boolean> {
  if (tools === null) return false;
  const { matches } = scanToolDescriptions(tools);
  if (matches.length === 0) return false;
  await addReviewItems(options.storage, reviewItemsOfInjectionMatches(id, options.day, matches), new Date(checkedAt));
  const confirmed = await readConfirmedInjectionIds(options.storage);
  return matches.some((match) => confirmed.has(injectionItemId(id, match)));
}

/** Checks one local server and writes its catalog (when it listed tools) and then its record. */
async function checkOne(
  options: LocalScanOptions,
  server: LocalServer,
  previous: LocalRecord | null,
  facts: ReadonlyMap<string, RegistryScoreFacts>,
) {
  const checkedAt = (options.now ?? (() => new Date()))().toISOString();
  const started = performance.now();
  const local = await options.check(server.package);
  const wallMs = Math.round(performance.now() - started);
  const purl = packageUrlOf(server.package);
  const check = recordCheck({ id: server.id, url: purl, source: 'registry' }, options.day, local.probe, checkedAt);
  const change = await changeSince(options.storage, previous, server.package.version, check.catalog);
  if (check.catalog !== null && check.catalogToolsJson !== null)
    await options.storage.put(localCatalogPath(server.id), encodeCatalog(check.catalog, check.catalogToolsJson));
  const listed = check.result.toolsHash === null ? null : { version: local.version, toolsHash: check.result.toolsHash };
  const confirmedInjection = await queueDescriptionReviews(options, server.id, check.catalog?.tools ?? null, checkedAt);
  const record: LocalRecord = {
    id: server.id,
    title: server.title,
    purl,
    package: server.package,
    installCommand: local.installCommand,
    missing: local.missing,
    outcome: local.outcome,
    stoppedBy: local.stoppedBy,
    integrity: local.integrity,
    day: options.day,
    wallMs,
    result: check.result,
    change,
    score: scoreLocalCheck({
      server,
      outcome: local.outcome,
      result: check.result,
      tools: check.catalog?.tools ?? null,
      day: options.day,
      facts,
      confirmedInjection,
    }),
    lastListed: listed ?? previous?.lastListed ?? null,
  };
  await putJson(options.storage, localRecordPath(server.id), record);
  return record;
}

/**
 * Runs the day's local checks: every local server whose package version has no check yet, `concurrency` at a
 * time, under the daily cost cap when one is given. One server's failure is reported and never stops the others.
 */
export async function checkLocalServers(options: LocalScanOptions): Promise<LocalScanOutcome> {
  const outcome: LocalScanOutcome = { checked: [], kept: [], skippedByCap: [], failed: [] };
  const pending: { server: LocalServer; previous: LocalRecord | null }[] = [];
  for (const server of options.servers) {
    const previous = await readLocalRecord(options.storage, server.id);
    if (alreadyChecked(previous, server.package)) outcome.kept.push(server.id);
    else pending.push({ server, previous });
  }
  if (pending.length === 0) return outcome;
  const gate =
    options.cap === undefined
      ? null
      : await SpendGate.open(options.storage, dailySpendPath(options.day), options.day, options.cap.budgetMicroUsd);
  const model = options.cap?.model;
  let held: SpendReservation | null = null;
  if (gate !== null && model !== undefined) {
    const estimate = estimateChecksCost(
      pending.map((entry) => entry.previous?.wallMs ?? null),
      model,
    );
    const { reservation } = await gate.tryStart(LOCAL_SPEND_PART, estimate);
    if (reservation === null) {
      outcome.skippedByCap = pending.map((entry) => entry.server.id);
      return outcome;
    }
    held = reservation;
  }
  // The registry entries' facts the score reads (security, distribution), from the last registry read.
  const facts = await readRegistryScoreFacts(options.storage);
  await mapWithLimit(pending, options.concurrency ?? DEFAULT_LOCAL_CONCURRENCY, async ({ server, previous }) => {
    try {
      const record = await checkOne(options, server, previous, facts);
      if (gate !== null && model !== undefined) await gate.charge(LOCAL_SPEND_PART, priceCheck(record.wallMs, model));
      outcome.checked.push(record);
      options.onChecked?.(record);
    } catch (error) {
      outcome.failed.push({ id: server.id, message: error instanceof Error ? error.message : String(error) });
    }
  });
  if (held !== null) await gate?.release(held);
  outcome.checked.sort((a, b) => a.id.localeCompare(b.id));
  return outcome;
}
