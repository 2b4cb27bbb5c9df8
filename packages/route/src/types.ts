// Pure module: the data shapes of @mcp-atlas/route. Plain types, like @mcp-atlas/risk: no runtime schema
// library, so the package stays dependency-free apart from risk.
import type { RiskLevel } from '@mcp-atlas/risk';

/**
 * One server handed to {@link createToolIndex}: its tools as the server listed them (untrusted JSON, any
 * shape) and what the caller knows about it. Every field but `id` and `tools` is optional; a missing one is
 * neutral (answering, no history, not listed, not new, no incident, no stars).
 *
 * @example { id: 'mail.example', name: 'Example Mail', tools: result.tools, successChance: 0.93, stability: 1 }
 */
export interface IndexServer {
  /** Stable, unique id of the server; results name it. */
  id: string;
  /** A readable name (registry title). Its words join the search as a weak field of every tool. */
  name?: string;
  /** The server's address, kept for the caller; not searched. */
  url?: string;
  /** The tools array of tools/list, as returned. Entries without a string name are not searchable. */
  tools: readonly unknown[];
  /** False when the newest check saw no tool list. Missing means answering. */
  answering?: boolean;
  /** Chance the next call works, 0 to 1 (the reliability package's success chance). */
  successChance?: number;
  /** Tool-list stability, 0 to 1. */
  stability?: number;
  /** Listed in the Claude or ChatGPT directory. */
  directoryListed?: boolean;
  /** The server is a gateway in front of other servers. */
  gateway?: boolean;
  /** When the owner submitted it (ISO 8601); servers from a registry leave it out. */
  submittedAt?: string;
  /** Age of the domain in days, from its RDAP record. */
  domainAgeDays?: number;
  /** The tool list changed in today's check. */
  changedToday?: boolean;
  /** An incident is open for this server right now. */
  liveIncident?: boolean;
  /** Days since the last rise in risk (0 = today); leave out when there was none. */
  riskRiseDays?: number;
  /** The newest check was redirected to another registrable domain. */
  crossDomainRedirect?: boolean;
  /** Reliability from agents' reports (0 to 1) once the server has stars; null or missing before. */
  agentsReliability?: number | null;
}

/** What a search may return, by the most a tool may do: read takes read-only tools, change also changing ones. */
export type RiskAllowance = 'read' | 'change' | 'any';

/** Options of {@link searchTools}. */
export interface SearchOptions {
  /** Highest risk level returned. Default `any`. */
  risk?: RiskAllowance;
  /** Most results returned, 1 to 100. Default 10. */
  limit?: number;
  /** Leave out servers that are not answering. Default true. */
  answeringOnly?: boolean;
}

/** One search result: a tool, its server, its risk level and its score (higher is better). */
export interface SearchHit {
  serverId: string;
  tool: string;
  description: string;
  level: RiskLevel;
  score: number;
}

/** What a task asks for, read from its action verb: read only, change data, or high risk. */
export type TaskRisk = 'read' | 'change' | 'high';

/** The action verb of a task and the risk it implies; `verb` is null when no word is a known verb. */
export interface TaskIntent {
  verb: string | null;
  risk: TaskRisk;
}

/**
 * Every multiplier of a route score; their product is the score. `textMatch` is 0 to 1 (share of the best
 * possible text score for the task); the others are 1 when they neither help nor hurt.
 */
export interface RouteFactors {
  textMatch: number;
  successChance: number;
  stability: number;
  leastPrivilege: number;
  highRiskShare: number;
  verbBonus: number;
  directory: number;
  guard: number;
  agents: number;
}

/** A server and tool that route would use for a task, with its score and every factor behind it. */
export interface RouteCandidate {
  serverId: string;
  tool: string;
  level: RiskLevel;
  score: number;
  factors: RouteFactors;
}

/** A server that matched the task but is not offered, and why. `tool` is its best-matching tool. */
export interface SetAside {
  serverId: string;
  tool?: string;
  reason: string;
}

/** Options of {@link routeTask}. */
export interface RouteOptions {
  /** The current time; needed when any indexed server has `submittedAt`. */
  now?: Date;
  /** Most picks returned (one per server), 1 to 100. Default 5. */
  limit?: number;
}

/** The answer of {@link routeTask}. */
export interface RouteResult {
  taskRisk: TaskRisk;
  /** The task's action verb, or null when none was found (the task is then treated as a read). */
  verb: string | null;
  picks: RouteCandidate[];
  setAside: SetAside[];
  rulesVersion: string;
}

/** One evaluation job: a plain-language task and the judge's criteria, written before any search ran. */
export interface SearchJob {
  id: string;
  category: string;
  query: string;
  allow: RiskAllowance;
  /** Synonym groups: a fit contains a word or phrase from every group. */
  groups: string[][];
  /** A fit that also contains one of these gets the higher grade. */
  prefer?: string[];
}

/** The five evaluation figures, each 0 to 1. */
export interface EvalMetrics {
  p1: number;
  p5: number;
  ndcg5: number;
  mrr: number;
  hit5: number;
}

/** One job's grades (top 10, 0 no fit, 1 fit, 2 top grade) and figures. */
export interface JobResult extends EvalMetrics {
  id: string;
  category: string;
  query: string;
  allow: RiskAllowance;
  grades: number[];
  /** Rank (1-based) of the first fit within the MRR depth, or null. */
  firstFit: number | null;
  /** The top results as `serverId/tool`, so a reader can see what was returned. */
  top: string[];
}

/** Figures of one category of jobs. */
export interface CategoryResult extends EvalMetrics {
  jobs: number;
}

/** The result of {@link evaluateSearch}: overall figures (mean over jobs), per category and per job. */
export interface EvalReport {
  rulesVersion: string;
  /** The job set's version and SHA-256, when the caller gave them. */
  set: { version: string; sha256: string } | null;
  jobCount: number;
  overall: EvalMetrics;
  byCategory: Record<string, CategoryResult>;
  jobs: JobResult[];
}
