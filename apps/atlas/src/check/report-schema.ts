// The shapes `mcp-atlas check` writes: the `--json` report and the baseline (lock) file. Each zod schema
// travels with its type; the baseline is read back through its schema because it is a file a person may edit.
import { DEEP_CALL_OUTCOMES } from '@mcp-atlas/probe';
import { DEEP_CHECK_RULES } from '@mcp-atlas/probe/rules';
import { z } from 'zod';
import { RiskLevelSchema } from '../data/schemas.js';
import { ScoreResultSchema } from '../score/day-scores.js';
import { BASELINE_SCHEMA, CHECK_REPORT_SCHEMA } from './constants.js';

/** One tool of the checked server: its risk level, the rule that set it, and its hash. */
export const CheckedToolSchema = z.object({
  name: z.string(),
  level: RiskLevelSchema,
  rule: z.number().int().min(1).max(8),
  raised: z.boolean(),
  reason: z.string(),
  hash: z.string(),
});
/** The type CheckedToolSchema validates. */
export type CheckedTool = z.infer<typeof CheckedToolSchema>;

/** One finding of @mcp-atlas/findings, with its title. */
export const CheckFindingSchema = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  tools: z.array(z.string()).optional(),
  value: z.number().optional(),
});
/** The type CheckFindingSchema validates. */
export type CheckFinding = z.infer<typeof CheckFindingSchema>;

/** One step of the handshake and its timing. */
export const CheckStepSchema = z.object({
  name: z.string(),
  outcome: z.string(),
  elapsedMs: z.number().nonnegative(),
  detail: z.string().nullable(),
});
/** The type CheckStepSchema validates. */
export type CheckStep = z.infer<typeof CheckStepSchema>;

/** What changed in one tool that kept its name: description (shortened), input-schema paths, annotation hints. */
export const ToolChangeDetailSchema = z.object({
  name: z.string(),
  /** Old and new description, shortened; null when the description did not change. */
  description: z.object({ from: z.string().nullable(), to: z.string().nullable() }).nullable(),
  /** JSON Pointer paths of the input schema added, removed and changed; null when the schema did not change. */
  inputSchema: z
    .object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) })
    .nullable(),
  /** Each annotation that changed, as `name: old -> new`. */
  annotations: z.array(z.string()),
});
/** The type ToolChangeDetailSchema validates. */
export type ToolChangeDetail = z.infer<typeof ToolChangeDetailSchema>;

/** Resources (by URI), resource templates (by URI template) or prompts (by name) added, removed or changed. */
export const EntryListDiffSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
});
/** The type EntryListDiffSchema validates. */
export type EntryListDiff = z.infer<typeof EntryListDiffSchema>;

