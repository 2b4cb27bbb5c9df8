// Pure module: every number, word list and formula constant of @mcp-atlas/route, in one place. They are
// data: a change to any of them changes rankings or grades, so it bumps ROUTE_RULES_VERSION and gets a line
// in docs/methodology/route-and-search.md.

/** Methodology version of the search, route and evaluation rules; recorded with every result. */
export const ROUTE_RULES_VERSION = '1.2.0';

// ---------------------------------------------------------------------------------------------------------
// Text: tokens, stop words, stemming
// ---------------------------------------------------------------------------------------------------------

/** Tokens shorter than this are dropped from the search index and from queries (the judge keeps them). */
export const MIN_TOKEN_LENGTH = 2;

/** A query keeps at most this many distinct terms (in the order written); the rest are ignored. */
export const MAX_QUERY_TERMS = 24;

/**
 * Words too common to tell tools apart. Dropped from the search index and from queries, never from the
 * evaluation judge, which matches words literally.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'nor',
  'of',
  'to',
  'in',
  'on',
  'at',
  'by',
  'for',
  'from',
  'with',
  'without',
  'into',
  'onto',
  'over',
  'under',
  'about',
  'as',
  'via',
  'per',
  'than',
  'then',
  'so',
  'if',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'am',
  'do',
  'does',
  'did',
  'done',
  'has',
  'have',
  'had',
  'can',
  'could',
  'will',
  'would',
  'should',
  'shall',
  'may',
  'might',
  'must',
  'i',
  'me',
  'my',
  'mine',
  'we',
  'us',
  'our',
  'you',
  'your',
  'yours',
  'he',
  'him',
  'his',
  'she',
  'her',
  'it',
  'its',
  'they',
  'them',
  'their',
  'this',
  'that',
  'these',
  'those',
  'there',
  'here',
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'why',
  'how',
  'some',
  'any',
  'each',
  'every',
  'such',
  'other',
  'another',
  'own',
  'same',
  'also',
  'just',
  'only',
  'very',
  'not',
  'no',
  'yes',
  'please',
  'using',
  'use',
  'e',
  'g',
  'eg',
  'ie',
  'etc',
]);

/**
 * Words left as they are by the light stemmer: stripping a suffix would merge them with an unrelated word
 * (news and new) or cut a word that only looks inflected (status, series).
 */
export const STEM_EXCEPTIONS: ReadonlySet<string> = new Set([
  'news',
  'status',
  'series',
  'analysis',
  'always',
  'access',
  'address',
  'alias',
  'canvas',
  'chaos',
  'corpus',
  'kubernetes',
  'species',
  'embed',
  'embedded',
  'need',
  'speed',
  'seed',
  'feed',
  'red',
  'shed',
  'bed',
  'during',
  'string',
  'thing',
  'nothing',
  'something',
  'everything',
  'anything',
  'ring',
  'king',
  'sing',
  'bring',
  'ping',
  'spring',
  'wing',
  'swing',
]);

/** A stem keeps at least this many letters; a suffix whose removal would leave fewer stays. */
export const MIN_STEM_LENGTH = 3;

/**
 * Consonants that are undoubled after `-ing` or `-ed` is removed (running to run, stopped to stop).
 * Left out on purpose: l, s and z (call, pass, buzz) and d (add), which keep their double letter.
 */
export const UNDOUBLE_CONSONANTS: ReadonlySet<string> = new Set(['b', 'g', 'm', 'n', 'p', 't', 'r']);

// ---------------------------------------------------------------------------------------------------------
// Search: BM25F text match
// ---------------------------------------------------------------------------------------------------------

/** A term in the tool name counts this many times a term in the description (the seed's "counted double"). */
export const NAME_FIELD_WEIGHT = 2;

/**
 * A term in the server's name counts this much. Servers name what their tools work on (Gmail, Postgres)
 * when the tool text does not repeat it; half a description term keeps it a hint, not a match on its own.
 */
export const SERVER_FIELD_WEIGHT = 0.5;

/**
 * A description term after the first sentence counts this much of one in the first sentence (and the title).
 * Tool lists mostly open with what the tool does and go on with parameters, examples and caveats, where the
 * words of other tasks turn up ("use search_files to find the path first").
 */
export const DESCRIPTION_REST_WEIGHT = 0.5;

/** BM25 term-frequency saturation: how quickly repeats of a term stop adding to the score. */
export const BM25_K1 = 1.2;

/** BM25 length normalization of the description: 0 ignores length, 1 divides fully by relative length. */
export const BM25_B = 0.75;

