// Pure module: the gateway decision call. A level becomes allow, ask or deny under a policy; custom words are
// compiled once per classifier. No I/O, no clock; the same tool, policy and context always give the same answer.
import { describeType } from '@mcp-atlas/base';
import { BUILT_IN_LISTS, type WordLists } from './builtin-lists.js';
import { classifyAllWith, classifyWith, type InternalContext, serverHasAnnotations } from './classify.js';
import { compileWordLists, hasCustomWords, WORD_LIST_OPTIONS } from './custom-words.js';
import { RiskOptionsError } from './errors.js';
import type {
  ClassifyContext,
  GatewayDecision,
  GatewayPolicy,
  RiskClassifier,
  RiskLevel,
  RiskVerdict,
  ToolCallDecision,
  ToolLike,
} from './types.js';

/** The decision fields of a policy, all set. */
type Decisions = Required<Pick<GatewayPolicy, 'readOnly' | 'changesData' | 'highRisk' | 'trustAnnotations'>>;

/**
 * The policy used for every field a caller leaves out:
 * - `readOnly: 'allow'`: a tool that only looks things up may run unasked; that is what read-only means.
 * - `changesData: 'ask'`: a change is usually undoable but should be the user's choice, not the agent's.
 * - `highRisk: 'deny'`: deleting, paying, granting, deploying or running code may not be undoable, and a
 *   gateway without a person watching has no one to ask; interactive gateways set `highRisk: 'ask'`.
 * - `trustAnnotations: true`: the verdicts then match the published methodology levels. Set it to false for
 *   servers you do not control, so that their hints can only make a tool riskier.
 * - no extra words.
 */
export const DEFAULT_POLICY: Readonly<Required<GatewayPolicy>> = Object.freeze({
  readOnly: 'allow',
  changesData: 'ask',
  highRisk: 'deny',
  trustAnnotations: true,
  extraHighRiskVerbs: Object.freeze([]),
  extraReadVerbs: Object.freeze([]),
  extraSensitiveNouns: Object.freeze([]),
});

/** The decisions each policy field accepts. High-risk has no `allow`: no policy runs a high-risk tool unasked. */
const ACCEPTED_DECISIONS: Readonly<Record<'readOnly' | 'changesData' | 'highRisk', readonly GatewayDecision[]>> = {
  readOnly: ['allow', 'ask'],
  changesData: ['allow', 'ask', 'deny'],
  highRisk: ['ask', 'deny'],
};

const DECISION_FIELDS = ['readOnly', 'changesData', 'highRisk'] as const;
const KNOWN_OPTIONS: ReadonlySet<string> = new Set([...DECISION_FIELDS, 'trustAnnotations', ...WORD_LIST_OPTIONS]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkedPolicy(policy: unknown): GatewayPolicy {
  if (policy === undefined) return {};
  if (!isPlainObject(policy)) {
    throw new RiskOptionsError('policy-not-object', `the policy must be an object, got ${describeType(policy)}`);
  }
  for (const key of Object.keys(policy)) {
    // A misspelt field would otherwise be ignored silently and the default would apply instead.
    if (!KNOWN_OPTIONS.has(key)) {
      throw new RiskOptionsError(
        'unknown-option',
        `unknown policy option "${key}"; known: ${[...KNOWN_OPTIONS].join(', ')}`,
      );
    }
  }
  return policy as GatewayPolicy;
}

// The policy's decision fields over `base`; each one checked, since a JavaScript caller can pass anything.
function mergeDecisions(base: Decisions, policy: GatewayPolicy): Decisions {
  const merged: Decisions = { ...base };
  for (const field of DECISION_FIELDS) {
    const value: unknown = policy[field];
    if (value === undefined) continue;
    if (!ACCEPTED_DECISIONS[field].includes(value as GatewayDecision)) {
      const accepted = ACCEPTED_DECISIONS[field].map((d) => `'${d}'`).join(' or ');
      throw new RiskOptionsError('bad-decision', `policy.${field} must be ${accepted}, got ${JSON.stringify(value)}`);
    }
    (merged as Record<string, unknown>)[field] = value;
  }
  const trust: unknown = policy.trustAnnotations;
  if (trust !== undefined && typeof trust !== 'boolean') {
    throw new RiskOptionsError(
      'bad-trust',
      `policy.trustAnnotations must be true or false, got ${describeType(trust)}`,
    );
  }
  if (typeof trust === 'boolean') merged.trustAnnotations = trust;
  return merged;
}

function checkedContext(context: unknown): ClassifyContext | undefined {
  if (context === undefined) return undefined;
  if (!isPlainObject(context) || typeof context.serverHasAnnotations !== 'boolean') {
    throw new RiskOptionsError(
      'context-not-object',
      'the context must be an object { serverHasAnnotations: boolean } or left out',
    );
  }
  return context as unknown as ClassifyContext;
}

function decisionFor(level: RiskLevel, decisions: Decisions): GatewayDecision {
  if (level === 'read-only') return decisions.readOnly;
  if (level === 'changes-data') return decisions.changesData;
  return decisions.highRisk;
}

const OPENERS: Readonly<Record<GatewayDecision, string>> = {
  allow: 'Allowed',
  ask: 'Ask the user first',
  deny: 'Denied',
};

const RAISE_MARKER = ' Raised to high risk: ';

// The verdict's reason as a clause: the raise when there was one (its wording decided), else the rule's reason.
function reasonClause(verdict: RiskVerdict): string {
  const raiseAt = verdict.raised ? verdict.reason.lastIndexOf(RAISE_MARKER) : -1;
  const text = raiseAt >= 0 ? verdict.reason.slice(raiseAt + RAISE_MARKER.length) : verdict.reason;
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1);
}

