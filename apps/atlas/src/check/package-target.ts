// `check --package npm:NAME@VERSION` (or `pypi:NAME==VERSION`): a published package as the server to check. It is
// installed at that exact version into the package cache and run in the probe's sandbox; the parser reads the
// spec and the settings of where packages come from, and the probe refuses anything that is not an exact version.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { InstallSettings, LocalPackage } from '@mcp-atlas/probe/node';
import { LOCAL_RULES } from '@mcp-atlas/probe/rules';
import { CheckUsageError } from './errors.js';

/** The package a `--package` spec names: `npm:NAME@VERSION` or `pypi:NAME==VERSION`. */
export function parsePackageSpec(spec: string): LocalPackage {
  const npm = /^npm:((?:@[^/@\s]+\/)?[^/@\s]+)@([^@\s]+)$/.exec(spec);
  if (npm !== null) return { registryType: 'npm', identifier: npm[1] as string, version: npm[2] as string };
  const pypi = /^pypi:([^=\s]+)==([^=\s]+)$/.exec(spec);
  if (pypi !== null) return { registryType: 'pypi', identifier: pypi[1] as string, version: pypi[2] as string };
  throw new CheckUsageError(
    `--package takes npm:NAME@VERSION or pypi:NAME==VERSION with an exact version, got "${spec}"`,
  );
}

/** Where packages are installed from and kept: the flags, else the registries' defaults and the user's cache. */
export function installSettingsOf(
  values: { 'npm-registry'?: string; 'pypi-index'?: string; 'package-cache'?: string },
  cwd: string,
): InstallSettings {
  return {
    cacheDir:
      values['package-cache'] === undefined
        ? join(homedir(), '.cache', 'mcp-atlas', 'packages')
        : resolve(cwd, values['package-cache']),
    npmRegistry: registryUrl(values['npm-registry'], '--npm-registry') ?? LOCAL_RULES.defaultNpmRegistry,
    pypiIndex: registryUrl(values['pypi-index'], '--pypi-index') ?? LOCAL_RULES.defaultPypiIndex,
  };
}

function registryUrl(value: string | undefined, flag: string): string | null {
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CheckUsageError(`${flag} takes an http or https URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new CheckUsageError(`${flag} takes an http or https URL, got "${value}"`);
  // npm and pip read a registry's paths below it: the URL names a folder.
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}
