// Runtime-neutral module (network only through the injected client): the known vulnerabilities of package
// versions, from the OSV API's batch query, with the probe's guard, pinning, time limit and size cap.
import { describeType } from '@mcp-atlas/base';
import { z } from 'zod';
import { ProbeInputError } from './errors.js';
import { type NetworkOptions, resolveNetworkSettings } from './options.js';
import {
  DEFAULT_OSV_URL,
  OSV_ANSWER_CAP_BYTES,
  OSV_BATCH_MAX_QUERIES,
  OSV_ID_MAX_LENGTH,
  OSV_MAX_PAGE_ROUNDS,
  OSV_QUERY_BATCH_PATH,
  OSV_TIMEOUT_MS,
} from './outside-constants.js';
import { normalizeBaseUrl, type OutsideFailureReason, requestOutsideJson } from './outside-request.js';
import type { PackageEcosystem } from './package-registry.js';

/** Options of `queryOsvBatch`. */
export interface OsvOptions extends NetworkOptions {
  /** The OSV API's base URL; queries go to `<osvUrl>/v1/querybatch`. Default https://api.osv.dev. */
  osvUrl?: string;
}

/** One package version to check. */
export interface OsvQuery {
  ecosystem: PackageEcosystem;
  name: string;
  version: string;
}

/** What OSV knows about one queried version. */
export interface OsvFinding {
  ecosystem: PackageEcosystem;
  name: string;
  version: string;
  /** The ids of the vulnerabilities that affect this version, sorted, each once. */
  ids: string[];
  /** True when OSV had more pages than were read (see OSV_MAX_PAGE_ROUNDS); `ids` is then a lower bound. */
  truncated: boolean;
}

/** The answer to a whole batch: a finding per query, in query order, or why there is none. */
export type OsvBatchRead =
  | { ok: true; findings: OsvFinding[]; requests: number }
  | {
      ok: false;
      reason: OutsideFailureReason;
      message: string;
      url: string;
      httpStatus: number | null;
      requests: number;
    };

/** One result of a querybatch answer: the affecting vulnerabilities, and a token when more remain. */
export const OsvBatchResultSchema = z.looseObject({
  vulns: z.array(z.looseObject({ id: z.string().min(1).max(OSV_ID_MAX_LENGTH) })).optional(),
  next_page_token: z.string().optional(),
});

/** A querybatch answer: one result per query, in the same order. */
export const OsvBatchAnswerSchema = z.looseObject({ results: z.array(OsvBatchResultSchema) });

function checkQueries(queries: unknown): OsvQuery[] {
  if (!Array.isArray(queries))
    throw new ProbeInputError(
      'invalid-option',
      `queries must be an array, got ${describeType(queries, { article: true })}`,
    );
  return queries.map((query: unknown, index) => {
    const q = query as Partial<OsvQuery> | null;
    if (
      q === null ||
      typeof q !== 'object' ||
      (q.ecosystem !== 'npm' && q.ecosystem !== 'PyPI') ||
      typeof q.name !== 'string' ||
      q.name === '' ||
      typeof q.version !== 'string' ||
      q.version === ''
    ) {
      throw new ProbeInputError(
        'invalid-option',
        `queries[${index}] must be { ecosystem: "npm" | "PyPI", name: non-empty string, version: non-empty string }`,
      );
    }
    return { ecosystem: q.ecosystem, name: q.name, version: q.version };
  });
}

/** A query still being paged: where it sits in the caller's list, and the token of its next page. */
interface Pending {
  index: number;
  pageToken: string | null;
}

function requestBody(queries: readonly OsvQuery[], pending: readonly Pending[]): string {
  return JSON.stringify({
    queries: pending.map(({ index, pageToken }) => {
      const q = queries[index] as OsvQuery;
      return {
        package: { name: q.name, ecosystem: q.ecosystem },
        version: q.version,
        ...(pageToken === null ? {} : { page_token: pageToken }),
      };
    }),
  });
}

/**
 * Asks OSV (`POST <osvUrl>/v1/querybatch`) which known vulnerabilities affect each package version, 1,000
 * queries per request, 30 s and 8 MiB per request. A result that carries `next_page_token` is asked again
 * with that token (up to 5 rounds; past them the finding is marked `truncated`). The whole batch is one
 * answer: if any request fails, the read fails with its reason, since a partial list would show some
 * packages as clean that were never checked. Never throws for what the service does.
 *
 * @example
 * const read = await queryOsvBatch([{ ecosystem: 'npm', name: 'left-pad', version: '1.0.0' }], { ...nodeNetwork });
 * if (read.ok) console.log(read.findings[0].ids); // e.g. ['GHSA-xxxx-xxxx-xxxx']
 */
export async function queryOsvBatch(queries: readonly OsvQuery[], options?: OsvOptions): Promise<OsvBatchRead> {
  const checked = checkQueries(queries);
  const base = normalizeBaseUrl(options?.osvUrl ?? DEFAULT_OSV_URL);
  if (base === null)
    throw new ProbeInputError(
      'invalid-origin',
      `osvUrl must be an absolute http(s) URL without query, got ${String(options?.osvUrl).slice(0, 100)}`,
    );
  const network = resolveNetworkSettings(options);
  const url = `${base}${OSV_QUERY_BATCH_PATH}`;
  const ids = checked.map(() => new Set<string>());
  let pending: Pending[] = checked.map((_, index) => ({ index, pageToken: null }));
  let requests = 0;
  // Round 0 asks every query; each later round asks only those whose answer named a next page.
  for (let round = 0; round <= OSV_MAX_PAGE_ROUNDS && pending.length > 0; round++) {
    const next: Pending[] = [];
    for (let start = 0; start < pending.length; start += OSV_BATCH_MAX_QUERIES) {
      const chunk = pending.slice(start, start + OSV_BATCH_MAX_QUERIES);
      requests++;
      const answer = await requestOutsideJson(
        {
          url,
          method: 'POST',
          body: requestBody(checked, chunk),
          accept: 'application/json',
          timeoutMs: OSV_TIMEOUT_MS,
          capBytes: OSV_ANSWER_CAP_BYTES,
          maxRedirects: 0,
        },
        network,
      );
      if (!answer.ok)
        return {
          ok: false,
          reason: answer.reason,
          message: answer.message,
          url: answer.url,
          httpStatus: answer.httpStatus,
          requests,
        };
      const parsed = OsvBatchAnswerSchema.safeParse(answer.json);
      const failed = (message: string): OsvBatchRead => ({
        ok: false,
        reason: 'unexpected-answer',
        message,
        url,
        httpStatus: answer.status,
        requests,
      });
      if (!parsed.success)
        return failed(
          `not a querybatch answer: ${parsed.error.issues[0]?.message ?? 'invalid'} at ${parsed.error.issues[0]?.path.join('.') || 'the top'}`,
        );
      if (parsed.data.results.length !== chunk.length)
        return failed(`${parsed.data.results.length} results for ${chunk.length} queries`);
      parsed.data.results.forEach((result, position) => {
        const { index } = chunk[position] as Pending;
        for (const vuln of result.vulns ?? []) ids[index]?.add(vuln.id);
        if (result.next_page_token !== undefined && result.next_page_token !== '')
          next.push({ index, pageToken: result.next_page_token });
      });
    }
    pending = next;
  }
  const unfinished = new Set(pending.map((p) => p.index));
  const findings = checked.map((q, index) => ({
    ecosystem: q.ecosystem,
    name: q.name,
    version: q.version,
    ids: [...(ids[index] as Set<string>)].sort(),
    truncated: unfinished.has(index),
  }));
  return { ok: true, findings, requests };
}
