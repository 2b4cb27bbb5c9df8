// The production search evaluation's page (`/search-eval`): the latest run's figures, the month-by-month
// history, nDCG@5 per kind of job, the ten weakest jobs with their top five and every job with its allowed level
// and P@5, all read from search-eval/history.json. The history file itself (`/search-eval/history.json`) and the
// set the schedule runs (`/search-eval/set.json`, any frozen one with `?version=`) are served as they are stored. No script: the month chart is an inline SVG drawn on the server.
import { CHECK_SCHEDULE_RULES } from '@mcp-atlas/operations/rules';
import type { Hono } from 'hono';
import type { Child, FC } from 'hono/jsx';
import { SEARCH_EVAL_HISTORY_PATH } from '../data/paths.js';
import {
  monthlyPoints,
  monthOfRecord,
  readSearchEvalHistory,
  type SearchEvalHistory,
  SearchEvalHistoryError,
  type SearchEvalRecord,
} from '../search-eval/history.js';
import {
  PACKAGED_SET_FILES,
  PACKAGED_SET_VERSION,
  packagedSearchEvalSetPath,
  packagedSetPathOf,
  readSearchEvalSet,
  type SearchEvalSet,
} from '../search-eval/search-set.js';
import type { Storage } from '../storage/storage.js';
import { ErrorPage } from './error-page.js';
import { formatInstant, formatMs, ordinal, plural } from './format.js';
import { Layout } from './layout.js';
import { TableHead } from './parts.js';
import { renderDocument } from './routes.js';

/** Where the page and its two JSON files are served. */
export const SEARCH_EVAL_PAGE_PATH = '/search-eval';
export const SEARCH_EVAL_HISTORY_URL = '/search-eval/history.json';
export const SEARCH_EVAL_SET_URL = '/search-eval/set.json';

const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const figure = (value: number): string => value.toFixed(2);

const FIGURES = [
  { key: 'p1', label: 'P@1', says: 'the first result fits the job' },
  { key: 'p5', label: 'P@5', says: 'share of the top five that fit' },
  { key: 'ndcg5', label: 'nDCG@5', says: 'order quality of the top five' },
  { key: 'mrr', label: 'MRR', says: 'how high the first fit is (top ten)' },
  { key: 'hit5', label: 'hit@5', says: 'jobs with a fitting tool in the top five' },
] as const;

const Latest: FC<{ record: SearchEvalRecord }> = ({ record }) => (
  <section aria-labelledby="latest-heading" data-latest>
    <h2 id="latest-heading">Latest run</h2>
    <p>
      {formatInstant(record.date)}, set {record.setVersion} ({plural(record.jobCount, 'job')}, SHA-256{' '}
      <code>{record.setSha256}</code>), against {record.url}.
      {record.failedRequests > 0 ? ` ${plural(record.failedRequests, 'request')} failed; those jobs score 0.` : ''}
    </p>
    <dl class="figures">
      {FIGURES.map((f) => (
        <div data-figure={f.key}>
          <dt>
            {f.label}: {f.says}
          </dt>
          <dd>{figure(record.metrics[f.key])}</dd>
        </div>
      ))}
      <div data-figure="median">
        <dt>median time to answer one request</dt>
        <dd>{formatMs(record.medianMs)}</dd>
      </div>
    </dl>
  </section>
);

const CHART = { width: 480, height: 160, pad: 24 } as const;

/** P@5 and nDCG@5 per month as two polylines; a single month is drawn as points. */
const MonthChart: FC<{ points: readonly SearchEvalRecord[] }> = ({ points }) => {
  const x = (at: number) =>
    CHART.pad + (points.length === 1 ? 0 : (at * (CHART.width - 2 * CHART.pad)) / (points.length - 1));
  const y = (value: number) => CHART.height - CHART.pad - value * (CHART.height - 2 * CHART.pad);
  const line = (key: 'p5' | 'ndcg5') => points.map((p, at) => `${x(at)},${y(p.metrics[key])}`).join(' ');
  return (
    <svg
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      role="img"
      aria-label="P@5 (solid) and nDCG@5 (dashed) per month, from 0 to 1"
    >
      <line x1={CHART.pad} y1={y(0)} x2={CHART.width - CHART.pad} y2={y(0)} stroke="#999" />
      <line x1={CHART.pad} y1={y(1)} x2={CHART.width - CHART.pad} y2={y(1)} stroke="#ddd" />
      <polyline points={line('p5')} fill="none" stroke="#1a5fb4" stroke-width="2" />
      <polyline points={line('ndcg5')} fill="none" stroke="#c64600" stroke-width="2" stroke-dasharray="5 3" />
      {points.map((p, at) => (
        <circle cx={x(at)} cy={y(p.metrics.p5)} r="3" fill="#1a5fb4" />
      ))}
    </svg>
  );
};

