// The app's folders point one way (storage <- data <- domain <- view <- http, pages <- serve, commands): the
// rules live in .dependency-cruiser.cjs and run as the app's lint. This test shows that the rules hold for src/
// and that they do catch an upward import and a cycle.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const APP = resolve(import.meta.dirname, '..');
const CONFIG = join(APP, '.dependency-cruiser.cjs');
const DEPCRUISE = join(APP, 'node_modules', '.bin', 'depcruise');

/** Runs the cruise from `cwd` over `src`; resolves to its exit code and output. */
async function cruise(cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(DEPCRUISE, ['src', '--config', CONFIG, '--output-type', 'err'], { cwd });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const folders: string[] = [];

afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A throwaway tree of TypeScript files, laid out as `files` says (path -> source). */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'atlas-layers-'));
  folders.push(root);
  await writeFile(
    join(root, 'tsconfig.json'),
    '{ "compilerOptions": { "module": "nodenext", "moduleResolution": "nodenext" } }\n',
  );
  for (const [path, source] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), source);
  }
  return root;
}

describe("the app's folder layers", () => {
  it('hold for src/', async () => {
    const result = await cruise(APP);
    expect(result.output).toContain('no dependency violations found');
    expect(result.code).toBe(0);
  });

  it('refuse an import from a higher layer', async () => {
    const root = await tree({
      'src/storage/low.ts': "import { high } from '../view/high.js';\nexport const low = high + 1;\n",
      'src/view/high.ts': 'export const high = 1;\n',
    });
    const result = await cruise(root);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('layer-storage: src/storage/low.ts → src/view/high.ts');
  });

  it('refuse a cycle, even inside one layer', async () => {
    const root = await tree({
      'src/scan/a.ts': "import { b } from '../seal/b.js';\nexport const a = () => b();\n",
      'src/seal/b.ts': "import { a } from '../scan/a.js';\nexport const b = () => a;\n",
    });
    const result = await cruise(root);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no-circular');
  });

  it('refuse a folder that belongs to no layer', async () => {
    const root = await tree({
      'src/misc/loose.ts': "import { x } from '../data/x.js';\nexport const y = x;\n",
      'src/data/x.ts': 'export const x = 1;\n',
    });
    const result = await cruise(root);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('folder-has-a-layer');
  });
});
