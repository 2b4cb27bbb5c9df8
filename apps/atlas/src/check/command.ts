// `mcp-atlas check`: argument parsing and output for the CI command. Exit codes: 0 passed, 1 a gate
// tripped, 2 usage error. Usage errors are handled here (not in commands.ts) so the command owns its messages.
// A gate must never pass by accident: the process's exit code is the failure code from the start and becomes
// the verdict's only once the verdict is printed and every file asked for is written.
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ProbeInputError } from '@mcp-atlas/probe';
import { isStdioIsolation, STDIO_ISOLATIONS, type StdioIsolation } from '@mcp-atlas/probe/node';
import { APP_VERSION } from '../methodology.js';
import { readBaseline } from './baseline.js';
import { checkPublishedUrl } from './check-score.js';
import { findConformanceSuite } from './conformance.js';
import { DEFAULT_BASELINE_FILE, STDIO_ISOLATION_VARIABLE } from './constants.js';
import { CheckUsageError } from './errors.js';
import { formatCheckText } from './format-text.js';
import { needsBaseline, parseGates } from './gates.js';
import { installSettingsOf, parsePackageSpec } from './package-target.js';
import { SecretScrubber } from './redact.js';
import type { BaselineFile } from './report-schema.js';
import { type CheckTarget, runCheck } from './run-check.js';
import { buildSarif } from './sarif.js';
import { type ConfiguredServer, readConfiguredServer } from './server-config.js';
import {
  type ExtraHeader,
  findsProgram,
  isLoopbackUrl,
  parseHeader,
  parseTimeout,
  readPassedEnvironment,
} from './target-access.js';
import { escapeJsonControls } from './terminal-text.js';

export { isLoopbackUrl } from './target-access.js';

/** Exit codes of check: passed, a gate tripped, usage error. */
export const CHECK_EXIT = { passed: 0, tripped: 1, usage: 2 } as const;

/** The usage lines of check, for the app's help text. */
export const CHECK_USAGE = `  check   <url> | -- <command> [args...] | --package npm:NAME@VERSION|pypi:NAME==VERSION   [--json] [--sarif FILE] [--baseline FILE] [--update-baseline]
          [--fail-on GATE[,GATE...]] [--deep [--i-own-this-server]] [--list-all] [--timeout MS]
          [--header 'Name: value']... (HTTP) [--env|-e NAME[=VALUE]]... [--stdio-isolation MODE] (stdio)
          [--config FILE [--server NAME]] (a server from a client configuration's "mcpServers")
          [--published-url URL]
          [--npm-registry URL] [--pypi-index URL] [--package-cache DIR] (--package: installed at that exact version
          with no install script, run in a bubblewrap sandbox with no network and no variable of yours)
          [--conformance [--conformance-scenario NAME]...] (HTTP) the MCP conformance suite's server scenarios
          stdio isolation: auto (default: a PID namespace through bubblewrap where it works), pid-namespace,
          process-group; or set MCP_ATLAS_STDIO_ISOLATION
          check your own MCP server in CI; gates: not-answering (default), high-risk, risk-rise, change, conformance,
          finding:<id>
          exit codes for check: 0 passed, 1 a gate tripped, 2 usage error`;

/** Where check writes; tests pass their own. `fetch` replaces the Node network for HTTP targets. */
export interface CheckEnvironment {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  fetch?: typeof fetch;
  deepCallTimeoutMs?: number;
  /** Where `--env NAME` reads values; the default is process.env. */
  environment?: Readonly<Record<string, string | undefined>>;
  /**
   * Records the exit code as the command goes, for a process that could end before the command returns: the
   * failure code first, the verdict's once everything is written. The default sets process.exitCode.
   */
  setExitCode?: (code: number) => void;
}

const defaultEnvironment = (): CheckEnvironment => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  setExitCode: (code) => {
    process.exitCode = code;
  },
});

