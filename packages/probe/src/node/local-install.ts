// Node-only: installing one published package, at its exact version, into a cache keyed by name, version and the
// registry's integrity hash. npm installs with every install script off; pip installs wheels only, so no build
// script runs either. Both read only the registry the caller sets, with none of the host's configuration or
// credentials, and nothing here runs the package's own code.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_INSTALL_CAP_BYTES, LOCAL_INSTALL_TIMEOUT_MS, LOCAL_SYSTEM_PYTHONS } from '../local-constants.js';

/** A package a registry entry ships as, with what it says the package needs to start. */
export interface LocalPackage {
  registryType: 'npm' | 'pypi';
  identifier: string;
  version: string;
  /** The entry's declared variables; none gets a value but a declared default. */
  environmentVariables?: readonly LocalVariable[];
  /** The entry's arguments after the entry point (`packageArguments`). */
  packageArguments?: readonly LocalArgument[];
}

/** A declared environment variable of a package. */
export interface LocalVariable {
  name: string;
  isRequired?: boolean | undefined;
  default?: string | undefined;
}

/** A declared argument of a package: positional (its value alone) or named (`--name value`). */
export interface LocalArgument {
  type: 'positional' | 'named';
  name?: string | undefined;
  value?: string | undefined;
  default?: string | undefined;
  isRequired?: boolean | undefined;
}

/** Where packages are installed from and kept. */
export interface InstallSettings {
  /** The folder installs are kept in, one subfolder per name, version and integrity. */
  cacheDir: string;
  npmRegistry: string;
  pypiIndex: string;
}

/** An installed package: its folder, its integrity, whether it was already there, and its entry point. */
export interface Installed {
  dir: string;
  integrity: string;
  cached: boolean;
  /** An absolute path: the package's bin (npm) or console script (pip). */
  entryPoint: string;
  /** The runtime that starts the entry point (Node.js for npm), or null when the entry point starts itself. */
  runtime: string | null;
}

/** Why a package did not install. */
export type InstallFailureReason = 'not-found' | 'install-failed' | 'no-entry-point' | 'too-large' | 'invalid-package';

/** Thrown by `installPackage`; the reason is a word, the message says what happened. */
export class LocalInstallError extends Error {
  constructor(
    readonly reason: InstallFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'LocalInstallError';
  }
}

// npm's rules for a package name, and an exact version (no range, tag, URL or path).
const NPM_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const PYPI_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const EXACT_VERSION = /^[0-9]+(\.[0-9]+)*([-.+]?[A-Za-z0-9]+(\.[A-Za-z0-9]+)*)*$/;
const MARKER = '.mcp-atlas-installed.json';

/** Refuses a name or version that is not a plain name and an exact version: nothing is installed from a URL. */
export function checkPackageSpec(pkg: Pick<LocalPackage, 'registryType' | 'identifier' | 'version'>): void {
  const name = pkg.registryType === 'npm' ? NPM_NAME : PYPI_NAME;
  if (!name.test(pkg.identifier) || pkg.identifier.length > 214)
    throw new LocalInstallError('invalid-package', `"${pkg.identifier}" is not a ${pkg.registryType} package name`);
  if (!EXACT_VERSION.test(pkg.version) || pkg.version.length > 128)
    throw new LocalInstallError('invalid-package', `"${pkg.version}" is not an exact version`);
}

// Installs of the same package version started by one process share one promise, so it is installed once.
const running = new Map<string, Promise<Installed>>();

/**
 * Installs `pkg` at its exact version into `settings.cacheDir`, or finds it there. Throws LocalInstallError with
 * the reason when the version is not published, the install fails or is too large, or there is no entry point.
 */
export function installPackage(pkg: LocalPackage, settings: InstallSettings): Promise<Installed> {
  checkPackageSpec(pkg);
  const key = `${pkg.registryType}\0${pkg.identifier}\0${pkg.version}\0${settings.cacheDir}`;
  let install = running.get(key);
  if (install === undefined) {
    install = (pkg.registryType === 'npm' ? installNpm(pkg, settings) : installPypi(pkg, settings)).finally(() =>
      running.delete(key),
    );
    running.set(key, install);
  }
  return install;
}