/**
 * Weight of a term added by synonym expansion, relative to a term the query wrote. Low enough that a tool
 * using the query's own word still ranks above one that only uses a synonym.
 */
export const SYNONYM_WEIGHT = 0.4;

/**
 * Exponent of the coverage factor (share of the query's known terms a tool matches, a synonym counting for
 * the word it expands). 1 multiplies the text score by the plain share, as classic coordination does.
 */
export const COVERAGE_EXPONENT = 1;

/**
 * Synonyms and spellings used to widen a query. Keys and values are written plainly and stemmed when used;
 * expansion goes one way (key to values) and one step deep, so the table stays predictable.
 */
export const QUERY_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  email: ['mail', 'gmail', 'inbox'],
  mail: ['email'],
  inbox: ['email', 'mail'],
  db: ['database'],
  database: ['db', 'sql'],
  postgres: ['postgresql'],
  postgresql: ['postgres'],
  mongo: ['mongodb'],
  repo: ['repository'],
  repository: ['repo'],
  k8s: ['kubernetes'],
  kubernetes: ['k8s'],
  doc: ['document'],
  docs: ['documentation'],
  document: ['doc', 'page'],
  documentation: ['docs'],
  img: ['image'],
  image: ['picture', 'photo'],
  picture: ['image', 'photo'],
  photo: ['image', 'picture'],
  msg: ['message'],
  dm: ['message'],
  message: ['chat'],
  vm: ['instance'],
  ticket: ['issue'],
  issue: ['ticket'],
  bug: ['issue'],
  todo: ['task'],
  directory: ['folder'],
  folder: ['directory'],
  meeting: ['event', 'calendar'],
  appointment: ['event', 'calendar'],
  find: ['search'],
  lookup: ['search', 'get'],
  look: ['search', 'get'],
  search: ['find', 'query'],
  fetch: ['get'],
  retrieve: ['get'],
  show: ['get', 'list'],
  delete: ['remove'],
  remove: ['delete'],
  create: ['add', 'new'],
  add: ['create'],
  modify: ['update'],
  edit: ['update'],
  change: ['update'],
  stats: ['statistics', 'metrics'],
  statistics: ['stats', 'metrics'],
  coordinates: ['geocode', 'latitude', 'longitude'],
  directions: ['route', 'navigation'],
  error: ['exception'],
  exception: ['error'],
  weather: ['forecast'],
  price: ['quote'],
  scrape: ['crawl', 'extract'],
  crawl: ['scrape'],
  movie: ['film'],
  film: ['movie'],
  speech: ['audio', 'voice'],
  audio: ['speech', 'sound'],
  signin: ['login', 'authentication'],
  login: ['signin', 'authentication'],
  user: ['account'],
  account: ['user'],
};

// ---------------------------------------------------------------------------------------------------------
// Search: synonyms learned from the catalog (learned-synonyms.ts)
// ---------------------------------------------------------------------------------------------------------

/**
 * Weight of a learned synonym, relative to a word the query wrote (and below a hand-written synonym's
 * SYNONYM_WEIGHT): the corpus guesses, a person chose.
 */
export const LEARNED_SYNONYM_WEIGHT = 0.25;

/**
 * How much of a query word a tool covers when it matches the word only through a learned synonym (the
 * coverage factor counts a word the tool uses as 1). Less than 1, because the rare words that get learned
 * synonyms are often the query's most precise ones (a product name), and an associated word is not the word.
 */
export const LEARNED_COVERAGE_SHARE = 0.5;

/** A word must be in at least this many distinct tools to learn or be learned: one tool is not a pattern. */
export const LEARNED_MIN_FREQUENCY = 2;

/**
 * Only words in at most this many distinct tools get learned synonyms: a word many tools use already finds
 * enough of them, and widening it would only add noise.
 */
export const LEARNED_MAX_SOURCE_FREQUENCY = 10;

/** Two words must share at least this many distinct tools before they count as associated. */
export const LEARNED_MIN_COOCCURRENCE = 2;

/**
 * Least normalized PMI (from -1 to 1; 0 is chance) for two words to count as associated. Normalized PMI is
 * used because plain PMI ranks any two rare words that met once above everything else.
 */
export const LEARNED_MIN_ASSOCIATION = 0.3;

/** At most this many learned synonyms per word, the most associated first. */
export const LEARNED_SYNONYMS_PER_TERM = 3;

/**
 * Only the first this many distinct terms of a tool (its name, then the first sentence of its description)
 * are counted, which bounds the work of the count on long first sentences.
 */
export const LEARNED_UNIT_TERM_CAP = 24;

// ---------------------------------------------------------------------------------------------------------
// Risk: task intent and the search's preference for least privilege
// ---------------------------------------------------------------------------------------------------------