const History: FC<{ history: SearchEvalHistory }> = ({ history }) => {
  const points = monthlyPoints(history);
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Month by month</h2>
      <p>
        One point per month: the newest run of that month. Figures compare only between runs of the same set version and
        SHA-256. Data: <a href={SEARCH_EVAL_HISTORY_URL}>history.json</a> (every run, {history.runs.length} so far).
      </p>
      <MonthChart points={points} />
      <div class="scroll">
        <table data-history>
          <TableHead
            columns={[
              { label: 'month' },
              { label: 'set' },
              ...FIGURES.map((f) => ({ label: f.label, numeric: true })),
              { label: 'median', numeric: true },
            ]}
          />
          <tbody>
            {points.map((record) => (
              <tr data-month={monthOfRecord(record)}>
                <td>{monthOfRecord(record)}</td>
                <td>
                  {record.setVersion} <span class="small muted">{record.setSha256.slice(0, 12)}</span>
                </td>
                {FIGURES.map((f) => (
                  <td class="num">{figure(record.metrics[f.key])}</td>
                ))}
                <td class="num">{formatMs(record.medianMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
};

const ByCategory: FC<{ record: SearchEvalRecord }> = ({ record }) => (
  <section aria-labelledby="category-heading">
    <h2 id="category-heading">By kind of job</h2>
    <p>nDCG@5 of each category in the latest run.</p>
    <div class="scroll">
      <table data-categories>
        <TableHead
          columns={[{ label: 'category' }, { label: 'jobs', numeric: true }, { label: 'nDCG@5', numeric: true }]}
        />
        <tbody>
          {Object.entries(record.byCategory).map(([category, figures]) => (
            <tr data-category={category}>
              <td>{category}</td>
              <td class="num">{figures.jobs}</td>
              <td class="num">{figure(figures.ndcg5)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  </section>
);

const Weakest: FC<{ record: SearchEvalRecord }> = ({ record }) => (
  <section aria-labelledby="weakest-heading">
    <h2 id="weakest-heading">Where it falls short</h2>
    <p>The {record.weakest.length} jobs with the lowest nDCG@5 in the latest run, with the five tools it returned.</p>
    <ol data-weakest>
      {record.weakest.map((job) => (
        <li data-job={job.id}>
          <strong>{job.query}</strong>{' '}
          <span class="small muted">
            ({job.category}, nDCG@5 {figure(job.ndcg5)})
          </span>
          {job.error !== undefined ? <p class="small">The request failed: {job.error}</p> : null}
          {job.top5.length === 0 ? (
            <p class="small">No result.</p>
          ) : (
            <ol class="small">
              {job.top5.map((hit, at) => (
                <li>
                  <code>{hit}</code> {(job.grades[at] ?? 0) > 0 ? '(fits)' : '(does not fit)'}
                </li>
              ))}
            </ol>
          )}
        </li>
      ))}
    </ol>
  </section>
);

/** What a job's `allow` lets a fit be, in words. */
const ALLOWED_LEVELS: Record<'read' | 'change' | 'any', string> = {
  read: 'read-only',
  change: 'read-only or changes data',
  any: 'any level',
};

const EveryJob: FC<{ record: SearchEvalRecord }> = ({ record }) => (
  <section aria-labelledby="jobs-heading">
    <h2 id="jobs-heading">Every job</h2>
    {record.jobs === undefined ? (
      <p data-jobs-missing>This run was recorded before every job was kept; only its weakest jobs are above.</p>
    ) : (
      <>
        <p>
          Each job of the latest run, in the set's order: the risk levels a fitting tool may have and the job's P@5. Its
          top five are in <a href={SEARCH_EVAL_HISTORY_URL}>history.json</a>.
        </p>
        <div class="scroll">
          <table data-jobs>
            <TableHead
              columns={[
                { label: 'job' },
                { label: 'category' },
                { label: 'allowed level' },
                { label: 'P@5', numeric: true },
              ]}
            />
            <tbody>
              {record.jobs.map((job) => (
                <tr data-job-row={job.id} data-p5={figure(job.p5)}>
                  <td>
                    {job.query} <span class="small muted">{job.id}</span>
                  </td>
                  <td>{job.category}</td>
                  <td>{ALLOWED_LEVELS[job.allow]}</td>
                  <td class="num">{figure(job.p5)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    )}
  </section>
);

/** The links to every frozen set the service publishes, newest last. */
const publishedSets = (): Child[] =>
  Object.keys(PACKAGED_SET_FILES).map((version, at) => (
    <>
      {at > 0 ? ', ' : ''}
      <a href={`${SEARCH_EVAL_SET_URL}?version=${version}`}>{version}</a>
    </>
  ));

const HowMeasured: FC<{ set: SearchEvalSet | null }> = ({ set }) => (
  <section aria-labelledby="how-heading">
    <h2 id="how-heading">How it is measured</h2>
    <p>
      On the {ordinal(CHECK_SCHEDULE_RULES.searchEvalDayOfMonth)} of every month the service sends each job of a frozen
      set to its own <code>/api/toolsearch</code> as one request with the defaults (any risk level, answering servers
      only, ten results) and grades the answer with the set's judge, which holds no model: a result fits when its tool
      name and description contain a word from every synonym group of the job and its risk level is one the job allows
      (a reading job takes read-only tools only). The set is published as <a href={SEARCH_EVAL_SET_URL}>JSON</a>
      {set !== null ? ` (version ${set.version}, ${plural(set.jobs.length, 'job')}, SHA-256 ${set.sha256})` : ''}; it is
      never edited to raise a score, and a corrected set gets a new version; every frozen version stays published (
      {publishedSets()}). The full method is in the{' '}
      <a href="/methodology/route-and-search#search-evaluation-evaluatesearch">methodology</a>.
    </p>
  </section>
);

/** The whole page over a history (empty or not). */
export const SearchEvalPage: FC<{ history: SearchEvalHistory; set: SearchEvalSet | null }> = ({ history, set }) => {
  const latest = history.runs[history.runs.length - 1];
  return (
    <>
      <h1>Tool search evaluation</h1>
      <p>How well the tool search finds the right MCP tool, measured on fixed jobs and published every month.</p>
      {latest === undefined ? (
        <p data-empty>No run has been recorded yet.</p>
      ) : (
        <>
          <Latest record={latest} />
          <History history={history} />
          <ByCategory record={latest} />
          <Weakest record={latest} />
          <EveryJob record={latest} />
        </>
      )}
      <HowMeasured set={set} />
    </>
  );
};

/** What the search-eval routes need. */
export interface SearchEvalPageDeps {
  storage: Storage;
  methodologyVersion: string;
  appVersion: string;
  /** The set served at /search-eval/set.json; the route package's frozen set by default. */
  setPath?: string;
}

const SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin' };

/** Mounts /search-eval, /search-eval/history.json and /search-eval/set.json on `app`. */
export function mountSearchEvalPages(app: Hono, deps: SearchEvalPageDeps): void {
  const setsRead = new Map<string, Promise<SearchEvalSet | null>>();
  // A set changes only with a release: each is read once; an unreadable set leaves the page without it.
  const readSetAt = (key: string, path: string) => {
    let read = setsRead.get(key);
    if (read === undefined) {
      read = readSearchEvalSet(path).catch(() => null);
      setsRead.set(key, read);
    }
    return read;
  };
  const readSet = () => readSetAt('', deps.setPath ?? packagedSearchEvalSetPath());
  const html = (status: 200 | 503, body: string) =>
    new Response(body, {
      status,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': PAGE_CSP,
        'Cache-Control': status === 200 ? 'public, max-age=60' : 'no-store',
        ...SECURITY_HEADERS,
      },
    });
  const page = async (status: 200 | 503, content: Child) =>
    html(
      status,
      await renderDocument(
        <Layout
          title="Tool search evaluation"
          description="Monthly figures of the tool search on a frozen set of jobs."
          methodologyVersion={deps.methodologyVersion}
          appVersion={deps.appVersion}
        >
          {content}
        </Layout>,
      ),
    );

  app.get(SEARCH_EVAL_PAGE_PATH, async () => {
    let history: SearchEvalHistory;
    try {
      history = await readSearchEvalHistory(deps.storage);
    } catch (error) {
      if (!(error instanceof SearchEvalHistoryError)) throw error;
      return page(503, <ErrorPage heading="The evaluation history cannot be read" message={error.message} />);
    }
    return page(200, <SearchEvalPage history={history} set={await readSet()} />);
  });

  app.get(SEARCH_EVAL_HISTORY_URL, async () => {
    const bytes = await deps.storage.get(SEARCH_EVAL_HISTORY_PATH);
    // Served as stored, byte for byte; before the first run it is an empty history.
    return new Response(bytes === null ? '{"runs":[]}\n' : new TextDecoder().decode(bytes), {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'public, max-age=60',
        ...SECURITY_HEADERS,
      },
    });
  });

  app.get(SEARCH_EVAL_SET_URL, async (c) => {
    const version = c.req.query('version');
    const versionPath = version === undefined ? null : packagedSetPathOf(version);
    if (version !== undefined && versionPath === null) {
      const known = Object.keys(PACKAGED_SET_FILES).join(', ');
      return c.json(
        { error: { code: 'unknown_version', message: `no published set ${version}; there are ${known}` } },
        404,
      );
    }
    const set = versionPath === null ? await readSet() : await readSetAt(version ?? '', versionPath);
    if (set === null)
      return c.json({ error: { code: 'unavailable', message: 'the evaluation set cannot be read' } }, 503);
    return new Response(new TextDecoder().decode(set.bytes), {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'public, max-age=3600',
        ...SECURITY_HEADERS,
      },
    });
  });
}

const jsonAnswer = (description: string): Record<string, unknown> => ({
  description,
  content: { 'application/json': { schema: { type: 'object' } } },
});
const htmlAnswer = (description: string): Record<string, unknown> => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

/** The OpenAPI path items of the three search-eval routes, for the app's OpenAPI document. */
export const SEARCH_EVAL_OPENAPI_PATHS: Record<string, Record<string, unknown>> = {
  [SEARCH_EVAL_PAGE_PATH]: {
    get: {
      operationId: 'searchEvalPage',
      summary:
        'The tool search evaluation: the latest run, the month-by-month history, nDCG@5 by category, the weakest jobs and every job with its P@5.',
      responses: {
        '200': htmlAnswer('The page.'),
        '503': htmlAnswer('The stored history cannot be read; the page says why.'),
      },
    },
  },
  [SEARCH_EVAL_HISTORY_URL]: {
    get: {
      operationId: 'searchEvalHistory',
      summary: 'Every search-eval run as stored ({ runs: [...] }, oldest first); an empty history before the first.',
      responses: { '200': jsonAnswer('The history.') },
    },
  },
  [SEARCH_EVAL_SET_URL]: {
    get: {
      operationId: 'searchEvalSet',
      summary: `The evaluation set the monthly run uses, byte for byte as published; \`?version=\` picks a frozen one (${PACKAGED_SET_VERSION} is the newest).`,
      parameters: [
        {
          name: 'version',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: Object.keys(PACKAGED_SET_FILES) },
          description: 'A frozen set the service publishes; without it, the set the monthly run uses.',
        },
      ],
      responses: {
        '200': jsonAnswer('The set.'),
        '404': jsonAnswer('No published set has that version.'),
        '503': jsonAnswer('The set cannot be read.'),
      },
    },
  },
};
