// The root and `./outside` entries must run outside Node (browsers, edge runtimes): nothing they import,
// directly or through their dependencies, may be a Node built-in, and nothing under src/node may be reached from
// them. The built package must load as ESM and CJS from every entry.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const srcDir = join(packageDir, 'src');
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

function specifiersOf(code: string): string[] {
  const found: string[] = [];
  // Comments (doc examples name imports) and type-only imports vanish at build time; the rest loads.
  const runtime = code
    .replace(/^\s*\/\*[\s\S]*?\*\//gm, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/^\s*(import|export)\s+type\s[^;]*;/gm, '');
  for (const match of runtime.matchAll(/(?:^|[\s;}])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]/g))
    found.push(match[1] as string);
  for (const match of runtime.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g)) found.push(match[1] as string);
  for (const match of runtime.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push(match[1] as string);
  return found;
}

/** Walks the run-time import graph from a file; returns the files reached and the built-ins named. */
function walk(entry: string): { files: Set<string>; builtins: string[] } {
  const files = new Set<string>();
  const builtins: string[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (BUILTINS.has(specifier)) {
        builtins.push(`${specifier} (from ${file})`);
        continue;
      }
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        const candidates = file.startsWith(srcDir)
          ? [target.replace(/\.js$/, '.ts'), target]
          : [target, `${target}.js`, `${target}.cjs`, join(target, 'index.js'), join(target, 'index.cjs')];
        const hit = candidates.find((c) => existsSync(c) && !c.endsWith('/'));
        if (hit !== undefined) queue.push(hit);
        continue;
      }
      queue.push(createRequire(file).resolve(specifier));
    }
  }
  return { files, builtins };
}

describe('the root entry is free of Node built-ins', () => {
  const graph = walk(join(srcDir, 'index.ts'));

  it('reaches the dependencies through the walk (the walk is not empty)', () => {
    const reached = [...graph.files];
    expect(reached.some((f) => f.includes('@modelcontextprotocol') && f.includes('types'))).toBe(true);
    expect(reached.some((f) => f.includes('tldts'))).toBe(true);
    expect(reached.some((f) => f.includes('zod'))).toBe(true);
    expect(reached.length).toBeGreaterThan(20);
  });

  it('imports no Node built-in, directly or through a dependency', () => {
    expect(graph.builtins).toEqual([]);
  });

  it('never reaches the node/ folder', () => {
    expect([...graph.files].filter((f) => f.startsWith(join(srcDir, 'node')))).toEqual([]);
  });

  it('the outside entry imports no Node built-in and never reaches the node/ folder', () => {
    const outsideGraph = walk(join(srcDir, 'outside.ts'));
    expect(outsideGraph.builtins).toEqual([]);
    expect([...outsideGraph.files].filter((f) => f.startsWith(join(srcDir, 'node')))).toEqual([]);
  });

  it('the node entry does import Node built-ins (the walk would see them)', () => {
    const nodeGraph = walk(join(srcDir, 'node', 'index.ts'));
    expect(nodeGraph.builtins.some((b) => b.startsWith('node:http'))).toBe(true);
  });
});

describe('the built package', () => {
  beforeAll(() => {
    if (!['node.cjs', 'outside.cjs'].every((file) => existsSync(join(packageDir, 'dist', file)))) {
      const tsup = createRequire(join(packageDir, 'package.json')).resolve('tsup/dist/cli-default.js');
      execFileSync(process.execPath, [tsup], { cwd: packageDir, stdio: 'ignore' });
    }
  });

  function node(args: string[]): string {
    return execFileSync(process.execPath, args, { cwd: packageDir, encoding: 'utf8' }).trim();
  }

  it('loads the root and outside ESM entries with every Node built-in forbidden', () => {
    // A resolve hook that throws on any built-in: importing those entries must not trip it.
    const hooks = `export async function resolve(s, c, next) { if (s.startsWith('node:') || ${JSON.stringify([...BUILTINS])}.includes(s)) throw new Error('built-in ' + s + ' from ' + c.parentURL); return next(s, c); }`;
    const register = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));`;
    const out = node([
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      '--input-type=module',
      '-e',
      "const m = await import('@mcp-atlas/probe'); const o = await import('@mcp-atlas/probe/outside'); console.log(typeof m.probeServer, typeof m.checkTarget, 'probeStdio' in m, typeof o.readGitHubRepository)",
    ]);
    expect(out).toBe('function function false function');
  });

  it('the same hook does trip on the node entry, so the check above has teeth', () => {
    const hooks = `export async function resolve(s, c, next) { if (s.startsWith('node:http')) throw new Error('built-in ' + s); return next(s, c); }`;
    const register = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));`;
    expect(() =>
      execFileSync(
        process.execPath,
        [
          '--import',
          `data:text/javascript,${encodeURIComponent(register)}`,
          '--input-type=module',
          '-e',
          "await import('@mcp-atlas/probe/node')",
        ],
        {
          cwd: packageDir,
          stdio: 'pipe',
        },
      ),
    ).toThrow(/built-in node:http/);
  });

  it('requires every entry from CommonJS', () => {
    const out = node([
      '--input-type=commonjs',
      '-e',
      "const root = require('@mcp-atlas/probe'); const n = require('@mcp-atlas/probe/node'); const o = require('@mcp-atlas/probe/outside'); console.log(root.checkTarget('https://127.0.0.1/').reason, typeof n.probeStdio, typeof n.nodeNetwork.lookup, o.rdapDomainOf('mcp.example.com'))",
    ]);
    expect(out).toBe('guard:ip-literal function function example.com');
  });

  it('imports the node entry as ESM', () => {
    const out = node([
      '--input-type=module',
      '-e',
      "const n = await import('@mcp-atlas/probe/node'); console.log(Object.keys(n).sort().join(','))",
    ]);
    expect(out).toBe(
      'LocalInstallError,ProcessGroupStdioTransport,STDIO_EXIT_GRACE_MS,STDIO_ISOLATIONS,STDIO_KILL_GRACE_MS,checkLocalPackage,createNodeHttpClient,endProcessGroup,findBubblewrap,findSandbox,installCommandOf,installPackage,isProcessGroupAlive,isStdioIsolation,lookupHost,nodeNetwork,probeStdio,probeStdioProcess,sandboxCommand',
    );
  });

  it('ships declarations for every entry and format', () => {
    for (const entry of ['index', 'rules', 'outside', 'node'])
      for (const file of [`${entry}.d.ts`, `${entry}.d.cts`])
        expect(existsSync(join(packageDir, 'dist', file))).toBe(true);
    expect(readFileSync(join(packageDir, 'dist', 'index.js'), 'utf8')).not.toMatch(/from ['"]node:/);
  });
});