/** What changed against the baseline file. */
export const BaselineComparisonSchema = z.object({
  file: z.string(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
  renamed: z.array(z.object({ from: z.string(), to: z.string() })),
  riskRises: z.array(z.object({ name: z.string(), from: RiskLevelSchema.nullable(), to: RiskLevelSchema })),
  /** One entry per changed tool: what in its definition changed. */
  details: z.array(ToolChangeDetailSchema),
  /** With `--list-all` and a baseline that lists them: resources and prompts that changed; else null. */
  resources: EntryListDiffSchema.nullable(),
  /** Resource templates (by URI template), likewise; null also against a lock file written before they were kept. */
  resourceTemplates: EntryListDiffSchema.nullable(),
  prompts: EntryListDiffSchema.nullable(),
  /** True when nothing (tools, and resources, resource templates and prompts when compared) changed. */
  unchanged: z.boolean(),
});
/** The type BaselineComparisonSchema validates. */
export type BaselineComparison = z.infer<typeof BaselineComparisonSchema>;

/** How one deep-mode call ended. */
export const CallOutcomeSchema = z.enum(DEEP_CALL_OUTCOMES);
/** The type CallOutcomeSchema validates. */
export type CallOutcome = z.infer<typeof CallOutcomeSchema>;

/** One deep-mode call: which case, which tool, what came back, and how long it took. */
export const DeepCaseSchema = z.object({
  kind: z.enum([
    'unknown-tool',
    'missing-required',
    'wrong-type',
    'fuzz-oversized',
    'fuzz-empty',
    'fuzz-unicode',
    'fuzz-null',
    'smoke',
  ]),
  tool: z.string(),
  outcome: CallOutcomeSchema,
  elapsedMs: z.number().nonnegative(),
  detail: z.string().nullable(),
});
/** The type DeepCaseSchema validates. */
export type DeepCase = z.infer<typeof DeepCaseSchema>;

/**
 * Deep mode's Host-header check: a request naming a foreign host must be refused by a local HTTP server.
 * `not-run` for a server that is not on this machine (the check is about local servers).
 */
export const HostHeaderCheckSchema = z.object({
  outcome: z.enum(['pass', 'fail', 'not-run']),
  /** The HTTP status of the answer, or null when there was none. */
  status: z.number().int().nullable(),
  host: z.string(),
  reason: z.string(),
});
/** The type HostHeaderCheckSchema validates. */
export type HostHeaderCheck = z.infer<typeof HostHeaderCheckSchema>;

const ScorePartSchema = z.number().min(0).max(DEEP_CHECK_RULES.complianceMax).nullable();

/** Deep mode's result: every call, and the protocol compliance score with its parts (null = not measured). */
export const DeepReportSchema = z.object({
  errorHandling: z.array(DeepCaseSchema),
  fuzz: z.array(DeepCaseSchema),
  /** Each read-only tool called once with plain, schema-valid arguments: a normal result is a success. */
  smoke: z.array(DeepCaseSchema),
  compliance: z.object({
    score: z.number().min(0).max(DEEP_CHECK_RULES.complianceMax).nullable(),
    parts: z.object({
      reachability: ScorePartSchema,
      schemaValidity: ScorePartSchema,
      errorHandling: ScorePartSchema,
      fuzz: ScorePartSchema,
      smoke: ScorePartSchema,
    }),
    /** True or false when the server asked for sign-in (was its OAuth metadata published?), else null. */
    authDiscovery: z.boolean().nullable(),
    /** The points authDiscovery added (0 or `PROTOCOL_RULES.authDiscoveryBonus` of @mcp-atlas/score/rules), before the cap. */
    authBonus: z.number().int().nonnegative(),
  }),
  /** Why deep mode could not run, when it could not (the server did not answer, or a connection failed). */
  skipped: z.string().nullable(),
  /** The DNS-rebinding check of a local HTTP server; null for a stdio server. */
  hostHeader: HostHeaderCheckSchema.nullable(),
});
/** The type DeepReportSchema validates. */
export type DeepReport = z.infer<typeof DeepReportSchema>;

/** One gate that tripped, and why. */
export const TrippedGateSchema = z.object({ gate: z.string(), detail: z.string() });
/** The type TrippedGateSchema validates. */
export type TrippedGate = z.infer<typeof TrippedGateSchema>;

/** One resource (key = its URI) or prompt (key = its name) listed with `--list-all`, with its hash. */
export const ListedEntrySchema = z.object({ key: z.string(), name: z.string(), hash: z.string() });
/** The type ListedEntrySchema validates. */
export type ListedEntry = z.infer<typeof ListedEntrySchema>;

/** One list read with `--list-all`: whether the server declared it, its entries, and why reading failed. */
export const ListedKindSchema = z.object({
  declared: z.boolean(),
  entries: z.array(ListedEntrySchema),
  error: z.string().nullable(),
});
/** The type ListedKindSchema validates. */
export type ListedKind = z.infer<typeof ListedKindSchema>;

/**
 * Resource templates read with `--list-all` (key = the URI template). `declared` follows the resources
 * capability, since templates have none of their own; `note` says why a server that declared resources has
 * no template list (it answered "method not found"), which is not a failed read.
 */
export const ListedTemplatesSchema = ListedKindSchema.extend({ note: z.string().nullable() });
/** The type ListedTemplatesSchema validates. */
export type ListedTemplates = z.infer<typeof ListedTemplatesSchema>;

/** What `--list-all` read: resources, resource templates and prompts; `skipped` says why nothing was read. */
export const ListAllReportSchema = z.object({
  resources: ListedKindSchema,
  resourceTemplates: ListedTemplatesSchema,
  prompts: ListedKindSchema,
  skipped: z.string().nullable(),
});
/** The type ListAllReportSchema validates. */
export type ListAllReport = z.infer<typeof ListAllReportSchema>;

/** How the server was reached, as recorded: header names with hidden values, variable names, the time limit. */
export const CheckAccessSchema = z.object({
  headers: z.array(z.string()),
  env: z.array(z.string()),
  timeoutMs: z.number().int().positive().nullable(),
});
/** The type CheckAccessSchema validates. */
export type CheckAccess = z.infer<typeof CheckAccessSchema>;

/** One check of a conformance scenario as the suite reported it (its INFO lines left out). */
export const ConformanceCheckSchema = z.object({
  id: z.string(),
  description: z.string(),
  /** The suite's word: SUCCESS, FAILURE, WARNING or SKIPPED. */
  status: z.string(),
  message: z.string().nullable(),
});

/** One scenario of `--conformance`: passed when no check failed and the suite exited 0. */
export const ConformanceScenarioSchema = z.object({
  name: z.string(),
  passed: z.boolean(),
  /** Why it failed (the failed checks, a time limit, or the suite's last words), or null. */
  reason: z.string().nullable(),
  checks: z.array(ConformanceCheckSchema),
});
/** The type ConformanceScenarioSchema validates. */
export type ConformanceScenario = z.infer<typeof ConformanceScenarioSchema>;

/** What `--conformance` found: the suite and version, every scenario run, and the names of those that failed. */
export const ConformanceReportSchema = z.object({
  suite: z.string(),
  scenarios: z.array(ConformanceScenarioSchema),
  failed: z.array(z.string()),
});
/** The type ConformanceReportSchema validates. */
export type ConformanceReport = z.infer<typeof ConformanceReportSchema>;

/** The `--json` report, version `mcp-atlas.check/1`. */
export const CheckReportSchema = z.object({
  schema: z.literal(CHECK_REPORT_SCHEMA),
  target: z.string(),
  transport: z.enum(['http', 'stdio']),
  letter: z.enum(['o', 'a', 'p', 'd', 'n']),
  reason: z.string(),
  message: z.string(),
  protocolVersion: z.string().nullable(),
  serverInfo: z.object({ name: z.string(), version: z.string() }).nullable(),
  steps: z.array(CheckStepSchema),
  tools: z.array(CheckedToolSchema),
  toolCount: z.number().int().nonnegative(),
  findings: z.array(CheckFindingSchema),
  tokens: z.number().int().nonnegative().nullable(),
  elapsedMs: z.number().nonnegative(),
  baseline: BaselineComparisonSchema.nullable(),
  deep: DeepReportSchema.nullable(),
  /** Resources, resource templates and prompts, with `--list-all`; else null. */
  listAll: ListAllReportSchema.nullable(),
  /** The MCP conformance suite's server scenarios, with `--conformance`; else null. */
  conformance: ConformanceReportSchema.nullable(),
  access: CheckAccessSchema,
  gates: z.object({ failOn: z.array(z.string()), tripped: z.array(TrippedGateSchema) }),
  passed: z.boolean(),
  /**
   * The quality score of @mcp-atlas/score from what this check measured (the same block as `score` of
   * GET /api/servers/:id); reliability and the repository's dimensions stay pending in a single check.
   */
  score: ScoreResultSchema,
  /**
   * With `--published-url`: the URL `score` was computed at, and the flags the check as made raised (from its
   * local address) that this score leaves out; null without it.
   */
  published: z
    .object({
      url: z.string(),
      localFlagsLeftOut: z.array(z.object({ key: z.string(), label: z.string() })),
    })
    .nullable(),
  rulesVersions: z.object({ probe: z.string(), risk: z.string() }),
});
/** The type CheckReportSchema validates. */
export type CheckReport = z.infer<typeof CheckReportSchema>;

/** One tool in the baseline: its hash and level, and its definition so renames and rises can be computed. */
export const BaselineToolSchema = z.object({
  name: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  level: RiskLevelSchema,
  definition: z.unknown(),
});
/** The type BaselineToolSchema validates. */
export type BaselineTool = z.infer<typeof BaselineToolSchema>;

/** One resource, resource template or prompt in the baseline: its key (URI, URI template or name), hash, definition. */
export const BaselineEntrySchema = z.object({
  key: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  definition: z.unknown(),
});
/** The type BaselineEntrySchema validates. */
export type BaselineEntry = z.infer<typeof BaselineEntrySchema>;

/**
 * The baseline file, `mcp-atlas.lock/1`. `resources`, `resourceTemplates` and `prompts` are there when it was written
 * with `--list-all` (`resourceTemplates` only by versions that keep them; an older file without it still loads).
 */
export const BaselineFileSchema = z.object({
  schema: z.literal(BASELINE_SCHEMA),
  target: z.string(),
  serverVersion: z.string().nullable(),
  protocolVersion: z.string().nullable(),
  listHash: z.string().regex(/^[0-9a-f]{64}$/),
  tools: z.array(BaselineToolSchema),
  resources: z.array(BaselineEntrySchema).optional(),
  resourceTemplates: z.array(BaselineEntrySchema).optional(),
  prompts: z.array(BaselineEntrySchema).optional(),
});
/** The type BaselineFileSchema validates. */
export type BaselineFile = z.infer<typeof BaselineFileSchema>;
