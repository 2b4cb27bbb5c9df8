// Pure module: the rule constants of @mcp-atlas/route, published as `@mcp-atlas/route/rules`, one frozen object
// per concern. The values are written once, in constants.ts; these objects only group them, so a page or an
// API can show the number behind a score. The root entry exports none of them: a rule is read here, a
// function is called from the root. A change to any value bumps `ROUTE_RULES_VERSION`.
import {
  AGENTS_BASE,
  AGENTS_SLOPE,
  BM25_B,
  BM25_K1,
  CATEGORY_MIN_SCORE,
  CATEGORY_MIN_SHARE,
  CATEGORY_NAME_SCORE,
  CATEGORY_TRUSTS_SERVER_NAME,
  CATEGORY_WORDS,
  COVERAGE_EXPONENT,
  DEFAULT_ROUTE_LIMIT,
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_STABILITY,
  DEFAULT_SUCCESS_CHANCE,
  DESCRIPTION_REST_WEIGHT,
  DIRECTORY_FACTOR,
  EVAL_MRR_DEPTH,
  EVAL_TOP_K,
  EVAL_WEAKEST_JOBS_SHOWN,
  FEEDBACK_DOCS,
  FEEDBACK_WEIGHT,
  GRADE_FIT,
  GRADE_PREFERRED,
  GUARD_GATEWAY,
  GUARD_NEW,
  GUARD_READ_TASK_HIGH_RISK_SERVER,
  HIGH_RISK_SHARE_WEIGHT,
  LEARNED_COVERAGE_SHARE,
  LEARNED_MAX_SOURCE_FREQUENCY,
  LEARNED_MIN_ASSOCIATION,
  LEARNED_MIN_COOCCURRENCE,
  LEARNED_MIN_FREQUENCY,
  LEARNED_SYNONYM_WEIGHT,
  LEARNED_SYNONYMS_PER_TERM,
  LEARNED_UNIT_TERM_CAP,
  LEAST_PRIVILEGE_LESS,
  LEAST_PRIVILEGE_MORE,
  MAX_QUERY_TERMS,
  MAX_RESULT_LIMIT,
  MIN_STEM_LENGTH,
  MIN_TOKEN_LENGTH,
  NAME_FIELD_WEIGHT,
  NEW_SERVER_DAYS,
  QUERY_SYNONYMS,
  RERANK_DEPTH,
  RISK_RISE_DAYS,
  ROUTE_RULES_VERSION,
  SEARCH_LEVEL_PREFERENCE,
  SERVER_FIELD_WEIGHT,
  SERVER_FREE_REPEATS,
  SERVER_REPEAT_FACTOR,
  STEM_EXCEPTIONS,
  STOP_WORDS,
  SYNONYM_WEIGHT,
  TASK_RISK_WITHOUT_VERB,
  UNDOUBLE_CONSONANTS,
  VERB_AGREEMENT_FACTOR,
  VERB_BONUS,
  VERB_CONFLICT_FACTOR,
  VERB_FAMILIES,
  YOUNG_DOMAIN_DAYS,
} from './constants.js';

/** Methodology version of the search, route and evaluation rules; every route result and eval report carries it. */
export { ROUTE_RULES_VERSION };

/** How text becomes terms (methodology, "Tool search, route and categories" > "Words and stems"). */
export const TEXT_RULES = Object.freeze({
  /** Tokens shorter than this are dropped from the index and from queries. */
  minTokenLength: MIN_TOKEN_LENGTH,
  /** A query keeps at most this many distinct terms, in the order written. */
  maxQueryTerms: MAX_QUERY_TERMS,
  /** Words too common to tell tools apart, dropped from the index and from queries. */
  stopWords: STOP_WORDS,
  /** Words the stemmer leaves as they are. */
  stemExceptions: STEM_EXCEPTIONS,
  /** The stemmer never cuts a word below this many letters. */
  minStemLength: MIN_STEM_LENGTH,
  /** Letters whose doubling is undone after a suffix is cut ("running" to "run"). */
  undoubleConsonants: UNDOUBLE_CONSONANTS,
});

