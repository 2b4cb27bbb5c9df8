// The baseline (lock) file: the tool hashes and levels a server author commits, and the comparison of a
// fresh check against it. The tool definitions are kept too, because a rename is recognised by its
// description and schema, which a hash alone cannot show.
import { readFile } from 'node:fs/promises';
import { diffToolLists, hashTool, hashToolList, readToolName } from '@mcp-atlas/findings';
import type { ProbeResult } from '@mcp-atlas/probe';
import { BASELINE_SCHEMA } from './constants.js';
import { describeToolChange } from './describe-change.js';
import { CheckUsageError } from './errors.js';
import { diffEntries, hashEntry } from './list-all.js';
import {
  type BaselineComparison,
  type BaselineEntry,
  type BaselineFile,
  BaselineFileSchema,
  type CheckedTool,
  type EntryListDiff,
} from './report-schema.js';

/** The resources, resource templates and prompts `--list-all` read, for the lock file; null without `--list-all`. */
export interface ListedDefinitions {
  resources: BaselineEntry[];
  /** Keyed by URI template. */
  resourceTemplates: BaselineEntry[];
  prompts: BaselineEntry[];
}

/**
 * Builds the baseline of a check: one entry per tool, in the server's order (and resources, resource templates and
 * prompts when read).
 */
export function buildBaseline(
  target: string,
  result: ProbeResult,
  tools: readonly CheckedTool[],
  listed: ListedDefinitions | null = null,
): BaselineFile {
  return {
    schema: BASELINE_SCHEMA,
    target,
    serverVersion: result.serverInfo?.version ?? null,
    protocolVersion: result.protocolVersion,
    listHash: hashToolList(result.tools),
    tools: tools.map((tool, index) => ({
      name: tool.name,
      hash: tool.hash,
      level: tool.level,
      definition: result.tools[index],
    })),
    ...(listed === null
      ? {}
      : { resources: listed.resources, resourceTemplates: listed.resourceTemplates, prompts: listed.prompts }),
  };
}

/** Parses a baseline's text; a file that is not one, or whose hashes do not match its tools, is a usage error. */
export function parseBaseline(text: string, file: string): BaselineFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CheckUsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = BaselineFileSchema.safeParse(json);
  if (!parsed.success)
    throw new CheckUsageError(
      `${file} is not an ${BASELINE_SCHEMA} baseline: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  // A hand edit that changes a definition but not its hash would hide a change from every later check.
  for (const tool of parsed.data.tools) {
    if (hashTool(tool.definition) !== tool.hash)
      throw new CheckUsageError(
        `${file}: the hash of tool "${tool.name}" does not match its definition; write it again with --update-baseline`,
      );
  }
  const { resources = [], resourceTemplates = [], prompts = [] } = parsed.data;
  for (const entry of [...resources, ...resourceTemplates, ...prompts]) {
    if (hashEntry(entry.definition) !== entry.hash)
      throw new CheckUsageError(
        `${file}: the hash of "${entry.key}" does not match its definition; write it again with --update-baseline`,
      );
  }
  return parsed.data;
}

/** Reads a baseline file; a missing file is a usage error that says how to write one. */
export async function readBaseline(file: string): Promise<BaselineFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new CheckUsageError(`${file} does not exist; write it with --update-baseline`);
    throw new CheckUsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return parseBaseline(text, file);
}

// The first tool of a name, in list order: a changed name's detail compares these two.
function firstNamed(tools: readonly unknown[], name: string): unknown {
  return tools.find((tool) => readToolName(tool) === name);
}

const isEmptyDiff = (diff: EntryListDiff | null): boolean =>
  diff === null || diff.added.length + diff.removed.length + diff.changed.length === 0;

/**
 * Compares a fresh check with the baseline: tools added, removed, changed (with what changed in each) and renamed,
 * risk rises, and, when both sides listed them, resources, resource templates and prompts. A lock file written
 * before templates were kept has no `resourceTemplates`: they are not compared (null), as resources are not
 * compared against a lock file written without `--list-all`.
 */
export function compareWithBaseline(
  file: string,
  baseline: BaselineFile,
  result: ProbeResult,
  listed: ListedDefinitions | null = null,
): BaselineComparison {
  const before = baseline.tools.map((tool) => tool.definition);
  const diff = diffToolLists(
    { tools: before, serverVersion: baseline.serverVersion },
    { tools: result.tools, serverVersion: result.serverInfo?.version ?? null },
  );
  const resources =
    listed !== null && baseline.resources !== undefined ? diffEntries(baseline.resources, listed.resources) : null;
  const resourceTemplates =
    listed !== null && baseline.resourceTemplates !== undefined
      ? diffEntries(baseline.resourceTemplates, listed.resourceTemplates)
      : null;
  const prompts =
    listed !== null && baseline.prompts !== undefined ? diffEntries(baseline.prompts, listed.prompts) : null;
  return {
    file,
    added: diff.added,
    removed: diff.removed,
    changed: diff.changed,
    renamed: diff.renamed,
    riskRises: diff.riskRises,
    details: diff.changed.map((name) =>
      describeToolChange(name, firstNamed(before, name), firstNamed(result.tools, name)),
    ),
    resources,
    resourceTemplates,
    prompts,
    unchanged: diff.unchanged && isEmptyDiff(resources) && isEmptyDiff(resourceTemplates) && isEmptyDiff(prompts),
  };
}
