// The stdio isolation setting of `mcp-atlas check`: the flag, then MCP_ATLAS_STDIO_ISOLATION, then `auto`. A bad
// value is a usage error (exit 2) that starts nothing; an HTTP check neither takes the flag nor reads the variable.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCheckArguments } from '../src/check/command.js';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';

const lingering = fileURLToPath(new URL('./fixtures/check-stdio-lingering.mjs', import.meta.url));
const folders: string[] = [];

function workDir(): string {
  const dir = makeWorkDir();
  folders.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The spawn step's detail of a check of the fixture server with `args` and `environment`. */
async function spawnDetail(args: readonly string[], environment: Record<string, string>): Promise<string | null> {
  const dir = workDir();
  const run = await runCheckIn(dir, ['--json', ...args, '--', process.execPath, lingering, join(dir, 'pid')], {
    environment,
  });
  expect(run.code).toBe(0);
  return CheckReportSchema.parse(JSON.parse(run.stdout)).steps[0]?.detail ?? null;
}

describe('check --stdio-isolation', () => {
  it('reads the flag, and is null when it is not given', () => {
    expect(parseCheckArguments(['--stdio-isolation', 'process-group', '--', 'node', 's.js']).stdioIsolation).toBe(
      'process-group',
    );
    expect(parseCheckArguments(['--', 'node', 's.js']).stdioIsolation).toBeNull();
  });

  it('uses a PID namespace by default, the variable when set, and the flag over the variable', async () => {
    expect(await spawnDetail([], {})).toBe('in its own PID namespace (bubblewrap)');
    expect(await spawnDetail([], { MCP_ATLAS_STDIO_ISOLATION: 'process-group' })).toBe('in its own process group');
    expect(
      await spawnDetail(['--stdio-isolation', 'pid-namespace'], { MCP_ATLAS_STDIO_ISOLATION: 'process-group' }),
    ).toBe('in its own PID namespace (bubblewrap)');
    // An empty variable is as good as unset.
    expect(await spawnDetail([], { MCP_ATLAS_STDIO_ISOLATION: '' })).toBe('in its own PID namespace (bubblewrap)');
  });

  it('refuses a word that is not a mode, from the flag or the variable, naming the three', async () => {
    const modes = 'must be one of auto, pid-namespace, process-group';
    const flag = await runCheckIn(workDir(), ['--stdio-isolation', 'none', '--', process.execPath, lingering, 'x']);
    expect(flag).toMatchObject({ code: 2 });
    expect(flag.stderr).toContain(`--stdio-isolation ${modes}`);
    const dir = workDir();
    const variable = await runCheckIn(dir, ['--', process.execPath, lingering, join(dir, 'pid')], {
      environment: { MCP_ATLAS_STDIO_ISOLATION: 'sandbox' },
    });
    expect(variable).toMatchObject({ code: 2, stdout: '' });
    expect(variable.stderr).toContain(`MCP_ATLAS_STDIO_ISOLATION ${modes}`);
  });

  it('is refused for an HTTP server, whose check ignores the variable', async () => {
    const flag = await runCheckIn(workDir(), ['http://127.0.0.1:9/mcp', '--stdio-isolation', 'auto']);
    expect(flag).toMatchObject({ code: 2 });
    expect(flag.stderr).toContain('--stdio-isolation is for a stdio server');
    const http = await runCheckIn(workDir(), ['--json', '--timeout', '500', 'http://127.0.0.1:9/mcp'], {
      environment: { MCP_ATLAS_STDIO_ISOLATION: 'sandbox' },
    });
    // Nothing listens on port 9: the check runs and reports the server down, rather than a usage error.
    expect(http.code).toBe(1);
    expect(CheckReportSchema.parse(JSON.parse(http.stdout)).letter).toBe('d');
  });
});