const OPTIONS = {
  json: { type: 'boolean' },
  sarif: { type: 'string' },
  baseline: { type: 'string' },
  'update-baseline': { type: 'boolean' },
  'fail-on': { type: 'string', multiple: true },
  deep: { type: 'boolean' },
  'i-own-this-server': { type: 'boolean' },
  'list-all': { type: 'boolean' },
  timeout: { type: 'string' },
  header: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true, short: 'e' },
  config: { type: 'string' },
  server: { type: 'string' },
  'stdio-isolation': { type: 'string' },
  'published-url': { type: 'string' },
  conformance: { type: 'boolean' },
  'conformance-scenario': { type: 'string', multiple: true },
  package: { type: 'string' },
  'npm-registry': { type: 'string' },
  'pypi-index': { type: 'string' },
  'package-cache': { type: 'string' },
} as const;

/** The parsed command line of check. */
export interface CheckArguments {
  target: CheckTarget;
  json: boolean;
  sarif: string | null;
  baseline: string | null;
  updateBaseline: boolean;
  failOn: string[];
  deep: boolean;
  iOwnThisServer: boolean;
  listAll: boolean;
  timeoutMs: number | null;
  headers: ExtraHeader[];
  /**
   * The `--env` entries as given: `NAME`, whose value is read from check's own environment when the check runs,
   * or `NAME=VALUE`. Never printed: an entry may hold a secret.
   */
  env: string[];
  /** `--published-url`: the URL to score the server at (its deployed address), or null. */
  publishedUrl: string | null;
  /** `--stdio-isolation`, or null when not given (then MCP_ATLAS_STDIO_ISOLATION, then `auto`). */
  stdioIsolation: StdioIsolation | null;
  /** `--conformance`: run the MCP conformance suite's server scenarios. */
  conformance: boolean;
  /** `--conformance-scenario` names, in the order given; none runs the default choice. */
  conformanceScenarios: string[];
}

/** Reads a stdio isolation mode from `where` (the flag or the variable); throws CheckUsageError for another word. */
function parseStdioIsolation(value: string, where: string): StdioIsolation {
  if (isStdioIsolation(value)) return value;
  throw new CheckUsageError(`${where} must be one of ${STDIO_ISOLATIONS.join(', ')}`);
}

/**
 * The stdio isolation a check uses: the flag, else a non-empty MCP_ATLAS_STDIO_ISOLATION, else the probe's default
 * (undefined). An HTTP check never reads the variable, so a value meant for stdio checks cannot fail it.
 */
function resolveStdioIsolation(
  parsed: CheckArguments,
  environment: Readonly<Record<string, string | undefined>>,
): StdioIsolation | undefined {
  if (parsed.target.kind !== 'stdio') return undefined;
  if (parsed.stdioIsolation !== null) return parsed.stdioIsolation;
  const fromEnvironment = environment[STDIO_ISOLATION_VARIABLE];
  if (fromEnvironment === undefined || fromEnvironment === '') return undefined;
  return parseStdioIsolation(fromEnvironment, STDIO_ISOLATION_VARIABLE);
}

function parsePublishedUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  const checked = checkPublishedUrl(value);
  if (!checked.ok) throw new CheckUsageError(checked.reason);
  return checked.url;
}