function buildWhy(decision: GatewayDecision, verdict: RiskVerdict): string {
  const rule = verdict.raised ? `raised from rule ${verdict.rule}` : `rule ${verdict.rule}`;
  return `${OPENERS[decision]}: rated ${verdict.level} (${rule}) because ${reasonClause(verdict)}.`;
}

/**
 * How many distinct reasons keep their sentences cached. Reasons mostly come from bounded word lists, so a
 * whole tools/list reuses a few hundred; names quoted in rule-8 reasons are unbounded, hence the cap.
 */
const WHY_CACHE_LIMIT = 4096;

/** Longer reasons (a rule-8 reason quoting a long name) are not cached, so the cache stays small in bytes. */
const WHY_CACHE_MAX_REASON_CHARS = 300;

// A verdict's reason fixes its rule, level and raise (each reason sentence belongs to one rule, and a raise
// is written into it), so the sentence is a function of the decision and the reason alone.
const whyCache = new Map<string, Partial<Record<GatewayDecision, string>>>();

/** One sentence: the decision, the level, the rule (or the raise) and what decided it. */
function whyOf(decision: GatewayDecision, verdict: RiskVerdict): string {
  if (verdict.reason.length > WHY_CACHE_MAX_REASON_CHARS) return buildWhy(decision, verdict);
  let byDecision = whyCache.get(verdict.reason);
  if (byDecision === undefined) {
    if (whyCache.size >= WHY_CACHE_LIMIT) whyCache.clear();
    byDecision = {};
    whyCache.set(verdict.reason, byDecision);
  }
  let why = byDecision[decision];
  if (why === undefined) {
    why = buildWhy(decision, verdict);
    byDecision[decision] = why;
  }
  return why;
}

function decide(tool: ToolLike, decisions: Decisions, context: Readonly<InternalContext>): ToolCallDecision {
  const verdict = classifyWith(tool, context);
  const decision = decisionFor(verdict.level, decisions);
  return { decision, verdict, why: whyOf(decision, verdict) };
}

// Without a context, a lone tool's own annotations are all that is known of its server. The flag only picks
// between rules 7 and 8 for an unannotated reading verb, and both give changes-data, so the level is the same.
function loneToolContext(tool: unknown): ClassifyContext {
  return { serverHasAnnotations: serverHasAnnotations([tool]) };
}

function assertToolsArray(tools: unknown): asserts tools is readonly unknown[] {
  if (!Array.isArray(tools)) {
    throw new RiskOptionsError(
      'tools-not-array',
      `decideToolCalls expects an array of tools, got ${describeType(tools)}`,
    );
  }
}

