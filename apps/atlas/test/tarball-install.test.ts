// What a user gets from the registry, tried before anything is released: every public package of the
// monorepo is packed with `pnpm pack` (which turns `workspace:^` into real version ranges), the tarballs are
// installed with plain npm into an empty folder outside the monorepo, and the installed `mcp-atlas` bin
// checks a small stdio MCP server there while ESM and CJS consumers import the libraries. The @mcp-atlas
// packages can only come from the tarballs (the folder's package.json overrides every one of them to its
// tarball, and the lock file is checked); their third-party dependencies come from npm's cache or registry.
// The packages must be built first: the app's test task depends on every package's build.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** A workspace package that is published: its folder and its package.json fields that matter here. */
interface PublicPackage {
  dir: string;
  name: string;
  version: string;
  bin: Record<string, string>;
  exports: Record<string, unknown>;
}

/** Every package under packages/ and apps/ whose package.json does not say `"private": true`. */
function listPublicPackages(): PublicPackage[] {
  const found: PublicPackage[] = [];
  for (const group of ['packages', 'apps']) {
    for (const entry of readdirSync(join(repoRoot, group))) {
      const dir = join(repoRoot, group, entry);
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
        name: string;
        version: string;
        private?: boolean;
        bin?: Record<string, string>;
        exports?: Record<string, unknown>;
      };
      if (manifest.private === true) continue;
      found.push({
        dir,
        name: manifest.name,
        version: manifest.version,
        bin: manifest.bin ?? {},
        exports: manifest.exports ?? {},
      });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The environment for npm and the installed bins: the test's own, without the `npm_package_*` and
 * `npm_lifecycle_*` variables pnpm sets for the running script (they describe the monorepo's app, not the
 * user's folder).
 */
function userEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_(package|lifecycle)_/.test(name)) continue;
    env[name] = value;
  }
  return env;
}

/**
 * Runs a program and returns its stdout; on failure the error carries stdout and stderr for the report. The
 * call blocks the test's own hang guard, so `timeout` is the only one it has: far beyond what a loaded machine
 * needs, so it only ever ends a program that hangs.
 */
function run(program: string, args: string[], cwd: string, timeout = 300_000): string {
  try {
    return execFileSync(program, args, { cwd, env: userEnvironment(), encoding: 'utf8', timeout, stdio: 'pipe' });
  } catch (error) {
    const failure = error as Error & { stdout?: string; stderr?: string; status?: number | null };
    throw new Error(
      `${program} ${args.join(' ')} failed in ${cwd} (exit ${failure.status ?? 'none'}): ${failure.message}\n` +
        `stdout: ${failure.stdout ?? ''}\nstderr: ${failure.stderr ?? ''}`,
    );
  }
}

/** Packs one package with pnpm into `into` and returns the tarball's path. */
function packPackage(pkg: PublicPackage, into: string): string {
  expect(existsSync(join(pkg.dir, 'dist')), `${pkg.name} is not built (no dist/)`).toBe(true);
  const before = new Set(readdirSync(into));
  run('npx', ['--yes', 'pnpm@10', 'pack', '--pack-destination', into], pkg.dir);
  const added = readdirSync(into).filter((file) => !before.has(file) && file.endsWith('.tgz'));
  expect(added, `pnpm pack of ${pkg.name}`).toHaveLength(1);
  return join(into, added[0] as string);
}

/** Lists the files of a tarball (paths inside `package/`). */
function tarballFiles(tarball: string): string[] {
  return run('tar', ['-tzf', tarball], resolve(tarball, '..'))
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''));
}