function parseTarget(
  positionals: readonly string[],
  command: readonly string[] | null,
  configured: ConfiguredServer | null,
): CheckTarget {
  if (configured !== null) {
    if (positionals.length > 0 || command !== null)
      throw new CheckUsageError('give a URL, "-- <command>" or --config FILE, only one of them');
    return configured.target;
  }
  if (command !== null) {
    if (positionals.length > 0) throw new CheckUsageError('give either a URL or "-- <command>", not both');
    const [program, ...args] = command;
    if (program === undefined || program === '')
      throw new CheckUsageError('"--" must be followed by the command that starts the server');
    return { kind: 'stdio', command: program, args };
  }
  if (positionals.length !== 1)
    throw new CheckUsageError('check needs one server URL, or "-- <command> [args...]" for a stdio server');
  const url = positionals[0] as string;
  let parsed: URL;
  // The URL is not echoed: it may carry a password or a token.
  try {
    parsed = new URL(url);
  } catch {
    throw new CheckUsageError('the server URL is not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new CheckUsageError(`the server URL must be http or https, got ${parsed.protocol.slice(0, -1)}`);
  return { kind: 'http', url };
}

type ParsedOptions = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>
>;

/** The options before a `--` (after it a stdio command's own words begin), parsed strictly. */
function parseOptions(args: readonly string[]): { parsed: ParsedOptions; command: string[] | null } {
  const split = args.indexOf('--');
  const before = split === -1 ? [...args] : args.slice(0, split);
  try {
    const parsed = parseArgs({ args: before, options: OPTIONS, allowPositionals: true, strict: true });
    return { parsed, command: split === -1 ? null : args.slice(split + 1) };
  } catch (error) {
    throw new CheckUsageError((error as Error).message);
  }
}

/**
 * The server `--config FILE [--server NAME]` names, read from the file (relative to `cwd`), or null without
 * --config. Read before the arguments are parsed whole, since parsing takes the target from it.
 */
export async function configuredServerOf(args: readonly string[], cwd: string): Promise<ConfiguredServer | null> {
  const { values } = parseOptions(args).parsed;
  if (values.config === undefined) {
    if (values.server !== undefined) throw new CheckUsageError('--server NAME picks a server of --config FILE');
    return null;
  }
  return readConfiguredServer(values.config, values.server ?? null, cwd);
}

/**
 * Parses check's arguments (everything after the word `check`); throws CheckUsageError on bad input. With
 * --config, `configured` is the server the file names (see configuredServerOf): its target, env and headers.
 */
export function parseCheckArguments(
  args: readonly string[],
  configured: ConfiguredServer | null = null,
): CheckArguments {
  const { parsed, command } = parseOptions(args);
  const { values, positionals } = parsed;
  if (values.config !== undefined && configured === null)
    throw new CheckUsageError('--config FILE is read first: run the check through runCheckCommand');
  const target =
    values.package === undefined
      ? parseTarget(positionals, command, configured)
      : packageTarget(values, positionals, command, configured);
  if (values.package === undefined && hasInstallFlag(values))
    throw new CheckUsageError('--npm-registry, --pypi-index and --package-cache are for --package');
  const result: CheckArguments = {
    target,
    json: values.json === true,
    sarif: values.sarif ?? null,
    baseline: values.baseline ?? null,
    updateBaseline: values['update-baseline'] === true,
    failOn: values['fail-on'] ?? [],
    deep: values.deep === true,
    iOwnThisServer: values['i-own-this-server'] === true,
    listAll: values['list-all'] === true,
    timeoutMs: parseTimeout(values.timeout),
    headers: [...(configured?.headers ?? []), ...(values.header ?? []).map(parseHeader)],
    env: [...(configured?.env ?? []), ...(values.env ?? [])],
    stdioIsolation:
      values['stdio-isolation'] === undefined
        ? null
        : parseStdioIsolation(values['stdio-isolation'], '--stdio-isolation'),
    publishedUrl: parsePublishedUrl(values['published-url']),
    conformance: values.conformance === true || values['conformance-scenario'] !== undefined,
    conformanceScenarios: values['conformance-scenario'] ?? [],
  };
  assertConformanceFits(result);
  if (target.kind === 'package' && (result.deep || result.listAll))
    throw new CheckUsageError('--deep and --list-all are not for --package: a package is only listed, in its sandbox');
  if (result.headers.length > 0 && target.kind !== 'http')
    throw new CheckUsageError('--header is for an HTTP server; give a stdio server its secrets with --env NAME');
  if (result.env.length > 0 && target.kind !== 'stdio')
    throw new CheckUsageError('--env is for a stdio server; give an HTTP server its token with --header');
  if (result.stdioIsolation !== null && target.kind !== 'stdio')
    throw new CheckUsageError('--stdio-isolation is for a stdio server ("-- <command>")');
  if (result.deep && target.kind === 'http' && !isLoopbackUrl(target.url) && !result.iOwnThisServer) {
    throw new CheckUsageError(
      '--deep calls tools with bad input; it is refused for a non-loopback URL unless --i-own-this-server is also given',
    );
  }
  return result;
}

/** The target of `--package`, which takes the place of a URL, a command and --config. */
function packageTarget(
  values: ParsedOptions['values'],
  positionals: readonly string[],
  command: readonly string[] | null,
  configured: ConfiguredServer | null,
): CheckTarget {
  if (positionals.length > 0 || command !== null || configured !== null)
    throw new CheckUsageError('give a URL, "-- <command>", --config FILE or --package SPEC, only one of them');
  const spec = values.package as string;
  return { kind: 'package', spec, package: parsePackageSpec(spec), install: installSettingsOf(values, process.cwd()) };
}

function hasInstallFlag(values: ParsedOptions['values']): boolean {
  return (
    values['npm-registry'] !== undefined || values['pypi-index'] !== undefined || values['package-cache'] !== undefined
  );
}

// The suite connects by URL alone: it cannot send --header values, and it has no stdio runner.
function assertConformanceFits(parsed: CheckArguments): void {
  if (!parsed.conformance) return;
  if (parsed.target.kind !== 'http')
    throw new CheckUsageError('--conformance runs the suite against an HTTP server URL, not a stdio command');
  if (parsed.headers.length > 0)
    throw new CheckUsageError('--conformance cannot send --header values: the suite connects with the URL alone');
  for (const name of parsed.conformanceScenarios)
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
      throw new CheckUsageError(`--conformance-scenario takes a scenario name such as "ping", got "${name}"`);
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function loadBaseline(
  parsed: CheckArguments,
  cwd: string,
): Promise<{ file: string; path: string; content: BaselineFile | null }> {
  const file = parsed.baseline ?? DEFAULT_BASELINE_FILE;
  const path = resolve(cwd, file);
  const wanted = parsed.baseline !== null;
  // With --update-baseline a missing file is the first run; without it a missing file is a mistake.
  if (!wanted || (parsed.updateBaseline && !(await exists(path)))) return { file, path, content: null };
  return { file, path, content: await readBaseline(path) };
}

// Every file check writes goes through the scrubber, then an atomic write (temp file, fsync, rename). Its folder
// was made, and found writable, before the check ran (prepareOutputs).
async function writeScrubbedJson(path: string, value: unknown, scrubber: SecretScrubber): Promise<void> {
  const text = scrubber.scrub(`${JSON.stringify(value, null, 2)}\n`);
  const temp = `${path}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path).catch(async (error: unknown) => {
    await unlink(temp).catch(() => undefined);
    throw error;
  });
}

// A file that cannot be written (a missing folder, no permission) is the caller's to fix: a usage error, not a crash.
async function writeOrExplain(file: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    throw new CheckUsageError(`cannot write ${file}: ${(error as Error).message}`);
  }
}

/**
 * Makes the folder of every file the check will write and makes sure each can be written into, before the check
 * runs: a report that cannot be written then stops the command before any file is, so a lock file is never left
 * written beside a SARIF file that could not be.
 */
async function prepareOutputs(files: readonly { shown: string; path: string }[]): Promise<void> {
  for (const file of files) {
    try {
      await mkdir(dirname(file.path), { recursive: true });
      await access(dirname(file.path), constants.W_OK);
    } catch (error) {
      throw new CheckUsageError(`cannot write ${file.shown}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
}

/** The files a check with `parsed` writes: the SARIF file and, with --update-baseline, the lock file. */
function outputsOf(parsed: CheckArguments, cwd: string, baselinePath: string): { shown: string; path: string }[] {
  const outputs: { shown: string; path: string }[] = [];
  if (parsed.updateBaseline) outputs.push({ shown: parsed.baseline ?? DEFAULT_BASELINE_FILE, path: baselinePath });
  if (parsed.sarif !== null) outputs.push({ shown: parsed.sarif, path: resolve(cwd, parsed.sarif) });
  return outputs;
}

/** A stdio command that names no program is the caller's typo: a usage error before anything starts. */
async function assertProgramFound(
  target: CheckTarget,
  environment: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<void> {
  if (target.kind !== 'stdio' || (await findsProgram(target.command, environment.PATH ?? process.env.PATH ?? '', cwd)))
    return;
  throw new CheckUsageError(
    `cannot start the server: "${target.command}" is ${target.command.includes('/') ? 'not a program at that path' : 'not a program on PATH'}`,
  );
}

/** Exit codes of a check interrupted by Ctrl-C or a termination signal (128 + the signal's number). */
const INTERRUPTED_EXIT: Readonly<Record<'SIGINT' | 'SIGTERM', number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Runs `work` with Ctrl-C and SIGTERM turned into an orderly exit. A stdio server runs in its own process group,
 * so the terminal's signal no longer reaches it; exiting through `process.exit` runs the probe's exit hook, which
 * ends the server's whole group, where Node's default signal handling would leave it running.
 */
async function withInterruptsEndingTheServer<T>(work: () => Promise<T>): Promise<T> {
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = (): void => process.exit(INTERRUPTED_EXIT[signal]);
    process.once(signal, handler);
    return () => process.removeListener(signal, handler);
  });
  try {
    return await work();
  } finally {
    for (const remove of handlers) remove();
  }
}

async function readTextOrNull(path: string): Promise<string | null> {
  return readFile(path, 'utf8').catch(() => null);
}

async function runParsed(parsed: CheckArguments, env: CheckEnvironment, scrubber: SecretScrubber): Promise<number> {
  const gates = parseGates(parsed.failOn, parsed.conformance);
  const missing = gates.find(needsBaseline);
  if (missing !== undefined && parsed.baseline === null)
    throw new CheckUsageError(`--fail-on ${missing.kind} compares with a baseline: give --baseline FILE`);
  if (!parsed.conformance && gates.some((gate) => gate.kind === 'conformance'))
    throw new CheckUsageError('--fail-on conformance judges the suite: give --conformance');
  const suite = parsed.conformance ? await findConformanceSuite() : null;
  const environment = env.environment ?? process.env;
  const passedEnv = readPassedEnvironment(parsed.env, environment);
  const stdioIsolation = resolveStdioIsolation(parsed, environment);
  for (const value of Object.values(passedEnv)) scrubber.add(value);
  const baseline = await loadBaseline(parsed, env.cwd);
  await assertProgramFound(parsed.target, environment, env.cwd);
  await prepareOutputs(outputsOf(parsed, env.cwd, baseline.path));
  const outcome = await withInterruptsEndingTheServer(() =>
    runCheck({
      target: parsed.target,
      gates,
      baseline: baseline.content === null ? null : { file: baseline.file, content: baseline.content },
      deep: parsed.deep,
      publishedUrl: parsed.publishedUrl,
      listAll: parsed.listAll,
      conformance: suite === null ? null : { suite, scenarios: parsed.conformanceScenarios },
      access: {
        headers: parsed.headers,
        env: passedEnv,
        timeoutMs: parsed.timeoutMs,
        ...(stdioIsolation === undefined ? {} : { stdioIsolation }),
      },
      scrub: (value) => scrubber.scrubValue(value),
      ...(env.fetch === undefined ? {} : { fetch: env.fetch }),
      ...(env.deepCallTimeoutMs === undefined ? {} : { deepCallTimeoutMs: env.deepCallTimeoutMs }),
    }),
  );
  const { report } = outcome;
  if (parsed.updateBaseline) {
    if (outcome.freshBaseline === null)
      env.stderr(`mcp-atlas: ${baseline.file} was not written: no tool list was read (${report.reason})\n`);
    else {
      const fresh = outcome.freshBaseline;
      await writeOrExplain(baseline.file, () => writeScrubbedJson(baseline.path, fresh, scrubber));
      env.stderr(`mcp-atlas: wrote ${baseline.file} (${outcome.freshBaseline.tools.length} tools)\n`);
    }
  }
  if (parsed.sarif !== null) {
    const sarifPath = resolve(env.cwd, parsed.sarif);
    const lockUri = relative(env.cwd, baseline.path).split('\\').join('/');
    // Results point into the lock file only when it exists now (read after --update-baseline wrote it).
    const lockText = await readTextOrNull(baseline.path);
    const lock = lockText === null ? null : { uri: lockUri, text: lockText };
    await writeOrExplain(parsed.sarif, () =>
      writeScrubbedJson(sarifPath, buildSarif(report, lock, APP_VERSION), scrubber),
    );
  }
  // JSON escapes the C0 controls itself; DEL, the C1 and the bidi controls are escaped too: the same JSON.
  env.stdout(parsed.json ? escapeJsonControls(`${JSON.stringify(report, null, 2)}\n`) : formatCheckText(report));
  return report.passed ? CHECK_EXIT.passed : CHECK_EXIT.tripped;
}

/** Remembers the secret of one `--env` entry: the VALUE of `NAME=VALUE`, or the value `NAME` has in `environment`. */
function addEnvSecret(
  scrubber: SecretScrubber,
  entry: string,
  environment: Readonly<Record<string, string | undefined>>,
): void {
  const equals = entry.indexOf('=');
  if (equals !== -1) scrubber.add(entry.slice(equals + 1));
  else if (environment[entry] !== undefined) scrubber.add(environment[entry] as string);
}

/**
 * The secrets of a command line, found before it is parsed (a usage error may still quote an argument): header
 * values, the URL's user info and secret query values, the stdio command's secret words, and `--env` values.
 */
export function collectSecrets(
  args: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): SecretScrubber {
  const scrubber = new SecretScrubber();
  const split = args.indexOf('--');
  const before = split === -1 ? args : args.slice(0, split);
  if (split !== -1) scrubber.addCommandWords(args.slice(split + 1));
  before.forEach((word, index) => {
    const next = before[index + 1];
    if ((word === '--header' || word === '--env' || word === '-e') && next !== undefined) {
      if (word === '--header') scrubber.add(next.slice(next.indexOf(':') + 1).trim());
      else addEnvSecret(scrubber, next, environment);
    } else if (word.startsWith('--header=')) scrubber.add(word.slice(word.indexOf(':') + 1).trim());
    else if (word.startsWith('--env=')) addEnvSecret(scrubber, word.slice('--env='.length), environment);
    // `-eNAME=VALUE`, the short option with its value attached.
    else if (word.startsWith('-e') && word.length > 2 && !word.startsWith('--'))
      addEnvSecret(scrubber, word.slice(2), environment);
    else scrubber.addUrl(word);
  });
  return scrubber;
}

/**
 * Runs `mcp-atlas check` with the arguments after the word `check` and resolves to its exit code.
 *
 * @example await runCheckCommand(['http://127.0.0.1:3000/mcp', '--json', '--fail-on', 'high-risk'])
 */
export async function runCheckCommand(
  args: readonly string[],
  env: CheckEnvironment = defaultEnvironment(),
): Promise<number> {
  const code = await runCheckCommandOnce(args, env);
  env.setExitCode?.(code);
  return code;
}

async function runCheckCommandOnce(args: readonly string[], env: CheckEnvironment): Promise<number> {
  // Until the verdict is printed and every file is written, a process that ends for any reason has failed.
  env.setExitCode?.(CHECK_EXIT.tripped);
  const beforeCommand = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (beforeCommand.includes('--help') || beforeCommand.includes('-h')) {
    env.stdout(`Usage: mcp-atlas check <url> | -- <command> [args...] [options]\n${CHECK_USAGE}\n`);
    return CHECK_EXIT.passed;
  }
  // Everything printed passes through the scrubber too, so a secret echoed by a server or an error never shows.
  const scrubber = collectSecrets(args, env.environment ?? process.env);
  const out: CheckEnvironment = {
    ...env,
    stdout: (text) => env.stdout(scrubber.scrub(text)),
    stderr: (text) => env.stderr(scrubber.scrub(text)),
  };
  try {
    const configured = await configuredServerOf(args, env.cwd);
    for (const secret of configured?.secrets ?? []) scrubber.add(secret);
    return await runParsed(parseCheckArguments(args, configured), out, scrubber);
  } catch (error) {
    // The probe refuses what no check may send (a Host header, a value with a line break): the caller's to fix.
    if (error instanceof CheckUsageError || error instanceof ProbeInputError) {
      // One line and a hint: the whole usage text would bury the message in a CI log.
      out.stderr(`mcp-atlas check: ${error.message}\nrun "mcp-atlas check --help" for its options\n`);
      return CHECK_EXIT.usage;
    }
    throw error;
  }
}
