// The JSON of local servers: GET /api/local-servers (every one, without tools) and GET /api/local-servers/{id}
// (one, with its tools and risk levels). The shapes are declared here once; the OpenAPI document reads them.
import { LetterSchema } from '@mcp-atlas/probe';
import { z } from 'zod';
import { LOCAL_OUTCOMES, LocalChangeSchema, LocalLimitSchema } from '../scan/local-servers.js';
import { ServerScoreSchema } from '../score/day-scores.js';
import type { LocalServerView } from '../view/local-view.js';
import { presentTools } from './present-server.js';
import { ServerToolSchema } from './schemas.js';

/** A local server as the list gives it. */
export const LocalServerSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  local: z.literal(true),
  registryType: z.enum(['npm', 'pypi']),
  package: z.string().describe('The package name on npm or PyPI.'),
  version: z.string().describe('The version checked: the one the registry entry names.'),
  purl: z.string().describe('The package URL of that version.'),
  installCommand: z.string().describe('The command that starts it on your machine (npx or uvx, at that version).'),
  variables: z.array(
    z.object({ name: z.string(), required: z.boolean(), secret: z.boolean(), default: z.string().nullable() }),
  ),
  missing: z.array(z.string()).describe('Required variables and arguments with no default: not run until set.'),
  outcome: z.enum(LOCAL_OUTCOMES),
  stoppedBy: LocalLimitSchema.nullable(),
  letter: LetterSchema,
  checkedDay: z.string(),
  toolCount: z.int(),
  toolsHash: z.string().nullable(),
});

/** GET /api/local-servers. */
export const LocalServerListSchema = z.object({ servers: z.array(LocalServerSummarySchema) });

/** GET /api/local-servers/{id}: the summary with its tools and findings. */
export const LocalServerDetailSchema = LocalServerSummarySchema.extend({
  message: z.string(),
  tokens: z.int().nullable(),
  findings: z.array(z.object({ id: z.string(), message: z.string(), tools: z.array(z.string()).optional() })),
  change: LocalChangeSchema.nullable(),
  tools: z.array(ServerToolSchema),
  score: ServerScoreSchema.nullable().describe(
    'The quality score of this check, with the dimensions that apply to a local server.',
  ),
});

export function presentLocalSummary(server: LocalServerView): z.infer<typeof LocalServerSummarySchema> {
  return {
    id: server.id,
    title: server.title,
    local: true,
    registryType: server.package.registryType,
    package: server.package.identifier,
    version: server.package.version,
    purl: server.purl,
    installCommand: server.installCommand,
    variables: server.variables,
    missing: server.missing,
    outcome: server.outcome,
    stoppedBy: server.stoppedBy,
    letter: server.latest.letter,
    checkedDay: server.day,
    toolCount: server.latest.toolCount,
    toolsHash: server.latest.toolsHash,
  };
}

export function presentLocalDetail(server: LocalServerView): z.infer<typeof LocalServerDetailSchema> {
  return {
    ...presentLocalSummary(server),
    message: server.latest.message,
    tokens: server.latest.tokens,
    findings: server.latest.findings.map((finding) => ({
      id: finding.id,
      message: finding.message,
      ...(finding.tools !== undefined ? { tools: finding.tools } : {}),
    })),
    change: server.change,
    tools: presentTools(server),
    score: server.score,
  };
}
