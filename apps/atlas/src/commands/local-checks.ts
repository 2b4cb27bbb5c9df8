// The local-check settings `scan` and `serve` share: `--local` turns on the sandboxed checks of package-only
// registry entries, installed from `--npm-registry` and `--pypi-index` into `--package-cache`.
import { checkLocalPackage, findSandbox, type InstallSettings } from '@mcp-atlas/probe/node';
import { CheckUsageError } from '../check/errors.js';
import { installSettingsOf } from '../check/package-target.js';
import type { LocalCheckFn } from '../scan/check-local.js';
import { type Flags, UsageError } from './shared.js';

/** The flags of the local checks (their environment variables are in the settings table). */
export const LOCAL_FLAG_OPTIONS = {
  local: { type: 'boolean' },
  'npm-registry': { type: 'string' },
  'pypi-index': { type: 'string' },
  'package-cache': { type: 'string' },
} as const;

const INSTALL_FLAGS = ['npm-registry', 'pypi-index', 'package-cache'] as const;

/**
 * The local checks `--local` turns on: each package installed from the registries given (the public ones by
 * default) into the package cache, and listed in the probe's sandbox. Null without `--local`, and null with a
 * sentence on stderr where no sandbox can be made here: a package is never run outside one.
 */
export function localChecksOf(flags: Flags, cwd: string = process.cwd()): { check: LocalCheckFn } | null {
  if (flags.local !== true) return null;
  let install: InstallSettings;
  try {
    install = installSettingsOf(
      Object.fromEntries(
        INSTALL_FLAGS.flatMap((name) => (typeof flags[name] === 'string' ? [[name, flags[name]]] : [])),
      ),
      cwd,
    );
  } catch (error) {
    if (error instanceof CheckUsageError) throw new UsageError(error.message);
    throw error;
  }
  const sandbox = findSandbox();
  if (!sandbox.works) {
    process.stderr.write(`mcp-atlas: local checks are off: ${sandbox.problem}\n`);
    return null;
  }
  return { check: (pkg) => checkLocalPackage(pkg, install) };
}
