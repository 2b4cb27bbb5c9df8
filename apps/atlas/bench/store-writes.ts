// What the storage benchmarks write: the writes a scan's results make, 20 at once, with a report-log line and a
// server record of typical size. Shared so that the folder and PostgreSQL figures measure the same work.

/** Writes started at once in each round, as a scan's results arrive. */
export const PARALLEL_WRITES = 20;

/** One line of a day's report log. */
export const REPORT_LINE = new TextEncoder().encode(`${JSON.stringify({ server: 'example', ok: true, ms: 120 })}\n`);

/** One server's record, about the size of a small catalog. */
export const SERVER_RECORD = new TextEncoder().encode(
  JSON.stringify({ server: 'example', tools: Array(40).fill('tool') }),
);

/** Runs `write` for each of PARALLEL_WRITES indexes at once. */
export async function inParallel(write: (at: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: PARALLEL_WRITES }, (_, at) => write(at)));
}
