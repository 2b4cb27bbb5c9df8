// Pins the public names of @mcp-atlas/discovery: a name added to or dropped from an entry fails here, so every
// change to the semver promise is a deliberate one. Pure modules under test.
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as rules from '../src/rules.js';

describe('the entries', () => {
  it('the root exports the merge, its counts, the URL normalizer and the error class, and no rule constant', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DiscoveryInputError',
      'lastListedDays',
      'listingSources',
      'mergeCatalog',
      'normalizeGithubUrl',
      'summarizeCatalog',
    ]);
  });

  it('the rules subpath exports one frozen group with the methodology lists', () => {
    expect(Object.keys(rules)).toEqual(['DISCOVERY_RULES']);
    expect(Object.isFrozen(rules.DISCOVERY_RULES)).toBe(true);
    expect(rules.DISCOVERY_RULES.sources).toEqual([
      'official-registry',
      'glama',
      'pulsemcp',
      'smithery',
      'docker-hub',
      'best-of-mcp-servers',
      'awesome-mcp-servers',
      'github-topics',
    ]);
    expect(rules.DISCOVERY_RULES.externalLinkKinds).toEqual([
      'glama',
      'smithery',
      'pulsemcp',
      'docker-hub',
      'npm',
      'pypi',
    ]);
    expect(rules.DISCOVERY_RULES.registryKeyPrefix).toBe('registry:');
  });
});
