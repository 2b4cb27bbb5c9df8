// The "In observation" section of the server list and the state page: submitted servers still in their
// observation window, with their progress so far. They are not on the map yet, so they are listed apart from
// the servers, never mixed into the counts or the table above.
import type { FC } from 'hono/jsx';
import { SUBMISSION_OBSERVATION_TEXT } from '../http/rule-text.js';
import type { ObservingSubmission } from '../submissions/observing.js';
import { formatInstant, plural } from './format.js';
import { TableHead } from './parts.js';

/**
 * A share in percent as the admission rule reads it (already truncated to one decimal by the package), or
 * "no check yet". Not rounded again here, so a share just under a threshold never reads as the threshold.
 */
export function describeAnsweredShare(
  entry: Pick<ObservingSubmission, 'answered' | 'checks' | 'answeredPercent'>,
): string {
  if (entry.answeredPercent === null) return 'no check yet';
  return `${entry.answered} of ${plural(entry.checks, 'check')} (${entry.answeredPercent.toFixed(1)}%)`;
}

/** The window's end, and whether it is the one extra window. */
function describeWindowEnd(entry: ObservingSubmission): string {
  return entry.window.index > 0 ? `${formatInstant(entry.window.end)} (extra window)` : formatInstant(entry.window.end);
}

/** The "In observation" section; renders nothing when no submitted server is in observation. */
export const ObservingSection: FC<{ observing: readonly ObservingSubmission[] }> = ({ observing }) => {
  if (observing.length === 0) return null;
  return (
    <section aria-labelledby="observing-heading" data-observing>
      <h2 id="observing-heading">In observation</h2>
      <p>
        {plural(observing.length, 'submitted server')} {observing.length === 1 ? 'is' : 'are'}{' '}
        {SUBMISSION_OBSERVATION_TEXT} before {observing.length === 1 ? 'it' : 'they'} may join the map; until then{' '}
        {observing.length === 1 ? 'it is' : 'they are'} not in the list, search or route. See the{' '}
        <a href="/methodology/operations#submitted-servers">methodology</a> for the rule that decides.
      </p>
      <div class="scroll">
        <table>
          <TableHead
            columns={[
              { label: 'server' },
              { label: 'submitted' },
              { label: 'answered with tools so far' },
              { label: 'window ends' },
            ]}
          />
          <tbody>
            {observing.map((entry) => (
              <tr data-submission={entry.id}>
                <td>
                  <a href={`/api/submissions/${entry.id}`}>{entry.name ?? new URL(entry.url).host}</a>
                  <br />
                  <code class="small">{entry.url}</code>
                </td>
                <td>
                  <time datetime={entry.submittedAt}>{formatInstant(entry.submittedAt)}</time>
                </td>
                <td>{describeAnsweredShare(entry)}</td>
                <td>
                  <time datetime={entry.window.end}>{describeWindowEnd(entry)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
};