// A stdio MCP server written with the SDK that npm installed next to the CLI (the user's own copy), with one
// read-only tool and one that deletes; `check` must list both with their risk levels.
const SERVER_SOURCE = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'tarball-notes', version: '1.0.0' });
server.registerTool(
  'list_notes',
  { description: 'List the titles of every saved note.', annotations: { readOnlyHint: true } },
  async () => ({ content: [{ type: 'text', text: 'groceries' }] }),
);
server.registerTool(
  'delete_note',
  { description: 'Delete a saved note for good.', inputSchema: { title: z.string() } },
  async ({ title }) => ({ content: [{ type: 'text', text: 'deleted ' + title }] }),
);
await server.connect(new StdioServerTransport());
`;

const TOOL = `{ name: 'delete_repository', description: 'Delete a repository and all of its issues.' }`;
const ESM_CONSUMER = `import { classifyTool } from '@mcp-atlas/risk';
console.log(JSON.stringify(classifyTool(${TOOL}, { serverHasAnnotations: false })));
`;
const CJS_CONSUMER = `const { classifyTool } = require('@mcp-atlas/risk');
console.log(JSON.stringify(classifyTool(${TOOL}, { serverHasAnnotations: false })));
`;

/** Every entry point (`.`, `./node`) a package's exports map publishes, as import specifiers. */
function entryPoints(pkg: PublicPackage): string[] {
  return Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
}

/**
 * Starts the installed `mcp-atlas serve` on a free loopback port with its own data folder; `url` resolves
 * with the address it logs, `stop` ends the process and waits for it.
 */
function startServe(cwd: string): { url: Promise<string>; stop: () => Promise<void> } {
  const child: ChildProcess = spawn(
    join(cwd, 'node_modules', '.bin', 'mcp-atlas'),
    ['serve', '--data', join(cwd, 'atlas-data'), '--port', '0', '--no-schedule'],
    { cwd, env: userEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // Waits for the address line or the exit, however long a loaded machine takes to start it.
  const url = new Promise<string>((resolveUrl, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('utf8');
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(seen);
      if (match) resolveUrl(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${seen}`)));
  });
  url.catch(() => {});
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('installing the packed tarballs with plain npm, outside the monorepo', () => {
  const packages = listPublicPackages();
  let work: string;
  let tarballs: string;
  let user: string;
  const tarballOf = new Map<string, string>();

  // Every public package packed, then a whole npm install: on a loaded machine, longer than the run's hang guard.
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'atlas-tarballs-'));
    tarballs = join(work, 'tarballs');
    user = join(work, 'user-project');
    mkdirSync(tarballs);
    mkdirSync(user);
    for (const pkg of packages) tarballOf.set(pkg.name, packPackage(pkg, tarballs));
    const dependencies: Record<string, string> = {};
    const overrides: Record<string, string> = {};
    for (const [name, tarball] of tarballOf) {
      dependencies[name] = `file:${tarball}`;
      // A dependency between two @mcp-atlas packages resolves to the tarball too, never to the registry.
      overrides[name] = `$${name}`;
    }
    writeFileSync(
      join(user, 'package.json'),
      JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, dependencies, overrides }, null, 2),
    );
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], user, 600_000);
    writeFileSync(join(user, 'server.mjs'), SERVER_SOURCE);
  }, 1_200_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs every public package, the app included, each with its LICENSE and CHANGELOG and no CJS bin', () => {
    expect(packages.map((pkg) => pkg.name)).toContain('@mcp-atlas/cli');
    expect(packages.map((pkg) => pkg.name)).toContain('@mcp-atlas/risk');
    for (const pkg of packages) {
      const files = tarballFiles(tarballOf.get(pkg.name) as string);
      expect(files, pkg.name).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']));
      expect(
        files.filter((file) => file.endsWith('cli.cjs')),
        pkg.name,
      ).toEqual([]);
      for (const bin of Object.values(pkg.bin)) expect(files, pkg.name).toContain(bin.replace(/^\.\//, ''));
    }
  });

  it('took every @mcp-atlas package from its tarball, with real version ranges between them', () => {
    const lock = JSON.parse(readFileSync(join(user, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string; version?: string; dependencies?: Record<string, string> }>;
    };
    const atlasEntries = Object.entries(lock.packages).filter(([path]) => path.includes('node_modules/@mcp-atlas/'));
    expect(atlasEntries.map(([path]) => path).sort()).toEqual(packages.map((pkg) => `node_modules/${pkg.name}`).sort());
    for (const [path, entry] of atlasEntries) {
      expect(entry.resolved, path).toMatch(/^file:.*\.tgz$/);
      for (const [name, range] of Object.entries(entry.dependencies ?? {})) {
        expect(range, `${path} -> ${name}`).not.toMatch(/^workspace:/);
      }
    }
  });

  it('installs one copy of the MCP SDK: the app declares it, the probe only asks for it as a peer', () => {
    expect(existsSync(join(user, 'node_modules/@modelcontextprotocol/sdk/package.json'))).toBe(true);
    expect(existsSync(join(user, 'node_modules/@mcp-atlas/probe/node_modules/@modelcontextprotocol/sdk'))).toBe(false);
    expect(existsSync(join(user, 'node_modules/@mcp-atlas/cli/node_modules/@modelcontextprotocol/sdk'))).toBe(false);
  });

  it('runs `npx mcp-atlas check --json -- node server.mjs` against a stdio server and lists its tools', () => {
    // --no: never fetch a package called mcp-atlas from the registry; the bin must come from the install.
    // The first `--` ends npx's own options (npx would take `--json` for itself).
    const out = run('npx', ['--no', '--', 'mcp-atlas', 'check', '--json', '--', 'node', 'server.mjs'], user);
    const report = JSON.parse(out) as {
      letter: string;
      transport: string;
      passed: boolean;
      tools: { name: string; level: string }[];
    };
    expect(report.transport).toBe('stdio');
    expect(report.letter).toBe('o');
    expect(report.passed).toBe(true);
    expect(report.tools.map((tool) => [tool.name, tool.level]).sort()).toEqual([
      ['delete_note', 'high-risk'],
      ['list_notes', 'read-only'],
    ]);
  });

  it('serves the methodology page from the installed build, with no repository around it', async () => {
    const server = startServe(user);
    try {
      const base = await server.url;
      const page = await fetch(`${base}/methodology`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<title>Methodology \d+\.\d+\.\d+ /);
    } finally {
      await server.stop();
    }
  });

  it('imports @mcp-atlas/risk from an ES module and from CommonJS and classifies a tool the same way', () => {
    writeFileSync(join(user, 'consumer.mjs'), ESM_CONSUMER);
    writeFileSync(join(user, 'consumer.cjs'), CJS_CONSUMER);
    const fromEsm = JSON.parse(run('node', ['consumer.mjs'], user)) as { level: string };
    const fromCjs = JSON.parse(run('node', ['consumer.cjs'], user)) as { level: string };
    expect(fromEsm.level).toBe('high-risk');
    expect(fromCjs).toEqual(fromEsm);
  });

  it('loads every entry point of every library both ways, with the same export names', () => {
    const specifiers = packages.flatMap(entryPoints);
    expect(specifiers).toContain('@mcp-atlas/probe/node');
    const script = `const out = {};
(async () => {
  for (const id of ${JSON.stringify(specifiers)}) {
    const esm = Object.keys(await import(id)).filter((k) => k !== 'default' && k !== 'module.exports').sort();
    const cjs = Object.keys(require(id)).sort();
    out[id] = { esm, cjs };
  }
  console.log(JSON.stringify(out));
})();
`;
    writeFileSync(join(user, 'entries.cjs'), script);
    const loaded = JSON.parse(run('node', ['entries.cjs'], user)) as Record<string, { esm: string[]; cjs: string[] }>;
    for (const id of specifiers) {
      expect(loaded[id]?.esm.length, id).toBeGreaterThan(0);
      expect(loaded[id]?.cjs, id).toEqual(loaded[id]?.esm);
    }
  });

  it('runs the libraries’ own bins from the install (`mcp-risk`, ESM only)', () => {
    const tools = [
      { name: 'get_forecast', description: 'Read the forecast.', annotations: { readOnlyHint: true } },
      { name: 'drop_table', description: 'Drop a database table.' },
    ];
    writeFileSync(join(user, 'tools.json'), JSON.stringify({ tools }));
    const out = run('npx', ['--no', '--', 'mcp-risk', '--json', 'tools.json'], user);
    const verdicts = JSON.parse(out) as { name: string; level: string }[];
    expect(verdicts.map((verdict) => [verdict.name, verdict.level])).toEqual([
      ['get_forecast', 'read-only'],
      ['drop_table', 'high-risk'],
    ]);
  });
});
