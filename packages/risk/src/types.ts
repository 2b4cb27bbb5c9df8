// Pure module: the public shapes of the risk classifier. Plain types, because the package has no dependencies.

/** How much a tool can do: read-only tools may run alone, the other two need a person's approval. */
export type RiskLevel = 'read-only' | 'changes-data' | 'high-risk';

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
