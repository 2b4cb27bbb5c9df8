// The methodology page (`/methodology`): docs/methodology.md rendered, with the version the service applies.
import { raw } from 'hono/html';
import type { FC } from 'hono/jsx';
import type { MethodologyDoc } from './methodology-doc.js';

/** The methodology page's content. */
export const MethodologyPage: FC<{ doc: MethodologyDoc; serviceVersion: string }> = ({ doc, serviceVersion }) => (
  <>
    <p class="note" data-methodology-version={serviceVersion}>
      This service applies methodology version <strong>{serviceVersion}</strong>.
      {doc.version !== null && doc.version !== serviceVersion ? ` The text below states version ${doc.version}.` : ''}
    </p>
    {/* Raw: the HTML comes from our own doc through marked, with any raw HTML in it escaped (see methodology-doc.ts). */}
    <article>{raw(doc.html)}</article>
  </>
);
