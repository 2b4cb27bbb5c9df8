// Local servers: packages the test makes are served from a loopback npm registry, installed at their exact
// version with install scripts off, and run in the sandbox. Each hostile package ends in a contained failure that
// names its limit, and nothing it starts outlives the check. bubblewrap is installed by
// apps/atlas/scripts/ensure-bubblewrap.sh, which the test script runs.
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLocalPackage, findSandbox, type LocalCheckOptions, type LocalPackage } from '../src/node/index.js';
import { limitThatStopped, missingConfiguration, packageArgs } from '../src/node/local-check.js';
import { LOCAL_RULES } from '../src/rules.js';
import { type FixtureRegistry, minimalServer, startNpmRegistry } from './fixtures/npm-registry.js';
import { processesWith } from './fixtures/processes.js';
import { PYTHON_SERVER, startPypiIndex } from './fixtures/pypi-index.js';

const work = mkdtempSync(join(tmpdir(), 'atlas-local-'));
// A root checker runs the sandbox as an unprivileged user, who must be able to reach the cache.
chmodSync(work, 0o755);
const cacheDir = join(work, 'cache');
const hostMarker = join(work, 'install-script-ran');
const homeMarker = join(tmpdir(), `atlas-local-home-${process.pid}`);
let registry: FixtureRegistry;
let listener: Server;
let listenerPort = 0;
let connectionsSeen = 0;

const npm = (identifier: string, extra: Partial<LocalPackage> = {}): LocalPackage => ({
  registryType: 'npm',
  identifier,
  version: '1.0.0',
  ...extra,
});

const bin = (name: string, source: string) => ({
  name,
  version: '1.0.0',
  bin: { [name]: 'server.js' },
  files: { 'server.js': source },
});

