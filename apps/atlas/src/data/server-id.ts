// The id a registry entry is stored and served under.
import { createHash } from 'node:crypto';

/**
 * A path- and URL-safe id for a registry name: the name lower-cased with runs of other characters turned
 * into dashes, plus a short hash of the exact name so two names that slug alike stay apart.
 */
export function serverIdFor(name: string): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'server';
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${slug}-${hash}`;
}
