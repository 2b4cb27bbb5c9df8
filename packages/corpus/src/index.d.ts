/** One tool as the corpus loader hands it out: the MCP tools/list shape, normalized across sources. */
export interface CorpusTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** One server's tool list from the corpus. */
export interface CorpusServer {
  /** File the list came from, relative to the corpus folder. */
  file: string;
  /** A stable id: the file name without `.json`, or `pool:<server name>` for the README-derived pool. */
  id: string;
  /** `list` for one-server files (a real tools/list or close to it), `pool` for the README-derived pool. */
  source: 'list' | 'pool';
  tools: CorpusTool[];
  /** The tools array exactly as it appears in the file (before normalization). */
  raw: unknown[];
}

/** Error thrown when the corpus folder is missing; its message names the path that was tried. */
export declare class CorpusMissingError extends Error {
  readonly path: string;
}

/** The corpus folder: `MCP_ATLAS_CORPUS` when set, else `<repo>/../shared/corpus`. */
export declare function corpusDir(): string;

/** Every server in the corpus, normalized. Throws {@link CorpusMissingError} when the folder is missing. */
export declare function loadCorpus(options?: { includePool?: boolean }): CorpusServer[];

/** Every tool of every server, flattened. */
export declare function loadCorpusTools(options?: { includePool?: boolean }): CorpusTool[];

/**
 * The test files a corpus vitest config should run: `patterns` when the corpus folder exists or `CI` is set
 * (then a missing corpus fails, naming its path), else none, after a warning that says where the corpus goes.
 */
export declare function corpusTestFiles(
  patterns: string[],
  env?: Record<string, string | undefined>,
  warn?: (text: string) => void,
): string[];
