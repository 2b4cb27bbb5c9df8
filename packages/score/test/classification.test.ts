import { describe, expect, it } from 'vitest';
import {
  CLASSIFICATION_FIELD_WEIGHTS,
  classifyServer,
  publisherOf,
  SERVER_CATEGORIES,
  TARGET_PLATFORMS,
  VERIFIED_PUBLISHERS,
} from '../src/classification.js';
import type { ScoreServer } from '../src/types.js';
import { CLASSIFICATION_VECTORS } from './fixtures/engine-signal-vectors.js';

function serverWith(overrides: Partial<ScoreServer> = {}): ScoreServer {
  return {
    name: '',
    description: '',
    repoUrl: '',
    registryId: '',
    remoteEndpointUrl: '',
    isRemote: true,
    hasSandboxProbe: false,
    registryMetadata: {},
    npmUrl: '',
    pypiUrl: '',
    dockerhubUrl: '',
    lastCommitAt: null,
    ...overrides,
  };
}

/** One keyword per category, the first in the engine's table, placed in the name. */
const ONE_KEYWORD_PER_CATEGORY: Array<[string, string, string]> = [
  ['openai', 'ai_ml', 'OpenAI'],
  ['postgres', 'database', 'PostgreSQL'],
  ['gitlab', 'devtools', 'GitLab'],
  ['azure', 'cloud', 'Azure'],
  ['discord', 'communication', 'Discord'],
  ['obsidian', 'productivity', 'Obsidian'],
  ['tavily', 'search', 'Tavily'],
  ['grafana', 'monitoring', 'Grafana'],
  ['snowflake', 'data', 'Snowflake'],
  ['plaid', 'finance', 'Plaid'],
  ['spotify', 'media', 'Spotify'],
  ['shopify', 'ecommerce', 'Shopify'],
  ['selenium', 'browser', 'Selenium'],
];

describe('classification tables', () => {
  it('has 14 categories: the 13 keywords vote for and other', () => {
    expect(SERVER_CATEGORIES).toHaveLength(14);
    const voted = new Set(TARGET_PLATFORMS.map(([, , category]) => category));
    expect(voted.size).toBe(13);
    expect([...voted, 'other']).toEqual([...SERVER_CATEGORIES]);
  });

  it('keeps the 106 keywords of the engine, each once', () => {
    expect(TARGET_PLATFORMS).toHaveLength(106);
    expect(new Set(TARGET_PLATFORMS.map(([keyword]) => keyword)).size).toBe(106);
  });

  it('weighs the name 3, the registry and repository names 2, the description 1', () => {
    expect(CLASSIFICATION_FIELD_WEIGHTS).toEqual({ name: 3, description: 1, registryName: 2, repoName: 2 });
  });
});

