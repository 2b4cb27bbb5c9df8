// The methodology pages: the contents (`/methodology`) and one page per area (`/methodology/<area>`), each a file
// of docs/methodology/ rendered, with the version the service applies.
import { raw } from 'hono/html';
import type { FC } from 'hono/jsx';
import type { MethodologyDoc } from './methodology-doc.js';

/**
 * One methodology page's content. An area's page links back to the contents, which holds the version line and the
 * list of areas; the contents page says when the text states another version than the service applies.
 */
export const MethodologyPage: FC<{ doc: MethodologyDoc; serviceVersion: string; isArea?: boolean }> = ({
  doc,
  serviceVersion,
  isArea = false,
}) => (
  <>
    <p class="note" data-methodology-version={serviceVersion}>
      This service applies methodology version <strong>{serviceVersion}</strong>.
      {doc.version !== null && doc.version !== serviceVersion ? ` The text below states version ${doc.version}.` : ''}
      {isArea ? (
        <>
          {' '}
          <a href="/methodology">All areas of the methodology</a>.
        </>
      ) : (
        ''
      )}
    </p>
    {/* Raw: the HTML comes from our own text through marked, with any raw HTML in it escaped (see methodology-doc.ts). */}
    <article>{raw(doc.html)}</article>
  </>
);
