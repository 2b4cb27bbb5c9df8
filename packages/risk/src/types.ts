// Pure module: the public shapes of the risk classifier. Plain types, because the package has no dependencies.

/** The three risk levels, lowest first: the one list every schema of a level is built from. */
export const RISK_LEVELS = Object.freeze(['read-only', 'changes-data', 'high-risk'] as const);

/** How much a tool can do: read-only tools may run alone, the other two need a person's approval. */
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** The number of the methodology rule (1 to 8, in order) that set a tool's level. */
export type RiskRule = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** The parts of an MCP tool definition that the classifier reads. Annotations are hints from the server. */
export interface ToolLike {
  name: string;
  description?: string;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; [k: string]: unknown };
}

/** What the classifier knows about the rest of the server when it looks at one tool. */
export interface ClassifyContext {
  /** True when at least one tool on the server carries an annotations object. */
  serverHasAnnotations: boolean;
}

/**
 * A classification and its explanation.
 * `rule` is the rule that set the level before any description raise; `raised` says the description
 * lifted it to high risk; `verb` is the verb read from the name (or null); `reason` is one plain sentence.
 */
export interface RiskVerdict {
  level: RiskLevel;
  rule: RiskRule;
  raised: boolean;
  verb: string | null;
  reason: string;
}

/** What a gateway does with a tool call: run it, ask the user first, or refuse it. */
export type GatewayDecision = 'allow' | 'ask' | 'deny';

/**
 * Words a caller adds to the built-in lists (never replacing them). Each word is cut and lower-cased the way
 * tool names are (`splitWords`); a verb must come out as one word, a sensitive noun as one or two (`private key`).
 */
export interface CustomWords {
  /** Verbs that make a tool high-risk (rule 2). A built-in changing or reading verb listed here becomes high-risk. */
  extraHighRiskVerbs?: readonly string[];
  /**
   * Reading verbs, used only for names in which the built-in lists find no verb. A built-in changing or
   * high-risk verb here is an error: extra words can make tools riskier, never safer than the built-in lists.
   */
  extraReadVerbs?: readonly string[];
  /** Nouns that make a tool high-risk when its verb is not a built-in reading verb (rule 4). */
  extraSensitiveNouns?: readonly string[];
}

/**
 * What a gateway does at each level, and how far it trusts a server's annotations. High-risk can only be
 * `ask` or `deny`: no policy lets a high-risk tool run unasked. Missing fields take `DEFAULT_POLICY`'s values.
 */
export interface GatewayPolicy extends CustomWords {
  readOnly?: 'allow' | 'ask';
  changesData?: 'allow' | 'ask' | 'deny';
  highRisk?: 'ask' | 'deny';
  /**
   * When false, a server's annotations may only make a tool riskier: `destructiveHint: true` still counts,
   * every other hint is ignored, and a reading verb alone gives changes-data (rule 7), never read-only.
   */
  trustAnnotations?: boolean;
}

/** A gateway's answer for one tool call: the decision, the verdict it came from, and one plain sentence. */
export interface ToolCallDecision {
  decision: GatewayDecision;
  verdict: RiskVerdict;
  /** One sentence naming the decision, the level, the rule and what decided it. */
  why: string;
}

/**
 * The classifier and decision calls bound to one set of compiled custom words (see `createClassifier`).
 * `classifyTool` and `classifyTools` also apply the classifier's `trustAnnotations`.
 */
export interface RiskClassifier {
  classifyTool(tool: ToolLike, context: ClassifyContext): RiskVerdict;
  classifyTools(tools: readonly unknown[]): RiskVerdict[];
  decideToolCall(tool: ToolLike, policy?: GatewayPolicy, context?: ClassifyContext): ToolCallDecision;
  decideToolCalls(tools: readonly unknown[], policy?: GatewayPolicy, context?: ClassifyContext): ToolCallDecision[];
}
