// Test-only loader for ../shared/corpus. The corpus holds other people's words, so it is read from
// where it lives and never copied into this repository. Sources differ in shape; this module turns
// each into the MCP tools/list shape so checks can treat every server alike.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const POOL_FILE = 'mcp-zero-308-servers.json';

export class CorpusMissingError extends Error {
  constructor(path) {
    super(
      `The tool-list corpus is missing: no folder at ${path}. ` +
        'Corpus checks read the real tool lists from ../shared/corpus next to the repository ' +
        '(or the folder named by MCP_ATLAS_CORPUS).',
    );
    this.name = 'CorpusMissingError';
    this.path = path;
  }
}

export function corpusDir() {
  const fromEnv = process.env.MCP_ATLAS_CORPUS;
  if (fromEnv) return resolve(fromEnv);
  // packages/corpus/src -> repository root -> its sibling shared/corpus
  return resolve(here, '..', '..', '..', '..', 'shared', 'corpus');
}

function isDirectory(path) {
  return existsSync(path) && statSync(path).isDirectory();
}

function ensureDir(path) {
  if (!isDirectory(path)) throw new CorpusMissingError(path);
}

// The corpus is not part of the repository, so a contributor's clone usually has none. For them the corpus
// checks are skipped with a message saying where the corpus goes; in CI (`CI` set) a missing corpus must fail,
// so the test files stay in and fail with CorpusMissingError naming the path.
export function corpusTestFiles(patterns, env = process.env, warn = (text) => console.warn(text)) {
  const dir = corpusDir();
  if (isDirectory(dir) || env.CI) return patterns;
  warn(
    `Skipping the corpus checks: the tool-list corpus is not at ${dir}. ` +
      'Put it there (see CONTRIBUTING.md, "The tool-list corpus") or set MCP_ATLAS_CORPUS to its folder. ' +
      'With CI set, a missing corpus fails instead.',
  );
  return [];
}

// Docker's catalog and Playwright's README list arguments as an array; rebuild a JSON Schema from them.
function schemaFromArgumentList(args) {
  const properties = {};
  const required = [];
  for (const arg of args) {
    if (!arg || typeof arg !== 'object' || typeof arg.name !== 'string') continue;
    const text = arg.desc ?? arg.description;
    properties[arg.name] = { type: arg.type ?? 'string', ...(text ? { description: text } : {}) };
    if (arg.optional === false || arg.required === true) required.push(arg.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

// The README-derived pool writes parameters as { name: "(type) text" }.
function schemaFromParameterMap(map) {
  const properties = {};
  for (const [name, text] of Object.entries(map)) {
    const match = /^\((\w+)\)\s*(.*)$/s.exec(String(text));
    properties[name] = match
      ? { type: match[1], description: match[2] }
      : { type: 'string', description: String(text) };
  }
  return { type: 'object', properties };
}

function normalizeTool(raw) {
  if (!raw || typeof raw !== 'object') return raw;
  const tool = { name: raw.name };
  if (raw.title !== undefined) tool.title = raw.title;
  if (raw.description !== undefined) tool.description = raw.description;
  if (raw.inputSchema !== undefined) tool.inputSchema = raw.inputSchema;
  else if (Array.isArray(raw.arguments)) tool.inputSchema = schemaFromArgumentList(raw.arguments);
  else if (Array.isArray(raw.parameters)) tool.inputSchema = schemaFromArgumentList(raw.parameters);
  else if (raw.parameter && typeof raw.parameter === 'object') tool.inputSchema = schemaFromParameterMap(raw.parameter);
  if (raw.annotations !== undefined) tool.annotations = raw.annotations;
  return tool;
}

function readJson(dir, file) {
  return JSON.parse(readFileSync(join(dir, file), 'utf8'));
}

export function loadCorpus(options = {}) {
  const includePool = options.includePool ?? true;
  const dir = corpusDir();
  ensureDir(dir);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const servers = [];
  for (const file of files) {
    const data = readJson(dir, file);
    if (file === POOL_FILE) {
      if (!includePool) continue;
      for (const entry of data) {
        const raw = Array.isArray(entry.tools) ? entry.tools : [];
        servers.push({ file, id: `pool:${entry.name}`, source: 'pool', tools: raw.map(normalizeTool), raw });
      }
      continue;
    }
    const raw = Array.isArray(data) ? data : Array.isArray(data.tools) ? data.tools : [];
    servers.push({ file, id: file.replace(/\.json$/, ''), source: 'list', tools: raw.map(normalizeTool), raw });
  }
  if (servers.length === 0) throw new CorpusMissingError(dir);
  return servers;
}

export function loadCorpusTools(options = {}) {
  return loadCorpus(options).flatMap((s) => s.tools);
}
