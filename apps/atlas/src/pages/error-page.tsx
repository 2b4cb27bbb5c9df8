// The page shown for a path or server that does not exist, a query that cannot be answered, or a part of the
// service that is not available; the HTTP status says which.
import type { FC } from 'hono/jsx';

/** An error page's content: what went wrong, in one heading and one sentence, and where to go instead. */
export const ErrorPage: FC<{ heading: string; message: string }> = ({ heading, message }) => (
  <>
    <h1>{heading}</h1>
    <p data-error>{message}</p>
    <p>
      Go to the <a href="/">state page</a>, the <a href="/servers">list of servers</a> or the{' '}
      <a href="/search">tool search</a>.
    </p>
  </>
);