/** The folder of one installed version: readable names, and the integrity's hash so a republished tarball differs. */
function installFolder(settings: InstallSettings, pkg: LocalPackage, integrity: string): string {
  const tag = createHash('sha256').update(integrity).digest('hex').slice(0, 16);
  const safe = pkg.identifier.replace(/^@/, '').replace(/\//g, '__');
  return join(settings.cacheDir, pkg.registryType, `${safe}@${pkg.version}-${tag}`);
}

/** The folder's marker, written last, or null while the folder holds no finished install. */
function readMarker(dir: string): Installed | null {
  try {
    return JSON.parse(readFileSync(join(dir, MARKER), 'utf8')) as Installed;
  } catch {
    return null;
  }
}

// The cache folders are made searchable by others: a root checker runs the sandbox as an unprivileged user.
function makeFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
}

/** Starts a fresh install folder: a half-written one (no marker) is removed first. */
function freshFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  makeFolder(dir);
}

function finish(dir: string, installed: Omit<Installed, 'cached'>): Installed {
  const bytes = folderBytes(dir);
  if (bytes > LOCAL_INSTALL_CAP_BYTES) {
    rmSync(dir, { recursive: true, force: true });
    throw new LocalInstallError('too-large', `the install is ${bytes} bytes, over ${LOCAL_INSTALL_CAP_BYTES}`);
  }
  writeFileSync(join(dir, MARKER), JSON.stringify({ ...installed, cached: true }));
  return { ...installed, cached: false };
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/**
 * The host's variables an install keeps: how to reach the registry (proxies) and which certificates to trust.
 * Nothing else, so no token of the host's configuration reaches npm or pip.
 */
const INSTALL_PASSED_VARIABLES = Object.freeze([
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'https_proxy',
  'http_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'PIP_CERT',
]);

/** The environment of an install: the host's PATH and proxy settings only, and configuration files of our own. */
function installEnvironment(settings: InstallSettings): Record<string, string> {
  const home = join(settings.cacheDir, '.home');
  makeFolder(home);
  // npm refuses one file as both its user and its global configuration, so each gets an empty file of its own.
  const userConfig = emptyFile(join(home, 'user.npmrc'));
  const globalConfig = emptyFile(join(home, 'global.npmrc'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    npm_config_userconfig: userConfig,
    npm_config_globalconfig: globalConfig,
    npm_config_cache: join(settings.cacheDir, '.npm'),
    npm_config_update_notifier: 'false',
    PIP_CONFIG_FILE: '/dev/null',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
  };
  for (const name of INSTALL_PASSED_VARIABLES) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function emptyFile(file: string): string {
  if (!existsSync(file)) writeFileSync(file, '');
  return file;
}

/** Runs one install command; resolves with its exit code and the end of its output. */
function runTool(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: LOCAL_INSTALL_TIMEOUT_MS });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-4096);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve({ code: null, output: error.message }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const npmCommand = (): string => (process.platform === 'win32' ? 'npm.cmd' : 'npm');

async function npmIntegrity(
  pkg: LocalPackage,
  settings: InstallSettings,
  env: Record<string, string>,
): Promise<string> {
  const spec = `${pkg.identifier}@${pkg.version}`;
  const view = await runTool(
    npmCommand(),
    ['view', spec, 'dist.integrity', '--json', '--registry', settings.npmRegistry],
    env,
  );
  if (view.code !== 0) {
    // Only the registry's 404 means the version is not published; anything else (TLS, network) is a failed read.
    if (/E404|404 Not Found/.test(view.output))
      throw new LocalInstallError('not-found', `npm has no ${spec}: ${lastLine(view.output)}`);
    throw new LocalInstallError('install-failed', `could not read ${spec} from the registry: ${lastLine(view.output)}`);
  }
  const text = view.output.trim();
  const integrity = text === '' ? null : (JSON.parse(text) as unknown);
  if (typeof integrity !== 'string') throw new LocalInstallError('not-found', `npm has no ${spec}`);
  return integrity;
}

async function installNpm(pkg: LocalPackage, settings: InstallSettings): Promise<Installed> {
  const env = installEnvironment(settings);
  const integrity = await npmIntegrity(pkg, settings, env);
  const dir = installFolder(settings, pkg, integrity);
  const done = readMarker(dir);
  if (done !== null) return done;
  freshFolder(dir);
  const spec = `${pkg.identifier}@${pkg.version}`;
  const run = await runTool(
    npmCommand(),
    [
      'install',
      spec,
      '--prefix',
      dir,
      '--ignore-scripts',
      '--omit=dev',
      '--no-audit',
      '--no-fund',
      '--no-save',
      '--loglevel=error',
      '--registry',
      settings.npmRegistry,
    ],
    env,
  );
  if (run.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new LocalInstallError('install-failed', `npm install ${spec} failed: ${lastLine(run.output)}`);
  }
  const root = join(dir, 'node_modules', pkg.identifier);
  return finish(dir, {
    dir,
    integrity,
    entryPoint: join(root, npmBin(root, pkg.identifier)),
    runtime: process.execPath,
  });
}

/** The package's bin: the only one, or the one named after the package. */
function npmBin(root: string, name: string): string {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin?: unknown };
  const bin = manifest.bin;
  if (typeof bin === 'string' && bin !== '') return bin;
  if (bin !== null && typeof bin === 'object') {
    const bins = Object.entries(bin as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    );
    const short = name.replace(/^@[^/]+\//, '');
    const chosen = bins.length === 1 ? bins[0] : bins.find(([key]) => key === short);
    if (chosen !== undefined) return chosen[1];
  }
  throw new LocalInstallError('no-entry-point', `${name} names no single bin to start`);
}

async function installPypi(pkg: LocalPackage, settings: InstallSettings): Promise<Installed> {
  const env = installEnvironment(settings);
  // pip's own lookup gives no integrity before the download, so the name and version alone key the folder, and
  // the integrity recorded is that name and version.
  const dir = installFolder(settings, pkg, 'pypi');
  const done = readMarker(dir);
  if (done !== null) return done;
  freshFolder(dir);
  const venv = join(dir, 'venv');
  const made = await runTool(systemPython(), ['-m', 'venv', venv], env);
  if (made.code !== 0)
    throw new LocalInstallError('install-failed', `python3 -m venv failed: ${lastLine(made.output)}`);
  const spec = `${pkg.identifier}==${pkg.version}`;
  const run = await runTool(
    join(venv, 'bin', 'python'),
    ['-m', 'pip', 'install', '--only-binary=:all:', '--no-input', '--index-url', settings.pypiIndex, spec],
    env,
  );
  if (run.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    const reason = /no matching distribution|could not find a version/i.test(run.output)
      ? 'not-found'
      : 'install-failed';
    throw new LocalInstallError(reason, `pip install ${spec} failed: ${lastLine(run.output)}`);
  }
  const script = pypiScript(venv, pkg.identifier);
  return finish(dir, { dir, integrity: `pypi:${pkg.identifier}==${pkg.version}`, entryPoint: script, runtime: null });
}

/**
 * The Python a virtual environment is made from: the system's own where there is one, since the sandbox binds
 * system folders; a Python under a user's home (pyenv, say) may sit where the sandbox's user cannot reach.
 */
function systemPython(): string {
  return LOCAL_SYSTEM_PYTHONS.find((path) => existsSync(path)) ?? 'python3';
}

/** The wheel's console script: the only one, or the one named after the package. */
function pypiScript(venv: string, name: string): string {
  const normal = (text: string): string => text.toLowerCase().replace(/[-_.]+/g, '-');
  const lib = join(venv, 'lib');
  const scripts: string[] = [];
  for (const python of readdirSync(lib)) {
    const site = join(lib, python, 'site-packages');
    for (const info of readdirSync(site)) {
      if (!info.endsWith('.dist-info') || !normal(info).startsWith(`${normal(name)}-`)) continue;
      const entryPoints = join(site, info, 'entry_points.txt');
      if (existsSync(entryPoints)) scripts.push(...consoleScripts(readFileSync(entryPoints, 'utf8')));
    }
  }
  const chosen = scripts.length === 1 ? scripts[0] : scripts.find((script) => normal(script) === normal(name));
  if (chosen === undefined) throw new LocalInstallError('no-entry-point', `${name} names no single console script`);
  return join(venv, 'bin', chosen);
}

/** The names under `[console_scripts]` of a wheel's entry_points.txt. */
export function consoleScripts(text: string): string[] {
  const names: string[] = [];
  let inSection = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) inSection = line === '[console_scripts]';
    else if (inSection && line.includes('=')) names.push(line.slice(0, line.indexOf('=')).trim());
  }
  return names;
}

function lastLine(output: string): string {
  const lines = output.trim().split('\n');
  return (lines.find((line) => /ERR!|error/i.test(line)) ?? lines.at(-1) ?? '').slice(0, 300);
}
