// The HTML surface: the state page, server pages, the server list, the most-reliable lists, the tool search
// page, the methodology pages (its contents and one page per area), the badge and the widget, mounted on the app's Hono instance. Every page is
// rendered on the server from the current read model; no script is sent. Each answer says in a
// Server-Timing header (`render;dur=…`, milliseconds) how long the handler took from the routed request to
// the finished body, which is the figure the render budget is tested against.
import type { SeriesDay } from '@mcp-atlas/reliability';
import type { Context, Hono } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import { flattenQuery } from '../http/query.js';
import { answerToolSearch } from '../http/read-answers.js';
import { ServerIdSchema, ToolSearchQuerySchema } from '../http/schemas.js';
import type { SearchCache } from '../http/search-cache.js';
import type { ChangeReader } from '../http/server-changes.js';
import type { AtlasView, ServerView } from '../view/build-view.js';
import type { LocalServerView } from '../view/local-view.js';
import {
  BADGE_LABEL,
  BADGE_MAX_AGE_SECONDS,
  BADGE_STYLES,
  badgeLabelOf,
  GRADE_BADGE_LABEL,
  gradeBadgeMessageOf,
  isBadgeStyle,
  renderBadge,
  shieldsEndpointOf,
  shortBadgeMessageOf,
  UNKNOWN_BADGE,
} from './badge.js';
import { ErrorPage } from './error-page.js';
import { Layout } from './layout.js';
import { countLeaderboardPages, LeaderboardPage } from './leaderboard-page.js';
import { LocalServerPage } from './local-server-page.js';
import {
  defaultMethodologySource,
  isMethodologyArea,
  METHODOLOGY_AREAS,
  type MethodologySource,
} from './methodology-doc.js';
import { MethodologyPage } from './methodology-page.js';
import { ReliablePage } from './reliable-page.js';
import { SearchPage } from './search-page.js';
import { nameOf, ServerPage } from './server-page.js';
import { countServerPages, ServersPage } from './servers-page.js';
import { StatePage } from './state-page.js';
import { STATE_COLOURS } from './styles.js';
import { WidgetPage } from './widget-page.js';

/** What the pages need from the app. */
export interface PageDeps {
  getView(): AtlasView;
  /** Reads a server's changes of the last 60 days (the API's reader, so both share its cache). */
  changes: ChangeReader;
  /** Reads a server's day series (state/series/<id>.json), undefined when it has none yet. */
  daySeries(serverId: string): Promise<readonly SeriesDay[] | undefined>;
  methodologyVersion: string;
  appVersion: string;
  /** The tool search's answer cache, shared with GET /api/toolsearch. */
  searchCache?: SearchCache;
  /**
   * The service's origin (such as https://atlas.example.org) that snippets and absolute links start with.
   * It comes from the operator's settings, never from the request's Host header, which anyone can set.
   */
  origin: string;
  /** Where the methodology's pages come from; by default its folder is found above the app's own folder. */
  methodology?: MethodologySource;
}

/** The name of the Server-Timing metric every page, badge and widget carries. */
export const RENDER_TIMING_METRIC = 'render';

/** How long caches may keep a page or widget: the read model changes at most with each hourly check. */
export const PAGE_MAX_AGE_SECONDS = 60;

// No script may run, styles only inline, images only from this host (the badge) or data: URLs (the empty
// icon), forms post only here. A page may not be framed; the widget may be framed by anyone.
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const WIDGET_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors *";
const BADGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

interface Rendered {
  status: 200 | 400 | 404 | 503;
  body: string;
  contentType: string;
  csp: string;
  cacheControl: string;
}

/** Renders a JSX document to HTML text with its doctype. */
export async function renderDocument(element: JSX.Element): Promise<string> {
  const node = await element;
  return `<!doctype html>${await node.toString()}`;
}

/** Wraps a page builder: times it, and answers with the security, caching and timing headers. */
function timed(build: (c: Context) => Promise<Rendered>) {
  return async (c: Context) => {
    const started = performance.now();
    const rendered = await build(c);
    const elapsed = performance.now() - started;
    return new Response(rendered.body, {
      status: rendered.status,
      headers: {
        'Content-Type': rendered.contentType,
        'Content-Security-Policy': rendered.csp,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'strict-origin-when-cross-origin',
        'Cache-Control': rendered.cacheControl,
        'Server-Timing': `${RENDER_TIMING_METRIC};dur=${elapsed.toFixed(2)}`,
      },
    });
  };
}

