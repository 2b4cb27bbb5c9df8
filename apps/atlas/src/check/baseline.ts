// The baseline (lock) file: the tool hashes and levels a server author commits, and the comparison of a
// fresh check against it. The tool definitions are kept too, because a rename is recognised by its
// description and schema, which a hash alone cannot show.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { diffToolLists, hashTool, hashToolList } from '@mcp-atlas/findings';
import type { ProbeResult } from '@mcp-atlas/probe';
import { BASELINE_SCHEMA } from './constants.js';
import { CheckUsageError } from './errors.js';
import { type BaselineComparison, type BaselineFile, BaselineFileSchema, type CheckedTool } from './report-schema.js';

/** Builds the baseline of a check: one entry per tool, in the server's order. */
export function buildBaseline(target: string, result: ProbeResult, tools: readonly CheckedTool[]): BaselineFile {
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

/** Writes a baseline atomically (temp file, then rename), as stable pretty JSON for readable diffs. */
export async function writeBaseline(file: string, baseline: BaselineFile): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(baseline, null, 2)}\n`, 'utf8');
  await rename(temp, file);
}

/** Compares a fresh tool list with the baseline: added, removed, changed, renamed, and risk rises. */
export function compareWithBaseline(file: string, baseline: BaselineFile, result: ProbeResult): BaselineComparison {
  const diff = diffToolLists(
    { tools: baseline.tools.map((tool) => tool.definition), serverVersion: baseline.serverVersion },
    { tools: result.tools, serverVersion: result.serverInfo?.version ?? null },
  );
  return {
    file,
    added: diff.added,
    removed: diff.removed,
    changed: diff.changed,
    renamed: diff.renamed,
    riskRises: diff.riskRises,
    unchanged: diff.unchanged,
  };
}
