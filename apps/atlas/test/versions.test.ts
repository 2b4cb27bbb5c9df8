import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APP_VERSION, METHODOLOGY_VERSION } from '../src/methodology.js';

describe('published versions', () => {
  it('the methodology version is the one the contents page of docs/methodology/ states', () => {
    const doc = readFileSync(new URL('../../../docs/methodology/README.md', import.meta.url), 'utf8');
    expect(/Methodology version: \*\*([^*]+)\*\*/.exec(doc)?.[1]).toBe(METHODOLOGY_VERSION);
  });
  it('the app version is the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
  });
});
