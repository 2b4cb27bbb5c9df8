// Server classification of the open engine (0.9.0): a category (one of 14) and the target platforms a server works
// with, from keywords in its name, description, registry name and repository name; and its publisher, from the
// registry namespace, the GitHub organisation or the name. Pure and synchronous.

import { PY_WHITESPACE_CLASS } from './python-text.js';
import type { ScoreServer } from './types.js';

/** The 14 server categories: 13 that keywords vote for, and 'other' when no keyword is found. */
export const SERVER_CATEGORIES = Object.freeze([
  'ai_ml',
  'database',
  'devtools',
  'cloud',
  'communication',
  'productivity',
  'search',
  'monitoring',
  'data',
  'finance',
  'media',
  'ecommerce',
  'browser',
  'other',
] as const);

/** A server category. */
export type ServerCategory = (typeof SERVER_CATEGORIES)[number];

/** One keyword of the platform table: the keyword, the platform it names, and the category it votes for. */
export type TargetPlatformEntry = readonly [keyword: string, platform: string, category: ServerCategory];

/**
 * The engine's keyword table (106 keywords, 13 categories), in its order, which breaks ties between categories
 * with equal votes. Several keywords name one platform (gpt, chatgpt and openai are all OpenAI).
 */
export const TARGET_PLATFORMS: readonly TargetPlatformEntry[] = Object.freeze([
  ['openai', 'OpenAI', 'ai_ml'],
  ['gpt', 'OpenAI', 'ai_ml'],
  ['chatgpt', 'OpenAI', 'ai_ml'],
  ['anthropic', 'Anthropic', 'ai_ml'],
  ['claude', 'Anthropic', 'ai_ml'],
  ['huggingface', 'Hugging Face', 'ai_ml'],
  ['hugging-face', 'Hugging Face', 'ai_ml'],
  ['ollama', 'Ollama', 'ai_ml'],
  ['langchain', 'LangChain', 'ai_ml'],
  ['cohere', 'Cohere', 'ai_ml'],
  ['replicate', 'Replicate', 'ai_ml'],
  ['stable-diffusion', 'Stable Diffusion', 'ai_ml'],
  ['midjourney', 'Midjourney', 'ai_ml'],
  ['vertex-ai', 'Google Vertex AI', 'ai_ml'],
  ['bedrock', 'AWS Bedrock', 'ai_ml'],
  ['gemini', 'Google Gemini', 'ai_ml'],
  ['postgres', 'PostgreSQL', 'database'],
  ['postgresql', 'PostgreSQL', 'database'],
  ['mysql', 'MySQL', 'database'],
  ['mongodb', 'MongoDB', 'database'],
  ['redis', 'Redis', 'database'],
  ['sqlite', 'SQLite', 'database'],
  ['supabase', 'Supabase', 'database'],
  ['firebase', 'Firebase', 'database'],
  ['dynamodb', 'DynamoDB', 'database'],
  ['elasticsearch', 'Elasticsearch', 'database'],
  ['pinecone', 'Pinecone', 'database'],
  ['qdrant', 'Qdrant', 'database'],
  ['chromadb', 'ChromaDB', 'database'],
  ['weaviate', 'Weaviate', 'database'],
  ['neon', 'Neon', 'database'],
  ['turso', 'Turso', 'database'],
  ['github', 'GitHub', 'devtools'],
  ['gitlab', 'GitLab', 'devtools'],
  ['bitbucket', 'Bitbucket', 'devtools'],
  ['docker', 'Docker', 'devtools'],
  ['kubernetes', 'Kubernetes', 'devtools'],
  ['terraform', 'Terraform', 'devtools'],
  ['npm', 'npm', 'devtools'],
  ['jira', 'Jira', 'devtools'],
  ['linear', 'Linear', 'devtools'],
  ['sentry', 'Sentry', 'devtools'],
  ['jest', 'Jest', 'devtools'],
  ['eslint', 'ESLint', 'devtools'],
  ['prettier', 'Prettier', 'devtools'],
  ['aws', 'AWS', 'cloud'],
  ['gcp', 'Google Cloud', 'cloud'],
  ['azure', 'Azure', 'cloud'],
  ['cloudflare', 'Cloudflare', 'cloud'],
  ['vercel', 'Vercel', 'cloud'],
  ['netlify', 'Netlify', 'cloud'],
  ['heroku', 'Heroku', 'cloud'],
  ['digitalocean', 'DigitalOcean', 'cloud'],
  ['fly.io', 'Fly.io', 'cloud'],
  ['railway', 'Railway', 'cloud'],
  ['slack', 'Slack', 'communication'],
  ['discord', 'Discord', 'communication'],
  ['telegram', 'Telegram', 'communication'],
  ['email', 'Email', 'communication'],
  ['twilio', 'Twilio', 'communication'],
  ['sendgrid', 'SendGrid', 'communication'],
  ['whatsapp', 'WhatsApp', 'communication'],
  ['notion', 'Notion', 'productivity'],
  ['obsidian', 'Obsidian', 'productivity'],
  ['google-docs', 'Google Docs', 'productivity'],
  ['google-drive', 'Google Drive', 'productivity'],
  ['google-sheets', 'Google Sheets', 'productivity'],
  ['airtable', 'Airtable', 'productivity'],
  ['todoist', 'Todoist', 'productivity'],
  ['trello', 'Trello', 'productivity'],
  ['asana', 'Asana', 'productivity'],
  ['calendar', 'Calendar', 'productivity'],
  ['brave-search', 'Brave Search', 'search'],
  ['google-search', 'Google Search', 'search'],
  ['tavily', 'Tavily', 'search'],
  ['exa', 'Exa', 'search'],
  ['perplexity', 'Perplexity', 'search'],
  ['wikipedia', 'Wikipedia', 'search'],
  ['arxiv', 'arXiv', 'search'],
  ['datadog', 'Datadog', 'monitoring'],
  ['grafana', 'Grafana', 'monitoring'],
  ['prometheus', 'Prometheus', 'monitoring'],
  ['pagerduty', 'PagerDuty', 'monitoring'],
  ['newrelic', 'New Relic', 'monitoring'],
  ['snowflake', 'Snowflake', 'data'],
  ['bigquery', 'BigQuery', 'data'],
  ['dbt', 'dbt', 'data'],
  ['pandas', 'pandas', 'data'],
  ['jupyter', 'Jupyter', 'data'],
  ['stripe', 'Stripe', 'finance'],
  ['plaid', 'Plaid', 'finance'],
  ['coinbase', 'Coinbase', 'finance'],
  ['youtube', 'YouTube', 'media'],
  ['spotify', 'Spotify', 'media'],
  ['figma', 'Figma', 'media'],
  ['canva', 'Canva', 'media'],
  ['shopify', 'Shopify', 'ecommerce'],
  ['woocommerce', 'WooCommerce', 'ecommerce'],
  ['puppeteer', 'Puppeteer', 'browser'],
  ['playwright', 'Playwright', 'browser'],
  ['selenium', 'Selenium', 'browser'],
  ['browserbase', 'Browserbase', 'browser'],
  ['fetch', 'Web Fetch', 'browser'],
  ['scraper', 'Web Scraper', 'browser'],
  ['scraping', 'Web Scraping', 'browser'],
  ['crawl', 'Web Crawler', 'browser'],
] as TargetPlatformEntry[]);

