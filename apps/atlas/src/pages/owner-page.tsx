// The owner view as a page: GET /owner is a form (server id and access token), POST /owner shows the view for the
// holder of the token. A form, not a link with the token in it, so the token never lands in a URL, a log line or
// a browser's history; the page sends no script, like every page. The view itself comes from http/owner-view.ts.
import type { Context, Hono } from 'hono';
import type { Child, FC } from 'hono/jsx';
import { authorizeOwner, type OwnerView, ownerViewOf } from '../http/owner-view.js';
import type { ChangeReader } from '../http/server-changes.js';
import type { Storage } from '../storage/storage.js';
import type { AtlasView } from '../view/build-view.js';
import { ErrorPage } from './error-page.js';
import { plural } from './format.js';
import { Layout } from './layout.js';
import { TableHead } from './parts.js';
import { PAGE_CSP, renderDocument } from './routes.js';

/** Where the owner view's page is served. */
export const OWNER_PAGE_PATH = '/owner';

/** What the owner page needs. */
export interface OwnerPageDeps {
  getView(): AtlasView;
  storage: Storage;
  changes: ChangeReader;
  now(): Date;
  methodologyVersion: string;
  appVersion: string;
}

/** The form: the server and its access token. `refused` says the last try was not accepted. */
const OwnerForm: FC<{ server: string; refused: boolean }> = ({ server, refused }) => (
  <>
    <h1>Owner view</h1>
    <p>
      For the verified owner of a server: its alerts, demand, agents’ reports, changes and score. Get the access token
      with <code>POST /api/owners/access</code> once you have verified control of the server’s origin.
    </p>
    {refused ? (
      <p role="alert" data-refused>
        That server id and access token do not match. Ask for a new token if you lost it.
      </p>
    ) : null}
    <form method="post" action={OWNER_PAGE_PATH}>
      <p>
        <label for="owner-server">Server id</label> <input id="owner-server" name="server" value={server} required />
      </p>
      <p>
        <label for="owner-token">Access token</label>{' '}
        <input id="owner-token" name="token" type="password" autocomplete="off" required />
      </p>
      <p>
        <button type="submit">Show the owner view</button>
      </p>
    </form>
  </>
);

const Section: FC<{ id: string; heading: string; children?: Child }> = ({ id, heading, children }) => (
  <section aria-labelledby={id} data-owner-section={id}>
    <h2 id={id}>{heading}</h2>
    {children}
  </section>
);