/** A task with no known verb is routed as a read task: the least privilege a tool could need. */
export const TASK_RISK_WITHOUT_VERB = 'read';

/**
 * Search's soft preference by tool level, keyed by what the query's verb asks for. A query that only reads
 * ranks read-only tools first without hiding the others; a query without a known verb ranks by text alone.
 */
export const SEARCH_LEVEL_PREFERENCE: Readonly<
  Record<'read' | 'change' | 'high', Readonly<Record<'read-only' | 'changes-data' | 'high-risk', number>>>
> = {
  read: { 'read-only': 1, 'changes-data': 0.35, 'high-risk': 0.2 },
  change: { 'read-only': 1, 'changes-data': 1, 'high-risk': 0.5 },
  high: { 'read-only': 1, 'changes-data': 1, 'high-risk': 1 },
};

/**
 * Action words that stand for the same kind of act, so a tool name using one agrees with a query using
 * another ("add_task" for "create a task"). A word may sit in several families; a query verb agrees with the
 * union of its families. Written plainly, stemmed when used.
 */
export const VERB_FAMILIES: readonly (readonly string[])[] = [
  ['create', 'add', 'new', 'insert', 'make', 'open', 'register', 'generate', 'build', 'compose', 'draft', 'book'],
  ['get', 'read', 'fetch', 'retrieve', 'show', 'view', 'describe', 'inspect', 'see', 'display', 'check', 'lookup'],
  ['list', 'search', 'find', 'query', 'browse', 'lookup', 'filter', 'get', 'show', 'fetch'],
  ['update', 'edit', 'modify', 'set', 'change', 'patch', 'rename', 'move', 'mark', 'complete', 'close', 'resolve'],
  ['delete', 'remove', 'destroy', 'drop', 'purge', 'clear', 'erase', 'archive', 'cancel', 'revoke'],
  ['send', 'post', 'publish', 'share', 'reply', 'forward', 'notify', 'comment'],
  ['run', 'execute', 'exec', 'start', 'trigger', 'launch', 'invoke', 'rerun', 'retry', 'restart', 'call', 'eval'],
  ['write', 'save', 'store', 'upload', 'put', 'append', 'import', 'insert', 'create', 'remember'],
  ['stop', 'abort', 'kill', 'terminate', 'halt', 'pause', 'cancel'],
];

/**
 * Search score multiplier of a tool whose name holds an action word outside the query verb's families and
 * none inside them (nor a word the query itself uses): the name says the tool does something else.
 */
export const VERB_CONFLICT_FACTOR = 0.6;

/**
 * Search score multiplier of a tool whose name holds an action word of the query verb's own families
 * ("delete_event" for "cancel a calendar event", "make_chart" for "create a chart"): the name says it does
 * what was asked, which a name with no action word does not. A word the query merely uses elsewhere counts 1.
 */
export const VERB_AGREEMENT_FACTOR = 1.2;

/**
 * How many of the best candidates the second stage re-ranks. Deeper costs more per query and gains nothing:
 * results past fifty never reach the top ten after the server penalty.
 */
export const RERANK_DEPTH = 50;

/**
 * Multiplier applied once per better-ranked result of the same server in the re-ranking of the top
 * RERANK_DEPTH: the third tool of one server counts 0.8 x 0.8 of its score, so another server's close
 * match can take its place in the top five, while a clearly better tool of the same server keeps its rank.
 */
export const SERVER_REPEAT_FACTOR = 0.8;

/** How many results of one server are placed before SERVER_REPEAT_FACTOR starts to apply. */
export const SERVER_FREE_REPEATS = 3;

/**
 * Feedback re-ranking: how many of the best candidates lend their words (name and first sentence) to the
 * model the others are compared with. Two: the third is already often off the subject.
 */
export const FEEDBACK_DOCS = 2;

/**
 * Feedback re-ranking: the share of a candidate's score that depends on its likeness to the best candidates.
 * Each candidate but the first is multiplied by (1 - weight) + weight x likeness / best likeness, so a
 * candidate unlike them keeps 0.6 of its score and none gains.
 */
export const FEEDBACK_WEIGHT = 0.4;

/** Search results returned when the caller gives no limit. */
export const DEFAULT_SEARCH_LIMIT = 10;

/** The largest limit a search or route accepts. */
export const MAX_RESULT_LIMIT = 100;

// ---------------------------------------------------------------------------------------------------------
// Route score (methodology, "Route score"): score = text match x success chance x stability x least privilege
//   x (1 - 0.3 x high-risk share) x verb bonus x directory x guard x agents
// ---------------------------------------------------------------------------------------------------------