beforeAll(async () => {
  listener = createServer((socket) => {
    connectionsSeen++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerPort = (listener.address() as { port: number }).port;
  registry = await startNpmRegistry([
    {
      ...bin('atlas-fixture-scripts', minimalServer('')),
      scripts: {
        preinstall: `node -e "require('fs').writeFileSync('${hostMarker}', 'pre')"`,
        postinstall: `node -e "require('fs').writeFileSync('${hostMarker}', 'post')"`,
      },
    },
    bin(
      'atlas-fixture-fork-bomb',
      `#!/usr/bin/env node
const { spawn } = require('node:child_process');
const again = () => { const child = spawn('/bin/sleep', ['300']); child.on('error', (e) => { console.error(e.message); process.exit(1); }); child.on('spawn', () => setImmediate(again)); };
again();`,
    ),
    bin('atlas-fixture-busy', '#!/usr/bin/env node\nfor (;;) {}\n'),
    bin(
      'atlas-fixture-chatty',
      "#!/usr/bin/env node\nconst line = 'x'.repeat(1023) + '\\n';\nconst write = () => { while (process.stdout.write(line)); process.stdout.once('drain', write); };\nwrite();\n",
    ),
    bin(
      'atlas-fixture-hungry',
      '#!/usr/bin/env node\nconst kept = [];\nfor (let i = 0; i < 20; i++) kept.push(Buffer.alloc(100 * 1024 * 1024, 1));\n',
    ),
    bin(
      'atlas-fixture-nosy',
      minimalServer(
        `const fs = require('node:fs');
const tried = {};
const attempt = (name, act) => { try { act(); tried[name] = 'allowed'; } catch (error) { tried[name] = error.code; } };
attempt('shadow', () => fs.readFileSync('/etc/shadow'));
attempt('home', () => fs.readdirSync('${process.env.HOME ?? '/root'}'));
attempt('usr', () => fs.writeFileSync('/usr/atlas-fixture', 'x'));
attempt('package', () => fs.writeFileSync(__dirname + '/written', 'x'));
attempt('hostTmp', () => fs.writeFileSync('${homeMarker}', 'x'));
attempt('ownTmp', () => fs.writeFileSync('/tmp/mine', 'x'));
attempt('env', () => { if (Object.keys(process.env).some((name) => !['PATH', 'HOME', 'TMPDIR', 'PWD'].includes(name))) throw Object.assign(new Error(), { code: Object.keys(process.env).join('+') }); });
const net = require('node:net');
const socket = net.connect(${listenerPort}, '127.0.0.1');
socket.on('connect', () => { tried.connect = 'connected'; });
socket.on('error', (error) => { tried.connect = error.code; });`,
        'JSON.stringify(tried)',
      ),
    ),
    bin(
      'atlas-fixture-lingering',
      minimalServer(
        `const { spawn } = require('node:child_process');
spawn('/bin/sleep', ['299.${process.pid}'], { detached: true, stdio: 'ignore' }).unref();
process.stdin.on('end', () => {});
process.on('SIGTERM', () => {});
setInterval(() => {}, 1000);`,
      ),
    ),
  ]);
}, 120_000);

afterAll(async () => {
  await registry?.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
  rmSync(homeMarker, { force: true });
});

const options = (): LocalCheckOptions => ({ cacheDir, npmRegistry: registry.url, pypiIndex: registry.url });

describe('configuration a package declares', () => {
  it('is needed when a required variable or argument has no default, and is never made up', () => {
    const pkg = npm('x', {
      environmentVariables: [
        { name: 'API_KEY', isRequired: true },
        { name: 'REGION', isRequired: true, default: 'eu' },
        { name: 'TOKEN', isRequired: true, default: '{your token}' },
        { name: 'DEBUG' },
      ],
      packageArguments: [
        { type: 'positional', isRequired: true, valueHint: 'dir' } as never,
        { type: 'named', name: '--port', default: '3000' },
        { type: 'positional', value: '/tmp' },
      ],
    });
    expect(missingConfiguration(pkg)).toEqual(['API_KEY', 'TOKEN', 'argument 1']);
    expect(packageArgs(pkg)).toEqual(['--port', '3000', '/tmp']);
  });

  it('stops a check before anything is installed', async () => {
    const result = await checkLocalPackage(
      npm('atlas-fixture-scripts', { environmentVariables: [{ name: 'API_KEY', isRequired: true }] }),
      options(),
    );
    expect(result).toMatchObject({ outcome: 'needs-configuration', letter: 'a', missing: ['API_KEY'] });
    expect(result.probe).toMatchObject({ letter: 'a', reason: 'auth-required', steps: [] });
    expect(registry.downloads.get('atlas-fixture-scripts')).toBeUndefined();
  });
});

describe('which limit stopped a server', () => {
  const ended = (extra: Partial<Parameters<typeof limitThatStopped>[0]>) =>
    limitThatStopped({
      result: { reason: 'process-exited' } as never,
      exit: { code: 1, signal: null },
      stderrTail: '',
      outputOverCap: false,
      ...extra,
    });
  it('reads the checker’s counts first, then the kernel’s signals, then the last words', () => {
    expect(ended({ outputOverCap: true, exit: { code: 152, signal: null } })).toBe('output');
    expect(ended({ exit: { code: 152, signal: null } })).toBe('cpu-time');
    expect(ended({ stderrTail: 'FATAL ERROR: Reached heap limit Allocation failed' })).toBe('memory');
    expect(ended({ stderrTail: 'spawn /bin/sleep EAGAIN' })).toBe('processes');
    expect(ended({ result: { reason: 'deadline' } as never, exit: null })).toBe('wall-time');
    expect(ended({})).toBeNull();
  });
});

describe.runIf(findSandbox().works)('packages run in the sandbox', () => {
  it('installs the exact version with install scripts off, lists its tools, and keeps it cached', async () => {
    const first = await checkLocalPackage(npm('atlas-fixture-scripts'), options());
    expect(first).toMatchObject({ outcome: 'listed', letter: 'o', freshInstall: true, stoppedBy: null });
    expect(first.integrity).toMatch(/^sha512-/);
    expect(first.installCommand).toBe('npx -y atlas-fixture-scripts@1.0.0');
    expect(first.probe?.tools.map((tool) => (tool as { name: string }).name)).toEqual(['report']);
    expect(existsSync(hostMarker)).toBe(false);
    const again = await checkLocalPackage(npm('atlas-fixture-scripts'), options());
    expect(again).toMatchObject({ outcome: 'listed', freshInstall: false, integrity: first.integrity });
    expect(registry.downloads.get('atlas-fixture-scripts')).toBe(1);
  });

  it('refuses a version that is a range or a URL, and a version the registry does not have', async () => {
    const range = await checkLocalPackage(npm('atlas-fixture-scripts', { version: '^1.0.0' }), options());
    expect(range).toMatchObject({ outcome: 'not-installed', installFailure: 'invalid-package' });
    const url = await checkLocalPackage(npm('https://evil.example/x.tgz'), options());
    expect(url).toMatchObject({ outcome: 'not-installed', installFailure: 'invalid-package' });
    const missing = await checkLocalPackage(npm('atlas-fixture-scripts', { version: '9.9.9' }), options());
    expect(missing).toMatchObject({ outcome: 'not-installed', installFailure: 'not-found', letter: 'd' });
  });

  it('sees no host file, no host variable and no network', async () => {
    const result = await checkLocalPackage(npm('atlas-fixture-nosy'), options());
    expect(result.outcome).toBe('listed');
    const tool = result.probe?.tools[0] as { description?: string } | undefined;
    const tried = JSON.parse(tool?.description ?? '{}') as Record<string, string>;
    expect(tried).toMatchObject({
      shadow: 'ENOENT',
      home: 'ENOENT',
      usr: 'EROFS',
      package: 'EROFS',
      ownTmp: 'allowed',
    });
    expect(tried.env).toBe('allowed');
    expect(existsSync(homeMarker)).toBe(false);
    expect(['ECONNREFUSED', 'ENETUNREACH', undefined]).toContain(tried.connect);
    expect(connectionsSeen).toBe(0);
  });

  it.each([
    ['atlas-fixture-fork-bomb', 'processes'],
    ['atlas-fixture-busy', 'cpu-time'],
    ['atlas-fixture-chatty', 'output'],
    ['atlas-fixture-hungry', 'memory'],
  ] as const)('%s is stopped by its %s limit', async (name, limit) => {
    const result = await checkLocalPackage(npm(name), options());
    expect(result).toMatchObject({ outcome: 'stopped', stoppedBy: limit, letter: 'd' });
    expect(result.message).toContain(`stopped by its ${limit} limit`);
    expect(processesWith(cacheDir)).toEqual([]);
  });

  it('leaves nothing running when a server ignores the end of its input and starts a daemon', async () => {
    const result = await checkLocalPackage(npm('atlas-fixture-lingering'), options());
    expect(result.outcome).toBe('listed');
    expect(processesWith(`299.${process.pid}`)).toEqual([]);
    expect(processesWith(cacheDir)).toEqual([]);
  });

  it('has limits below what the hostile packages ask for', () => {
    expect(LOCAL_RULES.limits.memoryBytes).toBeLessThan(2 * 1024 ** 3);
    expect(LOCAL_RULES.limits.processes).toBeLessThan(200);
  });
});

// The reference servers, installed from the npm registry itself at pinned versions.
const REFERENCE_SERVERS: readonly [string, readonly string[], number][] = [
  ['@modelcontextprotocol/server-everything', [], 13],
  ['@modelcontextprotocol/server-memory', [], 9],
  ['@modelcontextprotocol/server-filesystem', ['/tmp'], 14],
];

describe.runIf(findSandbox().works)('real servers from the npm registry', () => {
  it.each(REFERENCE_SERVERS)('%s lists its tools in the sandbox', async (identifier, args, tools) => {
    const result = await checkLocalPackage(
      npm(identifier, {
        version: '2026.8.31',
        packageArguments: args.map((value) => ({ type: 'positional' as const, value })),
      }),
      { cacheDir, npmRegistry: LOCAL_RULES.defaultNpmRegistry, pypiIndex: LOCAL_RULES.defaultPypiIndex },
    );
    expect(result.outcome, result.message).toBe('listed');
    expect(result).toMatchObject({ letter: 'o', stoppedBy: null });
    expect(result.probe?.toolCount).toBe(tools);
    expect(result.probe?.toolsJson).not.toBeNull();
    expect(processesWith(cacheDir)).toEqual([]);
  });
});

describe.runIf(findSandbox().works)('a PyPI package', () => {
  it('is installed as a wheel into a virtual environment and listed in the sandbox', async () => {
    const index = await startPypiIndex([
      { name: 'atlas-fixture-py', version: '1.0.0', module: 'atlas_fixture_py', source: PYTHON_SERVER },
    ]);
    try {
      const pkg: LocalPackage = { registryType: 'pypi', identifier: 'atlas-fixture-py', version: '1.0.0' };
      const result = await checkLocalPackage(pkg, { cacheDir, npmRegistry: registry.url, pypiIndex: index.url });
      expect(result.outcome, result.message).toBe('listed');
      expect(result).toMatchObject({ letter: 'o', installCommand: 'uvx atlas-fixture-py==1.0.0', freshInstall: true });
      expect(result.probe.tools.map((tool) => (tool as { name: string }).name)).toEqual(['get_time']);
      const missing = await checkLocalPackage(
        { ...pkg, version: '2.0.0' },
        { cacheDir, npmRegistry: registry.url, pypiIndex: index.url },
      );
      expect(missing).toMatchObject({ outcome: 'not-installed', installFailure: 'not-found' });
    } finally {
      await index.close();
    }
  });
});