/**
 * The tool search and the result limits shared with the route (methodology, "Tool search, route and
 * categories" > "Search").
 *
 * @example
 * // SEARCH_RULES is exported by the `@mcp-atlas/route/rules` subpath
 * const limit = Math.min(asked ?? SEARCH_RULES.defaultLimit, SEARCH_RULES.maxResultLimit);
 */
export const SEARCH_RULES = Object.freeze({
  /** A term in the tool name counts this many times a term in the description. */
  nameFieldWeight: NAME_FIELD_WEIGHT,
  /** A term in the server's name counts this much (a hint, not a match on its own). */
  serverFieldWeight: SERVER_FIELD_WEIGHT,
  /** BM25 term-frequency saturation. */
  bm25K1: BM25_K1,
  /** BM25 length normalisation. */
  bm25B: BM25_B,
  /** A description term after the first sentence counts this much of one in the first sentence or title. */
  descriptionRestWeight: DESCRIPTION_REST_WEIGHT,
  /** Weight of a term added by synonym expansion, relative to a term the query wrote. */
  synonymWeight: SYNONYM_WEIGHT,
  /** Exponent of the coverage factor (the share of the query's known terms a tool matches). */
  coverageExponent: COVERAGE_EXPONENT,
  /** The synonyms a query term also matches. */
  querySynonyms: QUERY_SYNONYMS,
  /** Weight of a synonym learned from the catalog, relative to a term the query wrote. */
  learnedSynonymWeight: LEARNED_SYNONYM_WEIGHT,
  /** Share of a query word a tool covers when it matches the word only through a learned synonym. */
  learnedCoverageShare: LEARNED_COVERAGE_SHARE,
  /** Learning: a word must be in at least this many distinct tools (name and first sentence) to take part. */
  learnedMinFrequency: LEARNED_MIN_FREQUENCY,
  /** Learning: only words in at most this many distinct tools get synonyms. */
  learnedMaxSourceFrequency: LEARNED_MAX_SOURCE_FREQUENCY,
  /** Learning: two words must share at least this many distinct tools. */
  learnedMinCooccurrence: LEARNED_MIN_COOCCURRENCE,
  /** Learning: least normalized PMI (-1 to 1, 0 is chance) of a word and its synonym. */
  learnedMinAssociation: LEARNED_MIN_ASSOCIATION,
  /** Learning: at most this many synonyms per word, the most associated first. */
  learnedSynonymsPerTerm: LEARNED_SYNONYMS_PER_TERM,
  /** Learning: only the first this many distinct terms of a tool are counted. */
  learnedUnitTermCap: LEARNED_UNIT_TERM_CAP,
  /** Soft preference by tool level, keyed by what the query's verb asks for. */
  levelPreference: SEARCH_LEVEL_PREFERENCE,
  /** Search results returned when the caller gives no limit. */
  defaultLimit: DEFAULT_SEARCH_LIMIT,
  /** The largest limit a search or a route accepts. */
  maxResultLimit: MAX_RESULT_LIMIT,
  /** Action words that stand for the same kind of act (verb agreement between query and tool name). */
  verbFamilies: VERB_FAMILIES,
  /** Score multiplier of a tool whose name's action disagrees with the query's verb. */
  verbConflictFactor: VERB_CONFLICT_FACTOR,
  /** Score multiplier of a tool whose name's action is in the query verb's families. */
  verbAgreementFactor: VERB_AGREEMENT_FACTOR,
  /** Feedback re-ranking: how many of the best candidates lend their words to the model. */
  feedbackDocs: FEEDBACK_DOCS,
  /** Feedback re-ranking: the share of a candidate's score that depends on its likeness to the best. */
  feedbackWeight: FEEDBACK_WEIGHT,
  /** How many of the best candidates the second stage re-ranks for server diversity. */
  rerankDepth: RERANK_DEPTH,
  /** Multiplier per further result of one server past the free ones, in the second stage. */
  serverRepeatFactor: SERVER_REPEAT_FACTOR,
  /** Results of one server placed before the repeat factor applies. */
  serverFreeRepeats: SERVER_FREE_REPEATS,
});

/**
 * The route score and its factors (methodology, "Tool search, route and categories" > "The task's risk" and
 * "Route score"): text match x success chance x stability x least privilege x (1 - weight x high-risk share)
 * x verb bonus x directory x guard x agents.
 */