function bindClassifier(lists: WordLists, defaults: Decisions): RiskClassifier {
  const internal = (serverAnnotated: boolean, trustAnnotations: boolean): InternalContext => ({
    serverHasAnnotations: serverAnnotated,
    lists,
    trustAnnotations,
  });
  const callDecisions = (policy: unknown): Decisions => {
    const checked = checkedPolicy(policy);
    if (hasCustomWords(checked)) {
      throw new RiskOptionsError(
        'words-fixed',
        "this classifier's word lists are fixed: pass extra words to createClassifier, not to its calls",
      );
    }
    return mergeDecisions(defaults, checked);
  };
  return {
    classifyTool: (tool, context) =>
      classifyWith(tool, internal(checkedContext(context)?.serverHasAnnotations ?? false, defaults.trustAnnotations)),
    classifyTools: (tools) => {
      if (!Array.isArray(tools))
        throw new RiskOptionsError('tools-not-array', 'classifyTools expects an array of tools');
      return classifyAllWith(tools, internal(serverHasAnnotations(tools), defaults.trustAnnotations));
    },
    decideToolCall: (tool, policy, context) => {
      const decisions = callDecisions(policy);
      const known = checkedContext(context) ?? loneToolContext(tool);
      return decide(tool, decisions, internal(known.serverHasAnnotations, decisions.trustAnnotations));
    },
    decideToolCalls: (tools, policy, context) => {
      assertToolsArray(tools);
      const decisions = callDecisions(policy);
      const known = checkedContext(context) ?? { serverHasAnnotations: serverHasAnnotations(tools) };
      const shared = internal(known.serverHasAnnotations, decisions.trustAnnotations);
      return tools.map((tool) => decide(tool as ToolLike, decisions, shared));
    },
  };
}

/**
 * Compiles a policy's extra words once and returns `classifyTool`, `classifyTools`, `decideToolCall` and
 * `decideToolCalls` bound to them. The policy's decision fields and `trustAnnotations` become the defaults of
 * the bound calls, which may still override them per call (but not the words). Throws `RiskOptionsError` on
 * a bad option or word. Extra words add to the built-in lists and never lower a tool they call high-risk.
 *
 * @example
 * const gate = createClassifier({ extraHighRiskVerbs: ['nuke'], highRisk: 'ask' });
 * gate.decideToolCall({ name: 'nuke_cluster' }).decision // 'ask'
 */
export function createClassifier(options?: GatewayPolicy): RiskClassifier {
  const checked = checkedPolicy(options);
  const defaults = mergeDecisions(DEFAULT_POLICY, checked);
  return bindClassifier(compileWordLists(checked), defaults);
}

const BUILT_IN_CLASSIFIER = bindClassifier(BUILT_IN_LISTS, DEFAULT_POLICY);

/**
 * Decides one tool call under a policy (missing fields from `DEFAULT_POLICY`): `allow`, `ask` (the user
 * first) or `deny`, with the verdict it came from and one sentence of why. Without a context, the server
 * counts as publishing annotations when this tool carries them. A tool from a server is never an error; a
 * bad policy or context throws `RiskOptionsError`. A policy with extra words compiles them on every call:
 * use `createClassifier` to compile them once.
 *
 * @example decideToolCall({ name: 'delete_page' }).why
 * // 'Denied: rated high-risk (rule 2) because its verb "delete" deletes, pays, grants, deploys or runs code.'
 */
export function decideToolCall(tool: ToolLike, policy?: GatewayPolicy, context?: ClassifyContext): ToolCallDecision {
  if (policy !== undefined && isPlainObject(policy) && hasCustomWords(policy)) {
    return createClassifier(policy).decideToolCall(tool, undefined, context);
  }
  return BUILT_IN_CLASSIFIER.decideToolCall(tool, policy, context);
}

/**
 * Decides every tool of a tools/list result, in order, under one policy. Without a context, the server
 * counts as publishing annotations when any tool in the list carries them (as `classifyTools` does).
 * Throws `RiskOptionsError` when `tools` is not an array or the policy or context is bad.
 *
 * @example decideToolCalls(result.tools, { highRisk: 'ask' }).filter((d) => d.decision !== 'allow')
 */
export function decideToolCalls(
  tools: readonly unknown[],
  policy?: GatewayPolicy,
  context?: ClassifyContext,
): ToolCallDecision[] {
  if (policy !== undefined && isPlainObject(policy) && hasCustomWords(policy)) {
    return createClassifier(policy).decideToolCalls(tools, undefined, context);
  }
  return BUILT_IN_CLASSIFIER.decideToolCalls(tools, policy, context);
}