/** The owner view, section by section. */
const OwnerViewPage: FC<{ view: OwnerView }> = ({ view }) => (
  <>
    <h1>{view.title ?? view.server}: owner view</h1>
    <p class="small">
      Verified for {view.origin}, last read {view.verifiedAt}. Five-minute checks {view.fiveMinuteChecks ? 'on' : 'off'}
      .
    </p>
    <Section id="owner-alerts" heading="Alerts">
      <p>
        {plural(view.alerts.failures.length, 'second failure')} in a row,{' '}
        {plural(view.alerts.scoreDrops.length, 'score drop')}.
      </p>
      {view.alerts.scoreDrops.length > 0 ? (
        <table data-owner-score-drops>
          <TableHead
            columns={[{ label: 'day' }, { label: 'from' }, { label: 'to' }, { label: 'drop', numeric: true }]}
          />
          <tbody>
            {view.alerts.scoreDrops.map((drop) => (
              <tr>
                <td>{drop.day}</td>
                <td>{`${drop.from} (${drop.fromGrade})`}</td>
                <td>{`${drop.to} (${drop.toGrade})`}</td>
                <td class="num">{drop.drop}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {view.alerts.failures.length > 0 ? (
        <ul data-owner-failures>
          {view.alerts.failures.map((alert) => (
            <li>{`${alert.at}: ${alert.kind} check, ${alert.reason}, ${alert.failuresInARow} in a row`}</li>
          ))}
        </ul>
      ) : null}
    </Section>
    <Section id="owner-demand" heading="Demand">
      {view.demand.length === 0 ? (
        <p>No aggregated day yet.</p>
      ) : (
        <table data-owner-demand>
          <TableHead
            columns={[
              { label: 'day' },
              { label: 'tasks routed here', numeric: true },
              { label: 'sensor outcomes', numeric: true },
              { label: 'sensor failures', numeric: true },
            ]}
          />
          <tbody>
            {view.demand.map((day) => (
              <tr data-day={day.day}>
                <td>{day.day}</td>
                <td class="num">{day.routed}</td>
                <td class="num">{day.sensorOutcomes}</td>
                <td class="num">{day.sensorFailures}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
    <Section id="owner-reports" heading="Agents’ reports">
      <p data-owner-reports>
        {`${plural(view.reports.reports, 'report')} in ${view.reports.days} days from ${plural(view.reports.reporters, 'reporter')}: ${view.reports.worked} worked, ${view.reports.failed} failed.`}
      </p>
    </Section>
    <Section id="owner-changes" heading="Changes">
      <p>{plural(view.changes.length, 'change')} of the tool list kept.</p>
    </Section>
    <Section id="owner-webhook" heading="Webhook">
      {view.webhook === null ? (
        <p>No webhook set.</p>
      ) : (
        <>
          <p>{`Alerts go to ${view.webhook.url}, set ${view.webhook.setAt}.`}</p>
          {view.webhook.deliveries.length > 0 ? (
            <table data-owner-deliveries>
              <TableHead
                columns={[
                  { label: 'when' },
                  { label: 'event' },
                  { label: 'try', numeric: true },
                  { label: 'outcome' },
                  { label: 'answer' },
                ]}
              />
              <tbody>
                {view.webhook.deliveries.map((delivery) => (
                  <tr>
                    <td>{delivery.at}</td>
                    <td>{delivery.event}</td>
                    <td class="num">{delivery.attempt}</td>
                    <td>{delivery.outcome}</td>
                    <td>{delivery.status ?? delivery.reason ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>Nothing sent yet.</p>
          )}
        </>
      )}
    </Section>
    <Section id="owner-score" heading="Quality score">
      <p data-owner-score>
        {view.score === null
          ? 'Not scored yet.'
          : `${view.score.grade || 'no grade'} (${view.score.compositeScore ?? '–'}), scored ${view.scoredDay}, ${view.score_age_days} days old.`}
      </p>
      <p class="small">{plural(view.scoreHistory.length, 'scored day')} in the history.</p>
    </Section>
  </>
);

/** Mounts GET and POST /owner on `app`. */
export function mountOwnerPages(app: Hono, deps: OwnerPageDeps): void {
  const page = async (status: 200 | 400 | 401, title: string, content: Child) =>
    new Response(
      await renderDocument(
        <Layout
          title={title}
          description="What the service knows about a server, for its verified owner."
          methodologyVersion={deps.methodologyVersion}
          appVersion={deps.appVersion}
        >
          {content}
        </Layout>,
      ),
      {
        status,
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': PAGE_CSP,
          'X-Content-Type-Options': 'nosniff',
          // Not no-referrer: under it a browser sends `Origin: null` with the form, which the Origin check refuses.
          'Referrer-Policy': 'same-origin',
          // An owner's view is theirs alone: no cache keeps it.
          'Cache-Control': 'no-store',
        },
      },
    );

  app.get(OWNER_PAGE_PATH, () => page(200, 'Owner view', <OwnerForm server="" refused={false} />));

  app.post(OWNER_PAGE_PATH, async (c: Context) => {
    const form = await c.req.parseBody().catch(() => null);
    const server = typeof form?.server === 'string' ? form.server.trim() : '';
    const token = typeof form?.token === 'string' ? form.token.trim() : '';
    if (form === null || server === '' || token === '')
      return page(
        400,
        'Owner view',
        <ErrorPage heading="Give a server id and its access token" message="Both fields are needed." />,
      );
    const view = deps.getView();
    const record = await authorizeOwner(deps.storage, view, server, token);
    if (record === null) return page(401, 'Owner view', <OwnerForm server={server.slice(0, 100)} refused={true} />);
    const owned = await ownerViewOf({
      storage: deps.storage,
      view,
      record,
      changes: await deps.changes.changesOf(record.server, view.day),
      now: deps.now(),
    });
    return page(200, `${owned.title ?? owned.server}: owner view`, <OwnerViewPage view={owned} />);
  });
}