/** The `page` query of a paged list (default 1), or the message that refuses it when it is not one of `pages`. */
function pageNumberOf(c: Context, pages: number): number | string {
  const text = c.req.query('page') ?? '1';
  const number = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  return number >= 1 && number <= pages ? number : `page: must be a whole number from 1 to ${pages}`;
}

/** The server with this id in the view; a malformed id names none. */
function serverWithId(view: AtlasView, id: string): ServerView | undefined {
  return ServerIdSchema.safeParse(id).success ? view.byId.get(id) : undefined;
}

/** The local server with this id in the view; a malformed id names none. */
function localServerWithId(view: AtlasView, id: string): LocalServerView | undefined {
  return ServerIdSchema.safeParse(id).success ? view.localById.get(id) : undefined;
}

/**
 * Mounts the pages on `app`. Call it before `app.notFound`, which stays the JSON answer for every other path.
 *
 * @example
 * mountPages(app, { getView, changes, methodologyVersion: METHODOLOGY_VERSION, appVersion: APP_VERSION, origin: 'https://atlas.example.org' });
 */
export function mountPages(app: Hono, deps: PageDeps): void {
  const methodology = deps.methodology ?? defaultMethodologySource();
  // Read and render every page now rather than on the first visit: they change only with a release, and a
  // visitor should not wait for the markdown to be parsed. A failure is kept for the page to report.
  void methodology.read();
  for (const area of METHODOLOGY_AREAS) void methodology.read(area);

  const page = async (
    status: Rendered['status'],
    title: string,
    description: string,
    content: JSX.Element,
  ): Promise<Rendered> => ({
    status,
    body: await renderDocument(
      <Layout
        title={title}
        description={description}
        methodologyVersion={deps.methodologyVersion}
        appVersion={deps.appVersion}
      >
        {content}
      </Layout>,
    ),
    contentType: 'text/html; charset=utf-8',
    csp: PAGE_CSP,
    cacheControl: status === 200 ? `public, max-age=${PAGE_MAX_AGE_SECONDS}` : 'no-store',
  });

  const notFound = (message: string) =>
    page(404, 'Not found', message, <ErrorPage heading="Not found" message={message} />);
  const badRequest = (message: string) =>
    page(400, 'Bad request', message, <ErrorPage heading="That request cannot be answered" message={message} />);

  app.get(
    '/',
    timed(async () => {
      const view = deps.getView();
      return page(
        200,
        'State of remote MCP servers',
        'Counts, uptime, changes and the signed history of remote MCP servers.',
        <StatePage view={view} base={deps.origin} />,
      );
    }),
  );

  app.get(
    '/servers',
    timed(async (c) => {
      const view = deps.getView();
      const number = pageNumberOf(c, countServerPages(view.servers.length));
      if (typeof number === 'string') return badRequest(number);
      return page(
        200,
        'Servers',
        'Every watched MCP server with its status and uptime.',
        <ServersPage view={view} page={number} />,
      );
    }),
  );

  app.get(
    '/servers/:id',
    timed(async (c) => {
      const view = deps.getView();
      const id = c.req.param('id') ?? '';
      const server = serverWithId(view, id);
      const local = server === undefined ? localServerWithId(view, id) : undefined;
      if (local !== undefined)
        return page(
          200,
          local.title,
          `Install command, sandboxed check and tools of the local server ${local.title}.`,
          <LocalServerPage server={local} />,
        );
      if (server === undefined) return notFound(`No server has the id “${id}”.`);
      const changes = await deps.changes.changesOf(server.id, view.day);
      const series = await deps.daySeries(server.id);
      return page(
        200,
        nameOf(server),
        `Status, uptime, tools and changes of ${nameOf(server)}.`,
        <ServerPage view={view} server={server} changes={changes} series={series} base={deps.origin} />,
      );
    }),
  );

  app.get(
    '/leaderboard',
    timed(async (c) => {
      const view = deps.getView();
      const number = pageNumberOf(c, countLeaderboardPages(view.servers.length));
      if (typeof number === 'string') return badRequest(number);
      return page(
        200,
        'Quality score leaderboard',
        'MCP servers by quality-score tier, then score, with grades, tiers and flags.',
        <LeaderboardPage view={view} page={number} />,
      );
    }),
  );

  app.get(
    '/reliable',
    timed(async () =>
      page(
        200,
        'Most reliable by category',
        'The most reliable MCP servers of each category.',
        <ReliablePage view={deps.getView()} />,
      ),
    ),
  );

  app.get(
    '/search',
    timed(async (c) => {
      const view = deps.getView();
      const query = flattenQuery(c);
      const form = (
        values: Record<string, string>,
        results: Parameters<typeof SearchPage>[0]['results'],
        error: string | null,
      ) => (
        <SearchPage
          view={view}
          query={values.q ?? ''}
          risk={values.risk ?? 'any'}
          limit={values.limit ?? ''}
          results={results}
          error={error}
        />
      );
      const title = 'Tool search';
      const description = 'Search the tools of every watched MCP server.';
      if (!query.ok) return page(400, title, description, form({}, null, query.message));
      // An empty form (the page opened without a query) is not an error: it is the form waiting to be filled.
      if ((query.value.q ?? '').trim() === '') return page(200, title, description, form(query.value, null, null));
      const parsed = ToolSearchQuerySchema.safeParse(query.value);
      if (!parsed.success) {
        const message = parsed.error.issues
          .map((issue) => `${issue.path.join('.') || '(query)'}: ${issue.message}`)
          .join('; ');
        return page(400, title, description, form(query.value, null, message));
      }
      const answer = answerToolSearch(
        view,
        parsed.data.q,
        { risk: parsed.data.risk, limit: parsed.data.limit },
        deps.searchCache,
      );
      if (!answer.ok)
        return page(
          answer.refusal.status === 400 ? 400 : 503,
          title,
          description,
          form(query.value, null, answer.refusal.message),
        );
      return page(200, title, description, form(query.value, answer.value.results, null));
    }),
  );

  app.get(
    '/methodology',
    timed(async () => {
      const source = await methodology.read();
      if (!source.ok) {
        return page(
          503,
          'Methodology',
          'How mcp-atlas checks MCP servers.',
          <ErrorPage heading="The methodology text is not available" message={source.reason} />,
        );
      }
      return page(
        200,
        `Methodology ${deps.methodologyVersion}`,
        'How mcp-atlas checks MCP servers, in full.',
        <MethodologyPage doc={source.doc} serviceVersion={deps.methodologyVersion} />,
      );
    }),
  );

  app.get(
    '/methodology/:area',
    timed(async (c) => {
      const area = c.req.param('area') ?? '';
      if (!isMethodologyArea(area)) return notFound(`The methodology has no area “${area}”.`);
      const source = await methodology.read(area);
      if (!source.ok) {
        return page(
          503,
          'Methodology',
          'How mcp-atlas checks MCP servers.',
          <ErrorPage heading="The methodology text is not available" message={source.reason} />,
        );
      }
      const title = source.doc.title ?? area;
      return page(
        200,
        `${title}: methodology ${deps.methodologyVersion}`,
        `How mcp-atlas checks MCP servers: ${title}.`,
        <MethodologyPage doc={source.doc} serviceVersion={deps.methodologyVersion} isArea />,
      );
    }),
  );

  /**
   * A badge: the SVG in the `style` asked for (flat by default) or, for `.json`, the shields endpoint answer, with
   * `label` in place of the default label. An unknown server gets an "unknown" badge with status 200, since an
   * image proxy (GitHub's among them) shows a 404 as a broken image; a style it does not know is a 400 badge.
   */
  function badgeAnswer(
    c: Context,
    format: 'svg' | 'json',
    defaultLabel: string,
    badge: { message: string; colour: string },
  ): Rendered {
    const label = badgeLabelOf(c.req.query('label'), defaultLabel);
    const cacheControl = `public, max-age=${BADGE_MAX_AGE_SECONDS}`;
    if (format === 'json')
      return {
        status: 200,
        body: JSON.stringify(shieldsEndpointOf(label, badge.message, badge.colour)),
        contentType: 'application/json; charset=utf-8',
        csp: BADGE_CSP,
        cacheControl,
      };
    const style = c.req.query('style') ?? 'flat';
    const known = isBadgeStyle(style);
    return {
      status: known ? 200 : 400,
      body: known
        ? renderBadge(label, badge.message, badge.colour, style)
        : renderBadge(label, `style: one of ${BADGE_STYLES.join(', ')}`, STATE_COLOURS.unknown),
      contentType: 'image/svg+xml; charset=utf-8',
      csp: BADGE_CSP,
      cacheControl: known ? cacheControl : 'no-store',
    };
  }

  /** The id and format of a badge file (`<id>.svg`, `<id>.json`), or null for another name. */
  function badgeFileOf(file: string): { id: string; format: 'svg' | 'json' } | null {
    const match = /^(.+)\.(svg|json)$/.exec(file);
    return match === null ? null : { id: match[1] as string, format: match[2] as 'svg' | 'json' };
  }

  // The status badge: the shown status and the uptime figure ("up | 99.9%").
  app.get(
    '/badge/:file',
    timed(async (c) => {
      const file = badgeFileOf(c.req.param('file') ?? '');
      if (file === null) return notFound('A badge is /badge/<id>.svg, or /badge/<id>.json for shields.io.');
      const server = serverWithId(deps.getView(), file.id);
      const badge = server === undefined ? UNKNOWN_BADGE : shortBadgeMessageOf(server.shown.state, server.uptime);
      return badgeAnswer(c, file.format, BADGE_LABEL, badge);
    }),
  );

  // The grade badge: the server's newest quality grade with its dimensions, such as "A (5/5)".
  for (const format of ['svg', 'json'] as const) {
    app.get(
      `/badge/:id/grade.${format}`,
      timed(async (c) => {
        const view = deps.getView();
        const server = serverWithId(view, c.req.param('id') ?? '');
        const badge =
          server === undefined ? UNKNOWN_BADGE : gradeBadgeMessageOf(view.scores.latest.get(server.id)?.score ?? null);
        return badgeAnswer(c, format, GRADE_BADGE_LABEL, badge);
      }),
    );
  }

  app.get(
    '/widget/:id',
    timed(async (c) => {
      const id = c.req.param('id') ?? '';
      const server = serverWithId(deps.getView(), id);
      if (server === undefined) return notFound(`No server has the id “${id}”.`);
      return {
        status: 200,
        body: await renderDocument(<WidgetPage server={server} methodologyVersion={deps.methodologyVersion} />),
        contentType: 'text/html; charset=utf-8',
        csp: WIDGET_CSP,
        cacheControl: `public, max-age=${BADGE_MAX_AGE_SECONDS}`,
      };
    }),
  );
}