export const ROUTE_SCORE_RULES = Object.freeze({
  /** A task with no known verb is routed as this kind of task (the least privilege a tool could need). */
  taskRiskWithoutVerb: TASK_RISK_WITHOUT_VERB,
  /** Route picks returned when the caller gives no limit. */
  defaultLimit: DEFAULT_ROUTE_LIMIT,
  /** Multiplier when the task's verb is a word of the tool name. */
  verbBonus: VERB_BONUS,
  /** Least-privilege multiplier when the tool can do more than the task needs. */
  leastPrivilegeMore: LEAST_PRIVILEGE_MORE,
  /** Least-privilege multiplier when the tool can do less than the task needs. */
  leastPrivilegeLess: LEAST_PRIVILEGE_LESS,
  /** Weight of the server's share of high-risk tools. */
  highRiskShareWeight: HIGH_RISK_SHARE_WEIGHT,
  /** Multiplier for a server listed in a client's directory. */
  directoryFactor: DIRECTORY_FACTOR,
  /** Guard for a read task on a server that also has high-risk tools. */
  guardReadTaskHighRiskServer: GUARD_READ_TASK_HIGH_RISK_SERVER,
  /** Guard for a gateway. */
  guardGateway: GUARD_GATEWAY,
  /** Guard for a newly submitted server or a young domain (counted once when both hold). */
  guardNew: GUARD_NEW,
  /** A server submitted fewer than this many days before `now` is new. */
  newServerDays: NEW_SERVER_DAYS,
  /** A domain younger than this many days is young. */
  youngDomainDays: YOUNG_DOMAIN_DAYS,
  /** A risk rise fewer than this many days ago sets a server aside for tasks that change things. */
  riskRiseDays: RISK_RISE_DAYS,
  /** Agents factor = agentsBase + agentsSlope x reliability, once the server has stars. */
  agentsBase: AGENTS_BASE,
  /** See `agentsBase`. */
  agentsSlope: AGENTS_SLOPE,
  /** Success chance used when the caller has no history for a server. */
  defaultSuccessChance: DEFAULT_SUCCESS_CHANCE,
  /** Stability used when the caller has no history for a server. */
  defaultStability: DEFAULT_STABILITY,
});

/** How a server gets a category (methodology, "Tool search, route and categories" > "Categories"). */
export const CATEGORY_RULES = Object.freeze({
  /** Points for a category word in a tool's name (one in its description scores 1). */
  nameScore: CATEGORY_NAME_SCORE,
  /** A category word in the server's own name decides the category. */
  trustsServerName: CATEGORY_TRUSTS_SERVER_NAME,
  /** A category is named only when its score reaches this many points... */
  minScore: CATEGORY_MIN_SCORE,
  /** ...and this share of the best possible score. */
  minShare: CATEGORY_MIN_SHARE,
  /** Categories and the words that signal them, in priority order. */
  words: CATEGORY_WORDS,
});

/** The search evaluation (methodology, "Tool search, route and categories" > "Search evaluation"). */
export const SEARCH_EVAL_RULES = Object.freeze({
  /** P@k, nDCG@k and hit@k look at this many results. */
  topK: EVAL_TOP_K,
  /** MRR looks for the first fit within this many results. */
  mrrDepth: EVAL_MRR_DEPTH,
  /** Grade of a fit that matches the job's prefer group. */
  gradePreferred: GRADE_PREFERRED,
  /** Grade of a fit that misses the job's prefer group. */
  gradeFit: GRADE_FIT,
  /** How many of the weakest jobs (lowest nDCG@5) a run keeps with their top five. */
  weakestJobsShown: EVAL_WEAKEST_JOBS_SHOWN,
});

/**
 * The one-right-tool evaluation (methodology, "Tool search, route and categories" > "Search evaluation"): the
 * same cut-offs as the graded evaluation, so the two sets' figures read alike.
 */
export const ONE_TOOL_RULES = Object.freeze({
  /** hit@k and each prompt's printed top list look at this many results. */
  topK: EVAL_TOP_K,
  /** MRR and hit@10 look for the right tool within this many results. */
  mrrDepth: EVAL_MRR_DEPTH,
});