/** Route picks returned when the caller gives no limit (one per server, best first). */
export const DEFAULT_ROUTE_LIMIT = 5;

/** Multiplier when the task's action verb is one of the words of the tool name. */
export const VERB_BONUS = 1.6;

/** Least-privilege multiplier when the tool can do more than the task needs (a higher risk level). */
export const LEAST_PRIVILEGE_MORE = 0.35;

/** Least-privilege multiplier when the tool can do less than the task needs (a lower risk level). */
export const LEAST_PRIVILEGE_LESS = 0.15;

/** Weight of the server's share of high-risk tools: the factor is 1 - 0.3 x share. */
export const HIGH_RISK_SHARE_WEIGHT = 0.3;

/** Multiplier for a server listed in the Claude or ChatGPT directory. */
export const DIRECTORY_FACTOR = 1.15;

/** Guard for a read task on a server that also has high-risk tools. */
export const GUARD_READ_TASK_HIGH_RISK_SERVER = 0.5;

/** Guard for a gateway (a server that fronts other servers). */
export const GUARD_GATEWAY = 0.7;

/** Guard for a newly submitted server or a young domain (counted once when both hold). */
export const GUARD_NEW = 0.8;

/** A server submitted fewer than this many days before `now` is new. */
export const NEW_SERVER_DAYS = 30;

/** A domain younger than this many days is young. */
export const YOUNG_DOMAIN_DAYS = 90;

/** A rise in risk fewer than this many days ago sets a server aside for tasks that change things. */
export const RISK_RISE_DAYS = 7;

/** Agents factor = AGENTS_BASE + AGENTS_SLOPE x reliability, once the server has stars; 1 before. */
export const AGENTS_BASE = 0.5;

/** See {@link AGENTS_BASE}. */
export const AGENTS_SLOPE = 0.5;

/**
 * Success chance used when the caller has no history for a server: the seed's formula with no observed
 * days, (1 + 0) / (2 + 0).
 */
export const DEFAULT_SUCCESS_CHANCE = 0.5;

/** Stability used when the caller has no history: no tool-list change gives 1 / (1 + 0). */
export const DEFAULT_STABILITY = 1;

// ---------------------------------------------------------------------------------------------------------
// Categories
// ---------------------------------------------------------------------------------------------------------

/** A tool whose name holds a category word scores this for the category; one whose description does, 1. */
export const CATEGORY_NAME_SCORE = 2;

/**
 * When the server's own name holds a category word, that category is taken without looking at the tools
 * (the first such category in priority order): "Google Calendar" is a calendar whatever its tools say.
 */
export const CATEGORY_TRUSTS_SERVER_NAME = true;

/** A category is named only when its score reaches this many points... */
export const CATEGORY_MIN_SCORE = 2;

/** ...and this share of the best possible score (every tool naming it: CATEGORY_NAME_SCORE x tools). */
export const CATEGORY_MIN_SHARE = 0.2;

/**
 * Categories and the words that signal them, in priority order (a tie goes to the earlier one). Words are
 * written plainly and stemmed when used. Words shared by several kinds of server are left out on purpose:
 * "message" (mail, chat and texting all send messages), "user" and "group" (every service has users),
 * "project" (code, design and task tools all have projects), "click" and "google" (too many meanings).
 */