/**
 * Votes a keyword gives its category, by the field it is first found in (fields are tried in this order): the
 * name 3, the description 1, the registry name (the registry id's last segment) 2, the repository name 2.
 */
export const CLASSIFICATION_FIELD_WEIGHTS = Object.freeze({
  name: 3,
  description: 1,
  registryName: 2,
  repoName: 2,
});

/**
 * The engine's built-in verified publishers (GitHub organisations and npm scopes, in lower case), used when the
 * caller gives no list of its own.
 */
export const VERIFIED_PUBLISHERS: readonly string[] = Object.freeze([
  'modelcontextprotocol',
  'anthropics',
  'anthropic',
  'openai',
  'microsoft',
  'google',
  'aws',
  'cloudflare',
  'stripe',
  'supabase',
  'vercel',
  'github',
  'gitlab',
  'docker',
  'hashicorp',
  'datadog',
  'sentry-io',
  'grafana',
  'elastic',
  'mongodb',
  'redis',
]);

function escapeRegExp(text: string): string {
  // '-' stays as it is: outside a class the 'u' flag refuses an escaped '-'.
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The engine tests each keyword as a substring, then as a word between separators with IGNORECASE. The second
 * test only adds matches where Python's case folding differs from a plain lower-case comparison: a dotless ı or
 * a long ſ in the text. Spelled out here so the same texts match.
 */
function keywordPattern(keyword: string): RegExp {
  const body = [...keyword].map((char) => (char === 'i' ? '[iıİ]' : escapeRegExp(char))).join('');
  const ws = PY_WHITESPACE_CLASS.slice(1, -1);
  return new RegExp(`(?:^|[${ws}\\-_/])(${body})(?:[${ws}\\-_/.]|$)`, 'iu');
}

const KEYWORD_PATTERNS: ReadonlyMap<string, RegExp> = new Map(
  TARGET_PLATFORMS.map(([keyword]) => [keyword, keywordPattern(keyword)]),
);

function lastSegment(text: string): string {
  return text.slice(text.lastIndexOf('/') + 1);
}

/** Text outside ASCII, the only text where the word pattern can find what the substring test missed. */
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The four texts searched, lower-cased, with their weights, in the engine's order, and whether the text has
 * characters outside ASCII (only then is the slower word pattern worth trying).
 */
function searchFields(server: ScoreServer): Array<readonly [string, number, boolean]> {
  const registryId = typeof server.registryId === 'string' ? server.registryId : '';
  const repoUrl = typeof server.repoUrl === 'string' ? server.repoUrl : '';
  const registryName = registryId.includes('/') ? lastSegment(registryId).toLowerCase() : '';
  const repoName = repoUrl.includes('/') ? lastSegment(repoUrl.toLowerCase().replace(/\/+$/, '')) : '';
  const texts: Array<readonly [string, number]> = [
    [(typeof server.name === 'string' ? server.name : '').toLowerCase(), CLASSIFICATION_FIELD_WEIGHTS.name],
    [
      (typeof server.description === 'string' ? server.description : '').toLowerCase(),
      CLASSIFICATION_FIELD_WEIGHTS.description,
    ],
    [registryName, CLASSIFICATION_FIELD_WEIGHTS.registryName],
    [repoName, CLASSIFICATION_FIELD_WEIGHTS.repoName],
  ];
  return texts.map(([text, weight]) => [text, weight, NON_ASCII.test(text)] as const);
}

/**
 * Classifies a server: every keyword of TARGET_PLATFORMS found in its name, description, registry name or
 * repository name adds its platform to `targets` and votes for its category with the weight of the first field
 * it is found in. The category with most votes wins (ties go to the category voted for first); with no keyword
 * the category is 'other'. `targets` is sorted.
 *
 * @example
 * classifyServer({ ...server, name: 'postgres-mcp', description: 'Query your database', registryId: '', repoUrl: '' })
 * // { category: 'database', targets: ['PostgreSQL'] }
 */
export function classifyServer(server: ScoreServer): { category: ServerCategory; targets: string[] } {
  const fields = searchFields(server);
  const targets = new Set<string>();
  const votes = new Map<ServerCategory, number>();
  for (const [keyword, platform, category] of TARGET_PLATFORMS) {
    const pattern = KEYWORD_PATTERNS.get(keyword) as RegExp;
    for (const [text, weight, foldable] of fields) {
      if (!text) continue;
      if (text.includes(keyword) || (foldable && pattern.test(text))) {
        targets.add(platform);
        votes.set(category, (votes.get(category) ?? 0) + weight);
        break;
      }
    }
  }
  let best: ServerCategory = 'other';
  let bestVotes = Number.NEGATIVE_INFINITY;
  for (const [category, count] of votes) {
    if (count > bestVotes) {
      best = category;
      bestVotes = count;
    }
  }
  return { category: best, targets: [...targets].sort() };
}

const GITHUB_MARKER = 'github.com/';

/** The npm-style scope of a registry id that starts with '@' ('@acme/tool' gives 'acme'), else null. */
function registryScope(registryId: string): string | null {
  if (!registryId.startsWith('@')) return null;
  return (registryId.split('/')[0] ?? '').replace(/^@+/, '');
}

/** The GitHub organisation of a repository URL, else null. */
function githubOrg(repoUrl: string): string | null {
  if (!repoUrl.includes(GITHUB_MARKER)) return null;
  const parts = repoUrl.replace(/\/+$/, '').split(GITHUB_MARKER);
  return parts.length > 1 ? ((parts[1] ?? '').split('/')[0] ?? '') : null;
}

/**
 * A server's publisher and whether it is a verified one. The publisher is the registry id's scope when the id
 * starts with '@', else the GitHub organisation of the repository URL, else the part of the name before the
 * first '/', else ''. Verified: the scope or the organisation, in lower case, is in `verifiedOrgs` (default
 * VERIFIED_PUBLISHERS). The list is compared as given, so write it in lower case.
 *
 * @example publisherOf({ ...server, registryId: '', repoUrl: 'https://github.com/Stripe/agent-toolkit' })
 * // { publisher: 'Stripe', verifiedPublisher: true }
 */
export function publisherOf(
  server: ScoreServer,
  verifiedOrgs?: readonly string[],
): { publisher: string; verifiedPublisher: boolean } {
  const orgs = new Set(verifiedOrgs ?? VERIFIED_PUBLISHERS);
  const registryId = typeof server.registryId === 'string' ? server.registryId : '';
  const repoUrl = typeof server.repoUrl === 'string' ? server.repoUrl : '';
  const name = typeof server.name === 'string' ? server.name : '';
  const scope = registryScope(registryId);
  const org = githubOrg(repoUrl);

  const verifiedPublisher =
    (scope !== null && orgs.has(scope.toLowerCase())) || (org !== null && orgs.has(org.toLowerCase()));

  let publisher = '';
  if (scope !== null) publisher = scope;
  else if (org !== null) publisher = org;
  else if (name.includes('/')) publisher = name.split('/')[0] ?? '';
  return { publisher, verifiedPublisher };
}