/** A page request as the view counts record it: which store, and what it is counted under. */
export interface PageSighting {
  /** `badge`: a badge sighting (per server); `view`: a page or widget view. */
  kind: 'badge' | 'view';
  /**
   * The server id for a badge; for a view, `state`, `servers`, `reliable`, `leaderboard`, `search`, `methodology`,
   * `methodology:<area>`, `server:<id>` or `widget:<id>`.
   */
  key: string;
}

const SIMPLE_PAGES: Readonly<Record<string, string>> = {
  '/': 'state',
  '/servers': 'servers',
  '/reliable': 'reliable',
  '/leaderboard': 'leaderboard',
  '/search': 'search',
  '/methodology': 'methodology',
};

/**
 * What a GET of `pathname` counts as in the badge sightings or the page and widget view counts, or null for
 * any other path. Only the path is read: never the address, the user agent or the referrer. The caller counts
 * only answers with status 200, and a badge only for a server it holds (an unknown server's badge is a 200 too).
 *
 * @example pageSightingOf('/badge/files-example.svg'); // { kind: 'badge', key: 'files-example' }
 */
export function pageSightingOf(pathname: string): PageSighting | null {
  const simple = SIMPLE_PAGES[pathname];
  if (simple !== undefined) return { kind: 'view', key: simple };
  const area = /^\/methodology\/([a-z-]+)$/.exec(pathname)?.[1];
  if (area !== undefined) return isMethodologyArea(area) ? { kind: 'view', key: `methodology:${area}` } : null;
  // The grade badge counts as a sighting of the server's badge, as the status badge does.
  const grade = /^\/badge\/([^/]+)\/grade\.(svg|json)$/.exec(pathname);
  if (grade !== null)
    return ServerIdSchema.safeParse(grade[1]).success ? { kind: 'badge', key: grade[1] as string } : null;
  const match = /^\/(badge|widget|servers)\/([^/]+)$/.exec(pathname);
  if (match === null) return null;
  const [, section, file] = match as unknown as [string, string, string];
  const id = section === 'badge' ? (/^(.+)\.(svg|json)$/.exec(file)?.[1] ?? '') : file;
  if (!ServerIdSchema.safeParse(id).success) return null;
  if (section === 'badge') return { kind: 'badge', key: id };
  return { kind: 'view', key: `${section === 'widget' ? 'widget' : 'server'}:${id}` };
}