export const CATEGORY_WORDS: readonly (readonly [string, readonly string[]])[] = [
  ['email', ['email', 'mail', 'gmail', 'inbox', 'smtp', 'imap', 'outlook', 'mailbox']],
  ['calendar', ['calendar', 'meeting', 'appointment', 'agenda', 'caldav', 'ical', 'availability']],
  ['payments', ['payment', 'invoice', 'refund', 'checkout', 'subscription', 'billing', 'payout', 'stripe', 'charge']],
  ['crm', ['crm', 'contact', 'lead', 'deal', 'opportunity', 'hubspot', 'salesforce', 'prospect']],
  ['weather', ['weather', 'forecast', 'temperature', 'precipitation', 'humidity', 'wind']],
  ['translation', ['translate', 'translation', 'localize', 'localization', 'glossary', 'i18n']],
  ['maps', ['map', 'maps', 'geocode', 'geocoding', 'place', 'latitude', 'longitude', 'elevation', 'gis', 'geo']],
  [
    'databases',
    [
      'database',
      'db',
      'sql',
      'sqlite',
      'postgres',
      'postgresql',
      'mysql',
      'mariadb',
      'mongodb',
      'mongo',
      'redis',
      'cypher',
      'neo4j',
      'clickhouse',
      'duckdb',
      'snowflake',
      'bigquery',
      'table',
      'row',
      'column',
      'collection',
      'vector',
      'embedding',
    ],
  ],
  ['code', ['repository', 'repo', 'commit', 'branch', 'pull', 'merge', 'git', 'github', 'gitlab', 'code', 'diff']],
  ['ticketing', ['issue', 'ticket', 'task', 'sprint', 'jira', 'todo', 'backlog', 'epic']],
  ['chat', ['channel', 'chat', 'slack', 'discord', 'telegram', 'dm', 'thread', 'conversation']],
  ['docs', ['document', 'page', 'note', 'wiki', 'notion', 'confluence', 'doc', 'documentation', 'markdown', 'article']],
  ['files', ['file', 'directory', 'folder', 'filesystem', 'path']],
  ['storage', ['bucket', 'object', 's3', 'blob', 'storage', 'upload', 'download', 'drive']],
  ['scraping', ['browser', 'scrape', 'crawl', 'screenshot', 'navigate', 'html', 'webpage', 'url', 'selector']],
  ['web-search', ['web', 'internet', 'serp', 'bing', 'brave', 'tavily', 'news']],
  ['images', ['image', 'photo', 'picture', 'png', 'jpeg', 'illustration']],
  [
    'media',
    ['video', 'audio', 'music', 'youtube', 'podcast', 'transcript', 'speech', 'voice', 'movie', 'film', 'song'],
  ],
  ['sign-in', ['identity', 'authentication', 'sso', 'okta', 'oauth', 'login', 'mfa', 'idp', 'saml', 'keycloak']],
  [
    'monitoring',
    [
      'log',
      'alert',
      'incident',
      'error',
      'trace',
      'metric',
      'monitor',
      'uptime',
      'span',
      'exception',
      'crash',
      'sentry',
      'datadog',
      'grafana',
      'prometheus',
      'observability',
    ],
  ],
  [
    'devops',
    [
      'kubernetes',
      'k8s',
      'pod',
      'deployment',
      'container',
      'cluster',
      'docker',
      'helm',
      'namespace',
      'instance',
      'vm',
      'terraform',
      'aws',
      'azure',
      'gcp',
      'cloud',
      'lambda',
      'pipeline',
      'build',
      'devops',
    ],
  ],
  [
    'finance',
    [
      'stock',
      'ticker',
      'crypto',
      'token',
      'wallet',
      'coin',
      'market',
      'trading',
      'blockchain',
      'bitcoin',
      'ethereum',
      'solana',
      'defi',
      'swap',
      'portfolio',
      'financial',
      'earnings',
    ],
  ],
  [
    'analytics',
    ['analytics', 'dashboard', 'report', 'chart', 'statistic', 'insight', 'kpi', 'visualization', 'dataset'],
  ],
  ['security', ['vulnerability', 'cve', 'threat', 'malware', 'firewall', 'security', 'detection']],
  ['memory', ['memory', 'remember', 'knowledge', 'relation', 'observation']],
  ['design', ['figma', 'design', 'canvas', 'shape', 'prototype', 'rectangle', 'ellipse']],
  ['games', ['game', 'player', 'league', 'chess', 'tournament', 'esport', 'sport']],
  ['smart-home', ['thermostat', 'lamp', 'light', 'sensor', 'homekit']],
];

// ---------------------------------------------------------------------------------------------------------
// Evaluation (methodology, "Search evaluation")
// ---------------------------------------------------------------------------------------------------------

/** P@k, nDCG@k and hit@k look at this many results. */
export const EVAL_TOP_K = 5;

/** MRR looks for the first fit within this many results. */
export const EVAL_MRR_DEPTH = 10;

/** Grade of a result that fits and matches the job's prefer group (or fits a job with no prefer group). */
export const GRADE_PREFERRED = 2;

/** Grade of a result that fits but misses the job's prefer group. */
export const GRADE_FIT = 1;

/** How many of the weakest jobs (lowest nDCG@5) a search-evaluation run keeps with their top five. */
export const EVAL_WEAKEST_JOBS_SHOWN = 10;

/**
 * nDCG gain of a grade: grade / GRADE_PREFERRED, so a top-grade fit gains 1 and a plain fit 0.5. The ideal
 * list is EVAL_TOP_K top-grade fits, whether or not the corpus holds that many.
 */
export function gainOfGrade(grade: number): number {
  return grade / GRADE_PREFERRED;
}

/** Discount of rank r (1-based) in DCG: 1 / log2(r + 1). */
export function discountOfRank(rank: number): number {
  return 1 / Math.log2(rank + 1);
}