describe('classifyServer', () => {
  for (const [keyword, category, platform] of ONE_KEYWORD_PER_CATEGORY) {
    it(`puts "${keyword} tools" in ${category}`, () => {
      expect(classifyServer(serverWith({ name: `${keyword} tools` }))).toEqual({ category, targets: [platform] });
    });
  }

  it('gives other and no targets when no keyword is found', () => {
    expect(classifyServer(serverWith({ name: 'calculator', description: 'Adds numbers' }))).toEqual({
      category: 'other',
      targets: [],
    });
  });

  it('lets the heavier field win: a name keyword (3) beats two description keywords (1 + 1)', () => {
    const server = serverWith({ name: 'stripe bridge', description: 'uses slack and discord' });
    expect(classifyServer(server)).toEqual({ category: 'finance', targets: ['Discord', 'Slack', 'Stripe'] });
  });

  it('counts a keyword once, in the first field it is found in', () => {
    // slack in the name (3) and the description: 3 votes, not 4; redis (2) and sqlite (2) in the repository name: 4.
    const server = serverWith({
      name: 'slack',
      description: 'slack',
      repoUrl: 'https://github.com/acme/redis-sqlite',
    });
    expect(classifyServer(server).category).toBe('database');
  });

  it('breaks a tie in favour of the category voted for first in the table order', () => {
    // redis (database) comes before slack (communication) in the table, whatever the text order.
    expect(classifyServer(serverWith({ description: 'slack then redis' })).category).toBe('database');
  });

  it('matches keywords as substrings, as the engine does', () => {
    expect(classifyServer(serverWith({ name: 'example' }))).toEqual({ category: 'search', targets: ['Exa'] });
    expect(classifyServer(serverWith({ name: 'flaws' }))).toEqual({ category: 'cloud', targets: ['AWS'] });
  });

  it('matches a dotless ı or a long ſ between separators, as Python case folding does', () => {
    expect(classifyServer(serverWith({ name: 'a gıthub b' })).targets).toEqual(['GitHub']);
    expect(classifyServer(serverWith({ name: 'ſlack' })).targets).toEqual(['Slack']);
    // Not between separators: no match.
    expect(classifyServer(serverWith({ name: 'xgıthub' })).targets).toEqual([]);
  });

  it('reads the registry name and the repository name from their last segment', () => {
    expect(classifyServer(serverWith({ registryId: 'io.github.redis/tool' })).targets).toEqual([]);
    expect(classifyServer(serverWith({ registryId: 'io.github.acme/redis' })).targets).toEqual(['Redis']);
    expect(classifyServer(serverWith({ repoUrl: 'https://github.com/redis/tool/' })).targets).toEqual([]);
    expect(classifyServer(serverWith({ repoUrl: 'https://github.com/acme/Redis//' })).targets).toEqual(['Redis']);
  });

  for (const vector of CLASSIFICATION_VECTORS) {
    const { verifiedOrgs, ...fields } = vector.server;
    it(`engine 0.9.0 vector: ${fields.name} ${fields.registryId} ${fields.repoUrl}`, () => {
      const server = serverWith(fields);
      expect(classifyServer(server)).toEqual({ category: vector.category, targets: vector.targets });
      expect(publisherOf(server, verifiedOrgs)).toEqual({
        publisher: vector.publisher,
        verifiedPublisher: vector.verifiedPublisher,
      });
    });
  }
});

describe('publisherOf', () => {
  it('takes the registry scope first, then the GitHub organisation, then the name prefix', () => {
    const all = serverWith({ registryId: '@scope/x', repoUrl: 'https://github.com/org/x', name: 'prefix/x' });
    expect(publisherOf(all).publisher).toBe('scope');
    expect(publisherOf({ ...all, registryId: 'io.github.scope/x' }).publisher).toBe('org');
    expect(publisherOf({ ...all, registryId: '', repoUrl: 'https://gitlab.com/org/x' }).publisher).toBe('prefix');
    expect(publisherOf({ ...all, registryId: '', repoUrl: '', name: 'plain' }).publisher).toBe('');
  });

  it('verifies against the built-in list by default, in lower case', () => {
    expect(VERIFIED_PUBLISHERS).toHaveLength(21);
    expect(publisherOf(serverWith({ repoUrl: 'https://github.com/Cloudflare/mcp' }))).toEqual({
      publisher: 'Cloudflare',
      verifiedPublisher: true,
    });
    expect(publisherOf(serverWith({ repoUrl: 'https://github.com/cloudflare-fan/mcp' })).verifiedPublisher).toBe(false);
  });

  it('uses the caller list instead of the built-in one', () => {
    const server = serverWith({ repoUrl: 'https://github.com/acme/x' });
    expect(publisherOf(server, ['acme']).verifiedPublisher).toBe(true);
    expect(publisherOf(serverWith({ repoUrl: 'https://github.com/stripe/x' }), ['acme']).verifiedPublisher).toBe(false);
    expect(publisherOf(serverWith({ repoUrl: 'https://github.com/stripe/x' }), []).verifiedPublisher).toBe(false);
  });

  it('verifies by the repository when the registry scope is not on the list', () => {
    const server = serverWith({ registryId: '@acme/x', repoUrl: 'https://github.com/stripe/x' });
    expect(publisherOf(server)).toEqual({ publisher: 'acme', verifiedPublisher: true });
  });
});
